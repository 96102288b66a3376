"""Compiled pieces the dice games' batched classes share (``ludothek/games/*/vector.py``):
the observation planes of :mod:`ludothek.games.dice.observe`, written by numba."""

import numpy as np

from ...core.njit import njit
from .kernels import WHITE
from .observe import PLANES as DICE_PLANES

#: the planes :func:`observe_dice` writes, in order: the dice layout and the adapters'
#: ``observer_to_act``; each vector checks them against its game's encoder
PLANES = (*DICE_PLANES, "observer_to_act")
TEMPORARY, CELL, WHITE_TO_MOVE, OBSERVER_WHITE, OBSERVER_TO_ACT = (
    PLANES.index(name) for name in ("temporary", "cell", "white_to_move", "observer_white", "observer_to_act")
)


@njit(cache=True)
def observe_dice(board, side, observer, to_act, board_planes, rows, columns, out):
    """The encoder's planes seen by the seat playing ``observer``, ``side`` to move:
    the dice, the constant board planes (``board_planes``: ``cell``, ``up``, ``jump``,
    taken from the encoder), whose turn, who observes and whether he is to act.  The planes of
    temporary faces, rolls and the cube are left zero for the caller."""
    out[:] = 0.0
    for cell in range(board.shape[0]):
        v = np.int64(board[cell])
        if v > 0:  # White's face f is plane f - 1, Black's plane 6 + f - 1
            out[v - 1, rows[cell], columns[cell]] = 1.0
        elif v < 0:
            out[5 - v, rows[cell], columns[cell]] = 1.0
    out[CELL: CELL + 3] = board_planes
    if side == WHITE:
        out[WHITE_TO_MOVE] = 1.0
    if observer == WHITE:
        out[OBSERVER_WHITE] = 1.0
    if to_act:
        out[OBSERVER_TO_ACT] = 1.0

