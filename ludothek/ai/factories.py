"""Agent factories named in :data:`ludothek.ai.base._AGENTS`: ``mcts``, ``uct``,
``alphabeta``, ``alphabeta-py`` (each with an optional budget argument) and ``bot`` (a level
1..8)."""

from __future__ import annotations

from ..core.errors import OptionError
from ..core.registry import game_class
from ..core.texts import TEXTS
from .base import Agent
from .budget import Budget


def _budget(argument: str | None, default: Budget) -> Budget:
    return default if not argument else Budget.parse(argument)


def mcts_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    from .mcts import MCTSAgent

    game_class(game)  # an unknown game fails here, with the list of games
    return MCTSAgent(game, seed, _budget(argument, Budget(seconds=1.0)))


def uct_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    from .mcts import plain_uct

    game_class(game)
    return plain_uct(game, seed, _budget(argument, Budget(seconds=1.0)))


def alphabeta_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    from .alphabeta import AlphaBetaAgent

    game_class(game)
    return AlphaBetaAgent(game, seed, _budget(argument, Budget(seconds=1.0)))


def alphabeta_py_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    """The Python alpha-beta even where the game has a compiled one (the reference)."""
    from .alphabeta import AlphaBetaAgent

    game_class(game)
    return AlphaBetaAgent(game, seed, _budget(argument, Budget(seconds=1.0)), compiled=False, label="alphabeta-py")


def bot_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    from .levels import LEVELS, level_agent

    if argument is None:
        raise OptionError(TEXTS("bot_needs_level", most=max(LEVELS)))
    try:
        level = int(argument)
    except ValueError:
        raise OptionError(TEXTS("bot_level_number", most=max(LEVELS), argument=repr(argument))) from None
    game_class(game)
    return level_agent(game, level, seed)
