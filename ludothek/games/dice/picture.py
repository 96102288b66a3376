"""The 66-triangle board with dice as an RGB picture, shared by the dice games: each die an
inset triangle of its colour with its face in digits, a blue rim while it is being rolled,
a red rim while its face is temporary; jump fields blue; in the top left corner a disc of
the colour to move."""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np

from ...boards import triangle66 as T
from ...integrations.raster import BLACK, CELL, EDGE, HIGHLIGHT, WHITE, Canvas
from .kernels import WHITE as WHITE_SIDE

JUMP: tuple[int, int, int] = (150, 180, 220)
ROLLING: tuple[int, int, int] = (40, 90, 220)


def draw_board(
    board: np.ndarray,
    side: int,
    temporary: np.ndarray | None = None,
    rolling: int = -1,
    jumps: Collection[int] = (),
    scale: int = 44,
) -> np.ndarray:
    """``board`` (``+face`` White, ``-face`` Black), ``side`` to move, the ``temporary``
    flags per cell, the cell being ``rolling`` (-1: none) and the ``jumps`` cells."""
    h = math.sqrt(3)
    unit = scale / 2  # the rules' side length 2 is ``scale`` pixels
    margin = scale
    canvas = Canvas(int(14 * unit + 2 * margin), int(6 * h * unit + 2 * margin))
    values = board.tolist()
    jump_cells = {int(cell) for cell in jumps}
    for cell, (row, c) in enumerate(T.COORDS):
        r = row - 1
        top, bottom = margin + r * h * unit, margin + (r + 1) * h * unit
        x = margin + c * unit
        if T.UP[cell]:
            corners = [(x, top), (x + unit, bottom), (x - unit, bottom)]
            cy = top + 2 * h * unit / 3
        else:
            corners = [(x - unit, top), (x + unit, top), (x, bottom)]
            cy = top + h * unit / 3
        canvas.polygon(corners, EDGE)
        canvas.polygon(
            [(x + 0.86 * (px - x), cy + 0.86 * (py - cy)) for px, py in corners], JUMP if cell in jump_cells else CELL
        )
        value = values[cell]
        if value == 0:
            continue
        body, ink = (WHITE, BLACK) if value > 0 else (BLACK, WHITE)
        if cell == rolling:
            canvas.polygon([(x + 0.8 * (px - x), cy + 0.8 * (py - cy)) for px, py in corners], ROLLING)
        if temporary is not None and temporary[cell]:
            canvas.polygon([(x + 0.7 * (px - x), cy + 0.7 * (py - cy)) for px, py in corners], HIGHLIGHT)
        canvas.polygon([(x + 0.58 * (px - x), cy + 0.58 * (py - cy)) for px, py in corners], body)
        canvas.text(x, cy, str(abs(value)), ink, scale=max(1, scale // 12))
    canvas.disc(margin * 0.6, margin * 0.6, margin * 0.3, WHITE if side == WHITE_SIDE else BLACK)
    return canvas.pixels
