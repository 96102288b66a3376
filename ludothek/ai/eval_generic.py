"""Fallback knowledge for any game: protocol-only random playouts, a neutral evaluation."""

from __future__ import annotations

import random

from ..core.protocol import CHANCE, GameState
from .walk import sample_outcome

#: a playout longer than this is scored as a draw (the games end far sooner)
MAX_PLAYOUT_PLIES = 1000


def evaluate(state: GameState) -> float:
    if state.is_over():
        return state.returns()[0]
    return 0.0


def random_rollout(state: GameState, rng: random.Random) -> float:
    """Uniformly random play to the end on the state itself, then taken back."""
    played = 0
    while not state.is_over() and played < MAX_PLAYOUT_PLIES:
        if state.current_player() == CHANCE:
            state.apply_action(sample_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        played += 1
    value = state.returns()[0]
    for _ in range(played):
        state.undo()
    return value


rollout = random_rollout


def order(state: GameState, actions: list[int]) -> list[int]:
    return actions


def noisy(state: GameState, actions: list[int]) -> list[int]:
    return []


def compiled_search(agent, state, clock):
    return None


def compiled_alphabeta(agent, state, clock):
    return None


def decide(state: GameState, agent) -> None:
    """No decision of the game's own (``None``): the agent searches."""
