"""Bitis's rules as compiled kernels over small arrays (the one rules implementation).

A position is held in four values:

* ``cells``: ``int8[3]``, the cell (0..23, see :mod:`ludothek.boards.grid`) of die III, IV, V,
  or -1 while the die is not on the board;
* ``ors``: ``int8[3]``, each die's orientation number (see :mod:`.dice`), 0 when off the board;
* ``last``: the die placed last (0..2) or -1 before the first placement;
* ``mover``: 0 for A, 1 for B (only the result depends on it, not the legal placements).

Action encoding: ``die * 576 + cell * 24 + orientation`` (0..1727).

Status codes of :func:`status`: ``ONGOING``, ``A_WINS``, ``B_WINS``. A die on row 1 always
means A has won (A reached B's base line, or B placed on his own), a die on row 6 that B has
won; a player with no placement loses. Threefold repetition is kept by the Python state,
:func:`random_playouts` and :func:`perft`.
"""

import numpy as np

from ...boards.grid import grid
from ...core.njit import njit
from .dice import FACES

_GRID = grid(6, 4)
ORTHO = _GRID.ortho
TOUCHING = _GRID.touching
FACE_TO_FACE = _GRID.face_to_face
ROW = _GRID.row_of

NUM_ACTIONS = 3 * 24 * 24
MAX_MOVES = 512
ONGOING, A_WINS, B_WINS = 0, 1, 2

# diagnose() codes: 0 = legal, otherwise which rule a placement breaks
OK = 0
GAME_OVER = 1
OPEN1_ROW = 2  # step 1: not on row 4
OPEN2_DIE = 3  # step 2: the die is already on the board
OPEN2_CELL = 4  # step 2: not directly north of the first die
OPEN3_DIE = 5  # step 3: not the third die
OPEN3_CELL = 6  # step 3: not west, east or south of the first die
CHAIN = 7  # chain rule broken on side `detail` of the placed die
LAST_DIE = 8  # the die placed last may not be taken
STRANDS = 9  # lifting it leaves the other two not touching
OCCUPIED = 10  # target cell holds another die
SAME_CELL = 11  # target is the cell the die came from
NOT_FACING = 12  # target is not face to face with another die


@njit(cache=True)
def decode(action):
    return action // 576, (action // 24) % 24, action % 24


@njit(cache=True)
def on_board(cells):
    n = 0
    for k in range(3):
        if cells[k] >= 0:
            n += 1
    return n


@njit(cache=True)
def chain_break(cells, ors, die, cell, o):
    """-1 if die ``die`` on ``cell`` in orientation ``o`` matches every face-to-face
    neighbour, else the side (N, E, S, W = 0..3) of the first mismatching contact."""
    for side in range(4):
        nb = ORTHO[cell, side]
        if nb < 0:
            continue
        for k in range(3):
            if k != die and cells[k] == nb:
                if FACES[die, o, side] != FACES[k, ors[k], (side + 2) % 4]:
                    return side
    return -1


@njit(cache=True)
def status(cells, ors, last, mover):
    """ONGOING, A_WINS or B_WINS (ignoring repetition)."""
    if last >= 0 and cells[last] >= 0:
        row = ROW[cells[last]]
        if row == 1:
            return A_WINS
        if row == 6:
            return B_WINS
    if not has_move(cells, ors, last):
        return B_WINS if mover == 0 else A_WINS
    return ONGOING


@njit(cache=True)
def ended_by_placement(cells, last):
    """True when the die placed last stands on a base line (the game is over)."""
    if last < 0 or cells[last] < 0:
        return False
    row = ROW[cells[last]]
    return row == 1 or row == 6


@njit(cache=True)
def gen_moves(cells, ors, last, out):
    """Write the legal actions (ascending) into ``out``; return how many.
    Does not look at whether the game already ended (see :func:`status`)."""
    n = 0
    count = on_board(cells)
    if count == 0:
        for die in range(3):
            for cell in range(12, 16):
                for o in range(24):
                    out[n] = die * 576 + cell * 24 + o
                    n += 1
        return n
    if count == 1:
        first = last
        target = ORTHO[cells[first], 0]
        if target < 0:
            return 0
        want = FACES[first, ors[first], 0]
        for die in range(3):
            if die == first:
                continue
            for o in range(24):
                if FACES[die, o, 2] == want:
                    out[n] = die * 576 + target * 24 + o
                    n += 1
        return n
    if count == 2:
        third = 0
        first = 0
        for k in range(3):
            if cells[k] < 0:
                third = k
            elif k != last:
                first = k
        origin = cells[first]
        for cell in range(24):
            if not FACE_TO_FACE[origin, cell] or cell == ORTHO[origin, 0]:
                continue
            if cell == cells[last]:
                continue
            for o in range(24):
                if chain_break(cells, ors, third, cell, o) < 0:
                    out[n] = third * 576 + cell * 24 + o
                    n += 1
        return n
    for die in range(3):
        if die == last:
            continue
        a = (die + 1) % 3
        b = (die + 2) % 3
        ca = cells[a]
        cb = cells[b]
        if not TOUCHING[ca, cb]:
            continue
        origin = cells[die]
        for cell in range(24):
            if cell == ca or cell == cb or cell == origin:
                continue
            if not (FACE_TO_FACE[cell, ca] or FACE_TO_FACE[cell, cb]):
                continue
            for o in range(24):
                if chain_break(cells, ors, die, cell, o) < 0:
                    out[n] = die * 576 + cell * 24 + o
                    n += 1
    return n


@njit(cache=True)
def has_move(cells, ors, last):
    buffer = np.empty(MAX_MOVES, np.int16)
    return gen_moves(cells, ors, last, buffer) > 0


@njit(cache=True)
def diagnose(cells, ors, last, action):
    """Why ``action`` is illegal here: (code, detail), code ``OK`` (0) when it is legal.
    ``detail`` is the side of the broken contact for ``CHAIN``; otherwise -1."""
    die, cell, o = decode(action)
    if ended_by_placement(cells, last):
        return GAME_OVER, -1
    count = on_board(cells)
    if count == 0:
        if ROW[cell] != 4:
            return OPEN1_ROW, -1
        return OK, -1
    if count == 1:
        if cells[die] >= 0:
            return OPEN2_DIE, -1
        if cell != ORTHO[cells[last], 0]:
            return OPEN2_CELL, -1
        side = chain_break(cells, ors, die, cell, o)
        if side >= 0:
            return CHAIN, side
        return OK, -1
    if count == 2:
        if cells[die] >= 0:
            return OPEN3_DIE, -1
        first = 0
        for k in range(3):
            if cells[k] >= 0 and k != last:
                first = k
        origin = cells[first]
        if cell == cells[last]:
            return OCCUPIED, -1
        if not FACE_TO_FACE[origin, cell] or cell == ORTHO[origin, 0]:
            return OPEN3_CELL, -1
        side = chain_break(cells, ors, die, cell, o)
        if side >= 0:
            return CHAIN, side
        return OK, -1
    if die == last:
        return LAST_DIE, -1
    a = (die + 1) % 3
    b = (die + 2) % 3
    if not TOUCHING[cells[a], cells[b]]:
        return STRANDS, -1
    if cell == cells[die]:
        return SAME_CELL, -1
    if cell == cells[a] or cell == cells[b]:
        return OCCUPIED, -1
    if not (FACE_TO_FACE[cell, cells[a]] or FACE_TO_FACE[cell, cells[b]]):
        return NOT_FACING, -1
    side = chain_break(cells, ors, die, cell, o)
    if side >= 0:
        return CHAIN, side
    return OK, -1


@njit(cache=True)
def perft(cells, ors, last, mover, depth, history):
    """Leaves of the placement tree exactly ``depth`` (>= 1) plies deep, as in chess and as
    for the other games: nothing is played after a placement that ends the game, and a game
    that ended sooner (base line, no placement, threefold repetition) adds no leaf.
    The root position must not be over. ``history``: keys (:func:`key_of`) of every position
    of the game so far, the current one last. Iterative (numba's disk cache does not take
    recursion); the arrays are restored on return."""
    base = history.shape[0]  # the root's key is history[base - 1]
    keys = np.empty(base + depth, np.int64)
    keys[:base] = history
    # per ply: the placements found, how many, the next to try, and what the one tried replaced
    moves = np.empty((depth, MAX_MOVES), np.int16)
    counts = np.zeros(depth, np.int64)
    nexts = np.zeros(depth, np.int64)
    movers = np.zeros(depth + 1, np.int64)
    old_cell = np.zeros(depth, np.int8)
    old_or = np.zeros(depth, np.int8)
    movers[0] = mover
    counts[0] = gen_moves(cells, ors, last, moves[0])
    if depth == 1:
        return counts[0]
    total = 0
    ply = 0
    while ply >= 0:
        if nexts[ply] == counts[ply]:
            ply -= 1
            if ply >= 0:  # take back the placement that led to the exhausted ply
                die = moves[ply, nexts[ply] - 1] // 576
                cells[die] = old_cell[ply]
                ors[die] = old_or[ply]
            continue
        die, cell, o = decode(moves[ply, nexts[ply]])
        nexts[ply] += 1
        old_cell[ply] = cells[die]
        old_or[ply] = ors[die]
        cells[die] = cell
        ors[die] = o
        child = ply + 1
        movers[child] = 1 - movers[ply]
        n = 0
        if not ended_by_placement(cells, die):
            key = key_of(cells, ors, die, movers[child])
            keys[base + ply] = key
            seen = 0
            for i in range(base + ply + 1):
                if keys[i] == key:
                    seen += 1
            if seen < 3:
                n = gen_moves(cells, ors, die, moves[child])
        if child == depth - 1 or n == 0:
            total += n  # a game that ends before the last ply adds no leaf
            cells[die] = old_cell[ply]
            ors[die] = old_or[ply]
            continue
        counts[child] = n
        nexts[child] = 0
        ply = child
    return total


@njit(cache=True)
def key_of(cells, ors, last, mover):
    """An integer key of the position (for repetition counting)."""
    key = 0
    for k in range(3):
        p = 576 if cells[k] < 0 else cells[k] * 24 + ors[k]
        key = key * 577 + p
    return (key * 4 + (last + 1)) * 2 + mover


@njit(cache=True)
def random_playouts(cells0, ors0, last0, mover0, count, seed):
    """Play ``count`` uniformly random games (threefold repetition included).

    Returns (total plies, A wins, B wins, draws)."""
    np.random.seed(seed)
    cells = np.empty(3, np.int8)
    ors = np.empty(3, np.int8)
    buffer = np.empty(MAX_MOVES, np.int16)
    history = np.empty(1024, np.int64)
    plies = 0
    a_wins = 0
    b_wins = 0
    draws = 0
    for _ in range(count):
        cells[:] = cells0
        ors[:] = ors0
        last = last0
        mover = mover0
        length = 0
        history[length] = key_of(cells, ors, last, mover)
        length += 1
        while True:
            if ended_by_placement(cells, last):
                if ROW[cells[last]] == 1:
                    a_wins += 1
                else:
                    b_wins += 1
                break
            n = gen_moves(cells, ors, last, buffer)
            if n == 0:
                if mover == 0:
                    b_wins += 1
                else:
                    a_wins += 1
                break
            die, cell, o = decode(buffer[np.random.randint(0, n)])
            cells[die] = cell
            ors[die] = o
            last = die
            mover = 1 - mover
            plies += 1
            key = key_of(cells, ors, last, mover)
            seen = 0
            for i in range(length):
                if history[i] == key:
                    seen += 1
            if length == history.shape[0]:
                bigger = np.empty(2 * length, np.int64)
                bigger[:length] = history
                history = bigger
            history[length] = key
            length += 1
            if seen >= 2:
                draws += 1
                break
    return plies, a_wins, b_wins, draws
