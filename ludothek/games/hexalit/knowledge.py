"""Hexalit knowledge: compiled playouts (uniform and guided) from turn starts, an
evaluation of material, spare 1s and safety, captures-first ordering; the doubling cube
is decided by :mod:`.cube` (``decide``), never searched.

A leaf may be a chance node (a roll waiting for its face): the playout then draws the face
with the search's own random numbers first — never the game's."""

from __future__ import annotations

import random

from ...boards import triangle66 as T
from ..dice.eval_kernels import HEXALIT_WEIGHTS, W_TEMPO
from ..dice.kernels import CELLS
from . import kernels
from ...ai import eval_generic
from . import playout_kernels
from ...ai.walk import sample_outcome
from .cube import decide  # noqa: F401  - the bots' doubling cube (knowledge ``decide``)

#: turns a guided playout runs before the evaluation judges the position
HORIZON = 24


def _sign(state) -> float:
    return 1.0 if state.seat_colour(0) == "white" else -1.0


def _plies_left(state) -> int:
    return state.options["max_plies"] - state.turns


def _at_turn_start(state, rng, playout) -> float:
    if state.is_over():
        return state.returns()[0]
    if state.offer:  # the cube is offered: no compiled playout for that
        return eval_generic.random_rollout(state, rng)
    if state.roll_cell >= 0:
        state.apply_action(sample_outcome(state, rng))
        try:
            return _at_turn_start(state, rng, playout)
        finally:
            state.undo()
    return playout(state, rng)


def _random(state, rng) -> float:
    _, white, black, _ = kernels.random_playouts(state.board, state.temp, T.GEO, state.side, state.turns,
                                                 state.options["max_plies"], 1, rng.getrandbits(31))
    return _sign(state) * (white - black)


def _guided(state, rng) -> float:
    value = playout_kernels.guided_playout(state.board, state.temp, T.GEO, state.side, _plies_left(state), HORIZON,
                                           rng.getrandbits(31))
    return _sign(state) * value


def random_rollout(state, rng: random.Random) -> float:
    return _at_turn_start(state, rng, _random)


def rollout(state, rng: random.Random) -> float:
    return _at_turn_start(state, rng, _guided)


def evaluate(state, w=HEXALIT_WEIGHTS) -> float:
    """The position's value for seat 0 in (-1, 1), with the evaluation's weights ``w``."""
    if state.is_over():
        return state.returns()[0]
    pawns = playout_kernels.evaluate_white(state.board, state.temp, T.GEO, w)
    pawns += w[W_TEMPO] if state.side == 0 else -w[W_TEMPO]
    return _sign(state) * float(playout_kernels.squash(pawns))


def order(state, actions: list[int]) -> list[int]:
    """Captures first (most valuable victim first), then quiet moves, then rolls and cube."""
    board = state.board

    def key(action: int) -> float:
        if action >= kernels.ROLL:
            return 1
        frm, to = divmod(action, CELLS)
        victim = abs(int(board[to]))
        return -(10 * victim - abs(int(board[frm]))) if victim else 0

    return sorted(actions, key=key)


def noisy(state, actions: list[int]) -> list[int]:
    """Captures, most valuable victim first (for the quiescence search)."""
    board = state.board
    captures = []
    for action in actions:
        if action >= kernels.ROLL:
            continue
        frm, to = divmod(action, CELLS)
        if board[to] != 0:
            captures.append((-(10 * abs(int(board[to])) - abs(int(board[frm]))), action))
    captures.sort()
    return [action for _, action in captures]


def compiled_alphabeta(agent, state, clock):
    """The alpha-beta agent's whole search in a kernel (:mod:`.search`)."""
    from . import search

    return search.compiled_alphabeta(agent, state, clock, order)


def warm_up() -> None:
    """Compile (or load) the compiled alpha-beta before a clock starts."""
    from . import search

    search.warm_up(order)


def warm_parts() -> dict:
    """The parts of the compiled alpha-beta that another process may compile while this one
    runs :func:`warm_up` (:func:`ludothek.ai.knowledge.warm_parts`)."""
    from ..dice.search import parts_of
    from . import search

    return parts_of(search.warm_part)
