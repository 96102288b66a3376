"""Trigeo in the terminal: the shared dice board with the last move, threatened 1s and the
game's status."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...boards import triangle66 as T
from ...core.messages import Message, colour
from ..dice import kernels as DK
from ..dice.kernels import BLACK, CELLS, JUMP_FIELDS_TRIGEO, PROMO, WHITE
from ..dice.position import SIDE_NAME
from ..dice.render import render_board
from ..dice.texts import TEXTS as DICE

if TYPE_CHECKING:
    from .state import TrigeoState


def render_state(state: "TrigeoState", lang: str = "en") -> Any:
    """The board with Trigeo's status lines, its legend and status in ``lang``."""
    last = None
    if state.ply:
        action, text = state.played(-1)
        last = divmod(action % PROMO, CELLS)
    threatened = []
    status: list[Message] = []
    for s in (WHITE, BLACK):
        king = int(DK.find_one(state.board, s))
        if king >= 0 and DK.is_attacked(state.board, T.GEO, king, 1 - s, JUMP_FIELDS_TRIGEO):
            threatened.append(king)
            status.append(DICE("one_threatened", owner=_capital(s), cell=T.NAMES[king]))
    if state.ply:
        status.insert(0, DICE("last_move", move=text))
    if state.is_over():
        won = state.winner()
        status.append(DICE("over_won", winner=colour(won)) if won else DICE("over_draw"))
    else:
        status.append(DICE("to_move", side=_capital(state.side)))
    return render_board(
        state.board, state.side, jumps=state.JUMP_FIELDS, last_move=last, threatened=threatened, status=status,
        title="Trigeo", lang=lang,
    )


def _capital(side: int) -> Message | str:
    """``White`` / ``Black`` at the start of a sentence (``Weiß`` / ``Schwarz``)."""
    return colour(SIDE_NAME[side].capitalize())
