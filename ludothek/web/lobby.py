"""The lobby: open seeks anyone may accept, the live games to watch, and each logged-in
player's "your turn" count, pushed to the pages over ``/ws/lobby``.

Seeks live in the database (table ``seeks``), so every server process sees the same lobby.
Each process looks at the lobby every ``interval`` seconds while pages watch it, and sends
what changed: a new list, a seek of one of its pages that someone accepted (``started``: the
author's page goes to the game), a player's new count of games where it is his turn. A
change made here is sent at once.

A seek's author gets his seat token when he posts it (it is stored hashed with the seek), so
the game made on acceptance needs no secret passed around. A seek with a clock (or none)
vanishes when its author's page leaves (the socket closes, or its process stops refreshing
it); a correspondence seek stays until it is taken, cancelled or a week old.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson
from sqlalchemy import delete, func, insert, select, update
from starlette.websockets import WebSocket

from ..core.errors import LudothekError
from ..ratings import Rating
from . import clocks
from .service import GameService, WebError, game_and_options, new_state, rated_arg
from .store import PROVISIONAL_DEVIATION, Account, Store, games_table, hash_token, ratings_table, seeks_table
from .texts import TEXTS

log = logging.getLogger("ludothek.web")

#: how long a seek lasts at most (a live one while its author's page stays; a correspondence one)
LIVE_SEEK_SECONDS = 20 * 60
CORRESPONDENCE_SEEK_SECONDS = 7 * 24 * 3600
#: a live seek whose author's page was not seen for this long is gone (its process stopped)
ABSENT_SECONDS = 60
MAX_SEEKS = 3
LIVE_GAMES = 50


@dataclass(eq=False)
class Watcher:
    """A page watching the lobby: its player (None: a guest) and the seeks it posted."""

    user: Account | None
    owned: dict[str, str] = field(default_factory=dict)  # seek id -> token hash
    turns: set[str] | None = None  # the games where it is his turn, as last sent
    news: dict[str, Any] = field(default_factory=dict)  # what each lobby hook last sent it


class Lobby:
    def __init__(self, store: Store, service: GameService, now: Callable[[], float]):
        self.store = store
        self.service = service
        self.now = now
        self.watchers: dict[WebSocket, Watcher] = {}
        self._last: tuple[Any, ...] | None = None
        #: more news for the logged-in pages (challenges, quick pairing, follows): each is called
        #: with the watchers to look at after every refresh, and for a page when it connects
        self.hooks: list[Callable[[dict[WebSocket, Watcher]], Any]] = []

    # ------------------------------------------------------------------ seeks
    async def post(self, body: dict[str, Any], user: Account | None, client: str) -> dict[str, Any]:
        """A new seek: ``{"seek": ..., "token": the author's seat token}``."""
        spec = _seek_spec(body)
        if spec["rated"] and user is None:
            raise WebError(401, TEXTS("rated_login"))
        token = secrets.token_urlsafe(24)
        at = self.now()
        lasts = CORRESPONDENCE_SEEK_SECONDS if spec["clock"] and "days" in spec["clock"] else LIVE_SEEK_SECONDS
        values = {"id": secrets.token_urlsafe(9), "user_id": user.id if user else None, "name": user.name if user else None,
                  "token": hash_token(token), "spec": json.dumps(spec), "client": client, "created": at, "seen": at,
                  "expires": at + lasts, "game_id": None}
        await asyncio.to_thread(self._insert, values, user, client)
        await self.refresh()
        return {"seek": _public(values, user, {values["id"]}), "token": token}

    def _insert(self, values: dict[str, Any], user: Account | None, client: str) -> None:
        t = seeks_table.c
        mine = (t.user_id == user.id) if user is not None else (t.client == client)
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            count = conn.execute(select(func.count()).where(mine, t.game_id.is_(None))).scalar() or 0
            if count >= MAX_SEEKS:
                raise WebError(429, TEXTS("seek_limit", limit=MAX_SEEKS))
            conn.execute(insert(seeks_table).values(**values))

    async def cancel(self, seek_id: Any, token: str | None, user: Account | None) -> None:
        row = await self._open_seek(seek_id)
        if not _authored(row, token, user):
            raise WebError(403, TEXTS("seek_not_yours"))
        await asyncio.to_thread(self._delete, [row["id"]])
        await self.refresh()

    async def accept(self, seek_id: Any, token: str | None, user: Account | None) -> dict[str, Any]:
        """Take a seek: the game starts for both (its id, the accepter's token and seats)."""
        row = await self._open_seek(seek_id)
        spec = json.loads(row["spec"])
        if _authored(row, token, user):
            raise WebError(409, TEXTS("seek_own"))
        if spec["rated"] and user is None:
            raise WebError(401, TEXTS("rated_login"))
        game_id = secrets.token_urlsafe(9)
        if not await asyncio.to_thread(self._take, row["id"], game_id):
            raise WebError(404, TEXTS("seek_gone"))
        author = Account(row["user_id"], row["name"]) if row["user_id"] is not None else None
        author_seat = spec["seat"] if spec["seat"] in (0, 1) else secrets.randbelow(2)
        owners: list[Account | None] = [None, None]
        owners[author_seat], owners[1 - author_seat] = author, user
        game = {"game": spec["game"], "options": spec["options"], "clock": spec["clock"], "rated": spec["rated"],
                "opponent": "friend", "seat": 1 - author_seat}
        try:
            created = await self.service.create(game, user=user, owners=owners, paired=(game_id, row["token"]))
        except (WebError, LudothekError):
            await asyncio.to_thread(self._delete, [row["id"]])  # it cannot make a game: gone
            await self.refresh()
            raise
        await self.refresh()
        return created

    async def _open_seek(self, seek_id: Any, taken_too: bool = False) -> Any:
        if not isinstance(seek_id, str) or not 1 <= len(seek_id) <= 24:
            raise WebError(404, TEXTS("seek_gone"))
        row = await asyncio.to_thread(self._seek_row, seek_id, taken_too)
        if row is None:
            raise WebError(404, TEXTS("seek_gone"))
        return row

    def _seek_row(self, seek_id: str, taken_too: bool = False) -> Any:
        t = seeks_table.c
        query = select(seeks_table).where(t.id == seek_id, t.expires > self.now())
        if not taken_too:
            query = query.where(t.game_id.is_(None))
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return conn.execute(query).mappings().first()

    def _take(self, seek_id: str, game_id: str) -> bool:
        """Mark a seek taken for ``game_id``; False if someone was quicker."""
        t = seeks_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            taken = conn.execute(update(seeks_table).where(t.id == seek_id, t.game_id.is_(None)).values(game_id=game_id))
            return taken.rowcount == 1

    def _delete(self, ids: list[str]) -> None:
        if ids:
            with self.store._taking_turns(), self.store.engine.begin() as conn:
                conn.execute(delete(seeks_table).where(seeks_table.c.id.in_(ids)))

    # ------------------------------------------------------------------ what pages see
    async def listing(self, user: Account | None, owned: set[str] = frozenset()) -> dict[str, Any]:
        seeks, live = await asyncio.to_thread(self._read)
        return {"seeks": [_public(s, user, owned) for s in seeks], "live": _live_for(live, user)}

    def _read(self) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], tuple[int | None, int | None]]]]:
        """The open seeks, each with its author's rating in its game, and the live games with
        the accounts that play them."""
        t, r = seeks_table.c, ratings_table.c
        query = select(seeks_table).where(t.game_id.is_(None), t.expires > self.now()).order_by(t.created)
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            seeks = [dict(row) for row in conn.execute(query).mappings()]
            authors = {s["user_id"] for s in seeks if s["user_id"] is not None}
            ratings = {(row.user_id, row.game): row for row in conn.execute(
                select(r.user_id, r.game, r.value, r.deviation).where(r.user_id.in_(authors)))} if authors else {}
        for seek in seeks:
            if seek["user_id"] is not None:
                seek["rating"] = _rating(ratings.get((seek["user_id"], json.loads(seek["spec"])["game"])))
        games = self.store.list_games("ongoing", LIVE_GAMES, mode="online")
        return seeks, [(GameService.summary(g), (g.user0, g.user1)) for g in games]

    # ------------------------------------------------------------------ the socket
    async def connect(self, ws: WebSocket, user: Account | None) -> None:
        self.watchers[ws] = Watcher(user)
        listing = await self.listing(user)
        await ws.send_text(orjson.dumps({"type": "lobby", **listing}).decode())
        await self._send_turns({ws: self.watchers[ws]})
        await self._run_hooks({ws: self.watchers[ws]})

    async def _run_hooks(self, watchers: dict[WebSocket, Watcher]) -> None:
        for hook in self.hooks:
            try:
                await hook(watchers)
            except Exception:
                log.exception("a lobby hook failed")

    async def disconnect(self, ws: WebSocket) -> None:
        """The page left: its seeks with a clock (or none) go with it."""
        watcher = self.watchers.pop(ws, None)
        if watcher is not None and watcher.owned:
            # shielded: a server that cancels the socket's task still takes the seeks away
            await asyncio.shield(self._withdraw(list(watcher.owned)))

    async def _withdraw(self, seek_ids: list[str]) -> None:
        leaving = await asyncio.to_thread(self._live_seeks, seek_ids)
        if leaving:
            await asyncio.to_thread(self._delete, leaving)
            await self.refresh()

    def _live_seeks(self, ids: list[str]) -> list[str]:
        t = seeks_table.c
        query = select(t.id, t.spec).where(t.id.in_(ids), t.game_id.is_(None))
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return [seek_id for seek_id, spec in conn.execute(query) if not _correspondence(json.loads(spec))]

    async def own(self, ws: WebSocket, seek_id: Any, token: Any) -> None:
        """A page says it posted a seek (proved by the seek's token)."""
        watcher = self.watchers.get(ws)
        if watcher is None:
            return
        row = await self._open_seek(seek_id, taken_too=True)
        if not isinstance(token, str) or hash_token(token) != row["token"]:
            raise WebError(403, TEXTS("seek_not_yours"))
        watcher.owned[row["id"]] = row["token"]
        self._last = None  # its "mine" changed: send the list again
        if row["game_id"] is not None:  # accepted before the page said it was its own
            await self.refresh()

    # ------------------------------------------------------------------ keeping pages up to date
    async def run(self, interval: float = 1.5) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.refresh()
            except Exception:
                log.exception("updating the lobby failed")

    async def refresh(self) -> None:
        """Tidy the seeks, then tell the pages here what changed."""
        owned = {seek_id for w in self.watchers.values() for seek_id in w.owned}
        started = await asyncio.to_thread(self._tidy, owned)
        for ws, watcher in list(self.watchers.items()):
            for seek_id, game_id in started.items():
                if seek_id in watcher.owned:
                    del watcher.owned[seek_id]
                    await send(ws, {"type": "started", "seek": seek_id, "game": game_id})
        if not self.watchers:
            return
        seeks, live = await asyncio.to_thread(self._read)
        state = (tuple((s["id"], s["created"]) for s in seeks), tuple((g["id"], g["updated"]) for g, _ in live))
        if state != self._last:
            self._last = state
            for ws, watcher in list(self.watchers.items()):
                mine = set(watcher.owned)
                await send(ws, {"type": "lobby", "seeks": [_public(s, watcher.user, mine) for s in seeks],
                                 "live": _live_for(live, watcher.user)})
        await self._send_turns(dict(self.watchers))
        await self._run_hooks(dict(self.watchers))

    def _tidy(self, owned: set[str]) -> dict[str, str]:
        """Keep the seeks of this process's pages alive, drop the expired and abandoned ones,
        and hand back the taken seeks of this process's pages ({seek: game})."""
        at = self.now()
        t = seeks_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            if owned:
                conn.execute(update(seeks_table).where(t.id.in_(owned)).values(seen=at))
            # a seek is taken (its game_id set) a moment before its game is made: the author's
            # page is sent to the game only once it exists
            made = select(games_table.c.id).where(games_table.c.id == t.game_id).exists()
            rows = conn.execute(select(t.id, t.spec, t.seen, t.expires, t.game_id, made)).all()
            gone, started = [], {}
            for seek_id, spec, seen, expires, game_id, exists in rows:
                if game_id is not None and not exists:
                    if expires <= at:
                        gone.append(seek_id)  # its game was never made (the accepting server died)
                elif game_id is not None and seek_id in owned:
                    started[seek_id] = game_id
                    gone.append(seek_id)
                elif game_id is not None and seen < at - ABSENT_SECONDS:
                    gone.append(seek_id)  # taken while its page was away: the game is on "My games"
                elif expires <= at or (not _correspondence(json.loads(spec)) and seen < at - ABSENT_SECONDS):
                    gone.append(seek_id)
            if gone:
                conn.execute(delete(seeks_table).where(t.id.in_(gone)))
        return started

    async def _send_turns(self, watchers: dict[WebSocket, Watcher]) -> None:
        """Tell each logged-in player whose count of games where it is his turn changed (one
        query for all of them)."""
        users = sorted({w.user.id for w in watchers.values() if w.user is not None})
        if not users:
            return
        turns_of = await asyncio.to_thread(self.store.turns_of, users)
        for ws, watcher in watchers.items():
            if watcher.user is None:
                continue
            turns = set(turns_of[watcher.user.id])
            if turns == watcher.turns:
                continue
            new = sorted(turns - (watcher.turns or set()))
            first = watcher.turns is None
            watcher.turns = turns
            await send(ws, {"type": "turns", "count": len(turns), "game": None if first or not new else new[0]})


async def send(ws: WebSocket, message: dict[str, Any]) -> None:
    try:
        await ws.send_text(orjson.dumps(message).decode())
    except Exception:  # noqa: BLE001, S110 - a closed socket: its handler removes it
        pass


def _seek_spec(body: dict[str, Any]) -> dict[str, Any]:
    """What a seek asks for, checked as a game would be: the game, its options, the clock,
    rated or not, and the author's seat (0, 1 or None: chosen at random when it starts)."""
    cls, options = game_and_options(body)
    new_state(cls, None, options)  # the options must make a game
    seat = body.get("seat", "random")
    if seat not in (0, 1, "random") or isinstance(seat, bool):
        raise WebError(400, TEXTS("seek_seat"))
    return {"game": cls.name, "options": options, "clock": clocks.setting(clocks.parse(body.get("clock"))),
            "rated": rated_arg(body), "seat": seat if seat in (0, 1) else None}


def _correspondence(spec: dict[str, Any]) -> bool:
    return bool(spec.get("clock")) and "days" in spec["clock"]


def _authored(row: Any, token: str | None, user: Account | None) -> bool:
    return (user is not None and row["user_id"] == user.id) or (isinstance(token, str) and hash_token(token) == row["token"])


def _public(row: Any, user: Account | None, owned: set[str]) -> dict[str, Any]:
    """A seek as pages see it (no token, no client address); ``rating``: its author's in the
    seek's game (None: a guest's seek)."""
    spec = json.loads(row["spec"])
    mine = row["id"] in owned or (user is not None and row["user_id"] == user.id)
    return {"id": row["id"], "game": spec["game"], "options": spec["options"], "clock": spec["clock"],
            "rated": spec["rated"], "seat": spec["seat"], "by": row["name"], "rating": row.get("rating"),
            "created": row["created"], "mine": mine}


def _rating(row: Any) -> dict[str, Any]:
    """A rating as the lobby shows it; a player without one in that game has the starting rating."""
    value, deviation = (row.value, row.deviation) if row is not None else (Rating().value, Rating().deviation)
    return {"value": round(value, 2), "deviation": round(deviation, 2), "provisional": deviation > PROVISIONAL_DEVIATION}


def _live_for(live: list[tuple[dict[str, Any], tuple[int | None, int | None]]],
              user: Account | None) -> list[dict[str, Any]]:
    """The live games as one player sees them: ``mine`` marks those he plays (to open, not watch)."""
    return [{**game, "mine": user is not None and user.id in users} for game, users in live]
