"""Bitis as an RGB picture: the 6x4 grid (base lines darker, the middle line black), each
die a square of its colour with its four side faces in digits, the die placed last framed in
gold, and in the top left corner a disc for the player to move (dark: A, light: B)."""

from __future__ import annotations

import numpy as np

from ...integrations.raster import BLACK, CELL, EDGE, WHITE, Canvas
from .dice import DIE_NAMES, FACES
from .state import GRID, BitisState

BASE_LINE: tuple[int, int, int] = (196, 170, 120)
LAST: tuple[int, int, int] = (250, 200, 40)
BODY = {"III": (40, 80, 200), "IV": (200, 40, 40), "V": (25, 25, 25)}


def draw(state: BitisState, scale: int = 40) -> np.ndarray:
    margin = scale // 2
    canvas = Canvas(GRID.columns * scale + 2 * margin, GRID.rows * scale + 2 * margin)
    for row, column in GRID.coords:
        x0, y0 = margin + (column - 1) * scale, margin + (row - 1) * scale
        canvas.rect(x0, y0, x0 + scale, y0 + scale, EDGE)
        canvas.rect(x0 + 1, y0 + 1, x0 + scale - 1, y0 + scale - 1, BASE_LINE if row in (1, GRID.rows) else CELL)
    middle = margin + GRID.rows // 2 * scale
    canvas.rect(margin, middle - 1, margin + GRID.columns * scale, middle + 1, BLACK)
    font = max(1, scale // 20)
    for die, name in enumerate(DIE_NAMES):
        cell = int(state.cells[die])
        if cell < 0:
            continue
        row, column = GRID.coords[cell]
        north, east, south, west = (str(int(face)) for face in FACES[die, state.ors[die]])
        x0, y0 = margin + (column - 1) * scale, margin + (row - 1) * scale
        if die == state.last:
            canvas.rect(x0 + 2, y0 + 2, x0 + scale - 2, y0 + scale - 2, LAST)
        canvas.rect(x0 + 4, y0 + 4, x0 + scale - 4, y0 + scale - 4, BODY[name])
        cx, cy, off = x0 + scale / 2, y0 + scale / 2, scale * 0.3
        canvas.text(cx, cy - off, north, WHITE, font)
        canvas.text(cx + off, cy, east, WHITE, font)
        canvas.text(cx, cy + off, south, WHITE, font)
        canvas.text(cx - off, cy, west, WHITE, font)
    canvas.disc(margin * 0.5, margin * 0.5, margin * 0.35, (40, 40, 40) if state.mover == 0 else (240, 240, 240))
    return canvas.pixels
