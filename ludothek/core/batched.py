"""What every game's batched class (:mod:`ludothek.vector`) shares: the seeded generator,
copies of the result arrays, and the check of a step's actions against the legal masks."""

from __future__ import annotations

import numpy as np


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
