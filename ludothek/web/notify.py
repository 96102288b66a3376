"""Changes made by other server processes, pushed over PostgreSQL's LISTEN/NOTIFY.

The store runs :func:`notify_statement` in the transaction that writes a game, so the
notification goes out when (and only if) that transaction commits. Each server process keeps
one :class:`PgListener`, which tells the app about every game another process changed. A
notification sent while the listener was disconnected is lost for good, so after every
reconnect it calls ``on_resync`` and the app re-reads the games it watches.

Payloads are ``game_id:version:origin``; ``origin`` (:data:`ORIGIN`) is random per process, so
a process can skip its own changes, which it has already published. An account whose sessions
ended (disabled, a new password) is announced as ``~sessions~USER_ID:0:origin`` (no game id
starts with ``~``), so every server forgets the sessions it cached for it at once.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.sql.elements import TextClause

log = logging.getLogger("ludothek.web.notify")

CHANNEL = "ludothek_games"
ORIGIN = secrets.token_hex(8)


def is_postgres(url: str) -> bool:
    try:
        return make_url(url).get_backend_name() in ("postgresql", "postgres")
    except ArgumentError:
        return False


def conninfo(url: str) -> str:
    """A libpq connection string for a SQLAlchemy URL (``postgresql+psycopg://…`` and the like);
    query parameters such as ``host=/socket/dir`` are kept."""
    from psycopg.conninfo import make_conninfo

    parsed = make_url(url)
    params: dict[str, Any] = {
        "host": parsed.host, "port": parsed.port, "user": parsed.username,
        "password": parsed.password, "dbname": parsed.database,
    }
    for key, value in parsed.query.items():
        params[key] = ",".join(value) if isinstance(value, tuple) else value  # several hosts
    return make_conninfo(**{key: value for key, value in params.items() if value is not None})


def payload(game_id: str, version: int, *, origin: str | None = None) -> str:
    """The notification for a game now at ``version``."""
    return f"{game_id}:{int(version)}:{origin or ORIGIN}"


def notify_statement(game_id: str, version: int, *, origin: str | None = None) -> TextClause:
    """``pg_notify`` for a game now at ``version``: execute it inside the writing transaction."""
    return text("SELECT pg_notify(:channel, :payload)").bindparams(
        channel=CHANNEL, payload=payload(game_id, version, origin=origin))


SESSIONS = "~sessions~"


def sessions_ended_statement(user_id: int) -> TextClause:
    """``pg_notify`` that the account's sessions ended: execute it in the transaction that ends them."""
    return text("SELECT pg_notify(:channel, :payload)").bindparams(
        channel=CHANNEL, payload=payload(f"{SESSIONS}{int(user_id)}", 0))


def parse_payload(payload: str) -> tuple[str, int, str] | None:
    try:
        game_id, version, origin = payload.rsplit(":", 2)
        return game_id, int(version), origin
    except ValueError:
        return None


Callback = Callable[..., Awaitable[None] | None]


class PgListener:
    """One dedicated connection that LISTENs; ``on_change(game_id, version)`` for each change
    another process committed, ``on_resync()`` after the connection was lost and restored,
    ``on_sessions_ended(user_id)`` when another process ended an account's sessions."""

    MIN_DELAY = 0.1
    MAX_DELAY = 5.0

    def __init__(self, url: str, on_change: Callback, on_resync: Callback, *, heartbeat: float = 30.0,
                 on_sessions_ended: Callback | None = None):
        self.conninfo = conninfo(url)
        self.on_change = on_change
        self.on_resync = on_resync
        self.on_sessions_ended = on_sessions_ended
        #: how often an idle connection is checked (a dead peer without a TCP reset shows only then)
        self.heartbeat = heartbeat
        self._conn: Any = None
        self._task: asyncio.Task | None = None

    @property
    def backend_pid(self) -> int | None:
        """The server process of the listening connection (for tests and diagnostics)."""
        return self._conn.info.backend_pid if self._conn is not None else None

    async def start(self) -> None:
        """Connect and LISTEN (an error here is raised), then listen in a background task."""
        self._conn = await self._connect()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="ludothek-pg-listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        await self._close()

    async def _connect(self) -> Any:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        await conn.execute(f"LISTEN {CHANNEL}")
        return conn

    async def _close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                await conn.close()
            except Exception:  # noqa: BLE001 - it is broken already
                pass

    async def _run(self) -> None:
        import psycopg

        while True:
            try:
                while True:
                    async for note in self._conn.notifies(timeout=self.heartbeat):
                        await self._deliver(note.payload)
                    # an idle check: a peer that vanished without a reset only shows up here
                    # (psycopg >= 3.2.4 keeps notifications that arrive meanwhile)
                    await self._conn.execute("SELECT 1")
            except psycopg.Error as exc:
                log.warning("lost the PostgreSQL notification connection (%s); reconnecting", exc)
            await self._close()
            delay = self.MIN_DELAY
            while self._conn is None:
                await asyncio.sleep(delay)
                try:
                    self._conn = await self._connect()
                except psycopg.Error as exc:
                    log.warning("cannot reconnect for notifications yet (%s)", exc)
                    delay = min(delay * 2, self.MAX_DELAY)
            await self._call(self.on_resync)

    async def _deliver(self, payload: str) -> None:
        parsed = parse_payload(payload)
        if parsed is None:
            log.warning("ignoring a malformed notification %r", payload[:100])
        elif parsed[2] == ORIGIN:
            return
        elif parsed[0].startswith(SESSIONS):
            if self.on_sessions_ended is not None and parsed[0][len(SESSIONS):].isdigit():
                await self._call(self.on_sessions_ended, int(parsed[0][len(SESSIONS):]))
        else:
            await self._call(self.on_change, parsed[0], parsed[1])

    async def _call(self, callback: Callback, *args: Any) -> None:
        try:
            result = callback(*args)
            if inspect.isawaitable(result):
                await result
        except Exception:
            log.exception("a notification callback failed")
