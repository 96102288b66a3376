"""Perfect play from the solved table (:mod:`.solution`): values and best moves of positions
given as text or states, principal lines, and the ``perfect`` agent."""

from __future__ import annotations

from ...ai.base import Agent, Analysis
from ...core.errors import OptionError
from .solution import Value, get_solution
from .solve import DRAW
from .state import BitisState
from .texts import TEXTS


def _state(position: str | BitisState) -> BitisState:
    if isinstance(position, BitisState):
        return position
    return BitisState(position)


def value(position: str | BitisState) -> Value:
    """The game-theoretic value of a position string or state for the player to move (a
    state whose game ended by threefold repetition is a draw)."""
    state = _state(position)
    if state.is_over() and state.winner() is None:
        return Value(DRAW, None)
    return get_solution().state_value(state)


def best_moves(position: str | BitisState) -> list[str]:
    """The perfect moves (quickest win, else a draw, else the slowest loss), as notation."""
    state = _state(position)
    return sorted(state.action_to_str(a) for a in get_solution().best_actions(state))


def principal_line(state: BitisState, limit: int = 40) -> list[int]:
    """A line of perfect play from ``state`` (first best move each ply), at most ``limit`` plies."""
    line: list[int] = []
    work = state.copy()
    solved = get_solution()
    while len(line) < limit and not work.is_over():
        action = solved.best_actions(work)[0]
        line.append(action)
        work.apply_action(action)
    return line


class PerfectAgent(Agent):
    """Plays Bitis perfectly from the solved table: wins as fast as possible, holds a draw,
    loses as slowly as possible. Ties are broken at random (seeded)."""

    name = "perfect"

    def analyse(self, state) -> Analysis:
        if not isinstance(state, BitisState):
            raise OptionError(TEXTS("perfect_bitis_only"))
        self.check_turn(state)
        values = get_solution().move_values(state)
        top = max(v.rank for v in values.values())
        best = self.rng.choice(sorted(a for a, v in values.items() if v.rank == top))
        work = state.copy()
        work.apply_action(best)
        line = [best] + principal_line(work, 20)
        scores = {a: v.score() for a, v in values.items()}
        return Analysis(best=best, scores=scores, line=line, value=scores[best], iterations=len(values))


def perfect_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    if argument:
        raise OptionError(TEXTS("perfect_argument", argument=repr(argument)))
    return PerfectAgent(seed)
