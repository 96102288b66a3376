"""A small pure-numpy rasteriser for RGB pictures of positions (``render_mode="rgb_array"``).

:class:`Canvas` draws filled polygons and discs (even-odd rule, no anti-aliasing) and digits
in a 3x5 pixel font. A game with a ``picture`` part in its spec names a function
``state -> uint8 array (height, width, 3)`` in its package that draws with it; :func:`draw`
calls it, and gives a game without one a plain grey card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.registry import game_spec

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


# ---------------------------------------------------------------------------- palette
BLACK: Colour = (30, 30, 34)
WHITE: Colour = (248, 248, 244)
CELL: Colour = (214, 190, 140)
EDGE: Colour = (120, 98, 60)
HIGHLIGHT: Colour = (230, 60, 40)
#: the card of a game without a picture
PLAIN: Colour = (128, 128, 128)


def draw(game: str, state: Any) -> np.ndarray:
    """An RGB picture (``uint8``, height x width x 3) of ``state``, a state of ``game``."""
    spec = game_spec(game)
    if not spec.has("picture"):
        return Canvas(64, 64, PLAIN).pixels
    return spec.load("picture")(state)
