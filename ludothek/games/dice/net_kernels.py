"""The learned evaluation's forward pass, compiled (the NumPy reference: :mod:`.net`).

``w`` is the search's weights array: the hand evaluation's weights, then from
:data:`.net.NET_START` the packed net (:func:`.net.pack`). The first layer's sums over the
dice of a position (the rows of the occupied cells and of Hexalit's temporary dice) cost
about (dice + 1) x hidden additions; the search keeps them per frame instead and updates a
child's from its parent's by the cells the move changed (:func:`frame_sums`, as chess
engines' NNUE do), so a leaf costs a few rows and the hidden layer.

Every loop over the hidden units indexes a slice (``row = w[a:a + hidden]; row[j]``), never
``w[a + j]``: numba wraps a negative index around, and that check on a computed index keeps
LLVM from vectorising the loop. With the slices, and ``fastmath`` for the hidden layer's sum,
the loops run as SIMD: the net's cost per node of the search fell from 0.40 to 0.07 of the
hand evaluation's at 64 hidden units (docs/LEARNED_EVAL.md).
"""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...core.njit import njit
from .kernels import CELLS

# (the layout of .net, repeated here as plain numbers for the compiled code)
FACE_PLANES = 12
TEMP_INPUT = CELLS * FACE_PLANES
SIDE_INPUT = TEMP_INPUT + 2 * CELLS
HEADER = 4


@njit(cache=True, inline="always")
def _first_layer(w, start):
    """The net's hidden units and where its first layer's rows start in ``w``."""
    hidden = np.int64(w[start])
    return hidden, start + HEADER + 2 * hidden


@njit(cache=True, fastmath=True, inline="always")
def _add_row(sums, w, base, hidden, sign):
    row = w[base:base + hidden]  # a slice, so its index is never negative: the loop vectorises
    for j in range(hidden):
        sums[j] += sign * row[j]


@njit(cache=True, inline="always")
def _add_cell(sums, board, temp, c, sign, w, o_w1, hidden):
    """Add (``sign`` 1) or take away (-1) cell ``c``'s rows: its die's face, its temporary die."""
    v = board[c]
    if v == 0:
        return
    face = v - 1 if v > 0 else 5 - v
    _add_row(sums, w, o_w1 + (c * FACE_PLANES + face) * hidden, hidden, sign)
    if temp[c]:
        _add_row(sums, w, o_w1 + (TEMP_INPUT + 2 * c + (0 if v > 0 else 1)) * hidden, hidden, sign)


@njit(cache=True)
def position_sums(board, temp, sums, w, start):
    """``sums[:hidden]`` = the first layer's sums over the position's dice."""
    hidden, o_w1 = _first_layer(w, start)
    for j in range(hidden):
        sums[j] = 0.0
    for c in range(CELLS):
        _add_cell(sums, board, temp, c, 1.0, w, o_w1, hidden)


@njit(cache=True, inline="always")
def _changed(board, before, temp, temp_before):
    """The first 64 cells whose die or temporary die differ, as bits (a loop without branches,
    which vectorises, instead of a branch per cell)."""
    changed = np.uint64(0)
    for k in range(min(board.shape[0], 64)):
        differs = (board[k] != before[k]) | (temp[k] != temp_before[k])
        changed |= np.uint64(differs) << np.uint64(k)
    return changed


@njit(cache=True, fastmath=True)
def frame_sums(boards, temps, sums, known, p, w, start):
    """Bring ``sums[p]`` up to frame ``p``'s position: from the nearest frame at or above it
    whose sums are known (``known[q] != 0``; frame 0's are made whole if not), each frame
    below it from its parent's by the cells whose die changed. A frame a move overwrites
    must have ``known`` cleared."""
    hidden, o_w1 = _first_layer(w, start)
    q = p
    while q > 0 and known[q] == 0:
        q -= 1
    if known[q] == 0:
        position_sums(boards[q], temps[q], sums[q], w, start)
        known[q] = 1
    for r in range(q + 1, p + 1):
        child, parent = sums[r], sums[r - 1]
        for j in range(hidden):
            child[j] = parent[j]
        board, before, temp, temp_before = boards[r], boards[r - 1], temps[r], temps[r - 1]
        for first in range(0, CELLS, 64):
            changed = _changed(board[first:], before[first:], temp[first:], temp_before[first:])
            while changed:
                c = first + np.int64(trailing_zeros(changed))
                changed &= changed - np.uint64(1)
                _add_cell(child, before, temp_before, c, -1.0, w, o_w1, hidden)
                _add_cell(child, board, temp, c, 1.0, w, o_w1, hidden)
        known[r] = 1


@njit(cache=True, fastmath=True)
def net_from_sums(sums, side, hand, w, start):
    """Pawns for White: the net at ``w[start:]`` given its first layer's sums over the dice
    and the hand evaluation ``hand``."""
    hidden, o_w1 = _first_layer(w, start)
    o_b1 = start + HEADER
    b1 = w[o_b1:o_b1 + hidden]
    w2 = w[o_b1 + hidden:o_b1 + 2 * hidden]
    side_row = w[o_w1 + SIDE_INPUT * hidden:o_w1 + (SIDE_INPUT + 1) * hidden]
    sgn = 1.0 if side == 0 else -1.0
    z = w[start + 2] * hand + w[start + 3]
    for j in range(hidden):
        z += max(b1[j] + sgn * side_row[j] + sums[j], 0.0) * w2[j]
    return z


@njit(cache=True)
def net_pawns(board, temp, side, hand, w, start):
    """Pawns for White: the net at ``w[start:]`` given the hand evaluation ``hand``."""
    sums = np.empty(np.int64(w[start]))
    position_sums(board, temp, sums, w, start)
    return net_from_sums(sums, side, hand, w, start)
