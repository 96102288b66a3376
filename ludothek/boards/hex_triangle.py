"""A triangle of hexagonal cells.

Row ``r = 0..N-1`` from the apex has ``r + 1`` cells ``c = 0..r``; cell index
``r * (r + 1) // 2 + c``. A cell is named by row letter and column number: ``a1`` is the apex.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..core.errors import ParseError
from ..core.texts import TEXTS

# The six directions; each is also a straight line of cells.
DIRECTIONS = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1))
_CELL = re.compile(r"^([a-z])(\d{1,2})$")


class HexTriangle:
    def __init__(self, side: int):
        self.side = side
        self.size = side * (side + 1) // 2
        self.coords = [(r, c) for r in range(side) for c in range(r + 1)]
        self.names = [f"{chr(ord('a') + r)}{c + 1}" for r, c in self.coords]
        self.index_of = {name: i for i, name in enumerate(self.names)}
        # neighbours[i, d]: the next cell from i in direction d, or -1 past the edge
        self.neighbours = np.full((self.size, 6), -1, dtype=np.int16)
        for i, (r, c) in enumerate(self.coords):
            for d, (dr, dc) in enumerate(DIRECTIONS):
                if self.contains(r + dr, c + dc):
                    self.neighbours[i, d] = self.index(r + dr, c + dc)

    def contains(self, r: int, c: int) -> bool:
        return 0 <= r < self.side and 0 <= c <= r

    @staticmethod
    def index(r: int, c: int) -> int:
        return r * (r + 1) // 2 + c

    def parse_cell(self, text: str) -> int:
        """Index of a cell name such as ``c2`` (case-insensitive)."""
        name = text.strip().lower()
        match = _CELL.match(name)
        last_row = chr(ord("a") + self.side - 1)
        if not match:
            raise ParseError(TEXTS("hex_cell", text=repr(text), last=last_row))
        row, column = ord(match.group(1)) - ord("a"), int(match.group(2))
        if row >= self.side:
            raise ParseError(TEXTS("hex_rows", text=repr(text), side=self.side, last=last_row))
        if not 1 <= column <= row + 1:
            raise ParseError(TEXTS("row_columns", text=repr(text), row=match.group(1), first=1, last=row + 1))
        return self.index(row, column - 1)


@lru_cache(maxsize=None)
def hex_triangle(side: int) -> HexTriangle:
    return HexTriangle(side)
