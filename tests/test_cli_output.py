"""What the newcomer tripped on in the command's output (issue 33, item 7): piped output is not
wrapped at 80 columns (COLUMNS, when set, is honoured), a game between two agents pauses after
each move on a terminal (--delay), and `analyse` says why it stopped before its time."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

from click.testing import CliRunner

import ludothek
from ludothek.ai.analysis import analyse_position
from ludothek.ai.budget import Budget
from ludothek.cli import _why_stopped, main
from ludothek.core.record import Record, dumps
from ludothek.terminal import TerminalGame


def long_record(tmp_path):
    state = ludothek.new_game("trike", size=13)
    rng = random.Random(3)
    while not state.is_over():
        state.play(rng.choice(state.legal_actions()))
    path = tmp_path / "long.ludo"
    path.write_text(dumps(Record.from_state(state)), encoding="utf-8")
    return path, " ".join(Record.from_state(state).moves)


def piped(*args: str, columns: str | None = None) -> str:
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    env["LUDOTHEK_LANG"] = "en"
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run([sys.executable, "-m", "ludothek.cli", *args], capture_output=True, text=True, env=env,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_piped_output_is_not_wrapped_at_80_columns(tmp_path):
    path, moves = long_record(tmp_path)
    assert len(moves) > 150
    output = piped("replay", str(path))
    assert moves in output.splitlines(), output  # the whole move list on one line
    assert max(len(line) for line in output.splitlines()) < 1000  # and nothing padded to the "width"
    narrow = piped("replay", str(path), columns="40")
    assert moves not in narrow.splitlines() and max(len(line) for line in narrow.splitlines()) <= 40


def watched(delay: float, **agents: str) -> list[float]:
    pauses: list[float] = []
    game = TerminalGame(ludothek.new_game("trike", size=7), vs=agents.get("vs", "random"),
                        me=agents.get("me", "random"), seat=0, lang="en", rng=random.Random(1),
                        read=lambda prompt: "quit", interactive=False, delay=delay, sleep=pauses.append)
    from io import StringIO

    from rich.console import Console

    game.console = Console(file=StringIO(), width=120)
    game.run()
    return pauses


def test_two_agents_pause_after_each_move_but_the_last():
    pauses = watched(0.25)
    assert pauses and set(pauses) == {0.25}
    assert watched(0.0) == []
    # a person playing is never kept waiting
    assert watched(0.25, me="human") == []


def test_play_delays_on_a_terminal_only_by_default(monkeypatch):
    pauses: list[float] = []
    monkeypatch.setattr("ludothek.terminal.time.sleep", pauses.append)
    args = ["play", "trike", "--size", "7", "--me", "random", "--vs", "random", "--seed", "1"]
    result = CliRunner().invoke(main, args)  # output to a pipe: no pause
    assert result.exit_code == 0, result.output
    assert pauses == []
    result = CliRunner().invoke(main, [*args, "--delay", "0.01"])
    assert result.exit_code == 0, result.output
    assert pauses and set(pauses) == {0.01}
    monkeypatch.setattr("rich.console.Console.is_terminal", property(lambda self: True))
    pauses.clear()
    assert CliRunner().invoke(main, args).exit_code == 0
    assert pauses and set(pauses) == {0.5}
    bad = CliRunner().invoke(main, [*args, "--delay", "-1"])
    assert bad.exit_code == 2 and bad.output.startswith("error: ")


def test_analyse_says_why_it_stopped_before_its_time():
    """A won position is settled long before the time is up; the output says so."""
    state = ludothek.new_game("trike", size=7)
    rng = random.Random(5)
    while not state.is_over() and len(state.legal_actions()) > 4:
        state.play(rng.choice(state.legal_actions()))
    if state.is_over():
        state.undo()
    report = analyse_position(state, Budget(seconds=30), None, 1)
    assert report.analysis.seconds < 30 and report.analysis.stopped is not None
    why = _why_stopped(report.analysis, Budget(seconds=30))
    assert why.startswith("stopped before the 30s: "), why
    result = CliRunner().invoke(main, ["analyse", "trike", "--position", state.position(), "--size", "7",
                                       "--seconds", "30"])
    assert result.exit_code == 0, result.output
    assert "stopped before the 30s: " in result.output, result.output
    as_json = CliRunner().invoke(main, ["analyse", "trike", "--position", state.position(), "--size", "7",
                                        "--seconds", "30", "--json"])
    assert json.loads(as_json.output)["stopped"] == report.analysis.stopped


def test_the_reasons_read_as_sentences():
    from ludothek.ai.base import Analysis

    budget = Budget(seconds=5)
    stopped = Analysis(best=0, seconds=3.1, depth=7, stopped="next_depth")
    assert _why_stopped(stopped, budget) == ("stopped before the 5s: depth 7 took 3.10s, more than half the time, "
                                             "and depth 8 takes several times as long, so it would not finish")
    assert "settled" in _why_stopped(Analysis(best=0, stopped="decided"), budget)
    assert "whole game tree" in _why_stopped(Analysis(best=0, stopped="exhausted"), budget)
    assert _why_stopped(Analysis(best=0, stopped=None), budget) == ""
    assert _why_stopped(Analysis(best=0, stopped="decided"), Budget(iterations=100)) == ""
