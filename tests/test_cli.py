"""The `ludothek` command: the moves/perft contract, clean errors, terminal play, bench."""

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import ludothek
from ludothek.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_moves_lists_sorted_legal_moves():
    result = run("moves", "trike", "--size", "7", "c1", "f4")
    assert result.exit_code == 0
    assert result.output.split() == ludothek.new_game("trike", size=7, position="1/2/b2/4/5/3W2/7 b").legal_moves()
    assert result.output.split() == sorted(result.output.split())


def test_moves_json_object():
    result = run("moves", "trike", "--size", "7", "--json", "c1", "f4")
    data = json.loads(result.output)
    assert data == {
        "game": "trike",
        "position": "1/2/b2/4/5/3W2/7 b",
        "to_move": "black",
        "legal": ["d2", "d4", "e3", "e4", "f1", "f2", "f3", "f5", "f6", "g4", "g5"],
        "status": "ongoing",
        "winner": None,
        "score": {"black": 0, "white": 1},
    }


def test_moves_json_at_the_end():
    moves = "c1 f4 f2 f1 e1 e4 e3 g3 g1 g2".split()
    data = json.loads(run("moves", "trike", "--size", "7", "--json", *moves).output)
    assert data["status"] == "over" and data["winner"] == "white" and data["legal"] == []
    assert data["score"] == {"black": 2, "white": 3} and data["to_move"] is None


def test_moves_from_a_position():
    result = run("moves", "trike", "--position", "1/2/3/Wb2/5/6/7 b", "--json")
    assert json.loads(result.output)["position"] == "1/2/3/Wb2/5/6/7 b"


def test_perft_prints_every_depth():
    assert run("perft", "trike", "3", "--size", "7").output == "1 28\n2 364\n3 3612\n"


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["moves", "trike", "--size", "7", "c1", "c1"], "move 2 'c1'"),
        (["moves", "trike", "--size", "7", "q9"], "move 1 'q9'"),
        (["moves", "trike", "--position", "1/2/3 b"], "rows"),
        (["moves", "trike", "--size", "5"], "size"),
        (["moves", "trike", "-o", "colour=red"], "no option 'colour'"),
        (["moves", "trike", "-o", "size"], "NAME=VALUE"),
        (["moves", "chess"], "unknown game"),
        (["perft", "trike", "0"], "DEPTH"),
        (["perft", "trike", "two"], "DEPTH"),
    ],
)
def test_bad_input_exits_2_with_a_message(args, fragment):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_errors_go_to_stderr_in_a_real_process():
    done = subprocess.run(
        [sys.executable, "-m", "ludothek.cli", "moves", "trike", "--size", "7", "c1", "zz"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: move 2 'zz'")


@given(st.lists(st.text(max_size=8), max_size=4), st.text(max_size=20))
def test_fuzzed_arguments_never_crash(moves, position):
    args = ["moves", "trike", "--size", "7", "--json"]
    if position.strip():
        args += ["--position", position]
    result = CliRunner().invoke(main, args + ["--"] + moves)
    assert result.exit_code in (0, 2), result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit)


def test_help_everywhere():
    for verb in ([], ["moves"], ["perft"], ["play"], ["bench"], ["games"], ["replay"]):
        result = run(*verb, "--help")
        assert result.exit_code == 0 and "Usage" in result.output


def test_games_lists_trike_and_its_options():
    output = run("games").output
    assert "trike: Trike" in output and "size=7..19" in output


def test_bench_prints_a_parseable_last_line():
    result = run("bench", "trike", "--size", "7", "--seconds", "0.2")
    last = result.output.strip().splitlines()[-1]
    match = re.fullmatch(r"playouts_per_s=(\d+) plies_per_s=(\d+) mean_plies=([\d.]+)", last)
    assert match and int(match.group(1)) > 0 and 2 < float(match.group(3)) <= 29


def test_play_against_random_and_save(tmp_path):
    path = tmp_path / "game.ludo"
    script = "\n".join(["help", "moves", "zz", "d2", "undo", "d2", f"save {path}", "resign"]) + "\n"
    result = run("play", "trike", "--size", "7", "--vs", "random", "--seed", "3", "--lang", "en", input=script)
    assert result.exit_code == 0, result.output
    assert "Not understood" in result.output and "Legal moves:" in result.output
    assert "Black resigns." in result.output and "White wins." in result.output
    record = ludothek.load(str(path))
    assert record.moves[0] == "d2" and record.tags["White"] == "random"


def test_play_hot_seat_in_german_to_the_end():
    moves = "c1 f4 f2 f1 e1 e4 e3 g3 g1 g2".split()
    result = run("play", "trike", "--size", "7", "--lang", "de", input="\n".join(moves) + "\n")
    assert "Weiß gewinnt." in result.output and "Punkte: Schwarz 2, Weiß 3" in result.output


def test_play_leaves_cleanly_on_end_of_input():
    result = run("play", "trike", "--size", "7", input="c1\n")
    assert result.exit_code == 0 and "Game left unfinished." in result.output


def test_replay_checks_a_record(tmp_path):
    good = tmp_path / "good.ludo"
    good.write_text('[Game "trike"]\n[Size "7"]\n\n1. c1 f4 *\n', encoding="utf-8")
    assert "c1 f4" in run("replay", str(good)).output
    bad = tmp_path / "bad.ludo"
    bad.write_text('[Game "trike"]\n[Size "7"]\n\n1. c1 c1 *\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(bad)])
    assert result.exit_code == 2 and "line 4" in result.output
