"""Trigeo in the terminal: the shared dice board with the last move, threatened 1s and the
game's status."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...boards import triangle66 as T
from ..dice import kernels as DK
from ..dice.kernels import BLACK, CELLS, JUMP_FIELDS_TRIGEO, PROMO, WHITE
from ..dice.position import SIDE_NAME
from ..dice.render import render_board

if TYPE_CHECKING:
    from .state import TrigeoState


def render_state(state: "TrigeoState") -> Any:
    last = None
    if state.ply:
        action, text = state.played(-1)
        last = divmod(action % PROMO, CELLS)
    threatened = []
    status = []
    for s in (WHITE, BLACK):
        king = int(DK.find_one(state.board, s))
        if king >= 0 and DK.is_attacked(state.board, T.GEO, king, 1 - s, JUMP_FIELDS_TRIGEO):
            threatened.append(king)
            status.append(f"Eins! {SIDE_NAME[s].capitalize()}'s 1 on {T.NAMES[king]} is threatened.")
    if state.ply:
        status.insert(0, f"Last move: {text}")
    if state.is_over():
        won = state.winner()
        status.append(f"Game over: {won} wins." if won else "Game over: draw.")
    else:
        status.append(f"{SIDE_NAME[state.side].capitalize()} to move.")
    return render_board(
        state.board, state.side, jumps=state.JUMP_FIELDS, last_move=last, threatened=threatened, status=status,
        title="Trigeo",
    )
