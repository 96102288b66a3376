"""What the dice games' batched classes (``ludothek/games/{trigeo,hexalit}/vector.py``) share:
the arrays of ``n`` games from the start position, ``reset``, ``step``, ``sample_actions``.

A game's class names its state and encoder classes and its compiled kernels:
``_reset_kernel(*arrays)`` and ``_step_kernel(actions, *arrays, *step_arrays, rewards,
terminations, truncations, final_observations, final_winners)`` (and ``_step_kernel_parallel``,
the same with ``prange``), where ``arrays`` is :meth:`DiceVector._arrays` and ``step_arrays``
what :meth:`DiceVector._step_arrays` adds."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

import numpy as np
from numba import njit

from ...core.batched import BatchedGames
from ...core.random_kernels import random_below
from .kernels import CELLS, MAX_MOVES
from .observe import COLUMN, ROW
from .vector_kernels import CELL, PLANES

#: the first columns of every game's integers (a game may add more after them); COUNT: how
#: many legal actions the game's list (``_moves``) holds
SIDE, PLY, SINCE, COUNT = 0, 1, 2, 3


class Step(NamedTuple):
    observations: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray
    legal: np.ndarray


class DiceVector(BatchedGames):
    STATE: ClassVar[type]
    ENCODER: ClassVar[type]
    #: how many integers each game keeps (``games`` has this many columns)
    COLUMNS: ClassVar[int] = 4
    _reset_kernel: ClassVar[Any]
    _step_kernel: ClassVar[Any]
    _step_kernel_parallel: ClassVar[Any]

    def __init__(self, n: int, seed: int | None, parallel: bool, copy: bool, **options: Any):
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        probe = self.STATE(**options)  # checks the options
        encoder = self.ENCODER(probe.options)
        assert encoder.planes == PLANES, "the vector writes the encoder's planes"
        self.n, self.copy, self.parallel = n, copy, parallel
        self.options = dict(probe.options)
        self.max_plies = int(probe.options["max_plies"])
        self.num_actions = probe.num_actions
        self.observation_shape = encoder.shape
        self._rows, self._columns = ROW.astype(np.int64), COLUMN.astype(np.int64)
        self._start_board = probe.board.copy()
        self._start_side = np.int64(probe.side)
        # the planes that are the same in every position (cell, up, jump)
        self._board_planes = encoder.encode(probe, 0)[CELL: CELL + 3].copy()
        self._seed(seed)
        self.boards = np.zeros((n, CELLS), np.int8)
        self.games = np.zeros((n, self.COLUMNS), np.int64)
        self.history = np.zeros((n, self.max_plies + 1), np.uint64)  # a hash per position
        self._moves = np.zeros((n, MAX_MOVES), np.int32)
        self.observations = np.zeros((n, *encoder.shape), np.float32)
        self.final_observations = np.zeros_like(self.observations)
        self.legal = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros((n, 2), np.float32)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self.final_winners = np.full(n, -1, np.int8)
        self.current_player = np.zeros(n, np.int8)
        self._started = False

    @property
    def plies(self) -> np.ndarray:
        """Plies (Hexalit: turns) played in each game since its start."""
        return self.games[:, PLY].copy()

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start every game afresh; returns (observations, legal masks)."""
        if seed is not None:
            self._seed(seed)
        self._reset_kernel(*self._arrays())
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.truncations[:] = False
        self.final_winners[:] = -1
        self._started = True
        return self._out(self.observations), self._out(self.legal)

    def step(self, actions: np.ndarray) -> Step:
        """Play one action in every game (see the game's module for what comes back)."""
        actions = self._checked(actions)
        stepper = self._step_kernel_parallel if self.parallel else self._step_kernel
        stepper(actions, *self._arrays(), *self._step_arrays(), self.rewards, self.terminations, self.truncations,
                self.final_observations, self.final_winners)
        return Step(self._out(self.observations), self._out(self.rewards), self._out(self.terminations),
                    self._out(self.truncations), self._out(self.legal))

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, from the vector's seeded generator."""
        actions = np.empty(self.n, np.int64)
        _sample(self.games, self._moves, self._random, actions)
        return actions

    def _arrays(self) -> tuple:
        raise NotImplementedError

    def _step_arrays(self) -> tuple:
        return ()


@njit(cache=True)
def _sample(games, moves, random, out):
    """Uniform legal actions from the games' lists."""
    state = random[0]
    for i in range(games.shape[0]):
        state, k = random_below(state, games[i, COUNT])
        out[i] = moves[i, k]
    random[0] = state
