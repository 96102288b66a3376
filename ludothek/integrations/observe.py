"""Observation tensors shared by the research adapters (OpenSpiel, PettingZoo).

Each game has a small *encoder* that turns a state, seen by one seat, into a float32 tensor
of 0/1 planes over the game's board grid. Encoders read the **canonical position string**
(the format fixed in ``rules/*.md``), never a game's internal arrays, so they keep working
whatever the engines do inside; they need only numpy.

Layouts (``Encoder.planes`` names them in order; every plane has the board's grid shape):

* **trike** — grid ``size x size`` (row ``r``, column ``c <= r``); planes: ``black``,
  ``white`` (stones), ``pawn``, ``empty`` (empty cells of the triangle), ``black_to_move``,
  ``swapped`` (the pie rule was used), ``observer_black`` (the observing seat holds Black).
* **trigeo / hexalit** — grid ``6 x 13`` (rows A..F, columns 1..13); planes
  ``white_1..white_6``, ``black_1..black_6`` (a die's top face), ``temporary`` (a rolled,
  temporary face; Hexalit only), ``rolling`` (the die whose roll waits for its outcome, at a
  chance node), ``cell`` (the 66 cells of the board), ``up`` (up triangles), ``jump``
  (Trigeo's jump fields; all zero in Hexalit), ``white_to_move`` (whose turn it is),
  ``observer_white``, ``cube_offer`` and ``stake`` (Hexalit with option ``cube``: an offer to
  double waits for take/drop; log2(stake) / 6).
* **bitis** — grid ``6 x 4``; per die ``III, IV, V``: ``<die>`` (where it stands) and
  ``<die>_<side>_<value>`` for side ``N, E, S, W`` and face value ``1..9``; then
  ``last`` (the cell of the die placed last), ``a_to_move``, ``observer_a``.
* every game ends with ``observer_to_act``: the observing seat is the one to act now (it
  differs from the side to move while a cube offer waits for the answer, and is zero at
  chance nodes and at the end).

Planes that describe the side to move, the observer or the cube are constant (all ones or
zeros, or the stake everywhere).
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from ..core.protocol import GameState


class Encoder:
    """Turns states of one game into tensors of shape :attr:`shape`."""

    #: the game's plane names, in order (:attr:`planes` adds the shared last plane)
    game_planes: tuple[str, ...] = ()
    #: (rows, columns) of every plane
    grid: tuple[int, int] = (1, 1)

    def __init__(self, options: dict[str, Any]):
        self.options = dict(options)

    @property
    def planes(self) -> tuple[str, ...]:
        return (*self.game_planes, "observer_to_act")

    @property
    def shape(self) -> tuple[int, int, int]:
        return (len(self.planes), *self.grid)

    def encode(self, state: GameState | None, seat: int) -> np.ndarray:
        """A new tensor for ``state`` seen by ``seat`` (``None``: before the game starts)."""
        out = np.zeros(self.shape, np.float32)
        self.encode_into(out, state, seat)
        return out

    def encode_into(self, out: np.ndarray, state: GameState | None, seat: int) -> None:
        """Write the tensor into ``out`` (shape :attr:`shape`)."""
        out.fill(0.0)
        if state is not None:
            self._fill(out, state.position(), state.seat_colour(seat) if seat >= 0 else None)
            self._extra(out, state)
            out[-1] = state.current_player() == seat

    def _fill(self, out: np.ndarray, position: str, observer: str | None) -> None:
        raise NotImplementedError

    def _extra(self, out: np.ndarray, state: GameState) -> None:
        """Planes that the position string does not carry (none by default)."""


# ---------------------------------------------------------------------------- Trike
_TRIKE_ITEM = re.compile(r"\d+|[bwBW]")


class TrikeEncoder(Encoder):
    game_planes = ("black", "white", "pawn", "empty", "black_to_move", "swapped", "observer_black")

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        size = int(options["size"])
        self.grid = (size, size)

    def _fill(self, out: np.ndarray, position: str, observer: str | None) -> None:
        fields = position.split()
        for r, row in enumerate(fields[0].split("/")):
            c = 0
            for item in _TRIKE_ITEM.findall(row):
                if item.isdigit():
                    out[3, r, c : c + int(item)] = 1.0
                    c += int(item)
                    continue
                out[0 if item.lower() == "b" else 1, r, c] = 1.0
                if item.isupper():
                    out[2, r, c] = 1.0
                c += 1
        out[4] = fields[1].lower() == "b"
        out[5] = len(fields) > 2
        out[6] = observer == "black"


# ---------------------------------------------------------------- triangle board games
TRIANGLE_ROWS = "ABCDEF"
#: columns present in each row (index 0 = row A)
TRIANGLE_COLUMNS = tuple(tuple(c for c in range(1, 14) if abs(c - 7) <= 3 + min(r, 7 - r)) for r in range(1, 7))
_FACE_OF = {"K": 1, "P": 2, "N": 3, "B": 4, "R": 5, "Q": 6}
_TRI_ITEM = re.compile(r"\d+|[A-Za-z]")
JUMP_FIELDS = ("C6", "C7", "C8", "D6", "D7", "D8")


def triangle_cell(name: str) -> tuple[int, int]:
    """(row index 0..5, column 1..13) of a cell name such as ``B5``."""
    return TRIANGLE_ROWS.index(name[0].upper()), int(name[1:])


def parse_triangle_position(position: str) -> tuple[dict[tuple[int, int], tuple[str, int]], str, set, tuple | None]:
    """``{(row, column): (colour, face)}``, side to move (``w``/``b``), temporary cells, and
    the cell of a die whose roll waits for its outcome (Hexalit's fourth field ``B5W``)."""
    fields = position.split()
    dice: dict[tuple[int, int], tuple[str, int]] = {}
    for r, row in enumerate(fields[0].split("/")):
        columns = TRIANGLE_COLUMNS[r]
        i = 0
        for item in _TRI_ITEM.findall(row):
            if item.isdigit():
                i += int(item)
                continue
            colour = "white" if item.isupper() else "black"
            dice[(r, columns[i])] = (colour, _FACE_OF[item.upper()])
            i += 1
    temporary = set()
    if len(fields) > 2 and fields[2] != "-":
        temporary = {triangle_cell(name) for name in fields[2].split(",") if name}
    rolling = triangle_cell(fields[3].rstrip("Ww")) if len(fields) > 3 else None
    return dice, fields[1].lower(), temporary, rolling


class TriangleEncoder(Encoder):
    game_planes = (
        *(f"white_{f}" for f in range(1, 7)),
        *(f"black_{f}" for f in range(1, 7)),
        "temporary",
        "rolling",
        "cell",
        "up",
        "jump",
        "white_to_move",
        "observer_white",
        "cube_offer",
        "stake",
    )
    grid = (6, 13)
    jump_fields: tuple[str, ...] = ()

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self._static = np.zeros((3, 6, 13), np.float32)
        for r, columns in enumerate(TRIANGLE_COLUMNS):
            for c in columns:
                self._static[0, r, c - 1] = 1.0
                self._static[1, r, c - 1] = (r + 1 + c) % 2 == 0
        for name in self.jump_fields:
            r, c = triangle_cell(name)
            self._static[2, r, c - 1] = 1.0

    def _fill(self, out: np.ndarray, position: str, observer: str | None) -> None:
        dice, side, temporary, rolling = parse_triangle_position(position)
        for (r, c), (colour, face) in dice.items():
            out[(0 if colour == "white" else 6) + face - 1, r, c - 1] = 1.0
        for r, c in temporary:
            out[12, r, c - 1] = 1.0
        if rolling is not None:
            out[13, rolling[0], rolling[1] - 1] = 1.0
        out[14:17] = self._static
        out[17] = side == "w"
        out[18] = observer == "white"

    def _extra(self, out: np.ndarray, state: GameState) -> None:
        # Hexalit's doubling cube (option ``cube``): not in position strings
        if getattr(state, "options", {}).get("cube"):
            out[19] = bool(getattr(state, "offer", False))
            out[20] = math.log2(max(1, int(getattr(state, "cube", 1)))) / 6.0


class TrigeoEncoder(TriangleEncoder):
    jump_fields = JUMP_FIELDS


class HexalitEncoder(TriangleEncoder):
    pass


# ---------------------------------------------------------------------------- Bitis
BITIS_DICE = ("III", "IV", "V")
BITIS_SIDES = ("N", "E", "S", "W")


def parse_bitis_position(position: str) -> tuple[list[tuple[int, int, tuple[int, ...]] | None], str, str]:
    """Per die ``(row 1..6, column 1..4, (N, E, S, W))`` or ``None``; last die; to move."""
    fields = position.split()
    dice: list[tuple[int, int, tuple[int, ...]] | None] = []
    for text in fields[:3]:
        if text == "-":
            dice.append(None)
            continue
        cell, _, faces = text.partition(":")
        dice.append((int(cell[0]), int(cell[1]), tuple(int(f) for f in faces)))
    return dice, fields[3], fields[4]


class BitisEncoder(Encoder):
    game_planes = (
        *(
            name
            for die in BITIS_DICE
            for name in (die, *(f"{die}_{side}_{v}" for side in BITIS_SIDES for v in range(1, 10)))
        ),
        "last",
        "a_to_move",
        "observer_a",
    )
    grid = (6, 4)

    def _fill(self, out: np.ndarray, position: str, observer: str | None) -> None:
        dice, last, to_move = parse_bitis_position(position)
        per_die = 1 + 4 * 9
        for d, die in enumerate(dice):
            if die is None:
                continue
            row, column, faces = die
            base = d * per_die
            out[base, row - 1, column - 1] = 1.0
            for s, value in enumerate(faces):
                out[base + 1 + s * 9 + value - 1, row - 1, column - 1] = 1.0
            if BITIS_DICE[d] == last.upper():
                out[3 * per_die, row - 1, column - 1] = 1.0
        out[3 * per_die + 1] = to_move.upper() == "A"
        out[3 * per_die + 2] = str(observer).upper() == "A"


ENCODERS: dict[str, type[Encoder]] = {
    "trike": TrikeEncoder,
    "trigeo": TrigeoEncoder,
    "hexalit": HexalitEncoder,
    "bitis": BitisEncoder,
}


def encoder_for(game: str, options: dict[str, Any]) -> Encoder | None:
    """The encoder of ``game`` for these options, or ``None`` if the game has none."""
    cls = ENCODERS.get(game)
    return cls(options) if cls is not None else None
