"""Compiled kernels for the dice pieces of Trigeo and Hexalit (numba, cached to disk).

Board representation
--------------------
``board``: ``int8[66]`` indexed as :mod:`ludothek.boards.triangle66` (row-major A..F, low
column first).  ``0`` is an empty cell, ``+f`` a White die showing face ``f`` (1..6),
``-f`` a Black die showing ``f``.  Sides are ``WHITE = 0`` (home rows A, B; its pawns step
toward F) and ``BLACK = 1`` (home rows E, F; toward A); ``sign(side) = 1 - 2 * side``.
Which faces are temporary (Hexalit) is *not* in ``board``; keep a separate ``bool[66]``.

Every kernel takes the packed geometry table ``geo`` (:data:`triangle66.GEO`) and
``jumps``, an ``int16`` array of jump-field cells: Trigeo passes its six cells,
Hexalit passes :data:`NO_JUMPS` (empty).

Moves
-----
A move is an ``int``: ``from * 66 + to`` (``0 <= move < PROMO``); ``PROMO + from * 66 + to``
is the same step of a 2 that then turns into a 6 (Trigeo's promotion).  Generators write
moves into a caller-given ``int32`` buffer ``out`` starting at index ``n`` and return the new
length; a buffer of :data:`MAX_MOVES` always suffices for one position.

Kernels (all ``@njit(cache=True)``)
-----------------------------------
``piece_moves(board, geo, cell, jumps, promote, out, n) -> n``
    every move of the die on ``cell`` by its face (1 king: touching cells; 2 pawn: forward
    if empty, captures on ``(r±1, c±1)``; 3 knight: 1st/2nd cell of its corner rays, leaping;
    4 bishop: slides corner directions; 5 rook: slides side directions; 6 queen: all six),
    plus jumps to other jump fields (empty or enemy) if it stands on one; a destination
    reachable both ways is listed once.  ``promote``: also emit the promotion twin of a
    2's step/capture onto its last row (F for White, A for Black).
``gen_moves(board, geo, side, jumps, promote, out) -> n``
    all such moves of ``side`` (pseudo-legal: no threat rules), by ascending ``from``.
``is_attacked(board, geo, target, by_side, jumps) -> bool``
    could a die of ``by_side`` capture on ``target`` with one move by its face (or a jump)?
    The die on ``target`` itself is ignored (treated as an enemy of ``by_side``).
    Threat ("Eins!") of a 1 = ``is_attacked(board, geo, one_cell, opponent, jumps)``.
``king_escapes(board, geo, king, side, jumps, out, n) -> n``
    the moves of the 1 on ``king`` (incl. jumps) after which it is not attacked.
``has_escape(board, geo, king, side, jumps) -> bool``
``count_moves(board, geo, side, jumps, promote, scratch) -> n``
    how many moves ``gen_moves`` would write, without writing them (perft's last ply, the
    evaluations' mobility); ``scratch``: an ``int32`` buffer of :data:`MAX_MOVES` for dice
    on jump fields.  ``die_move_count(...)`` counts one die's, ``own_masks(board, sgn)``
    gives a side's cells as two ``uint64`` words (the 1s' and 3s' counts are popcounts).
``find_one(board, side) -> cell | -1``  (first 1 of ``side``), ``count_ones(board, side)``
``apply_move(board, move) -> captured``  (the old value of the target cell, int8),
``undo_move(board, move, captured)``
``zobrist_hash(board, side, zobrist) -> uint64`` with :data:`ZOBRIST` (``uint64[67, 13]``;
    row 66 column 0 is the side-to-move key), ``move_hash_delta(board, move, zobrist)``
    (call *before* ``apply_move``).
"""


import numpy as np
from numba import types
from numba.extending import intrinsic

from ...boards.triangle66 import GEO, G_KNIGHT, G_PAWN, G_ROW, G_TOUCH, G_UP, parse_cell
from ...core.njit import njit


WHITE, BLACK = 0, 1
CELLS = 66
PROMO = CELLS * CELLS  # 4356
MAX_MOVES = 1024
NO_JUMPS = np.zeros(0, dtype=np.int16)
NO_JUMPS.setflags(write=False)  # as JUMP_FIELDS_TRIGEO: one compiled signature for both
JUMP_FIELDS_TRIGEO = np.array([parse_cell(n) for n in ("C6", "C7", "C8", "D6", "D7", "D8")], dtype=np.int16)
JUMP_FIELDS_TRIGEO.setflags(write=False)



_rng = np.random.default_rng(0x7E1A5)
ZOBRIST = _rng.integers(1, 2**63, size=(CELLS + 1, 13), dtype=np.uint64)
ZOBRIST.setflags(write=False)


@njit(cache=True, inline="always")
def _emit(out, n, frm, to):
    out[n] = frm * CELLS + to
    return n + 1


@njit(cache=True, inline="always")
def _stands_on_jump(jumps, cell):
    for k in range(jumps.shape[0]):
        if jumps[k] == cell:
            return True
    return False


@njit(cache=True)
def piece_moves(board, geo, cell, jumps, promote, out, n):
    v = np.int64(board[cell])
    if v == 0:
        return n
    sgn = 1 if v > 0 else -1
    face = v * sgn
    start = n
    if face == 1:
        for k in range(12):
            t = geo[cell, G_TOUCH + k]
            if t < 0:
                break
            if board[t] * sgn <= 0:
                n = _emit(out, n, cell, t)
    elif face == 2:
        side = 0 if sgn > 0 else 1
        base = G_PAWN + 3 * side
        last = 6 if side == 0 else 1
        for k in range(3):
            t = geo[cell, base + k]
            if t < 0:
                continue
            b = board[t] * sgn
            if (k == 0 and b == 0) or (k > 0 and b < 0):
                n = _emit(out, n, cell, t)
                if promote and geo[t, G_ROW] == last:
                    out[n] = PROMO + cell * CELLS + t
                    n += 1
    elif face == 3:
        for k in range(6):
            t = geo[cell, G_KNIGHT + k]
            if t >= 0 and board[t] * sgn <= 0:
                n = _emit(out, n, cell, t)
    else:
        for d in range(6):
            side_dir = (d & 1) == geo[cell, G_UP]
            if (face == 4 and side_dir) or (face == 5 and not side_dir):
                continue
            t = geo[cell, d]
            while t >= 0:
                b = board[t] * sgn
                if b == 0:
                    n = _emit(out, n, cell, t)
                    t = geo[t, d]
                else:
                    if b < 0:
                        n = _emit(out, n, cell, t)
                    break
    if _stands_on_jump(jumps, cell):
        for j in jumps:
            if j == cell or board[j] * sgn > 0:
                continue
            move = cell * CELLS + j
            dup = False
            for i in range(start, n):
                if out[i] == move:
                    dup = True
                    break
            if not dup:
                out[n] = move
                n += 1
    return n


@njit(cache=True)
def gen_moves(board, geo, side, jumps, promote, out):
    sgn = 1 - 2 * side
    n = 0
    for cell in range(CELLS):
        if board[cell] * sgn > 0:
            n = piece_moves(board, geo, cell, jumps, promote, out, n)
    return n


# ------------------------------------------------------------------ counting moves
# The touching cells and knight targets of every cell as 66-bit masks (two uint64 words,
# cells 0..63 and 64..65), so that a 1's or a 3's moves are counted with two popcounts.
# Built from the same table ``geo`` (``triangle66.GEO``, the only geometry there is).

def _cell_masks(first, width):
    low = np.zeros(CELLS, dtype=np.uint64)
    high = np.zeros(CELLS, dtype=np.uint64)
    for cell in range(CELLS):
        for t in GEO[cell, first : first + width]:
            if t >= 0 and t < 64:
                low[cell] |= np.uint64(1) << np.uint64(t)
            elif t >= 64:
                high[cell] |= np.uint64(1) << np.uint64(t - 64)
    return low, high


TOUCH_LOW, TOUCH_HIGH = _cell_masks(G_TOUCH, 12)
KNIGHT_LOW, KNIGHT_HIGH = _cell_masks(G_KNIGHT, 6)


@intrinsic
def _popcount(typingctx, word):
    """The number of set bits of a ``uint64`` (one ``popcnt`` instruction)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def _count_free(low, high, own_low, own_high):
    """The cells of a mask (two words) that are not the mover's own."""
    return np.int64(_popcount(low & ~own_low) + _popcount(high & ~own_high))


@njit(cache=True)
def _count_pawn(board, geo, cell, sgn, promote):
    """:func:`piece_moves` of a 2, counted."""
    side = 0 if sgn > 0 else 1
    base = G_PAWN + 3 * side
    last = 6 if side == 0 else 1
    n = 0
    for k in range(3):
        t = geo[cell, base + k]
        if t < 0:
            continue
        b = board[t] * sgn
        if (k == 0 and b == 0) or (k > 0 and b < 0):
            n += 1
            if promote and geo[t, G_ROW] == last:
                n += 1
    return n


@njit(cache=True)
def _count_slides(board, geo, cell, face, sgn):
    """:func:`piece_moves` of a 4, 5 or 6, counted."""
    n = 0
    for d in range(6):
        side_dir = (d & 1) == geo[cell, G_UP]
        if (face == 4 and side_dir) or (face == 5 and not side_dir):
            continue
        t = geo[cell, d]
        while t >= 0:
            b = board[t] * sgn
            if b == 0:
                n += 1
                t = geo[t, d]
            else:
                if b < 0:
                    n += 1
                break
    return n


@njit(cache=True, inline="always")
def own_masks(board, sgn):
    """The cells of the side with sign ``sgn`` as a 66-bit mask (two ``uint64`` words)."""
    one = np.uint64(1)
    low = np.uint64(0)
    high = np.uint64(0)
    for cell in range(64):
        if board[cell] * sgn > 0:
            low |= one << np.uint64(cell)
    for cell in range(64, CELLS):
        if board[cell] * sgn > 0:
            high |= one << np.uint64(cell - 64)
    return low, high


@njit(cache=True, inline="always")
def die_move_count(board, geo, cell, face, sgn, jumps, promote, own_low, own_high, scratch):
    """How many moves :func:`piece_moves` would write for the die on ``cell`` showing
    ``face`` (``own_low``/``own_high``: :func:`own_masks` of its side)."""
    if _stands_on_jump(jumps, cell):  # its jumps, less those its face reaches anyway: list them
        return piece_moves(board, geo, cell, jumps, promote, scratch, 0)
    if face == 1:
        return _count_free(TOUCH_LOW[cell], TOUCH_HIGH[cell], own_low, own_high)
    if face == 3:
        return _count_free(KNIGHT_LOW[cell], KNIGHT_HIGH[cell], own_low, own_high)
    if face == 2:
        return _count_pawn(board, geo, cell, sgn, promote)
    return _count_slides(board, geo, cell, face, sgn)


@njit(cache=True, inline="always")
def count_moves(board, geo, side, jumps, promote, scratch):
    """How many moves :func:`gen_moves` would write; ``scratch``: an ``int32`` buffer of
    ``MAX_MOVES`` (a die on a jump field is listed there, which removes duplicates)."""
    sgn = 1 - 2 * side
    own_low, own_high = own_masks(board, sgn)
    n = 0
    for cell in range(CELLS):
        face = np.int64(board[cell]) * sgn
        if face > 0:
            n += die_move_count(board, geo, cell, face, sgn, jumps, promote, own_low, own_high, scratch)
    return n


@njit(cache=True)
def is_attacked(board, geo, target, by_side, jumps):
    sgn = 1 - 2 * by_side
    # a 1 on a touching cell (touching is symmetric)
    for k in range(12):
        t = geo[target, G_TOUCH + k]
        if t < 0:
            break
        if board[t] * sgn == 1:
            return True
    # a 2 of by_side captures (r±1, c±1): it stands where the other side's 2 would capture
    base = G_PAWN + 3 * (1 - by_side)
    for k in range(1, 3):
        t = geo[target, base + k]
        if t >= 0 and board[t] * sgn == 2:
            return True
    for d in range(6):
        back = (d + 3) % 6  # the attacker moves along `back` toward target
        # knights: 1st or 2nd cell, leaping; `back` must be a corner direction of the knight
        t = geo[target, d]
        if t >= 0:
            if board[t] * sgn == 3 and (back & 1) != geo[t, G_UP]:
                return True
            t2 = geo[t, d]
            if t2 >= 0 and board[t2] * sgn == 3 and (back & 1) != geo[t2, G_UP]:
                return True
        # sliders: the first die along the ray
        while t >= 0:
            b = board[t] * sgn
            if b != 0:
                if b == 6:
                    return True
                if b == 5 and (back & 1) == geo[t, G_UP]:
                    return True
                if b == 4 and (back & 1) != geo[t, G_UP]:
                    return True
                break
            t = geo[t, d]
    if _stands_on_jump(jumps, target):
        for j in jumps:
            if j != target and board[j] * sgn > 0:
                return True
    return False


@njit(cache=True)
def find_one(board, side):
    sgn = 1 - 2 * side
    for cell in range(CELLS):
        if board[cell] * sgn == 1:
            return cell
    return -1


@njit(cache=True)
def count_ones(board, side):
    sgn = 1 - 2 * side
    n = 0
    for cell in range(CELLS):
        if board[cell] * sgn == 1:
            n += 1
    return n


@njit(cache=True)
def apply_move(board, move):
    promo = move >= PROMO
    m = move - PROMO if promo else move
    frm = m // CELLS
    to = m - frm * CELLS
    captured = board[to]
    v = board[frm]
    if promo:
        board[to] = 6 if v > 0 else -6
    else:
        board[to] = v
    board[frm] = 0
    return captured


@njit(cache=True)
def undo_move(board, move, captured):
    promo = move >= PROMO
    m = move - PROMO if promo else move
    frm = m // CELLS
    to = m - frm * CELLS
    if promo:
        board[frm] = 2 if board[to] > 0 else -2
    else:
        board[frm] = board[to]
    board[to] = captured


@njit(cache=True)
def king_escapes(board, geo, king, side, jumps, out, n):
    start = n
    end = piece_moves(board, geo, king, jumps, False, out, n)
    for i in range(start, end):
        move = out[i]
        captured = apply_move(board, move)
        safe = not is_attacked(board, geo, move % CELLS, 1 - side, jumps)
        undo_move(board, move, captured)
        if safe:
            out[n] = move
            n += 1
    return n


@njit(cache=True)
def has_escape(board, geo, king, side, jumps):
    buf = np.empty(32, dtype=np.int32)
    return king_escapes(board, geo, king, side, jumps, buf, 0) > 0


@njit(cache=True)
def zobrist_hash(board, side, zobrist):
    h = np.uint64(0)
    for cell in range(CELLS):
        v = board[cell]
        if v != 0:
            h ^= zobrist[cell, v + 6]
    if side == 1:
        h ^= zobrist[CELLS, 0]
    return h


@njit(cache=True)
def move_hash_delta(board, move, zobrist):
    """XOR this into the hash (with the side key) when ``move`` is applied; call before."""
    promo = move >= PROMO
    m = move - PROMO if promo else move
    frm = m // CELLS
    to = m - frm * CELLS
    v = board[frm]
    h = zobrist[frm, v + 6]
    cap = board[to]
    if cap != 0:
        h ^= zobrist[to, cap + 6]
    if promo:
        nv = 6 if v > 0 else -6
        h ^= zobrist[to, nv + 6]
    else:
        h ^= zobrist[to, v + 6]
    return h ^ zobrist[CELLS, 0]
