"""Strength levels for people: ``bot:1`` (the weakest) to ``bot:8``, each level winning
65–85% of its games against the one below (the ladder, ``docs/LADDER.md``, measured with
``benchmarks/ladder.py``).

Each level is an algorithm and a budget; a game's spec (``GameSpec.levels``) replaces the
levels that suit it differently. Levels 1–5 count iterations, not seconds, so they play the
same way on every machine and are reproducible under a seed, and a busy server does not make
them weaker. Levels 6–8 think for a time (:data:`THINKING`: about 0.5, 2 and 8 seconds a
move): their strength depends on the machine and they are not reproducible. The dice games
give them up to twice that on critical turns (:mod:`.timing`); a game's own MCTS may stop a
settled move early and spend the time saved on unsettled ones, up to twice the budget, so its
moves think at most their budgets in all (docs/LEVELS.md); a solved game's table answers at
once, its budget only a cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import OptionError
from ..core.registry import game_spec
from ..core.texts import TEXTS
from .base import Agent
from .budget import MOST_CRITICAL, Budget


@dataclass(frozen=True)
class Level:
    algorithm: str  # "mcts", "uct", "alphabeta", or an agent the game's spec adds (a solved table, a learned evaluation)
    budget: Budget


#: MCTS simulations about 2.5 times those of the level below (measured on the triangle game)
_DEFAULT = {
    1: Level("mcts", Budget(iterations=100)),
    2: Level("mcts", Budget(iterations=300)),
    3: Level("mcts", Budget(iterations=800)),
    4: Level("mcts", Budget(iterations=2000)),
    5: Level("mcts", Budget(iterations=5000)),
}

#: the seconds a move of the time-budgeted levels
THINKING = {6: 0.5, 7: 2.0, 8: 8.0}
_DEFAULT.update({level: Level("mcts", Budget(seconds=seconds)) for level, seconds in THINKING.items()})


def timed_levels(algorithm: str) -> dict[int, tuple[str, dict]]:
    """Levels 6-8 for a game's spec (``GameSpec.levels``): ``algorithm`` with the budgets of
    :data:`THINKING`, up to twice that on a move its search judges to need it."""
    return {level: (algorithm, {"seconds": seconds, "critical": MOST_CRITICAL}) for level, seconds in THINKING.items()}

LEVELS = tuple(sorted(_DEFAULT))


def level_of(game: str, level: int) -> Level:
    if level not in _DEFAULT:
        raise OptionError(TEXTS("bot_level", most=max(LEVELS), level=str(level)))
    own = game_spec(game).levels.get(level)
    if own is None:
        return _DEFAULT[level]
    algorithm, budget = own
    return Level(algorithm, Budget(**budget))


def level_agent(game: str, level: int, seed: int | None = None) -> Agent:
    spec = level_of(game, level)
    if spec.algorithm == "alphabeta":
        from .alphabeta import AlphaBetaAgent

        agent: Agent = AlphaBetaAgent(game, seed, spec.budget)
    elif spec.algorithm == "uct":
        from .mcts import plain_uct

        agent = plain_uct(game, seed, spec.budget)
    elif spec.algorithm == "mcts":
        from .mcts import MCTSAgent

        agent = MCTSAgent(game, seed, spec.budget)
    else:
        agent = agent_with_budget(spec.algorithm, game, seed, spec.budget)
    agent.name = f"bot:{level}"
    return agent


def agent_with_budget(name: str, game: str, seed: int | None, budget: Budget) -> Agent:
    """An agent the game's spec adds (its own search, or a solved table), with this budget
    in place of its default one (an agent without a budget keeps none)."""
    from .base import make_agent

    agent = make_agent(name, game, seed)
    if agent.budget is not None:
        agent.budget = budget
    return agent
