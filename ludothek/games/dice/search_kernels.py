"""Compiled alpha-beta / expectiminimax for the dice games (Trigeo, Hexalit), over the
games' own rules kernels (no second rules implementation) and their evaluations.

The search follows :class:`ludothek.ai.alphabeta.AlphaBetaAgent` node for node where its
pruning is switched off: the same terminal values (``±(1 - 0.001 · plies)``), the same
repetition and move-limit draws, the same leaf evaluation (squashed the same way), the
same quiescence (captures only, standing pat), chance nodes averaged over the six faces
with full windows, and ``depth`` counted in actions (a roll and its outcome are one depth,
but two plies: as the Python search counts them).  Values are negamax values: for the side
to move at the frame (a chance frame: for the side that moves after the roll).

It runs on explicit stacks — numba's disk cache cannot hold recursive functions — and can
stop after any node and go on later: :func:`run` searches until ``limit`` nodes have been
visited in all (then it returns ``PAUSED``, everything kept in the arrays) or the root
move list is done (``DONE``).  The Python driver (:mod:`.search`) does the iterative
deepening, reads the clock between slices, and keeps the transposition table.

Arrays (all made by :func:`ludothek.games.dice.search.SearchTables`):

* ``par`` int64 settings (``P_*``), ``reg``/``freg`` the registers that survive a pause;
* per frame ``p`` (``p`` = plies from the root, 0 = the root): ``ints[p, F_*]``,
  ``flts[p, X_*]``, ``hashes[p]``, ``boards[p]``, ``temps[p]`` (Hexalit's temporary faces),
  ``moves[p]``/``scores[p]`` (the frame's move list and ordering keys), ``pv[p]``;
* ``killers[p, 2]``, ``history[side, action]`` — move ordering;
* transposition table ``tt`` (records :data:`TT_ENTRY`): the Zobrist key, the value (mate
  values stored relative to the node), the best move and ``meta`` (depth | flag << 8 |
  generation << 10); two entries per bucket, one cache line (one kept by depth, one always
  replaced);
* evaluation cache ``ec`` (records :data:`EC_ENTRY`): a position's static value by key (a
  cached position is known not to be lost);
* ``g_keys``/``g_counts``: how often each position of the game before the root occurred
  (repetitions), an open-addressing table;
* ``root_moves``, ``root_scores``.
"""

import numpy as np

from ...core.njit import njit
from ..hexalit import playout_kernels as hexalit_eval
from ..hexalit.kernels import ROLL, play_move, play_roll, position_hash, turn_actions_keep
from ..trigeo import playout_kernels as trigeo_eval
from ..trigeo.kernels import (
    free_captures, irreversible, masked_apply_move, masked_captures, masked_legal_moves_threat, masked_status,
)
from .eval_kernels import W_TEMPO, WEIGHT_NAMES, masked_evaluate_white
from .masks import ROWS, dice_masks
from .net_kernels import frame_sums, net_from_sums, net_pawns
from .masks import jump_masks, masked_count_moves
from ...core.borrow import borrowed
from .kernels import CELLS, PROMO, ZOBRIST, count_moves, count_ones, move_hash_delta

TRIGEO, HEXALIT = 0, 1
#: a weights array longer than the hand evaluation's carries a learned net from here (:mod:`.net`)
NET_START = len(WEIGHT_NAMES)
#: a transposition-table entry: 32 bytes, so that a bucket of two is one 64-byte cache line
TT_ENTRY = np.dtype([("key", np.uint64), ("value", np.float64), ("move", np.int32), ("meta", np.int32),
                     ("unused", np.int64)])
#: an evaluation-cache entry: the key next to its value (one cache miss, not two)
EC_ENTRY = np.dtype([("key", np.uint64), ("value", np.float64)])
#: frames: plies from the root (depth counts a roll and its outcome as one, plies as two)
MAX_FRAMES = 200
MAX_LIST = 1024

# settings (par)
P_GAME, P_PLIES_LEFT, P_QUIESCENCE, P_REPDRAW, P_TT, P_PVS, P_LMR, P_NULL, P_EXACT_ROOT, \
    P_EVAL_CACHE, P_GENERATION, P_NROOT, P_DEPTH, P_STAR = range(14)
N_PAR = 16
# registers
R_P, R_MODE, R_NODES, R_HORIZON, R_ROOT_DONE, R_ROOT_BEST, R_EVALS, R_GENERATED = range(8)
N_REG = 8
FR_RET = 0
# frame ints
# (F_SUMS: 1 when the frame's first-layer sums of a learned net are its position's; a push clears it)
F_SIDE, F_DEPTH, F_KIND, F_N, F_I, F_MOVE, F_CALL, F_BESTMOVE, F_TURNS, F_IRREV, F_CHECK, \
    F_LEFT, F_FACE, F_ROLL, F_PVLEN, F_MOVERN, F_SEARCHED, F_NULLOK, F_TTMOVE, F_SUMS = range(20)
N_INTS = 20
# frame floats
X_ALPHA, X_BETA, X_ALPHA0, X_BETA0, X_BEST, X_SUM = range(6)
N_FLTS = 8
# frame kinds
K_DEC, K_CHANCE, K_QS = 0, 1, 2
# how a child was called
C_FULL, C_SCOUT, C_LMR, C_NULL = 0, 1, 2, 3
# modes
M_ROOT, M_ENTER, M_RETURN, M_DONE = 0, 1, 2, 3
PAUSED, DONE = 0, 1
# TT flags and modes (P_TT: 0 off, 1 moves only, 2 moves and cut-offs)
EXACT, LOWER, UPPER = 0, 1, 2
TT_OFF, TT_MOVES, TT_FULL = 0, 1, 2

_TT_BASE = np.int64(1) << 42
_CAPTURE_BASE = np.int64(1) << 41
_KILLER_BASE = np.int64(1) << 40
_HISTORY_CAP = np.int64(1) << 36
_MATE = 0.95
_SIXTH = 1.0 / 6.0
LMR_AFTER = 3


@njit(cache=True)
def _up(x):
    return np.nextafter(x, np.inf)


@njit(cache=True)
def _down(x):
    return np.nextafter(x, -np.inf)


# ------------------------------------------------------------------ tables
@njit(cache=True, inline="always")
def tt_probe(tt, h):
    i = np.int64(h & np.uint64(tt.shape[0] - 1)) & ~np.int64(1)
    if tt[i].key == h:
        return i
    if tt[i + 1].key == h:
        return i + 1
    return -1


@njit(cache=True)
def tt_store(tt, h, depth, flag, value, move, generation):
    i = np.int64(h & np.uint64(tt.shape[0] - 1)) & ~np.int64(1)
    meta = depth | (flag << 8) | (generation << 10)
    if tt[i].key == h:
        slot = i
    elif tt[i + 1].key == h:
        slot = i + 1
    elif (tt[i].meta >> 10) != generation or depth >= (tt[i].meta & 255):
        # the depth-preferred entry is old or shallower: it moves to the other slot
        tt[i + 1] = tt[i]
        slot = i
    else:
        slot = i + 1
    tt[slot].key = h
    tt[slot].value = value
    tt[slot].move = move
    tt[slot].meta = meta


@njit(cache=True)
def _to_tt(value, ply):
    """Mate values relative to the node (they are relative to the root in the search)."""
    if value > _MATE:
        return value + 0.001 * ply
    if value < -_MATE:
        return value - 0.001 * ply
    return value


@njit(cache=True)
def _from_tt(value, ply):
    if value > _MATE:
        return value - 0.001 * ply
    if value < -_MATE:
        return value + 0.001 * ply
    return value


@njit(cache=True)
def game_table(hashes, size):
    """(keys, counts): an open-addressing table of how often each hash occurs."""
    keys = np.zeros(size, np.uint64)
    counts = np.zeros(size, np.int32)
    mask = np.uint64(size - 1)
    for h in hashes:
        i = np.int64(h & mask)
        while keys[i] != 0 and keys[i] != h:
            i = (i + 1) & (size - 1)
        keys[i] = h
        counts[i] += 1
    return keys, counts


@njit(cache=True)
def _game_count(g_keys, g_counts, h):
    size = g_keys.shape[0]
    i = np.int64(h & np.uint64(size - 1))
    while g_keys[i] != 0:
        if g_keys[i] == h:
            return g_counts[i]
        i = (i + 1) & (size - 1)
    return 0


@njit(cache=True)
def _repetitions(ints, hashes, g_keys, g_counts, p):
    """How often the position of frame ``p`` has occurred (the game before the root, the
    root included, and the frames on the path): the states' ``repetitions()``."""
    h = hashes[p]
    start = ints[p, F_IRREV]
    count = 1
    if start == 0:
        count = _game_count(g_keys, g_counts, h) + 1
        start = 1
    for q in range(start, p):
        if hashes[q] == h and ints[q, F_KIND] != K_CHANCE:
            count += 1
    return count


# ------------------------------------------------------------------ the games
@njit(cache=True)
def generate(game, board, temp, d, side, geo, jumps, jump_lo, jump_hi, out):
    """The legal actions (the rules kernels'), whether the Eins-Gebot binds, and the number
    of ``gen_moves`` of ``side`` when the list holds them (else -1); ``d``: Trigeo's masks."""
    if game == TRIGEO:
        n, threat = masked_legal_moves_threat(board, d, geo, side, jumps, jump_lo, jump_hi, out)
        return n, threat, (-1 if threat else n)
    n, threat = turn_actions_keep(board, geo, side, out)
    if threat or n == 0:
        return n, threat, -1
    m = n
    while m > 0 and out[m - 1] >= ROLL:  # the rolls follow the moves
        m -= 1
    return n, threat, m


@njit(cache=True)
def evaluate(game, board, temp, d, side, geo, jumps, jump_lo, jump_hi, mover_moves, buf, w):
    """The game's evaluation for the side to move: ``knowledge.evaluate`` of the state
    (``d``: Trigeo's masks of the position; ``w``: the evaluation's weights, and a learned
    net after them if ``w`` is longer than :data:`NET_START`)."""
    pawns = white_pawns(game, board, temp, d, side, geo, jumps, jump_lo, jump_hi, mover_moves, buf, w)
    if w.shape[0] > NET_START:
        pawns = net_pawns(board, temp, side, pawns, w, NET_START)
    return _for_side(game, pawns, side)


@njit(cache=True)
def evaluate_frame(game, boards, temps, sums, ints, p, d, geo, jumps, jump_lo, jump_hi, buf, w):
    """:func:`evaluate` of frame ``p``, a net's first layer summed from the frames above it
    (:func:`.net_kernels.frame_sums`)."""
    side = ints[p, F_SIDE]
    pawns = white_pawns(game, boards[p], temps[p], d, side, geo, jumps, jump_lo, jump_hi, ints[p, F_MOVERN], buf, w)
    if w.shape[0] > NET_START:
        frame_sums(boards, temps, sums, ints[:, F_SUMS], p, w, NET_START)
        pawns = net_from_sums(sums[p], side, pawns, w, NET_START)
    return _for_side(game, pawns, side)


@njit(cache=True, inline="always")
def _for_side(game, pawns, side):
    if game == TRIGEO:
        value = trigeo_eval.squash(pawns)
    else:
        value = hexalit_eval.squash(pawns)
    return value if side == 0 else -value


@njit(cache=True)
def static_pawns(game, board, temp, side, geo, jumps, w):
    """The hand evaluation of a position in pawns for White, the side to move's tempo
    included (what the learned net corrects: the training data's ``hand``)."""
    d = np.empty((ROWS, 2), np.uint64)
    dice_masks(board, d)
    jump_lo, jump_hi = jump_masks(jumps)
    buf = np.empty(MAX_LIST, np.int32)
    return white_pawns(game, board, temp, d, side, geo, jumps, jump_lo, jump_hi, -1, buf, w)


@njit(cache=True)
def static_value(game, board, temp, side, geo, jumps, w):
    """:func:`evaluate` of a lone position (the net's too, if ``w`` carries one)."""
    d = np.empty((ROWS, 2), np.uint64)
    dice_masks(board, d)
    jump_lo, jump_hi = jump_masks(jumps)
    buf = np.empty(MAX_LIST, np.int32)
    return evaluate(game, board, temp, d, side, geo, jumps, jump_lo, jump_hi, -1, buf, w)


@njit(cache=True)
def white_pawns(game, board, temp, d, side, geo, jumps, jump_lo, jump_hi, mover_moves, buf, w):
    """The hand evaluation in pawns for White, the tempo included."""
    if game == TRIGEO:
        if mover_moves < 0:
            mover_moves = masked_count_moves(board, d, geo, side, jumps, jump_lo, jump_hi, True, buf)
        other = masked_count_moves(board, d, geo, 1 - side, jumps, jump_lo, jump_hi, True, buf)
    else:
        if mover_moves < 0:
            mover_moves = count_moves(board, geo, side, jumps, False, buf)
        other = count_moves(board, geo, 1 - side, jumps, False, buf)
    if side == 0:
        white, black = mover_moves, other
    else:
        white, black = other, mover_moves
    if game == TRIGEO:
        pawns = masked_evaluate_white(board, d, geo, jumps, white, black, w)
    else:
        pawns = hexalit_eval.evaluate_white_counted(board, temp, geo, white, black, w)
    pawns += w[W_TEMPO] if side == 0 else -w[W_TEMPO]
    return pawns


@njit(cache=True, inline="always")
def _victim(game, board, move):
    """(captured face or 0, moving face, promotes)."""
    if game == HEXALIT and move >= ROLL:
        return 0, 0, False
    m = move % PROMO
    frm = m // CELLS
    to = m - frm * CELLS
    v = board[to]
    a = board[frm]
    return (v if v > 0 else -v), (a if a > 0 else -a), (game == TRIGEO and move >= PROMO)


@njit(cache=True, inline="always")
def _tactical(game, board, move):
    """A capture, a promotion or a roll: never reduced, never a killer."""
    if game == HEXALIT and move >= ROLL:
        return True
    if move >= PROMO:
        return True
    return board[move % CELLS] != 0


@njit(cache=True)
def _score_moves(game, board, side, moves, scores, n, tt_move, k0, k1, history):
    for i in range(n):
        m = moves[i]
        if m == tt_move:
            scores[i] = _TT_BASE
            continue
        victim, attacker, promo = _victim(game, board, m)
        if victim > 0 or promo:
            scores[i] = _CAPTURE_BASE + 10 * victim - attacker + (50 if promo else 0)
        elif m == k0:
            scores[i] = _KILLER_BASE + 2
        elif m == k1:
            scores[i] = _KILLER_BASE + 1
        else:
            h = min(history[side, m], _HISTORY_CAP)
            if game == HEXALIT and m >= ROLL:
                h -= 1  # rolls after the quiet moves of equal history
            scores[i] = h


@njit(cache=True)
def _pick(moves, scores, i, n):
    """Bring the best-scored of ``moves[i:n]`` to ``i`` and return it."""
    best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        m = moves[best]
        s = scores[best]
        moves[best] = moves[i]
        scores[best] = scores[i]
        moves[i] = m
        scores[i] = s
    return moves[i]


@njit(cache=True, inline="always")
def _copy_row(rows, p, c):
    """``rows[c] = rows[p]`` cell by cell (numba's slice assignment is several times slower)."""
    for k in range(rows.shape[1]):
        rows[c, k] = rows[p, k]


@njit(cache=True, inline="always")
def _copy_masks(masks, p, c):
    for r in range(masks.shape[1]):
        masks[c, r, 0] = masks[p, r, 0]
        masks[c, r, 1] = masks[p, r, 1]


@njit(cache=True)
def _push_move(game, ints, flts, hashes, boards, temps, masks, p, move, depth, alpha, beta, kind, left):
    """Frame ``p + 1``: the position after ``move`` (a roll: the chance frame)."""
    c = p + 1
    side = ints[p, F_SIDE]
    _copy_row(boards, p, c)
    irrev = ints[p, F_IRREV]
    if game == TRIGEO:
        hashes[c] = hashes[p] ^ move_hash_delta(boards[p], move, ZOBRIST)
        if irreversible(boards[p], move):
            irrev = c
        _copy_masks(masks, p, c)
        masked_apply_move(boards[c], masks[c], move)
        ints[c, F_SIDE] = 1 - side
        ints[c, F_TURNS] = ints[p, F_TURNS] + 1
    else:
        _copy_row(temps, p, c)
        if move >= ROLL:
            kind = K_CHANCE
            ints[c, F_SIDE] = side
            ints[c, F_ROLL] = move - ROLL
            ints[c, F_CHECK] = ints[p, F_CHECK]
            ints[c, F_TURNS] = ints[p, F_TURNS]
            hashes[c] = hashes[p]
        else:
            if boards[p, move % CELLS] != 0:
                irrev = c  # fewer dice: no earlier position comes back
            play_move(boards[c], temps[c], side, move, ints[p, F_CHECK] != 0)
            ints[c, F_SIDE] = 1 - side
            ints[c, F_TURNS] = ints[p, F_TURNS] + 1
            hashes[c] = position_hash(boards[c], temps[c], 1 - side)
    ints[c, F_IRREV] = irrev
    ints[c, F_SUMS] = 0
    ints[c, F_DEPTH] = depth
    ints[c, F_KIND] = kind
    ints[c, F_LEFT] = left
    ints[c, F_NULLOK] = 1
    flts[c, X_ALPHA] = alpha
    flts[c, X_BETA] = beta


@njit(cache=True)
def _push_outcome(ints, flts, hashes, boards, temps, p, face):
    """Frame ``p + 1``: the roll of chance frame ``p`` shows ``face``; the turn ends."""
    c = p + 1
    roller = ints[p, F_SIDE]
    _copy_row(boards, p, c)
    _copy_row(temps, p, c)
    play_roll(boards[c], temps[c], roller, ints[p, F_ROLL], face, ints[p, F_CHECK] != 0)
    ints[c, F_SIDE] = 1 - roller
    ints[c, F_TURNS] = ints[p, F_TURNS] + 1
    hashes[c] = position_hash(boards[c], temps[c], 1 - roller)
    ints[c, F_IRREV] = ints[p, F_IRREV]
    ints[c, F_SUMS] = 0
    ints[c, F_DEPTH] = ints[p, F_DEPTH]
    ints[c, F_KIND] = K_DEC
    ints[c, F_LEFT] = 0
    ints[c, F_NULLOK] = 1
    flts[c, X_ALPHA] = -np.inf
    flts[c, X_BETA] = np.inf


@njit(cache=True)
def _push_null(game, ints, flts, hashes, boards, temps, masks, p, depth, alpha, beta):
    """Frame ``p + 1``: the side to move passes (null move; never a game move)."""
    c = p + 1
    side = ints[p, F_SIDE]
    _copy_row(boards, p, c)
    _copy_row(temps, p, c)
    _copy_masks(masks, p, c)
    hashes[c] = hashes[p] ^ ZOBRIST[CELLS, 0]
    ints[c, F_SIDE] = 1 - side
    ints[c, F_TURNS] = ints[p, F_TURNS] + 1
    ints[c, F_IRREV] = c
    ints[c, F_SUMS] = 0
    ints[c, F_DEPTH] = depth
    ints[c, F_KIND] = K_DEC
    ints[c, F_LEFT] = 0
    ints[c, F_NULLOK] = 0
    flts[c, X_ALPHA] = alpha
    flts[c, X_BETA] = beta


@njit(cache=True)
def _save_pv(pv, ints, p, move):
    """The line of frame ``p``: ``move``, then the line of frame ``p + 1``."""
    pv[p, 0] = move
    n = ints[p + 1, F_PVLEN] if ints[p + 1, F_KIND] != K_CHANCE else 0
    if n > pv.shape[1] - 1:
        n = pv.shape[1] - 1
    for k in range(n):
        pv[p, k + 1] = pv[p + 1, k]
    ints[p, F_PVLEN] = n + 1


# ------------------------------------------------------------------ the search
@njit(cache=True)
def start_iteration(par, reg, freg, ints, flts, killers, depth):
    """Prepare a search of the root move list to ``depth`` (frame 0 must hold the root)."""
    par[P_DEPTH] = depth
    reg[R_P] = 0
    reg[R_MODE] = M_ROOT
    reg[R_HORIZON] = 0
    reg[R_ROOT_DONE] = 0
    reg[R_ROOT_BEST] = -1
    freg[FR_RET] = 0.0
    ints[0, F_I] = 0
    ints[0, F_DEPTH] = depth
    ints[0, F_KIND] = K_DEC
    ints[0, F_PVLEN] = 0
    flts[0, X_ALPHA] = -np.inf
    flts[0, X_BETA] = np.inf


@njit(cache=True)
def run(par, reg, freg, ints, flts, hashes, boards, temps, moves, scores, pv, killers, history, tt, ec,
        g_keys, g_counts, root_moves, root_scores, geo, jumps, buf, masks, sums, weights, limit):
    """Search until ``limit`` nodes have been counted in all (``PAUSED``) or the root move
    list is done (``DONE``); see the module docstring."""
    # borrowed views (ludothek.core.borrow): the caller owns every array for the whole call
    par, reg, freg, ints, flts = borrowed(par), borrowed(reg), borrowed(freg), borrowed(ints), borrowed(flts)
    hashes, boards, temps, moves, scores = borrowed(hashes), borrowed(boards), borrowed(temps), borrowed(moves), borrowed(scores)
    pv, killers, history = borrowed(pv), borrowed(killers), borrowed(history)
    tt, ec, g_keys, g_counts = borrowed(tt), borrowed(ec), borrowed(g_keys), borrowed(g_counts)
    root_moves, root_scores = borrowed(root_moves), borrowed(root_scores)
    geo, jumps, buf, masks, weights = borrowed(geo), borrowed(jumps), borrowed(buf), borrowed(masks), borrowed(weights)
    sums = borrowed(sums)
    game = par[P_GAME]
    plies_left = par[P_PLIES_LEFT]
    quiescence = par[P_QUIESCENCE]
    repdraw = par[P_REPDRAW] != 0
    tt_mode = par[P_TT]
    pvs = par[P_PVS] != 0
    lmr = par[P_LMR]
    null_r = par[P_NULL]
    exact_root = par[P_EXACT_ROOT] != 0
    use_ec = par[P_EVAL_CACHE] != 0
    generation = par[P_GENERATION]
    nroot = par[P_NROOT]
    ec_mask = np.uint64(ec.shape[0] - 1)
    jump_lo, jump_hi = jump_masks(jumps)

    p = reg[R_P]
    mode = reg[R_MODE]
    nodes = reg[R_NODES]
    ret = freg[FR_RET]
    status = PAUSED
    while True:
        # ------------------------------------------------------------ the next root move
        if mode == M_ROOT:
            i = ints[0, F_I]
            if i >= nroot:
                status = DONE
                mode = M_DONE
                break
            move = root_moves[i]
            alpha = flts[0, X_ALPHA]
            call = C_FULL
            if exact_root or i == 0:
                a, b = -np.inf, np.inf
            elif pvs and not (game == HEXALIT and move >= ROLL):
                a, b = alpha, _up(alpha)
                call = C_SCOUT
            else:
                a, b = alpha, np.inf
            ints[0, F_MOVE] = move
            ints[0, F_CALL] = call
            _push_move(game, ints, flts, hashes, boards, temps, masks, 0, move, ints[0, F_DEPTH] - 1, -b, -a, K_DEC, 0)
            p = 1
            mode = M_ENTER
            continue

        # ------------------------------------------------------------ entering frame p
        if mode == M_ENTER:
            if nodes >= limit:
                break
            nodes += 1
            kind = ints[p, F_KIND]
            ints[p, F_PVLEN] = 0
            if kind == K_CHANCE:
                flts[p, X_SUM] = 0.0
                ints[p, F_FACE] = 1
                _push_outcome(ints, flts, hashes, boards, temps, p, 1)
                p += 1
                continue
            board = boards[p]
            temp = temps[p]
            side = ints[p, F_SIDE]
            h = hashes[p]
            depth = ints[p, F_DEPTH]
            ints[p, F_N] = -1
            ints[p, F_MOVERN] = -1
            if game == HEXALIT and count_ones(board, 1 - side) == 0:
                ret = 1.0 * (1.0 - 0.001 * p)  # only from a set-up position
                mode = M_RETURN
                continue
            dm = masks[p]  # (Trigeo's; Hexalit leaves them unused)
            # a position in the table or the evaluation cache is known not to be lost
            known = False
            entry = -1
            stand = 0.0
            have_stand = False
            if kind == K_DEC and depth > 0:
                if tt_mode != TT_OFF:
                    entry = tt_probe(tt, h)
                    known = entry >= 0
            elif use_ec:
                e = np.int64(h & ec_mask)
                if ec[e].key == h:
                    stand = ec[e].value
                    have_stand = True
                    known = True
            if not known:
                reg[R_GENERATED] += 1
                if game == TRIGEO and (kind == K_QS or depth <= 0):
                    # at the horizon the captures may never be needed: only whether the side has
                    # lost, and its moves counted (listed only when the 1 is threatened)
                    n, check, mover_n = masked_status(board, dm, geo, side, jumps, jump_lo, jump_hi, moves[p], buf)
                else:
                    n, check, mover_n = generate(game, board, temp, dm, side, geo, jumps, jump_lo, jump_hi, moves[p])
                ints[p, F_N] = n
                ints[p, F_CHECK] = 1 if check else 0
                ints[p, F_MOVERN] = mover_n
                if n == 0 or (n < 0 and mover_n == 0):
                    ret = -1.0 * (1.0 - 0.001 * p)  # the side to move has lost
                    mode = M_RETURN
                    continue
            reps = _repetitions(ints, hashes, g_keys, g_counts, p)
            if reps >= 3 or ints[p, F_TURNS] >= plies_left:
                ret = 0.0
                mode = M_RETURN
                continue
            if kind == K_DEC and depth <= 0:
                reg[R_HORIZON] = 1
                kind = K_QS
                ints[p, F_KIND] = K_QS
                ints[p, F_LEFT] = quiescence
            if kind == K_QS:
                if not have_stand:
                    reg[R_EVALS] += 1
                    stand = evaluate_frame(game, boards, temps, sums, ints, p, dm, geo, jumps, jump_lo, jump_hi, buf,
                                           weights)
                    if use_ec:
                        e = np.int64(h & ec_mask)
                        ec[e].key = h
                        ec[e].value = stand
                alpha = flts[p, X_ALPHA]
                beta = flts[p, X_BETA]
                if ints[p, F_LEFT] <= 0 or stand >= beta:
                    ret = stand
                    mode = M_RETURN
                    continue
                if stand > alpha:
                    alpha = stand
                    flts[p, X_ALPHA] = alpha
                flts[p, X_BEST] = stand
                n = ints[p, F_N]
                row = moves[p]
                srow = scores[p]
                if game == TRIGEO and n < 0:
                    if ints[p, F_MOVERN] >= 0:  # the status found the 1 not threatened: no need to ask again
                        n = free_captures(board, dm, geo, side, jumps, jump_lo, jump_hi, row)
                    else:  # (a cached position: no status asked)
                        n = masked_captures(board, dm, geo, side, jumps, jump_lo, jump_hi, row)
                elif n < 0:
                    reg[R_GENERATED] += 1
                    n, check, mover_n = generate(game, board, temp, dm, side, geo, jumps, jump_lo, jump_hi, row)
                    ints[p, F_CHECK] = 1 if check else 0
                k = 0
                for j in range(n):
                    m = row[j]
                    if game == HEXALIT and m >= ROLL:
                        continue
                    victim, attacker, promo = _victim(game, board, m)
                    if victim > 0:
                        row[k] = m
                        srow[k] = 10 * victim - attacker
                        k += 1
                ints[p, F_N] = k
                if k == 0:
                    ret = stand
                    mode = M_RETURN
                    continue
                m = _pick(row, srow, 0, k)
                ints[p, F_I] = 1
                ints[p, F_MOVE] = m
                _push_move(game, ints, flts, hashes, boards, temps, masks, p, m, 0, -beta, -alpha, K_QS,
                           ints[p, F_LEFT] - 1)
                p += 1
                continue
            # a decision frame with depth > 0
            if repdraw and p > 1 and reps >= 2:
                ret = 0.0
                mode = M_RETURN
                continue
            alpha = flts[p, X_ALPHA]
            beta = flts[p, X_BETA]
            tt_move = -1
            if entry >= 0:
                tt_move = tt[entry].move
                meta = tt[entry].meta
                if tt_mode == TT_FULL and (meta & 255) >= depth:
                    value = _from_tt(tt[entry].value, p)
                    flag = (meta >> 8) & 3
                    if flag == EXACT:
                        ret = value
                        mode = M_RETURN
                        continue
                    if flag == LOWER:
                        alpha = max(alpha, value)
                    else:
                        beta = min(beta, value)
                    if alpha >= beta:
                        ret = value
                        mode = M_RETURN
                        continue
            flts[p, X_ALPHA] = alpha
            flts[p, X_BETA] = beta
            flts[p, X_ALPHA0] = alpha
            flts[p, X_BETA0] = beta
            n = ints[p, F_N]
            if n < 0:
                reg[R_GENERATED] += 1
                n, check, mover_n = generate(game, board, temp, dm, side, geo, jumps, jump_lo, jump_hi, moves[p])
                ints[p, F_N] = n
                ints[p, F_CHECK] = 1 if check else 0
                ints[p, F_MOVERN] = mover_n
                if n == 0:  # (a key collision in the table)
                    ret = -1.0 * (1.0 - 0.001 * p)
                    mode = M_RETURN
                    continue
            ints[p, F_TTMOVE] = tt_move
            _score_moves(game, board, side, moves[p], scores[p], n, tt_move, killers[p, 0], killers[p, 1], history)
            flts[p, X_BEST] = -np.inf
            ints[p, F_BESTMOVE] = -1
            ints[p, F_SEARCHED] = 0
            ints[p, F_I] = 0
            if (null_r > 0 and depth > null_r and p > 1 and ints[p, F_NULLOK] != 0 and ints[p, F_CHECK] == 0
                    and beta < _MATE and beta > -_MATE):
                if use_ec and ec[np.int64(h & ec_mask)].key == h:
                    static = ec[np.int64(h & ec_mask)].value
                else:
                    static = evaluate_frame(game, boards, temps, sums, ints, p, dm, geo, jumps, jump_lo, jump_hi, buf,
                                            weights)
                if static >= beta:
                    ints[p, F_CALL] = C_NULL
                    _push_null(game, ints, flts, hashes, boards, temps, masks, p, depth - 1 - null_r, -beta, -_down(beta))
                    p += 1
                    continue
            m = _pick(moves[p], scores[p], 0, n)
            ints[p, F_I] = 1
            ints[p, F_MOVE] = m
            ints[p, F_CALL] = C_FULL
            _push_move(game, ints, flts, hashes, boards, temps, masks, p, m, depth - 1, -beta, -alpha, K_DEC, 0)
            p += 1
            continue

        # ------------------------------------------------------------ frame p returned ret
        p -= 1
        value = -ret
        if p == 0:
            i = ints[0, F_I]
            alpha = flts[0, X_ALPHA]
            if ints[0, F_CALL] == C_SCOUT and value > alpha:
                ints[0, F_CALL] = C_FULL  # the scout failed high: search it with (alpha, inf)
                _push_move(game, ints, flts, hashes, boards, temps, masks, 0, ints[0, F_MOVE], ints[0, F_DEPTH] - 1,
                           -np.inf, -alpha, K_DEC, 0)
                p = 1
                mode = M_ENTER
                continue
            root_scores[i] = value
            if i == 0 or value > alpha:
                flts[0, X_ALPHA] = value
                reg[R_ROOT_BEST] = i
                _save_pv(pv, ints, 0, ints[0, F_MOVE])
            ints[0, F_I] = i + 1
            reg[R_ROOT_DONE] = i + 1
            mode = M_ROOT
            continue
        kind = ints[p, F_KIND]
        if kind == K_CHANCE:
            # the chance frame's value is for the side that moves after the roll
            flts[p, X_SUM] += _SIXTH * ret
            face = ints[p, F_FACE] + 1
            if face > 6:
                ret = flts[p, X_SUM]
                mode = M_RETURN
                continue
            ints[p, F_FACE] = face
            _push_outcome(ints, flts, hashes, boards, temps, p, face)
            p += 1
            mode = M_ENTER
            continue
        board = boards[p]
        side = ints[p, F_SIDE]
        alpha = flts[p, X_ALPHA]
        beta = flts[p, X_BETA]
        n = ints[p, F_N]
        move = ints[p, F_MOVE]
        if kind == K_QS:
            best = flts[p, X_BEST]
            if value > best:
                best = value
                flts[p, X_BEST] = best
                if value > alpha:
                    alpha = value
                    flts[p, X_ALPHA] = alpha
                    _save_pv(pv, ints, p, move)
            i = ints[p, F_I]
            if alpha >= beta or i >= n:
                ret = best
                mode = M_RETURN
                continue
            m = _pick(moves[p], scores[p], i, n)
            ints[p, F_I] = i + 1
            ints[p, F_MOVE] = m
            _push_move(game, ints, flts, hashes, boards, temps, masks, p, m, 0, -beta, -alpha, K_QS, ints[p, F_LEFT] - 1)
            p += 1
            mode = M_ENTER
            continue
        # a decision frame
        depth = ints[p, F_DEPTH]
        call = ints[p, F_CALL]
        if call == C_NULL:
            if value >= beta:
                ret = beta if value > _MATE else value
                mode = M_RETURN
                continue
            m = _pick(moves[p], scores[p], 0, n)
            ints[p, F_I] = 1
            ints[p, F_MOVE] = m
            ints[p, F_CALL] = C_FULL
            _push_move(game, ints, flts, hashes, boards, temps, masks, p, m, depth - 1, -beta, -alpha, K_DEC, 0)
            p += 1
            mode = M_ENTER
            continue
        if call == C_LMR and value > alpha:
            ints[p, F_CALL] = C_SCOUT  # the reduced search failed high: full depth
            _push_move(game, ints, flts, hashes, boards, temps, masks, p, move, depth - 1, -_up(alpha), -alpha, K_DEC, 0)
            p += 1
            mode = M_ENTER
            continue
        if call == C_SCOUT and alpha < value < beta:
            ints[p, F_CALL] = C_FULL
            _push_move(game, ints, flts, hashes, boards, temps, masks, p, move, depth - 1, -beta, -alpha, K_DEC, 0)
            p += 1
            mode = M_ENTER
            continue
        ints[p, F_SEARCHED] += 1
        best = flts[p, X_BEST]
        if value > best:
            best = value
            flts[p, X_BEST] = best
            ints[p, F_BESTMOVE] = move
            if value > alpha:
                alpha = value
                flts[p, X_ALPHA] = alpha
                _save_pv(pv, ints, p, move)
        i = ints[p, F_I]
        if alpha >= beta or i >= n:
            if alpha >= beta and not _tactical(game, board, move):
                if killers[p, 0] != move:
                    killers[p, 1] = killers[p, 0]
                    killers[p, 0] = move
                history[side, move] += depth * depth
            if tt_mode != TT_OFF:
                if best <= flts[p, X_ALPHA0]:
                    flag = UPPER
                elif best >= flts[p, X_BETA0]:
                    flag = LOWER
                else:
                    flag = EXACT
                tt_store(tt, hashes[p], depth, flag, _to_tt(best, p),
                         ints[p, F_BESTMOVE], generation)
            ret = best
            mode = M_RETURN
            continue
        m = _pick(moves[p], scores[p], i, n)
        ints[p, F_I] = i + 1
        ints[p, F_MOVE] = m
        child_depth = depth - 1
        if game == HEXALIT and m >= ROLL:
            call = C_FULL  # a chance frame's value is exact whatever the window
            a, b = alpha, beta
        elif pvs:
            call = C_SCOUT
            a, b = alpha, _up(alpha)
            if (lmr > 0 and depth >= 3 and ints[p, F_SEARCHED] >= LMR_AFTER and ints[p, F_CHECK] == 0
                    and scores[p, i] < _KILLER_BASE and not _tactical(game, board, m)):
                call = C_LMR
                child_depth = depth - 1 - lmr
        else:
            call = C_FULL
            a, b = alpha, beta
        ints[p, F_CALL] = call
        _push_move(game, ints, flts, hashes, boards, temps, masks, p, m, child_depth, -b, -a, K_DEC, 0)
        p += 1
        mode = M_ENTER

    reg[R_P] = p
    reg[R_MODE] = mode
    reg[R_NODES] = nodes
    freg[FR_RET] = ret
    return status
