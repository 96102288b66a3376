"""Small helpers for searches (the fast step itself is ``GameState.apply_action``)."""

from __future__ import annotations

import random

from ..core.protocol import GameState


def sample_outcome(state: GameState, rng: random.Random) -> int:
    """A chance outcome drawn with the state's probabilities (inside a search only)."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def search_copy(state: GameState) -> GameState:
    """A private copy to search on (the caller's state is never touched)."""
    return state.copy()


def seat_value(state: GameState) -> float:
    """The result of a finished game for seat 0: +1, -1 or 0."""
    return state.returns()[0]
