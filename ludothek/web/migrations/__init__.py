"""Schema migrations (Alembic, configured in code: no alembic.ini).

``upgrade(engine)`` brings any database to the newest revision: an empty one, one made before
migrations existed (tables but no ``alembic_version``: it is stamped at 0001 first) and an
up-to-date one (a version check only). It runs in one transaction that holds a lock, so several
server processes starting at once migrate exactly once: an advisory lock on PostgreSQL, the
database's write lock on SQLite.

A database at a revision these scripts do not know (written by a newer Ludothek) is refused
with :class:`NewerSchema` before anything touches it: an older program must not run on, or
"upgrade", a schema it does not understand.

The revisions spell the schema out themselves and never import ``store.metadata``, which keeps
changing; ``tests/test_web_migrations.py`` checks that they agree with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from ...core.errors import LudothekError
from ..texts import TEXTS

HERE = Path(__file__).parent
BASELINE = "0001"  # the schema Store created with metadata.create_all before migrations
_LOCK_KEY = 0x6C75646F  # pg_advisory_xact_lock key: "ludo"


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


@cache
def head() -> str:
    return ScriptDirectory.from_config(config()).get_current_head()


class NewerSchema(LudothekError):
    """The database's schema revision is not one of ours: a newer Ludothek made it."""


@cache
def known() -> frozenset[str]:
    """Every revision of our scripts."""
    return frozenset(script.revision for script in ScriptDirectory.from_config(config()).walk_revisions())


def check(revision: str | None, where: str) -> None:
    """Refuse a schema revision newer than this code (``where``: the database, for the message)."""
    if revision is not None and revision not in known():
        raise NewerSchema(TEXTS("schema_newer", where=where, revision=revision, head=head()))


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    target = head() if revision == "head" else revision
    at = current(engine)
    check(at, _shown(engine))
    if at == target:
        return  # the usual case at startup: no lock needed
    with _locked(engine) as conn:
        at = MigrationContext.configure(conn).get_current_revision()  # again: another process may have won
        check(at, _shown(engine))
        if at == target:
            return
        if at is None and inspect(conn).has_table("games"):
            command.stamp(config(conn), BASELINE)
        command.upgrade(config(conn), target)


def _shown(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


def downgrade(engine: Engine, revision: str) -> None:
    with _locked(engine) as conn:
        command.downgrade(config(conn), revision)


@contextmanager
def _locked(engine: Engine) -> Iterator[Connection]:
    """A transaction that starts with a lock a second migrating process waits for; committed
    at the end, rolled back (releasing the lock) on an error."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        elif conn.dialect.name == "sqlite":
            # Python's sqlite3 begins transactions lazily, and only before data changes (so DDL
            # would commit statement by statement): take the write lock now, for everything.
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.commit()
        finally:
            conn.rollback()  # a no-op after the commit
