"""Chat with moderation (issue 32, item 2).

Rooms: ``lobby``; in each game ``GAME/p`` (the players) and ``GAME/s`` (the spectators). A game
page's socket is in the players' room while it holds a seat (``Hub``), else in the spectators'.
Messages travel over the sockets that exist already (``/ws/games/{id}``, ``/ws/lobby``): a page
sends ``{"type": "chat", "text": ...}`` and ``{"type": "chat_history"}``; the server pushes
``{"type": "chat", "room": "players"|"spectators"|"lobby", "messages": [...]}``.

Every message is stored (table ``chat_messages``) and pushed at once to the pages of this
process; each process also looks for messages written by other processes every ``interval``
seconds while it has pages watching (PostgreSQL or a shared SQLite file alike).

Plain text only: at most :data:`MAX_CHARS` characters; a line break or tab becomes a space; any
other control character (and the bidirectional overrides that can disguise text) is refused
with an error naming it. Pages show the text as text, links are not made clickable.

Who may post: an account anywhere; a guest only in the players' room of a game he holds a seat
in (read-only in the lobby and among spectators). Limits per account and per address.

Moderation: a player mutes another (that one's messages are hidden for him) or blocks him
(hidden both ways; no challenges between them: :func:`blocks` lets challenges refuse, a block
cancels the open ones, :func:`blocked_pairs` keeps them apart in quick pairing), reports a message (stored with
the messages before it). ``ludothek users mute NAME --hours H`` and ``ban NAME`` (operators):
a muted or banned player cannot post and his messages are hidden from everyone else.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import orjson
from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.websockets import WebSocket

from ..core.messages import Catalog
from .accounts import name_key
from .guard import RateLimits, TooManyRequests, client_of
from .service import WebError
from .store import (
    Account,
    Store,
    challenges_table,
    chat_messages_table,
    chat_relations_table,
    chat_reports_table,
    chat_sanctions_table,
    games_table,
    users_table,
)

log = logging.getLogger("ludothek.web")

TEXTS = Catalog("chat", {
    "login": ("log in to write here (guests can read)", "melde dich an, um hier zu schreiben (Gäste können mitlesen)"),
    "text_missing": ("a chat message needs {field!r}: the text, as a string",
                     "eine Chat-Nachricht braucht {field!r}: den Text als Zeichenkette"),
    "empty": ("the message is empty", "die Nachricht ist leer"),
    "too_long": ("the message has {length} characters; at most {limit} are allowed",
                 "die Nachricht hat {length} Zeichen; erlaubt sind höchstens {limit}"),
    "control": ("the message contains the control character {char}; write plain text",
                "die Nachricht enthält das Steuerzeichen {char}; schreib einfachen Text"),
    "flood": ("you are writing too fast: wait {wait} s", "du schreibst zu schnell: warte {wait} s"),
    "banned": ("you are banned from the chat", "du bist vom Chat ausgeschlossen"),
    "muted": ("you are muted in the chat until {until} UTC", "du bist im Chat stummgeschaltet bis {until} UTC"),
    "no_room": ("this chat is not open to you", "dieser Chat steht dir nicht offen"),
    "unknown_message": ("there is no message {id}", "es gibt keine Nachricht {id}"),
    "reason_too_long": ("the reason has {length} characters; at most {limit} are allowed",
                        "die Begründung hat {length} Zeichen; erlaubt sind höchstens {limit}"),
    "reason_type": ("{field!r} must be text (or left out)", "{field!r} muss Text sein (oder fehlen)"),
    "reason_control": ("the reason contains the control character {char}; write plain text",
                       "die Begründung enthält das Steuerzeichen {char}; schreib einfachen Text"),
    "kind": ("{field!r} must be 'mute' or 'block'", "{field!r} muss 'mute' oder 'block' sein"),
    "on": ("{field!r} must be true (mute or block) or false (undo it)",
           "{field!r} muss true (stummschalten oder blockieren) oder false (aufheben) sein"),
    "yourself": ("you cannot mute or block yourself", "du kannst dich nicht selbst stummschalten oder blockieren"),
    "no_user": ("there is no player {player!r}", "es gibt keinen Spieler {player!r}"),
    "hours": ("--hours must be a number of hours from 0 (lift the mute) to 8760",
              "--hours muss eine Stundenzahl von 0 (Stummschaltung aufheben) bis 8760 sein"),
})

MAX_CHARS = 500
MAX_REASON = 300
HISTORY = 50
#: messages before a reported one stored with the report
CONTEXT = 5
#: bidirectional controls: they can make a message read differently from what it is
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
ROLES = {"p": "players", "s": "spectators"}


class ChatLimits(RateLimits):
    """Chat messages per account and per address, e.g. ``ChatLimits("account=5/10seconds")``."""

    KINDS: ClassVar[dict[str, str]] = {"account": "chat messages per account", "address": "chat messages per address"}
    DEFAULTS = "account=5/10seconds,30/minute;address=10/10seconds,60/minute"

    def spend(self, key: str, kind: str) -> None:
        refused = self._hit(key, kind)
        if refused is not None:
            raise TooManyRequests(TEXTS("flood", wait=f"{refused[1]:.0f}"), refused[1])


def clean(text: Any) -> str:
    """The message as stored, or a ``WebError`` naming what is wrong with it."""
    if not isinstance(text, str):
        raise WebError(400, TEXTS("text_missing", field="text"))
    if len(text) > MAX_CHARS:  # before any work on a huge text
        raise WebError(413, TEXTS("too_long", length=len(text), limit=MAX_CHARS))
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    for ch in text:
        if ch in BIDI or unicodedata.category(ch) == "Cc":
            raise WebError(400, TEXTS("control", char=f"U+{ord(ch):04X}"))
    text = text.strip()
    if not text:
        raise WebError(400, TEXTS("empty"))
    return text


def clean_reason(reason: Any) -> str | None:
    """A report's reason as stored (None when there is none), or a ``WebError`` naming what is
    wrong: plain text on one line, at most :data:`MAX_REASON` characters."""
    if reason is None:
        return None
    if not isinstance(reason, str):
        raise WebError(400, TEXTS("reason_type", field="reason"))
    if len(reason) > MAX_REASON:
        raise WebError(400, TEXTS("reason_too_long", length=len(reason), limit=MAX_REASON))
    reason = reason.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    for ch in reason:
        if ch in BIDI or unicodedata.category(ch) == "Cc":
            raise WebError(400, TEXTS("reason_control", char=f"U+{ord(ch):04X}"))
    return reason.strip() or None


def blocks(conn: Any, by: int, whom: int) -> bool:
    """Whether the account ``by`` blocked the account ``whom`` (challenges from ``whom`` to
    ``by`` are refused then), read on an open connection."""
    r = chat_relations_table.c
    return bool(conn.execute(select(func.count()).where(r.user_id == by, r.other_id == whom, r.kind == "block")).scalar())


def blocked_pairs(conn: Any, users: set[int]) -> set[frozenset[int]]:
    """The pairs among ``users`` where one blocked the other (quick pairing keeps them apart)."""
    r = chat_relations_table.c
    if len(users) < 2:
        return set()
    rows = conn.execute(select(r.user_id, r.other_id).where(r.kind == "block", r.user_id.in_(users), r.other_id.in_(users)))
    return {frozenset(row) for row in rows}


def blocked(store: Store, by: int, whom: int) -> bool:
    """:func:`blocks` on a connection of its own."""
    with store._taking_turns(), store.engine.connect() as conn:
        return blocks(conn, by, whom)


def _public(row: Any, viewer: Account | None) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "text": row["body"], "at": row["at"],
            "mine": viewer is not None and row["user_id"] == viewer.id}


class Chat:
    def __init__(self, store: Store, hub: Any, lobby: Any, limits: ChatLimits, clock: Callable[[], float] = time.time):
        self.store = store
        self.hub = hub
        self.lobby = lobby
        self.limits = limits
        self.clock = clock
        #: the account of each game page's socket (lobby sockets: the lobby's watchers)
        self.users: dict[WebSocket, Account | None] = {}
        #: ids already pushed by this process (messages of other processes are found by polling)
        self.seen: OrderedDict[int, None] = OrderedDict()
        self.high: int | None = None

    # ------------------------------------------------------------------ sockets
    def attach(self, ws: WebSocket, user: Account | None) -> None:
        self.users[ws] = user

    def detach(self, ws: WebSocket) -> None:
        self.users.pop(ws, None)

    def _room_of(self, ws: WebSocket, game_id: str | None) -> str:
        if game_id is None:
            return "lobby"
        seats = self.hub.rooms.get(game_id, {}).get(ws)
        return f"{game_id}/p" if seats else f"{game_id}/s"

    def _members(self, room: str) -> list[tuple[WebSocket, Account | None]]:
        if room == "lobby":
            return [(ws, w.user) for ws, w in list(self.lobby.watchers.items())]
        game_id, _, kind = room.rpartition("/")
        return [(ws, self.users.get(ws)) for ws, seats in list(self.hub.rooms.get(game_id, {}).items())
                if bool(seats) == (kind == "p")]

    async def handle(self, ws: WebSocket, data: dict[str, Any], game_id: str | None, user: Account | None,
                     ref: Any) -> bytes:
        """A page's ``chat`` or ``chat_history`` message: the reply (errors are raised)."""
        room = self._room_of(ws, game_id)
        if data.get("type") == "chat_history":
            rows = await asyncio.to_thread(self._history, room, user)
            return _message(room, [_public(r, user) for r in rows], ref, replace=True)
        if user is None and not room.endswith("/p"):
            raise WebError(401, TEXTS("login"))
        text = clean(data.get("text"))
        self.limits.spend(client_of(ws.scope), "address")
        if user is not None:
            self.limits.spend(f"user:{user.id}", "account")
        client = hashlib.sha256(client_of(ws.scope).encode()).hexdigest()
        row = await asyncio.to_thread(self._post, room, user, text, client)
        await self._deliver(room, [row])
        return orjson.dumps({"type": "ok", "ref": ref})

    # ------------------------------------------------------------------ database
    def _post(self, room: str, user: Account | None, text: str, client: str) -> dict[str, Any]:
        at = self.clock()
        values = {"room": room, "user_id": user.id if user else None, "name": user.name if user else None,
                  "body": text, "client": client, "at": at}
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            if user is not None:
                s = chat_sanctions_table.c
                sanction = conn.execute(select(s.muted_until, s.banned).where(s.user_id == user.id)).first()
                if sanction is not None and sanction.banned is not None:
                    raise WebError(403, TEXTS("banned"))
                if sanction is not None and sanction.muted_until is not None and sanction.muted_until > at:
                    until = time.strftime("%Y-%m-%d %H:%M", time.gmtime(sanction.muted_until))
                    raise WebError(403, TEXTS("muted", until=until))
            values["id"] = conn.execute(insert(chat_messages_table).values(**values)).inserted_primary_key[0]
        self._mark(values["id"])
        return values

    def _mark(self, message_id: int) -> None:
        self.seen[message_id] = None
        while len(self.seen) > 5000:
            self.seen.popitem(last=False)

    def _hidden(self, conn: Any, viewers: set[int]) -> tuple[set[int], dict[int, set[int]]]:
        """The authors hidden from everyone (muted or banned site-wide), and per viewer the
        authors he muted, blocked or was blocked by."""
        s, r = chat_sanctions_table.c, chat_relations_table.c
        sanctioned = {row[0] for row in conn.execute(select(s.user_id).where(
            or_(s.banned.is_not(None), s.muted_until > self.clock())))}
        mine: dict[int, set[int]] = {v: set() for v in viewers}
        if viewers:
            rows = conn.execute(select(r.user_id, r.other_id, r.kind).where(
                or_(r.user_id.in_(viewers), and_(r.other_id.in_(viewers), r.kind == "block"))))
            for by, other, kind in rows:
                if by in mine:
                    mine[by].add(other)
                if kind == "block" and other in mine:
                    mine[other].add(by)
        return sanctioned, mine

    def _history(self, room: str, user: Account | None) -> list[Any]:
        m = chat_messages_table.c
        query = select(chat_messages_table).where(m.room == room).order_by(m.id.desc()).limit(HISTORY)
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = list(conn.execute(query).mappings())[::-1]
            sanctioned, mine = self._hidden(conn, {user.id} if user else set())
        hide = mine.get(user.id, set()) if user else set()
        return [r for r in rows if r["user_id"] is None or (user is not None and r["user_id"] == user.id)
                or (r["user_id"] not in sanctioned and r["user_id"] not in hide)]

    # ------------------------------------------------------------------ pushing
    async def _deliver(self, room: str, rows: list[dict[str, Any]]) -> None:
        members = self._members(room)
        if not members:
            return
        viewers = {user.id for _, user in members if user is not None}
        sanctioned, mine = await asyncio.to_thread(self._hidden_now, viewers)
        for ws, user in members:
            hide = mine.get(user.id, set()) if user else set()
            shown = [_public(r, user) for r in rows if r["user_id"] is None
                     or (user is not None and r["user_id"] == user.id)
                     or (r["user_id"] not in sanctioned and r["user_id"] not in hide)]
            if shown:
                try:
                    await ws.send_text(_message(room, shown).decode())
                except Exception:  # noqa: BLE001 - a closed socket; its handler removes it
                    pass

    def _hidden_now(self, viewers: set[int]) -> tuple[set[int], dict[int, set[int]]]:
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return self._hidden(conn, viewers)

    async def run(self, interval: float = 1.0) -> None:
        """Push the messages other server processes stored, while pages watch here."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.poll()
            except Exception:
                log.exception("looking for new chat messages failed")

    async def poll(self) -> None:
        rooms = [f"{g}/{k}" for g in list(self.hub.rooms) for k in "ps"]
        if self.lobby.watchers:
            rooms.append("lobby")
        if not rooms and self.high is not None:
            return
        found = await asyncio.to_thread(self._new, rooms)
        per_room: dict[str, list[dict[str, Any]]] = {}
        for row in found:
            self._mark(row["id"])
            per_room.setdefault(row["room"], []).append(row)
        for room, rows in per_room.items():
            await self._deliver(room, rows)

    def _new(self, rooms: list[str]) -> list[dict[str, Any]]:
        m = chat_messages_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            if self.high is None:
                self.high = conn.execute(select(func.max(m.id))).scalar() or 0
                return []
            # a little below the highest id seen: a transaction may commit a lower id later
            query = select(chat_messages_table).where(m.id > self.high - 100, m.room.in_(rooms)).order_by(m.id)
            rows = [dict(r) for r in conn.execute(query).mappings() if r["id"] not in self.seen] if rooms else []
            self.high = max([self.high, *(r["id"] for r in rows)],
                            default=self.high)
        return rows

    # ------------------------------------------------------------------ moderation by players
    def relations(self, user: Account) -> dict[str, list[str]]:
        r, u = chat_relations_table.c, users_table.c
        query = select(r.kind, u.name).join(users_table, u.id == r.other_id).where(r.user_id == user.id).order_by(u.name_key)
        found: dict[str, list[str]] = {"mute": [], "block": []}
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            for kind, name in conn.execute(query):
                found[kind].append(name)
        return found

    def relate(self, user: Account, name: Any, kind: Any, on: bool) -> None:
        """Mute or block ``name`` for ``user`` (``on``), or undo that."""
        if kind not in ("mute", "block"):
            raise WebError(400, TEXTS("kind", field="kind"))
        other = _user_id(self.store, name)
        if other == user.id:
            raise WebError(400, TEXTS("yourself"))
        r = chat_relations_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            mine = delete(chat_relations_table).where(r.user_id == user.id, r.other_id == other)
            # a mute replaces a block and the other way round; undoing one leaves the other
            conn.execute(mine if on else mine.where(r.kind == kind))
            if on:
                conn.execute(insert(chat_relations_table).values(user_id=user.id, other_id=other, kind=kind,
                                                                  at=self.clock()))
            if on and kind == "block":  # no challenges between them: the open ones go, unannounced
                c, at = challenges_table.c, self.clock()
                conn.execute(update(challenges_table).where(
                    c.status == "open", or_(and_(c.from_id == user.id, c.to_id == other),
                                            and_(c.from_id == other, c.to_id == user.id)))
                    .values(status="cancelled", told=at, answered=at))

    def report(self, user: Account, message_id: Any, reason: Any) -> None:
        if not isinstance(message_id, int) or isinstance(message_id, bool):
            raise WebError(404, TEXTS("unknown_message", id=str(message_id)[:20]))
        reason = clean_reason(reason)
        m = chat_messages_table.c
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            row = conn.execute(select(chat_messages_table).where(m.id == message_id)).mappings().first()
            if row is None:
                raise WebError(404, TEXTS("unknown_message", id=message_id))
            if row["room"].endswith("/p"):  # the players' chat: only they can read it, and report from it
                g = games_table.c
                owners = conn.execute(select(g.user0, g.user1).where(g.id == row["room"][:-2])).first()
                if owners is None or user.id not in owners:
                    raise WebError(403, TEXTS("no_room"))
            before = conn.execute(select(chat_messages_table).where(m.room == row["room"], m.id < message_id)
                                  .order_by(m.id.desc()).limit(CONTEXT)).mappings().all()
            context = [{"id": r["id"], "name": r["name"], "text": r["body"], "at": r["at"]}
                       for r in [*before[::-1], row]]
            try:
                with conn.begin_nested():
                    conn.execute(insert(chat_reports_table).values(
                        message_id=message_id, reporter_id=user.id, reason=reason,
                        context=json.dumps(context, ensure_ascii=False), at=self.clock()))
            except IntegrityError:
                pass  # reported by him already


def _message(room: str, messages: list[dict[str, Any]], ref: Any = None, replace: bool = False) -> bytes:
    data: dict[str, Any] = {"type": "chat", "room": ROLES.get(room[-1], "lobby") if room != "lobby" else "lobby",
                            "messages": messages}
    if replace:
        data["replace"] = True
    if ref is not None:
        data["ref"] = ref
    return orjson.dumps(data)


def _user_id(store: Store, name: Any) -> int:
    if not isinstance(name, str) or not 1 <= len(name) <= 40:
        raise WebError(404, TEXTS("no_user", player=str(name)[:40]))
    u = users_table.c
    with store._taking_turns(), store.engine.connect() as conn:
        found = conn.execute(select(u.id).where(u.name_key == name_key(name))).scalar()
    if found is None:
        raise WebError(404, TEXTS("no_user", player=name))
    return found


# ---------------------------------------------------------------------------- operators (the CLI)
def reports(store: Store) -> list[dict[str, Any]]:
    """Every report, newest first: the message, its author, the reporter, the context."""
    p, m, u = chat_reports_table.c, chat_messages_table.c, users_table.c
    query = (select(p.id, p.at, p.reason, p.context, m.room, m.name.label("author"), m.body,
                    u.name.label("reporter"))
             .join(chat_messages_table, m.id == p.message_id).join(users_table, u.id == p.reporter_id)
             .order_by(p.id.desc()))
    with store._taking_turns(), store.engine.connect() as conn:
        rows = [dict(r) for r in conn.execute(query).mappings()]
    for row in rows:
        row["context"] = json.loads(row["context"])
    return rows


def _sanction(store: Store, name: str, **values: Any) -> None:
    user_id = _user_id(store, name)
    s = chat_sanctions_table.c
    with store._taking_turns(), store.engine.begin() as conn:
        if conn.execute(select(s.user_id).where(s.user_id == user_id)).first() is None:
            conn.execute(insert(chat_sanctions_table).values(user_id=user_id, muted_until=None, banned=None))
        conn.execute(update(chat_sanctions_table).where(s.user_id == user_id).values(**values))


def mute(store: Store, name: str, hours: float, now: float | None = None) -> float | None:
    """Mute ``name`` site-wide for ``hours`` (0 lifts it); until when."""
    if not 0 <= hours <= 8760:
        raise WebError(400, TEXTS("hours"))
    until = (now or time.time()) + hours * 3600 if hours else None
    _sanction(store, name, muted_until=until)
    return until


def ban(store: Store, name: str, on: bool = True) -> None:
    _sanction(store, name, banned=time.time() if on else None)


# ---------------------------------------------------------------------------- HTTP
def chat_routes(chat: Chat, handler: Callable[[Any], Any],
                viewer: Callable[[Request], Awaitable[Account | None]], json_response: Callable[..., Response],
                read_body: Callable[[Request], Awaitable[dict[str, Any]]]) -> list[Route]:
    async def account(request: Request) -> Account:
        user = await viewer(request)
        if user is None:
            raise WebError(401, TEXTS("login"))
        return user

    @handler
    async def get_relations(request: Request) -> Response:
        user = await account(request)
        return json_response(await asyncio.to_thread(chat.relations, user))

    @handler
    async def set_relation(request: Request) -> Response:
        user = await account(request)
        body = await read_body(request)
        on = body.get("on", True)
        if not isinstance(on, bool):
            raise WebError(400, TEXTS("on", field="on"))
        await asyncio.to_thread(chat.relate, user, body.get("name"), body.get("kind"), on)
        return json_response(await asyncio.to_thread(chat.relations, user))

    @handler
    async def report(request: Request) -> Response:
        user = await account(request)
        body = await read_body(request)
        await asyncio.to_thread(chat.report, user, body.get("message"), body.get("reason"))
        return json_response({"ok": True}, 201)

    return [
        Route("/api/chat/relations", get_relations, methods=["GET"]),
        Route("/api/chat/relations", set_relation, methods=["POST"]),
        Route("/api/chat/reports", report, methods=["POST"]),
    ]

