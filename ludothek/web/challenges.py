"""Challenges (issue 32, item 1): a logged-in player challenges a named one to a game with its
options, clock (or correspondence), rated or casual, and his colour; the challenged player
accepts (the game starts for both) or declines with an optional reason.

The challenges are rows of the database (table ``challenges``), so every server process sees
them. The pages hear of them over the lobby socket every page of a logged-in player keeps
open: after each look at the lobby (:meth:`.lobby.Lobby.refresh`, every 1.5 s and at once after
a change made here) :meth:`Challenges.hook` sends each player whose open challenges changed
the new list (``{"type": "challenges"}``), and a challenger the answer to his challenge once
(``{"type": "challenge_answer"}``; an accepted one takes his page to the game).

A player chooses whom he accepts challenges from (table ``challenge_settings``): everyone
(the default), only the players he follows, or nobody.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.orm import aliased
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.websockets import WebSocket

from ..core.errors import LudothekError
from ..core.messages import Catalog
from .chat import blocks
from .errors import WebError
from .follows import find_user, follows
from .lobby import Lobby, _seek_spec, send
from .service import GameService
from .store import Account, Store, challenge_settings_table, challenges_table, hash_token, users_table

TEXTS = Catalog("challenges", {
    "login": ("log in to challenge players", "melde dich an, um Spieler herauszufordern"),
    "to_missing": ("name the player to challenge: {example}", "nenne den Spieler, den du herausfordern willst: {example}"),
    "unknown": ("there is no player {user!r}", "es gibt keinen Spieler {user!r}"),
    "self": ("you cannot challenge yourself", "du kannst dich nicht selbst herausfordern"),
    "refuses_all": ("{user} accepts no challenges", "{user} nimmt keine Herausforderungen an"),
    "refuses_unfollowed": ("{user} accepts challenges only from players they follow",
                           "{user} nimmt Herausforderungen nur von Spielern an, denen {user} folgt"),
    "you_blocked": ("you have blocked {user}: unblock them on the challenges page to challenge them",
                    "du hast {user} blockiert: hebe die Blockierung auf der Seite „Herausforderungen“ auf, um {user} herauszufordern"),
    "already": ("you have challenged {user} already: wait for the answer or cancel it",
                "du hast {user} schon herausgefordert: warte auf die Antwort oder ziehe sie zurück"),
    "limit": ("you have {limit} open challenges: wait for answers or cancel one",
              "du hast {limit} offene Herausforderungen: warte auf Antworten oder ziehe eine zurück"),
    "gone": ("there is no open challenge {id!r}: it was answered, cancelled or has expired",
             "es gibt keine offene Herausforderung {id!r}: sie wurde beantwortet, zurückgezogen oder ist abgelaufen"),
    "not_to_you": ("this challenge is not addressed to you", "diese Herausforderung gilt nicht dir"),
    "not_yours": ("only its author can cancel a challenge", "nur wer eine Herausforderung stellt, kann sie zurückziehen"),
    "reason": ("the reason must be one of {reasons} (or left out)", "der Grund muss einer von {reasons} sein (oder fehlen)"),
    "note_type": ("the note must be text", "die Anmerkung muss Text sein"),
    "note_long": ("the note is longer than {limit} characters", "die Anmerkung ist länger als {limit} Zeichen"),
    "note_control": ("the note must not hold control characters", "die Anmerkung darf keine Steuerzeichen enthalten"),
    "setting": ("accept challenges from one of {values}", "Herausforderungen annehmen von einem aus {values}"),
})

REASONS = ("generic", "later", "too_fast", "too_slow", "rated", "casual", "game")
ACCEPT = ("everyone", "followed", "nobody")
MAX_NOTE = 200
MAX_OPEN = 10
LIVE_SECONDS = 30 * 60
CORRESPONDENCE_SECONDS = 7 * 24 * 3600
#: an answered challenge stays in its author's list this long (he reads the reason there)
ANSWERED_SHOWN = 3600
#: an answer is pushed to the challenger's pages only this soon after it (not days later)
PUSH_ANSWER_SECONDS = 120
NONE: dict[str, list[Any]] = {"incoming": [], "outgoing": []}


def check_note(note: Any) -> str | None:
    """The decliner's own words: plain text, at most :data:`MAX_NOTE` characters."""
    if note is None:
        return None
    if not isinstance(note, str):
        raise WebError(400, TEXTS("note_type"))
    note = note.strip()
    if len(note) > MAX_NOTE:
        raise WebError(400, TEXTS("note_long", limit=MAX_NOTE))
    if any(unicodedata.category(c) == "Cc" for c in note):
        raise WebError(400, TEXTS("note_control"))
    return note or None


class Challenges:
    def __init__(self, store: Store, service: GameService, lobby: Lobby, now: Callable[[], float] = time.time):
        self.store = store
        self.service = service
        self.lobby = lobby
        self.now = now

    # ------------------------------------------------------------------ making and answering
    async def create(self, user: Account, body: dict[str, Any]) -> dict[str, Any]:
        name = body.get("to")
        if not isinstance(name, str) or not name:
            raise WebError(400, TEXTS("to_missing", example='{"to": "<name>", "game": "<game>", ...}'))
        spec = _seek_spec(body)
        row = await asyncio.to_thread(self._insert, user, name, spec)
        await self.lobby.refresh()
        return self._public(row)

    def _insert(self, user: Account, name: str, spec: dict[str, Any]) -> dict[str, Any]:
        c = challenges_table.c
        at = self.now()
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            target = find_user(conn, name)
            if target is None:
                raise WebError(404, TEXTS("unknown", user=name[:40]))
            if target.id == user.id:
                raise WebError(400, TEXTS("self"))
            accept = conn.execute(select(challenge_settings_table.c.accept)
                                  .where(challenge_settings_table.c.user_id == target.id)).scalar() or "everyone"
            if accept == "nobody" or blocks(conn, target.id, user.id):  # a block is not told as such
                raise WebError(403, TEXTS("refuses_all", user=target.name))
            if blocks(conn, user.id, target.id):
                raise WebError(403, TEXTS("you_blocked", user=target.name))
            if accept == "followed" and not follows(conn, target.id, user.id):
                raise WebError(403, TEXTS("refuses_unfollowed", user=target.name))
            open_ = and_(c.from_id == user.id, c.status == "open", c.expires > at)
            if conn.execute(select(c.id).where(open_, c.to_id == target.id)).first() is not None:
                raise WebError(409, TEXTS("already", user=target.name))
            if (conn.execute(select(func.count()).where(open_)).scalar() or 0) >= MAX_OPEN:
                raise WebError(429, TEXTS("limit", limit=MAX_OPEN))
            correspondence = bool(spec["clock"]) and "days" in spec["clock"]
            values = {"id": secrets.token_urlsafe(9), "from_id": user.id, "to_id": target.id, "spec": json.dumps(spec),
                      "status": "open", "reason": None, "note": None, "game_id": None, "told": None, "created": at,
                      "expires": at + (CORRESPONDENCE_SECONDS if correspondence else LIVE_SECONDS), "answered": None}
            conn.execute(insert(challenges_table).values(**values))
        return {**values, "from_name": user.name, "to_name": target.name}

    async def accept(self, user: Account, challenge_id: Any) -> dict[str, Any]:
        row = await asyncio.to_thread(self._open, challenge_id)
        if row["to_id"] != user.id:
            raise WebError(403, TEXTS("not_to_you"))
        spec = json.loads(row["spec"])
        game_id = secrets.token_urlsafe(9)
        # accepted at once, so that no other answer wins; the game's id is only made known once
        # the game exists (a challenger's page sent to it earlier would find no game)
        if not await asyncio.to_thread(self._answer, row["id"], {"status": "accepted"}):
            raise WebError(404, TEXTS("gone", id=row["id"]))
        author_seat = spec["seat"] if spec["seat"] in (0, 1) else secrets.randbelow(2)
        owners: list[Account | None] = [None, None]
        owners[author_seat], owners[1 - author_seat] = Account(row["from_id"], row["from_name"]), user
        game = {"game": spec["game"], "options": spec["options"], "clock": spec["clock"], "rated": spec["rated"],
                "opponent": "friend", "seat": 1 - author_seat}
        try:
            # the challenger's seat is his account's: its token is never handed out
            created = await self.service.create(game, user=user, owners=owners,
                                                paired=(game_id, hash_token(secrets.token_urlsafe(24))))
        except (WebError, LudothekError):
            await asyncio.to_thread(self._set, row["id"], {"status": "cancelled"})
            raise
        # answered now as far as the challenger is told: however long the game took to create
        await asyncio.to_thread(self._set, row["id"], {"game_id": game_id, "answered": self.now()})
        await self.lobby.refresh()
        return created

    async def decline(self, user: Account, challenge_id: Any, body: dict[str, Any]) -> None:
        reason = body.get("reason")
        if reason is not None and reason not in REASONS:
            raise WebError(400, TEXTS("reason", reasons=", ".join(REASONS)))
        note = check_note(body.get("note"))
        row = await asyncio.to_thread(self._open, challenge_id)
        if row["to_id"] != user.id:
            raise WebError(403, TEXTS("not_to_you"))
        changes = {"status": "declined", "reason": reason or ("generic" if note is None else None), "note": note}
        if not await asyncio.to_thread(self._answer, row["id"], changes):
            raise WebError(404, TEXTS("gone", id=row["id"]))
        await self.lobby.refresh()

    async def cancel(self, user: Account, challenge_id: Any) -> None:
        row = await asyncio.to_thread(self._open, challenge_id)
        if row["from_id"] != user.id:
            raise WebError(403, TEXTS("not_yours"))
        if not await asyncio.to_thread(self._answer, row["id"], {"status": "cancelled", "told": self.now()}):
            raise WebError(404, TEXTS("gone", id=row["id"]))
        await self.lobby.refresh()

    def _rows(self) -> Any:
        c, f, t = challenges_table.c, aliased(users_table), aliased(users_table)
        return (select(challenges_table, f.c.name.label("from_name"), t.c.name.label("to_name"))
                .join(f, f.c.id == c.from_id).join(t, t.c.id == c.to_id))

    def _open(self, challenge_id: Any) -> dict[str, Any]:
        if not isinstance(challenge_id, str) or not 1 <= len(challenge_id) <= 24:
            raise WebError(404, TEXTS("gone", id=str(challenge_id)[:24]))
        c = challenges_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            row = conn.execute(self._rows().where(c.id == challenge_id, c.status == "open",
                                                  c.expires > self.now())).mappings().first()
        if row is None:
            raise WebError(404, TEXTS("gone", id=challenge_id))
        return dict(row)

    def _answer(self, challenge_id: str, changes: dict[str, Any]) -> bool:
        """Answer an open challenge; False if it was answered meanwhile (elsewhere)."""
        c = challenges_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            done = conn.execute(update(challenges_table).where(c.id == challenge_id, c.status == "open")
                                .values(answered=self.now(), **changes))
            return done.rowcount == 1

    def _set(self, challenge_id: str, changes: dict[str, Any]) -> None:
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(update(challenges_table).where(challenges_table.c.id == challenge_id).values(**changes))

    # ------------------------------------------------------------------ what players see
    def listing(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """A player's open challenges, to him and by him (his answered ones for a while, with
        the answer)."""
        return self._listings([user_id])[user_id]

    def _listings(self, users: list[int]) -> dict[int, dict[str, list[dict[str, Any]]]]:
        c = challenges_table.c
        at = self.now()
        open_ = and_(c.status == "open", c.expires > at)
        answered = and_(c.status.in_(("accepted", "declined")), c.answered > at - ANSWERED_SHOWN)
        query = self._rows().where(or_(and_(c.to_id.in_(users), open_),
                                       and_(c.from_id.in_(users), or_(open_, answered)))).order_by(c.created)
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(query).mappings()]
        lists: dict[int, dict[str, list[dict[str, Any]]]] = {u: {"incoming": [], "outgoing": []} for u in users}
        for row in rows:
            if row["to_id"] in lists and row["status"] == "open":
                lists[row["to_id"]]["incoming"].append(self._public(row))
            if row["from_id"] in lists:
                lists[row["from_id"]]["outgoing"].append(self._public(row))
        return lists

    @staticmethod
    def _public(row: dict[str, Any]) -> dict[str, Any]:
        spec = json.loads(row["spec"])
        return {"id": row["id"], "from": row["from_name"], "to": row["to_name"], "game": spec["game"],
                "options": spec["options"], "clock": spec["clock"], "rated": spec["rated"], "seat": spec["seat"],
                "status": row["status"], "reason": row["reason"], "note": row["note"], "game_id": row["game_id"],
                "created": row["created"], "expires": row["expires"]}

    async def hook(self, watchers: dict[WebSocket, Any]) -> None:
        """A lobby hook: send each logged-in page its challenges when they changed, and each
        challenger the answer to his challenge (once, whichever server gives it)."""
        users = sorted({w.user.id for w in watchers.values() if w.user is not None})
        if not users:
            return
        lists, answers = await asyncio.to_thread(self._news, users)
        for ws, watcher in watchers.items():
            if watcher.user is None:
                continue
            mine = lists[watcher.user.id]
            # a page reads its list when it loads (GET /api/challenges): only changes are pushed
            if watcher.news.get("challenges", NONE) != mine:
                watcher.news["challenges"] = mine
                await send(ws, {"type": "challenges", **mine})
            for answer in answers.get(watcher.user.id, []):
                await send(ws, {"type": "challenge_answer", "challenge": answer})

    def _news(self, users: list[int]) -> tuple[dict[int, Any], dict[int, list[dict[str, Any]]]]:
        lists = self._listings(users)
        c = challenges_table.c
        at = self.now()
        answers: dict[int, list[dict[str, Any]]] = {}
        fresh = [(u, o) for u in users for o in lists[u]["outgoing"]
                 if o["status"] == "declined" or (o["status"] == "accepted" and o["game_id"] is not None)]
        if fresh:
            with self.store._taking_turns(), self.store.engine.begin() as conn:
                for user_id, item in fresh:
                    told = conn.execute(update(challenges_table).where(
                        c.id == item["id"], c.told.is_(None), c.answered > at - PUSH_ANSWER_SECONDS).values(told=at))
                    if told.rowcount == 1:
                        answers.setdefault(user_id, []).append(item)
        return lists, answers

    # ------------------------------------------------------------------ the setting
    def setting(self, user_id: int) -> str:
        s = challenge_settings_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return conn.execute(select(s.accept).where(s.user_id == user_id)).scalar() or "everyone"

    def set_setting(self, user_id: int, accept: Any) -> str:
        if accept not in ACCEPT:
            raise WebError(400, TEXTS("setting", values=", ".join(ACCEPT)))
        s = challenge_settings_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            if conn.execute(update(challenge_settings_table).where(s.user_id == user_id).values(accept=accept)).rowcount == 0:
                conn.execute(insert(challenge_settings_table).values(user_id=user_id, accept=accept))
        return accept


def challenge_routes(challenges: Challenges, handler: Callable[[Any], Any],
                     viewer: Callable[[Request], Awaitable[Account | None]], json_: Callable[..., Response],
                     read_body: Callable[[Request], Awaitable[dict[str, Any]]],
                     after_create: Callable[[str], Awaitable[Any]]) -> list[Route]:
    async def me(request: Request) -> Account:
        user = await viewer(request)
        if user is None:
            raise WebError(401, TEXTS("login"))
        return user

    @handler
    async def listing(request: Request) -> Response:
        user = await me(request)
        return json_(await asyncio.to_thread(challenges.listing, user.id))

    @handler
    async def create(request: Request) -> Response:
        user = await me(request)
        return json_(await challenges.create(user, await read_body(request)), 201)

    @handler
    async def accept(request: Request) -> Response:
        user = await me(request)
        created = await challenges.accept(user, request.path_params["id"])
        view = await after_create(created["id"])
        return json_({**created, "game": view})

    @handler
    async def decline(request: Request) -> Response:
        user = await me(request)
        await challenges.decline(user, request.path_params["id"], await read_body(request))
        return json_({"ok": True})

    @handler
    async def cancel(request: Request) -> Response:
        user = await me(request)
        await challenges.cancel(user, request.path_params["id"])
        return json_({"ok": True})

    @handler
    async def get_setting(request: Request) -> Response:
        user = await me(request)
        return json_({"accept": await asyncio.to_thread(challenges.setting, user.id)})

    @handler
    async def put_setting(request: Request) -> Response:
        user = await me(request)
        body = await read_body(request)
        return json_({"accept": await asyncio.to_thread(challenges.set_setting, user.id, body.get("accept"))})

    return [
        Route("/api/challenges", listing, methods=["GET"]),
        Route("/api/challenges", create, methods=["POST"]),
        Route("/api/challenges/settings", get_setting, methods=["GET"]),
        Route("/api/challenges/settings", put_setting, methods=["PUT"]),
        Route("/api/challenges/{id}/accept", accept, methods=["POST"]),
        Route("/api/challenges/{id}/decline", decline, methods=["POST"]),
        Route("/api/challenges/{id}", cancel, methods=["DELETE"]),
    ]
