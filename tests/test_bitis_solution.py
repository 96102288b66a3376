"""Bitis solved: the shipped table, its self-consistency, an independent search, the agent."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import ludothek
from ludothek.ai.base import make_agent
from ludothek.cli import main
from ludothek.games.bitis import kernels as K
from ludothek.games.bitis.dice import DIE_NAMES, faces_text
from ludothek.games.bitis.perfect import best_moves, value
from ludothek.games.bitis.solution import SHIPPED, Solution, Value, get_solution
from ludothek.games.bitis.solve import DRAW, LOSS, WIN, canonical_key, decode_key, verify
from ludothek.games.bitis.state import BitisState
from ludothek.boards.grid import grid

G = grid()


def state_of_row(solved: Solution, row: int) -> BitisState:
    """The position (A to move) of a table row, built through the position string."""
    cells = np.empty(3, np.int8)
    ors = np.empty(3, np.int8)
    last = decode_key(int(solved.keys[row]), cells, ors)
    fields = [f"{G.compact_names[cells[d]]}:{faces_text(d, int(ors[d]))}" for d in range(3)]
    return BitisState(" ".join(fields + [DIE_NAMES[last], "A"]))


def table_value(solved: Solution, row: int) -> Value:
    outcome = int(solved.values[row])
    return Value(outcome, None if outcome == DRAW else int(solved.distances[row]))


def test_shipped_table_is_the_solution():
    solved = get_solution()
    assert SHIPPED.exists() and SHIPPED.stat().st_size < 1_000_000
    assert len(solved) == 110688
    assert np.all(np.diff(solved.keys.astype(np.int64)) > 0)
    counts = {o: int(np.count_nonzero(solved.values == o)) for o in (WIN, DRAW, LOSS)}
    assert counts == {WIN: 47472, DRAW: 9336, LOSS: 53880}
    assert int(solved.distances[solved.values == WIN].max()) == 11
    assert int(solved.distances[solved.values == LOSS].max()) == 12
    # every position's value is the best over its moves, checked for the whole table
    assert verify(solved.keys.astype(np.int64), solved.values, solved.distances) == 0
    broken = solved.values.copy()
    broken[np.flatnonzero(broken == DRAW)[0]] = WIN
    assert verify(solved.keys.astype(np.int64), broken, solved.distances) > 0


def test_solve_command_recomputes_the_shipped_table(tmp_path):
    out = tmp_path / "bitis.npz"
    result = CliRunner().invoke(main, ["solve", "bitis", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert "identical" in result.output and "loss in 8" in result.output and "verified" in result.output
    assert Solution.load(out).same_as(get_solution())
    bad = CliRunner().invoke(main, ["solve", "trike"])
    assert bad.exit_code != 0 and "only bitis" in bad.output


def test_the_start_is_lost_for_a_in_8():
    assert value("- - - - A") == Value(LOSS, 8)
    state = BitisState()
    values = get_solution().move_values(state)
    assert len(values) == 288 and all(v.outcome == LOSS for v in values.values())
    assert max(v.distance for v in values.values()) == 8
    assert str(value("- 43:9318 - IV B")) == "win in 5"
    assert best_moves("- 43:9318 - IV B") == ["III33:1596"]


def test_values_of_ended_positions():
    assert value("34:1695 33:9514 32:3486 III A") == Value(LOSS, 0)  # A has no placement
    state = BitisState(
        "32:7625 43:8534 33:3486 III B"
    )
    for move in ["IV23:8139", "III22:2971", "IV43:8534", "III32:7625"] * 2:
        state.play(move)
    assert state.is_over() and value(state) == Value(DRAW, None)


def test_table_is_self_consistent_on_a_sample():
    """Every sampled value is the best over its moves: a win has a move to a loss for the
    opponent at distance d - 1 and none quicker, a loss has only moves to wins (the slowest
    at d - 1), a draw has a drawing move and no winning move."""
    solved = get_solution()
    rng = np.random.default_rng(11)
    rows = rng.choice(len(solved), size=1500, replace=False)
    for row in rows:
        state = state_of_row(solved, int(row))
        assert solved.index(state.cells, state.ors, state.last, state.mover) == row
        own = table_value(solved, int(row))
        assert solved.state_value(state) == own
        moves = solved.move_values(state)
        if not moves:
            assert own == Value(LOSS, 0)
            continue
        best = max(moves.values(), key=lambda v: v.rank)
        assert best == own, state.position()
        if own.outcome == WIN:
            assert any(v == own for v in moves.values())
        elif own.outcome == LOSS:
            assert all(v.outcome == LOSS for v in moves.values())
        else:
            assert any(v.outcome == DRAW for v in moves.values())
            assert not any(v.outcome == WIN for v in moves.values())


def test_symmetric_positions_share_values():
    """The north-south mirror with the other player to move, and the east-west mirror."""
    solved = get_solution()
    rng = np.random.default_rng(5)
    for row in rng.choice(len(solved), size=200, replace=False):
        state = state_of_row(solved, int(row))
        fields = state.position().split()
        for flip, mirror in ((True, False), (False, True), (True, True)):
            out = []
            for d in range(3):
                cell, faces = fields[d].split(":")
                r, c = int(cell[0]), int(cell[1])
                n, e, s, w = faces
                if flip:
                    r, n, s = 7 - r, s, n
                if mirror:
                    c, e, w = 5 - c, w, e
                out.append(f"{r}{c}:{n}{e}{s}{w}")
            other = BitisState(" ".join(out + [fields[3], "B" if flip else "A"]))
            assert solved.state_value(other) == table_value(solved, int(row))


def _search(state: BitisState, depth: int) -> Value | None:
    """Plain minimax over the Python state, no table and no symmetry: the exact value if
    the game is decided within ``depth`` plies, else None."""
    if state._ended_by_placement():
        won = state.winner() == state.colours[state.mover]
        return Value(WIN if won else LOSS, 0)
    actions = [int(a) for a in state._buffer[: K.gen_moves(state.cells, state.ors, state.last, state._buffer)]]
    if not actions:
        return Value(LOSS, 0)
    if depth == 0:
        return None
    children = []
    for action in actions:
        token = state._apply(action)
        children.append(_search(state, depth - 1))
        state._unapply(token)
    wins = [c.distance + 1 for c in children if c is not None and c.outcome == LOSS]
    if wins:
        return Value(WIN, min(wins))
    if all(c is not None and c.outcome == WIN for c in children):
        return Value(LOSS, max(c.distance for c in children) + 1)
    return None


def test_table_agrees_with_independent_search():
    solved = get_solution()
    rng = np.random.default_rng(3)
    short = np.flatnonzero((solved.values != DRAW) & (solved.distances <= 3))
    other = np.flatnonzero((solved.values == DRAW) | (solved.distances > 3))
    rows = list(rng.choice(short, 25, replace=False)) + list(rng.choice(other, 10, replace=False))
    for row in rows:
        state = state_of_row(solved, int(row))
        found = _search(state, 3)
        own = table_value(solved, int(row))
        if own.outcome != DRAW and own.distance <= 3:
            assert found == own, state.position()
        else:
            assert found is None, state.position()


def test_every_position_reached_in_play_is_in_the_table():
    solved = get_solution()
    rng = np.random.default_rng(1)
    for _ in range(40):
        state = BitisState()
        while not state.is_over():
            actions = state.legal_actions()
            state.play(int(actions[rng.integers(len(actions))]))
            if state.dice_on_board() == 3 and not state._ended_by_placement():
                assert solved.index(state.cells, state.ors, state.last, state.mover) >= 0, state.position()
                key = int(canonical_key(state.cells, state.ors, state.last, state.mover))
                assert 0 <= key < 576**3 * 3


def test_perfect_agent_wins_as_b_and_fast():
    for seed in range(6):
        state = BitisState()
        b = make_agent("perfect", "bitis", seed=seed)
        a = make_agent("random", "bitis", seed=seed)
        while not state.is_over():
            agent = a if state.mover == 0 else b
            state.play(agent.choose(state))
        assert state.winner() == "b"
    # perfect against perfect: B wins in exactly 8 plies
    state = BitisState()
    a, b = make_agent("perfect", "bitis", seed=1), make_agent("perfect", "bitis", seed=2)
    while not state.is_over():
        state.play((a if state.mover == 0 else b).choose(state))
    assert state.winner() == "b" and state.ply == 8


def test_perfect_agent_analysis_and_errors():
    agent = make_agent("perfect", "bitis", seed=0)
    analysis = agent.analyse(BitisState("- 43:9318 - IV B"))
    assert BitisState("- 43:9318 - IV B").action_to_str(analysis.best) == "III33:1596"
    assert analysis.value > 0.9 and len(analysis.scores) == 4 and len(analysis.line) == 5
    with pytest.raises(ludothek.OptionError):
        make_agent("perfect", "trike")
    with pytest.raises(ludothek.OptionError):
        make_agent("perfect:3", "bitis")
