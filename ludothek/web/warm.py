"""Compile and exercise every game's kernels before the server takes requests, so that no
request ever waits for numba; and compute the home page's board pictures, so that a cold
server answers them at once."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import threading
import time
from functools import lru_cache
from typing import Any

import orjson

from ..core.errors import LudothekError
from ..core.jit_cache import compile_once
from ..core.registry import game_class, games
from .boards import adapter, legal_move_infos
from .service import client_options, game_catalog

#: the options the home page (static/js/home.js) draws its pictures with, where a game has them
HOME_PICTURE_OPTIONS = {"size": "7"}

log = logging.getLogger("ludothek.web")


#: the requests that never run a game's rules, answered while the server warms up
NO_GAME_CODE = ("/static/", "/api/me", "/api/signup", "/api/login", "/api/logout", "/api/catalog", "/api/i18n",
                "/api/rules/", "/api/users/", "/api/leaderboard/")


def warm_up(plies: int = 40, done: Any = None) -> list[str]:
    """Play a short random game of each registered game through the paths a request uses
    (legal moves, notation, position, the web board and its threats), then cache each game's
    picture for the home page (:func:`preview_json`) and read the catalogue the home page asks
    for first. ``done(game)`` is called as each game is warm. Returns the games warmed."""
    warmed = []

    def warm(name: str) -> None:
        if warm_game(name, plies):
            warmed.append(name)
            if done is not None:
                done(name)

    game_catalog()
    compile_once(games(), warm, kind="web")
    return warmed


def warm_game(name: str, plies: int = 40) -> bool:
    rng = random.Random(0)
    try:
        cls = game_class(name)
        ad = adapter(name)
    except Exception:  # noqa: BLE001 - a game being written may not import yet
        return False
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
    home_preview(name)
    return True


class Warming:
    """The server's :func:`warm_up`, in a background thread so that the server answers at once.
    Requests that run a game's rules wait for it (:class:`WarmGate`): a kernel compiled on the
    event loop would stall every other request. ``say(line)`` reports each game made ready."""

    def __init__(self, say: Any = None):
        self.say = say
        self._done = asyncio.Event()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def start(self, started: float) -> None:
        loop = asyncio.get_running_loop()

        def ready(name: str) -> None:
            if self.say is not None:
                self.say(f"warming up: {name} is ready to play ({time.perf_counter() - started:.1f} s)")

        def run() -> None:
            try:
                warm_up(done=ready)
            except Exception:  # noqa: BLE001 - requests then compile what they need
                log.warning("the warm-up failed", exc_info=True)
            finally:
                try:
                    loop.call_soon_threadsafe(self._done.set)
                except RuntimeError:  # the server stopped before its warm-up ended
                    pass

        threading.Thread(target=run, name="ludothek-warm-up", daemon=True).start()

    def skip(self) -> None:
        self._done.set()

    async def wait(self) -> None:
        await self._done.wait()


class WarmGate:
    """ASGI middleware: during the warm-up, a request that runs a game's rules waits for it."""

    def __init__(self, app: Any, warming: Warming):
        self.app = app
        self.warming = warming

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if (not self.warming.done and scope["type"] in ("http", "websocket")
                and scope["path"].startswith(("/api/", "/ws/")) and not scope["path"].startswith(NO_GAME_CODE)):
            await self.warming.wait()
        await self.app(scope, receive, send)


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


def compile_everything(jobs: int) -> float:
    """Compile (or load from the cache) every kernel the server and its bots use, then those of
    the research API (:func:`warm_research`), in ``jobs`` processes that share the work
    (``ludothek warm``); the seconds it took."""
    started = time.perf_counter()
    if jobs <= 1:
        _warm_everything(0)
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            pool.map(_warm_everything, range(jobs))
    return time.perf_counter() - started


def _warm_everything(_: int) -> None:
    from ..core import compile_notice
    from .botpool import warm_up as warm_bots

    compile_notice.install(only_terminal=True)
    warm_up()
    warm_bots()
    compile_once(games(), warm_research, kind="research")


def warm_research(name: str) -> None:
    """The kernels of game ``name`` that only the research API uses: its batched games
    (``ludothek.vector``) and perft."""
    from .. import vector

    try:
        vector.warm(name)
        game_class(name)().perft(2)
    except Exception:  # noqa: BLE001 - a game being written may not work yet; its first use compiles it
        log.warning("warming the research API of %s failed", name, exc_info=True)
