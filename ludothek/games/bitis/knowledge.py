"""Bitis knowledge: compiled playouts (uniform and guided) and a reach evaluation.
(Perfect play comes from the game's own solution: agent ``perfect``.)"""

from __future__ import annotations

import random

from . import kernels
from . import playout_kernels

#: a guided playout longer than this counts as a draw (repetition is not tracked in it)
MAX_PLAYOUT = 200


def _sign(state) -> float:
    """+1 if seat 0 is A (the kernels count for A)."""
    return 1.0 if state.seat_colour(0) == "a" else -1.0


def random_rollout(state, rng: random.Random) -> float:
    _, a_wins, b_wins, _ = kernels.random_playouts(state.cells, state.ors, state.last, state.mover, 1,
                                                   rng.getrandbits(31))
    return _sign(state) * (a_wins - b_wins)


def rollout(state, rng: random.Random) -> float:
    value = playout_kernels.guided_playout(state.cells, state.ors, state.last, state.mover, MAX_PLAYOUT,
                                         rng.getrandbits(31))
    return _sign(state) * value


def evaluate(state) -> float:
    if state.is_over():
        return state.returns()[0]
    mover = playout_kernels.evaluate_mover(state.cells, state.ors, state.last, state.mover)
    return _sign(state) * (mover if state.mover == 0 else -mover)
