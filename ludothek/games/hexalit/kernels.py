"""Hexalit's turn rules as compiled kernels (numba, cached) over the shared dice kernels.

How each face moves, threats and escapes come from :mod:`ludothek.games.dice.kernels`
(one implementation for Trigeo and Hexalit); this module adds what only Hexalit has:
rolls, the life of temporary faces, the Eins-Gebot, and the end of the game.

Arrays
------
``board``  ``int8[66]``: ``+f`` White die showing ``f``, ``-f`` Black, ``0`` empty.
``temp``   ``bool[66]``: the face on that cell is temporary (it was rolled).
``geo``    :data:`ludothek.boards.triangle66.GEO`.
``side``   ``0`` White, ``1`` Black: the side whose turn it is.

Actions (the same numbers as :class:`~ludothek.games.hexalit.state.HexalitState`)
------------------------------------------------------------------------------
``from * 66 + to``   move the die on ``from`` by its face (``0 .. 4355``)
``ROLL + cell``      roll the die on ``cell`` (``4356 .. 4421``); its outcome follows
``OUTCOME + f - 1``  chance: the roll shows ``f`` (``4422 .. 4427``)

Listing, counting, sampling: :func:`turn_actions` writes a turn's actions (``turn_actions_keep``
also says whether the Eins-Gebot holds); :func:`count_turn_actions` only counts them, and
perft's last ply counts leaves (:func:`count_turn_leaves`); :func:`sample_turn_action` draws
one of them uniformly without counting them all, which is all a random playout needs.

Masks: ``d`` (``uint64[ROWS, 2]``, :mod:`ludothek.games.dice.masks`) holds the position's
dice by side and face and its temporary faces.  The ``masked_*`` kernels take it along with
the board and keep it up to date (perft and the playouts make it once and never scan the
board again); the kernels without the prefix make it from the board and call them, so there
is one implementation of each rule.  The hot loops pass borrowed views of their arrays
(:mod:`ludothek.core.borrow`).

A *turn* is one move, or one roll together with its outcome.  The Eins-Gebot flag
``keep`` passed to :func:`play_move` / :func:`play_roll` is whether the mover's last 1
was threatened at the start of the turn (then his temporary faces are kept).
"""

import numpy as np

from numba.cpython.unsafe.numbers import trailing_zeros

from ...boards.triangle66 import G_TOUCH
from ...core.borrow import borrowed
from ...core.njit import njit
from ...core.random_kernels import random_below
from ..dice.kernels import CELLS, MAX_MOVES, ZOBRIST, is_attacked, piece_moves, zobrist_hash
from ..dice.masks import (
    BETWEEN,
    ONE,
    ROWS,
    SLIDE_SLOT_COUNT,
    SLIDE_SLOTS,
    TEMP,
    attacked,
    bit,
    cell_count,
    dice_masks,
    die_moves,
    fingerprint,
    kth_cell,
    lowest,
    step_targets,
)


ROLL = CELLS * CELLS  # 4356
OUTCOME = ROLL + CELLS  # 4422
DOUBLE = OUTCOME + 6  # 4428
TAKE = DOUBLE + 1
DROP = DOUBLE + 2
NUM_ACTIONS = DROP + 1

# game results of the playout kernel
ONGOING, WHITE_WINS, BLACK_WINS, DRAW = 0, 1, 2, 3

_NOJ = np.zeros(0, dtype=np.int16)  # Hexalit has no jump fields
_rng = np.random.default_rng(0x4E7A11)
#: Zobrist keys of "the face on this cell is temporary"
ZOBRIST_TEMP = _rng.integers(1, 2**63, size=CELLS, dtype=np.uint64)
ZOBRIST_TEMP.setflags(write=False)


@njit(cache=True)
def lone_one(board, side):
    """The cell of ``side``'s only 1, or -1 if it has none or several."""
    sgn = 1 - 2 * side
    cell = -1
    for c in range(CELLS):
        if board[c] * sgn == 1:
            if cell >= 0:
                return -1
            cell = c
    return cell


@njit(cache=True)
def gebot_cell(board, geo, side):
    """The cell of ``side``'s last 1 if it is threatened (the Eins-Gebot holds), else -1."""
    return _threatened_lone_one(_dice_masks_of(board), side)


@njit(cache=True)
def position_masks(board, temp, d):
    """Fill ``d`` (``uint64[ROWS, 2]``, :mod:`ludothek.games.dice.masks`) for this position:
    the dice by side and face, and the temporary ones."""
    dice_masks(board, d)
    d[TEMP, 0] = 0
    d[TEMP, 1] = 0
    for cell in range(CELLS):
        if temp[cell]:
            d[TEMP, cell >> 6] |= bit(cell)


@njit(cache=True, inline="always")
def _masks(board, temp):
    d = np.empty((ROWS, 2), dtype=np.uint64)
    position_masks(board, temp, d)
    return d


@njit(cache=True, inline="always")
def _dice_masks_of(board):
    """The masks of the board's dice (the temporary faces left out: turn listing and counting
    do not ask for them)."""
    d = np.empty((ROWS, 2), dtype=np.uint64)
    dice_masks(board, d)
    return d


@njit(cache=True, inline="always")
def _threatened_lone_one(d, side):
    """The cell of ``side``'s last 1 if it is threatened (the Eins-Gebot), else -1."""
    o = 8 * side
    if cell_count(d[o + 1, 0], d[o + 1, 1]) != 1:
        return -1
    one = lowest(d[o + 1, 0], d[o + 1, 1])
    if attacked(d, one, 1 - side, d[0, 0] | d[8, 0], d[0, 1] | d[8, 1]):
        return one
    return -1


@njit(cache=True)
def _escapes(board, geo, d, one, side, out):
    """Write the moves of the threatened 1 on ``one`` to cells where it is not attacked, in the
    order :func:`piece_moves` lists them; return how many."""
    sgn = 1 - 2 * side
    w, b = one >> 6, bit(one)
    occ_lo = d[0, 0] | d[8, 0]
    occ_hi = d[0, 1] | d[8, 1]
    if w == 0:  # the 1 has left its cell
        occ_lo &= ~b
    else:
        occ_hi &= ~b
    n = 0
    for k in range(12):
        t = geo[one, G_TOUCH + k]
        if t < 0:
            break
        if board[t] * sgn <= 0 and not attacked(d, t, 1 - side, occ_lo, occ_hi):
            out[n] = one * CELLS + t
            n += 1
    return n


@njit(cache=True)
def turn_actions(board, geo, side, out):
    """Write ``side``'s legal moves and rolls into ``out`` (``int32``, at least
    ``MAX_MOVES`` long); return how many.  Zero when ``side`` has no 1 left."""
    return turn_actions_keep(board, geo, side, out)[0]


@njit(cache=True)
def turn_actions_keep(board, geo, side, out):
    """:func:`turn_actions` and whether the Eins-Gebot holds (the ``keep`` flag of the turn):
    ``(n, keep)``."""
    return masked_turn_actions(board, geo, _dice_masks_of(board), side, out)


@njit(cache=True)
def masked_turn_actions(board, geo, d, side, out):
    """:func:`turn_actions_keep` with the position's masks ``d`` at hand."""
    o = 8 * side
    ones = cell_count(d[o + 1, 0], d[o + 1, 1])
    if ones == 0:
        return 0, False
    one = _threatened_lone_one(d, side)
    if one >= 0:  # Eins-Gebot: the last 1 must move to a cell where it is not threatened
        return _escapes(board, geo, d, one, side, out), True
    n = 0
    for w in range(2):
        dice = d[o, w]
        while dice:
            n = piece_moves(board, geo, np.int64(trailing_zeros(dice)) + 64 * w, _NOJ, False, out, n)
            dice &= dice - ONE
    for w in range(2):
        rolls = d[o + 2, w] | (d[o + 1, w] if ones >= 2 else np.uint64(0))
        while rolls:
            out[n] = ROLL + np.int64(trailing_zeros(rolls)) + 64 * w
            n += 1
            rolls &= rolls - ONE
    return n, False


@njit(cache=True)
def count_turn_actions(board, geo, side, scratch):
    """How many actions :func:`turn_actions` would write and whether the Eins-Gebot holds,
    ``(n, keep)``, without listing them.  ``scratch``: an ``int32`` buffer of ``MAX_MOVES``."""
    return masked_count_turn_actions(board, geo, _dice_masks_of(board), side, scratch)


@njit(cache=True)
def _count_moves_by_die(board, geo, d, side):
    """The moves of ``side``'s dice, in all.  The dice go face by face (1s, 2s, 3s, then the
    sliders), so that the branch on the face in :func:`die_moves` is taken the same way many
    times in a row (measured: faster than going by cell number)."""
    o = 8 * side
    own_lo, own_hi = d[o, 0], d[o, 1]
    enemy_lo, enemy_hi = d[8 - o, 0], d[8 - o, 1]
    n = 0
    for w in range(2):
        for face in range(1, 5):
            dice = d[o + face, w] if face < 4 else d[o + 4, w] | d[o + 5, w] | d[o + 6, w]
            while dice:
                cell = np.int64(trailing_zeros(dice)) + 64 * w
                n += die_moves(board, geo, cell, side, own_lo, own_hi, enemy_lo, enemy_hi)
                dice &= dice - ONE
    return n


@njit(cache=True, inline="always")
def masked_count_turn_actions(board, geo, d, side, scratch):
    """:func:`count_turn_actions` with the position's masks ``d`` at hand."""
    o = 8 * side
    ones = cell_count(d[o + 1, 0], d[o + 1, 1])
    if ones == 0:
        return 0, False
    one = _threatened_lone_one(d, side)
    if one >= 0:
        return _escapes(board, geo, d, one, side, scratch), True
    n = _count_moves_by_die(board, geo, d, side)
    return n + cell_count(d[o + 2, 0], d[o + 2, 1]) + (ones if ones >= 2 else 0), False


@njit(cache=True)
def sample_turn_action(board, geo, side, random, scratch):
    """A uniformly random action of :func:`turn_actions`'s list, drawn with the splitmix64
    state ``random`` (:mod:`ludothek.core.random_kernels`): ``(random, action, keep)``, action
    ``-1`` if there is none.  ``scratch``: an ``int32`` buffer of ``MAX_MOVES``."""
    return masked_sample_turn_action(board, geo, _dice_masks_of(board), side, random, scratch)


@njit(cache=True, inline="always")
def _slots_of(board, geo, cell, face, side, own_lo, own_hi, enemy_lo, enemy_hi):
    """How many of the draws of :func:`masked_sample_turn_action` a die owns: its moves for a
    1, 2 or 3 (a popcount), its targets on an empty board for a slider (a table)."""
    if face <= 3:
        return die_moves(board, geo, cell, side, own_lo, own_hi, enemy_lo, enemy_hi)
    return SLIDE_SLOT_COUNT[face - 4, cell]


@njit(cache=True)
def _slot_move(cell, face, side, i, own_lo, own_hi, enemy_lo, enemy_hi):
    """The move of draw ``i`` of the die on ``cell`` (see :func:`_slots_of`), or -1 where a
    slider's target is its own die's or something stands between."""
    if face <= 3:
        lo, hi = step_targets(cell, face, side, own_lo, own_hi, enemy_lo, enemy_hi)
        return cell * CELLS + kth_cell(lo, hi, i)
    t = SLIDE_SLOTS[face - 4, cell, i]
    own = own_lo if t < 64 else own_hi
    if own & bit(t):
        return -1
    if (BETWEEN[cell, t, 0] & (own_lo | enemy_lo)) | (BETWEEN[cell, t, 1] & (own_hi | enemy_hi)):
        return -1
    return cell * CELLS + t


@njit(cache=True)
def masked_sample_turn_action(board, geo, d, side, random, scratch):
    """:func:`sample_turn_action` with the position's masks ``d`` at hand.

    Uniform without counting every move: each die owns a number of draws (:func:`_slots_of`:
    exactly its moves for a 1, 2 or 3, its empty-board targets for a slider), each roll one;
    a draw is a uniform number below their sum, and a slider's draw of a target it cannot
    reach is drawn again.  Every action owns exactly one draw, so the action taken is uniform
    among them.  Under the Eins-Gebot the few escapes are listed instead."""
    o = 8 * side
    ones = cell_count(d[o + 1, 0], d[o + 1, 1])
    if ones == 0:
        return random, -1, False
    one = _threatened_lone_one(d, side)
    if one >= 0:
        n = _escapes(board, geo, d, one, side, scratch)
        if n == 0:
            return random, -1, True
        random, k = random_below(random, n)
        return random, scratch[k], True
    sgn = 1 - 2 * side
    own_lo, own_hi = d[o, 0], d[o, 1]
    enemy_lo, enemy_hi = d[8 - o, 0], d[8 - o, 1]
    # the dice, face by face (1s, 2s, 3s, sliders), as (cell, draws so far) pairs in scratch
    total = 0
    certain = 0  # draws that are moves for sure: those of the 1s, 2s and 3s
    m = 0
    for w in range(2):
        for face in range(1, 5):
            dice = d[o + face, w] if face < 4 else d[o + 4, w] | d[o + 5, w] | d[o + 6, w]
            while dice:
                cell = np.int64(trailing_zeros(dice)) + 64 * w
                slots = _slots_of(board, geo, cell, np.int64(board[cell]) * sgn, side, own_lo, own_hi, enemy_lo, enemy_hi)
                total += slots
                if face < 4:
                    certain += slots
                scratch[2 * m] = cell
                scratch[2 * m + 1] = total
                m += 1
                dice &= dice - ONE
    several = ones >= 2
    rolls_lo = d[o + 2, 0] | (d[o + 1, 0] if several else np.uint64(0))
    rolls_hi = d[o + 2, 1] | (d[o + 1, 1] if several else np.uint64(0))
    rolls = cell_count(rolls_lo, rolls_hi)
    if certain + rolls == 0 and _count_moves_by_die(board, geo, d, side) == 0:
        return random, -1, False  # only sliders, and none can move
    while True:
        random, r = random_below(random, total + rolls)
        if r >= total:
            return random, ROLL + kth_cell(rolls_lo, rolls_hi, r - total), False
        j = 0
        while r >= scratch[2 * j + 1]:
            j += 1
        cell = np.int64(scratch[2 * j])
        first = scratch[2 * j - 1] if j > 0 else 0
        move = _slot_move(cell, np.int64(board[cell]) * sgn, side, r - first, own_lo, own_hi, enemy_lo, enemy_hi)
        if move >= 0:
            return random, move, False


@njit(cache=True, inline="always")
def masked_count_turn_leaves(board, geo, d, side, scratch):
    """The leaves of :func:`turn_actions` without listing them: a move is one leaf, a roll
    six (one per face).  ``scratch``: an ``int32`` buffer of ``MAX_MOVES``."""
    n, keep = masked_count_turn_actions(board, geo, d, side, scratch)
    if keep or n == 0:
        return n
    o = 8 * side
    ones = cell_count(d[o + 1, 0], d[o + 1, 1])
    return n + 5 * (cell_count(d[o + 2, 0], d[o + 2, 1]) + (ones if ones >= 2 else 0))


@njit(cache=True)
def count_turn_leaves(board, geo, side, scratch):
    return masked_count_turn_leaves(board, geo, _dice_masks_of(board), side, scratch)


@njit(cache=True, inline="always")
def _make_permanent_if_lone(temp, d, row):
    """The 1s in row ``row`` of ``d``: if there is just one, its face is no longer temporary."""
    lo, hi = d[row, 0], d[row, 1]
    if cell_count(lo, hi) == 1:
        d[TEMP, 0] &= ~lo
        d[TEMP, 1] &= ~hi
        temp[lowest(lo, hi)] = False


@njit(cache=True)
def masked_end_turn(board, temp, d, side, keep, fresh):
    """:func:`end_turn` on the board, its temporary flags and its masks ``d`` together."""
    _make_permanent_if_lone(temp, d, 1)
    _make_permanent_if_lone(temp, d, 9)
    if keep:
        return
    o = 8 * side
    sgn = 1 - 2 * side
    fresh_lo = bit(fresh) if 0 <= fresh < 64 else np.uint64(0)
    fresh_hi = bit(fresh) if fresh >= 64 else np.uint64(0)
    stale_lo = d[TEMP, 0] & d[o, 0] & ~fresh_lo
    stale_hi = d[TEMP, 1] & d[o, 1] & ~fresh_hi
    if not (stale_lo | stale_hi):
        return
    for w in range(2):
        stale = stale_lo if w == 0 else stale_hi
        while stale:
            cell = np.int64(trailing_zeros(stale)) + 64 * w
            d[o + board[cell] * sgn, w] &= ~bit(cell)
            board[cell] = 2 * sgn
            temp[cell] = False
            stale &= stale - ONE
    d[o + 2, 0] |= stale_lo
    d[o + 2, 1] |= stale_hi
    d[TEMP, 0] &= ~stale_lo
    d[TEMP, 1] &= ~stale_hi
    _make_permanent_if_lone(temp, d, o + 1)


@njit(cache=True)
def end_turn(board, temp, side, keep, fresh):
    """End ``side``'s turn: unless ``keep`` (the Eins-Gebot held at its start), every
    temporary die of ``side`` except ``fresh`` (the die rolled this turn, or -1) turns
    back to 2.  Lone 1s are made permanent before and after."""
    masked_end_turn(board, temp, _masks(board, temp), side, keep, fresh)


@njit(cache=True, inline="always")
def _clear(d, row, cell):
    d[row, cell >> 6] &= ~bit(cell)


@njit(cache=True, inline="always")
def _set(d, row, cell):
    d[row, cell >> 6] |= bit(cell)


@njit(cache=True)
def masked_play_move(board, temp, d, side, move, keep):
    """:func:`play_move`, keeping the masks ``d`` with the board."""
    frm = move // CELLS
    to = move - frm * CELLS
    o = 8 * side
    captured = np.int64(board[to])
    if captured != 0:
        o2 = 8 - o
        _clear(d, o2, to)
        _clear(d, o2 + (captured if captured > 0 else -captured), to)
    row = o + np.int64(board[frm]) * (1 - 2 * side)
    _clear(d, o, frm)
    _clear(d, row, frm)
    _set(d, o, to)
    _set(d, row, to)
    if temp[frm]:  # a captured die's flag goes with it
        _clear(d, TEMP, frm)
        _set(d, TEMP, to)
    else:
        _clear(d, TEMP, to)
    board[to] = board[frm]
    board[frm] = 0
    temp[to] = temp[frm]
    temp[frm] = False
    masked_end_turn(board, temp, d, side, keep, -1)


@njit(cache=True, inline="always")
def masked_play_roll(board, temp, d, side, cell, face, keep):
    """:func:`play_roll`, keeping the masks ``d`` with the board."""
    o = 8 * side
    sgn = 1 - 2 * side
    _clear(d, o + board[cell] * sgn, cell)
    _set(d, o + face, cell)
    _set(d, TEMP, cell)
    board[cell] = face * sgn
    temp[cell] = True
    masked_end_turn(board, temp, d, side, keep, cell)


@njit(cache=True)
def play_move(board, temp, side, move, keep):
    """Move ``from * 66 + to`` and end the turn."""
    masked_play_move(board, temp, _masks(board, temp), side, move, keep)


@njit(cache=True)
def play_roll(board, temp, side, cell, face, keep):
    """The die on ``cell`` was rolled and shows ``face``; end the turn."""
    masked_play_roll(board, temp, _masks(board, temp), side, cell, face, keep)


@njit(cache=True)
def threatened_ones(board, geo, side):
    """How many of ``side``'s 1s the opponent could capture now."""
    sgn = 1 - 2 * side
    n = 0
    for c in range(CELLS):
        if board[c] * sgn == 1 and is_attacked(board, geo, c, 1 - side, _NOJ):
            n += 1
    return n


@njit(cache=True)
def position_hash(board, temp, side):
    """The dice kernels' hash plus a key for each temporary face."""
    h = zobrist_hash(board, side, ZOBRIST)
    for c in range(CELLS):
        if temp[c]:
            h ^= ZOBRIST_TEMP[c]
    return h


@njit(cache=True, inline="always")
def _no_ones_left(d):
    return not (d[1, 0] | d[1, 1]) or not (d[9, 0] | d[9, 1])


@njit(cache=True, inline="always")
def _copy_position(board, temp, d, board_to, temp_to, d_to):
    """Copy a position and its masks (cell by cell: numba's slice assignment is several times
    slower, it checks whether the two arrays overlap)."""
    for cell in range(CELLS):
        board_to[cell] = board[cell]
        temp_to[cell] = temp[cell]
    for row in range(ROWS):
        d_to[row, 0] = d[row, 0]
        d_to[row, 1] = d[row, 1]


@njit(cache=True)
def _leaves_one_turn_deep(board, geo, d, side, buf):
    """perft at depth 1: a finished game, or a position without an action, is one leaf."""
    if _no_ones_left(d):
        return 1
    n = masked_count_turn_leaves(board, geo, d, side, buf)
    return n if n > 0 else 1


@njit(cache=True)
def _perft(board, temp, d, geo, side, depth, bufs, boards, temps, masks):
    """``bufs``, ``boards``, ``temps``, ``masks``: one row of scratch per depth (no
    allocation here)."""
    if _no_ones_left(d):
        return 1
    buf = bufs[depth]
    if depth == 1:
        return _leaves_one_turn_deep(board, geo, d, side, buf)
    n, keep = masked_turn_actions(board, geo, d, side, buf)
    if n == 0:
        return 1
    b2 = boards[depth]
    t2 = temps[depth]
    d2 = masks[depth]
    total = 0
    for k in range(n):
        a = buf[k]
        if a < ROLL:
            _copy_position(board, temp, d, b2, t2, d2)
            masked_play_move(b2, t2, d2, side, a, keep)
            if depth == 2:  # count the children here rather than call for each
                total += _leaves_one_turn_deep(b2, geo, d2, 1 - side, bufs[1])
            else:
                total += _perft(b2, t2, d2, geo, 1 - side, depth - 1, bufs, boards, temps, masks)
        else:
            for face in range(1, 7):
                _copy_position(board, temp, d, b2, t2, d2)
                masked_play_roll(b2, t2, d2, side, a - ROLL, face, keep)
                if depth == 2:
                    total += _leaves_one_turn_deep(b2, geo, d2, 1 - side, bufs[1])
                else:
                    total += _perft(b2, t2, d2, geo, 1 - side, depth - 1, bufs, boards, temps, masks)
    return total


@njit(cache=True)
def perft(board, temp, geo, side, depth):
    """Leaves of the tree ``depth`` turns deep; a roll is six leaves, one per face.
    A finished game is one leaf.  (Repetition and ``max_plies`` are not looked at.)"""
    if depth <= 0:
        return 1
    bufs = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    boards = np.empty((depth + 1, CELLS), dtype=board.dtype)
    temps = np.empty((depth + 1, CELLS), dtype=temp.dtype)
    masks = np.empty((depth + 1, ROWS, 2), dtype=np.uint64)
    return _perft_borrowed(board.copy(), temp.copy(), _masks(board, temp), geo, side, depth, bufs, boards, temps, masks)


@njit(cache=True)
def _perft_borrowed(board, temp, d, geo, side, depth, bufs, boards, temps, masks):
    """:func:`_perft` on borrowed views of arrays its caller owns (:mod:`ludothek.core.borrow`)."""
    return _perft(borrowed(board), borrowed(temp), borrowed(d), borrowed(geo), side, depth,
                  borrowed(bufs), borrowed(boards), borrowed(temps), borrowed(masks))


@njit(cache=True)
def random_playouts(board0, temp0, geo, side0, plies0, max_plies, count, seed):
    """Play ``count`` games of uniformly random actions (a roll is one action; its face is
    drawn uniformly) from the given position, to the end: a win, threefold repetition or
    ``max_plies`` turns in all (``plies0`` were played before).

    Returns ``(turns, white wins, black wins, draws)``."""
    limit = max(max_plies - plies0, 0)
    return _random_playouts(board0, temp0, geo, side0, limit, count, np.uint64(seed), np.empty_like(board0), np.empty_like(temp0),
                            np.empty(MAX_MOVES, dtype=np.int32), np.empty(limit + 1, dtype=np.uint64),
                            np.empty((ROWS, 2), dtype=np.uint64))


@njit(cache=True)
def _random_playouts(board0, temp0, geo, side0, limit, count, state, board, temp, buf, history, d):
    """:func:`random_playouts` with its scratch arrays given, used as borrowed views
    (:mod:`ludothek.core.borrow`)."""
    board0, temp0, geo, board, temp = borrowed(board0), borrowed(temp0), borrowed(geo), borrowed(board), borrowed(temp)
    buf, history, d = borrowed(buf), borrowed(history), borrowed(d)
    turns = 0
    white = 0
    black = 0
    draws = 0
    for _ in range(count):
        for cell in range(CELLS):
            board[cell] = board0[cell]
            temp[cell] = temp0[cell]
        side = side0
        position_masks(board, temp, d)
        history[0] = fingerprint(d, side)
        played = 0
        since = 0  # the last capture: no position before it can come again
        repeated = False
        while True:
            if not (d[9 - 8 * side, 0] | d[9 - 8 * side, 1]):  # the opponent has no 1 left
                result = WHITE_WINS if side == 0 else BLACK_WINS
                break
            drawn, a, keep = masked_sample_turn_action(board, geo, d, side, state, buf)
            if a < 0:
                result = BLACK_WINS if side == 0 else WHITE_WINS
                break
            if repeated or played >= limit:
                result = DRAW
                break
            state = drawn
            if a < ROLL:
                if board[a % CELLS] != 0:
                    since = played + 1
                masked_play_move(board, temp, d, side, a, keep)
            else:
                state, face = random_below(state, 6)
                masked_play_roll(board, temp, d, side, a - ROLL, face + 1, keep)
            side = 1 - side
            played += 1
            h = fingerprint(d, side)
            history[played] = h
            seen = 1
            for k in range(played - 2, since - 1, -2):
                if history[k] == h:
                    seen += 1
            repeated = seen >= 3
        turns += played
        if result == WHITE_WINS:
            white += 1
        elif result == BLACK_WINS:
            black += 1
        else:
            draws += 1
    return turns, white, black, draws
