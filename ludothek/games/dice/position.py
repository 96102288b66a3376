"""Position strings of the dice games: ``<rows> <side to move> <temporary dice>``.

Letters ``K P N B R Q`` are faces 1..6, upper case White, lower case Black; runs of empty
cells are decimal counts; rows A..F separated by ``/``, each from its lowest column.
Side ``w`` / ``b``. Temporary dice: ``-`` or comma-separated cell names (Hexalit only).
"""

from __future__ import annotations

import re

import numpy as np

from ...boards import triangle66 as T
from ...core.errors import ParseError, PositionError, shown
from ...core.messages import colour
from .kernels import BLACK, WHITE
from .texts import TEXTS

LETTERS = "KPNBRQ"  # faces 1..6
FACE_NAMES = {1: "king", 2: "pawn", 3: "knight", 4: "bishop", 5: "rook", 6: "queen"}
SIDE_LETTER = {WHITE: "w", BLACK: "b"}
SIDE_NAME = {WHITE: "white", BLACK: "black"}
MAX_DICE = 15  # per side; also what keeps a position's moves within kernels.MAX_MOVES
START = "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -"
_ITEM = re.compile(r"[0-9]+|.", re.DOTALL)


def letter(value: int) -> str:
    """The position letter of a board value (``+f`` White, ``-f`` Black)."""
    ch = LETTERS[abs(value) - 1]
    return ch if value > 0 else ch.lower()


def parse_position(text: str) -> tuple[np.ndarray, int, np.ndarray]:
    """``(board int8[66], side, temporary bool[66])`` from a position string.

    Raises :class:`PositionError` naming the field / row and the problem."""
    if not isinstance(text, str):
        raise PositionError(TEXTS("position_not_text", type=type(text).__name__))
    fields = text.split()
    if not fields:
        raise PositionError(TEXTS("position_empty"))
    if len(fields) == 1:
        raise PositionError(TEXTS("position_missing_side"))
    if len(fields) == 2:
        raise PositionError(TEXTS("position_missing_temporary"))
    if len(fields) > 3:
        raise PositionError(TEXTS("position_fields", count=len(fields), extra=repr(fields[3])))
    rows = fields[0].split("/")
    if len(rows) != 6:
        raise PositionError(TEXTS("position_rows", count=len(rows)))
    board = np.zeros(T.SIZE, dtype=np.int8)
    for r, row in enumerate(rows, start=1):
        row_name = T.ROWS[r - 1]
        length = T.ROW_LENGTHS[r - 1]
        start = T.ROW_START[r - 1]
        filled = 0
        for item in _ITEM.findall(row):
            if item[0] in "0123456789":
                if item.startswith("0"):
                    raise PositionError(TEXTS("row_leading_zero", row=row_name, count=shown(item, 12)))
                if len(item) > 2:  # every row is shorter; int() refuses 4,300 digits
                    raise PositionError(TEXTS("row_too_many_digits", row=row_name, length=length, digits=len(item)))
                filled += int(item)
            elif item in LETTERS or item in LETTERS.lower():
                if filled < length:
                    face = LETTERS.index(item.upper()) + 1
                    board[start + filled] = face if item.isupper() else -face
                filled += 1
            else:
                raise PositionError(TEXTS("row_unknown_character", row=row_name, char=repr(item)))
            if filled > length:
                raise PositionError(TEXTS("row_too_long", row=row_name, length=length,
                                          first=T.columns(r).start, last=T.columns(r).stop - 1))
        if filled < length:
            raise PositionError(TEXTS("row_too_short", row=row_name, filled=filled, length=length))
    for name, count in (("White", int((board > 0).sum())), ("Black", int((board < 0).sum()))):
        if count > MAX_DICE:
            raise PositionError(TEXTS("too_many_dice", colour=colour(name), count=count, max=MAX_DICE))
    side_text = fields[1].lower()
    if side_text not in ("w", "b"):
        raise PositionError(TEXTS("side_to_move", text=repr(fields[1])))
    side = WHITE if side_text == "w" else BLACK
    temporary = np.zeros(T.SIZE, dtype=np.bool_)
    if fields[2] != "-":
        for part in fields[2].split(","):
            try:
                cell = T.parse_cell(part)
            except ParseError as exc:
                raise PositionError(TEXTS("temporary_field", error=exc)) from None
            if temporary[cell]:
                raise PositionError(TEXTS("temporary_twice", cell=T.NAMES[cell]))
            if board[cell] == 0:
                raise PositionError(TEXTS("temporary_no_die", cell=T.NAMES[cell]))
            temporary[cell] = True
    return board, side, temporary


def format_position(board: np.ndarray, side: int, temporary: np.ndarray | None = None) -> str:
    rows = []
    for r in range(6):
        parts: list[str] = []
        empties = 0
        start = T.ROW_START[r]
        for cell in range(start, start + T.ROW_LENGTHS[r]):
            value = int(board[cell])
            if value == 0:
                empties += 1
                continue
            if empties:
                parts.append(str(empties))
                empties = 0
            parts.append(letter(value))
        if empties:
            parts.append(str(empties))
        rows.append("".join(parts))
    temp = "-"
    if temporary is not None and temporary.any():
        temp = ",".join(T.NAMES[c] for c in np.flatnonzero(temporary))
    return f"{'/'.join(rows)} {SIDE_LETTER[side]} {temp}"


def start_board() -> np.ndarray:
    return parse_position(START)[0]
