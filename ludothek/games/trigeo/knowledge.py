"""Trigeo knowledge: guided compiled playouts, material/mobility/safety evaluation,
captures-first move ordering."""

from __future__ import annotations

import random

from ...boards import triangle66 as T
from ..dice.kernels import CELLS, JUMP_FIELDS_TRIGEO, PROMO, ZOBRIST
from . import kernels
from ..dice import eval_kernels
from . import playout_kernels

#: plies a guided playout runs before the evaluation judges the position
HORIZON = 24


def _sign(state) -> float:
    """+1 if seat 0 plays White (the kernels count for White)."""
    return 1.0 if state.seat_colour(0) == "white" else -1.0


def _plies_left(state) -> int:
    return state.options["max_plies"] - state.ply


def random_rollout(state, rng: random.Random) -> float:
    history, since = state._history()
    _, white, black, _ = kernels.random_playouts(
        state.board, T.GEO, JUMP_FIELDS_TRIGEO, ZOBRIST, state.side, _plies_left(state), history, since, 1,
        rng.getrandbits(31))
    return _sign(state) * (white - black)


def rollout(state, rng: random.Random) -> float:
    value = playout_kernels.guided_playout(state.board, T.GEO, JUMP_FIELDS_TRIGEO, state.side, _plies_left(state),
                                          HORIZON, rng.getrandbits(31))
    return _sign(state) * value


def evaluate(state, w=eval_kernels.TRIGEO_WEIGHTS) -> float:
    """The position's value for seat 0 in (-1, 1), with the evaluation's weights ``w``."""
    if state.is_over():
        return state.returns()[0]
    pawns = eval_kernels.evaluate_white(state.board, T.GEO, JUMP_FIELDS_TRIGEO, True, w)
    # the side to move has the tempo
    pawns += w[eval_kernels.W_TEMPO] if state.side == 0 else -w[eval_kernels.W_TEMPO]
    return _sign(state) * float(playout_kernels.squash(pawns))


def order(state, actions: list[int]) -> list[int]:
    """Captures first, most valuable victim first, then promotions; quiet moves after."""
    board = state.board

    def key(action: int) -> float:
        m = action % PROMO
        frm, to = divmod(m, CELLS)
        victim = abs(int(board[to]))
        return -(10 * victim - abs(int(board[frm])) + (50 if action >= PROMO else 0)) if victim or action >= PROMO else 0

    return sorted(actions, key=key)


def noisy(state, actions: list[int]) -> list[int]:
    """Captures, most valuable victim first (for the quiescence search)."""
    board = state.board
    captures = []
    for action in actions:
        frm, to = divmod(action % PROMO, CELLS)
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
