"""Bitis' observation tensor for the research adapters (OpenSpiel, PettingZoo).

Grid ``6 x 4``: cell ``(row, column)`` (both from 1) is ``[row - 1, column - 1]``. Planes,
in order, for each die ``III``, ``IV``, ``V``:

* ``<die>`` — the cell it stands on (all zero while it is off the board);
* ``<die>_<side>_<value>`` for side ``N``, ``E``, ``S``, ``W`` and face value ``1..9`` —
  the face that die shows on that side, at its cell;

then ``last`` (the cell of the die placed last), ``a_to_move`` (constant plane),
``observer_a`` (the observing seat is A; constant) and ``observer_to_act``, shared by all
games (:mod:`ludothek.integrations.observe`).

Actions for the adapters: ``num_actions`` is 1728 (die, cell, orientation). Only threefold
repetition ends a long game, so the rules set no bound on its length: the OpenSpiel adapter
adds its ``max_game_length`` parameter.
"""

from __future__ import annotations

import numpy as np

from ...boards.grid import SIDE_NAMES
from ...integrations.observe import Encoder
from .dice import DIE_NAMES, FACES
from .state import GRID, BitisState

#: planes per die: where it stands, then one per side and face value 1..9
PER_DIE = 1 + len(SIDE_NAMES) * 9
LAST, A_TO_MOVE, OBSERVER_A = 3 * PER_DIE, 3 * PER_DIE + 1, 3 * PER_DIE + 2


class BitisEncoder(Encoder):
    game_planes = (
        *(
            name
            for die in DIE_NAMES
            for name in (die, *(f"{die}_{side}_{v}" for side in SIDE_NAMES for v in range(1, 10)))
        ),
        "last",
        "a_to_move",
        "observer_a",
    )
    grid = (GRID.rows, GRID.columns)

    def fill(self, out: np.ndarray, state: BitisState, observer: str | None) -> None:
        for die in range(len(DIE_NAMES)):
            cell = int(state.cells[die])
            if cell < 0:
                continue
            row, column = divmod(cell, GRID.columns)
            base = die * PER_DIE
            out[base, row, column] = 1.0
            for side, value in enumerate(FACES[die, state.ors[die]]):
                out[base + 1 + side * 9 + int(value) - 1, row, column] = 1.0
            if die == state.last:
                out[LAST, row, column] = 1.0
        out[A_TO_MOVE] = state.mover == 0
        out[OBSERVER_A] = observer == "a"
