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
from .kernels import BLACK, WHITE

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
        raise PositionError(f"a position must be text, not {type(text).__name__}")
    fields = text.split()
    if not fields:
        raise PositionError("the position is empty: expected '<rows> <side to move> <temporary dice>'")
    if len(fields) == 1:
        raise PositionError("position is missing the side to move (w or b) and the temporary-dice field ('-' if none)")
    if len(fields) == 2:
        raise PositionError("position is missing its third field, the temporary dice (write '-' for none)")
    if len(fields) > 3:
        raise PositionError(
            f"position has {len(fields)} fields; expected 3: rows, side to move, temporary dice (extra: {fields[3]!r})"
        )
    rows = fields[0].split("/")
    if len(rows) != 6:
        raise PositionError(f"the board field has {len(rows)} rows separated by '/'; expected 6 (A to F)")
    board = np.zeros(T.SIZE, dtype=np.int8)
    for r, row in enumerate(rows, start=1):
        row_name = T.ROWS[r - 1]
        length = T.ROW_LENGTHS[r - 1]
        start = T.ROW_START[r - 1]
        filled = 0
        for item in _ITEM.findall(row):
            if item[0] in "0123456789":
                if item.startswith("0"):
                    raise PositionError(
                        f"row {row_name}: empty-cell count {shown(item, 12)} must be a number from 1 without leading 0"
                    )
                if len(item) > 2:  # every row is shorter; int() refuses 4,300 digits
                    raise PositionError(
                        f"row {row_name} has more than {length} cells (an empty-cell count of {len(item)} digits)"
                    )
                filled += int(item)
            elif item in LETTERS or item in LETTERS.lower():
                if filled < length:
                    face = LETTERS.index(item.upper()) + 1
                    board[start + filled] = face if item.isupper() else -face
                filled += 1
            else:
                raise PositionError(
                    f"row {row_name}: unknown character {item!r} (dice are K P N B R Q for faces 1-6, "
                    "upper case White, lower case Black; numbers count empty cells)"
                )
            if filled > length:
                raise PositionError(f"row {row_name} has more than {length} cells (it has columns "
                                    f"{T.columns(r).start}..{T.columns(r).stop - 1})")
        if filled < length:
            raise PositionError(f"row {row_name} has {filled} cells; it needs {length}")
    for colour, count in (("White", int((board > 0).sum())), ("Black", int((board < 0).sum()))):
        if count > MAX_DICE:
            raise PositionError(f"{colour} has {count} dice; each side has {MAX_DICE}")
    side_text = fields[1].lower()
    if side_text not in ("w", "b"):
        raise PositionError(f"side to move must be 'w' or 'b', not {fields[1]!r}")
    side = WHITE if side_text == "w" else BLACK
    temporary = np.zeros(T.SIZE, dtype=np.bool_)
    if fields[2] != "-":
        for part in fields[2].split(","):
            try:
                cell = T.parse_cell(part)
            except ParseError as exc:
                raise PositionError(f"temporary dice field: {exc}") from None
            if temporary[cell]:
                raise PositionError(f"temporary dice field: {T.NAMES[cell]} is listed twice")
            if board[cell] == 0:
                raise PositionError(f"temporary dice field: {T.NAMES[cell]} has no die")
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
