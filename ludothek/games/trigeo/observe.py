"""Trigeo's observation tensor for the research adapters (OpenSpiel, PettingZoo).

The layout of the dice games (:mod:`ludothek.games.dice.observe`): grid ``6 x 13``, planes
``white_1..6``, ``black_1..6``, ``temporary``, ``rolling``, ``cell``, ``up``, ``jump``,
``white_to_move``, ``observer_white``, ``cube_offer``, ``stake``, ``observer_to_act``.
Plane ``jump`` marks Trigeo's six jump fields C6, C7, C8, D6, D7, D8; Trigeo has no
temporary faces, rolls or cube, so those planes stay zero.

Actions for the adapters: ``num_actions`` is 8712 (moves, then the same moves promoting a
2 to a 6); the game is deterministic, and lasts at most ``max_plies`` actions.
"""

from __future__ import annotations

from ..dice.observe import DiceEncoder
from .state import TrigeoState


class TrigeoEncoder(DiceEncoder):
    jump_cells = TrigeoState.JUMP_FIELDS
