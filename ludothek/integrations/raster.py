"""A small pure-numpy rasteriser for RGB pictures of positions (``render_mode="rgb_array"``).

Pictures are drawn from the canonical position string, so they need nothing but numpy:
filled polygons and discs (even-odd rule, no anti-aliasing) and a 3x5 pixel font for digits.
:func:`draw` returns an ``(height, width, 3)`` ``uint8`` array for any state whose game has
a scene here; other games get a plain grey card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .observe import (
    BITIS_DICE,
    JUMP_FIELDS,
    TRIANGLE_COLUMNS,
    parse_bitis_position,
    parse_triangle_position,
    triangle_cell,
)

Colour = tuple[int, int, int]

_DIGITS = {
    "0": ("111", "101", "101", "101", "111"),
    "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "011", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "010", "010", "010"),
    "8": ("111", "101", "111", "101", "111"),
    "9": ("111", "101", "111", "001", "111"),
}


class Canvas:
    """An RGB picture with a few drawing primitives (coordinates in pixels, y down)."""

    def __init__(self, width: int, height: int, background: Colour = (236, 232, 220)):
        self.pixels = np.empty((height, width, 3), np.uint8)
        self.pixels[:] = background
        # pixel centres
        self._ys, self._xs = np.mgrid[0:height, 0:width].astype(np.float32) + 0.5

    @property
    def height(self) -> int:
        return self.pixels.shape[0]

    @property
    def width(self) -> int:
        return self.pixels.shape[1]

    def _window(self, xs: Sequence[float], ys: Sequence[float]) -> tuple[slice, slice] | None:
        x0, x1 = max(math.floor(min(xs)), 0), min(math.ceil(max(xs)) + 1, self.width)
        y0, y1 = max(math.floor(min(ys)), 0), min(math.ceil(max(ys)) + 1, self.height)
        if x0 >= x1 or y0 >= y1:
            return None
        return slice(y0, y1), slice(x0, x1)

    def polygon(self, points: Sequence[tuple[float, float]], colour: Colour) -> None:
        """Fill a simple polygon (even-odd rule)."""
        window = self._window([p[0] for p in points], [p[1] for p in points])
        if window is None:
            return
        xs, ys = self._xs[window], self._ys[window]
        inside = np.zeros(xs.shape, bool)
        n = len(points)
        for i in range(n):
            (xa, ya), (xb, yb) = points[i], points[(i + 1) % n]
            if ya == yb:
                continue
            crosses = (ys >= min(ya, yb)) & (ys < max(ya, yb))
            x_at = xa + (ys - ya) * (xb - xa) / (yb - ya)
            inside ^= crosses & (xs < x_at)
        self.pixels[window][inside] = colour

    def disc(self, cx: float, cy: float, radius: float, colour: Colour) -> None:
        window = self._window([cx - radius, cx + radius], [cy - radius, cy + radius])
        if window is None:
            return
        inside = (self._xs[window] - cx) ** 2 + (self._ys[window] - cy) ** 2 <= radius * radius
        self.pixels[window][inside] = colour

    def ring(self, cx: float, cy: float, radius: float, width: float, colour: Colour) -> None:
        window = self._window([cx - radius, cx + radius], [cy - radius, cy + radius])
        if window is None:
            return
        d2 = (self._xs[window] - cx) ** 2 + (self._ys[window] - cy) ** 2
        inside = (d2 <= radius * radius) & (d2 >= (radius - width) ** 2)
        self.pixels[window][inside] = colour

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> None:
        self.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colour)

    def text(self, cx: float, cy: float, digits: str, colour: Colour, scale: int = 2) -> None:
        """Digits centred on (cx, cy), each 3x5 font pixels of ``scale`` screen pixels."""
        width = (4 * len(digits) - 1) * scale
        x = round(cx - width / 2)
        y = round(cy - 2.5 * scale)
        for ch in digits:
            for row, bits in enumerate(_DIGITS.get(ch, ("000",) * 5)):
                for col, bit in enumerate(bits):
                    if bit == "1":
                        x0, y0 = x + col * scale, y + row * scale
                        if 0 <= x0 and x0 + scale <= self.width and 0 <= y0 and y0 + scale <= self.height:
                            self.pixels[y0 : y0 + scale, x0 : x0 + scale] = colour
            x += 4 * scale


# ---------------------------------------------------------------------------- scenes
BLACK: Colour = (30, 30, 34)
WHITE: Colour = (248, 248, 244)
CELL: Colour = (214, 190, 140)
EDGE: Colour = (120, 98, 60)
HIGHLIGHT: Colour = (230, 60, 40)


def draw_trike(position: str, scale: int = 24) -> np.ndarray:
    import re

    fields = position.split()
    rows = fields[0].split("/")
    side = len(rows)
    radius = scale / math.sqrt(3)  # hexagon circumradius for cell width ``scale``
    margin = scale
    width = int(side * scale + 2 * margin)
    height = int((side - 1) * 1.5 * radius + 2 * radius + 2 * margin)
    canvas = Canvas(width, height)
    for r, row in enumerate(rows):
        c = 0
        for item in re.findall(r"\d+|[bwBW]", row):
            cells = [(None, False)] * int(item) if item.isdigit() else [(item.lower(), item.isupper())]
            for stone, pawn in cells:
                cx = margin + (c + (side - 1 - r) / 2 + 0.5) * scale
                cy = margin + radius + r * 1.5 * radius
                corners = [
                    (
                        cx + radius * math.cos(math.radians(90 + 60 * k)),
                        cy + radius * math.sin(math.radians(90 + 60 * k)),
                    )
                    for k in range(6)
                ]
                canvas.polygon(corners, EDGE)
                inner = [(cx + 0.88 * (x - cx), cy + 0.88 * (y - cy)) for x, y in corners]
                canvas.polygon(inner, CELL)
                if stone is not None:
                    canvas.disc(cx, cy, 0.36 * scale, BLACK if stone == "b" else WHITE)
                if pawn:
                    canvas.ring(cx, cy, 0.42 * scale, 0.1 * scale, HIGHLIGHT)
                c += 1
    # side to move: a stone of that colour in the top left corner
    canvas.disc(margin * 0.7, margin * 0.7, margin * 0.35, BLACK if fields[1].lower() == "b" else WHITE)
    return canvas.pixels


def draw_triangle_board(position: str, jump_fields: Sequence[str] = (), scale: int = 44) -> np.ndarray:
    """Hexalit / Trigeo: 66 triangles, dice as inset triangles with their face in digits."""
    dice, side, temporary, rolling = parse_triangle_position(position)
    jumps = {triangle_cell(name) for name in jump_fields}
    h = math.sqrt(3)
    unit = scale / 2  # the rules' side length 2 is ``scale`` pixels
    margin = scale
    canvas = Canvas(int(14 * unit + 2 * margin), int(6 * h * unit + 2 * margin))
    for r, columns in enumerate(TRIANGLE_COLUMNS):
        for c in columns:
            up = (r + 1 + c) % 2 == 0
            top, bottom = margin + r * h * unit, margin + (r + 1) * h * unit
            x = margin + c * unit
            if up:
                corners = [(x, top), (x + unit, bottom), (x - unit, bottom)]
                cy = top + 2 * h * unit / 3
            else:
                corners = [(x - unit, top), (x + unit, top), (x, bottom)]
                cy = top + h * unit / 3
            canvas.polygon(corners, EDGE)
            fill = (150, 180, 220) if (r, c) in jumps else CELL
            canvas.polygon([(x + 0.86 * (px - x), cy + 0.86 * (py - cy)) for px, py in corners], fill)
            if (r, c) in dice:
                colour, face = dice[(r, c)]
                body, ink = (WHITE, BLACK) if colour == "white" else (BLACK, WHITE)
                if (r, c) == rolling:
                    canvas.polygon([(x + 0.8 * (px - x), cy + 0.8 * (py - cy)) for px, py in corners], (40, 90, 220))
                if (r, c) in temporary:
                    canvas.polygon([(x + 0.7 * (px - x), cy + 0.7 * (py - cy)) for px, py in corners], HIGHLIGHT)
                canvas.polygon([(x + 0.58 * (px - x), cy + 0.58 * (py - cy)) for px, py in corners], body)
                canvas.text(x, cy, str(face), ink, scale=max(1, scale // 12))
    canvas.disc(margin * 0.6, margin * 0.6, margin * 0.3, WHITE if side == "w" else BLACK)
    return canvas.pixels


_BITIS_BODY = {"III": (40, 80, 200), "IV": (200, 40, 40), "V": (25, 25, 25)}


def draw_bitis(position: str, scale: int = 40) -> np.ndarray:
    dice, last, to_move = parse_bitis_position(position)
    margin = scale // 2
    canvas = Canvas(4 * scale + 2 * margin, 6 * scale + 2 * margin)
    for row in range(1, 7):
        for column in range(1, 5):
            x0, y0 = margin + (column - 1) * scale, margin + (row - 1) * scale
            base = row in (1, 6)
            canvas.rect(x0, y0, x0 + scale, y0 + scale, EDGE)
            canvas.rect(x0 + 1, y0 + 1, x0 + scale - 1, y0 + scale - 1, (196, 170, 120) if base else CELL)
    # the middle line between rows 3 and 4
    canvas.rect(margin, margin + 3 * scale - 1, margin + 4 * scale, margin + 3 * scale + 1, BLACK)
    font = max(1, scale // 20)
    for name, die in zip(BITIS_DICE, dice):
        if die is None:
            continue
        row, column, (north, east, south, west) = die
        x0, y0 = margin + (column - 1) * scale, margin + (row - 1) * scale
        if name == last.upper():
            canvas.rect(x0 + 2, y0 + 2, x0 + scale - 2, y0 + scale - 2, (250, 200, 40))
        canvas.rect(x0 + 4, y0 + 4, x0 + scale - 4, y0 + scale - 4, _BITIS_BODY[name])
        cx, cy, off = x0 + scale / 2, y0 + scale / 2, scale * 0.3
        canvas.text(cx, cy - off, str(north), WHITE, font)
        canvas.text(cx + off, cy, str(east), WHITE, font)
        canvas.text(cx, cy + off, str(south), WHITE, font)
        canvas.text(cx - off, cy, str(west), WHITE, font)
    mark = (40, 40, 40) if to_move.upper() == "A" else (240, 240, 240)
    canvas.disc(margin * 0.5, margin * 0.5, margin * 0.35, mark)
    return canvas.pixels


def draw(game: str, state: Any) -> np.ndarray:
    """An RGB picture (``uint8``, height x width x 3) of ``state``, a Ludothek state."""
    position = state.position()
    if game == "trike":
        return draw_trike(position)
    if game == "trigeo":
        return draw_triangle_board(position, JUMP_FIELDS)
    if game == "hexalit":
        return draw_triangle_board(position)
    if game == "bitis":
        return draw_bitis(position)
    return Canvas(64, 64, (128, 128, 128)).pixels
