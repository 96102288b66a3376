"""Trike's observation tensor for the research adapters (OpenSpiel, PettingZoo).

Grid ``size x size``: cell ``(row r, column c)`` of the triangle (``c <= r``) is ``[r, c]``;
the squares right of the diagonal stay zero. Planes, in order:

* ``black``, ``white`` — the stones;
* ``pawn`` — the cell of the neutral pawn;
* ``empty`` — the empty cells of the triangle;
* ``black_to_move`` — Black places the next stone (constant plane);
* ``swapped`` — the pie rule was used (constant);
* ``observer_black`` — the observing seat holds Black (constant);
* ``observer_to_act`` — shared by all games (:mod:`ludothek.integrations.observe`).

Actions for the adapters: ``num_actions`` is the number of cells plus one, the last being
``swap``; a game never lasts longer than that (every cell once, plus swap).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...boards.hex_triangle import hex_triangle
from ...integrations.observe import Encoder
from .kernels import BLACK, EMPTY, WHITE
from .state import TrikeState


class TrikeEncoder(Encoder):
    game_planes = ("black", "white", "pawn", "empty", "black_to_move", "swapped", "observer_black")

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        size = int(options["size"])
        self.grid = (size, size)
        coords = np.array(hex_triangle(size).coords, dtype=np.intp)
        self._rows, self._columns = coords[:, 0], coords[:, 1]

    def fill(self, out: np.ndarray, state: TrikeState, observer: str | None) -> None:
        board = state.board
        if len(board) != len(self._rows):
            raise ValueError(
                f"this encoder is for size {self.grid[0]}, the state's board has size {state.geometry.side}"
            )
        for plane, stone in ((0, BLACK), (1, WHITE), (3, EMPTY)):
            cells = board == stone
            out[plane, self._rows[cells], self._columns[cells]] = 1.0
        if state.pawn >= 0:
            out[2, self._rows[state.pawn], self._columns[state.pawn]] = 1.0
        out[4] = state.colour_to_move == BLACK
        out[5] = state.swapped
        out[6] = observer == "black"
