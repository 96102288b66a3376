"""Compile and exercise every game's kernels before the server takes requests, so that no
request ever waits for numba; and compute the home page's board pictures, so that a cold
server answers them at once."""

from __future__ import annotations

import random
from functools import lru_cache

import orjson

from ..core.errors import LudothekError
from ..core.registry import game_class, games
from .boards import adapter, legal_move_infos
from .service import client_options, game_catalog

#: the options the home page (static/js/home.js) draws its pictures with, where a game has them
HOME_PICTURE_OPTIONS = {"size": "7"}


def warm_up(plies: int = 40) -> list[str]:
    """Play a short random game of each registered game through the paths a request uses
    (legal moves, notation, position, the web board and its threats), then cache each game's
    picture for the home page (:func:`preview_json`) and read the catalogue the home page asks
    for first. Returns the games warmed."""
    rng = random.Random(0)
    warmed = []
    for name in games():
        try:
            cls = game_class(name)
            ad = adapter(name)
        except Exception:  # noqa: BLE001, S112 - a game being written may not import yet
            continue
        state = cls()
        for _ in range(plies):
            if state.is_over():
                break
            legal_move_infos(state, ad)
            ad.threatened(state, ad.board(state))
            if state.current_player() < 0:
                actions, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(actions, weights)[0])
            else:
                state.play(rng.choice(state.legal_moves()))
        state.position()
        state.key()
        warmed.append(name)
        home_preview(name)
    game_catalog()
    return warmed


def home_preview(name: str) -> bytes | None:
    """The picture of ``name``'s starting position that the home page asks for (cached)."""
    names = {option.name for option in game_class(name).OPTIONS}
    options = tuple(sorted((k, v) for k, v in HOME_PICTURE_OPTIONS.items() if k in names))
    try:
        return preview_json(name, options, None, (), False)
    except LudothekError:
        return None


def preview_json(game: str, options: tuple[tuple[str, str], ...], position: str | None,
                 moves: tuple[str, ...], legal: bool) -> bytes:
    """A position's board as the browser draws it (``/api/preview``): the game's ``position``
    (None: the start) with ``options``, after ``moves`` in notation; with the legal moves if
    ``legal``. Bad input raises a :class:`~ludothek.core.errors.LudothekError` or a 400
    :class:`~.service.WebError` (an option the game does not have, or of the wrong type). The starting
    positions (the home page's pictures) are kept: they depend on the options alone."""
    if position is None and not moves and not legal:
        return _start_preview(game, options)
    return _preview(game, options, position, moves, legal)


@lru_cache(maxsize=128)
def _start_preview(game: str, options: tuple[tuple[str, str], ...]) -> bytes:
    return _preview(game, options, None, (), False)


def _preview(game: str, options: tuple[tuple[str, str], ...], position: str | None,
             moves: tuple[str, ...], legal: bool) -> bytes:
    cls = game_class(game)
    state = cls(position, **client_options(cls, dict(options), from_text=True))
    for move in moves:
        state.play(move)
    ad = adapter(cls.name)
    board = ad.board(state)
    return orjson.dumps({
        "game": cls.name, "geometry": ad.geometry(state.options), "board": board, "position": state.position(),
        "moves": legal_move_infos(state, ad) if legal else [],
        "to_move": state.to_move, "threatened": ad.threatened(state, board),
    })
