"""Compiled evaluation for the dice games (Trigeo, Hexalit) over the shared dice kernels
(:mod:`ludothek.games.dice.kernels`); no rule is implemented here, only judged.

Board: ``int8[66]``, ``+f`` a White die showing ``f``, ``-f`` a Black one. Values are in
pawn units for White (positive = good for White).
"""

import numpy as np

from ...boards.triangle66 import GEO, G_ROW, G_TOUCH
from ...core.njit import njit
from .kernels import CELLS, MAX_MOVES, count_moves
from .masks import ROWS, attacked_or_jumped, cell_count, dice_masks, jump_masks, lowest

# material by face: the 1 is the king (not counted; its safety is), 2 pawn .. 6 queen
FACE_VALUE = np.array([0.0, 0.0, 1.0, 3.0, 3.5, 5.0, 9.0])

#: the evaluation's other terms, in pawns, as indices into a weights array (the material's
#: face values are the scale and stay fixed): a 2's step forward, a move more than the
#: opponent, the 1 threatened, an enemy die touching the 1, the 1 with no free touching cell
#: (one free cell), the side to move; Hexalit's alone: a temporary face's share of its value
#: above a 2's, a spare 1 (at most two count)
WEIGHT_NAMES = ("advance", "mobility", "threatened", "neighbour", "trapped", "one_free", "tempo",
                "temp_face", "spare_one")
W_ADVANCE, W_MOBILITY, W_THREATENED, W_NEIGHBOUR, W_TRAPPED, W_ONE_FREE, W_TEMPO, W_TEMP_FACE, W_SPARE_ONE = range(9)


def weights(**named: float) -> np.ndarray:
    """A weights array from the terms' names (a term not named weighs 0)."""
    w = np.zeros(len(WEIGHT_NAMES))
    for name, value in named.items():
        w[WEIGHT_NAMES.index(name)] = value
    w.setflags(write=False)
    return w


#: the weights the games play with (tuned by self-play: docs/EVALUATION.md)
TRIGEO_WEIGHTS = weights(advance=0.08, mobility=0.045, threatened=0.75, neighbour=0.3, trapped=1.0, one_free=0.5,
                         tempo=0.15)
HEXALIT_WEIGHTS = weights(advance=0.05, mobility=0.03, threatened=1.5, neighbour=0.3, trapped=1.0, one_free=0.4,
                          tempo=0.15, temp_face=0.125, spare_one=1.5)


def _row_masks():
    rows = np.zeros((7, 2), dtype=np.uint64)
    for cell in range(CELLS):
        rows[GEO[cell, G_ROW], cell >> 6] |= np.uint64(1) << np.uint64(cell & 63)
    rows.setflags(write=False)
    return rows


#: the cells of each row (1 = A .. 6 = F) as masks
ROW_MASKS = _row_masks()


@njit(cache=True)
def one_safety(board, geo, side, jumps, w):
    """How safe ``side``'s 1 is, in pawns (<= 0): threatened, few free touching cells,
    enemy dice close by. A side without a 1 scores -100 (it has lost)."""
    d = np.empty((ROWS, 2), np.uint64)
    dice_masks(board, d)
    jump_lo, jump_hi = jump_masks(jumps)
    return masked_one_safety(board, d, geo, side, jump_lo, jump_hi, w)


@njit(cache=True)
def evaluate_white(board, geo, jumps, promote, w):
    """Material, pawn advance, mobility and the 1s' safety, for White, in pawns."""
    out = np.empty(MAX_MOVES, np.int32)
    white = count_moves(board, geo, 0, jumps, promote, out)
    black = count_moves(board, geo, 1, jumps, promote, out)
    return evaluate_white_counted(board, geo, jumps, white, black, w)


@njit(cache=True)
def evaluate_white_counted(board, geo, jumps, white_moves, black_moves, w):
    """:func:`evaluate_white` for a caller that has counted both sides' ``gen_moves``
    already (the compiled search has one of them from its own move generation)."""
    d = np.empty((ROWS, 2), np.uint64)
    dice_masks(board, d)
    return masked_evaluate_white(board, d, geo, jumps, white_moves, black_moves, w)


@njit(cache=True)
def masked_one_safety(board, d, geo, side, jump_lo, jump_hi, w):
    """:func:`one_safety` with the position's masks ``d`` (:mod:`.masks`) at hand (the
    threats asked of the masks, the jump fields' mask given)."""
    o = 8 * side
    if not (d[o + 1, 0] | d[o + 1, 1]):
        return -100.0
    king = lowest(d[o + 1, 0], d[o + 1, 1])
    occ_lo = d[0, 0] | d[8, 0]
    occ_hi = d[0, 1] | d[8, 1]
    score = 0.0
    if attacked_or_jumped(d, king, 1 - side, occ_lo, occ_hi, jump_lo, jump_hi):
        score -= w[W_THREATENED]
    sgn = 1 - 2 * side
    free = 0
    for k in range(12):
        t = geo[king, G_TOUCH + k]
        if t < 0:
            break
        v = board[t] * sgn
        if v == 0:
            # only 0, 1 or "2 or more" free cells count: no need to look further than 2
            if free < 2 and not attacked_or_jumped(d, t, 1 - side, occ_lo, occ_hi, jump_lo, jump_hi):
                free += 1
        elif v < 0:
            score -= w[W_NEIGHBOUR]
    if free == 0:
        score -= w[W_TRAPPED]
    elif free == 1:
        score -= w[W_ONE_FREE]
    return score


@njit(cache=True)
def masked_evaluate_white(board, d, geo, jumps, white_moves, black_moves, w):
    """:func:`evaluate_white_counted` with the position's masks ``d`` at hand: material and
    the 2s' advance counted by face and row, the threats asked of the masks."""
    material = 0.0
    for face in range(2, 7):
        material += FACE_VALUE[face] * (cell_count(d[face, 0], d[face, 1]) - cell_count(d[8 + face, 0], d[8 + face, 1]))
    steps = 0  # the 2s' rows from their own first row, White's less Black's
    for row in range(2, 6):
        steps += (row - 1) * cell_count(d[2, 0] & ROW_MASKS[row, 0], d[2, 1] & ROW_MASKS[row, 1])
        steps -= (6 - row) * cell_count(d[10, 0] & ROW_MASKS[row, 0], d[10, 1] & ROW_MASKS[row, 1])
    steps += 5 * cell_count(d[2, 0] & ROW_MASKS[6, 0], d[2, 1] & ROW_MASKS[6, 1])
    steps -= 5 * cell_count(d[10, 0] & ROW_MASKS[1, 0], d[10, 1] & ROW_MASKS[1, 1])
    advance = w[W_ADVANCE] * steps
    mobility = w[W_MOBILITY] * (white_moves - black_moves)
    jump_lo, jump_hi = jump_masks(jumps)
    safety = (masked_one_safety(board, d, geo, 0, jump_lo, jump_hi, w)
              - masked_one_safety(board, d, geo, 1, jump_lo, jump_hi, w))
    return material + advance + mobility + safety
