"""Trigeo as an RGB picture: the dice board of :mod:`ludothek.games.dice.picture` with the
six jump fields."""

from __future__ import annotations

import numpy as np

from ..dice.picture import draw_board
from .state import TrigeoState


def draw(state: TrigeoState) -> np.ndarray:
    return draw_board(state.board, state.side, jumps=state.JUMP_FIELDS)
