"""Compiled helpers for Bitis over the game's own kernels (:mod:`ludothek.games.bitis.kernels`).

Player 0 is A (wins on row 1, loses on row 6), player 1 is B (the other way round)."""

import numpy as np

from ...core.njit import njit
from .kernels import MAX_MOVES, ROW, decode, ended_by_placement, gen_moves


@njit(cache=True)
def _row_effect(mover, row):
    """+1 if placing on ``row`` wins for ``mover`` at once, -1 if it loses, else 0."""
    if row == 1:
        return 1 if mover == 0 else -1
    if row == 6:
        return 1 if mover == 1 else -1
    return 0


@njit(cache=True)
def guided_playout(cells0, ors0, last0, mover0, max_plies, seed):
    """One playout: a winning placement when there is one, never a losing one while another
    exists, uniform otherwise. Returns +1 if A wins, -1 if B wins, 0 after ``max_plies``."""
    np.random.seed(seed)
    cells = cells0.copy()
    ors = ors0.copy()
    last = last0
    mover = mover0
    buffer = np.empty(MAX_MOVES, np.int16)
    safe = np.empty(MAX_MOVES, np.int16)
    for _ in range(max_plies):
        if last >= 0 and ended_by_placement(cells, last):
            return 1.0 if ROW[cells[last]] == 1 else -1.0
        n = gen_moves(cells, ors, last, buffer)
        if n == 0:
            return -1.0 if mover == 0 else 1.0
        pick = -1
        n_safe = 0
        for i in range(n):
            die, cell, o = decode(buffer[i])
            effect = _row_effect(mover, ROW[cell])
            if effect > 0:
                pick = buffer[i]
                break
            if effect == 0:
                safe[n_safe] = buffer[i]
                n_safe += 1
        if pick < 0:
            pick = safe[np.random.randint(0, n_safe)] if n_safe > 0 else buffer[np.random.randint(0, n)]
        die, cell, o = decode(pick)
        cells[die] = cell
        ors[die] = o
        last = die
        mover = 1 - mover
    return 0.0


@njit(cache=True)
def evaluate_mover(cells, ors, last, mover):
    """A heuristic in (-1, 1) for the player to move: a winning placement decides; no safe
    placement loses; else where the dice stand (near the opponent's base line is good) and
    how many safe placements there are."""
    buffer = np.empty(MAX_MOVES, np.int16)
    n = gen_moves(cells, ors, last, buffer)
    if n == 0:
        return -0.95
    n_safe = 0
    for i in range(n):
        die, cell, o = decode(buffer[i])
        effect = _row_effect(mover, ROW[cell])
        if effect > 0:
            return 0.95
        if effect == 0:
            n_safe += 1
    if n_safe == 0:
        return -0.95
    rows = 0.0
    count = 0
    for k in range(3):
        if cells[k] >= 0:
            rows += ROW[cells[k]]
            count += 1
    centre = rows / count if count else 3.5
    toward = (3.5 - centre) if mover == 0 else (centre - 3.5)
    return max(-0.9, min(0.9, 0.12 * toward + 0.002 * min(n_safe, 50)))
