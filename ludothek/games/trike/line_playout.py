"""The bots' playout (policy 4 of :mod:`.mcts3_kernels`): policy 0's choices, read from the
board's line words (:func:`.kernels.line_tables`) and drawn with splitmix64.

Policy 0 takes a move that ends the game with a win, avoids one that ends it with a loss while
another move exists, and otherwise draws every move alike. Only a cell next to the pawn can end
the game: a cell further along a run has the run's previous cell, empty, as a neighbour, so the
pawn could go on from it. So a step finds the pawn's six runs by bit counts, looks only at the
runs one cell long, and draws its move among the rest (:func:`.kernels.kth_target`) instead of
walking over every cell the pawn can reach; placing a stone sets three bits instead of counting
down six neighbours' empty neighbours. Its results have policy 0's distribution
(``tests/test_trike_line_playout.py``); the trees differ, as the draws do.
"""

import numpy as np

from ...core.njit import njit
from ...core.random_kernels import random_below
from .kernels import kth_target, pawn_runs, place_on_lines, points, wins_there

_ONE = np.uint64(1)


@njit(cache=True, inline="always")
def dead_end(occupied, cell_lines, cell):
    """Whether every neighbour of ``cell`` holds a stone or is off the board (the words' bits
    beyond a line's ends are set)."""
    cell = np.uint64(cell)
    for axis in range(3):
        bit = cell_lines[cell, 3 + axis]
        both = (_ONE << (bit - _ONE)) | (_ONE << (bit + _ONE))
        if occupied[cell_lines[cell, axis]] & both != both:
            return False
    return True


@njit(cache=True, inline="always")
def next_to_pawn(cell_lines, cell_at, pawn, run):
    """The cell next to the pawn along ``run`` (numbered as :func:`.kernels.pawn_runs` orders them)."""
    axis = run >> 1
    pawn = np.uint64(pawn)
    bit = np.int64(cell_lines[pawn, 3 + axis]) + (1 if run & 1 else -1)
    return np.int64(cell_at[cell_lines[pawn, axis], np.uint64(bit)])


@njit(cache=True)
def choose(neighbours, board, occupied, cell_lines, cell_at, pawn, colour, state, lengths, losing):
    """Policy 0's move for ``colour`` with the pawn on ``pawn``: (the cell, the generator's
    state); the cell is -1 when the pawn cannot move. ``lengths`` (6) and ``losing`` (6) are
    scratch arrays."""
    runs = pawn_runs(occupied, cell_lines, pawn)
    lost = 0
    safe = 0
    for run in range(6):
        length = runs[run]
        if length == 1:
            cell = next_to_pawn(cell_lines, cell_at, pawn, run)
            if dead_end(occupied, cell_lines, cell):
                if wins_there(board, neighbours, colour, cell):
                    return cell, state
                losing[lost] = cell
                lost += 1
                length = 0  # not drawn while another move exists
        lengths[run] = length
        safe += length
    if safe > 0:
        state, k = random_below(state, safe)
        return kth_target(cell_lines, cell_at, pawn, k,
                          (lengths[0], lengths[1], lengths[2], lengths[3], lengths[4], lengths[5])), state
    if lost > 0:
        state, k = random_below(state, lost)
        return np.int64(losing[k]), state
    return np.int64(-1), state


@njit(cache=True)
def play_out_lines(neighbours, board, occupied, cell_lines, cell_at, pawn, colour, state, lengths, losing):
    """A playout on ``board`` and its line words ``occupied`` themselves (changed); the pawn is
    placed. Returns (1 if Black wins else -1, the generator's state). ``lengths`` and ``losing``:
    :func:`choose`'s scratch arrays."""
    while True:
        cell, state = choose(neighbours, board, occupied, cell_lines, cell_at, pawn, colour, state, lengths, losing)
        if cell < 0:
            break
        place_on_lines(occupied, board, cell_lines, cell, colour)
        pawn = cell
        colour = 3 - colour
    black, white = points(board, neighbours, pawn)
    return (1 if black > white else -1), state
