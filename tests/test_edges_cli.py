"""Edges of the `ludothek` command (issue 14): every bad input is exit status 2 and one line
`error: …` on stderr; non-finite times and huge seeds; no writable kernel cache; `match`
progress, Ctrl-C and orphaned workers; help texts; terminal play messages and saving on
leaving; terminal boards without colour; OpenSpiel registration; the postgres extra."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import ludothek
from ludothek.cli import main

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ludothek"


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 keeps stderr apart anyway


def invoke(*args: str, input: str | None = None):
    return runner().invoke(main, list(args), input=input)


def cli(*args: str, env: dict | None = None, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """``python3 -m ludothek.cli ARGS`` in a real process (real stderr, real exit status)."""
    return subprocess.run([sys.executable, "-m", "ludothek.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=timeout, check=False, **kwargs)


def assert_one_error_line(result, *fragments: str) -> str:
    """Exit status 2, nothing on stdout, exactly one line `error: …` on stderr."""
    code = getattr(result, "exit_code", getattr(result, "returncode", None))
    stdout = result.stdout
    stderr = result.stderr
    assert code == 2, (code, stdout, stderr)
    assert stdout == "", stdout
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr and "Usage:" not in stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# ---------------------------------------------------------------------------- 1. unknown games
@pytest.mark.parametrize("args", [
    ["play", "chess"], ["moves", "chess"], ["perft", "chess", "2"], ["bench", "chess"], ["analyse", "chess"],
    ["match", "chess", "random", "random"], ["solve", "chess"],
])
def test_an_unknown_game_is_one_error_line_for_every_verb(args):
    line = assert_one_error_line(invoke(*args), "'chess'")
    assert "unknown game" in line or "cannot solve" in line


def test_unknown_game_in_a_real_process():
    assert_one_error_line(cli("play", "chess", stdin=subprocess.DEVNULL), "unknown game 'chess'", "trike")


# ---------------------------------------------------------------------------- 2. times
@pytest.mark.parametrize("verb,option", [("bench", "--seconds"), ("analyse", "--seconds"),
                                          ("match", "--seconds-per-move")])
@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "-1", "0"])
def test_times_must_be_finite_and_positive(verb, option, value):
    args = [verb, "trike", "--size", "7"] + (["random", "random"] if verb == "match" else []) + [f"{option}={value}"]
    assert_one_error_line(invoke(*args), option)


def test_analyse_with_nan_seconds_returns_at_once():
    # used to search forever (a deadline of nan is never reached)
    done = cli("analyse", "trike", "--size", "7", "--seconds", "nan", timeout=60)
    assert_one_error_line(done, "--seconds", "finite")


# ---------------------------------------------------------------------------- 3. seeds
@pytest.mark.parametrize("verb", ["bench", "analyse", "match", "play"])
@pytest.mark.parametrize("seed", ["1180591620717411303424", "-1", str(2**63)])
def test_seeds_out_of_range_are_one_error_line(verb, seed):
    args = [verb, "trike", "--size", "7"] + (["random", "random"] if verb == "match" else []) + ["--seed", seed]
    assert_one_error_line(invoke(*args), "--seed", "0<=x<=9223372036854775807")


def test_the_largest_seed_works():
    result = invoke("bench", "trike", "--size", "7", "--seconds", "0.1", "--seed", str(2**63 - 1))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith("playouts_per_s=")


# ---------------------------------------------------------------------------- 4. no writable cache
def _cache_env(tmp_path: Path, how: str) -> dict:
    blocker = tmp_path / "a-file"  # nothing can be created under a file, not even by root
    blocker.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.pop("LUDOTHEK_NO_KERNEL_CACHE_WARNED", None)
    if how == "NUMBA_CACHE_DIR":
        env["NUMBA_CACHE_DIR"] = str(blocker / "numba")
    else:
        env["HOME"] = str(blocker / "home")
    return env


def _in_tree_caches() -> set[Path]:
    return {p for p in PACKAGE.rglob("__pycache__/*") if p.suffix in (".nbi", ".nbc")}


@pytest.mark.parametrize("how", ["NUMBA_CACHE_DIR", "HOME"])
def test_no_writable_cache_compiles_without_one_and_warns_once(tmp_path, how):
    before = _in_tree_caches()
    done = cli("perft", "trike", "2", "--size", "7", env=_cache_env(tmp_path, how), timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1 28\n2 364\n"
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: cannot cache compiled kernels"), done.stderr
    # not numba's fallback next to the source, which keeps stale code (see core/jit_cache.py)
    assert _in_tree_caches() <= before


def _can_mount_read_only() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount --bind / /mnt 2>/dev/null || mount --bind /tmp /tmp"],
                           capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not sys.platform.startswith("linux") or not _can_mount_read_only(),
                    reason="needs unshare -rm (user and mount namespaces) to mount read-only")
def test_read_only_install_and_home(tmp_path):
    """The real case: the package folder and the home are read-only (used to be a RuntimeError
    from numba at import: 'no locator available')."""
    home = tmp_path / "home"
    home.mkdir()
    script = (
        f"mount --bind {ROOT} {ROOT} && mount -o remount,bind,ro {ROOT} && "
        f"mount --bind {home} {home} && mount -o remount,bind,ro {home} && "
        f"cd {ROOT} && exec env -u NUMBA_CACHE_DIR -u XDG_CACHE_HOME -u LUDOTHEK_NO_KERNEL_CACHE_WARNED "
        f"HOME={home} {sys.executable} -m ludothek.cli moves trike --size 7 c1 f4"
    )
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ludothek.new_game("trike", size=7, position="1/2/b2/4/5/3W2/7 b").legal_moves()
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Read-only file system" in lines[0], done.stderr


# ---------------------------------------------------------------------------- 5. usage errors
@pytest.mark.parametrize("args,fragment", [
    (["perft", "trike", "-1"], "negative"),
    (["moves", "trike", "--size", "abc"], "'--size'"),
    (["serve", "--port", "99999"], "'--port'"),
    (["perft"], "missing argument 'GAME'"),
    (["perft", "trike"], "missing argument 'DEPTH'"),
    (["match", "trike", "random"], "missing argument 'AGENT_B'"),
    (["moves", "trike", "--bogus"], "no such option '--bogus'"),
    (["moves", "trike", "-p"], "requires an argument"),
    (["play", "trike", "--seat", "3"], "'--seat'"),
    (["migrate", "--nope"], "no such option"),
    (["nosuchverb"], "no such command"),
])
def test_usage_errors_are_one_line(args, fragment):
    line = assert_one_error_line(invoke(*args), fragment)
    verb = args[0] if args[0] != "nosuchverb" else None
    assert line.endswith(f"(see 'ludothek {verb} --help')" if verb else "(see 'ludothek --help')"), line


def test_usage_error_in_a_real_process():
    assert_one_error_line(cli("perft", "trike", "-1"), "(see 'ludothek perft --help')")


# ---------------------------------------------------------------------------- 6. match
def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _start_long_match() -> subprocess.Popen:
    args = ["-m", "ludothek.cli", "match", "trike", "mcts:0.5s", "random", "-n", "200", "--size", "7", "--workers", "2"]
    # Ctrl-C handled as at a terminal even when these tests run in the background (SIGINT ignored)
    launcher = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                f"os.execv(sys.executable, [sys.executable] + {args!r})")
    return subprocess.Popen([sys.executable, "-c", launcher], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _workers_of(process: subprocess.Popen) -> list[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = [pid for pid in _children(process.pid)
                   if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        if len(workers) == 2:
            return workers
        time.sleep(0.2)
    raise AssertionError("the match did not start two workers")


def _still_running(pids: list[int], bound: float = 30.0) -> list[int]:
    """Those of ``pids`` still running after ``bound`` seconds (none as soon as all have ended:
    the bound is for a failing test only, a busy machine may take a while to end a process)."""
    deadline = time.monotonic() + bound
    while (running := [pid for pid in pids if _running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return running


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_stops_the_match_and_its_workers_at_once():
    process = _start_long_match()
    try:
        workers = _workers_of(process)
        time.sleep(3)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
        started = time.monotonic()
        out, err = process.communicate(timeout=30)
        assert time.monotonic() - started < 10
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert "interrupted:" in err and "of 200 games finished" in err and "Traceback" not in err
    if out:
        assert "(interrupted)" in out.splitlines()[0]
    assert not _still_running(workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_die_with_a_killed_parent():
    process = _start_long_match()
    try:
        workers = _workers_of(process)
        process.kill()  # SIGKILL: no cleanup in the parent at all
        process.wait(timeout=10)
        assert not _still_running(workers)
    finally:
        for pid in _children(process.pid) + [process.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@pytest.mark.parametrize("workers", [1, 2])
def test_run_match_stops_on_ctrl_c_with_the_games_so_far(workers):
    import multiprocessing

    from ludothek.ai.match import MatchInterrupted, game_specs, run_match

    specs = game_specs("trike", "bot:1", "random", 40, seed=5, options=(("size", 7),))

    def progress(_result, done):
        if len(done) == 2:
            raise KeyboardInterrupt

    before = {p.pid for p in multiprocessing.active_children()}
    with pytest.raises(MatchInterrupted) as stop:
        run_match(specs, workers, progress)
    assert len(stop.value.results) == 2
    assert isinstance(stop.value, KeyboardInterrupt)
    workers_left = [p.pid for p in multiprocessing.active_children() if p.pid not in before]
    # killed at once: none runs on (a busy machine may take a moment to reap them)
    deadline = time.time() + 10
    while time.time() < deadline and any(_running(pid) for pid in workers_left):
        time.sleep(0.05)
    assert not [pid for pid in workers_left if _running(pid)]


def test_interrupted_match_prints_the_result_so_far(monkeypatch):
    import ludothek.ai.match as match_module
    from ludothek.ai.match import MatchInterrupted, game_specs, play_game

    specs = game_specs("trike", "bot:1", "random", 3, seed=2, options=(("size", 7),))
    finished = [play_game(spec) for spec in specs]

    def interrupted(specs, workers, progress, ray_address):
        for number, result in enumerate(finished, start=1):
            progress(result, finished[:number])
        raise MatchInterrupted(finished)

    monkeypatch.setattr(match_module, "run_match", interrupted)
    result = invoke("match", "trike", "bot:1", "random", "-n", "100", "--size", "7")
    assert result.exit_code == 130
    assert result.stdout.startswith("trike: bot:1 vs random, 3 games of 100 (interrupted), seed 1\n")
    assert "score" in result.stdout and "interrupted: 3 of 100 games finished" in result.stderr


def test_match_shows_games_score_and_time_left_on_a_terminal(monkeypatch):
    from rich.console import Console

    from ludothek import progress_bars

    screen = io.StringIO()
    monkeypatch.setattr(progress_bars, "stderr_console",
                        lambda: Console(file=screen, force_terminal=True, width=200, color_system=None))
    result = invoke("match", "trike", "bot:1", "random", "-n", "4", "--size", "7")
    assert result.exit_code == 0, result.output
    shown = screen.getvalue()
    assert "4/4" in shown and "score 1.000" in shown and "+4 =0 -0" in shown
    assert "left" in shown


# ---------------------------------------------------------------------------- 7. help texts
def test_help_lists_the_agents_from_the_registry():
    from ludothek.ai.base import agent_names
    from ludothek.ai.levels import LEVELS

    for verb in ("play", "match", "analyse"):
        text = " ".join(invoke(verb, "--help").stdout.split())
        for name in agent_names():
            assert name in text, (verb, name)
        assert f"bot:1 … bot:{max(LEVELS)}" in text and "perfect (bitis only)" in text


@pytest.mark.parametrize("verb", ["moves", "perft", "bench", "play", "analyse", "match"])
def test_help_of_every_game_verb_lists_the_games(verb):
    text = " ".join(invoke(verb, "--help").stdout.split())
    assert f"GAME is one of: {', '.join(ludothek.games())}" in text


def test_solve_writes_with_capital_o_and_explains_small_o(tmp_path):
    text = invoke("solve", "--help").stdout
    assert "-O, --output FILE" in text and "-o, --output" not in text
    assert_one_error_line(invoke("solve", "bitis", "-o", str(tmp_path / "x.npz")), "-O/--output")


# ---------------------------------------------------------------------------- 8. terminal play
def test_play_tells_illegal_moves_from_not_understood_ones():
    result = invoke("play", "trike", "--size", "7", "--lang", "en", input="c1\nc1\nzz\nquit\n")
    assert "Illegal move c1: the cell is occupied" in result.stdout
    assert "Not understood: 'zz'" in result.stdout
    assert "Not understood: 'c1'" not in result.stdout


def test_play_says_why_a_save_failed(tmp_path):
    result = invoke("play", "trike", "--size", "7", "--lang", "en", input=f"c1\nsave {tmp_path}\nquit\n")
    shown = " ".join(result.stdout.split())  # rich wraps long lines
    assert f"Cannot save {tmp_path}: Is a directory" in shown and "Not understood" not in shown
    german = invoke("play", "trike", "--size", "7", "--lang", "de", input=f"c1\nc1\nsave {tmp_path}\nquit\n")
    shown = " ".join(german.stdout.split())
    assert "Unzulässiger Zug c1: das Feld ist besetzt" in shown and f"Kann {tmp_path} nicht speichern" in shown


def _terminal(lines: list, lang: str = "en", interactive: bool = True):
    from rich.console import Console

    from ludothek.terminal import TerminalGame

    screen = io.StringIO()
    script = iter(lines)

    def read(prompt: str) -> str:
        screen.write(prompt)
        item = next(script, EOFError)
        if isinstance(item, type) and issubclass(item, BaseException):
            raise item
        return item

    import random

    game = TerminalGame(ludothek.new_game("trike", size=7), vs="human", me="human", seat=0, lang=lang,
                        rng=random.Random(1), console=Console(file=screen, width=120), read=read,
                        interactive=interactive)
    game.run()
    return screen.getvalue()


@pytest.mark.parametrize("leave", ["quit", KeyboardInterrupt])
def test_leaving_offers_to_save(tmp_path, leave):
    path = tmp_path / "left.ludo"
    shown = " ".join(_terminal(["c1", "f4", leave, "y", str(path)]).split())
    assert "Save the game before leaving? [y/N]" in shown and f"Saved the record to {path}" in shown
    assert ludothek.load(str(path)).moves == ["c1", "f4"]
    assert "Game left unfinished." in shown


def test_leaving_in_german_and_declining(tmp_path):
    shown = _terminal(["c1", "quit", "n"], lang="de")
    assert "Partie vor dem Verlassen speichern? [j/N]" in shown and "gespeichert" not in shown
    path = tmp_path / "g.ludo"
    shown = _terminal(["c1", "quit", "j", str(path)], lang="de")
    assert path.exists() and "Partie gespeichert" in shown


def test_leaving_at_end_of_input_or_without_a_terminal_does_not_ask():
    assert "Save the game" not in _terminal(["c1", EOFError])  # EOF at the move prompt
    assert "Save the game" in _terminal(["c1", "quit", EOFError])  # EOF at the question: just leave
    assert "Save the game" not in _terminal(["c1", "quit"], interactive=False)
    assert "Save the game" not in _terminal(["quit"])  # nothing to save
    result = invoke("play", "trike", "--size", "7", input="c1\nquit\n")  # stdin is not a terminal
    assert result.exit_code == 0 and "Save the game" not in result.stdout


def test_a_failed_save_on_leaving_asks_again(tmp_path):
    path = tmp_path / "second.ludo"
    shown = " ".join(_terminal(["c1", "quit", "y", str(tmp_path), "y", str(path)]).split())
    assert f"Cannot save {tmp_path}" in shown and path.exists()


def test_ctrl_c_while_a_bot_thinks_leaves_cleanly(monkeypatch):
    from ludothek.ai.base import RandomAgent

    def interrupted(self, state):
        raise KeyboardInterrupt

    monkeypatch.setattr(RandomAgent, "choose", interrupted)
    result = invoke("play", "trike", "--size", "7", "--vs", "random", "--seat", "2")
    assert result.exit_code == 0 and "Game left unfinished." in result.stdout


# ---------------------------------------------------------------------------- 9. boards
def _plain(renderable) -> str:
    from rich.console import Console

    console = Console(width=120, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("size", [7, 13])
def test_trike_board_has_column_labels(size):
    lines = _plain(ludothek.new_game("trike", size=size).render()).splitlines()
    bottom = lines[size - 1]
    labels = lines[size]
    assert labels.split() == [str(c) for c in range(1, size + 1)]
    dots = [i for i, ch in enumerate(bottom) if ch == "·"]
    assert [labels[i] for i in dots] == [str(c)[-1] for c in range(1, size + 1)]  # a label under each cell


def test_trigeo_jump_fields_differ_from_empty_cells_without_colour():
    state = ludothek.new_game("trigeo")
    rows = _plain(state.render()).splitlines()[2:8]
    empty_jumps = sum(1 for cell in state.JUMP_FIELDS if state.board[cell] == 0)
    assert empty_jumps == 4
    assert sum(row.count(":") for row in rows) == empty_jumps


def test_hexalit_has_no_jump_field_marks():
    rows = _plain(ludothek.new_game("hexalit", first="white").render()).splitlines()[2:8]
    assert not any(":" in row for row in rows)


@pytest.mark.parametrize("lang,words", [("en", ["B5W", "double 2", "take", "drop", "cube=true"]),
                                        ("de", ["B5W", "double 2", "take", "drop", "Verdopplungswürfel"])])
def test_hexalit_help_shows_rolls_and_the_cube(lang, words):
    result = invoke("play", "hexalit", "--lang", lang, "-o", "cube=true", input="help\nquit\n")
    for word in words:
        assert word in result.stdout, word


# ---------------------------------------------------------------------------- 10. OpenSpiel
@pytest.mark.parametrize("imports", ["import ludothek, pyspiel", "import pyspiel, ludothek",
                                     "import ludothek; from open_spiel.python import rl_environment; import pyspiel"])
def test_openspiel_loads_the_games_after_import_ludothek(imports):
    pytest.importorskip("pyspiel")
    code = f"{imports}\ngame = pyspiel.load_game('ludothek_trike(size=9)')\nprint(game.num_distinct_actions())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["46"]


def test_import_ludothek_does_not_import_openspiel():
    code = "import sys, ludothek; print('pyspiel' in sys.modules, 'numba' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.split() == ["False", "False"], done.stderr


# ---------------------------------------------------------------------------- 11. postgres extra
@pytest.mark.parametrize("verb", ["migrate", "serve"])
def test_missing_psycopg_names_the_extra(verb):
    code = (
        "import sys\n"
        "sys.modules['psycopg'] = None  # as if not installed\n"
        "sys.modules['psycopg_pool'] = None\n"
        "from ludothek.cli import main\n"
        f"main([{verb!r}, '--db', 'postgresql://ludo@127.0.0.1:9/nowhere'] + (['--port', '0'] if {verb!r} == 'serve' "
        "else []), prog_name='ludothek')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert_one_error_line(done, "pip install 'ludothek[postgres]'")


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), 0.0, -2.0])
def test_a_time_budget_must_be_positive_and_finite(seconds):
    from ludothek.ai.budget import Budget
    from ludothek.core.errors import OptionError

    with pytest.raises(OptionError, match="positive, finite"):
        Budget(seconds=seconds)


def test_serve_refuses_a_claim_time_that_is_not_finite():
    result = CliRunner().invoke(main, ["serve", "--claim-after", "nan"])
    assert result.exit_code == 2 and "error:" in result.output and "finite" in result.output


@pytest.mark.parametrize("args", [["replay", "game\0.ludo"], ["solve", "bitis", "-O", "table\0.npz"]])
def test_a_file_name_with_a_nul_character_is_a_usage_error(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and result.output.startswith("error:") and "NUL" in result.output
