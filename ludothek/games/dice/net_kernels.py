"""The learned evaluation's forward pass, compiled (the NumPy reference: :mod:`.net`).

``w`` is the search's weights array: the hand evaluation's weights, then from
:data:`.net.NET_START` the packed net (:func:`.net.pack`). Only the occupied cells' rows of
the first layer are added, so a pass costs about (dice + 1) x hidden additions.
"""

import numpy as np

from ...core.njit import njit
from .kernels import CELLS

# (the layout of .net, repeated here as plain numbers for the compiled code)
FACE_PLANES = 12
TEMP_INPUT = CELLS * FACE_PLANES
SIDE_INPUT = TEMP_INPUT + 2 * CELLS
HEADER = 4


@njit(cache=True)
def net_pawns(board, temp, side, hand, w, start):
    """Pawns for White: the net at ``w[start:]`` given the hand evaluation ``hand``."""
    hidden = np.int64(w[start])
    o_b1 = start + HEADER
    o_w2 = o_b1 + hidden
    o_w1 = o_w2 + hidden
    h = np.empty(hidden)
    sgn = 1.0 if side == 0 else -1.0
    base = o_w1 + SIDE_INPUT * hidden
    for j in range(hidden):
        h[j] = w[o_b1 + j] + sgn * w[base + j]
    for c in range(CELLS):
        v = board[c]
        if v == 0:
            continue
        face = v - 1 if v > 0 else 5 - v
        base = o_w1 + (c * FACE_PLANES + face) * hidden
        for j in range(hidden):
            h[j] += w[base + j]
        if temp[c]:
            base = o_w1 + (TEMP_INPUT + 2 * c + (0 if v > 0 else 1)) * hidden
            for j in range(hidden):
                h[j] += w[base + j]
    z = w[start + 2] * hand + w[start + 3]
    for j in range(hidden):
        if h[j] > 0.0:
            z += h[j] * w[o_w2 + j]
    return z
