"""Trike's rules as compiled kernels over arrays (the one rules implementation).

Board: ``int8[cells]`` with 0 empty, 1 black, 2 white. ``pawn`` is the pawn's cell or -1
before the first move. ``neighbours[cell, direction]`` comes from
:mod:`ludothek.boards.hex_triangle`.

Random playouts read the same board as one occupancy word per straight line (built from
``neighbours`` by :func:`line_tables`), so finding the pawn's moves is six bit counts
rather than a walk; :func:`line_targets` is checked against :func:`targets` in the tests.
"""

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ...core.njit import njit
from ...core.random_kernels import random_below

EMPTY, BLACK, WHITE = 0, 1, 2


@njit(cache=True)
def targets(board, neighbours, pawn, out):
    """Write the cells the pawn can reach into ``out``; return how many.
    Before the first move (``pawn < 0``) every cell is a target."""
    count = 0
    if pawn < 0:
        for cell in range(board.shape[0]):
            out[count] = cell
            count += 1
        return count
    for direction in range(6):
        cell = neighbours[pawn, direction]
        while cell >= 0 and board[cell] == EMPTY:
            out[count] = cell
            count += 1
            cell = neighbours[cell, direction]
    return count


@njit(cache=True)
def has_move(board, neighbours, pawn):
    if pawn < 0:
        return True
    for direction in range(6):
        cell = neighbours[pawn, direction]
        if cell >= 0 and board[cell] == EMPTY:
            return True
    return False


@njit(cache=True)
def points(board, neighbours, pawn):
    """(black, white) stones under the pawn or next to it."""
    black = 0
    white = 0
    if pawn < 0:
        return black, white
    for k in range(7):
        cell = pawn if k == 6 else neighbours[pawn, k]
        if cell >= 0:
            if board[cell] == BLACK:
                black += 1
            elif board[cell] == WHITE:
                white += 1
    return black, white


@njit(cache=True)
def perft(board, neighbours, pawn, colour, swap_allowed, depth):
    """Leaves ``depth`` plies deep; ``colour`` (1 or 2) is to move; ``swap`` is a move
    while ``swap_allowed``. Iterative (numba's disk cache does not take recursion);
    board and pawn are restored on return."""
    cells = board.shape[0]
    # per ply: the moves found (swap written as -2), how many, the next to try,
    # and what to restore
    moves = np.empty((depth, cells + 1), np.int32)
    counts = np.zeros(depth, np.int32)
    nexts = np.zeros(depth, np.int32)
    pawns = np.zeros(depth + 1, np.int32)
    colours = np.zeros(depth + 1, np.int32)
    swaps = np.zeros(depth + 1, np.bool_)
    pawns[0] = pawn
    colours[0] = colour
    swaps[0] = swap_allowed
    total = 0
    ply = 0
    counts[0] = _moves_at(board, neighbours, pawn, swap_allowed, moves[0])
    if depth == 1:
        return counts[0]
    while ply >= 0:
        if nexts[ply] == counts[ply]:
            ply -= 1
            if ply >= 0:
                undone = moves[ply, nexts[ply] - 1]
                if undone >= 0:
                    board[undone] = EMPTY
            continue
        move = moves[ply, nexts[ply]]
        nexts[ply] += 1
        if move >= 0:
            board[move] = colours[ply]
            pawns[ply + 1] = move
            colours[ply + 1] = 3 - colours[ply]
            swaps[ply + 1] = pawns[ply] < 0  # Black's opening stone allows White's swap
        else:
            pawns[ply + 1] = pawns[ply]
            colours[ply + 1] = colours[ply]
            swaps[ply + 1] = False
        child = ply + 1
        n = _moves_at(board, neighbours, pawns[child], swaps[child], moves[child])
        if child == depth - 1 or n == 0:
            total += n  # a game that ends before the last ply adds no leaf, as in chess
            if move >= 0:
                board[move] = EMPTY
            continue
        counts[child] = n
        nexts[child] = 0
        ply = child
    return total


@njit(cache=True)
def _moves_at(board, neighbours, pawn, swap_allowed, out):
    count = targets(board, neighbours, pawn, out)
    if swap_allowed:
        out[count] = -2
        count += 1
    return count


# ---------------------------------------------------------------- fast playouts
# Every cell lies on three straight lines (axes), each walked by two opposite directions of
# ``neighbours``: (towards the line's start, towards its end).
AXES = ((0, 1), (3, 4), (2, 5))
# A line is one uint64 occupancy word: its p-th cell is bit p + 1; bit 0 and every bit past
# the line's end are set, so the board's edge looks like a stone and the empty run from the
# pawn in either direction is one count of leading or trailing zeros.
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def line_tables(neighbours):
    """The board's lines as bitmasks, from ``neighbours`` alone.

    Returns ``(cell_lines, cell_at, empty_lines)``: ``cell_lines[cell, a]`` is the word of
    the cell's line on axis ``a`` and ``cell_lines[cell, 3 + a]`` its bit there;
    ``cell_at[word, bit]`` the cell back (-1 off the line); ``empty_lines[word]`` the word
    of the empty line."""
    cells = neighbours.shape[0]
    lines = 0
    longest = 0
    for back, forward in AXES:
        for cell in range(cells):
            if neighbours[cell, back] < 0:
                lines += 1
                length = 0
                walker = cell
                while walker >= 0:
                    length += 1
                    walker = neighbours[walker, forward]
                longest = max(longest, length)
    assert longest + 2 <= 64, "a line longer than 62 cells does not fit a word"
    cell_lines = np.empty((cells, 6), np.uint64)  # unsigned: no negative-index fix-ups
    cell_at = np.full((lines, longest + 2), -1, np.int16)
    empty_lines = np.empty(lines, np.uint64)
    word = 0
    for axis in range(3):
        back, forward = AXES[axis]
        for cell in range(cells):
            if neighbours[cell, back] >= 0:
                continue
            bit = 1
            walker = cell
            while walker >= 0:
                cell_lines[walker, axis] = word
                cell_lines[walker, 3 + axis] = bit
                cell_at[word, bit] = walker
                bit += 1
                walker = neighbours[walker, forward]
            empty_lines[word] = _ALL ^ (((_ONE << np.uint64(bit - 1)) - _ONE) << _ONE)
            word += 1
    return cell_lines, cell_at, empty_lines


@njit(cache=True)
def pawn_runs(occupied, cell_lines, pawn):
    """The empty cells from ``pawn`` in the six directions, ordered by axis as
    (towards the start, towards the end)."""
    # the pawn's bit is at least 1, so no shift is by 64, and the set bit 0 and the set
    # bits past the line's end mean no count sees a zero word
    pawn = np.uint64(pawn)
    word = occupied[cell_lines[pawn, 0]]
    bit = cell_lines[pawn, 3]
    back0 = np.int64(leading_zeros(word << (np.uint64(64) - bit)))
    ahead0 = np.int64(trailing_zeros(word >> (bit + _ONE)))
    word = occupied[cell_lines[pawn, 1]]
    bit = cell_lines[pawn, 4]
    back1 = np.int64(leading_zeros(word << (np.uint64(64) - bit)))
    ahead1 = np.int64(trailing_zeros(word >> (bit + _ONE)))
    word = occupied[cell_lines[pawn, 2]]
    bit = cell_lines[pawn, 5]
    back2 = np.int64(leading_zeros(word << (np.uint64(64) - bit)))
    ahead2 = np.int64(trailing_zeros(word >> (bit + _ONE)))
    return back0, ahead0, back1, ahead1, back2, ahead2


@njit(cache=True)
def kth_target(cell_lines, cell_at, pawn, k, runs):
    """The ``k``-th cell the pawn can reach, counting the ``runs`` in order. Branch-free:
    which run a random ``k`` falls in is unpredictable."""
    r0, r1, r2, r3, r4, r5 = runs
    s1 = r0
    s2 = s1 + r1
    s3 = s2 + r2
    s4 = s3 + r3
    s5 = s4 + r4
    b1, b2, b3, b4, b5 = k >= s1, k >= s2, k >= s3, k >= s4, k >= s5
    run = b1 + b2 + b3 + b4 + b5
    start = b1 * r0 + b2 * r1 + b3 * r2 + b4 * r3 + b5 * r4  # telescopes to the run's start
    step = k - start + 1
    axis = run >> 1
    pawn = np.uint64(pawn)
    bit = np.int64(cell_lines[pawn, 3 + axis]) + (step if run & 1 else -step)
    return np.int64(cell_at[cell_lines[pawn, axis], np.uint64(bit)])


@njit(cache=True, inline="always")
def occupy(occupied, cell_lines, cell):
    cell = np.uint64(cell)
    for axis in range(3):
        occupied[cell_lines[cell, axis]] |= _ONE << cell_lines[cell, 3 + axis]


@njit(cache=True, inline="always")
def place_on_lines(occupied, board, cell_lines, cell, colour):
    occupy(occupied, cell_lines, cell)
    board[cell] = colour


@njit(cache=True)
def occupancy(board, cell_lines, empty_lines):
    """The line words of ``board``."""
    occupied = empty_lines.copy()
    for cell in range(board.shape[0]):
        if board[cell] != EMPTY:
            occupy(occupied, cell_lines, cell)
    return occupied


@njit(cache=True)
def line_targets(occupied, cell_lines, cell_at, pawn, out):
    """:func:`targets` read from the line words (the pawn on the board): the cells in
    the order of :func:`pawn_runs`, nearest first; returns how many."""
    runs = pawn_runs(occupied, cell_lines, pawn)
    count = 0
    for run in range(6):
        axis = run >> 1
        direction = 1 if run & 1 else -1
        word = cell_lines[pawn, axis]
        bit = np.int64(cell_lines[pawn, 3 + axis])
        for step in range(1, runs[run] + 1):
            out[count] = cell_at[word, bit + direction * step]
            count += 1
    return count


@njit(cache=True)
def random_playouts(neighbours, board_start, pawn_start, colour_start, swap_allowed_start, count, seed):
    """Play ``count`` uniformly random games from the given position; the swap, while
    allowed, is one more candidate move (and a ply). The games are a function of ``seed``
    (splitmix64, this module's own generator; numba's global one is left alone).

    Returns (total plies, black wins)."""
    cell_lines, cell_at, empty_lines = line_tables(neighbours)
    cells = board_start.shape[0]
    start_lines = occupancy(board_start, cell_lines, empty_lines)
    occupied = start_lines.copy()
    board = board_start.copy()
    state = np.uint64(seed)
    total_plies = 0
    black_wins = 0
    for _ in range(count):
        occupied[:] = start_lines
        board[:] = board_start
        pawn = np.int64(pawn_start)
        colour = colour_start
        swap_allowed = swap_allowed_start
        if pawn < 0:  # the opening stone goes anywhere
            state, pawn = random_below(state, cells)
            place_on_lines(occupied, board, cell_lines, pawn, colour)
            colour = 3 - colour
            swap_allowed = True
            total_plies += 1
        while True:
            runs = pawn_runs(occupied, cell_lines, pawn)
            n = runs[0] + runs[1] + runs[2] + runs[3] + runs[4] + runs[5]
            if n == 0:
                break
            total_plies += 1
            if swap_allowed:
                swap_allowed = False
                state, k = random_below(state, n + 1)
                if k == n:
                    continue  # swap: White stays to move
            else:
                state, k = random_below(state, n)
            pawn = kth_target(cell_lines, cell_at, pawn, k, runs)
            place_on_lines(occupied, board, cell_lines, pawn, colour)
            colour = 3 - colour
        black, white = points(board, neighbours, pawn)
        if black > white:
            black_wins += 1
    return total_plies, black_wins


@njit(cache=True)
def wins_there(board, neighbours, colour, cell):
    """Whether ``colour`` wins when the game ends with the pawn on ``cell`` carrying its stone
    (``cell`` is empty; the board is left as it was)."""
    board[cell] = colour
    black, white = points(board, neighbours, cell)
    board[cell] = EMPTY
    return black > white if colour == 1 else white > black


@njit(cache=True)
def hands_over(board, neighbours, free, colour, cell):
    """Whether, after ``colour`` moves to ``cell`` (a move that does not end the game), the
    opponent can end the game at once and win. Only a neighbour whose last empty neighbour is
    ``cell`` becomes a dead end he can reach (any other dead end is walled off from ``cell``)."""
    found = False
    board[cell] = colour
    for direction in range(6):
        other = neighbours[cell, direction]
        if other >= 0 and board[other] == EMPTY and free[other] == 1 and wins_there(board, neighbours, 3 - colour,
                                                                                   other):
            found = True
            break
    board[cell] = EMPTY
    return found
