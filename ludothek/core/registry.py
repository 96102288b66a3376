"""The game registry: names to state classes, imported on first use so that
``import ludothek`` stays light."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGame
from .protocol import GameState

# name -> "module:Class"; each game adds one line here
_GAMES: dict[str, str] = {
    "trike": "ludothek.games.trike.state:TrikeState",
    "trigeo": "ludothek.games.trigeo.state:TrigeoState",
    "bitis": "ludothek.games.bitis.state:BitisState",
    "hexalit": "ludothek.games.hexalit.state:HexalitState",
}


def games() -> list[str]:
    """Names of all registered games."""
    return sorted(_GAMES)


def game_class(name: str) -> type[GameState]:
    key = str(name).strip().lower()
    if key not in _GAMES:
        raise UnknownGame(f"unknown game {name!r} (known games: {', '.join(games())})")
    module, _, cls = _GAMES[key].partition(":")
    return getattr(importlib.import_module(module), cls)


def new_game(name: str, position: str | None = None, **options: Any) -> GameState:
    """A new state of game ``name``: the start, or ``position`` if given."""
    return game_class(name)(position, **options)
