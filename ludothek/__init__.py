"""Ludothek: play, analyse and study abstract board games (``games()`` lists those installed)."""

from .core import jit_cache

jit_cache.configure()  # before any kernel module imports numba

# Import the games package first: importing it later would rebind the name ``games``
# from the registry function to the package.
from . import games as _games_package  # noqa: F401
from .core.errors import (
    GameOver,
    IllegalMove,
    LudothekError,
    OptionError,
    ParseError,
    PositionError,
    RecordError,
    UnknownGame,
)
from .core.protocol import CHANCE, TERMINAL, GameState
from .core.record import Record, dump, dumps, load, loads
from .core.registry import game_class, games, new_game

__version__ = "0.1.0"

# OpenSpiel users: pyspiel.load_game("ludothek_trike(size=9)") works once both are imported,
# in either order (registered when pyspiel loads; nothing is imported here otherwise)
from .integrations import _pyspiel_hook

_pyspiel_hook.install()

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameOver",
    "GameState",
    "IllegalMove",
    "LudothekError",
    "OptionError",
    "ParseError",
    "PositionError",
    "Record",
    "RecordError",
    "UnknownGame",
    "dump",
    "dumps",
    "game_class",
    "games",
    "load",
    "loads",
    "new_game",
]
