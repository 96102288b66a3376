"""Compiled playouts and evaluation for Hexalit over the game's own kernels
(:mod:`ludothek.games.hexalit.kernels`, the dice kernels): no second rules implementation.

Inside a playout the dice are rolled with the playout's own random numbers, as in any
Monte Carlo sample; the agent never sees the game's future rolls.
"""

import numpy as np

from ...core.njit import njit
from ..dice.kernels import CELLS, MAX_MOVES, NO_JUMPS, count_moves, count_ones
from .kernels import ROLL, gebot_cell, play_move, play_roll, turn_actions, turn_actions_keep
from ...boards.triangle66 import G_ROW
from ..dice.eval_kernels import (FACE_VALUE, HEXALIT_WEIGHTS, W_ADVANCE, W_MOBILITY, W_SPARE_ONE, W_TEMP_FACE,
                                 one_safety)


@njit(cache=True)
def evaluate_white(board, temp, geo, w):
    """Material (a temporary face is worth little more than the 2 it turns back into),
    spare 1s, the lone 1's safety, pawn advance and mobility, for White, in pawns."""
    out = np.empty(MAX_MOVES, np.int32)
    white = count_moves(board, geo, 0, NO_JUMPS, False, out)
    black = count_moves(board, geo, 1, NO_JUMPS, False, out)
    return evaluate_white_counted(board, temp, geo, white, black, w)


@njit(cache=True)
def evaluate_white_counted(board, temp, geo, white_moves, black_moves, w):
    """:func:`evaluate_white` for a caller that has counted both sides' ``gen_moves``
    already (the compiled search has one of them from its own move generation)."""
    material = 0.0
    for cell in range(CELLS):
        v = board[cell]
        if v == 0:
            continue
        face = v if v > 0 else -v
        sgn = 1.0 if v > 0 else -1.0
        if face == 1:
            continue
        if temp[cell]:
            material += sgn * (1.0 + w[W_TEMP_FACE] * (FACE_VALUE[face] - 1.0))
        else:
            material += sgn * FACE_VALUE[face]
        if face == 2:
            row = geo[cell, G_ROW]
            material += sgn * w[W_ADVANCE] * ((row - 1) if v > 0 else (6 - row))
    ones = 0.0
    for side in range(2):
        sgn = 1.0 - 2.0 * side
        n = count_ones(board, side)
        if n == 0:
            ones -= sgn * 100.0
        elif n >= 2:
            ones += sgn * w[W_SPARE_ONE] * min(n - 1, 2)
        else:
            ones += sgn * one_safety(board, geo, side, NO_JUMPS, w)
    mobility = w[W_MOBILITY] * (white_moves - black_moves)
    return material + ones + mobility


@njit(cache=True)
def squash(pawns):
    return np.tanh(pawns / 6.0) * 0.9


@njit(cache=True)
def _lost(board, geo, side, buf):
    """``side``, to move, has lost: no 1 left, or its last 1 threatened with no legal
    action (the rules' own test, :func:`turn_actions`, run only when it can fail)."""
    if count_ones(board, side) == 0:
        return True
    return gebot_cell(board, geo, side) >= 0 and turn_actions(board, geo, side, buf) == 0


@njit(cache=True)
def guided_playout(board0, temp0, geo, side0, plies_left, horizon, seed):
    """One playout from a turn start: a winning move when there is one, captures preferred,
    otherwise any move or roll; cut off after ``horizon`` turns and judged by
    :func:`evaluate_white`. Returns the value for White in [-1, 1]."""
    np.random.seed(seed)
    board = board0.copy()
    temp = temp0.copy()
    trial = np.empty_like(board)
    trial_temp = np.empty_like(temp)
    buf = np.empty(MAX_MOVES, np.int32)
    reply = np.empty(MAX_MOVES, np.int32)
    captures = np.empty(MAX_MOVES, np.int32)
    side = side0
    turn = 0
    while True:
        if count_ones(board, 1 - side) == 0:
            return 1.0 if side == 0 else -1.0
        n, keep = turn_actions_keep(board, geo, side, buf)
        if n == 0:
            return -1.0 if side == 0 else 1.0
        if turn >= plies_left:
            return 0.0
        if turn >= horizon:
            return squash(evaluate_white(board, temp, geo, HEXALIT_WEIGHTS))
        pick = -1
        n_captures = 0
        for i in range(n):
            a = buf[i]
            if a >= ROLL:
                continue
            to = a % CELLS
            if board[to] == 0:
                continue
            captures[n_captures] = a
            n_captures += 1
            trial[:] = board
            trial_temp[:] = temp
            play_move(trial, trial_temp, side, a, keep)
            if _lost(trial, geo, 1 - side, reply):
                pick = a
                break
        if pick < 0:
            if n_captures > 0 and np.random.random() < 0.7:
                pick = captures[np.random.randint(0, n_captures)]
            else:
                pick = buf[np.random.randint(0, n)]
        if pick >= ROLL:
            play_roll(board, temp, side, pick - ROLL, np.random.randint(1, 7), keep)
        else:
            play_move(board, temp, side, pick, keep)
        side = 1 - side
        turn += 1
