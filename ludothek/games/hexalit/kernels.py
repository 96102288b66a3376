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

Listing and counting: :func:`turn_actions` writes a turn's actions (``turn_actions_keep``
also says whether the Eins-Gebot holds); :func:`count_turn_actions` only counts them and
:func:`nth_turn_action` then finds the k-th, listing the moves of one die alone, which is
all a random playout needs; perft's last ply counts leaves (:func:`count_turn_leaves`).

A *turn* is one move, or one roll together with its outcome.  The Eins-Gebot flag
``keep`` passed to :func:`play_move` / :func:`play_roll` is whether the mover's last 1
was threatened at the start of the turn (then his temporary faces are kept).
"""

import numpy as np
from numba import njit

from ..dice.kernels import (
    CELLS,
    MAX_MOVES,
    ZOBRIST,
    count_ones,
    die_move_count,
    is_attacked,
    king_escapes,
    own_masks,
    piece_moves,
    zobrist_hash,
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
    one = lone_one(board, side)
    if one >= 0 and is_attacked(board, geo, one, 1 - side, _NOJ):
        return one
    return -1


@njit(cache=True, inline="always")
def _rollable(v, ones):
    """Whether a die of the mover showing ``v`` may be rolled (``ones``: his 1s)."""
    return v == 2 or (v == 1 and ones >= 2)


@njit(cache=True)
def turn_actions(board, geo, side, out):
    """Write ``side``'s legal moves and rolls into ``out`` (``int32``, at least
    ``MAX_MOVES`` long); return how many.  Zero when ``side`` has no 1 left."""
    return turn_actions_keep(board, geo, side, out)[0]


@njit(cache=True, inline="always")
def _dice_at(scratch):
    """Where the kernels below keep, in the tail of an action buffer, the mover's dice
    (cells), then the moves of the dice up to each, then how many dice and how many 1s."""
    return scratch.shape[0] - 2 * CELLS - 2


@njit(cache=True, inline="always")
def _mover_dice(board, sgn, scratch):
    """List the mover's dice at :func:`_dice_at`; return ``(dice, ones, a 1's cell, twos)``."""
    at = _dice_at(scratch)
    dice = 0
    ones = 0
    one = -1
    twos = 0
    for cell in range(CELLS):
        v = board[cell] * sgn
        if v > 0:
            scratch[at + dice] = cell
            dice += 1
            if v == 1:
                ones += 1
                one = cell
            elif v == 2:
                twos += 1
    return dice, ones, one, twos


@njit(cache=True)
def turn_actions_keep(board, geo, side, out):
    """:func:`turn_actions` and whether the Eins-Gebot holds (the ``keep`` flag of the turn):
    ``(n, keep)``."""
    sgn = 1 - 2 * side
    dice, ones, one, _ = _mover_dice(board, sgn, out)
    if ones == 0:
        return 0, False
    if ones == 1 and is_attacked(board, geo, one, 1 - side, _NOJ):
        # Eins-Gebot: the last 1 must move to a cell where it is not threatened
        return king_escapes(board, geo, one, side, _NOJ, out, 0), True
    at = _dice_at(out)
    n = 0
    for k in range(dice):
        n = piece_moves(board, geo, out[at + k], _NOJ, False, out, n)
    for k in range(dice):
        cell = out[at + k]
        if _rollable(board[cell] * sgn, ones):
            out[n] = ROLL + cell
            n += 1
    return n, False


@njit(cache=True)
def count_turn_actions(board, geo, side, scratch):
    """How many actions :func:`turn_actions` would write and whether the Eins-Gebot holds,
    ``(n, keep)``, without listing them; :func:`nth_turn_action` then finds any one of them
    (a random playout lists only the moves of the die it picks).  ``scratch``: an ``int32``
    buffer of ``MAX_MOVES``, filled for :func:`nth_turn_action`."""
    sgn = 1 - 2 * side
    dice, ones, one, twos = _mover_dice(board, sgn, scratch)
    if ones == 0:
        return 0, False
    if ones == 1 and is_attacked(board, geo, one, 1 - side, _NOJ):
        return king_escapes(board, geo, one, side, _NOJ, scratch, 0), True
    at = _dice_at(scratch)
    own_low, own_high = own_masks(board, sgn)
    n = 0
    for k in range(dice):
        cell = scratch[at + k]
        n += die_move_count(board, geo, cell, board[cell] * sgn, sgn, _NOJ, False, own_low, own_high, scratch)
        scratch[at + CELLS + k] = n
    scratch[at + 2 * CELLS] = dice
    scratch[at + 2 * CELLS + 1] = ones
    return n + twos + (ones if ones >= 2 else 0), False


@njit(cache=True)
def nth_turn_action(board, geo, side, k, keep, scratch):
    """Action ``k`` of :func:`turn_actions`'s list, after :func:`count_turn_actions` filled
    ``scratch`` for this position (``keep``: what it returned)."""
    if keep:
        return scratch[k]  # the escapes of the last 1, listed
    sgn = 1 - 2 * side
    at = _dice_at(scratch)
    upto = at + CELLS
    dice = scratch[at + 2 * CELLS]
    ones = scratch[at + 2 * CELLS + 1]
    moves = scratch[upto + dice - 1]
    if k < moves:
        i = 0
        while scratch[upto + i] <= k:
            i += 1
        before = scratch[upto + i - 1] if i > 0 else 0
        piece_moves(board, geo, scratch[at + i], _NOJ, False, scratch, 0)
        return scratch[k - before]
    k -= moves
    for i in range(dice):
        cell = scratch[at + i]
        if _rollable(board[cell] * sgn, ones):
            if k == 0:
                return ROLL + cell
            k -= 1
    return -1  # k was not below count_turn_actions' n


@njit(cache=True)
def count_turn_leaves(board, geo, side, scratch):
    """The leaves of :func:`turn_actions` without listing them: a move is one leaf, a roll
    six (one per face).  ``scratch``: an ``int32`` buffer of ``MAX_MOVES``."""
    n, keep = count_turn_actions(board, geo, side, scratch)
    if keep or n == 0:
        return n
    at = _dice_at(scratch)
    moves = scratch[at + CELLS + scratch[at + 2 * CELLS] - 1]
    return moves + 6 * (n - moves)


@njit(cache=True)
def end_turn(board, temp, side, keep, fresh):
    """End ``side``'s turn: unless ``keep`` (the Eins-Gebot held at its start), every
    temporary die of ``side`` except ``fresh`` (the die rolled this turn, or -1) turns
    back to 2.  Lone 1s are made permanent before and after."""
    sgn = 1 - 2 * side
    white = black = 0
    white_one = black_one = -1
    stale = False  # a temporary die of the mover that may turn back
    for cell in range(CELLS):
        v = board[cell]
        if v == 1:
            white += 1
            white_one = cell
        elif v == -1:
            black += 1
            black_one = cell
        if temp[cell] and cell != fresh and v * sgn > 0:
            stale = True
    if white == 1:
        temp[white_one] = False
    if black == 1:
        temp[black_one] = False
    if keep or not stale:
        return
    ones = 0
    one = -1
    for cell in range(CELLS):
        v = board[cell] * sgn
        if v <= 0:
            continue
        if temp[cell] and cell != fresh:
            board[cell] = 2 * sgn
            temp[cell] = False
        elif v == 1:
            ones += 1
            one = cell
    if ones == 1:  # the opponent's dice did not change: only the mover's lone 1 is new
        temp[one] = False


@njit(cache=True)
def play_move(board, temp, side, move, keep):
    """Move ``from * 66 + to`` and end the turn."""
    frm = move // CELLS
    to = move - frm * CELLS
    board[to] = board[frm]
    board[frm] = 0
    temp[to] = temp[frm]  # a captured die's flag goes with it
    temp[frm] = False
    end_turn(board, temp, side, keep, -1)


@njit(cache=True)
def play_roll(board, temp, side, cell, face, keep):
    """The die on ``cell`` was rolled and shows ``face``; end the turn."""
    board[cell] = face * (1 - 2 * side)
    temp[cell] = True
    end_turn(board, temp, side, keep, cell)


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


@njit(cache=True)
def _perft(board, temp, geo, side, depth, bufs, boards, temps):
    """``bufs``, ``boards``, ``temps``: one row of scratch per depth (no allocation here)."""
    if count_ones(board, 0) == 0 or count_ones(board, 1) == 0:
        return 1
    buf = bufs[depth]
    if depth == 1:
        n = count_turn_leaves(board, geo, side, buf)
        return n if n > 0 else 1
    n, keep = turn_actions_keep(board, geo, side, buf)
    if n == 0:
        return 1
    b2 = boards[depth]
    t2 = temps[depth]
    total = 0
    for k in range(n):
        a = buf[k]
        if a < ROLL:
            b2[:] = board
            t2[:] = temp
            play_move(b2, t2, side, a, keep)
            total += _perft(b2, t2, geo, 1 - side, depth - 1, bufs, boards, temps)
        else:
            for face in range(1, 7):
                b2[:] = board
                t2[:] = temp
                play_roll(b2, t2, side, a - ROLL, face, keep)
                total += _perft(b2, t2, geo, 1 - side, depth - 1, bufs, boards, temps)
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
    return _perft(board.copy(), temp.copy(), geo, side, depth, bufs, boards, temps)


@njit(cache=True)
def random_playouts(board0, temp0, geo, side0, plies0, max_plies, count, seed):
    """Play ``count`` games of uniformly random actions (a roll is one action; its face is
    drawn uniformly) from the given position, to the end: a win, threefold repetition or
    ``max_plies`` turns in all (``plies0`` were played before).

    Returns ``(turns, white wins, black wins, draws)``."""
    np.random.seed(seed)
    board = np.empty_like(board0)
    temp = np.empty_like(temp0)
    buf = np.empty(MAX_MOVES, dtype=np.int32)
    limit = max_plies - plies0
    limit = max(limit, 0)
    history = np.empty(limit + 1, dtype=np.uint64)
    turns = 0
    white = 0
    black = 0
    draws = 0
    for _ in range(count):
        board[:] = board0
        temp[:] = temp0
        side = side0
        history[0] = position_hash(board, temp, side)
        played = 0
        since = 0  # the last capture: no position before it can come again
        repeated = False
        while True:
            if count_ones(board, 1 - side) == 0:
                result = WHITE_WINS if side == 0 else BLACK_WINS
                break
            n, keep = count_turn_actions(board, geo, side, buf)
            if n == 0:
                result = BLACK_WINS if side == 0 else WHITE_WINS
                break
            if repeated or played >= limit:
                result = DRAW
                break
            a = nth_turn_action(board, geo, side, np.random.randint(0, n), keep, buf)
            if a < ROLL:
                if board[a % CELLS] != 0:
                    since = played + 1
                play_move(board, temp, side, a, keep)
            else:
                play_roll(board, temp, side, a - ROLL, np.random.randint(1, 7), keep)
            side = 1 - side
            played += 1
            h = position_hash(board, temp, side)
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
