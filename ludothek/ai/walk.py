"""Fast play/undo for searches: the game's own ``_apply``/``_unapply`` with the protocol's
bookkeeping (ply stack, repetition counts) but without formatting notation."""

from __future__ import annotations

import random

from ..core.protocol import CHANCE, GameState


def push(state: GameState, action: int) -> None:
    by_chance = state.current_player() == CHANCE
    token = state._apply(action)
    state._stack.append((action, "", token, by_chance))
    if state.TRACK_REPETITIONS:
        state._seen[state.key()] += 1


def pop(state: GameState) -> None:
    state.undo()


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
