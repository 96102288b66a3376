"""Solve Trike's opening book for side 7 (:mod:`ludothek.games.trike.book`).

    python benchmarks/trike_book.py --workers 2 --out ludothek/games/trike/book7.npz

Every position with ``--stones`` stones (up to symmetry) is solved exactly; the positions with
fewer stones get their results by backing those up, a move at a time. Deterministic: the same
command writes the same book. About 3 minutes on two cores for four stones.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ludothek.boards.hex_triangle import hex_triangle
from ludothek.games.trike import book as B
from ludothek.games.trike.kernels import BLACK, targets, wins_there
from ludothek.games.trike.mcts3_kernels import free_counts, winning_move
from ludothek.progress_bars import bars

NEIGHBOURS = hex_triangle(B.SIDE).neighbours
CELLS = NEIGHBOURS.shape[0]


def moves_of(board: np.ndarray, pawn: int) -> list[int]:
    buffer = np.empty(CELLS, np.int16)
    return [int(cell) for cell in buffer[: targets(board, NEIGHBOURS, pawn, buffer)]]


def positions(most: int) -> list[list[int]]:
    """The canonical keys of the positions reachable with 1 … ``most`` stones, by count."""
    levels = [sorted({B.canonical(_placed(np.zeros(CELLS, np.int8), cell, BLACK), cell)[0] for cell in range(CELLS)})]
    while len(levels) < most:
        colour = B.colour_after(len(levels))
        found = set()
        for key in levels[-1]:
            board, pawn = B.decoded(key)
            for cell in moves_of(board, pawn):
                found.add(B.canonical(_placed(board.copy(), cell, colour), cell)[0])
        levels.append(sorted(found))
    return levels


def _placed(board: np.ndarray, cell: int, colour: int) -> np.ndarray:
    board[cell] = colour
    return board


def solve(key: int) -> tuple[int, int, int]:
    """``(key, value, winning move)`` by the exact solver, without a limit."""
    board, pawn = B.decoded(key)
    free = np.empty(CELLS, np.int8)
    free_counts(board, NEIGHBOURS, free)
    colour = B.colour_after(int(np.count_nonzero(board)))
    value, move = winning_move(board, NEIGHBOURS, free, pawn, colour, np.iinfo(np.int64).max,
                               np.empty((CELLS + 1, CELLS), np.int16), np.empty(CELLS + 1, np.int32),
                               np.empty(CELLS + 1, np.int32), np.empty(CELLS + 2, np.int32))
    return key, int(value), int(move)


def backed_up(key: int, results: dict[int, int]) -> tuple[int, int]:
    """``(value, winning move)`` of a position from the values of its successors (a move that
    ends the game and wins comes first, as in the solver)."""
    board, pawn = B.decoded(key)
    colour = B.colour_after(int(np.count_nonzero(board)))
    free = np.empty(CELLS, np.int8)
    winning = []
    for cell in moves_of(board, pawn):
        child = _placed(board.copy(), cell, colour)
        free_counts(child, NEIGHBOURS, free)
        if free[cell] == 0:  # the move traps the pawn: the game ends
            child[cell] = 0
            if wins_there(child, NEIGHBOURS, colour, cell):
                return 1, cell
        elif results[B.canonical(child, cell)[0]] < 0:
            winning.append(cell)
    return (1, winning[0]) if winning else (-1, -1)


def build(stones: int, workers: int) -> B.Book:
    levels = positions(stones)
    results: dict[int, int] = {}
    keys, values, moves = [], [], []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with bars(*columns) as progress, multiprocessing.Pool(workers) as pool:
        last = levels[-1]
        task = progress.add_task(f"solving the {len(last)} positions with {stones} stones", total=len(last))
        for key, value, move in pool.imap_unordered(solve, last, chunksize=4):
            results[key] = value
            keys.append(key), values.append(value), moves.append(move)
            progress.update(task, advance=1)
    for level in reversed(levels[:-1]):
        level_results = {}
        for key in level:
            value, move = backed_up(key, results)
            level_results[key] = value
            keys.append(key), values.append(value), moves.append(move)
        results.update(level_results)
    return B.Book(np.array(keys, np.int64), np.array(values, np.int8), np.array(moves, np.int8))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stones", type=int, default=B.STONES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(B.SHIPPED))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    book = build(args.stones, args.workers)
    book.save(args.out)
    won = int(np.count_nonzero(book.values > 0))
    print(f"{len(book)} positions ({won} won for the mover) in {time.perf_counter() - started:.0f} s -> {args.out}")


if __name__ == "__main__":
    main(sys.argv[1:])
