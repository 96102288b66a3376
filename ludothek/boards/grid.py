"""A rectangular grid of 6 rows x 4 columns.

A cell is written ``row,column`` (``4,3``) or compactly ``43``; rows 1..6 run from north to
south, columns 1..4 from west to east. Cell index ``(row - 1) * 4 + (column - 1)``, 0..23.

Sides (directions) are numbered ``N, E, S, W = 0, 1, 2, 3``: north is row - 1, east is
column + 1. ``OPPOSITE[side]`` is the side facing back.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..core.errors import ParseError
from ..core.texts import TEXTS

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("N", "E", "S", "W")
OPPOSITE = (S, W, N, E)
#: (row step, column step) of each side
SIDE_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
#: the eight king steps (orthogonal and diagonal)
KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

_CELL = re.compile(r"^\s*(\d)\s*,?\s*(\d)\s*$")


class Grid:
    """Cells, names and neighbour tables of a ``rows`` x ``columns`` grid."""

    def __init__(self, rows: int = 6, columns: int = 4):
        self.rows = rows
        self.columns = columns
        self.size = rows * columns
        #: (row, column), both from 1
        self.coords = [(r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)]
        #: ``"4,3"`` style names
        self.names = [f"{r},{c}" for r, c in self.coords]
        #: ``"43"`` style names
        self.compact_names = [f"{r}{c}" for r, c in self.coords]
        #: ortho[cell, side]: the cell next to ``cell`` on ``side``, or -1 past the edge
        self.ortho = np.full((self.size, 4), -1, dtype=np.int8)
        #: king[cell, k]: the up to 8 cells touching ``cell`` (orthogonally or diagonally), -1 padded
        self.king = np.full((self.size, 8), -1, dtype=np.int8)
        #: touching[a, b]: cells share at least a corner (a != b)
        self.touching = np.zeros((self.size, self.size), dtype=np.bool_)
        #: face_to_face[a, b]: cells share an edge
        self.face_to_face = np.zeros((self.size, self.size), dtype=np.bool_)
        #: side_towards[a, b]: the side of ``a`` that faces ``b`` when orthogonally adjacent, else -1
        self.side_towards = np.full((self.size, self.size), -1, dtype=np.int8)
        for i, (r, c) in enumerate(self.coords):
            for side, (dr, dc) in enumerate(SIDE_STEPS):
                if self.contains(r + dr, c + dc):
                    j = self.index(r + dr, c + dc)
                    self.ortho[i, side] = j
                    self.face_to_face[i, j] = True
                    self.side_towards[i, j] = side
            k = 0
            for dr, dc in KING_STEPS:
                if self.contains(r + dr, c + dc):
                    j = self.index(r + dr, c + dc)
                    self.king[i, k] = j
                    self.touching[i, j] = True
                    k += 1
        self.row_of = np.array([r for r, _ in self.coords], dtype=np.int8)
        self.column_of = np.array([c for _, c in self.coords], dtype=np.int8)

    def contains(self, row: int, column: int) -> bool:
        return 1 <= row <= self.rows and 1 <= column <= self.columns

    def index(self, row: int, column: int) -> int:
        return (row - 1) * self.columns + (column - 1)

    def neighbours(self, cell: int) -> list[int]:
        """Orthogonal neighbours (face to face), in side order N, E, S, W."""
        return [int(j) for j in self.ortho[cell] if j >= 0]

    def diagonal_neighbours(self, cell: int) -> list[int]:
        return [int(j) for j in self.king[cell] if j >= 0 and not self.face_to_face[cell, j]]

    def mirror(self, cell: int) -> int:
        """The cell mirrored west <-> east."""
        r, c = self.coords[cell]
        return self.index(r, self.columns + 1 - c)

    def flip(self, cell: int) -> int:
        """The cell mirrored north <-> south."""
        r, c = self.coords[cell]
        return self.index(self.rows + 1 - r, c)

    def parse_cell(self, text: str) -> int:
        """Index of a cell written ``4,3`` or ``43``."""
        if not isinstance(text, str):
            raise ParseError(TEXTS("cell_type", kind=type(text).__name__))
        match = _CELL.match(text)
        if not match:
            raise ParseError(TEXTS("grid_cell", text=repr(text)))
        row, column = int(match.group(1)), int(match.group(2))
        if not 1 <= row <= self.rows:
            raise ParseError(TEXTS("grid_rows", text=repr(text), rows=self.rows))
        if not 1 <= column <= self.columns:
            raise ParseError(TEXTS("grid_columns", text=repr(text), columns=self.columns))
        return self.index(row, column)


@lru_cache(maxsize=None)
def grid(rows: int = 6, columns: int = 4) -> Grid:
    return Grid(rows, columns)
