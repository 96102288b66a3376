"""Race's observation tensor for the research adapters (OpenSpiel, PettingZoo).

Grid ``1 x 14``: column ``k`` is square ``k`` (0 the start, 1 … 12 the track, 13 home).
Planes, in order:

* ``white_one``, ``white_two`` — exactly one / both of White's tokens stand here;
* ``black_one``, ``black_two`` — the same for Black;
* ``roll_1``, ``roll_2``, ``roll_3`` — the die shows this number (constant planes; all zero
  while the die is still to be rolled);
* ``white_to_move`` — White moves next (constant);
* ``observer_white`` — the observing seat holds White (constant);
* ``observer_to_act`` — shared by all games (:mod:`ludothek.integrations.observe`).
"""

from __future__ import annotations

import numpy as np

from ludothek.integrations.observe import Encoder

from .state import FACES, WHITE, RaceState
from .track import SQUARES


class RaceEncoder(Encoder):
    game_planes = ("white_one", "white_two", "black_one", "black_two",
                   *(f"roll_{face}" for face in FACES), "white_to_move", "observer_white")
    grid = (1, len(SQUARES))

    def fill(self, out: np.ndarray, state: RaceState, observer: str | None) -> None:
        for side, mine in enumerate(state.tokens):
            for square in set(mine):
                out[2 * side + mine.count(square) - 1, 0, square] = 1.0
        if state.roll:
            out[4 + state.roll - 1] = 1.0
        out[7] = state.side == WHITE
        out[8] = observer == "white"
