"""What the dice games' batched classes (``ludothek/games/{trigeo,hexalit}/vector.py``) share
beyond :class:`~ludothek.core.batched.LimitedGames`: ``n`` games from the start position of a
state class with the options ``max_plies`` and ``first``, a board per game, the encoder's
constant planes."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ...core.batched import LimitedGames
from .kernels import CELLS, MAX_MOVES
from .observe import COLUMN, ROW
from .vector_kernels import CELL, PLANES

#: the first columns of every game's integers (a game may add more after them); COUNT: how
#: many legal actions the game's list (``_moves``) holds
SIDE, PLY, SINCE, COUNT = 0, 1, 2, 3


class DiceVector(LimitedGames):
    STATE: ClassVar[type]
    ENCODER: ClassVar[type]
    PLY, COUNT = PLY, COUNT

    def __init__(self, n: int, seed: int | None, parallel: bool, copy: bool, **options: Any):
        probe = self.STATE(**options)  # checks the options
        encoder = self.ENCODER(probe.options)
        assert encoder.planes == PLANES, "the vector writes the encoder's planes"
        self.options = dict(probe.options)
        self._allocate(n, seed, parallel, copy, int(probe.options["max_plies"]), probe.num_actions, encoder.shape,
                       MAX_MOVES)
        self._rows, self._columns = ROW.astype(np.int64), COLUMN.astype(np.int64)
        self._start_board = probe.board.copy()
        self._start_side = np.int64(probe.side)
        # the planes that are the same in every position (cell, up, jump)
        self._board_planes = encoder.encode(probe, 0)[CELL: CELL + 3].copy()
        self.boards = np.zeros((n, CELLS), np.int8)
