"""Move notation shared by Trigeo and Hexalit.

``B6XC6`` a move, ``C7°D7`` a capture, ``E9°F10=6`` a 2 promoted to a 6 (Trigeo), then the
marks ``^`` (an opposing 1 is threatened) and ``+`` (the move wins).  Input is
case-insensitive; ``x`` and ``*`` are accepted for ``°``.  Because input is
case-insensitive, ``x``/``X`` cannot tell a move from a capture, so it is accepted for both;
``°`` and ``*`` claim a capture and are checked by :func:`check_capture_sign`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...boards import triangle66 as T
from ...core.errors import IllegalMove, ParseError
from .kernels import CELLS, PROMO
from .texts import TEXTS

MOVE_SIGN = "X"
CAPTURE_SIGN = "°"
_MOVE = re.compile(r"^([a-z]+\d+)\s*([x°*º˚])\s*([a-z]+\d+)(?:\s*=\s*(\d))?\s*([\^+]*)$", re.IGNORECASE)


@dataclass(frozen=True)
class MoveText:
    frm: int
    to: int
    capture: bool | None  # True for ° or *, None for x/X (either)
    promote: bool
    marks: str  # the marks as written, normalised: a subset of "^+"

    @property
    def action(self) -> int:
        return (PROMO if self.promote else 0) + self.frm * CELLS + self.to


def parse_move_text(text: str, allow_promotion: bool = True) -> MoveText:
    """Parse ``FROM sep TO [=6] [marks]`` (no legality check)."""
    if not isinstance(text, str):
        raise ParseError(TEXTS("move_not_text", type=type(text).__name__))
    raw = text.strip()
    match = _MOVE.match(raw)
    if not match:
        raise ParseError(TEXTS("not_a_move_promotion" if allow_promotion else "not_a_move", text=repr(text)))
    frm = T.parse_cell(match.group(1))
    to = T.parse_cell(match.group(3))
    if frm == to:
        raise ParseError(TEXTS("same_cell", text=repr(text), cell=T.NAMES[frm]))
    sign = match.group(2)
    capture = None if sign in "xX" else True
    promote = False
    if match.group(4) is not None:
        if not allow_promotion:
            raise ParseError(TEXTS("no_promotion", text=repr(text), face=match.group(4)))
        if match.group(4) != "6":
            raise ParseError(TEXTS("promote_to_six", text=repr(text), face=match.group(4)))
        promote = True
    marks = match.group(5)
    if len(set(marks)) != len(marks):
        raise ParseError(TEXTS("mark_repeated", text=repr(text)))
    return MoveText(frm, to, capture, promote, "".join(m for m in "^+" if m in marks))


def move_to_text(board, action: int) -> str:
    """Canonical text of ``action`` before it is played on ``board`` (no marks)."""
    promote = action >= PROMO
    m = action - PROMO if promote else action
    frm, to = divmod(m, CELLS)
    sign = CAPTURE_SIGN if board[to] != 0 else MOVE_SIGN
    return f"{T.NAMES[frm]}{sign}{T.NAMES[to]}" + ("=6" if promote else "")


def check_capture_sign(board, move: MoveText, text: str) -> None:
    if move.capture and board[move.to] == 0:
        raise IllegalMove(TEXTS("capture_empty", text=repr(text), cell=T.NAMES[move.to],
                                move=f"{T.NAMES[move.frm]}{MOVE_SIGN}{T.NAMES[move.to]}"))
