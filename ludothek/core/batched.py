"""What every game's batched class (:mod:`ludothek.vector`) shares: the seeded generator,
copies of the result arrays, the check of a step's actions against the legal masks, and (for
games that can be cut by a move limit) the step's results."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

import numpy as np

from .njit import njit
from .random_kernels import random_below


class Step(NamedTuple):
    """What ``step`` returns for a game that a move limit can cut (a game whose games
    always end may return a tuple without ``truncations``)."""

    observations: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray
    legal: np.ndarray


class BatchedGames:
    """A base for ``<Game>Vector`` classes; they set ``n``, ``copy``, ``num_actions``,
    ``legal`` (``int8 (n, num_actions)``) and ``_started``."""

    n: int
    copy: bool
    num_actions: int
    legal: np.ndarray
    _started: bool

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _seed(self, seed: int | None) -> None:
        # one uint64 splitmix64 state, drawn from numpy's seeding so that None means fresh
        self._random = np.random.default_rng(seed).integers(0, 2**63, size=1, dtype=np.int64).astype(np.uint64)

    def _checked(self, actions: np.ndarray) -> np.ndarray:
        """``actions`` as ``int64 (n,)``, each legal in its game; else an error naming the first
        game whose action is not, with nothing changed."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.n,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.n} integers, not {actions.dtype} of shape {actions.shape}")
        actions = actions.astype(np.int64, copy=False)
        outside = (actions < 0) | (actions >= self.num_actions)
        illegal = outside | (self.legal[np.arange(self.n), np.where(outside, 0, actions)] == 0)
        if illegal.any():
            game = int(np.flatnonzero(illegal)[0])
            raise ValueError(f"action {int(actions[game])} is not legal in game {game}")
        return actions


class LimitedGames(BatchedGames):
    """A base for the batched classes of games a move limit can cut (``max_plies``): the result
    arrays, ``reset``, ``step`` (returning :class:`Step`), ``sample_actions``, ``plies``.

    Each game keeps integers ``games[i]`` (``COLUMNS`` of them; ``PLY`` and ``COUNT`` name the
    columns of the plies played and of how many legal actions its list ``_moves[i]`` holds) and
    a hash of each of its positions, ``history[i, :max_plies + 1]``.  The class names its
    compiled kernels: ``_reset_kernel(*arrays)`` and ``_step_kernel(actions, *arrays,
    *step_arrays, rewards, terminations, truncations, final_observations, final_winners)``
    (``_step_kernel_parallel`` the same with ``prange``), ``arrays`` being :meth:`_arrays` and
    ``step_arrays`` what :meth:`_step_arrays` adds."""

    COLUMNS: ClassVar[int] = 4
    PLY: ClassVar[int]
    COUNT: ClassVar[int]
    MOVE_DTYPE: ClassVar[type] = np.int32
    HISTORY_DTYPE: ClassVar[type] = np.uint64
    _reset_kernel: ClassVar[Any]
    _step_kernel: ClassVar[Any]
    _step_kernel_parallel: ClassVar[Any]

    def _allocate(self, n: int, seed: int | None, parallel: bool, copy: bool, max_plies: int, num_actions: int,
                  observation_shape: tuple[int, ...], max_moves: int) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        self.n, self.copy, self.parallel = n, copy, parallel
        self.max_plies, self.num_actions, self.observation_shape = max_plies, num_actions, observation_shape
        self._seed(seed)
        self.games = np.zeros((n, self.COLUMNS), np.int64)
        self.history = np.zeros((n, max_plies + 1), self.HISTORY_DTYPE)
        self._moves = np.zeros((n, max_moves), self.MOVE_DTYPE)
        self.observations = np.zeros((n, *observation_shape), np.float32)
        self.final_observations = np.zeros_like(self.observations)
        self.legal = np.zeros((n, num_actions), np.int8)
        self.rewards = np.zeros((n, 2), np.float32)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self.final_winners = np.full(n, -1, np.int8)
        self.current_player = np.zeros(n, np.int8)
        self._started = False

    @property
    def plies(self) -> np.ndarray:
        """Plies played in each game since its start (as each game counts them: its module says)."""
        return self.games[:, self.PLY].copy()

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
        sample_listed(self.games[:, self.COUNT], self._moves, self._random, actions)
        return actions

    def _arrays(self) -> tuple:
        raise NotImplementedError  # each game's class lists its arrays

    def _step_arrays(self) -> tuple:
        return ()


#: how a step left a game (:func:`record_outcome`)
GOES_ON, WON, DRAWN, CUT = 0, 1, 2, 3


@njit(cache=True)
def record_outcome(i, outcome, winner, rewards, terminations, truncations, final_winners):
    """Write game ``i``'s results of this step: ``WON`` by seat ``winner``, ``DRAWN`` by the
    rules (a termination), ``CUT`` by the move limit (a truncation), or ``GOES_ON``; returns
    whether the game is over."""
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminations[i] = outcome == WON or outcome == DRAWN
    truncations[i] = outcome == CUT
    final_winners[i] = winner if outcome == WON else -1
    if outcome == WON:
        rewards[i, winner] = 1.0
        rewards[i, 1 - winner] = -1.0
    return outcome != GOES_ON


@njit(cache=True)
def sample_listed(counts, moves, random, out):
    """For each game ``i`` one of its ``counts[i]`` listed actions ``moves[i, :counts[i]]``,
    uniformly, drawn with the splitmix64 state ``random[0]`` (advanced)."""
    state = random[0]
    for i in range(counts.shape[0]):
        state, k = random_below(state, counts[i])
        out[i] = moves[i, k]
    random[0] = state


@njit(cache=True)
def occurrences(history, index, since, stride):
    """How often ``history[index]`` occurs among ``history[index], history[index - stride], …``
    down to ``since`` (a game whose hashes include the side to move may look at every second
    position only)."""
    seen = 0
    for k in range(index, since - 1, -stride):
        if history[k] == history[index]:
            seen += 1
    return seen
