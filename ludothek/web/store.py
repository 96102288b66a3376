"""Storage: a small repository over SQLAlchemy Core (SQLite by default, any SQLAlchemy URL).

Two tables. ``games`` holds what a game *is* (game name, options, setup position, seats,
token hashes, clock settings and readings, result); ``moves`` holds every applied action in
order. A live game's state is never kept anywhere else: it is replayed from its moves.

Every change bumps ``games.version`` with a compare-and-set (``WHERE version = :seen``) in
the same transaction as the moves it writes, so two server processes sharing one database
can never both append the same ply; the loser gets :class:`Conflict` and retries.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("position", Text, nullable=True),  # setup position, None = the start
    Column("mode", String(8), nullable=False),  # local | bot | online
    Column("seats", Text, nullable=False),  # JSON list of two {"kind": "human"|"bot", "agent": ...}
    Column("token0", String(64), nullable=True),  # sha256 of seat 0's token
    Column("token1", String(64), nullable=True),
    Column("invite", String(64), nullable=True),  # sha256 of the invite code while the seat is open
    Column("status", String(8), nullable=False),  # waiting | ongoing | over
    Column("result", String(16), nullable=False, default="*"),
    Column("termination", String(16), nullable=True),  # rules | resign | time
    Column("tags", Text, nullable=False),  # JSON object of extra record tags
    Column("clock", Text, nullable=True),  # JSON {"initial", "increment", "remaining": [a, b], "since"}
    Column("version", Integer, nullable=False, default=0),
    Column("ply", Integer, nullable=False, default=0),  # actions stored (a die's outcome is one)
    Column("turns", Integer, nullable=False, default=0),  # moves made by the players
    Column("rematch_of", String(24), nullable=True),
    Column("rematch", String(24), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("games_status_updated", games_table.c.status, games_table.c.updated)

moves_table = Table(
    "moves",
    metadata,
    Column("game_id", String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("action", Integer, nullable=False),
    Column("text", String(80), nullable=False),
    Column("seat", Integer, nullable=False),  # -1 for chance (a server roll)
    Column("at", Float, nullable=False),
)


class Conflict(Exception):
    """The game changed since it was read (another request or process wrote first)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def database_url(text: str | None) -> str:
    """A SQLAlchemy URL; a plain file path means a SQLite file."""
    if not text:
        return "sqlite:///ludothek.sqlite3"
    if "://" in text:
        return text
    return "sqlite:///" + os.path.abspath(text)


@dataclass
class GameRow:
    id: str
    game: str
    options: dict[str, Any]
    position: str | None
    mode: str
    seats: list[dict[str, Any]]
    token0: str | None
    token1: str | None
    invite: str | None
    status: str
    result: str
    termination: str | None
    tags: dict[str, str]
    clock: dict[str, Any] | None
    version: int
    ply: int
    turns: int
    rematch_of: str | None
    rematch: str | None
    created: float
    updated: float
    moves: list[tuple[int, str, int, float]] = field(default_factory=list)  # (action, text, seat, at)

    def token_hash(self, seat: int) -> str | None:
        return self.token0 if seat == 0 else self.token1

    def seats_of(self, token: str | None) -> list[int]:
        """The seats a token controls (both in a hot-seat game)."""
        if not token:
            return []
        digest = hash_token(token)
        return [seat for seat in (0, 1) if self.token_hash(seat) == digest]


_JSON_FIELDS = ("options", "seats", "tags", "clock")


class Store:
    def __init__(self, url: str | None = None, echo: bool = False, sqlite_sync: str = "full"):
        """``sqlite_sync``: ``full`` (default) syncs every commit to disk, so even a power cut
        loses no acknowledged move; ``normal`` (WAL) survives any crash of the server process
        but not of the machine, and is several times faster on slow disks."""
        if sqlite_sync not in ("full", "normal"):
            raise ValueError(f"sqlite_sync must be full or normal, not {sqlite_sync!r}")
        self.url = database_url(url)
        kwargs: dict[str, Any] = {"echo": echo}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(self.url, **kwargs)
        # one writer at a time in this process: SQLite's own busy handler backs off with
        # sleeps, which makes latency spiky when many threads commit at once
        self._write_lock = threading.Lock()
        if self.url.startswith("sqlite"):
            mode = sqlite_sync.upper()
            event.listen(self.engine, "connect", lambda conn, record: _sqlite_pragmas(conn, mode))
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str, with_moves: bool = True) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if row is None:
                return None
            game = _row_to_game(row)
            if with_moves:
                result = conn.execute(
                    select(moves_table.c.action, moves_table.c.text, moves_table.c.seat, moves_table.c.at)
                    .where(moves_table.c.game_id == game_id)
                    .order_by(moves_table.c.ply)
                )
                game.moves = [tuple(r) for r in result]
        return game

    def load_moves(self, game_id: str) -> list[tuple[int, str, int, float]]:
        with self.engine.connect() as conn:
            result = conn.execute(
                select(moves_table.c.action, moves_table.c.text, moves_table.c.seat, moves_table.c.at)
                .where(moves_table.c.game_id == game_id)
                .order_by(moves_table.c.ply)
            )
            return [tuple(r) for r in result]

    def version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games_table.c.version).where(games_table.c.id == game_id)).scalar()

    def list_games(self, status: str | None = None, limit: int = 50, offset: int = 0) -> list[GameRow]:
        query = select(games_table).order_by(games_table.c.updated.desc()).limit(limit).offset(offset)
        if status:
            query = query.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            return [_row_to_game(r) for r in conn.execute(query).mappings()]

    def count_moves(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).where(moves_table.c.game_id == game_id)).scalar() or 0

    # ------------------------------------------------------------------ writing
    def create(self, game: GameRow, moves: list[tuple[int, str, int, float]] = ()) -> None:
        values = _game_to_values(game)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(insert(games_table).values(**values))
            for ply, (action, text, seat, at) in enumerate(moves):
                conn.execute(
                    insert(moves_table).values(game_id=game.id, ply=ply, action=action, text=text, seat=seat, at=at)
                )

    def save(self, game: GameRow, seen_version: int, append: list[tuple[int, str, int, float]] = (),
             truncate_to: int | None = None) -> None:
        """Write ``game``'s fields, append moves (or cut them back to ``truncate_to`` plies)
        in one transaction, if nobody changed the game since ``seen_version``."""
        values = _game_to_values(game)
        values.pop("id")
        values["version"] = seen_version + 1
        values["updated"] = time.time()
        with self._write_lock, self.engine.begin() as conn:
            changed = conn.execute(
                update(games_table)
                .where(games_table.c.id == game.id, games_table.c.version == seen_version)
                .values(**values)
            ).rowcount
            if changed != 1:
                raise Conflict(f"game {game.id} changed while this request was handled")
            if truncate_to is not None:
                conn.execute(
                    delete(moves_table).where(moves_table.c.game_id == game.id, moves_table.c.ply >= truncate_to)
                )
            start = game.ply - len(append)
            for offset, (action, text, seat, at) in enumerate(append):
                conn.execute(
                    insert(moves_table).values(
                        game_id=game.id, ply=start + offset, action=action, text=text, seat=seat, at=at
                    )
                )
        game.version = seen_version + 1
        game.updated = values["updated"]


def _sqlite_pragmas(dbapi_connection: Any, sync: str) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={sync}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _row_to_game(row: Any) -> GameRow:
    data = dict(row)
    for name in _JSON_FIELDS:
        data[name] = json.loads(data[name]) if data[name] is not None else None
    return GameRow(**data)


def _game_to_values(game: GameRow) -> dict[str, Any]:
    values = {
        name: getattr(game, name)
        for name in (
            "id", "game", "options", "position", "mode", "seats", "token0", "token1", "invite", "status",
            "result", "termination", "tags", "clock", "version", "ply", "turns", "rematch_of", "rematch", "created",
            "updated",
        )
    }
    for name in _JSON_FIELDS:
        if values[name] is not None:
            values[name] = json.dumps(values[name], ensure_ascii=False, sort_keys=True)
    return values
