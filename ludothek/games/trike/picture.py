"""Trike as an RGB picture (``render_mode="rgb_array"`` of the research adapters): the
triangle of hexagons, the stones, a red ring around the pawn, and in the top left corner a
stone of the colour to move."""

from __future__ import annotations

import math

import numpy as np

from ...integrations.raster import BLACK, CELL, EDGE, HIGHLIGHT, WHITE, Canvas
from .kernels import BLACK as BLACK_STONE
from .kernels import EMPTY
from .state import TrikeState


def draw(state: TrikeState, scale: int = 24) -> np.ndarray:
    side = state.geometry.side
    radius = scale / math.sqrt(3)  # hexagon circumradius for cell width ``scale``
    margin = scale
    width = int(side * scale + 2 * margin)
    height = int((side - 1) * 1.5 * radius + 2 * radius + 2 * margin)
    canvas = Canvas(width, height)
    board = state.board.tolist()
    for cell, (r, c) in enumerate(state.geometry.coords):
        cx = margin + (c + (side - 1 - r) / 2 + 0.5) * scale
        cy = margin + radius + r * 1.5 * radius
        corners = [
            (cx + radius * math.cos(math.radians(90 + 60 * k)), cy + radius * math.sin(math.radians(90 + 60 * k)))
            for k in range(6)
        ]
        canvas.polygon(corners, EDGE)
        canvas.polygon([(cx + 0.88 * (x - cx), cy + 0.88 * (y - cy)) for x, y in corners], CELL)
        if board[cell] != EMPTY:
            canvas.disc(cx, cy, 0.36 * scale, BLACK if board[cell] == BLACK_STONE else WHITE)
        if cell == state.pawn:
            canvas.ring(cx, cy, 0.42 * scale, 0.1 * scale, HIGHLIGHT)
    canvas.disc(margin * 0.7, margin * 0.7, margin * 0.35, BLACK if state.colour_to_move == BLACK_STONE else WHITE)
    return canvas.pixels
