"""Follows (issue 32, item 3): a player follows others and sees who of them is online and
what they are playing, with a link to watch.

"Online" means a page of the account had a lobby socket open (every page of a logged-in player
has one) within :data:`ONLINE_SECONDS`: each server process writes that time (table
``presence``) for the players whose pages it serves, at most every :data:`PRESENCE_EVERY`
seconds, so every process sees the same answer.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.websockets import WebSocket

from ..core.messages import Catalog
from .accounts import name_key
from .errors import WebError
from .store import Account, Store, follows_table, games_table, presence_table, users_table

TEXTS = Catalog("follows", {
    "login": ("log in to follow players", "melde dich an, um Spielern zu folgen"),
    "unknown": ("there is no player {user!r}", "es gibt keinen Spieler {user!r}"),
    "self": ("you cannot follow yourself", "du kannst dir nicht selbst folgen"),
    "limit": ("you follow {limit} players already: unfollow someone first",
              "du folgst schon {limit} Spielern: entfolge erst jemandem"),
})

ONLINE_SECONDS = 60
PRESENCE_EVERY = 20
MAX_FOLLOWS = 500


def find_user(conn: Any, name: Any) -> Any:
    """The active account of a name (any case), or None."""
    if not isinstance(name, str) or not 1 <= len(name) <= 40:
        return None
    u = users_table.c
    return conn.execute(select(u.id, u.name).where(u.name_key == name_key(name), u.disabled.is_(None))).first()


def follows(conn: Any, follower: int, followed: int) -> bool:
    f = follows_table.c
    return conn.execute(select(f.follower_id).where(f.follower_id == follower, f.followed_id == followed)).first() is not None


class Follows:
    def __init__(self, store: Store, now: Callable[[], float] = time.time):
        self.store = store
        self.now = now
        self._written: dict[int, float] = {}  # user -> when this process last wrote his presence

    def _target(self, conn: Any, user: Account, name: Any) -> Any:
        target = find_user(conn, name)
        if target is None:
            raise WebError(404, TEXTS("unknown", user=str(name)[:40]))
        if target.id == user.id:
            raise WebError(400, TEXTS("self"))
        return target

    def follow(self, user: Account, name: Any) -> str:
        f = follows_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            target = self._target(conn, user, name)
            if not follows(conn, user.id, target.id):
                count = conn.execute(select(func.count()).where(f.follower_id == user.id)).scalar() or 0
                if count >= MAX_FOLLOWS:
                    raise WebError(429, TEXTS("limit", limit=MAX_FOLLOWS))
                conn.execute(insert(follows_table).values(follower_id=user.id, followed_id=target.id, created=self.now()))
            return target.name

    def unfollow(self, user: Account, name: Any) -> str:
        f = follows_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            target = self._target(conn, user, name)
            conn.execute(delete(follows_table).where(f.follower_id == user.id, f.followed_id == target.id))
            return target.name

    def listing(self, user: Account) -> list[dict[str, Any]]:
        """The players ``user`` follows, online ones first: name, online, and the live games
        each plays now (id, game)."""
        f, u, p, g = follows_table.c, users_table.c, presence_table.c, games_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = conn.execute(select(u.id, u.name, p.seen).select_from(
                follows_table.join(users_table, u.id == f.followed_id).outerjoin(presence_table, p.user_id == u.id))
                .where(f.follower_id == user.id, u.disabled.is_(None))).all()
            ids = [r.id for r in rows]
            playing: dict[int, list[dict[str, Any]]] = {}
            if ids:
                games = conn.execute(select(g.id, g.game, g.user0, g.user1).where(
                    g.status == "ongoing", g.mode == "online", or_(g.user0.in_(ids), g.user1.in_(ids)))
                    .order_by(g.updated.desc())).all()
                for game in games:
                    for who in {game.user0, game.user1} & set(ids):
                        playing.setdefault(who, []).append({"id": game.id, "game": game.game})
        online_since = self.now() - ONLINE_SECONDS
        players = [{"name": r.name, "online": r.seen is not None and r.seen >= online_since,
                    "playing": playing.get(r.id, [])} for r in rows]
        return sorted(players, key=lambda x: (not x["online"], not x["playing"], x["name"].lower()))

    # ------------------------------------------------------------------ presence
    async def seen_hook(self, watchers: dict[WebSocket, Any]) -> None:
        """A lobby hook: the players with a page here are online (written now and then)."""
        at = self.now()
        due = sorted({w.user.id for w in watchers.values() if w.user is not None
                      and at - self._written.get(w.user.id, -1e9) >= PRESENCE_EVERY})
        if due:
            await asyncio.to_thread(self._write_presence, due, at)
            for user_id in due:
                self._written[user_id] = at

    def _write_presence(self, users: list[int], at: float) -> None:
        p = presence_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            known = set(conn.execute(select(p.user_id).where(p.user_id.in_(users))).scalars())
            if known:
                conn.execute(update(presence_table).where(p.user_id.in_(known)).values(seen=at))
            for user_id in set(users) - known:
                conn.execute(insert(presence_table).values(user_id=user_id, seen=at))


def follow_routes(follows_: Follows, handler: Callable[[Any], Any],
                  viewer: Callable[[Request], Awaitable[Account | None]], json: Callable[..., Response]) -> list[Route]:
    async def me(request: Request) -> Account:
        user = await viewer(request)
        if user is None:
            raise WebError(401, TEXTS("login"))
        return user

    @handler
    async def listing(request: Request) -> Response:
        user = await me(request)
        return json({"following": await asyncio.to_thread(follows_.listing, user)})

    @handler
    async def follow(request: Request) -> Response:
        user = await me(request)
        name = await asyncio.to_thread(follows_.follow, user, request.path_params["name"])
        return json({"name": name, "following": True})

    @handler
    async def unfollow(request: Request) -> Response:
        user = await me(request)
        name = await asyncio.to_thread(follows_.unfollow, user, request.path_params["name"])
        return json({"name": name, "following": False})

    return [
        Route("/api/follows", listing, methods=["GET"]),
        Route("/api/follows/{name}", follow, methods=["POST"]),
        Route("/api/follows/{name}", unfollow, methods=["DELETE"]),
    ]
