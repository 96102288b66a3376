"""Puzzles (issue 31, item 2): the shipped sets checked against the engine, the criterion's
exact search, and the miner's command (docs/PUZZLES.md)."""

from __future__ import annotations

import json
import random

import pytest

from ludothek.ai.puzzles import forced, judge, search_judge, verify
from ludothek.core.registry import game_class, game_spec, games


@pytest.fixture()
def run_cli():
    from click.testing import CliRunner

    from ludothek.cli import main

    def run(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    return run


#: the games that ship a puzzle set (a test plugin's game may have none)
WITH_SETS = sorted(g for g in games() if game_spec(g).puzzles)


def test_the_four_games_ship_puzzle_sets():
    assert {"trike", "trigeo", "hexalit", "bitis"} <= set(WITH_SETS)


def shipped(game):
    return game_spec(game).puzzle_set()["puzzles"]


@pytest.mark.parametrize("game", WITH_SETS)
def test_every_game_ships_at_least_200_puzzles_that_parse_with_a_legal_solution(game):
    puzzles = shipped(game)
    assert len(puzzles) >= 200
    assert len({p["id"] for p in puzzles}) == len(puzzles) == len({p["position"] for p in puzzles})
    cls = game_class(game)
    for p in puzzles:
        state = cls(p["position"])
        assert state.position() == p["position"] and state.current_player() >= 0
        assert p["solution"] == p["accepted"][0] and p["kind"] in ("win", "save", "draw")
        legal = set(state.legal_moves())
        assert set(p["accepted"]) <= legal and len(legal) > len(p["accepted"])  # something to get wrong


@pytest.mark.parametrize("game", WITH_SETS)
def test_every_puzzle_has_the_unique_solution_the_criterion_demands(game):
    """The whole set searched again (about 30 s of CPU for all four games)."""
    wrong = [(p["id"], verify(p, game)) for p in shipped(game)]
    assert [w for w in wrong if w[1] is not None] == []


def test_a_puzzle_with_another_solution_or_kind_fails_verification():
    p = dict(shipped("trike")[0])
    state = game_class("trike")(p["position"])
    other = next(m for m in state.legal_moves() if m != p["solution"])
    assert "judge finds" in verify({**p, "solution": other, "accepted": [other]}, "trike")
    assert "judge finds" in verify({**p, "kind": "draw"}, "trike")
    assert verify({**p, "position": "nonsense"}, "trike").startswith("position does not parse")


def test_the_search_proves_wins_and_losses_by_looking_at_every_reply():
    """Trike, played out at random: a position a move before the end, where the mover either
    wins at once (forced within 1 ply) or not; the search agrees with playing each move."""
    cls = game_class("trike")
    rng = random.Random(5)
    checked = 0
    for _ in range(30):
        state = cls(size=7)
        while not state.is_over():
            before = state.copy()
            state.apply_action(rng.choice(state.legal_actions()))
        seat = before.current_player()
        wins = []
        for action in before.legal_actions():
            after = before.copy()
            after.apply_action(action)
            wins.append(after.is_over() and after.returns()[seat] > 0)
        assert forced(before, seat, 1) == any(wins)
        assert not forced(before, seat, 0)
        checked += 1
    assert checked == 30


def test_a_win_in_one_puzzle_has_exactly_one_winning_move():
    for p in shipped("trike"):
        if p["kind"] == "win" and p["depth"] == 1:
            state = game_class("trike")(p["position"])
            seat = state.current_player()
            winners = []
            for move in state.legal_moves():
                after = state.copy()
                after.play(move)
                if after.is_over() and after.returns()[seat] > 0:
                    winners.append(move)
            assert winners == [p["solution"]]
            assert search_judge(state)["solution"] == p["solution"]
            break
    else:
        pytest.fail("no win-in-1 puzzle in the trike set")


def test_the_bitis_judge_reads_the_solved_table():
    from ludothek.games.bitis.solution import get_solution

    p = next(p for p in shipped("bitis") if p["kind"] == "win")
    state = game_class("bitis")(p["position"])
    values = get_solution().move_values(state)
    keeping = sorted(state.action_to_str(a) for a, v in values.items() if v.outcome == 1)
    assert keeping == sorted(p["accepted"]) and judge(state)["accepted"] == p["accepted"]


def test_the_miner_writes_a_file_and_a_second_run_extends_it(tmp_path, run_cli):
    out = tmp_path / "p.json"
    args = ["puzzles", "mine", "trike", "--agents", "random,random", "--random-plies", "0", "--out", str(out)]
    first = run_cli(*args, "--count", "2", "--games", "40")
    assert first.exit_code == 0, first.output
    data = json.loads(out.read_text())
    assert len(data["puzzles"]) == 2 and data["game"] == "trike"
    games_before = data["mined"]["games"]
    second = run_cli(*args, "--count", "3", "--games", "40")
    assert second.exit_code == 0, second.output
    again = json.loads(out.read_text())
    assert again["puzzles"][:2] == data["puzzles"] and len(again["puzzles"]) == 3
    assert again["mined"]["games"] > games_before
    for p in again["puzzles"]:
        assert verify(p, "trike") is None


def test_the_miner_refuses_bad_agents_and_a_file_of_another_game(tmp_path, run_cli):
    bad = run_cli("puzzles", "mine", "trike", "--agents", "random", "--out", str(tmp_path / "x.json"))
    assert bad.exit_code == 2 and "--agents" in bad.output
    other = tmp_path / "b.json"
    other.write_text(json.dumps({"game": "bitis", "puzzles": [], "mined": {"games": 0, "next_seed": 1}}))
    refused = run_cli("puzzles", "mine", "trike", "--agents", "random,random", "--out", str(other))
    assert refused.exit_code == 2 and "bitis" in refused.output
