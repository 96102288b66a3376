"""When a turn is *critical*: the rule the time-budgeted levels of the dice games use to think
longer (up to twice their budget, :data:`.budget.MOST_CRITICAL`) on some turns.

Iterative deepening tells us how settled the search's opinion is. When the budget's time is
up, the turn counts as critical if, between the last two completed depths,

* ``"best_changed"`` — the best move changed: the deeper search found a refutation of the
  move it liked, and one more depth may overturn the choice again;
* ``"swing"`` — the best move's value moved by more than :data:`SWING` (on the [-1, 1]
  scale): something important lies just beyond the horizon;

or, in the depth that is running, ``"fail_low"`` — the previous best move, searched first,
came out more than :data:`SWING` worse than at the last depth: the search is about to find
a better move or to learn that the position is worse than it thought.

Close scores of the best moves are not used: past the first move the search proves only
bounds (a null window says "not better"), so the scores of the runner-ups are not exact.
Before the first depth is completed nothing is known and the turn is not critical. The
values are the mover's (higher is better).
"""

from __future__ import annotations

from typing import Callable

#: a change of the best move's value between two depths that makes a turn critical
SWING = 0.1


class CriticalTurn:
    """Fed by an iterative deepening search; called (by :class:`.budget.Clock` when the
    budget's time is up) it returns why the turn is critical, or None."""

    def __init__(self) -> None:
        self.completed: list[tuple[int, float]] = []  # (best move, its value) per completed depth
        #: the running depth's value of the previous best move once searched, else None
        self.running: Callable[[], float | None] | None = None

    def depth_done(self, best: int, value: float) -> None:
        self.completed.append((best, value))

    def __call__(self) -> str | None:
        if len(self.completed) >= 2:
            (before, old), (best, value) = self.completed[-2:]
            if best != before:
                return "best_changed"
            if abs(value - old) > SWING:
                return "swing"
        if self.completed and self.running is not None:
            now = self.running()
            if now is not None and now < self.completed[-1][1] - SWING:
                return "fail_low"
        return None


def next_depth_hopeless(clock) -> bool:
    """Whether iterative deepening should stop after a completed depth: a deeper iteration
    costs several times the last one, so with more than half the allowed time gone it would be
    cut off. A turn that is critical already counts with the time it will be allowed."""
    if clock.deadline is None:
        return False
    allowed = clock.allowed()
    if not clock.asked and clock.critical is not None and clock.hard > clock.deadline and clock.critical():
        allowed = clock.hard - clock.started
    return clock.elapsed() > 0.5 * allowed


def watch(clock) -> CriticalTurn | None:
    """A :class:`CriticalTurn` the clock asks at its deadline, if its budget allows more time
    on critical turns (else None)."""
    if clock.hard is None or clock.hard <= clock.deadline:
        return None
    turn = CriticalTurn()
    clock.critical = turn
    return turn
