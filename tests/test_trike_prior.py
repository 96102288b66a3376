"""Trike's learned move prior (:mod:`ludothek.games.trike.prior_kernels`): the compiled features
against a plain reference written from the geometry, the priors against a NumPy softmax, the
shipped weights' recorded values, the prior steering the PUCT search, and the fit script."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

import ludothek
from ludothek import OptionError
from ludothek.ai.base import make_agent
from ludothek.ai.budget import Budget
from ludothek.games.trike import mcts3
from ludothek.games.trike import prior_kernels as P
from ludothek.games.trike.kernels import targets
from ludothek.games.trike.mcts3 import Settings
from ludothek.games.trike.mcts3_kernels import free_counts

from .test_trike_mcts3 import played

ROOT = Path(__file__).resolve().parents[1]


def positions(count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        size = rng.choice((7, 13))
        state = played(size, rng.randrange(3, size * 3), rng)
        if state is not None:
            found.append(state)
    return found


# ------------------------------------------------------------- a plain reference
def hex_distance(a, b):
    """Steps between two cells of the triangle (axial coordinates (row, column), where the
    neighbours differ by (0, ±1), (±1, 0) or (±1, ±1) with equal signs)."""
    dr, dc = b[0] - a[0], b[1] - a[1]
    return max(abs(dr), abs(dc), abs(dr - dc))


def ring_class(ring):
    """The class of a ring of six states under turning and mirroring: its smallest reading."""
    forms = [ring[i:] + ring[:i] for i in range(6)]
    forms += [list(reversed(form)) for form in forms]
    return min(tuple(form) for form in forms)


def winner_if_ended(board, neighbours, cell):
    counted = [cell] + [int(n) for n in neighbours[cell] if n >= 0]
    black = sum(board[c] == 1 for c in counted)
    white = sum(board[c] == 2 for c in counted)
    return 1 if black > white else 2


def reference_features(state, cell):
    """What each feature means, computed from coordinates and the rules alone."""
    board, neighbours, colour = state.board, state.geometry.neighbours, int(state.colour_to_move)
    where = state.geometry.coords
    offsets = {(0, 1): 0, (1, 1): 1, (1, 0): 2, (0, -1): 3, (-1, -1): 4, (-1, 0): 5}  # in turn around a cell
    ring = [0] * 6
    dead = 0
    for other, (r, c) in enumerate(where):
        step = (r - where[cell][0], c - where[cell][1])
        if step in offsets:
            state_of = 1 if board[other] == 0 else (2 if board[other] == colour else 3)
            ring[offsets[step]] = state_of
            empty_around = sum(1 for n in neighbours[other] if n >= 0 and board[n] == 0)
            dead += board[other] == 0 and empty_around == 1
    after = board.copy()
    after[cell] = colour
    hands = False
    if any(n >= 0 and board[n] == 0 and n != cell for n in neighbours[cell]):  # the game goes on
        buffer = np.empty(board.shape[0], np.int16)
        for reply in buffer[: targets(after, neighbours, cell, buffer)]:
            if all(n < 0 or after[n] != 0 for n in neighbours[reply] if n != cell):
                final = after.copy()
                final[reply] = 3 - colour
                hands = hands or winner_if_ended(final, neighbours, int(reply)) == 3 - colour
    far = [other for other in range(len(where)) if hex_distance(where[cell], where[other]) == 2]
    mine = sum(board[o] == colour for o in far)
    theirs = sum(board[o] not in (0, colour) for o in far)
    return {"ring": ring_class(ring), "dead": min(dead, 3), "hands_over": hands,
            "balance": max(-4, min(4, mine - theirs)), "empty": sum(board[o] == 0 for o in far)}


def compiled_features(state):
    board, neighbours = state.board, state.geometry.neighbours
    free = np.empty(board.shape[0], np.int8)
    free_counts(board, neighbours, free)
    cells = np.empty(board.shape[0], np.int16)
    rows = np.empty((board.shape[0], P.PER_MOVE), np.int64)
    n = P.position_features(board, neighbours, P.second_ring(neighbours), free, int(state.pawn),
                            int(state.colour_to_move), cells, rows)
    return [int(c) for c in cells[:n]], rows[:n]


def test_the_compiled_features_agree_with_a_plain_reference():
    classes_seen = {}
    checked = 0
    for state in positions(40, seed=3):
        cells, rows = compiled_features(state)
        assert sorted(cells) == sorted(a for a in state.legal_actions() if a != state.swap_action)
        for cell, row in zip(cells, rows):
            expected = reference_features(state, cell)
            pattern = int(row[0]) - P.NEIGHBOURS
            # the compiled class numbers rings in its own order: one class per reference ring
            assert classes_seen.setdefault(expected["ring"], pattern) == pattern
            assert row[1] == P.DEAD_ENDS + expected["dead"]
            assert row[2] == P.HANDS_OVER + int(expected["hands_over"])
            assert row[3] == P.RING_BALANCE + expected["balance"] + 4
            assert row[4] == P.RING_EMPTY + expected["empty"]
            checked += 1
    assert len(set(classes_seen.values())) == len(classes_seen)  # and different rings, different classes
    assert checked > 300 and len(classes_seen) > 20


def test_there_are_430_ring_classes():
    # rings of six over four states up to turning and mirroring (bracelets): 430
    assert int(P.NEIGHBOUR_CLASSES.max()) + 1 == 430


def test_the_priors_are_the_softmax_of_the_summed_weights():
    weights = mcts3.shipped_prior()
    assert weights.shape == (P.FEATURES,)
    for state in positions(10, seed=5):
        cells, rows = compiled_features(state)
        board, neighbours = state.board, state.geometry.neighbours
        free = np.empty(board.shape[0], np.int8)
        free_counts(board, neighbours, free)
        priors = np.empty(len(cells))
        P.move_priors(P.factors_of(weights), board, neighbours, P.second_ring(neighbours), free, int(state.colour_to_move),
                      np.array(cells, np.int16), len(cells), priors, np.empty(P.PER_MOVE, np.int64))
        logits = weights[rows].sum(axis=1)
        expected = np.exp(logits - logits.max())
        np.testing.assert_allclose(priors, expected / expected.sum(), rtol=1e-12)


def test_the_shipped_weights_give_their_recorded_values():
    state = ludothek.new_game("trike", size=7)
    for move in ("d2", "d3", "c2", "c3", "e5", "e2"):
        state.play(state.parse_move(move))
    cells, rows = compiled_features(state)
    logits = mcts3.shipped_prior()[rows].sum(axis=1)
    got = {state.action_to_str(c): round(float(v), 4) for c, v in zip(cells, logits)}
    assert got == SHIPPED_LOGITS


#: the shipped weights' logits of the moves from that position, recorded when they were fitted
SHIPPED_LOGITS = {"e1": 2.0382, "e3": 2.6213, "e4": -2.2206, "d1": 1.5476, "f2": 2.6923, "g2": 2.8058, "f3": 2.406,
                  "g4": 2.5613}


def visits_of_handing_over(weight, tmp_path):
    """The share of the root's visits that go to moves handing the opponent a win, with a prior
    that likes (+) or dislikes (-) such moves by ``weight``."""
    weights = np.zeros(P.FEATURES)
    weights[P.HANDS_OVER + 1] = weight
    path = tmp_path / f"prior{weight}.npz"
    np.savez(path, weights=weights)
    shares = []
    for state in positions(6, seed=11):
        cells, rows = compiled_features(state)
        handing = {c for c, row in zip(cells, rows) if row[2] == P.HANDS_OVER + 1}
        if not handing or len(handing) == len(cells):
            continue
        settings = Settings(puct=5.0, prior=str(path))
        analysis = mcts3.search(state, Budget(iterations=300).clock(), random.Random(1), settings)
        total = sum(analysis.visits.values())
        shares.append(sum(n for a, n in analysis.visits.items() if a in handing) / total)
    assert shares
    return float(np.mean(shares))


def test_the_prior_steers_the_puct_search(tmp_path):
    assert visits_of_handing_over(-5.0, tmp_path) < 0.5 * visits_of_handing_over(5.0, tmp_path)


def test_the_fit_script_learns_from_played_positions(tmp_path):
    spec = importlib.util.spec_from_file_location("trike_prior", ROOT / "benchmarks" / "trike_prior.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data, out = tmp_path / "p.npz", tmp_path / "w.npz"
    script.main(["play", "--size", "7", "--games", "12", "--sims", "300", "--seed", "2", "--out", str(data)])
    summary = script.main(["fit", str(data), "--steps", "150", "--out", str(out)])
    assert summary["train"] < summary["uniform_train"]
    assert np.load(out)["weights"].shape == (P.FEATURES,)


def test_a_prior_file_that_is_missing_or_not_a_prior_is_a_clear_error(tmp_path):
    with pytest.raises(OptionError, match="nonexistent.npz: cannot be read"):
        make_agent(f"mcts_with:10ms,prior={tmp_path}/nonexistent.npz", "trike")
    np.savez(tmp_path / "short.npz", weights=np.zeros(7))
    with pytest.raises(OptionError, match="short.npz: 7 weights, but the features need 458"):
        make_agent(f"mcts_with:10ms,prior={tmp_path}/short.npz", "trike")
