"""Accounts, optional: a player may sign up with a name and a password, log in on any device and
find his seats there. Guests keep playing exactly as before, with seat tokens.

* **Names**: 3 to 20 characters, ASCII letters, digits, ``_`` and ``-``; unique regardless of
  case (``users.name_key`` is the lower-case name). Pages show them as text, never as markup.
* **Passwords**: at least 8 characters (at most 256: hashing is costly), not one of the most
  common passwords (``common_passwords.json``), not the name. Stored as argon2id hashes
  (argon2-cffi's :class:`~argon2.PasswordHasher`), hashed again at login when the hasher's
  parameters changed. Hashes are computed in threads, a few at once, behind a fair bounded
  queue (:mod:`.hashqueue`): the event loop never waits for one, a flood of logins cannot take
  all the memory, and a full queue answers 503 at once instead of making everyone wait.
* **Sessions**: a random secret in the cookie ``ludothek_session`` (HttpOnly, SameSite=Lax,
  Secure over HTTPS); the database keeps its SHA-256 only, with the account, creation, last use
  and expiry (:data:`SESSION_SECONDS` after the last use). A login always starts a new session.
  The CSRF token of a session is derived from its secret (:func:`.guard.csrf_for`).
* **Throttling**: failed logins per client address, per account name and per account and
  address, new accounts per address (:class:`.guard.LoginLimits`). A browser that logged in to
  the account before (its device cookie, :mod:`.devices`) is not held back by the failures of
  others. An unknown name costs a login as much time as a wrong password, so timing does not
  tell which names exist.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from .devices import device_cookie, knows_device
from .guard import LoginLimits
from .hashqueue import HashQueue
from .notify import sessions_ended_statement
from .service import WebError
from .store import Account, Store, games_table, sessions_table, users_table
from .texts import TEXTS

NAME_MIN, NAME_MAX = 3, 20
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: a session ends this long after its last use
SESSION_SECONDS = 30 * 24 * 3600
#: a session's last use is written at most this often (not on every request)
TOUCH_AFTER = 3600
#: a session looked up is trusted this long without asking the database again (PostgreSQL only: a
#: logout on this server ends it at once; an account disabled or given a new password anywhere is
#: announced to every server (:mod:`.notify`), which forgets its sessions at once; a logout on
#: another server within this time). On SQLite, with no such announcements, every request asks
#: the database, a local read.
CACHE_SECONDS = 10.0
CACHE_SIZE = 10_000
COMMON = Path(__file__).with_name("common_passwords.json")


@cache
def common_passwords() -> frozenset[str]:
    return frozenset(json.loads(COMMON.read_text("utf-8"))["passwords"])


def name_key(name: str) -> str:
    return name.lower()


def check_name(name: Any) -> str:
    """A new user name, or ``WebError(400)`` saying the rule."""
    if not isinstance(name, str):
        raise WebError(400, TEXTS("account_fields", fields="name, password"))
    if not NAME_MIN <= len(name) <= NAME_MAX or not NAME_PATTERN.fullmatch(name):
        raise WebError(400, TEXTS("name_rule", low=NAME_MIN, high=NAME_MAX))
    return name


def check_password(password: Any, name: str | None = None) -> str:
    """A new password, or ``WebError(400)`` saying what is wrong with it."""
    if not isinstance(password, str):
        raise WebError(400, TEXTS("account_fields", fields="name, password"))
    if len(password) < PASSWORD_MIN:
        raise WebError(400, TEXTS("password_short", n=PASSWORD_MIN))
    if len(password) > PASSWORD_MAX:
        raise WebError(400, TEXTS("password_long", n=PASSWORD_MAX))
    if password.lower() in common_passwords():
        raise WebError(400, TEXTS("password_common"))
    if name is not None and password.lower() == name.lower():
        raise WebError(400, TEXTS("password_name"))
    return password


def session_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


class Accounts:
    """Users and sessions in the store's database. The coroutines are for the server (they
    hash in threads); the plain methods below them are for ``ludothek users``."""

    def __init__(self, store: Store, limits: LoginLimits | None = None, hasher: PasswordHasher | None = None):
        self.store = store
        self.limits = limits if limits is not None else LoginLimits()
        self.hasher = hasher if hasher is not None else PasswordHasher()  # argon2id, RFC 9106's low-memory profile
        self.hashing = HashQueue()
        self._dummy: str | None = None
        self._cache: OrderedDict[str, tuple[Account, float]] = OrderedDict()
        self._caching = store.is_postgres
        #: bumped whenever sessions are forgotten: a lookup that began before is not cached
        self._forgotten = 0

    # ------------------------------------------------------------------ hashing

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_hex(16))
        return self._dummy

    # ------------------------------------------------------------------ the server's side
    async def signup(self, name: Any, password: Any, client: str) -> tuple[Account, str, str]:
        """A new account and its first session: (account, the session's secret, a device cookie)."""
        name = check_name(name)
        password = check_password(password, name)
        if await asyncio.to_thread(self._user_row, name_key(name)) is not None:
            raise WebError(409, TEXTS("name_taken", user=name))
        self.limits.enforce(client, "signup")
        hashed = await self.hashing.run(client, name_key(name), self.hasher.hash, password)
        account = await asyncio.to_thread(self._insert_user, name, hashed)
        return await self._signed_in(account, hashed)

    async def login(self, name: Any, password: Any, client: str,
                    device: str | None = None) -> tuple[Account, str, str]:
        """Check a name and password: (account, a new session's secret, a new device cookie).
        Failures count against the client's address, the name and the pair of both; over a
        limit, :class:`.guard.TooManyRequests` comes before any check of the password. The
        name's own limit does not hold back a client with the account's ``device`` cookie."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise WebError(400, TEXTS("account_fields", fields="name, password"))
        key = name_key(name)[:64]
        pair = f"{client} {key}"  # an address has no space in it
        self.limits.refuse_if_spent(client, "login")
        self.limits.refuse_if_spent(pair, "pair")
        row = await asyncio.to_thread(self._user_row, key) if len(name) <= 64 else None
        stored = row["password"] if row is not None else self._dummy_hash()
        known = row is not None and knows_device(device, row["id"], stored, self.store.clock())
        if not known:
            self.limits.refuse_if_spent(key, "account")
        good = len(password) <= PASSWORD_MAX and await self.hashing.run(
            client, None if known else key, self._verify, stored, password)
        if row is None or not good:
            self.limits.count(client, "login")
            self.limits.count(pair, "pair")
            if not known:
                self.limits.count(key, "account")
            raise WebError(401, TEXTS("login_wrong"))
        if row["disabled"] is not None:
            raise WebError(403, TEXTS("account_disabled"))
        if self.hasher.check_needs_rehash(stored):  # the hasher's parameters changed since
            stored = await self.hashing.run(client, key, self.hasher.hash, password)
            await asyncio.to_thread(self._set_password_hash, row["id"], stored, False)
        account = Account(row["id"], row["name"])
        return await self._signed_in(account, stored)

    async def _signed_in(self, account: Account, password_hash: str) -> tuple[Account, str, str]:
        """After a signup or a login: the account, a new session's secret and a new device cookie."""
        session = await asyncio.to_thread(self._new_session, account.id)
        return account, session, device_cookie(account.id, password_hash, self.store.clock())

    async def logout(self, secret: str | None) -> None:
        if secret:
            digest = session_digest(secret)
            self._cache.pop(digest, None)
            await asyncio.to_thread(self._drop_session, digest)

    async def session(self, secret: str | None) -> Account | None:
        """The account a session cookie stands for (None: no session, or it ended)."""
        if not secret or len(secret) > 128:
            return None
        digest = session_digest(secret)
        cached = self._cache.get(digest)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        forgotten = self._forgotten
        account = await asyncio.to_thread(self._session_account, digest)
        if account is None:
            self._cache.pop(digest, None)
            return None
        if not self._caching or forgotten != self._forgotten:
            return account  # an end announced while the database was read: ask again next time
        self._cache[digest] = (account, time.monotonic() + CACHE_SECONDS)
        self._cache.move_to_end(digest)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return account

    def forget_user(self, user_id: int) -> None:
        """The account's sessions ended elsewhere (announced by :mod:`.notify`): drop them."""
        self._forgotten += 1
        for digest in [d for d, (account, _) in self._cache.items() if account.id == user_id]:
            del self._cache[digest]

    def forget_all(self) -> None:
        """Announcements may have been missed (the listener reconnected): trust no cached session."""
        self._forgotten += 1
        self._cache.clear()

    # ------------------------------------------------------------------ the database
    def _user_row(self, key: str) -> Any:
        query = select(users_table).where(users_table.c.name_key == key)
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return conn.execute(query).mappings().first()

    def _insert_user(self, name: str, hashed: str) -> Account:
        values = {"name": name, "name_key": name_key(name), "password": hashed, "created": self.store.clock(),
                  "disabled": None}
        try:
            with self.store._taking_turns(), self.store.engine.begin() as conn:
                user_id = conn.execute(insert(users_table).values(**values)).inserted_primary_key[0]
        except IntegrityError:  # the same name, signed up a moment before
            raise WebError(409, TEXTS("name_taken", user=name)) from None
        return Account(int(user_id), name)

    def _new_session(self, user_id: int) -> str:
        secret = secrets.token_urlsafe(32)
        now = self.store.clock()
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.expires < now))  # ended ones
            conn.execute(insert(sessions_table).values(id=session_digest(secret), user_id=user_id, created=now,
                                                       seen=now, expires=now + SESSION_SECONDS))
        return secret

    def _drop_session(self, digest: str) -> None:
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.id == digest))

    def _session_account(self, digest: str) -> Account | None:
        now = self.store.clock()
        query = (select(users_table.c.id, users_table.c.name, users_table.c.disabled, sessions_table.c.seen,
                        sessions_table.c.expires)
                 .select_from(sessions_table.join(users_table, users_table.c.id == sessions_table.c.user_id))
                 .where(sessions_table.c.id == digest))
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        if row is None:
            return None
        if row["disabled"] is not None or row["expires"] <= now:
            self._drop_session(digest)
            return None
        if now - row["seen"] > TOUCH_AFTER:
            with self.store._taking_turns(), self.store.engine.begin() as conn:
                conn.execute(update(sessions_table).where(sessions_table.c.id == digest)
                             .values(seen=now, expires=now + SESSION_SECONDS))
        return Account(int(row["id"]), row["name"])

    def _set_password_hash(self, user_id: int, hashed: str, end_sessions: bool) -> None:
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(update(users_table).where(users_table.c.id == user_id).values(password=hashed))
            if end_sessions:
                self._end_sessions(conn, user_id)

    def _end_sessions(self, conn: Any, user_id: int) -> None:
        """End every session of an account, in the caller's transaction; every server hears of it
        when it commits (PostgreSQL), this one at once."""
        conn.execute(delete(sessions_table).where(sessions_table.c.user_id == user_id))
        if self.store.is_postgres:
            conn.execute(sessions_ended_statement(user_id))
        self.forget_user(user_id)

    # ------------------------------------------------------------------ for whoever runs the server
    def user(self, name: str) -> Any:
        """A user's row by name (any case), or ``WebError(404)``."""
        row = self._user_row(name_key(name))
        if row is None:
            raise WebError(404, TEXTS("user_unknown", user=name))
        return row

    def users(self) -> list[dict[str, Any]]:
        """Every account: name, created, disabled (a time or None), last seen (the newest use of
        a session, or None), live sessions and games (those it owns a seat in)."""
        sessions = (select(sessions_table.c.user_id, func.max(sessions_table.c.seen).label("seen"),
                           func.count().label("sessions"))
                    .where(sessions_table.c.expires > self.store.clock()).group_by(sessions_table.c.user_id).subquery())
        query = (select(users_table.c.id, users_table.c.name, users_table.c.created, users_table.c.disabled,
                        sessions.c.seen, sessions.c.sessions)
                 .select_from(users_table.outerjoin(sessions, sessions.c.user_id == users_table.c.id))
                 .order_by(users_table.c.name_key))
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(query).mappings()]
            for row in rows:
                owned = or_(games_table.c.user0 == row["id"], games_table.c.user1 == row["id"])
                row["games"] = conn.execute(select(func.count()).where(owned)).scalar() or 0
                row["sessions"] = row["sessions"] or 0
        return rows

    def reset_password(self, name: str, password: str) -> None:
        """Give an account a new password (checked like a new one) and end its sessions."""
        row = self.user(name)
        check_password(password, row["name"])
        self._set_password_hash(row["id"], self.hasher.hash(password), True)

    def set_disabled(self, name: str, disabled: bool = True) -> None:
        """Disable an account (it can no longer log in; its sessions end) or enable it again."""
        row = self.user(name)
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            conn.execute(update(users_table).where(users_table.c.id == row["id"])
                         .values(disabled=self.store.clock() if disabled else None))
            if disabled:
                self._end_sessions(conn, row["id"])
