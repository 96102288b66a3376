"""Hexalit on the terminal: the shared dice board (:mod:`ludothek.games.dice.render`), with
temporary faces underlined and listed, threatened 1s in red, the last turn and the cube."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...boards import triangle66 as T
from ...core.messages import Message, colour
from ...core.protocol import CHANCE
from ..dice.position import SIDE_NAME
from ..dice.render import render_board
from ..dice.texts import TEXTS as DICE
from .kernels import CELLS, OUTCOME, ROLL
from .texts import TEXTS

if TYPE_CHECKING:
    from .state import HexalitState


def _last_move(state: HexalitState) -> tuple[int, int] | None:
    """Cells of the last move, or the rolled die's cell twice."""
    for action in reversed(state.history):
        if action < ROLL:
            return divmod(action, CELLS)
        if action < OUTCOME:
            return action - ROLL, action - ROLL
        if action < OUTCOME + 6:
            continue  # an outcome: its roll comes just before
        return None  # a cube action: nothing moved since
    return None


def render_state(state: HexalitState, lang: str = "en") -> Any:
    """The board with the status lines of Hexalit, its legend and status in ``lang``."""
    status: list[Message] = []
    if state.ply:
        status.append(TEXTS("last_turn", turn=state.record_tokens()[-1]))
    temporary = np.flatnonzero(state.temp)
    if temporary.size:
        listed = ", ".join(f"{T.NAMES[c]}={abs(int(state.board[c]))}" for c in temporary)
        status.append(TEXTS("temporary_faces", listed=listed))
    threatened = state.threatened_cells()
    for cell in threatened:
        owner = "White" if state.board[cell] > 0 else "Black"
        status.append(DICE("one_threatened", owner=colour(owner), cell=T.NAMES[cell]))
    if state.options["cube"]:
        note = "" if state.cube > 1 else TEXTS("stake_cube_not_in_play")
        offer = TEXTS("stake_offer", side=colour(SIDE_NAME[state.side]), stake=state.cube * 2) if state.offer else ""
        status.append(TEXTS("stake", stake=state.cube, note=note, offer=offer))
    if state.is_over():
        won = state.winner()
        if state.dropped:
            status.append(TEXTS("over_dropped", dropper=colour(SIDE_NAME[1 - state.side]), winner=colour(won)))
        else:
            status.append(DICE("over_won", winner=colour(won)) if won else DICE("over_draw"))
    elif state.current_player() == CHANCE:
        status.append(TEXTS("rolls", side=_capital(state.side), cell=T.NAMES[state.roll_cell]))
    elif state.offer:
        status.append(TEXTS("to_answer", side=_capital(1 - state.side)))
    elif state.eins_gebot():
        status.append(TEXTS("to_move_gebot", side=_capital(state.side)))
    else:
        status.append(DICE("to_move", side=_capital(state.side)))
    return render_board(
        state.board,
        state.side,
        temporary=state.temp,
        last_move=_last_move(state),
        threatened=threatened,
        status=status,
        title="Hexalit",
        lang=lang,
    )


def _capital(side: int) -> Message | str:
    """``White`` / ``Black`` at the start of a sentence (``Weiß`` / ``Schwarz``)."""
    return colour(SIDE_NAME[side].capitalize())
