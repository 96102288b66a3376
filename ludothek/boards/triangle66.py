"""The hexagon of 66 triangles (``rules/triangle-board.md``).

Cells
-----
Rows ``A``..``F`` are ``r = 1..6``, columns ``c = 1..13``; cell ``(r, c)`` exists iff
``|c - 7| <= 3 + min(r, 7 - r)``.  Cell **indices** run row-major, row ``A`` first and
within a row from the lowest column::

    A3..A11  ->  0..8        D1..D13 -> 33..45
    B2..B12  ->  9..19       E2..E12 -> 46..56
    C1..C13  -> 20..32       F3..F11 -> 57..65

``NAMES[i]`` is the upper-case name, :func:`parse_cell` reads a name case-insensitively
(``ParseError`` saying what is wrong), :func:`index` maps ``(r, c)`` to the index.

Orientation: ``(r, c)`` is **up** (apex toward row A, a light cell) iff ``r + c`` is even,
else **down** (dark).  ``UP[i]`` is 1 for up cells.

Directions
----------
``N, NE, SE, S, SW, NW`` are ``0..5`` (:data:`DIRECTIONS`); ``OPPOSITE[d] == (d + 3) % 6``.
``NEXT[i, d]`` is the next cell along the ray from ``i`` in direction ``d`` (``-1`` past the
edge).  Side directions of an up cell are ``S, NE, NW`` (the odd numbers 1, 3, 5), of a down
cell ``N, SE, SW`` (the even numbers 0, 2, 4); the other three are its corner directions.
So direction ``d`` is a side direction of cell ``i`` iff ``(d & 1) == UP[i]``.
``SIDE_DIRS[i]`` / ``CORNER_DIRS[i]`` list them (ascending).

Touching cells (share at least a corner): ``TOUCH[i, :TOUCH_COUNT[i]]``, padded with ``-1``
(12 for an interior cell, the 3 side neighbours first, then the corner-only ones).

Packed table for kernels
------------------------
Numba kernels take one ``int16[66, GEO_WIDTH]`` array :data:`GEO` (passing one array is cheap
and keeps compiled code independent of module globals).  Column layout, ``-1`` = none:

==================  =====================================================================
``G_NEXT + d``      ``NEXT[i, d]``, d = 0..5
``G_TOUCH + k``     ``TOUCH[i, k]``, k = 0..11
``G_UP``            1 if up, 0 if down
``G_CORNER + k``    the three corner directions, k = 0..2
``G_SIDE + k``      the three side directions, k = 0..2
``G_KNIGHT + k``    the 1st and 2nd cells of the three corner rays: ``(d0 1st, d0 2nd,
                    d1 1st, d1 2nd, d2 1st, d2 2nd)``
``G_PAWN + 3*s``    side ``s`` (0 = toward F, i.e. White; 1 = toward A, Black): the forward
                    cell ``(r±1, c)``, then the capture cells ``(r±1, c-1)``, ``(r±1, c+1)``
``G_ROW``           r (1..6)
``G_COL``           c (1..13)
==================  =====================================================================

Drawing: :data:`X`, :data:`Y` are the centroids for side length 2, ``y`` growing downward.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..core.errors import ParseError
from ..core.texts import TEXTS

ROWS = "ABCDEF"
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
N, NE, SE, S, SW, NW = range(6)
OPPOSITE = tuple((d + 3) % 6 for d in range(6))
SIZE = 66


def exists(r: int, c: int) -> bool:
    """Whether cell ``(r, c)`` (r = 1..6, c = 1..13) is on the board."""
    return 1 <= r <= 6 and abs(c - 7) <= 3 + min(r, 7 - r)


def columns(r: int) -> range:
    """The columns of row ``r`` (1..6), lowest first."""
    half = 3 + min(r, 7 - r)
    return range(7 - half, 8 + half)


COORDS: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(1, 7) for c in columns(r))
NAMES: tuple[str, ...] = tuple(f"{ROWS[r - 1]}{c}" for r, c in COORDS)
_INDEX = {rc: i for i, rc in enumerate(COORDS)}
ROW_LENGTHS = tuple(len(columns(r)) for r in range(1, 7))
ROW_START = tuple(sum(ROW_LENGTHS[:k]) for k in range(6))


def index(r: int, c: int) -> int:
    """Index of cell ``(r, c)``, or ``-1`` if it is not on the board."""
    return _INDEX.get((r, c), -1)


def is_up(r: int, c: int) -> bool:
    return (r + c) % 2 == 0


def _step(r: int, c: int, d: int) -> tuple[int, int]:
    """One step along a ray (``triangle-board.md``'s table); the result may be off the board."""
    if is_up(r, c):
        return ((r - 1, c), (r, c + 1), (r + 1, c + 2), (r + 1, c), (r + 1, c - 2), (r, c - 1))[d]
    return ((r - 1, c), (r - 1, c + 2), (r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c - 2))[d]


def _touching(r: int, c: int) -> list[tuple[int, int]]:
    if is_up(r, c):
        sides = [(r, c - 1), (r, c + 1), (r + 1, c)]
        corners = [(r, c - 2), (r, c + 2), (r - 1, c - 1), (r - 1, c), (r - 1, c + 1),
                   (r + 1, c - 1), (r + 1, c + 1), (r + 1, c - 2), (r + 1, c + 2)]
    else:
        sides = [(r, c - 1), (r, c + 1), (r - 1, c)]
        corners = [(r, c - 2), (r, c + 2), (r + 1, c - 1), (r + 1, c), (r + 1, c + 1),
                   (r - 1, c - 1), (r - 1, c + 1), (r - 1, c - 2), (r - 1, c + 2)]
    return [rc for rc in sides + corners if exists(*rc)]


G_NEXT = 0
G_TOUCH = 6
G_UP = 18
G_CORNER = 19
G_SIDE = 22
G_KNIGHT = 25
G_PAWN = 31
G_ROW = 37
G_COL = 38
GEO_WIDTH = 39


def _build():
    up = np.zeros(SIZE, dtype=np.int8)
    nxt = np.full((SIZE, 6), -1, dtype=np.int16)
    touch = np.full((SIZE, 12), -1, dtype=np.int16)
    touch_count = np.zeros(SIZE, dtype=np.int16)
    side_dirs = np.zeros((SIZE, 3), dtype=np.int16)
    corner_dirs = np.zeros((SIZE, 3), dtype=np.int16)
    geo = np.full((SIZE, GEO_WIDTH), -1, dtype=np.int16)
    for i, (r, c) in enumerate(COORDS):
        up[i] = is_up(r, c)
        for d in range(6):
            nxt[i, d] = index(*_step(r, c, d))
        cells = [index(*rc) for rc in _touching(r, c)]
        touch[i, : len(cells)] = cells
        touch_count[i] = len(cells)
        side_dirs[i] = [d for d in range(6) if (d & 1) == up[i]]
        corner_dirs[i] = [d for d in range(6) if (d & 1) != up[i]]
        geo[i, G_NEXT : G_NEXT + 6] = nxt[i]
        geo[i, G_TOUCH : G_TOUCH + 12] = touch[i]
        geo[i, G_UP] = up[i]
        geo[i, G_CORNER : G_CORNER + 3] = corner_dirs[i]
        geo[i, G_SIDE : G_SIDE + 3] = side_dirs[i]
        geo[i, G_ROW] = r
        geo[i, G_COL] = c
        for s, dr in ((0, 1), (1, -1)):
            geo[i, G_PAWN + 3 * s : G_PAWN + 3 * s + 3] = [
                index(r + dr, c), index(r + dr, c - 1), index(r + dr, c + 1)
            ]
    for i in range(SIZE):
        for k, d in enumerate(corner_dirs[i]):
            first = nxt[i, d]
            second = nxt[first, d] if first >= 0 else -1
            geo[i, G_KNIGHT + 2 * k] = first
            geo[i, G_KNIGHT + 2 * k + 1] = second
    return up, nxt, touch, touch_count, side_dirs, corner_dirs, geo


UP, NEXT, TOUCH, TOUCH_COUNT, SIDE_DIRS, CORNER_DIRS, GEO = _build()
for _table in (UP, NEXT, TOUCH, TOUCH_COUNT, SIDE_DIRS, CORNER_DIRS, GEO):
    _table.setflags(write=False)

_SQRT3 = math.sqrt(3.0)
X = np.array([c for _, c in COORDS], dtype=np.float64)
Y = np.array([(r - 1) * _SQRT3 + (2 * _SQRT3 / 3 if is_up(r, c) else _SQRT3 / 3) for r, c in COORDS])

_CELL = re.compile(r"^([a-z])(\d{1,2})$")


def parse_cell(text: str) -> int:
    """Index of a cell name such as ``C7`` or ``f4`` (case-insensitive)."""
    if not isinstance(text, str):
        raise ParseError(TEXTS("cell_name_type", kind=type(text).__name__))
    name = text.strip().lower()
    match = _CELL.match(name)
    if not match:
        raise ParseError(TEXTS("tri_cell", text=repr(text)))
    row = match.group(1).upper()
    column = int(match.group(2))
    if row not in ROWS:
        raise ParseError(TEXTS("tri_rows", text=repr(text)))
    r = ROWS.index(row) + 1
    cols = columns(r)
    if column not in cols or match.group(2).startswith("0"):
        raise ParseError(TEXTS("row_columns", text=repr(text), row=row, first=cols.start, last=cols.stop - 1))
    return index(r, column)


def name(cell: int) -> str:
    return NAMES[cell]


def ray(cell: int, direction: int) -> list[int]:
    """The cells along the ray from ``cell`` (excluded) in ``direction`` up to the edge."""
    out = []
    cell = int(NEXT[cell, direction])
    while cell >= 0:
        out.append(cell)
        cell = int(NEXT[cell, direction])
    return out


def mirror(cell: int) -> int:
    """The half-turn image ``(r, c) -> (7 - r, 14 - c)``."""
    r, c = COORDS[cell]
    return index(7 - r, 14 - c)


def reflect(cell: int) -> int:
    """The left-right image ``(r, c) -> (r, 14 - c)``."""
    r, c = COORDS[cell]
    return index(r, 14 - c)


MIRROR = np.array([mirror(i) for i in range(SIZE)], dtype=np.int16)
MIRROR.setflags(write=False)
REFLECT = np.array([reflect(i) for i in range(SIZE)], dtype=np.int16)
REFLECT.setflags(write=False)
