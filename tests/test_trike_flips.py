"""``benchmarks/trike_flips.py``: the exact values it gives a game's positions, against every line
played out through the game API; how it counts won positions given away; and that ``play`` keeps
the games ``ludothek match`` plays."""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
from pathlib import Path

import ludothek

from .test_trike_mcts3 import exhaustive

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("trike_flips", ROOT / "benchmarks" / "trike_flips.py")
flips = importlib.util.module_from_spec(spec)
spec.loader.exec_module(flips)


def random_game(size, seed):
    rng = random.Random(seed)
    state = ludothek.new_game("trike", size=size)
    while not state.is_over():
        state.play(rng.choice(state.legal_actions()))
    return state


def test_the_values_of_a_games_positions_are_exact_where_the_region_is_small():
    most = 12
    for seed in range(6):
        game = random_game(7, seed)
        plies, winner = flips.solved_game((7, game.record_tokens(), most, 10**7))
        assert game.returns()[winner] == 1
        replay = ludothek.new_game("trike", size=7)
        entries = iter(plies)
        checked = 0
        for move in game.record_tokens():
            if replay.pawn >= 0 and not replay._swap_allowed():
                player, cells, value = next(entries)
                assert player == replay.current_player()
                if cells <= most:
                    assert value == exhaustive(replay), (seed, replay.position())
                    checked += 1
                else:
                    assert value == 0
            replay.play(move)
        assert next(entries, None) is None
        assert checked > 0


def test_a_won_position_given_away_is_counted_against_the_bot_that_moved_and_decides_the_game():
    names = {0: "A", 1: "B"}
    games = [
        # B wins at region 20, gives it away (A wins at 19), A keeps the win to the end
        (names, [(0, 30, 0), (1, 20, 1), (0, 19, 1), (1, 18, -1), (0, 9, 1)], 0),
        # A already lost in the first position solved; B moves in won positions to the end
        (names, [(1, 25, 0), (0, 21, -1), (1, 16, 1), (0, 5, -1), (1, 4, 1)], 1),
        # nothing solved: the regions stay large
        (names, [(0, 40, 0), (1, 35, 0)], 1),
        # A ends the game in a won position with a losing move (the last move is a flip too)
        (names, [(0, 8, 1)], 1),
    ]
    counts = flips.tally(games, most=22)
    assert counts["flips"] == {("B", 16): 1, ("A", 0): 1}
    assert counts["won"] == {("B", 16): 2, ("A", 16): 1, ("A", 0): 2, ("B", 0): 1}
    assert counts["decided"] == {("B", 16): 1, ("A", flips.BEFORE): 1, ("A", flips.UNSOLVED): 1, ("A", 0): 1}
    assert counts["unknown"] == {}
    assert counts["first"] == {3: 2, 2: 1}  # the ply of the first position solved


def test_play_keeps_the_games_of_the_match_with_the_same_seed(tmp_path):
    out = tmp_path / "games.json"
    args = argparse.Namespace(a="mcts:300", b="mcts_v2:300", size=7, n=2, seed=4, workers=1, out=str(out))
    flips.play(args)
    data = json.loads(out.read_text())
    assert (data["a"], data["b"], data["size"], data["seed"]) == ("mcts:300", "mcts_v2:300", 7, 4)
    assert [game["a_seat"] for game in data["games"]] == [0, 1]
    openings = set()
    for game in data["games"]:
        state = ludothek.new_game("trike", size=7)
        for move in game["moves"]:
            state.play(move)  # every move legal
        assert state.is_over() and game["score_a"] == (state.returns()[game["a_seat"]] + 1) / 2
        assert len(game["seconds"]) == 2
        openings.add(game["moves"][0])
    assert len(openings) == 1  # a pair of games shares its opening, as in `ludothek match`
