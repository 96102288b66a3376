"""Hexalit's cube from the learned evaluation and the match equity table with the cube
(``ludothek/games/hexalit/met.py``, docs/CUBE.md): the table's properties and a
recomputation by another method, the net's chance against the NumPy reference, decisions
on constructed positions, and the error table's script on a slice of its data."""

import importlib.util
import json
import random
from pathlib import Path

import numpy as np
import pytest

import ludothek
from ludothek import CHANCE
from ludothek.boards import triangle66 as T
from ludothek.games.dice import net as N
from ludothek.games.dice import search_kernels as SK
from ludothek.games.dice.kernels import NO_JUMPS
from ludothek.games.hexalit import cube, met

from .test_hexalit_cube import AHEAD, LONE_WHITE, START, cube_game

ROOT = Path(__file__).resolve().parent.parent
AWAY = range(1, 10)


# ---------------------------------------------------------------------- the table
def test_the_table_is_symmetric_and_has_its_boundary_values():
    m = met.cube_equity
    for a in AWAY:
        assert m(0, a) == 1.0 and m(a, 0) == 0.0 and m(-2, a) == 1.0
        assert m(a, a) == pytest.approx(0.5, abs=1e-12)
        for b in AWAY:
            assert m(a, b) + m(b, a) == pytest.approx(1.0, abs=1e-12)
            assert 0.0 < m(a, b) < 1.0


def test_the_table_is_monotone():
    m = met.cube_equity
    for a in AWAY:
        for b in AWAY:
            assert m(a + 1, b) < m(a, b) < m(a, b + 1)


def test_two_away_against_one_away_by_hand():
    # The trailer doubles at once if he starts (one game for the match: 50%); if the leader
    # starts, nobody can double before the trailer has won a game: 1/2 · 1/2.
    assert met.cube_equity(2, 1) == pytest.approx((0.5 + 0.25) / 2, abs=1e-9)


def test_without_doubling_the_table_is_the_coin_flip_table():
    table = met.Table(max_cube=1)
    for a in range(1, 7):
        for b in range(1, 7):
            assert table.equity(a, b) == pytest.approx(met.coin_flip_equity(a, b), abs=1e-12)


def _value_iteration_table(size: int, model: met.Model) -> dict:
    """The same model solved another way: plain value iteration over every (stake, holder)
    state at once, written out here independently of ``met``'s policy iteration."""
    p_up = model.up
    n = len(p_up)
    m: dict = {}

    def eq(a, b):
        return 1.0 if a <= 0 else 0.0 if b <= 0 else m[(a, b)]

    for total in range(2, 2 * size + 1):
        for a in range(max(1, total - size), min(size, total - 1) + 1):
            b = total - a
            stakes = [1, 2, 4, 8, 16, 32, 64]
            # holder: "xs", "ys" (only that player may double, stake 1), "x", "y" (holds it)
            keys = [(1, "xs"), (1, "ys")] + [(c, h) for c in stakes for h in ("x", "y")]
            v = {k: np.full(n, 0.5) for k in keys}

            def step(vec, c, a=a, b=b):
                out = np.empty(n)
                for i in range(n):
                    up = vec[i + 1] if i + 1 < n else eq(a - c, b)
                    down = vec[i - 1] if i > 0 else eq(a, b - c)
                    out[i] = p_up[i] * up + (1 - p_up[i]) * down
                return out

            for _ in range(3000):
                new = {}
                for c, h in keys:
                    cont = step(v[(c, h)], c)
                    if 2 * c > 64:
                        new[(c, h)] = cont
                    elif h in ("xs", "x"):
                        offer = np.minimum(step(v[(2 * c, "y")], 2 * c), eq(a - c, b))
                        new[(c, h)] = np.maximum(cont, offer)
                    else:
                        offer = np.maximum(step(v[(2 * c, "x")], 2 * c), eq(a, b - c))
                        new[(c, h)] = np.minimum(cont, offer)
                delta = max(float(np.max(np.abs(new[k] - v[k]))) for k in keys)
                v = new
                if delta < 1e-12:
                    break
            m[(a, b)] = 0.5 * (v[(1, "xs")][model.start] + v[(1, "ys")][model.start])
    return m


def test_the_table_agrees_with_value_iteration_at_small_scores():
    model = met.Model(step=0.7, edge=5)  # a coarse grid: quick to iterate
    table = met.Table(model)
    other = _value_iteration_table(3, model)
    for (a, b), value in other.items():
        assert table.equity(a, b) == pytest.approx(value, abs=1e-7), (a, b)


# ---------------------------------------------------------------------- the net's chance
def _positions(count: int, seed: int):
    rng = random.Random(seed)
    out = []
    state = ludothek.new_game("hexalit")
    while len(out) < count:
        if state.is_over():
            state = ludothek.new_game("hexalit")
        if state.current_player() != CHANCE:
            out.append((state.board.copy(), state.temp.copy(), int(state.side)))
        state.apply_action(rng.choice(state.legal_actions()))
    return out


def test_the_net_chance_agrees_with_the_numpy_reference():
    params = N.unpack(N.shipped_flat("hexalit"))
    w = cube.net_weights()
    for board, temp, side in _positions(30, seed=5):
        hand_white = cube.static_pawns(board, temp, side) * (1 if side == 0 else -1)
        # the cube's hand evaluation is the one the net was trained on top of
        assert hand_white == pytest.approx(SK.static_pawns(SK.HEXALIT, board, temp, side, T.GEO, NO_JUMPS, w),
                                           abs=1e-9)
        ref_white = float(N.pawns_of(params, board[None], temp[None], np.array([side]), np.array([hand_white]))[0])
        mine = cube.net_static_pawns(board, temp, side)
        assert mine == pytest.approx(ref_white if side == 0 else -ref_white, abs=1e-9)
        expected = cube.chance_of(cube.quiet_pawns(board, temp, side, static=cube.net_static_pawns), cube.NET_SLOPE)
        assert cube.net_chance(board, temp, side) == pytest.approx(expected)


def test_net_chance_on_constructed_positions():
    lone = cube_game(LONE_WHITE, "b")
    assert cube.winning_chance(lone, "net") > 0.9
    start = ludothek.new_game("hexalit", cube=True)
    assert 0.4 < cube.winning_chance(start, "net") < 0.65
    ahead = cube_game(AHEAD, "w")
    assert cube.winning_chance(ahead, "net") > 0.6
    assert cube.winning_chance(ahead, "net") > cube.winning_chance(cube_game(START, "w"), "net")


# ---------------------------------------------------------------------- decisions
@pytest.mark.parametrize("chance", ["hand", "net"])
def test_the_bots_decide_with_either_chance(chance, monkeypatch):
    from ludothek.ai.base import make_agent
    from ludothek.games.hexalit.kernels import DOUBLE, DROP, TAKE

    from .test_hexalit_cube import offered

    monkeypatch.setattr(cube, "CHANCE", chance)
    agent = make_agent("bot:1", "hexalit", seed=1)
    assert agent.choose(offered(LONE_WHITE, "b")) == DROP  # a lone 1 against an army
    assert agent.choose(offered(START, "w")) == TAKE
    assert agent.choose(cube_game(LONE_WHITE, "b")) == DOUBLE  # won: cash
    ahead = cube_game(AHEAD, "w")  # a knight and a pawn up: inside the window
    assert agent.choose(ahead) == DOUBLE
    ahead.play("double 2")
    assert agent.choose(ahead) == TAKE


def test_money_play_does_not_depend_on_the_table():
    for equity in ("coin_flip", "cube"):
        assert cube.take_point_at(None, 1, equity) == cube.MONEY_TAKE_POINT
        assert cube.should_double_at(0.72, None, 1, equity=equity)
        assert not cube.should_double_at(0.6, None, 1, equity=equity)


def test_match_decisions_with_the_cube_table():
    # 2-away against 1-away, the leader holding no cube: a drop loses the match, so the
    # trailer cashes (doubles) as soon as he is ahead, and the leader takes anything.
    assert cube.should_double_at(0.55, (2, 1), 1, equity="cube")
    assert cube.take_point_at((1, 2), 1, "cube") == pytest.approx(0.5)
    # the player who needs just the stake never doubles (unless to cash: his opponent drops)
    assert not cube.should_double_at(0.72, (1, 5), 1, equity="cube")
    # a match at 9-away each is close to money play
    assert cube.take_point_at((9, 9), 1, "cube") == pytest.approx(0.25, abs=0.05)
    # the tables differ where the cube matters: 4-away against 2-away, a double to 2; with
    # the cube the leader's 1-away lead after a drop is worth less (the trailer doubles)
    assert cube.take_point_at((4, 2), 1, "coin_flip") == pytest.approx(0.125)
    assert cube.take_point_at((4, 2), 1, "cube") == pytest.approx(2 * met.cube_equity(4, 1))
    assert cube.take_point_at((4, 2), 1, "cube") > 0.2


def test_the_bots_table_is_the_cube_table_in_a_match():
    from ludothek.games.hexalit.match import HexalitMatch

    match = HexalitMatch(5, players=("Ada", "Max"), score={"Ada": 2, "Max": 0})
    state = match.start(white="Ada", position=f"{START.rsplit(' ', 2)[0]} w -", first="white")
    state.play("double 2")
    expected = cube.take_point_at((5, 3), 1, "cube")
    assert cube.take_point(state) == pytest.approx(expected)


# ---------------------------------------------------------------------- the error table
def _script():
    spec = importlib.util.spec_from_file_location("cube_errors", ROOT / "benchmarks" / "cube_errors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_error_script_on_a_slice_of_its_data():
    errors = _script()
    data = json.loads((ROOT / "benchmarks" / "hexalit_cube_positions.json").read_text())
    rolled = [item for item in data["positions"] if item.get("rollouts")][:3]
    assert len(rolled) == 3
    result = errors.evaluate(rolled)
    assert result["positions"] == 3
    for cell in result["rows"].values():
        assert cell["money"]["double_n"] == cell["money"]["take_n"] == 3
        assert cell["match"]["double_n"] == cell["match"]["take_n"] == 9
        for kind in ("money", "match"):
            c = cell[kind]
            assert 0 <= c["clear"] <= c["double_errors"] + c["take_errors"]
            assert c["cost"] >= 0
    assert "| net, NET_SLOPE" in errors.markdown(result)
    for pair in result["compared"].values():
        for kind in ("money", "match"):
            low, high = pair[kind]["ci95"]
            assert low <= pair[kind]["mean"] <= high


def test_the_error_script_counts_no_error_when_the_estimate_is_the_truth():
    errors = _script()
    won = {"position": "unused", "rollouts": 10, "wins": 10, "draws": 0, "losses": 0,
           "pawns": {"hand": cube.WON, "net": cube.WON}}
    lost_half = {"position": "unused", "rollouts": 10, "wins": 3, "draws": 4, "losses": 3,
                 "pawns": {"hand": 0.0, "net": 0.0}}
    result = errors.evaluate([won, lost_half])
    for name, cell in result["rows"].items():
        if name.endswith("+ cube"):
            for kind in ("money", "match"):
                assert cell[kind]["double_errors"] == cell[kind]["take_errors"] == 0, name
    # a wrong estimate is counted: the won game judged even does not cash
    wrong = dict(won, pawns={"hand": 0.0, "net": 0.0})
    result = errors.evaluate([wrong])
    assert all(cell["money"]["double_errors"] == 1 for cell in result["rows"].values())
