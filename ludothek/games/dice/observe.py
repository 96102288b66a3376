"""The observation layout shared by the dice games on the 66-triangle board.

Grid ``6 x 13``: cell ``(row, column)`` of :mod:`ludothek.boards.triangle66` (rows A..F,
columns 1..13) is ``[row - 1, column - 1]``; squares off the hexagon stay zero. Planes, in
order:

* ``white_1`` .. ``white_6``, ``black_1`` .. ``black_6`` — a die of that colour whose top
  face is 1..6;
* ``temporary`` — a die whose face was rolled and is temporary;
* ``rolling`` — the die whose roll waits for its outcome (at a chance node);
* ``cell`` — the 66 cells of the board; ``up`` — the up triangles; ``jump`` — jump fields;
* ``white_to_move`` — whose turn it is (constant plane);
* ``observer_white`` — the observing seat holds White (constant);
* ``cube_offer`` — an offer to double waits for take/drop (constant);
* ``stake`` — log2(stake) / 6 (constant);
* ``observer_to_act`` — shared by all games (:mod:`ludothek.integrations.observe`).

:class:`DiceEncoder` fills the dice, the board and the side to move; a game whose rules have
temporary faces, rolls or a cube fills those planes too, and leaves them zero otherwise.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ...boards import triangle66 as T
from ...core.protocol import GameState
from ...integrations.observe import Encoder
from .kernels import WHITE

#: grid row and column of every cell index
ROW = np.array([r - 1 for r, _ in T.COORDS], dtype=np.intp)
COLUMN = np.array([c - 1 for _, c in T.COORDS], dtype=np.intp)


PLANES = (
    *(f"white_{f}" for f in range(1, 7)),
    *(f"black_{f}" for f in range(1, 7)),
    "temporary",
    "rolling",
    "cell",
    "up",
    "jump",
    "white_to_move",
    "observer_white",
    "cube_offer",
    "stake",
)
TEMPORARY, ROLLING, CELL, WHITE_TO_MOVE, OBSERVER_WHITE, CUBE_OFFER, STAKE = (
    PLANES.index(name)
    for name in ("temporary", "rolling", "cell", "white_to_move", "observer_white", "cube_offer", "stake")
)


class DiceEncoder(Encoder):
    game_planes = PLANES
    grid = (6, 13)
    #: cell indices of the board's jump fields (plane ``jump``)
    jump_cells: ClassVar[tuple[int, ...]] = ()

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        jumps = np.array(self.jump_cells, dtype=np.intp)
        # the planes ``cell``, ``up`` and ``jump``, the same in every position
        self._board_planes = np.zeros((3, *self.grid), np.float32)
        self._board_planes[0, ROW, COLUMN] = 1.0
        self._board_planes[1, ROW, COLUMN] = T.UP
        self._board_planes[2, ROW[jumps], COLUMN[jumps]] = 1.0

    def fill(self, out: np.ndarray, state: GameState, observer: str | None) -> None:
        board = state.board  # +face White, -face Black, 0 empty
        cells = np.flatnonzero(board)
        values = board[cells].astype(np.intp)
        # White's face f is plane f - 1, Black's (value -f) plane 6 + f - 1
        out[np.where(values > 0, values - 1, 5 - values), ROW[cells], COLUMN[cells]] = 1.0
        out[CELL : CELL + 3] = self._board_planes
        out[WHITE_TO_MOVE] = state.side == WHITE
        out[OBSERVER_WHITE] = observer == "white"
