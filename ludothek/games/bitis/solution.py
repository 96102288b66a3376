"""Bitis solved: the table of game-theoretic values and best moves (:mod:`.perfect` plays
from it).

The table (computed by :mod:`.solve`) ships as ``bitis_solution.npz`` next to this module:
sorted canonical keys (uint32), values (int8: 1 win, 0 draw, -1 loss for the player to
move) and distances (int16, plies until the game ends under perfect play). It covers every
position with three dice on the board that is reachable from the start and not already over;
the few opening positions with fewer dice are evaluated by search on top of it. If the file is
missing, the table is computed (about a second once the kernels are compiled) and cached in
the user cache directory.

Use::

    from ludothek.games.bitis import perfect
    perfect.value("- - - - A")          # Value(outcome=..., distance=...)
    perfect.best_moves("- 43:9318 - IV B")

Values ignore the game's history (see :mod:`.solve` on repetition); the agent and
:meth:`Solution.move_values` on a state also count a placement that would repeat a position for the
third time as a draw.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import OptionError, PositionError
from . import kernels as K
from .solve import DRAW, LOSS, WIN, canonical_key
from .texts import TEXTS

if TYPE_CHECKING:  # the state validates positions with this table: no import at run time
    from .state import BitisState

FORMAT = 1
SHIPPED = Path(__file__).with_name("bitis_solution.npz")


@dataclass(frozen=True, order=False)
class Value:
    """A game-theoretic value for the player to move: ``outcome`` 1 win, 0 draw, -1 loss;
    ``distance`` the plies until the game ends with perfect play (None for a draw)."""

    outcome: int
    distance: int | None

    def __str__(self) -> str:
        if self.outcome == DRAW:
            return "draw"
        word = "win" if self.outcome == WIN else "loss"
        return f"{word} in {self.distance}"

    @property
    def rank(self) -> int:
        """Larger is better for the player to move: quick wins, then draws, then slow losses."""
        if self.outcome == WIN:
            return 10_000 - self.distance
        if self.outcome == LOSS:
            return -10_000 + self.distance
        return 0

    def after_move(self) -> "Value":
        """The value for the player who made the move leading to a position of this value."""
        if self.outcome == DRAW:
            return self
        return Value(-self.outcome, self.distance + 1)

    def score(self) -> float:
        """In [-1, 1] for :class:`Analysis`: a quick win near 1, a quick loss near -1; slower
        results lie nearer 0, so a slow loss scores above a quick one."""
        if self.outcome == DRAW:
            return 0.0
        return self.outcome * (1.0 - min(self.distance, 99) / 200)


def _cache_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ludothek" / f"bitis_solution_v{FORMAT}.npz"


class Solution:
    """The solved table with look-ups for positions and states."""

    def __init__(self, keys: np.ndarray, value: np.ndarray, distance: np.ndarray):
        self.keys = np.asarray(keys, dtype=np.uint32)
        self.values = np.asarray(value, dtype=np.int8)
        self.distances = np.asarray(distance, dtype=np.int16)
        self._keys64 = self.keys.astype(np.int64)
        self._opening: dict[Any, Value] = {}

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    # ------------------------------------------------------------------ files
    @classmethod
    def load(cls, path: str | os.PathLike) -> "Solution":
        with np.load(path) as data:
            if int(data["format"]) != FORMAT:
                raise OptionError(TEXTS("solution_format", path=path, found=int(data["format"]), expected=FORMAT))
            return cls(data["keys"], data["value"], data["distance"])

    def save(self, path: str | os.PathLike) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            np.savez_compressed(
                handle, format=np.int64(FORMAT), keys=self.keys, value=self.values, distance=self.distances
            )

    @classmethod
    def compute(cls, progress=None) -> "Solution":
        from .solve import solve

        result = solve(progress)
        return cls(result["keys"], result["value"], result["distance"])

    def same_as(self, other: "Solution") -> bool:
        return (
            np.array_equal(self.keys, other.keys)
            and np.array_equal(self.values, other.values)
            and np.array_equal(self.distances, other.distances)
        )

    # ------------------------------------------------------------------ look-ups
    def index(self, cells, ors, last: int, mover: int) -> int:
        """Row of a position with three dice (not over) in the table; -1 if unreachable."""
        key = int(canonical_key(cells, ors, last, mover))
        i = int(np.searchsorted(self._keys64, key))
        if i < len(self) and self._keys64[i] == key:
            return i
        return -1

    def reachable(self, state: BitisState) -> bool:
        """Whether a position with three dice can arise from the start. One that a base line
        placement ended needs a reachable position before it from which that placement is legal."""
        if not K.ended_by_placement(state.cells, state.last):
            return self.index(state.cells, state.ors, state.last, state.mover) >= 0
        die = state.last
        action = die * 576 + int(state.cells[die]) * 24 + int(state.ors[die])
        cells = state.cells.copy()
        ors = state.ors.copy()
        for cell in range(24):
            if cell in (int(c) for c in state.cells):
                continue
            cells[die] = cell
            for orientation in range(24):
                ors[die] = orientation
                for before in range(3):
                    if before == die or self.index(cells, ors, before, 1 - state.mover) < 0:
                        continue
                    if K.diagnose(cells, ors, before, action)[0] == K.OK:
                        return True
        return False

    def state_value(self, state: BitisState) -> Value:
        """The value of ``state`` for the player to move, ignoring history; a game already
        over counts as a win or loss in 0. Raises OptionError for unreachable positions."""
        if K.ended_by_placement(state.cells, state.last) or not K.has_move(state.cells, state.ors, state.last):
            won = state.winner()
            return Value(WIN if won == state.colours[state.mover] else LOSS, 0)
        if state.dice_on_board() == 3:
            i = self.index(state.cells, state.ors, state.last, state.mover)
            if i < 0:
                raise PositionError(TEXTS("unsolved", position=repr(state.position())))
            return Value(int(self.values[i]), None if self.values[i] == DRAW else int(self.distances[i]))
        key = state.key()
        if key not in self._opening:
            best: Value | None = None
            for action in _actions(state):
                token = state._apply(action)
                child = self.state_value(state).after_move()
                state._unapply(token)
                if best is None or child.rank > best.rank:
                    best = child
            self._opening[key] = best  # type: ignore[assignment]
        return self._opening[key]

    def move_values(self, state: BitisState) -> dict[int, Value]:
        """For each legal action, the value it gives the player making it. A placement that
        would bring a position about for the third time counts as a draw."""
        result: dict[int, Value] = {}
        for action in state.legal_actions():
            token = state._apply(action)
            if state.repetitions() >= 2:
                result[action] = Value(DRAW, None)
            else:
                result[action] = self.state_value(state).after_move()
            state._unapply(token)
        return result

    def best_actions(self, state: BitisState) -> list[int]:
        values = self.move_values(state)
        if not values:
            return []
        top = max(v.rank for v in values.values())
        return [a for a, v in values.items() if v.rank == top]


def _actions(state: BitisState) -> list[int]:
    count = K.gen_moves(state.cells, state.ors, state.last, state._buffer)
    return [int(a) for a in state._buffer[:count]]


@lru_cache(maxsize=1)
def get_solution() -> Solution:
    """The solved table: the shipped file, else the user cache, else computed (and cached)."""
    for path in (SHIPPED, _cache_path()):
        if path.exists():
            try:
                return Solution.load(path)
            except (OSError, ValueError, KeyError, OptionError):
                continue
    solved = Solution.compute()
    try:
        solved.save(_cache_path())
    except OSError:
        pass
    return solved
