"""Sets of cells as 66-bit masks, for the dice kernels' hot loops (numba, cached).

A mask is two ``uint64`` words: word 0 holds cells 0..63, word 1 cells 64 and 65.  A
position's masks are one array ``d`` of shape ``(ROWS, 2)``:

``d[8 * side]``          every die of ``side`` (``0`` White, ``1`` Black)
``d[8 * side + f]``      its dice showing face ``f`` (1..6)
``d[TEMP]``              the dice whose face is temporary (Hexalit; Trigeo leaves it empty)

:func:`dice_masks` makes them from a board in one pass; a kernel that keeps them along with
the board (Hexalit's perft and playouts) never needs that pass.  With them, "is this cell
attacked" is an AND per face for 1s, 2s and 3s and a "nothing between" test per slider
that could reach it (:func:`attacked`), the same question the walks of
:func:`ludothek.games.dice.kernels.is_attacked` answer (tested equal on random positions).
Jump fields (Trigeo) are not in these tables: :func:`attacked` is for boards without them,
:func:`attacked_or_jumped` adds them.
"""

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ...boards.triangle66 import G_KNIGHT, G_PAWN, G_ROW, GEO, UP, ray
from ...core.njit import njit
from .kernels import (
    CELLS, KNIGHT_HIGH, KNIGHT_LOW, TOUCH_HIGH, TOUCH_LOW, _count_free, _count_slides, _popcount, piece_moves,
)


ROWS = 17
TEMP = 16
ONE = np.uint64(1)


def _empty():
    return np.zeros((CELLS, 2), dtype=np.uint64)


def _add(table, cell, t):
    table[cell, t >> 6] |= np.uint64(1) << np.uint64(t & 63)


def _slide_dirs(face, cell):
    """The directions a 4 (corner directions), 5 (side directions) or 6 slides from ``cell``."""
    return [d for d in range(6) if face == 6 or ((d & 1) == UP[cell]) == (face == 5)]


def _reverse_tables():
    """For each cell, the cells from which a die reaches it (a 1's are its touching cells,
    ``kernels.TOUCH_LOW``/``TOUCH_HIGH``: touching is symmetric): ``PAWN_FROM[side]`` (the captures of ``side``'s 2s), ``KNIGHT_FROM`` (3s:
    not symmetric on triangles) and ``SLIDER_FROM[face]`` (4, 5, 6 on an empty board), and
    ``BETWEEN[a, b]``, the cells strictly between two cells of one ray; and forward, where a
    2 of ``side`` on a cell steps (``PAWN_STEP[side]``) and captures (``PAWN_CAPTURES[side]``)."""
    knight_from = _empty()
    pawn_from = np.zeros((2, CELLS, 2), dtype=np.uint64)
    pawn_step = np.zeros((2, CELLS, 2), dtype=np.uint64)
    pawn_captures = np.zeros((2, CELLS, 2), dtype=np.uint64)
    slider_from = np.zeros((7, CELLS, 2), dtype=np.uint64)
    between = np.zeros((CELLS, CELLS, 2), dtype=np.uint64)
    for s in range(CELLS):
        for t in GEO[s, G_KNIGHT : G_KNIGHT + 6]:
            if t >= 0:
                _add(knight_from, t, s)
        for side in (0, 1):
            step = GEO[s, G_PAWN + 3 * side]
            if step >= 0:
                _add(pawn_step[side], s, step)
            for t in GEO[s, G_PAWN + 3 * side + 1 : G_PAWN + 3 * side + 3]:
                if t >= 0:
                    _add(pawn_from[side], t, s)
                    _add(pawn_captures[side], s, t)
        for face in (4, 5, 6):
            for d in _slide_dirs(face, s):
                for t in ray(s, d):
                    _add(slider_from[face], t, s)
        for d in range(6):
            cells = ray(s, d)
            for k, b in enumerate(cells):
                for t in cells[:k]:
                    _add(between[s], b, t)
    tables = knight_from, pawn_from, slider_from, between, pawn_step, pawn_captures
    for table in tables:
        table.setflags(write=False)
    return tables


KNIGHT_FROM, PAWN_FROM, SLIDER_FROM, BETWEEN, PAWN_STEP, PAWN_CAPTURES = _reverse_tables()


def _slide_slots():
    """For a 4, 5 or 6 (index ``face - 4``) on each cell: the cells it would reach on an empty
    board, direction by direction (as ``piece_moves`` goes) and near to far, and how many."""
    reach = [[[t for d in _slide_dirs(face, s) for t in ray(s, d)] for s in range(CELLS)] for face in (4, 5, 6)]
    counts = np.array([[len(cells) for cells in by_cell] for by_cell in reach], dtype=np.int64)
    slots = np.full((3, CELLS, counts.max()), -1, dtype=np.int64)
    for f, by_cell in enumerate(reach):
        for s, cells in enumerate(by_cell):
            slots[f, s, : len(cells)] = cells
    counts.setflags(write=False)
    slots.setflags(write=False)
    return counts, slots


#: ``SLIDE_SLOTS[face - 4, cell, :SLIDE_SLOT_COUNT[face - 4, cell]]``: a slider's targets on an
#: empty board (a target is a move if it is not its own side's and nothing stands between)
SLIDE_SLOT_COUNT, SLIDE_SLOTS = _slide_slots()


def _ray_tables():
    """For each cell and direction, the ray (as ``ray`` walks it): its cells as a mask
    (``RAY_MASK``), how many (``RAY_LENGTH``), and whether the cells' numbers grow along it
    (``RAY_ORDER`` 1), fall (-1) or neither (0); ``DISTANCE[a, b]``: the steps from ``a`` to ``b``
    along the ray between them (rays from one cell share no cell); ``LAST_ROW[side]``: the
    row a 2 of ``side`` promotes on."""
    masks = np.zeros((CELLS, 6, 2), dtype=np.uint64)
    length = np.zeros((CELLS, 6), dtype=np.int8)  # (small tables: they stay in the L1 cache)
    order = np.zeros((CELLS, 6), dtype=np.int8)
    distance = np.zeros((CELLS, CELLS), dtype=np.int8)
    for s in range(CELLS):
        for d in range(6):
            cells = ray(s, d)
            for k, t in enumerate(cells):
                assert distance[s, t] == 0
                _add(masks[s], d, t)
                distance[s, t] = k + 1
            length[s, d] = len(cells)
            steps = [b - a for a, b in zip([s] + cells, cells)]
            order[s, d] = 1 if all(x > 0 for x in steps) else -1 if all(x < 0 for x in steps) else 0
    last_row = np.zeros((2, 2), dtype=np.uint64)
    for cell in range(CELLS):
        for side, row in ((0, 6), (1, 1)):
            if GEO[cell, G_ROW] == row:
                _add(last_row, side, cell)
    tables = masks, length, order, distance, last_row
    for table in tables:
        table.setflags(write=False)
    return tables


RAY_MASK, RAY_LENGTH, RAY_ORDER, DISTANCE, LAST_ROW = _ray_tables()


@njit(cache=True, inline="always")
def bit(cell):
    return ONE << np.uint64(cell & 63)


@njit(cache=True, inline="always")
def cell_count(lo, hi):
    """How many cells a mask holds."""
    return np.int64(_popcount(lo) + _popcount(hi))


@njit(cache=True, inline="always")
def lowest(lo, hi):
    """The lowest cell of a non-empty mask."""
    if lo:
        return np.int64(trailing_zeros(lo))
    return 64 + np.int64(trailing_zeros(hi))


@njit(cache=True, inline="always")
def highest(lo, hi):
    """The highest cell of a non-empty mask."""
    if hi:
        return 127 - np.int64(leading_zeros(hi))
    return 63 - np.int64(leading_zeros(lo))


@njit(cache=True, inline="always")
def kth_cell(lo, hi, k):
    """The ``k``-th lowest cell of a mask that holds more than ``k`` cells."""
    low_count = np.int64(_popcount(lo))
    base = 0
    if k >= low_count:
        k -= low_count
        lo = hi
        base = 64
    for _ in range(k):
        lo &= lo - ONE
    return base + np.int64(trailing_zeros(lo))


@njit(cache=True, inline="always")
def dice_masks(board, d):
    """Fill ``d``'s rows of dice (all but :data:`TEMP`) from ``board``, in one pass."""
    d[:TEMP, :] = 0
    for cell in range(CELLS):
        v = np.int64(board[cell])
        if v != 0:
            d[v if v > 0 else 8 - v, cell >> 6] |= bit(cell)
    for w in range(2):
        d[0, w] = d[1, w] | d[2, w] | d[3, w] | d[4, w] | d[5, w] | d[6, w]
        d[8, w] = d[9, w] | d[10, w] | d[11, w] | d[12, w] | d[13, w] | d[14, w]


@njit(cache=True)
def attacked(d, target, by, occ_lo, occ_hi):
    """Could a die of ``by`` capture on ``target`` with one move by its face, the dice standing
    on ``occ_lo``/``occ_hi``?  The die on ``target`` itself never counts (as in ``is_attacked``)."""
    o = 8 * by
    near = ((TOUCH_LOW[target] & d[o + 1, 0]) | (TOUCH_HIGH[target] & d[o + 1, 1])
            | (PAWN_FROM[by, target, 0] & d[o + 2, 0]) | (PAWN_FROM[by, target, 1] & d[o + 2, 1])
            | (KNIGHT_FROM[target, 0] & d[o + 3, 0]) | (KNIGHT_FROM[target, 1] & d[o + 3, 1]))
    if near:
        return True
    for w in range(2):
        sliders = ((SLIDER_FROM[4, target, w] & d[o + 4, w]) | (SLIDER_FROM[5, target, w] & d[o + 5, w])
                   | (SLIDER_FROM[6, target, w] & d[o + 6, w]))
        while sliders:
            s = np.int64(trailing_zeros(sliders)) + 64 * w
            if not ((BETWEEN[s, target, 0] & occ_lo) | (BETWEEN[s, target, 1] & occ_hi)):
                return True
            sliders &= sliders - ONE
    return False


@njit(cache=True, inline="always")
def step_targets(cell, face, side, own_lo, own_hi, enemy_lo, enemy_hi):
    """The cells a 1, 2 or 3 of ``side`` on ``cell`` moves to by its face, as two words (no
    jump fields, no promotion: Hexalit): touching cells, a 2's free step and captures, knight
    targets, none of ``side``'s own."""
    if face == 1:
        return TOUCH_LOW[cell] & ~own_lo, TOUCH_HIGH[cell] & ~own_hi
    if face == 3:
        return KNIGHT_LOW[cell] & ~own_lo, KNIGHT_HIGH[cell] & ~own_hi
    return ((PAWN_STEP[side, cell, 0] & ~(own_lo | enemy_lo)) | (PAWN_CAPTURES[side, cell, 0] & enemy_lo),
            (PAWN_STEP[side, cell, 1] & ~(own_hi | enemy_hi)) | (PAWN_CAPTURES[side, cell, 1] & enemy_hi))


@njit(cache=True)
def die_moves(board, geo, cell, side, own_lo, own_hi, enemy_lo, enemy_hi):
    """How many moves the die of ``side`` on ``cell`` has by its face, on a board without jump
    fields and without promotion (Hexalit): what ``piece_moves`` would write, counted.
    ``own``/``enemy``: the masks of ``side``'s dice and the other side's, as words (the
    callers read them from the mask array once, not once per die).  It has its own branches
    rather than asking :func:`step_targets`: that way perft was measured 0.6× as fast."""
    sgn = 1 - 2 * side
    face = np.int64(board[cell]) * sgn
    if face == 1:
        return cell_count(TOUCH_LOW[cell] & ~own_lo, TOUCH_HIGH[cell] & ~own_hi)
    if face == 3:
        return cell_count(KNIGHT_LOW[cell] & ~own_lo, KNIGHT_HIGH[cell] & ~own_hi)
    if face == 2:
        return (cell_count(PAWN_STEP[side, cell, 0] & ~(own_lo | enemy_lo), PAWN_STEP[side, cell, 1] & ~(own_hi | enemy_hi))
                + cell_count(PAWN_CAPTURES[side, cell, 0] & enemy_lo, PAWN_CAPTURES[side, cell, 1] & enemy_hi))
    return _count_slides(board, geo, cell, face, sgn)


_MIX = np.uint64(0x9E3779B97F4A7C15)
_SALTS = np.random.default_rng(0xF1A6E5).integers(1, 2**63, size=14, dtype=np.uint64)
_SALTS.setflags(write=False)
_FACE_ROWS = (1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, TEMP)


@njit(cache=True)
def fingerprint(d, side):
    """A 64-bit hash of the position the masks ``d`` describe, ``side`` to move: equal
    positions give equal values, different ones almost surely different.  It is not the
    Zobrist hash of ``position_hash`` (the two are never compared): a kernel that keeps the
    masks uses it to find repetitions among its own positions without a pass over the board.
    Each row is mixed on its own (salted), so the mixes run side by side."""
    h = _SALTS[13] * np.uint64(side + 1)
    high = np.uint64(0)
    for k in range(13):
        row = _FACE_ROWS[k]
        x = (d[row, 0] ^ _SALTS[k]) * _MIX
        h += x ^ (x >> np.uint64(29))
        high = (high << np.uint64(2)) | d[row, 1]
    x = (h ^ high) * _MIX
    return x ^ (x >> np.uint64(32))


@njit(cache=True, inline="always")
def jump_masks(jumps):
    """The jump fields (``jumps``, Trigeo's six cells or none) as a mask."""
    lo = np.uint64(0)
    hi = np.uint64(0)
    for j in jumps:
        if j < 64:
            lo |= bit(j)
        else:
            hi |= bit(j)
    return lo, hi


@njit(cache=True)
def attacked_or_jumped(d, target, by, occ_lo, occ_hi, jump_lo, jump_hi):
    """:func:`attacked`, or ``target`` is a jump field and a die of ``by`` stands on another
    one (it may jump there): ``kernels.is_attacked`` on a board with jump fields."""
    if attacked(d, target, by, occ_lo, occ_hi):
        return True
    if target < 64:
        if not (jump_lo & bit(target)):
            return False
        jump_lo &= ~bit(target)
    else:
        if not (jump_hi & bit(target)):
            return False
        jump_hi &= ~bit(target)
    return ((jump_lo & d[8 * by, 0]) | (jump_hi & d[8 * by, 1])) != 0


@njit(cache=True)
def first_on_ray(cell, d, occ_lo, occ_hi):
    """The cell of the first die along the ray from ``cell`` in direction ``d`` (-1: none)."""
    lo = RAY_MASK[cell, d, 0] & occ_lo
    hi = RAY_MASK[cell, d, 1] & occ_hi
    if not (lo | hi):
        return -1
    order = RAY_ORDER[cell, d]
    if order > 0:
        return lowest(lo, hi)
    if order < 0:
        return highest(lo, hi)
    first = lowest(lo, hi)  # the ray turns back and forth in the numbering: the nearest die
    for w in range(2):
        rest = lo if w == 0 else hi
        while rest:
            t = np.int64(trailing_zeros(rest)) + 64 * w
            if DISTANCE[cell, t] < DISTANCE[cell, first]:
                first = t
            rest &= rest - ONE
    return first


@njit(cache=True, inline="always")
def has(lo, hi, cell):
    """Does the mask hold ``cell``?"""
    return ((lo if cell < 64 else hi) & bit(cell)) != 0


@njit(cache=True)
def count_slides(cell, face, occ_lo, occ_hi, own_lo, own_hi):
    """The moves of a 4, 5 or 6 on ``cell`` (no jump fields): along each of its rays the cells
    up to the first die, that one too if it is not its own side's (``own``)."""
    n = 0
    for d in range(6):
        side_dir = (d & 1) == UP[cell]
        if (face == 4 and side_dir) or (face == 5 and not side_dir):
            continue
        first = first_on_ray(cell, d, occ_lo, occ_hi)
        if first < 0:
            n += np.int64(RAY_LENGTH[cell, d])
        else:
            n += np.int64(DISTANCE[cell, first]) - (1 if has(own_lo, own_hi, first) else 0)
    return n


@njit(cache=True)
def masked_count_moves(board, d, geo, side, jumps, jump_lo, jump_hi, promote, scratch):
    """``kernels.count_moves`` with the position's masks ``d`` at hand (jump fields and
    promotion as there): only the side's dice are visited, face by face (one branch on the
    face per face, not per die), and none walks a ray."""
    o = 8 * side
    own_lo = d[o, 0]
    own_hi = d[o, 1]
    enemy_lo = d[8 - o, 0]
    enemy_hi = d[8 - o, 1]
    occ_lo = own_lo | enemy_lo
    occ_hi = own_hi | enemy_hi
    n = 0
    for w in range(2):
        jumping = (jump_lo if w == 0 else jump_hi) & d[o, w]
        while jumping:  # its jumps, less those its face reaches anyway: list them
            n += piece_moves(board, geo, np.int64(trailing_zeros(jumping)) + 64 * w, jumps, promote, scratch, 0)
            jumping &= jumping - ONE
    for face in range(1, 7):
        for w in range(2):
            cells = d[o + face, w] & ~(jump_lo if w == 0 else jump_hi)
            while cells:
                cell = np.int64(trailing_zeros(cells)) + 64 * w
                cells &= cells - ONE
                if face == 1:
                    n += _count_free(TOUCH_LOW[cell], TOUCH_HIGH[cell], own_lo, own_hi)
                elif face == 3:
                    n += _count_free(KNIGHT_LOW[cell], KNIGHT_HIGH[cell], own_lo, own_hi)
                elif face == 2:
                    lo = (PAWN_STEP[side, cell, 0] & ~occ_lo) | (PAWN_CAPTURES[side, cell, 0] & enemy_lo)
                    hi = (PAWN_STEP[side, cell, 1] & ~occ_hi) | (PAWN_CAPTURES[side, cell, 1] & enemy_hi)
                    n += cell_count(lo, hi)
                    if promote:  # onto the last row: with and without the promotion
                        n += cell_count(lo & LAST_ROW[side, 0], hi & LAST_ROW[side, 1])
                else:
                    n += count_slides(cell, face, occ_lo, occ_hi, own_lo, own_hi)
    return n
