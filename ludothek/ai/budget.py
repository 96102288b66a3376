"""How long an agent may think: a time limit, an iteration limit, or both.

An *iteration* is one MCTS simulation or one alpha-beta node. A budget with only an
iteration limit makes a seeded agent fully reproducible; a time limit makes it fit a clock.

A time budget may allow more time on a *critical* turn (``critical``: a factor of at most
:data:`MOST_CRITICAL`, i.e. twice the budget): when the soft deadline comes, the clock asks
the search whether the turn is critical (:attr:`Clock.critical`, see :mod:`.timing`) and, if
so, moves its deadline once to the hard one. The clock reads the time through ``now`` (a
test gives it a fake clock, so that no test waits real seconds).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Callable

from ..core.errors import OptionError
from ..core.texts import TEXTS

#: a critical turn may think at most this many times the time budget
MOST_CRITICAL = 2.0

_SPEC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|ms|k|m)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Budget:
    seconds: float | None = None
    iterations: int | None = None
    #: a critical turn may think up to ``critical * seconds`` (1: never longer than the budget)
    critical: float = 1.0

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise OptionError(TEXTS("budget_empty"))
        if self.seconds is not None and not 0 < self.seconds < math.inf:  # nan fails both
            raise OptionError(TEXTS("budget_seconds", seconds=str(self.seconds)))
        if self.iterations is not None and self.iterations < 1:
            raise OptionError(TEXTS("budget_iterations", iterations=str(self.iterations)))
        if not 1.0 <= self.critical <= MOST_CRITICAL or (self.critical > 1.0 and self.seconds is None):
            raise OptionError(TEXTS("budget_critical", critical=str(self.critical), most=f"{MOST_CRITICAL:g}"))

    @classmethod
    def parse(cls, text: str) -> "Budget":
        """``"2s"``/``"500ms"`` is time, ``"800"``/``"20k"``/``"1m"`` is iterations."""
        match = _SPEC.match(str(text))
        if not match:
            raise OptionError(TEXTS("budget_text", text=repr(text)))
        number, unit = float(match.group(1)), (match.group(2) or "").lower()
        if unit == "s":
            return cls(seconds=number)
        if unit == "ms":
            return cls(seconds=number / 1000)
        scale = {"": 1, "k": 1000, "m": 1_000_000}[unit]
        return cls(iterations=max(1, int(number * scale)))

    def clock(self, now: Callable[[], float] | None = None) -> "Clock":
        return Clock(self, now)

    @property
    def most_seconds(self) -> float | None:
        """The longest a move may take: the budget, or more on a critical turn."""
        return None if self.seconds is None else self.seconds * self.critical

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
            if self.critical > 1.0:
                parts[-1] += f" (up to {self.most_seconds:g}s on critical turns)"
        return " / ".join(parts)


class Clock:
    """Counts iterations against a budget; ``done()`` once either limit is reached.

    ``critical``: set by a search that can judge its turn, a function returning why the turn
    is critical (a short word) or None; asked once, when the budget's time is up (only if the
    budget allows more on critical turns). ``extended`` is then its answer."""

    __slots__ = ("budget", "now", "started", "deadline", "hard", "count", "limit", "critical", "extended", "asked")

    def __init__(self, budget: Budget, now: Callable[[], float] | None = None):
        self.budget = budget
        self.now = now or time.perf_counter
        self.started = self.now()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds
        self.hard = None if budget.seconds is None else self.started + budget.most_seconds
        self.limit = budget.iterations
        self.count = 0
        self.critical: Callable[[], str | None] | None = None
        self.extended: str | None = None
        self.asked = False

    def tick(self, n: int = 1) -> None:
        self.count += n

    def done(self) -> bool:
        if self.limit is not None and self.count >= self.limit:
            return True
        # reading the clock costs little, but not nothing: look every 16 iterations
        return self.deadline is not None and (self.count & 15) == 0 and self._expired()

    def out_of_time(self) -> bool:
        return self.deadline is not None and self._expired()

    def _expired(self) -> bool:
        now = self.now()
        if now < self.deadline:
            return False
        if not self.asked and self.critical is not None and self.hard > self.deadline:
            self.asked = True
            self.extended = self.critical()
            if self.extended is not None:
                self.deadline = self.hard
                return now >= self.deadline
        return True

    def allowed(self) -> float | None:
        """The seconds this move may take now (the budget, or more once extended)."""
        return None if self.deadline is None else self.deadline - self.started

    def elapsed(self) -> float:
        return self.now() - self.started
