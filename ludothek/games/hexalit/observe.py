"""Hexalit's observation tensor for the research adapters (OpenSpiel, PettingZoo).

The layout of the dice games (:mod:`ludothek.games.dice.observe`): grid ``6 x 13``, planes
``white_1..6``, ``black_1..6``, ``temporary``, ``rolling``, ``cell``, ``up``, ``jump``,
``white_to_move``, ``observer_white``, ``cube_offer``, ``stake``, ``observer_to_act``.
Hexalit fills ``temporary`` (dice showing a rolled, temporary face) and ``rolling`` (the die
being rolled while the chance node waits for its face); ``jump`` stays zero. With option
``cube``: ``cube_offer`` while an offer to double waits for take/drop (then the observer to
act is the one answering, not the side to move), ``stake`` = log2(stake) / 6; without the
cube both stay zero.

Actions for the adapters: ``num_actions`` is 4431; the chance outcomes are the die faces,
actions 4422..4427. A game lasts at most ``2 * max_plies + 2`` actions (a roll and its face
are two), 12 more with the cube (at most six offers, each with its answer).
"""

from __future__ import annotations

import math

import numpy as np

from ..dice.observe import COLUMN, CUBE_OFFER, ROLLING, ROW, STAKE, TEMPORARY, DiceEncoder
from .state import HexalitState


class HexalitEncoder(DiceEncoder):
    def fill(self, out: np.ndarray, state: HexalitState, observer: str | None) -> None:
        super().fill(out, state, observer)
        temporary = np.flatnonzero(state.temp)
        out[TEMPORARY, ROW[temporary], COLUMN[temporary]] = 1.0
        if state.roll_cell >= 0:
            out[ROLLING, ROW[state.roll_cell], COLUMN[state.roll_cell]] = 1.0
        if state.options["cube"]:
            out[CUBE_OFFER] = state.offer
            out[STAKE] = math.log2(max(1, state.cube)) / 6.0
