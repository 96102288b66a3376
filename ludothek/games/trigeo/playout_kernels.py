"""Compiled playouts for Trigeo over the game's own kernels (:mod:`ludothek.games.trigeo.kernels`
and the dice kernels): no second rules implementation.

A guided playout plays a winning move when there is one (after it the opponent has no
legal move), prefers captures, and stops after ``horizon`` plies to score the position with
:func:`ludothek.games.dice.eval_kernels.evaluate_white`, squashed into (-1, 1).
"""

import numpy as np

from ...core.njit import njit
from ..dice.kernels import MAX_MOVES, apply_move, find_one, has_escape, is_attacked, undo_move
from .kernels import legal_moves
from ..dice.eval_kernels import TRIGEO_WEIGHTS, evaluate_white


@njit(cache=True)
def squash(pawns):
    return np.tanh(pawns / 6.0) * 0.9


@njit(cache=True)
def _lost(board, geo, side, jumps):
    """``side`` (to move) has lost: no 1, or its 1 threatened without escape. (The same
    test as the rules' "no legal move", which in Trigeo can only happen this way.)"""
    king = find_one(board, side)
    if king < 0:
        return True
    return is_attacked(board, geo, king, 1 - side, jumps) and not has_escape(board, geo, king, side, jumps)


@njit(cache=True)
def guided_playout(board_start, geo, jumps, side_start, plies_left, horizon, seed):
    """One playout; returns the value for White in [-1, 1] (a win ±1, a draw 0, a position
    cut off at the horizon its evaluation)."""
    np.random.seed(seed)
    board = board_start.copy()
    out = np.empty(MAX_MOVES, np.int32)
    captures = np.empty(MAX_MOVES, np.int32)
    side = side_start
    ply = 0
    while True:
        n = legal_moves(board, geo, side, jumps, out)
        if n == 0:
            return 1.0 if side == 1 else -1.0
        if ply >= plies_left:
            return 0.0
        if ply >= horizon:
            return squash(evaluate_white(board, geo, jumps, True, TRIGEO_WEIGHTS))
        pick = -1
        n_captures = 0
        for i in range(n):
            move = out[i]
            captured = apply_move(board, move)
            if _lost(board, geo, 1 - side, jumps):
                pick = move
            undo_move(board, move, captured)
            if pick >= 0:
                break
            if captured != 0:
                captures[n_captures] = move
                n_captures += 1
        if pick < 0:
            if n_captures > 0 and np.random.random() < 0.7:
                pick = captures[np.random.randint(0, n_captures)]
            else:
                pick = out[np.random.randint(0, n)]
        apply_move(board, pick)
        side = 1 - side
        ply += 1
