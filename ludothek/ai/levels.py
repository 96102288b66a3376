"""Strength levels for people: ``bot:1`` (a beginner can win) to ``bot:5`` (the strongest
search that fits in at most 5 s a move on one core).

Each level is an algorithm and a budget; a game's spec (``GameSpec.levels``) replaces the
levels that suit it differently. The mapping comes from measured matches (``ludothek match
GAME bot:N bot:N-1``, reported on the bots issue). Levels 1–3 count iterations, so they play
the same way on every machine and are reproducible under a seed; levels 4–5 use the clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import OptionError
from ..core.registry import game_spec
from ..core.texts import TEXTS
from .base import Agent
from .budget import Budget


@dataclass(frozen=True)
class Level:
    algorithm: str  # "mcts", "uct", "alphabeta", or an agent the game's spec adds (e.g. a solved table)
    budget: Budget


_DEFAULT = {
    1: Level("uct", Budget(iterations=25)),
    2: Level("mcts", Budget(iterations=300)),
    3: Level("mcts", Budget(iterations=3000)),
    4: Level("mcts", Budget(seconds=0.5)),
    5: Level("mcts", Budget(seconds=4.0)),
}

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
        from .base import make_agent

        agent = make_agent(spec.algorithm, game, seed)
    agent.name = f"bot:{level}"
    return agent
