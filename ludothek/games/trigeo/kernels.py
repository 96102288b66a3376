"""Trigeo's rules as compiled kernels (the one rules implementation).

Board and moves as in :mod:`ludothek.games.dice.kernels`; ``jumps`` is
``JUMP_FIELDS_TRIGEO``.  Legal moves of ``side``:

* no 1 of ``side`` on the board: none (the side has lost);
* its 1 threatened (Eins-Gebot): the moves of that 1 to cells where it is not threatened;
* otherwise every move of every die by its face, plus jump-field jumps, plus promotions.

A position with no legal move is over: the side to move has lost.
"""

import numpy as np

from ...core.borrow import borrowed
from ...core.njit import njit
from ..dice.kernels import (
    CELLS,
    PROMO,
    JUMP_FIELDS_TRIGEO,
    MAX_MOVES,
    apply_move,
    count_moves,
    find_one,
    gen_moves,
    is_attacked,
    king_escapes,
    move_hash_delta,
    piece_moves,
    undo_move,
)
from ..dice.masks import (
    KNIGHT_HIGH, KNIGHT_LOW, ONE, PAWN_CAPTURES, TOUCH_HIGH, TOUCH_LOW, attacked_or_jumped, bit, first_on_ray, has,
    lowest, masked_count_moves,
)
from ...boards.triangle66 import G_ROW, G_UP
from numba.cpython.unsafe.numbers import trailing_zeros



@njit(cache=True)
def legal_moves(board, geo, side, jumps, out):
    """Write the legal moves of ``side`` into ``out`` (any order); return how many."""
    n, _ = legal_moves_threat(board, geo, side, jumps, out)
    return n


@njit(cache=True)
def legal_moves_threat(board, geo, side, jumps, out):
    """:func:`legal_moves`, and whether the Eins-Gebot binds (the 1 of ``side`` is
    threatened: only its escapes are listed; otherwise the list is ``gen_moves``)."""
    king = find_one(board, side)
    if king < 0:
        return 0, False
    if is_attacked(board, geo, king, 1 - side, jumps):
        return king_escapes(board, geo, king, side, jumps, out, 0), True
    return gen_moves(board, geo, side, jumps, True, out), False


@njit(cache=True, inline="always")
def count_legal_moves(board, geo, side, jumps, scratch):
    """How many moves :func:`legal_moves` would write (``scratch``: a buffer of MAX_MOVES)."""
    king = find_one(board, side)
    if king < 0:
        return 0
    if is_attacked(board, geo, king, 1 - side, jumps):
        return king_escapes(board, geo, king, side, jumps, scratch, 0)
    return count_moves(board, geo, side, jumps, True, scratch)


@njit(cache=True)
def one_threatened(board, geo, side, jumps):
    """Is the 1 of ``side`` threatened by the opponent?"""
    king = find_one(board, side)
    return king >= 0 and is_attacked(board, geo, king, 1 - side, jumps)


@njit(cache=True, inline="always")
def _threatened_one(d, side, jump_lo, jump_hi):
    """The cell of ``side``'s 1 and whether it is threatened, from the masks (-1: no 1)."""
    o = 8 * side
    if not (d[o + 1, 0] | d[o + 1, 1]):
        return -1, False
    king = lowest(d[o + 1, 0], d[o + 1, 1])
    return king, attacked_or_jumped(d, king, 1 - side, d[0, 0] | d[8, 0], d[0, 1] | d[8, 1], jump_lo, jump_hi)


@njit(cache=True)
def _masked_escapes(board, d, geo, king, side, jumps, jump_lo, jump_hi, out):
    """``king_escapes`` with the masks: the 1's moves after which it is not attacked (the 1
    gone from its cell; a captured die cannot attack from the cell the 1 takes)."""
    end = piece_moves(board, geo, king, jumps, False, out, 0)
    occ_lo = (d[0, 0] | d[8, 0]) & ~(bit(king) if king < 64 else np.uint64(0))
    occ_hi = (d[0, 1] | d[8, 1]) & ~(bit(king) if king >= 64 else np.uint64(0))
    n = 0
    for i in range(end):
        move = out[i]
        if not attacked_or_jumped(d, move % CELLS, 1 - side, occ_lo, occ_hi, jump_lo, jump_hi):
            out[n] = move
            n += 1
    return n


@njit(cache=True)
def masked_legal_moves_threat(board, d, geo, side, jumps, jump_lo, jump_hi, out):
    """:func:`legal_moves_threat` with the position's masks ``d`` (:mod:`..dice.masks`) and
    the jump fields' mask at hand: the same list in the same order."""
    king, threat = _threatened_one(d, side, jump_lo, jump_hi)
    if king < 0:
        return 0, False
    if threat:
        return _masked_escapes(board, d, geo, king, side, jumps, jump_lo, jump_hi, out), True
    n = 0
    for w in range(2):
        cells = d[8 * side, w]
        while cells:
            low = cells & (~cells + ONE)
            cells ^= low
            n = piece_moves(board, geo, np.int64(trailing_zeros(low)) + 64 * w, jumps, True, out, n)
    return n, False


@njit(cache=True)
def masked_status(board, d, geo, side, jumps, jump_lo, jump_hi, out, scratch):
    """What a search needs of a position before it lists any move: ``(n, threat, moves)``.
    The 1 threatened: ``n`` its escapes, listed in ``out`` (the legal moves), ``moves`` -1;
    otherwise ``n`` -1 (nothing listed) and ``moves`` the count of :func:`legal_moves`.
    The side has lost when ``n == 0`` or ``moves == 0``."""
    king, threat = _threatened_one(d, side, jump_lo, jump_hi)
    if king < 0:
        return 0, False, -1
    if threat:
        return _masked_escapes(board, d, geo, king, side, jumps, jump_lo, jump_hi, out), True, -1
    return -1, False, masked_count_moves(board, d, geo, side, jumps, jump_lo, jump_hi, True, scratch)


@njit(cache=True, inline="always")
def _emit_captures(out, n, cell, lo, hi):
    for w in range(2):
        targets = lo if w == 0 else hi
        while targets:
            low = targets & (~targets + ONE)
            targets ^= low
            out[n] = cell * CELLS + np.int64(trailing_zeros(low)) + 64 * w
            n += 1
    return n


@njit(cache=True)
def masked_captures(board, d, geo, side, jumps, jump_lo, jump_hi, out):
    """The captures among the legal moves of ``side`` (a 2's capture onto its last row
    twice: with and without the promotion); the threatened 1's, or by ascending ``from``."""
    king, threat = _threatened_one(d, side, jump_lo, jump_hi)
    if king < 0:
        return 0
    if threat:
        end = _masked_escapes(board, d, geo, king, side, jumps, jump_lo, jump_hi, out)
        n = 0
        for i in range(end):
            if board[out[i] % CELLS] != 0:
                out[n] = out[i]
                n += 1
        return n
    return free_captures(board, d, geo, side, jumps, jump_lo, jump_hi, out)


@njit(cache=True)
def free_captures(board, d, geo, side, jumps, jump_lo, jump_hi, out):
    """:func:`masked_captures` when the 1 of ``side`` stands and is not threatened (all its
    dice may capture): by ascending ``from``."""
    sgn = 1 - 2 * side
    enemy_lo = d[8 - 8 * side, 0]
    enemy_hi = d[8 - 8 * side, 1]
    occ_lo = d[0, 0] | d[8, 0]
    occ_hi = d[0, 1] | d[8, 1]
    last = 6 if side == 0 else 1
    n = 0
    for w in range(2):
        cells = d[8 * side, w]
        jumping = jump_lo if w == 0 else jump_hi
        while cells:
            low = cells & (~cells + ONE)
            cells ^= low
            cell = np.int64(trailing_zeros(low)) + 64 * w
            if jumping & low:  # its moves with the jumps, the captures kept
                end = piece_moves(board, geo, cell, jumps, True, out, n)
                for i in range(n, end):
                    m = out[i]
                    if board[(m % PROMO) % CELLS] != 0:
                        out[n] = m
                        n += 1
                continue
            face = np.int64(board[cell]) * sgn
            if face == 1:
                n = _emit_captures(out, n, cell, TOUCH_LOW[cell] & enemy_lo, TOUCH_HIGH[cell] & enemy_hi)
            elif face == 3:
                n = _emit_captures(out, n, cell, KNIGHT_LOW[cell] & enemy_lo, KNIGHT_HIGH[cell] & enemy_hi)
            elif face == 2:
                start = n
                n = _emit_captures(out, n, cell, PAWN_CAPTURES[side, cell, 0] & enemy_lo,
                                   PAWN_CAPTURES[side, cell, 1] & enemy_hi)
                for i in range(start, n):  # the promotion twins, after the plain captures
                    t = out[i] - cell * CELLS
                    if geo[t, G_ROW] == last:
                        out[n] = PROMO + out[i]
                        n += 1
            else:
                for direction in range(6):
                    side_dir = (direction & 1) == geo[cell, G_UP]
                    if (face == 4 and side_dir) or (face == 5 and not side_dir):
                        continue
                    t = first_on_ray(cell, direction, occ_lo, occ_hi)
                    if t >= 0 and has(enemy_lo, enemy_hi, t):
                        out[n] = cell * CELLS + t
                        n += 1
    return n


@njit(cache=True)
def masked_apply_move(board, d, move):
    """:func:`apply_move` on the board and its masks ``d`` together."""
    m = move % PROMO
    frm = m // CELLS
    to = m - frm * CELLS
    v = np.int64(board[frm])
    o = 0 if v > 0 else 8
    captured = np.int64(board[to])
    w_to = to >> 6
    b_to = bit(to)
    if captured != 0:
        row = captured if captured > 0 else 8 - captured
        d[8 - o, w_to] &= ~b_to
        d[row, w_to] &= ~b_to
    face = v if v > 0 else -v
    d[o, frm >> 6] &= ~bit(frm)
    d[o + face, frm >> 6] &= ~bit(frm)
    if move >= PROMO:
        face = 6
    d[o, w_to] |= b_to
    d[o + face, w_to] |= b_to
    apply_move(board, move)


#: the jump fields as a table of cells (a die there may jump to any other)
_ON_JUMP = np.zeros(CELLS, dtype=np.bool_)
_ON_JUMP[JUMP_FIELDS_TRIGEO] = True
_ON_JUMP.setflags(write=False)


@njit(cache=True)
def irreversible(board, move):
    """Can ``move`` (not yet applied) never be undone, so that no earlier position can come
    again? A capture, and a move of a 2, since 2s only go forward, except from one jump field
    to another: a 2 that stepped C6-D6 may jump back D6-C6."""
    m = move % (CELLS * CELLS)
    frm = m // CELLS
    to = m - frm * CELLS
    if board[to] != 0:
        return True
    if board[frm] != 2 and board[frm] != -2:
        return False
    return not (_ON_JUMP[frm] and _ON_JUMP[to])


@njit(cache=True)
def _repeats(hist, index, since):
    """How often ``hist[index]`` occurs in ``hist[since:index + 1]``."""
    h = hist[index]
    reps = 0
    for k in range(since, index + 1):
        if hist[k] == h:
            reps += 1
    return reps


@njit(cache=True)
def perft(board, geo, jumps, zobrist, side, depth, plies_left, history, since):
    """Leaves exactly ``depth`` (>= 1) plies deep, as in chess: a game that ends sooner
    adds nothing.

    ``plies_left``: plies until the max_plies draw; ``history``: Zobrist hashes of the
    positions so far, the current one last; ``since``: index in ``history`` of the first
    position after the last irreversible move (for threefold repetition).
    ``board`` is restored on return.  Iterative (numba's disk cache cannot hold recursive
    functions reliably); the last ply is counted in bulk."""
    base = history.shape[0] - 1
    hist = np.empty(base + depth + 2, dtype=np.uint64)
    hist[: base + 1] = history
    buf = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    count = np.zeros(depth + 1, dtype=np.int64)
    pos = np.zeros(depth + 1, dtype=np.int64)
    caps = np.zeros(depth + 1, dtype=np.int8)
    sinces = np.zeros(depth + 1, dtype=np.int64)
    return _perft(board, geo, jumps, zobrist, side, depth, plies_left, hist, base, since, buf, count, pos, caps, sinces)


@njit(cache=True)
def _perft(board, geo, jumps, zobrist, side, depth, plies_left, hist, base, since, buf, count, pos, caps, sinces):
    """:func:`perft` with its scratch arrays given, used as borrowed views (:mod:`ludothek.core.borrow`)."""
    board, geo, jumps, zobrist, hist = borrowed(board), borrowed(geo), borrowed(jumps), borrowed(zobrist), borrowed(hist)
    buf, count, pos, caps, sinces = borrowed(buf), borrowed(count), borrowed(pos), borrowed(caps), borrowed(sinces)
    n = legal_moves(board, geo, side, jumps, buf[0])
    if n == 0 or plies_left <= 0 or _repeats(hist, base, since) >= 3:
        return 0
    if depth == 1:
        return n
    count[0] = n
    sinces[0] = since
    level = 0
    total = 0
    while level >= 0:
        if pos[level] == count[level]:
            level -= 1
            if level >= 0:
                side = 1 - side
                undo_move(board, buf[level, pos[level]], caps[level])
                pos[level] += 1
            continue
        move = buf[level, pos[level]]
        index = base + level
        child_since = index + 1 if irreversible(board, move) else sinces[level]
        hist[index + 1] = hist[index] ^ move_hash_delta(board, move, zobrist)
        caps[level] = apply_move(board, move)
        side = 1 - side
        child = level + 1
        if depth - child == 1:
            n = count_legal_moves(board, geo, side, jumps, buf[child])
        else:
            n = legal_moves(board, geo, side, jumps, buf[child])
        if n == 0 or plies_left - child <= 0 or _repeats(hist, index + 1, child_since) >= 3:
            pass  # the game ended before the last ply: no leaves below
        elif depth - child == 1:
            total += n
        else:
            count[child] = n
            pos[child] = 0
            sinces[child] = child_since
            level = child
            continue
        side = 1 - side
        undo_move(board, move, caps[level])
        pos[level] += 1
    return total


@njit(cache=True)
def random_playouts(board_start, geo, jumps, zobrist, side_start, plies_left, history, since, count, seed):
    """Play ``count`` uniformly random games from here; return (total plies, white wins,
    black wins, draws).  ``history``/``since`` as for :func:`perft`."""
    np.random.seed(seed)
    base = history.shape[0] - 1
    hist = np.empty(base + plies_left + 2, dtype=np.uint64)
    hist[: base + 1] = history
    return _random_playouts(board_start, geo, jumps, zobrist, side_start, plies_left, hist, base, since, count,
                            np.empty(CELLS, dtype=np.int8), np.empty(MAX_MOVES, dtype=np.int32))


@njit(cache=True)
def _random_playouts(board_start, geo, jumps, zobrist, side_start, plies_left, hist, base, since, count, board, out):
    """:func:`random_playouts` with its scratch arrays given, used as borrowed views."""
    board_start, geo, jumps, zobrist = borrowed(board_start), borrowed(geo), borrowed(jumps), borrowed(zobrist)
    hist, board, out = borrowed(hist), borrowed(board), borrowed(out)
    total = 0
    wins_white = 0
    wins_black = 0
    draws = 0
    for _ in range(count):
        for cell in range(CELLS):
            board[cell] = board_start[cell]
        side = side_start
        ply = 0
        first = since
        while True:
            n = legal_moves(board, geo, side, jumps, out)
            if n == 0:
                if side == 0:
                    wins_black += 1
                else:
                    wins_white += 1
                break
            if _repeats(hist, base + ply, first) >= 3 or ply >= plies_left:
                draws += 1
                break
            move = out[np.random.randint(0, n)]
            if irreversible(board, move):
                first = base + ply + 1
            hist[base + ply + 1] = hist[base + ply] ^ move_hash_delta(board, move, zobrist)
            apply_move(board, move)
            side = 1 - side
            ply += 1
        total += ply
    return total, wins_white, wins_black, draws
