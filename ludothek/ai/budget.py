"""How long an agent may think: a time limit, an iteration limit, or both.

An *iteration* is one MCTS simulation or one alpha-beta node. A budget with only an
iteration limit makes a seeded agent fully reproducible; a time limit makes it fit a clock.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass

from ..core.errors import OptionError
from ..core.texts import TEXTS

_SPEC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|ms|k|m)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Budget:
    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise OptionError(TEXTS("budget_empty"))
        if self.seconds is not None and not 0 < self.seconds < math.inf:  # nan fails both
            raise OptionError(TEXTS("budget_seconds", seconds=str(self.seconds)))
        if self.iterations is not None and self.iterations < 1:
            raise OptionError(TEXTS("budget_iterations", iterations=str(self.iterations)))

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

    def clock(self) -> "Clock":
        return Clock(self)

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return " / ".join(parts)


class Clock:
    """Counts iterations against a budget; ``done()`` once either limit is reached."""

    __slots__ = ("budget", "started", "deadline", "count", "limit")

    def __init__(self, budget: Budget):
        self.budget = budget
        self.started = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.started + budget.seconds
        self.limit = budget.iterations
        self.count = 0

    def tick(self, n: int = 1) -> None:
        self.count += n

    def done(self) -> bool:
        if self.limit is not None and self.count >= self.limit:
            return True
        # reading the clock costs little, but not nothing: look every 16 iterations
        return self.deadline is not None and (self.count & 15) == 0 and time.perf_counter() >= self.deadline

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        return time.perf_counter() - self.started
