"""Hexalit as an RGB picture: the dice board of :mod:`ludothek.games.dice.picture` with the
temporary faces and the die being rolled."""

from __future__ import annotations

import numpy as np

from ..dice.picture import draw_board
from .state import HexalitState


def draw(state: HexalitState) -> np.ndarray:
    return draw_board(state.board, state.side, temporary=state.temp, rolling=state.roll_cell)
