"""Storage: a small repository over SQLAlchemy Core (SQLite by default, any SQLAlchemy URL).

Two tables. ``games`` holds what a game *is* (game name, options, setup position, seats,
token hashes, clock settings and readings, result); ``moves`` holds every applied action in
order. A game's state is replayed from its moves; what the server keeps in memory is a cache.
Beside them: ``analyses`` (stored computer analyses), and the optional accounts, ``users`` and
``sessions`` (read and written by :mod:`.accounts`; ``games.user0``/``user1`` name a seat's owner).

Every change bumps ``games.version`` with a compare-and-set (``WHERE version = :seen``) in
the same transaction as the moves it writes, so two server processes sharing one database
can never both append the same ply; the loser gets :class:`Conflict` and retries.

Writes go through one writer thread that commits everything queued meanwhile in a single
transaction (group commit): with SQLite's full sync, one fsync acknowledges a whole batch of
moves from different games, and no acknowledged move is ever lost.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import queue
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    case,
    create_engine,
    event,
    func,
    or_,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from ..ratings import Rating, rate_game
from . import migrations
from .metrics import DB_COMMIT
from .notify import CHANNEL, is_postgres, payload

#: a rating this uncertain is provisional (lichess's threshold): shown with "?" and ranked last
PROVISIONAL_DEVIATION = 110.0

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
    Column("termination", String(16), nullable=True),  # rules | resign | time | abandon | expired | agreement | aborted
    Column("tags", Text, nullable=False),  # JSON object of extra record tags
    Column("clock", Text, nullable=True),  # JSON {"initial", "increment", "remaining": [a, b], "since"}
    Column("version", Integer, nullable=False, default=0),
    Column("ply", Integer, nullable=False, default=0),  # actions stored (a die's outcome is one)
    Column("turns", Integer, nullable=False, default=0),  # moves made by the players
    Column("rematch_of", String(24), nullable=True),
    Column("rematch", String(24), nullable=True),
    Column("creator", String(64), nullable=True),  # sha256 of the creating client's address
    Column("dice_secret", String(64), nullable=True),  # hex secret the game's rolls derive from
    Column("reason", String(24), nullable=True),  # the rule that ended the game (state.termination())
    Column("offer", Text, nullable=True),  # JSON {"kind": "takeback"|"draw", "by": seat, "ply": n}
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    # the accounts that own the seats (users.id; None: a guest's seat, held by its token alone)
    Column("user0", Integer, nullable=True),
    Column("user1", Integer, nullable=True),
    Column("rated", Integer, nullable=False, default=0, server_default="0"),  # 1: a rated game (Glicko-2)
    Column("to_move", Integer, nullable=True),  # the seat to move while the game is on
    Column("deadline", Float, nullable=True),  # when the player to move runs out of time
    Column("ratings", Text, nullable=True),  # JSON: each seat's rating change once a rated game ended
    Column("winner", Integer, nullable=True),  # once over: the winning seat, -1 a draw, -2 no result
)
Index("games_status_updated", games_table.c.status, games_table.c.updated)
Index("games_mode_status", games_table.c.mode, games_table.c.status)
Index("games_user0", games_table.c.user0)
Index("games_user1", games_table.c.user1)
Index("games_deadline", games_table.c.deadline)

#: each account's Glicko-2 rating per game (see :mod:`ludothek.ratings`)
ratings_table = Table(
    "ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("value", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("ratings_game_value", ratings_table.c.game, ratings_table.c.value)

#: every rating after every rated game, for the profile's chart
rating_history_table = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(32), nullable=False),
    Column("game_id", String(24), nullable=False),
    Column("at", Float, nullable=False),
    Column("value", Float, nullable=False),
    Column("deviation", Float, nullable=False),
)
Index("rating_history_user", rating_history_table.c.user_id, rating_history_table.c.game, rating_history_table.c.at)

#: the lobby's open seeks (:mod:`.lobby`); ``game_id`` is set when someone accepts one
seeks_table = Table(
    "seeks",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("user_id", Integer, nullable=True),  # the author's account (None: a guest)
    Column("name", String(40), nullable=True),  # the author's name then
    Column("token", String(64), nullable=False),  # sha256 of the author's seat token in the game to come
    Column("spec", Text, nullable=False),  # JSON {"game", "options", "clock", "rated", "seat"}
    Column("client", String(64), nullable=False),  # sha256 of the author's address (a guest's seeks are counted by it)
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),  # the author's page was last known to be open
    Column("expires", Float, nullable=False),
    Column("game_id", String(24), nullable=True),
)

#: accounts (optional: guests play with seat tokens alone), see :mod:`.accounts`
users_table = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),  # as its owner wrote it
    Column("name_key", String(40), nullable=False),  # lower case: names are unique regardless of case
    Column("password", String(255), nullable=False),  # argon2id hash (PHC string)
    Column("created", Float, nullable=False),
    Column("disabled", Float, nullable=True),  # when an operator disabled it (None: active)
)
Index("users_name_key", users_table.c.name_key, unique=True)

#: logged-in browsers: the sha256 of the session cookie's secret, never the secret itself
sessions_table = Table(
    "sessions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("expires", Float, nullable=False),
)
Index("sessions_user", sessions_table.c.user_id)

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

#: the computer analysis of a finished game (:mod:`.analysis`), computed once and kept
analyses_table = Table(
    "analyses",
    metadata,
    Column("game_id", String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("format", Integer, nullable=False),  # the analysis' format: an older one is computed again
    Column("plies", Integer, nullable=False),  # the plies analysed
    Column("result", Text, nullable=False),  # JSON: ludothek.ai.review.Review.to_json()
    Column("created", Float, nullable=False),
)

#: each account's Glicko-2 puzzle rating per game (:mod:`.puzzles`)
puzzle_ratings_table = Table(
    "puzzle_ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("value", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

#: each puzzle's own Glicko-2 rating, once someone has answered it (before: the set's guess)
puzzle_stats_table = Table(
    "puzzle_stats",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("value", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

#: an account's first answer to each puzzle (only that one is rated)
puzzle_attempts_table = Table(
    "puzzle_attempts",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("puzzle_id", String(32), primary_key=True),
    Column("at", Float, nullable=False),
    Column("correct", Integer, nullable=False),
)

#: the lesson steps a player has done (:mod:`.lessons`), one row a step
lesson_progress_table = Table(
    "lesson_progress",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("step", String(40), primary_key=True),
    Column("done", Float, nullable=False),  # when
)


#: direct challenges between two accounts (:mod:`.challenges`); ``status``: open | accepted | declined | cancelled
challenges_table = Table(
    "challenges",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("from_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("to_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("spec", Text, nullable=False),  # JSON {"game", "options", "clock", "rated", "seat"} (seat: the challenger's)
    Column("status", String(10), nullable=False),
    Column("reason", String(16), nullable=True),  # a standard reason's key, when declined
    Column("note", Text, nullable=True),  # the decliner's own words (plain text, limited)
    Column("game_id", String(24), nullable=True),  # the game made on acceptance
    Column("told", Float, nullable=True),  # when the challenger's page was told of the answer
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("answered", Float, nullable=True),
)
Index("challenges_to", challenges_table.c.to_id, challenges_table.c.status)
Index("challenges_from", challenges_table.c.from_id, challenges_table.c.status)

#: who follows whom (:mod:`.follows`)
follows_table = Table(
    "follows",
    metadata,
    Column("follower_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("followed_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created", Float, nullable=False),
)
Index("follows_followed", follows_table.c.followed_id)

#: when each account last had a page open (a lobby socket): "online" for its followers
presence_table = Table(
    "presence",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("seen", Float, nullable=False),
)

#: who accepts challenges from whom: everyone | followed | nobody (no row: everyone)
challenge_settings_table = Table(
    "challenge_settings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("accept", String(10), nullable=False),
)

#: players waiting at a quick-pairing button (:mod:`.quickpair`); ``game_id`` once paired
quick_pairing_table = Table(
    "quick_pairing",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("pool", String(48), nullable=False),  # game|minutes+increment
    Column("rating", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("game_id", String(24), nullable=True),
)
Index("quick_pairing_pool", quick_pairing_table.c.pool)

#: chat (:mod:`.chat`): every message, in its room ("lobby", "GAME/p" the players', "GAME/s" the spectators')
chat_messages_table = Table(
    "chat_messages",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(40), nullable=False),
    Column("user_id", Integer, nullable=True),  # the author's account (None: a guest player)
    Column("name", String(40), nullable=True),  # the author's name then
    Column("body", Text, nullable=False),
    Column("client", String(64), nullable=False),  # sha256 of the author's address
    Column("at", Float, nullable=False),
)
Index("chat_messages_room", chat_messages_table.c.room, chat_messages_table.c.id)

#: a player's mutes (their messages hidden for him) and blocks (no chat either way, no challenges)
chat_relations_table = Table(
    "chat_relations",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("other_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", String(8), nullable=False),  # mute | block
    Column("at", Float, nullable=False),
)

#: reported messages, each with the messages before it in its room (JSON)
chat_reports_table = Table(
    "chat_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("message_id", Integer, nullable=False),
    Column("reporter_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("reason", Text, nullable=True),
    Column("context", Text, nullable=False),
    Column("at", Float, nullable=False),
)
Index("chat_reports_message", chat_reports_table.c.message_id, chat_reports_table.c.reporter_id, unique=True)

#: site-wide sanctions set with ``ludothek users mute/ban``
chat_sanctions_table = Table(
    "chat_sanctions",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("muted_until", Float, nullable=True),
    Column("banned", Float, nullable=True),  # since when (None: not banned)
)
tournaments_table = Table(
    "tournaments",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("game", String(32), nullable=False),
    Column("spec", Text, nullable=False),
    Column("creator", Integer, ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("status", String(10), nullable=False),
    Column("created", Float, nullable=False),
    Column("started", Float, nullable=True),
    Column("round", Integer, nullable=False, server_default="0"),
)

tournament_players_table = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("joined", Float, nullable=False),
    Column("active", Boolean, nullable=False),
)

tournament_games_table = Table(
    "tournament_games",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("round", Integer, nullable=False),
    Column("first", Integer, nullable=False),
    Column("second", Integer, nullable=True),
    Column("game_id", String(16), nullable=True),
    Column("score", Float, nullable=True),
    Column("started", Float, nullable=False),
    Column("finished", Float, nullable=True),
)
Index("tournament_games_game", tournament_games_table.c.game_id)

tournament_bots_table = Table(
    "tournament_bots",
    metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("id", Integer, primary_key=True, autoincrement=False),  # -1, -2, ...: its number in the games
    Column("agent", String(32), nullable=False),
    Column("joined", Float, nullable=False),
)


class Conflict(Exception):
    """The game changed since it was read (another request or process wrote first)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def database_url(text: str | None) -> str:
    """A SQLAlchemy URL; a plain file path means a SQLite file, and a plain PostgreSQL URL
    uses psycopg 3 (``pip install 'ludothek[postgres]'``)."""
    if not text:
        return "sqlite:///ludothek.sqlite3"
    if "://" not in text:
        return "sqlite:///" + os.path.abspath(text)
    scheme, rest = text.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return "postgresql+psycopg://" + rest
    return text


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
    creator: str | None = None
    dice_secret: str | None = None
    reason: str | None = None
    offer: dict[str, Any] | None = None
    user0: int | None = None
    user1: int | None = None
    rated: bool = False
    to_move: int | None = None
    deadline: float | None = None
    ratings: list[dict[str, float]] | None = None
    winner: int | None = None
    moves: list[tuple[int, str, int, float]] = field(default_factory=list)  # (action, text, seat, at)

    def token_hash(self, seat: int) -> str | None:
        return self.token0 if seat == 0 else self.token1

    def user_of(self, seat: int) -> int | None:
        """The account that owns a seat (None: a guest's)."""
        return self.user0 if seat == 0 else self.user1

    def seats_of(self, token: str | None, user: int | None = None) -> list[int]:
        """The seats a token controls (both in a hot-seat game), and those the account
        ``user`` owns."""
        digest = hash_token(token) if token else None
        return [seat for seat in (0, 1)
                if (digest is not None and self.token_hash(seat) == digest)
                or (user is not None and self.user_of(seat) == user)]


@dataclass(frozen=True)
class Account:
    """A logged-in player: the ``users`` row's id and name (see :mod:`.accounts`)."""

    id: int
    name: str


_JSON_FIELDS = ("options", "seats", "tags", "clock", "offer", "ratings")


_MUTABLE = ("token0", "token1", "invite", "status", "result", "termination", "reason", "offer", "tags", "clock",
            "ply", "turns", "rematch", "version", "updated", "seats", "user0", "user1", "to_move", "deadline", "winner")


@dataclass(eq=False)
class Write:
    """One game's change: a new game (``seen is None``) or a compare-and-set update that
    appends moves, or first cuts them back to ``truncate_to`` plies (an undo)."""

    game: GameRow
    seen: int | None
    append: list[tuple[int, str, int, float]] = field(default_factory=list)
    truncate_to: int | None = None
    #: a rated game ends: (account of seat 0, account of seat 1, seat 0's score); both ratings
    #: change in the same transaction (:meth:`Store._rate`)
    rate: tuple[int, int, float] | None = None


class _Statements:
    """The writer's SQL in the driver's own parameter style: the hot path skips SQLAlchemy's
    statement compilation (it cost more than the database work)."""

    def __init__(self, paramstyle: str):
        def p(name: str) -> str:
            return f"%({name})s" if paramstyle == "pyformat" else f":{name}"

        self.update = ("UPDATE games SET " + ", ".join(f"{n} = {p(n)}" for n in _MUTABLE)
                       + f" WHERE id = {p('id')} AND version = {p('seen')}")
        self.insert_game = (f"INSERT INTO games ({', '.join(_COLUMNS)}) "
                            f"VALUES ({', '.join(p(n) for n in _COLUMNS)})")
        move_columns = ("game_id", "ply", "action", "text", "seat", "at")
        self.insert_moves = (f"INSERT INTO moves ({', '.join(move_columns)}) "
                             f"VALUES ({', '.join(p(n) for n in move_columns)})")
        self.truncate = f"DELETE FROM moves WHERE game_id = {p('id')} AND ply >= {p('ply')}"
        self.notify = f"SELECT pg_notify({p('channel')}, {p('payload')})"
        self.new_rating = ("INSERT INTO ratings (user_id, game, value, deviation, volatility, games, updated) "
                           f"VALUES ({p('user')}, {p('game')}, {p('value')}, {p('deviation')}, {p('volatility')}, 0, "
                           f"{p('at')}) ON CONFLICT DO NOTHING")
        self.rating = ("SELECT value, deviation, volatility FROM ratings "
                       f"WHERE user_id = {p('user')} AND game = {p('game')}"
                       + (" FOR UPDATE" if paramstyle == "pyformat" else ""))
        self.set_rating = (f"UPDATE ratings SET value = {p('value')}, deviation = {p('deviation')}, "
                           f"volatility = {p('volatility')}, games = games + 1, updated = {p('at')} "
                           f"WHERE user_id = {p('user')} AND game = {p('game')}")
        self.rating_history = ("INSERT INTO rating_history (user_id, game, game_id, at, value, deviation) "
                               f"VALUES ({p('user')}, {p('game')}, {p('game_id')}, {p('at')}, {p('value')}, "
                               f"{p('deviation')})")
        self.game_ratings = f"UPDATE games SET ratings = {p('ratings')} WHERE id = {p('id')}"


class Store:
    def __init__(self, url: str | None = None, echo: bool = False, sqlite_sync: str = "full",
                 clock: Callable[[], float] = time.time):
        """``sqlite_sync``: ``full`` (default) syncs every commit to disk, so even a power cut
        loses no acknowledged move; ``normal`` (WAL) survives any crash of the server process
        but not of the machine. ``clock``: the time now for the games' ``updated`` and the
        ratings' periods (the app's clock, which its deadlines and claims are counted on)."""
        if sqlite_sync not in ("full", "normal"):
            raise ValueError(f"sqlite_sync must be full or normal, not {sqlite_sync!r}")
        self.url = database_url(url)
        self.clock = clock
        self.is_sqlite = self.url.startswith("sqlite")
        self.is_postgres = is_postgres(self.url)
        kwargs: dict[str, Any] = {"echo": echo}
        memory = self.url in ("sqlite://", "sqlite:///:memory:")
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if memory:
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            mode = sqlite_sync.upper()
            event.listen(self.engine, "connect", lambda conn, record: _sqlite_pragmas(conn, mode))
        # an in-memory database is one shared connection: its readers and the writer take turns
        self._shared = threading.Lock() if memory else None
        migrations.upgrade(self.engine)
        self._queue: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="ludothek-writer", daemon=True)
        self._writer.start()
        #: batches committed and writes in them, for the benchmark's report
        self.batches = 0
        self.writes = 0

    def close(self) -> None:
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join(30)
        self.engine.dispose()

    def _taking_turns(self) -> Any:
        return self._shared if self._shared is not None else nullcontext()

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str, with_moves: bool = True) -> GameRow | None:
        with self._taking_turns(), self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).mappings().first()
            if row is None:
                return None
            game = _row_to_game(row)
            if with_moves:
                game.moves = _moves(conn, game_id)
        return game

    def load_moves(self, game_id: str) -> list[tuple[int, str, int, float]]:
        with self._taking_turns(), self.engine.connect() as conn:
            return _moves(conn, game_id)

    def version(self, game_id: str) -> int | None:
        with self._taking_turns(), self.engine.connect() as conn:
            return conn.execute(select(games_table.c.version).where(games_table.c.id == game_id)).scalar()

    def list_games(self, status: str | None = None, limit: int = 50, offset: int = 0,
                   user: int | None = None, game: str | None = None, mode: str | None = None,
                   turn_first: bool = False) -> list[GameRow]:
        """The newest games first; ``user``: only those in which that account owns a seat
        (``turn_first``: those where it is his turn first, then his other games on); ``game``,
        ``mode``: only those."""
        t = games_table.c
        order = [t.updated.desc()]
        if turn_first and user is not None:
            its_turn = and_(t.mode == "online", or_(and_(t.to_move == 0, t.user0 == user),
                                                    and_(t.to_move == 1, t.user1 == user)))
            order = [case((its_turn, 0), (t.status == "ongoing", 1), else_=2), *order]
        query = select(games_table).order_by(*order).limit(limit).offset(offset)
        if status:
            query = query.where(t.status == status)
        if user is not None:
            query = query.where(or_(t.user0 == user, t.user1 == user))
        if game is not None:
            query = query.where(t.game == game)
        if mode is not None:
            query = query.where(t.mode == mode)
        with self._taking_turns(), self.engine.connect() as conn:
            return [_row_to_game(r) for r in conn.execute(query).mappings()]

    def turns_of(self, users: list[int]) -> dict[int, list[str]]:
        """For each account, the ongoing games against another person where it is his turn
        (at his own screen, against a bot, it always is)."""
        t = games_table.c
        query = select(t.id, t.to_move, t.user0, t.user1).where(
            t.status == "ongoing", t.mode == "online", or_(t.user0.in_(users), t.user1.in_(users)))
        turns: dict[int, list[str]] = {user: [] for user in users}
        with self._taking_turns(), self.engine.connect() as conn:
            for game_id, to_move, user0, user1 in conn.execute(query):
                user = user0 if to_move == 0 else user1 if to_move == 1 else None
                if user in turns:
                    turns[user].append(game_id)
        return turns

    def past_deadline(self, at: float) -> list[str]:
        """Games on whose player to move ran out of time before ``at``."""
        query = select(games_table.c.id).where(games_table.c.status == "ongoing", games_table.c.deadline < at)
        with self._taking_turns(), self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def needs_bookkeeping(self) -> list[str]:
        """Games from before schema 0006 whose seat to move or winner is not filled in yet."""
        t = games_table.c
        query = select(t.id).where(or_(
            and_(t.status == "ongoing", t.to_move.is_(None)),
            and_(t.status == "over", t.winner.is_(None), or_(t.user0.is_not(None), t.user1.is_not(None)))))
        with self._taking_turns(), self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def set_bookkeeping(self, game: GameRow) -> None:
        """Write the derived columns of a game (they change no version: nothing is played)."""
        values = {"to_move": game.to_move, "deadline": game.deadline, "winner": game.winner}
        with self._taking_turns(), self.engine.begin() as conn:
            conn.execute(games_table.update().where(games_table.c.id == game.id).values(**values))

    def bot_games(self) -> list[str]:
        """Ongoing games with a bot seat (after a restart, a bot may be due in some)."""
        # a bot plays in a game against a bot, and in a tournament's online games it was paired into
        query = select(games_table.c.id).where(
            or_(games_table.c.mode == "bot", games_table.c.seats.like('%"bot"%')), games_table.c.status == "ongoing")
        with self._taking_turns(), self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def live_bot_games(self, creator: str, since: float) -> int:
        """Ongoing games against a bot that ``creator`` made and that moved since ``since``."""
        query = select(func.count()).where(
            games_table.c.mode == "bot", games_table.c.status == "ongoing", games_table.c.creator == creator,
            games_table.c.updated >= since,
        )
        with self._taking_turns(), self.engine.connect() as conn:
            return conn.execute(query).scalar() or 0

    def waiting_since(self, before: float) -> list[str]:
        """Games still waiting for their second player that were made before ``before``."""
        query = select(games_table.c.id).where(games_table.c.status == "waiting", games_table.c.created < before)
        with self._taking_turns(), self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def live_games(self) -> int:
        """Games being played (the metrics' live games)."""
        query = select(func.count()).where(games_table.c.status == "ongoing")
        with self._taking_turns(), self.engine.connect() as conn:
            return conn.execute(query).scalar() or 0

    def ping(self) -> None:
        """Raise unless the database answers (the readiness check)."""
        with self._taking_turns(), self.engine.connect() as conn:
            conn.execute(select(1)).scalar()

    def count_moves(self, game_id: str) -> int:
        with self._taking_turns(), self.engine.connect() as conn:
            return conn.execute(select(func.count()).where(moves_table.c.game_id == game_id)).scalar() or 0

    # ------------------------------------------------------------------ writing
    async def commit(self, write: Write) -> None:
        """Queue a write for the next group commit and wait until it is durable. Raises
        :class:`Conflict` if the game changed meanwhile, or the database's error."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._put(write, (loop, done))
        await done

    def _put(self, write: Write, waiter: Any) -> None:
        if not self._writer.is_alive():
            raise RuntimeError("the store is closed")
        self._queue.put((write, waiter))

    def _write_loop(self) -> None:
        statements = _Statements(self.engine.dialect.paramstyle)
        connection = None
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch = [item]
            stop = False
            while True:  # everything queued while the last commit was syncing joins this one
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            if connection is None:
                connection = self.engine.raw_connection()
            started = time.perf_counter()
            try:
                outcomes = self._commit_batch(connection, statements, [w for w, _ in batch])
                DB_COMMIT.observe(time.perf_counter() - started)
            except Exception:  # noqa: BLE001 - the connection may be broken: start a new one
                connection.invalidate()
                connection = None
                outcomes = [RuntimeError("the database write failed")] * len(batch)
            self.batches += 1
            self.writes += len(batch)
            _resolve([waiter for _, waiter in batch], outcomes)
            if stop:
                break
        if connection is not None:
            connection.close()

    def _commit_batch(self, connection: Any, statements: _Statements, batch: list[Write]) -> list[Exception | None]:
        try:
            return self._transaction(connection, statements, batch)
        except Exception:  # noqa: BLE001 - one bad write must not fail the others: try each alone
            connection.rollback()
            outcomes: list[Exception | None] = []
            for write in batch:
                try:
                    outcomes.extend(self._transaction(connection, statements, [write]))
                except Exception as exc:  # noqa: BLE001 - handed to the waiting request
                    connection.rollback()
                    outcomes.append(exc)
            return outcomes

    def _transaction(self, connection: Any, statements: _Statements, batch: list[Write]) -> list[Exception | None]:
        outcomes: list[Exception | None] = []
        moves: list[dict[str, Any]] = []
        notices: list[dict[str, Any]] = []
        rated: list[tuple[GameRow, list[dict[str, float]]]] = []
        now = self.clock()
        with self._taking_turns():
            cursor = connection.cursor()
            if self.is_sqlite:
                cursor.execute("BEGIN IMMEDIATE")
            for write in batch:
                game = write.game
                values = _game_to_values(game)
                if write.seen is None:
                    cursor.execute(statements.insert_game, values)
                else:
                    values.update(seen=write.seen, version=write.seen + 1, updated=now)
                    cursor.execute(statements.update, values)
                    if cursor.rowcount != 1:
                        outcomes.append(Conflict(f"game {game.id} changed while this request was handled"))
                        continue
                    if write.truncate_to is not None:
                        cursor.execute(statements.truncate, {"id": game.id, "ply": write.truncate_to})
                    if write.rate is not None:
                        rated.append((game, _rate(cursor, statements, game, write.rate, now)))
                start = game.ply - len(write.append)
                moves.extend(
                    {"game_id": game.id, "ply": start + k, "action": action, "text": text, "seat": seat, "at": at}
                    for k, (action, text, seat, at) in enumerate(write.append)
                )
                if self.is_postgres:
                    notices.append({"channel": CHANNEL, "payload": payload(game.id, values["version"])})
                outcomes.append(None)
            if moves:
                cursor.executemany(statements.insert_moves, moves)
            for notice in notices:
                cursor.execute(statements.notify, notice)
            cursor.close()
            connection.commit()
        for write, outcome in zip(batch, outcomes):
            if outcome is None and write.seen is not None:
                write.game.version = write.seen + 1
                write.game.updated = now
        for game, changes in rated:
            game.ratings = changes
        return outcomes


def _rate(cursor: Any, statements: _Statements, game: GameRow, rate: tuple[int, int, float],
          now: float) -> list[dict[str, float]]:
    """Both players' Glicko-2 ratings after a rated game (one game is one rating period, as
    on lichess), written with the game's end in one transaction; the change per seat."""
    first, second, score = rate
    before = []
    for user in sorted((first, second)):  # rows locked in one order: two games never deadlock
        start = Rating()
        cursor.execute(statements.new_rating, {"user": user, "game": game.game, "value": start.value,
                                               "deviation": start.deviation, "volatility": start.volatility, "at": now})
        cursor.execute(statements.rating, {"user": user, "game": game.game})
        before.append((user, Rating(*cursor.fetchone())))
    old = dict(before)
    new = rate_game(old[first], old[second], score)
    changes = []
    for user, rating, was in ((first, new[0], old[first]), (second, new[1], old[second])):
        values = {"user": user, "game": game.game, "at": now, "value": rating.value, "deviation": rating.deviation,
                  "volatility": rating.volatility}
        cursor.execute(statements.set_rating, values)
        cursor.execute(statements.rating_history, {**values, "game_id": game.id})
        changes.append({"before": round(was.value, 2), "after": round(rating.value, 2),
                        "delta": round(rating.value - was.value, 2), "deviation": round(rating.deviation, 2),
                        "deviation_before": round(was.deviation, 2)})
    cursor.execute(statements.game_ratings, {"id": game.id, "ratings": json.dumps(changes)})
    return changes


def _resolve(waiters: list[Any], outcomes: list[Exception | None]) -> None:
    """Hand each outcome to its waiter: one wake-up per event loop for the whole batch."""
    per_loop: dict[Any, list[tuple[Any, Exception | None]]] = {}
    for (loop, future), outcome in zip(waiters, outcomes):
        per_loop.setdefault(loop, []).append((future, outcome))
    for loop, items in per_loop.items():
        try:
            loop.call_soon_threadsafe(_settle_futures, items)
        except RuntimeError:  # that loop has closed: nobody waits any more
            pass


def _settle_futures(items: list[tuple[asyncio.Future, Exception | None]]) -> None:
    for future, outcome in items:
        if future.done():
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)


def _moves(conn: Any, game_id: str) -> list[tuple[int, str, int, float]]:
    result = conn.execute(
        select(moves_table.c.action, moves_table.c.text, moves_table.c.seat, moves_table.c.at)
        .where(moves_table.c.game_id == game_id)
        .order_by(moves_table.c.ply)
    )
    return [tuple(r) for r in result]


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
    data["rated"] = bool(data["rated"])
    return GameRow(**data)


_COLUMNS = tuple(c.name for c in games_table.columns)


def _game_to_values(game: GameRow) -> dict[str, Any]:
    values = {name: getattr(game, name) for name in _COLUMNS}
    values["rated"] = int(game.rated)
    for name in _JSON_FIELDS:
        if values[name] is not None:
            values[name] = json.dumps(values[name], ensure_ascii=False, sort_keys=True)
    return values
