"""The game registry: every game is a plugin, found through the ``ludothek.games``
entry-point group (``importlib.metadata``). An entry point names a :class:`GameSpec`; the
built-in games are declared in ``pyproject.toml`` exactly like a third party's. Specs are
light: a game's state class and its other parts are imported on first use."""

from __future__ import annotations

import warnings
from functools import lru_cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from .errors import UnknownGame
from .spec import GameSpec, load_target
from .texts import TEXTS

if TYPE_CHECKING:
    from .protocol import GameState

GROUP = "ludothek.games"


@lru_cache(maxsize=None)
def _specs() -> dict[str, GameSpec]:
    found: dict[str, GameSpec] = {}
    for point in entry_points(group=GROUP):
        try:
            spec = point.load()
        except Exception as exc:  # noqa: BLE001 - one broken plugin must not hide the others
            warnings.warn(f"game plugin {point.name!r} ({point.value}) does not load: {exc}", RuntimeWarning, stacklevel=2)
            continue
        if not isinstance(spec, GameSpec) or spec.name != point.name:
            warnings.warn(f"game plugin {point.name!r} ({point.value}) is not a GameSpec named {point.name!r}",
                          RuntimeWarning, stacklevel=2)
            continue
        if spec.name in found:
            warnings.warn(f"two game plugins are named {spec.name!r}; keeping {found[spec.name].state}",
                          RuntimeWarning, stacklevel=2)
            continue
        found[spec.name] = spec
    return found


def games() -> list[str]:
    """Names of all installed games, in the order people see them."""
    specs = _specs()
    return sorted(specs, key=lambda name: (specs[name].order, name))


def game_spec(name: str) -> GameSpec:
    key = str(name).strip().lower()
    specs = _specs()
    if key not in specs:
        known = ", ".join(games()) or TEXTS("no_games")
        raise UnknownGame(TEXTS("unknown_game", game=repr(name), known=known))
    return specs[key]


@lru_cache(maxsize=None)
def _state_class(target: str) -> "type[GameState]":
    return load_target(target)


def game_class(name: str) -> "type[GameState]":
    return _state_class(game_spec(name).state)


def new_game(name: str, /, position: str | None = None, **options: Any) -> "GameState":
    """A new state of game ``name``: the start, or ``position`` if given. (``name`` only by
    position, so that an option called "name" is an unknown option, not a TypeError.)"""
    return game_class(name)(position, **options)
