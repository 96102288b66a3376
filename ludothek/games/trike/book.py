"""Trike's opening book: on the smallest board (side 7, 28 cells) the exact result of every
position with at most :data:`STONES` stones, and a winning move where there is one.

Why a book: on side 7 the game is decided by the first few decisions after the opening (24 to
27 empty cells), where the exact solver needs 0.1 to 10 seconds a position, far more than a
bot's move may take; a few plies later it needs milliseconds. So the book is solved once,
offline (``python benchmarks/trike_book.py``): every position with :data:`STONES` stones by
the exact solver (:func:`.mcts3_kernels.winning_move`), the positions with fewer stones by
backing those results up. Positions are stored once for the board's six symmetries (the
rotations and reflections of the triangle).

A position's key is its board in base 3 (a cell's digit is its stone: 0 empty, 1 Black,
2 White, the first cell the lowest digit) times the number of cells, plus the pawn's cell;
the colour to move follows from the number of stones. Values are the mover's: +1 a win,
-1 a loss. A winning move is stored as a cell of the canonical board (the symmetry image
with the smallest key), -1 in a lost position.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import numpy as np

from ...boards.hex_triangle import hex_triangle
from ...core.errors import OptionError
from .kernels import BLACK, WHITE
from .texts import TEXTS

SIDE = 7
#: the book holds every position with at most this many stones (at least 24 empty cells)
STONES = 4
SHIPPED = Path(__file__).with_name("book7.npz")


@cache
def symmetries(side: int) -> np.ndarray:
    """``maps[k, cell]``: where symmetry ``k`` of the triangle takes ``cell`` (``k = 0`` is
    the identity). A cell's three distances to the sides (row from the base, column, the
    difference) are permuted."""
    geometry = hex_triangle(side)
    maps = []
    for order in itertools.permutations(range(3)):
        image = []
        for row, column in geometry.coords:
            distances = (side - 1 - row, column, row - column)
            to_base, to_left, _ = (distances[i] for i in order)
            image.append(geometry.index(side - 1 - to_base, to_left))
        maps.append(image)
    return np.array(maps, np.int64)


def key_of(board: np.ndarray, pawn: int) -> int:
    digits = 0
    for stone in board[::-1]:
        digits = digits * 3 + int(stone)
    return digits * board.shape[0] + pawn


def decoded(key: int, cells: int = SIDE * (SIDE + 1) // 2) -> tuple[np.ndarray, int]:
    """The board and the pawn's cell of a key (:func:`key_of` undone)."""
    digits, pawn = divmod(key, cells)
    board = np.zeros(cells, np.int8)
    for cell in range(cells):
        digits, board[cell] = divmod(digits, 3)
    return board, pawn


def colour_after(stones: int) -> int:
    """The colour to move once ``stones`` stones are down (Black places the first)."""
    return WHITE if stones % 2 else BLACK


def canonical(board: np.ndarray, pawn: int) -> tuple[int, int]:
    """The smallest key of a side-7 position's symmetry images and the symmetry that gives it."""
    maps = symmetries(SIDE)
    best, which = -1, 0
    for k, image in enumerate(maps):
        moved = np.empty_like(board)
        moved[image] = board
        key = key_of(moved, int(image[pawn]))
        if best < 0 or key < best:
            best, which = key, k
    return best, which


def in_book_shape(board: np.ndarray, pawn: int, colour_to_move: int) -> bool:
    """Whether the book can hold this position: side 7, the pawn placed, at most
    :data:`STONES` stones, Black's one more than White's or equal, and the colour to move the
    one whose turn it is after that many stones (a set-up position may differ)."""
    if board.shape[0] != SIDE * (SIDE + 1) // 2 or pawn < 0:
        return False
    black, white = int(np.count_nonzero(board == BLACK)), int(np.count_nonzero(board == WHITE))
    stones = black + white
    return 0 < stones <= STONES and black - white == stones % 2 and colour_to_move == colour_after(stones)


class Book:
    def __init__(self, keys: np.ndarray, values: np.ndarray, moves: np.ndarray):
        order = np.argsort(keys)
        self.keys, self.values, self.moves = keys[order], values[order], moves[order]

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def lookup(self, board: np.ndarray, pawn: int, colour_to_move: int) -> tuple[int, int] | None:
        """``(value, move)`` for the mover (the move a cell of this board, -1 in a lost
        position), or None when the position is not in the book."""
        if not in_book_shape(board, pawn, colour_to_move):
            return None
        key, which = canonical(board, pawn)
        at = int(np.searchsorted(self.keys, key))
        if at == len(self) or int(self.keys[at]) != key:
            return None
        value, move = int(self.values[at]), int(self.moves[at])
        if move >= 0:
            move = int(np.argsort(symmetries(SIDE)[which])[move])  # back from the canonical board
        return value, move

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, keys=self.keys, values=self.values, moves=self.moves)


@cache
def load(path: str | Path = SHIPPED) -> Book:
    """A book file (cached), or :class:`OptionError` naming the file and what is wrong."""
    try:
        with np.load(path) as data:
            book = Book(data["keys"].astype(np.int64), data["values"].astype(np.int8),
                        data["moves"].astype(np.int8))
    except (OSError, KeyError, ValueError) as exc:
        raise OptionError(TEXTS("book_unreadable", path=str(path), reason=str(exc) or type(exc).__name__)) from None
    return book


def answer(board: np.ndarray, pawn: int, colour_to_move: int) -> tuple[int, int] | None:
    """The shipped book's ``(value, move)`` for the position, or None (see :meth:`Book.lookup`)."""
    return load().lookup(board, pawn, colour_to_move)
