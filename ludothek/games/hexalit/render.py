"""Hexalit on the terminal: the shared dice board (:mod:`ludothek.games.dice.render`), with
temporary faces underlined and listed, threatened 1s in red, the last turn and the cube."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...boards import triangle66 as T
from ...core.protocol import CHANCE
from ..dice.position import SIDE_NAME
from ..dice.render import render_board
from .kernels import CELLS, OUTCOME, ROLL

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


def render_state(state: HexalitState) -> Any:
    status: list[str] = []
    if state.ply:
        status.append(f"Last turn: {state.record_tokens()[-1]}")
    temporary = np.flatnonzero(state.temp)
    if temporary.size:
        listed = ", ".join(f"{T.NAMES[c]}={abs(int(state.board[c]))}" for c in temporary)
        status.append(f"Temporary faces (underlined; they turn back to 2): {listed}")
    threatened = state.threatened_cells()
    for cell in threatened:
        owner = "white" if state.board[cell] > 0 else "black"
        status.append(f"Eins! {owner.capitalize()}'s 1 on {T.NAMES[cell]} is threatened.")
    if state.options["cube"]:
        line = f"Stake: {state.cube}" + ("" if state.cube > 1 else " (cube not yet in play)")
        if state.offer:
            line += f"; {SIDE_NAME[state.side]} offers to double to {state.cube * 2}"
        status.append(line)
    if state.is_over():
        won = state.winner()
        if state.dropped:
            status.append(f"Game over: {SIDE_NAME[1 - state.side]} dropped; {won} wins.")
        else:
            status.append(f"Game over: {won} wins." if won else "Game over: draw.")
    elif state.current_player() == CHANCE:
        status.append(f"{SIDE_NAME[state.side].capitalize()} rolls the die on {T.NAMES[state.roll_cell]} …")
    elif state.offer:
        status.append(f"{SIDE_NAME[1 - state.side].capitalize()} to answer: take or drop.")
    else:
        line = f"{SIDE_NAME[state.side].capitalize()} to move."
        if state.eins_gebot():
            line += " Eins-Gebot: the last 1 must move to safety."
        status.append(line)
    return render_board(
        state.board,
        state.side,
        temporary=state.temp,
        last_move=_last_move(state),
        threatened=threatened,
        status=status,
        title="Hexalit",
    )
