"""Trike's rules as compiled kernels over arrays (the one rules implementation).

Board: ``int8[cells]`` with 0 empty, 1 black, 2 white. ``pawn`` is the pawn's cell or -1
before the first move. ``neighbours[cell, direction]`` comes from
:mod:`ludothek.boards.hex_triangle`.
"""

import numpy as np
from numba import njit

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


@njit(cache=True)
def random_playouts(neighbours, board_start, pawn_start, colour_start, swap_allowed_start, count, seed):
    """Play ``count`` uniformly random games from the given position.

    Returns (total plies, black wins)."""
    np.random.seed(seed)
    cells = board_start.shape[0]
    board = np.empty(cells, np.int8)
    buffer = np.empty(cells, np.int16)
    total_plies = 0
    black_wins = 0
    for _ in range(count):
        board[:] = board_start
        pawn = pawn_start
        colour = colour_start
        swap_allowed = swap_allowed_start
        while True:
            n = targets(board, neighbours, pawn, buffer)
            if n == 0:
                break
            total_plies += 1
            if swap_allowed:
                swap_allowed = False
                if np.random.randint(0, n + 1) == n:
                    continue  # swap: White stays to move
                pick = buffer[np.random.randint(0, n)]
            else:
                pick = buffer[np.random.randint(0, n)]
            swap_allowed = pawn < 0
            board[pick] = colour
            pawn = pick
            colour = 3 - colour
        black, white = points(board, neighbours, pawn)
        if black > white:
            black_wins += 1
    return total_plies, black_wins
