"""How long a move of Trike's MCTS (:mod:`.mcts3`) thinks under a time budget: the budget is an
average over the game, not a fixed share of every move.

* **Stop when settled.** The move played is the root's most visited child. Once its lead in
  visits is larger than the simulations left before the deadline (at the rate so far), no
  other child can overtake it: the rest of the move's time is saved, unless the choice is
  *unsettled* (below).
* **The bank.** The time a move saves (also one answered from the opening book or proven at
  once) is kept for later moves of the same game.
* **Think longer when unsettled.** When the budget's time is up and the choice is unsettled,
  the move may go on up to the budget plus what is in the bank, and never past twice the
  budget (:data:`..ai.budget.MOST_CRITICAL`). It draws only on time saved before, so a game's
  moves never think more than the budget times their number in all.
* **Lending** (``lend``, off by default). Most of the time saved comes in the endgame, once the
  position is proven, too late to spend. With lending, a move played while the pawn's region has
  more than :data:`ENDGAME_CELLS` empty cells thinks ``lend`` budgets longer on credit: the bank
  goes into debt, at most :data:`MOST_DEBT` budgets, which the endgame's quick moves pay back.
  A game that ends before they have may have thought up to that debt more than its budgets.

Unsettled (after Baier and Winands, *Time Management for Monte Carlo Tree Search*, 2016): the
runner-up has at least :data:`CLOSE` of the leader's visits, or a child with at least
:data:`BEHIND` of them has a better mean result than the leader (the visits have not yet
followed the values).
"""

from __future__ import annotations

import numpy as np

from ...ai.budget import MOST_CRITICAL
from .mcts3_kernels import region_at_most
from .mcts_kernels import COUNT, FIRST, VISITS

#: the runner-up's share of the leader's visits at which the choice counts as unsettled
CLOSE = 0.75
#: a child with this share of the leader's visits and a better mean unsettles the choice
BEHIND = 0.25
#: lending stops once the pawn's region has at most this many empty cells (the endgame)
ENDGAME_CELLS = 30
#: the most a game may borrow ahead, in budgets
MOST_DEBT = 10.0


class Bank:
    """The seconds saved by an agent's earlier moves of the game it is playing (negative: owed)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.floor = 0.0  # the lowest the balance may go

    def allow(self, clock, unsettled, lend: float = 0.0, endgame: bool = False) -> None:
        """Let ``clock`` run ``lend`` budgets past its budget (not in the ``endgame``), as far as
        the debt limit allows (from what is saved first), and further, up to what is left of
        the savings, while ``unsettled()``; never past twice the budget."""
        budget = clock.budget.seconds
        self.floor = -MOST_DEBT * budget if lend > 0.0 else 0.0
        credit = 0.0 if endgame else min(lend * budget, max(0.0, self.seconds - self.floor))
        clock.deadline += credit
        most = clock.started + budget * MOST_CRITICAL
        clock.hard = min(most, clock.deadline + max(0.0, self.seconds - credit))
        clock.critical = lambda: "unsettled" if unsettled() else None

    def settle(self, clock) -> None:
        """Book the move's saving (or what it drew on)."""
        self.seconds = max(self.floor, self.seconds + clock.budget.seconds - clock.elapsed())


def endgame(state) -> bool:
    """Whether the pawn's region has at most :data:`ENDGAME_CELLS` empty cells."""
    cells = state.board.shape[0]
    return bool(region_at_most(state.board, state.geometry.neighbours, int(state.pawn), ENDGAME_CELLS,
                               np.zeros(cells, np.int64), 1, np.empty(cells, np.int16)))


def _root_children(ints: np.ndarray, value: np.ndarray, sign: int) -> tuple[np.ndarray, np.ndarray]:
    first, count = int(ints[0, FIRST]), int(ints[0, COUNT])
    visits = ints[first:first + count, VISITS].astype(np.float64)
    means = sign * value[first:first + count] / np.maximum(visits, 1.0)
    return visits, means


def unsettled(ints: np.ndarray, value: np.ndarray, sign: int) -> bool:
    """Whether the root's choice is unsettled (see the module); ``sign`` +1 if Black moves."""
    return _unsettled(*_root_children(ints, value, sign))


def _unsettled(visits: np.ndarray, means: np.ndarray) -> bool:
    if visits.size < 2:
        return False
    order = np.argsort(visits)
    leader, runner_up = order[-1], order[-2]
    if visits[runner_up] >= CLOSE * visits[leader]:
        return True
    rivals = visits >= BEHIND * visits[leader]
    rivals[leader] = False
    return bool(np.any(means[rivals] > means[leader]))


def settled(ints: np.ndarray, value: np.ndarray, sign: int, clock) -> bool:
    """Whether the most visited child stays so until the deadline, and the choice is settled."""
    visits, means = _root_children(ints, value, sign)
    if visits.size < 2:
        return visits.size == 1
    elapsed = clock.elapsed()
    left = clock.count / max(elapsed, 1e-9) * max(clock.deadline - clock.started - elapsed, 0.0)
    top = np.partition(visits, -2)[-2:]
    return top[1] - top[0] > left and not _unsettled(visits, means)
