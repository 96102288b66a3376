"""Quick pairing (issue 32, item 1): buttons in the lobby, one per game and standard clock
(:data:`CLOCKS`); two logged-in players waiting at the same button get a rated game at once.

The rule: a player who presses a button is paired with someone already waiting there. When
only one other player waits, those two are paired whatever their ratings. When several wait,
he gets the one closest to his rating (in that game), if the difference is within
:data:`RANGE` points, widened by :data:`WIDEN` points for every 10 seconds the longer waiting
of the two has waited; otherwise he waits too, and every look at the lobby (every 1.5 s) tries
again with the wider range. Ties go to who waited longest. Colours are drawn at random. Two
players one of whom blocked the other (in the chat) are never paired.

A waiting player's page keeps his place (its lobby socket); a place not seen for
:data:`ABSENT_SECONDS` is dropped. A look at the lobby reads the places and writes only when
there is something to write: ``seen`` when it is older than :data:`REFRESH_SECONDS`, and the
places long gone every :data:`TIDY_SECONDS` (``benchmarks/quickpair_writes.py`` counts it). The waiting player hears of his game over that socket
(``{"type": "paired", "game": id}``); the one who pressed last gets it in the answer.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.websockets import WebSocket

from ..core.errors import LudothekError
from ..core.messages import Catalog
from ..ratings import Rating
from .chat import blocked_pairs
from .errors import WebError
from .lobby import send
from .service import GameService, game_and_options
from .store import Account, Store, games_table, hash_token, quick_pairing_table, ratings_table, users_table

TEXTS = Catalog("quickpair", {
    "login": ("log in to use quick pairing: its games are rated",
              "melde dich für die Schnellpaarung an: ihre Partien werden gewertet"),
    "clock": ("the clock must be one of {clocks}", "die Bedenkzeit muss eine von {clocks} sein"),
})

CLOCKS = ("3+2", "5+3", "10+5")
RANGE = 200
WIDEN = 50
ABSENT_SECONDS = 30
#: a waiting place's ``seen`` is written at most this often (well within ABSENT_SECONDS)
REFRESH_SECONDS = 5
#: how often a process drops the places not seen for ten times ABSENT_SECONDS
TIDY_SECONDS = 60


class _Taken(Exception):
    """A waiting player was paired by someone else meanwhile."""


def pool_key(game: str, clock: str) -> str:
    return f"{game}|{clock}"


def pick(me: dict[str, Any], others: list[dict[str, Any]], at: float) -> dict[str, Any] | None:
    """Whom ``me`` is paired with among ``others`` waiting at the same button (see the module)."""
    if len(others) == 1:
        return others[0]
    fits = []
    for other in others:
        waited = at - min(me["joined"], other["joined"])
        if abs(other["rating"] - me["rating"]) <= RANGE + WIDEN * int(waited // 10):
            fits.append(other)
    return min(fits, key=lambda o: (abs(o["rating"] - me["rating"]), o["joined"])) if fits else None


class QuickPairing:
    def __init__(self, store: Store, service: GameService, after_create: Callable[[str], Awaitable[Any]],
                 announce: Callable[[], Awaitable[Any]], now: Callable[[], float] = time.time):
        self.announce = announce  # tell the pages now (the lobby's refresh, which runs the hooks)
        self.store = store
        self.service = service
        self.after_create = after_create
        self.now = now
        # one pairing at a time here: a lobby look and a button press may otherwise pair the
        # same player, one of them before the game exists
        self._pairing = asyncio.Lock()
        self._tidied = float("-inf")

    async def join(self, user: Account, body: dict[str, Any]) -> dict[str, Any]:
        cls, _ = game_and_options({"game": body.get("game")})
        clock = body.get("clock")
        if clock not in CLOCKS:
            raise WebError(400, TEXTS("clock", clocks=", ".join(CLOCKS)))
        pool = pool_key(cls.name, clock)
        await asyncio.to_thread(self._enter, user, pool, cls.name)
        # or the game someone else's look or press paired him into meanwhile
        game_id = await self._try(user.id) or (await asyncio.to_thread(self._games_of, [user.id])).get(user.id)
        if game_id is not None:
            await asyncio.to_thread(self._forget, user.id)
            await self.announce()
            return {"game": game_id}
        return {"waiting": pool}

    async def leave(self, user: Account) -> None:
        await asyncio.to_thread(self._forget, user.id, True)

    def _forget(self, user_id: int, waiting_only: bool = False) -> None:
        q = quick_pairing_table.c
        query = delete(quick_pairing_table).where(q.user_id == user_id)
        if waiting_only:
            query = query.where(q.game_id.is_(None))
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(query)

    def _enter(self, user: Account, pool: str, game: str) -> None:
        q, r = quick_pairing_table.c, ratings_table.c
        at = self.now()
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            rating = conn.execute(select(r.value).where(r.user_id == user.id, r.game == game)).scalar()
            conn.execute(delete(quick_pairing_table).where(q.user_id == user.id, q.game_id.is_(None)))
            if conn.execute(select(q.user_id).where(q.user_id == user.id)).first() is None:
                conn.execute(insert(quick_pairing_table).values(
                    user_id=user.id, pool=pool, rating=rating if rating is not None else Rating().value,
                    joined=at, seen=at, game_id=None))

    def counts(self) -> dict[str, int]:
        q = quick_pairing_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = conn.execute(select(q.pool, func.count()).where(
                q.game_id.is_(None), q.seen > self.now() - ABSENT_SECONDS).group_by(q.pool)).all()
        return {pool: n for pool, n in rows}

    def waiting_for(self, user_id: int) -> str | None:
        q = quick_pairing_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return conn.execute(select(q.pool).where(q.user_id == user_id, q.game_id.is_(None))).scalar()

    async def _try(self, user_id: int) -> str | None:
        """Pair a waiting player if the rule allows; the new game's id, or None."""
        async with self._pairing:
            return await self._pair(user_id)

    async def _pair(self, user_id: int) -> str | None:
        paired = await asyncio.to_thread(self._claim, user_id)
        if paired is None:
            return None
        game_id, pool, users = paired
        seat = secrets.randbelow(2)
        owners: list[Account | None] = [None, None]
        owners[seat], owners[1 - seat] = users
        game, clock = pool.split("|")
        minutes, increment = clock.split("+")
        spec = {"game": game, "options": {}, "clock": {"minutes": int(minutes), "increment": int(increment)},
                "rated": True, "opponent": "friend", "seat": seat}
        try:
            await self.service.create(spec, user=users[0], owners=owners,
                                      paired=(game_id, hash_token(secrets.token_urlsafe(24))))
        except (WebError, LudothekError):
            await asyncio.to_thread(self._forget, users[1].id)
            raise
        await self.after_create(game_id)
        return game_id

    def _claim(self, user_id: int) -> tuple[str, str, tuple[Account, Account]] | None:
        at = self.now()
        try:
            return self._claim_in(user_id, at)
        except _Taken:  # someone was quicker: the transaction was rolled back
            return None

    def _claim_in(self, user_id: int, at: float) -> tuple[str, str, tuple[Account, Account]] | None:
        q = quick_pairing_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            me = conn.execute(select(quick_pairing_table).where(q.user_id == user_id, q.game_id.is_(None))).mappings().first()
            if me is None:
                return None
            others = [dict(o) for o in conn.execute(select(quick_pairing_table).where(
                q.pool == me["pool"], q.user_id != user_id, q.game_id.is_(None), q.seen > at - ABSENT_SECONDS)
                .order_by(q.joined)).mappings()]
            apart = blocked_pairs(conn, {user_id, *(o["user_id"] for o in others)})
            others = [o for o in others if frozenset((user_id, o["user_id"])) not in apart]
            other = pick(dict(me), others, at)
            if other is None:
                return None
            game_id = secrets.token_urlsafe(9)
            for who in (other["user_id"], user_id):  # both still waiting, or neither is taken
                taken = conn.execute(update(quick_pairing_table).where(q.user_id == who, q.game_id.is_(None))
                                     .values(game_id=game_id))
                if taken.rowcount != 1:
                    raise _Taken
            names = dict(conn.execute(select(users_table.c.id, users_table.c.name)
                                      .where(users_table.c.id.in_((user_id, other["user_id"])))).all())
        return game_id, me["pool"], (Account(user_id, names[user_id]), Account(other["user_id"], names[other["user_id"]]))

    async def hook(self, watchers: dict[WebSocket, Any]) -> None:
        """A lobby hook: keep the places of the players with a page here, pair the waiting
        ones the rule now allows, and take the paired ones to their game."""
        users = sorted({w.user.id for w in watchers.values() if w.user is not None})
        if not users:
            return
        places, ready = await asyncio.to_thread(self._places, users)
        made = False
        for user_id in ready:
            if places.get(user_id) is None:
                try:
                    places[user_id] = await self._try(user_id)
                except (WebError, LudothekError):
                    places[user_id] = None
                made = made or places[user_id] is not None
        if made:  # the partners (waiting at a page here too) hear of it now, not at the next look
            places.update(await asyncio.to_thread(self._games_of, users))
        told = set()
        for ws, watcher in watchers.items():
            game_id = places.get(watcher.user.id) if watcher.user is not None else None
            if game_id is not None:
                await send(ws, {"type": "paired", "game": game_id})
                told.add(watcher.user.id)
        if told:
            await asyncio.to_thread(self._done, sorted(told))

    def _places(self, users: list[int]) -> tuple[dict[int, str | None], list[int]]:
        """Each of ``users``' place (None: waiting, else the game he was paired into) and the
        waiting ones whom the rule pairs with someone now (longest waiting first): only those
        are tried, in a transaction of their own that looks again."""
        q = quick_pairing_table.c
        at = self.now()
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            mine = [dict(r) for r in conn.execute(select(quick_pairing_table, _game_made().label("made"))
                                                   .where(q.user_id.in_(users))).mappings()]
            waiting = [r for r in mine if r["game_id"] is None]
            pools = sorted({r["pool"] for r in waiting})
            others = [dict(r) for r in conn.execute(select(quick_pairing_table).where(
                q.pool.in_(pools), q.game_id.is_(None), q.seen > at - ABSENT_SECONDS)).mappings()] if pools else []
            apart = blocked_pairs(conn, {o["user_id"] for o in others}) if len(others) > 1 else set()
        ready = [r["user_id"] for r in sorted(waiting, key=lambda r: r["joined"])
                 if pick(r, [o for o in others if o["pool"] == r["pool"] and o["user_id"] != r["user_id"]
                             and frozenset((r["user_id"], o["user_id"])) not in apart], at)]
        old = [r["user_id"] for r in waiting if r["seen"] < at - REFRESH_SECONDS]
        tidy = at - self._tidied >= TIDY_SECONDS
        if old or tidy:
            with self.store._taking_turns(), self.store.engine.begin() as conn:
                if tidy:
                    conn.execute(delete(quick_pairing_table).where(q.seen < at - 10 * ABSENT_SECONDS))
                if old:
                    conn.execute(update(quick_pairing_table).where(q.user_id.in_(old), q.game_id.is_(None)).values(seen=at))
            if tidy:
                self._tidied = at
        return {r["user_id"]: r["game_id"] if r["made"] else None for r in mine}, ready

    def _games_of(self, users: list[int]) -> dict[int, str]:
        """The games these players were paired into (by anyone's look or press), if any."""
        q = quick_pairing_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return dict(conn.execute(select(q.user_id, q.game_id).where(q.user_id.in_(users), _game_made())).all())

    def _done(self, users: list[int]) -> None:
        q = quick_pairing_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(delete(quick_pairing_table).where(q.user_id.in_(users), q.game_id.is_not(None)))


def _game_made() -> Any:
    """Whether a quick-pairing row's game exists: a pairing names its game a moment before the
    game is made (by this server or another), and a page sent to it earlier would find no game."""
    return select(games_table.c.id).where(games_table.c.id == quick_pairing_table.c.game_id).exists()


def quick_routes(quick: QuickPairing, handler: Callable[[Any], Any],
                 viewer: Callable[[Request], Awaitable[Account | None]], json_: Callable[..., Response],
                 read_body: Callable[[Request], Awaitable[dict[str, Any]]]) -> list[Route]:
    async def me(request: Request) -> Account:
        user = await viewer(request)
        if user is None:
            raise WebError(401, TEXTS("login"))
        return user

    @handler
    async def status(request: Request) -> Response:
        user = await viewer(request)
        counts = await asyncio.to_thread(quick.counts)
        mine = await asyncio.to_thread(quick.waiting_for, user.id) if user else None
        return json_({"clocks": list(CLOCKS), "waiting": counts, "mine": mine})

    @handler
    async def join(request: Request) -> Response:
        user = await me(request)
        return json_(await quick.join(user, await read_body(request)))

    @handler
    async def leave(request: Request) -> Response:
        await quick.leave(await me(request))
        return json_({"ok": True})

    return [
        Route("/api/quick", status, methods=["GET"]),
        Route("/api/quick", join, methods=["POST"]),
        Route("/api/quick", leave, methods=["DELETE"]),
    ]
