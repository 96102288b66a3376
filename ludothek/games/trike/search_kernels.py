"""Compiled search helpers for Trike, built on the game's own kernels
(:mod:`ludothek.games.trike.kernels`: ``targets``, ``has_move``, ``points``) — no second
rules implementation. Colours are 1 (black) and 2 (white) as there."""

import numpy as np

from ...core.njit import njit
from .kernels import EMPTY, has_move, points, targets


@njit(cache=True)
def _ending(board, neighbours, colour, cell):
    """If placing ``colour`` on ``cell`` ends the game: +1 when ``colour`` then wins,
    -1 when it loses; 0 when the game goes on. The board is left unchanged."""
    board[cell] = colour
    result = 0
    if not has_move(board, neighbours, cell):
        black, white = points(board, neighbours, cell)
        mine, theirs = (black, white) if colour == 1 else (white, black)
        result = 1 if mine > theirs else -1
    board[cell] = EMPTY
    return result


@njit(cache=True)
def guided_playout(neighbours, board_start, pawn_start, colour_start, swap_allowed_start, seed):
    """One playout that takes a move ending the game in the mover's favour when there is
    one, avoids moves ending it against him when it can, and is uniform otherwise.
    The swap is chosen as in the game's uniform playouts. Returns 1 if Black wins, else 0."""
    np.random.seed(seed)
    cells = board_start.shape[0]
    board = board_start.copy()
    return play_out(neighbours, board, pawn_start, colour_start, swap_allowed_start,
                    np.empty(cells, np.int16), np.empty(cells, np.int16))


@njit(cache=True)
def play_out(neighbours, board, pawn, colour, swap_allowed, buffer, safe):
    """The guided playout on ``board`` itself (changed), with numba's current random
    state; returns 1 if Black wins, else 0."""
    while True:
        n = targets(board, neighbours, pawn, buffer)
        if n == 0:
            break
        if swap_allowed:
            swap_allowed = False
            if np.random.randint(0, n + 1) == n:
                continue  # swap: White stays to move
        pick = -1
        n_safe = 0
        if pawn >= 0:
            for i in range(n):
                ending = _ending(board, neighbours, colour, buffer[i])
                if ending > 0:
                    pick = buffer[i]
                    break
                if ending == 0:
                    safe[n_safe] = buffer[i]
                    n_safe += 1
        if pick < 0:
            if n_safe > 0:
                pick = safe[np.random.randint(0, n_safe)]
            else:
                pick = buffer[np.random.randint(0, n)]
        swap_allowed = pawn < 0
        board[pick] = colour
        pawn = pick
        colour = 3 - colour
    black, white = points(board, neighbours, pawn)
    return 1 if black > white else 0


@njit(cache=True)
def evaluate_mover(neighbours, board, pawn, colour):
    """A heuristic value in (-1, 1) for ``colour``, who is to move (game not over).

    A move that ends the game decides; otherwise the best local balance the mover can
    reach (own minus opposing stones around the cell he would move to) and how many of
    his options keep the game going without handing the opponent a win next move."""
    if pawn < 0:
        return 0.0
    cells = board.shape[0]
    buffer = np.empty(cells, np.int16)
    reply = np.empty(cells, np.int16)
    n = targets(board, neighbours, pawn, buffer)
    best = -100.0
    good = 0
    for i in range(n):
        cell = buffer[i]
        ending = _ending(board, neighbours, colour, cell)
        if ending > 0:
            return 0.95
        if ending < 0:
            continue
        board[cell] = colour
        black, white = points(board, neighbours, cell)
        balance = float(black - white) if colour == 1 else float(white - black)
        # does the opponent then have a move ending the game in his favour?
        m = targets(board, neighbours, cell, reply)
        refuted = False
        for j in range(m):
            if _ending(board, neighbours, 3 - colour, reply[j]) > 0:
                refuted = True
                break
        board[cell] = EMPTY
        if refuted:
            balance -= 4.0
        else:
            good += 1
        if balance > best:
            best = balance
    if best == -100.0:
        return -0.95  # every move ends the game against the mover
    value = 0.12 * best + 0.02 * min(good, 10) - 0.1
    return max(-0.9, min(0.9, value))
