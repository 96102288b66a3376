"""Solving Bitis: enumerate every reachable position and find its game-theoretic value by
retrograde analysis. The compiled kernels here call the rules kernels of :mod:`.kernels`.

Symmetry
--------
The rules after the opening do not depend on who moves except through the base lines, so
a position with B to move is the same problem as its north-south mirror image with A to
move (rows ``r -> 7 - r``, N and S faces swapped). The east-west mirror (columns
``c -> 5 - c``, E and W swapped) is a symmetry too. A *canonical key* therefore describes a
position after the opening, with all three dice on the board, from the point of view of the
player to move, as the smaller of the two east-west mirror images::

    key = ((p_III * 576 + p_IV) * 576 + p_V) * 3 + last      with p = cell * 24 + orientation

The solved table holds the positions that are reachable from the start and not over by a
base line (a die on row 1 or 6 ends the game the moment it is placed; such placements are
edges to a result, not stored positions).

Values
------
For the player to move: ``WIN`` / ``LOSS`` with the number of plies until the game ends
under perfect play (the winner hurries, the loser delays), or ``DRAW``. A player without a
placement has lost in 0; placing on the opponent's base line wins in 1; placing on one's own
base line loses in 1 (legal but never chosen while another placement exists).

Repetition: the values are those of the position graph, where positions on cycles that
neither side can force its way out of are draws. They do not depend on the history, which
threefold repetition would: a forced win never repeats a position (every ply brings it
nearer), and a drawn position is held by repeating until the third occurrence.
"""

from __future__ import annotations

import numpy as np

from ...boards.grid import grid
from . import kernels as K
from ...core.njit import njit
from .dice import FLIP_ORIENTATION, MIRROR_ORIENTATION

_GRID = grid(6, 4)
FLIP_CELL = np.array([_GRID.flip(c) for c in range(24)], dtype=np.int8)
MIRROR_CELL = np.array([_GRID.mirror(c) for c in range(24)], dtype=np.int8)
FLIP_OR = FLIP_ORIENTATION
MIRROR_OR = MIRROR_ORIENTATION
ROW = K.ROW

KEY_SPACE = 576 * 576 * 576 * 3
WIN, DRAW, LOSS = 1, 0, -1


@njit(cache=True)
def canonical_key(cells, ors, last, mover):
    """The canonical key of a position with three dice on the board (see module doc)."""
    best = -1
    for mirror in range(2):
        key = 0
        for k in range(3):
            c = cells[k]
            o = ors[k]
            if mover == 1:
                o = FLIP_OR[k, o]
                c = FLIP_CELL[c]
            if mirror == 1:
                o = MIRROR_OR[k, o]
                c = MIRROR_CELL[c]
            key = key * 576 + c * 24 + o
        key = key * 3 + last
        if best < 0 or key < best:
            best = key
    return best


@njit(cache=True)
def decode_key(key, cells, ors):
    """Fill ``cells`` and ``ors`` from a canonical key; return the last die (A to move)."""
    last = key % 3
    key //= 3
    for k in range(2, -1, -1):
        p = key % 576
        key //= 576
        cells[k] = p // 24
        ors[k] = p % 24
    return last


@njit(cache=True)
def _mark(seen, key):
    word = key >> 6
    bit = np.uint64(1) << np.uint64(key & 63)
    if seen[word] & bit:
        return False
    seen[word] |= bit
    return True


@njit(cache=True)
def _child_key(cells, ors, die, cell, o):
    """The canonical key of the position after ``die`` goes to ``cell`` in orientation ``o``,
    with the other player to move (``cells`` and ``ors`` are left as they were)."""
    old_cell = cells[die]
    old_o = ors[die]
    cells[die] = cell
    ors[die] = o
    child = canonical_key(cells, ors, die, 1)
    cells[die] = old_cell
    ors[die] = old_o
    return child


@njit(cache=True)
def enumerate_positions(seen, ended, seeds):
    """Breadth-first search from the canonical keys ``seeds`` (marked in ``seen`` by the
    caller); return every reachable canonical key (not sorted) and the number of distinct
    positions a base line placement ends the game in (canonical keys marked in ``ended``)."""
    queue = np.empty(max(1024, 2 * seeds.shape[0]), np.int64)
    queue[: seeds.shape[0]] = seeds
    tail = seeds.shape[0]
    head = 0
    cells = np.empty(3, np.int8)
    ors = np.empty(3, np.int8)
    buffer = np.empty(K.MAX_MOVES, np.int16)
    ending = 0
    while head < tail:
        key = queue[head]
        head += 1
        last = decode_key(key, cells, ors)
        n = K.gen_moves(cells, ors, last, buffer)
        for i in range(n):
            die, cell, o = K.decode(buffer[i])
            child = _child_key(cells, ors, die, cell, o)
            if ROW[cell] == 1 or ROW[cell] == 6:
                if _mark(ended, child):
                    ending += 1
                continue
            if _mark(seen, child):
                if tail == queue.shape[0]:
                    bigger = np.empty(2 * tail, np.int64)
                    bigger[:tail] = queue
                    queue = bigger
                queue[tail] = child
                tail += 1
    return queue[:tail].copy(), ending


@njit(cache=True)
def build_edges(keys):
    """Successor lists in CSR form over the sorted ``keys``: (start, targets, wins, losses)
    where ``wins[i]`` / ``losses[i]`` count placements on the opponent's / own base line."""
    n = keys.shape[0]
    cells = np.empty(3, np.int8)
    ors = np.empty(3, np.int8)
    buffer = np.empty(K.MAX_MOVES, np.int16)
    start = np.zeros(n + 1, np.int64)
    wins = np.zeros(n, np.int16)
    losses = np.zeros(n, np.int16)
    for stage in range(2):
        if stage == 1:
            for i in range(n):
                start[i + 1] += start[i]
            targets = np.empty(start[n], np.int32)
        else:
            targets = np.empty(0, np.int32)
        for i in range(n):
            last = decode_key(keys[i], cells, ors)
            m = K.gen_moves(cells, ors, last, buffer)
            fill = start[i]
            for j in range(m):
                die, cell, o = K.decode(buffer[j])
                if ROW[cell] == 1:
                    if stage == 0:
                        wins[i] += 1
                    continue
                if ROW[cell] == 6:
                    if stage == 0:
                        losses[i] += 1
                    continue
                if stage == 0:
                    start[i + 1] += 1
                    continue
                child = _child_key(cells, ors, die, cell, o)
                targets[fill] = np.searchsorted(keys, child)
                fill += 1
    return start, targets, wins, losses


@njit(cache=True)
def retrograde(start, targets, wins, losses):
    """Values (WIN / DRAW / LOSS for the player to move) and distances in plies."""
    n = start.shape[0] - 1
    # predecessors: the transposed edge lists
    pstart = np.zeros(n + 1, np.int64)
    for e in range(targets.shape[0]):
        pstart[targets[e] + 1] += 1
    for i in range(n):
        pstart[i + 1] += pstart[i]
    preds = np.empty(targets.shape[0], np.int32)
    fill = pstart[:n].copy()
    for i in range(n):
        for e in range(start[i], start[i + 1]):
            t = targets[e]
            preds[fill[t]] = i
            fill[t] += 1
    value = np.zeros(n, np.int8)
    distance = np.zeros(n, np.int16)
    done = np.zeros(n, np.bool_)
    counter = np.empty(n, np.int32)
    queue = np.empty(n, np.int32)
    tail = 0
    # distance 0: no placement at all
    for i in range(n):
        counter[i] = start[i + 1] - start[i]
        if counter[i] == 0 and wins[i] == 0 and losses[i] == 0:
            value[i] = LOSS
            done[i] = True
            queue[tail] = i
            tail += 1
    # distance 1: a base line placement wins, or only own base line placements remain
    for i in range(n):
        if done[i]:
            continue
        if wins[i] > 0:
            value[i] = WIN
        elif counter[i] == 0:
            value[i] = LOSS
        else:
            continue
        distance[i] = 1
        done[i] = True
        queue[tail] = i
        tail += 1
    head = 0
    while head < tail:
        j = queue[head]
        head += 1
        for e in range(pstart[j], pstart[j + 1]):
            i = preds[e]
            if done[i]:
                continue
            if value[j] == LOSS:
                value[i] = WIN
                distance[i] = distance[j] + 1
                done[i] = True
                queue[tail] = i
                tail += 1
            else:
                counter[i] -= 1
                if counter[i] == 0:
                    value[i] = LOSS
                    distance[i] = distance[j] + 1
                    done[i] = True
                    queue[tail] = i
                    tail += 1
    return value, distance


def opening_seeds() -> np.ndarray:
    """Canonical keys of the positions right after the three opening placements (read from
    the kernels alone: the state class validates positions with the table built here)."""
    keys = set()
    cells, ors = np.full(3, -1, dtype=np.int8), np.zeros(3, dtype=np.int8)
    buffers = [np.empty(K.MAX_MOVES, dtype=np.int16) for _ in range(3)]

    def place(ply: int, last: int) -> None:
        if ply == 3:
            keys.add(int(canonical_key(cells, ors, last, 1)))  # A, B, A placed: B to move
            return
        for action in buffers[ply][: K.gen_moves(cells, ors, last, buffers[ply])]:
            die, cell, orientation = K.decode(int(action))
            before = cells[die], ors[die]
            cells[die], ors[die] = cell, orientation
            place(ply + 1, die)
            cells[die], ors[die] = before

    place(0, -1)
    return np.array(sorted(keys), dtype=np.int64)


def solve(progress=None) -> dict[str, np.ndarray | int]:
    """Enumerate and solve; ``progress(step, total, text)`` is called between the steps.

    Returns a dict with ``keys`` (sorted canonical keys, uint32), ``value`` (int8) and
    ``distance`` (int16), plus counts for reports: ``edges`` (placements between stored
    positions), ``seeds`` (canonical positions right after the opening) and ``ended``
    (canonical positions where a base line placement has ended the game).

    Every canonical key stands for exactly four positions: the east-west mirror never maps a
    position to itself (three dice in distinct cells of four columns), and the north-south
    mirror changes the player to move."""
    steps = 4

    def tell(step: int, text: str) -> None:
        if progress is not None:
            progress(step, steps, text)

    tell(0, "opening placements")
    seeds = opening_seeds()
    seen = np.zeros(KEY_SPACE // 64 + 1, dtype=np.uint64)
    for key in seeds:
        _mark(seen, int(key))
    tell(1, "enumerating positions")
    ended = np.zeros_like(seen)
    keys, ending = enumerate_positions(seen, ended, seeds)
    del seen, ended
    keys.sort()
    tell(2, "building the move graph")
    start, targets, wins, losses = build_edges(keys)
    tell(3, "retrograde analysis")
    value, distance = retrograde(start, targets, wins, losses)
    tell(4, "done")
    return {
        "keys": keys.astype(np.uint32),
        "value": value,
        "distance": distance,
        "edges": int(targets.shape[0]),
        "seeds": int(seeds.shape[0]),
        "ended": int(ending),
    }


@njit(cache=True)
def verify(keys, value, distance):
    """Check every stored value against its moves (the table is a fixed point of perfect
    play): a win in d has a move to a loss in d - 1 (or a base line win for d = 1) and none
    quicker; a loss in d has only losing moves, the slowest taking d plies; a draw has a
    drawing move and no winning one. Returns the number of positions that fail."""
    n = keys.shape[0]
    cells = np.empty(3, np.int8)
    ors = np.empty(3, np.int8)
    buffer = np.empty(K.MAX_MOVES, np.int16)
    bad = 0
    for i in range(n):
        last = decode_key(keys[i], cells, ors)
        m = K.gen_moves(cells, ors, last, buffer)
        best_win = 32767  # quickest win found
        worst_loss = -1  # slowest loss found
        draw = False
        for j in range(m):
            die, cell, o = K.decode(buffer[j])
            if ROW[cell] == 1:
                best_win = min(best_win, 1)
                continue
            if ROW[cell] == 6:
                worst_loss = max(worst_loss, 1)
                continue
            child = _child_key(cells, ors, die, cell, o)
            k = np.searchsorted(keys, child)
            if k >= n or keys[k] != child:
                bad += 1  # a move leaves the table: enumeration incomplete
                continue
            if value[k] == LOSS:
                best_win = min(best_win, distance[k] + 1)
            elif value[k] == WIN:
                worst_loss = max(worst_loss, distance[k] + 1)
            else:
                draw = True
        if best_win < 32767:
            ok = value[i] == WIN and distance[i] == best_win
        elif draw:
            ok = value[i] == DRAW
        elif m == 0:
            ok = value[i] == LOSS and distance[i] == 0
        else:
            ok = value[i] == LOSS and distance[i] == worst_loss
        if not ok:
            bad += 1
    return bad
