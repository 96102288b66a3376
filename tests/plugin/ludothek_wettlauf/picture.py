"""Race as an RGB picture (``render_mode="rgb_array"`` of the research adapters): the U of
squares, the tokens as discs (two on a square side by side), and above the track a disc of
the colour to move beside the number the die shows."""

from __future__ import annotations

import numpy as np

from ludothek.integrations.raster import BLACK, CELL, EDGE, WHITE, Canvas

from .state import RaceState
from .track import COLUMNS, HOME, LAYOUT, ROWS, START, SQUARES

#: the start and home are off the track: drawn paler than its squares
OFF_TRACK = (236, 222, 190)
TEXT = (90, 70, 40)


def draw(state: RaceState, scale: int = 40) -> np.ndarray:
    margin = scale // 2
    top = scale  # room for the status line
    canvas = Canvas(COLUMNS * scale + 2 * margin, top + ROWS * scale + margin)
    for square in SQUARES:
        column, row = LAYOUT[square]
        x0, y0 = margin + column * scale, top + row * scale
        canvas.rect(x0, y0, x0 + scale, y0 + scale, EDGE)
        fill = OFF_TRACK if square in (START, HOME) else CELL
        canvas.rect(x0 + 2, y0 + 2, x0 + scale - 2, y0 + scale - 2, fill)
        if START < square < HOME:
            canvas.text(x0 + scale * 0.5, y0 + scale * 0.8, str(square), TEXT, scale=1)
        tokens = [colour for colour, mine in ((WHITE, state.tokens[0]), (BLACK, state.tokens[1]))
                  for held in mine if held == square]
        radius, step = scale * min(0.3, 0.4 / max(1, len(tokens))), scale * min(0.44, 0.9 / max(1, len(tokens)))
        for k, colour in enumerate(tokens):
            cx = x0 + scale * 0.5 + (k - (len(tokens) - 1) / 2) * step
            canvas.disc(cx, y0 + scale * 0.4, radius + 1, EDGE)
            canvas.disc(cx, y0 + scale * 0.4, radius, colour)
    if not state.is_over():
        canvas.disc(margin + scale * 0.3, top * 0.5, scale * 0.22 + 1, EDGE)
        canvas.disc(margin + scale * 0.3, top * 0.5, scale * 0.22, WHITE if state.side == 0 else BLACK)
        if state.roll:
            die = (margin + scale * 0.8, top * 0.5 - scale * 0.25, margin + scale * 1.3, top * 0.5 + scale * 0.25)
            canvas.rect(die[0] - 1, die[1] - 1, die[2] + 1, die[3] + 1, EDGE)
            canvas.rect(*die, WHITE)
            canvas.text(margin + scale * 1.05, top * 0.5, str(state.roll), BLACK, scale=2)
    return canvas.pixels
