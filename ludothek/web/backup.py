"""Backups of the web app's database and restoring them (``ludothek backup`` / ``ludothek restore``).

SQLite: the online backup API (``sqlite3.Connection.backup``) copies the database in one step,
inside one read transaction, so the copy is a consistent snapshot even while a server keeps
committing moves (WAL: the reader never blocks the writer). The copy is one self-contained file
(journal mode DELETE), written beside the target and renamed into place when complete.

PostgreSQL: ``pg_dump --format=custom`` run inside a snapshot this module exports, so the counts
it reports are exactly those of the dump; restoring runs ``pg_restore --single-transaction``.

A file is taken for a Ludothek backup by its contents: a SQLite database or a pg_dump archive
that holds the ``games`` and ``moves`` tables and a row of ``alembic_version``. Restoring refuses
a target that holds any row (unless forced), a backup of a schema newer than this code, and a
backup of the other kind of database; afterwards it migrates the database to the newest schema.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from ..core.errors import LudothekError
from ..core.messages import Message
from . import migrations
from .notify import conninfo, is_postgres
from .texts import TEXTS

#: tables every Ludothek database has (since revision 0001)
REQUIRED = ("games", "moves")
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


class BackupError(LudothekError):
    """A backup or restore that cannot be done, saying why."""


@dataclass
class Summary:
    """What a backup holds (or a restore brought): for the line the command prints at the end."""

    kind: str  # "sqlite" or "postgresql"
    size: int  # bytes of the backup file
    games: int
    moves: int
    revision: str  # the schema revision of the backup
    migrated_to: str | None = None  # restore: the revision it was upgraded to, if it was older


def shown(url: str) -> str:
    """A database URL as it may be printed: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL at all: as given
        return url


# ---------------------------------------------------------------------------------- backup
def backup(url: str, path: str | os.PathLike) -> Summary:
    """Back the database ``url`` up into the file ``path`` (replaced if it exists)."""
    target = Path(path)
    if is_postgres(url):
        return _pg_backup(url, target)
    source = _sqlite_file(url)
    if source is None:
        raise BackupError(TEXTS("backup_kind", url=shown(url)))
    if not os.path.isfile(source):
        raise BackupError(TEXTS("backup_no_database", path=source))
    _not_the_database(target, source)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    src = sqlite3.connect(source, timeout=30)
    try:
        _require_tables(_sqlite_tables(src), source)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one read transaction, one consistent snapshot
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            games, moves, revision = _sqlite_counts(dst)
        finally:
            dst.close()
        _sync(partial)
        os.replace(partial, target)
    finally:
        src.close()
        partial.unlink(missing_ok=True)
    return Summary("sqlite", target.stat().st_size, games, moves, revision or "")


def _pg_backup(url: str, target: Path) -> Summary:
    dsn, env = _libpq(url)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    command = ["pg_dump", "--format=custom", f"--file={target}", dsn]
    if shutil.which("pg_dump") is None:
        raise BackupError(TEXTS("backup_no_pg_dump", tool="pg_dump", command=_quoted(command)))
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect().execution_options(isolation_level="REPEATABLE READ") as conn, conn.begin():
            snapshot = conn.execute(text("SELECT pg_export_snapshot()")).scalar()
            _require_tables(set(inspect(conn).get_table_names()), shown(url))
            games, moves, revision = _counts(conn)
            # pg_dump sees exactly this transaction's snapshot, which stays open until it is done
            command[-2:] = [f"--file={partial}", f"--snapshot={snapshot}", dsn]
            _run(command, env)
        _sync(partial)
        os.replace(partial, target)
    finally:
        engine.dispose()
        partial.unlink(missing_ok=True)
    return Summary("postgresql", target.stat().st_size, games, moves, revision or "")


# ---------------------------------------------------------------------------------- restore
def restore(path: str | os.PathLike, url: str, force: bool = False) -> Summary:
    """Restore the backup ``path`` into the database ``url`` and migrate it to the newest
    schema. The target must hold no rows unless ``force`` (then what it holds is replaced)."""
    source = Path(path)
    kind, revision = inspect_backup(source)
    wanted = "postgresql" if is_postgres(url) else "sqlite" if _sqlite_file(url) is not None else None
    if wanted != kind:
        raise BackupError(TEXTS("restore_mismatch", path=str(source), kind=_kind_word(kind), url=shown(url)))
    migrations.check(revision, str(source))
    engine = create_engine(url, poolclass=NullPool)
    try:
        if not force:
            rows = _rows(engine)
            if rows:
                raise BackupError(TEXTS("restore_not_empty", url=shown(url), rows=rows))
        if kind == "sqlite":
            _not_the_database(source, _sqlite_file(url) or "")
            _sqlite_restore(source, _sqlite_file(url) or "")
        else:
            _pg_restore(source, url, engine)
        migrations.upgrade(engine)
        with engine.connect() as conn:
            games, moves, now = _counts(conn)
    finally:
        engine.dispose()
    return Summary(kind, source.stat().st_size, games, moves, revision,
                   migrated_to=now if now != revision else None)


def inspect_backup(path: Path) -> tuple[str, str]:
    """``(kind, revision)`` of a Ludothek backup file, or a :class:`BackupError` saying why it
    is none."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        from ..core.texts import TEXTS as CORE
        from ..core.texts import os_reason

        raise BackupError(CORE("cannot_read", path=str(path), reason=os_reason(exc))) from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite", _sqlite_backup_revision(path)
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql", _pg_backup_revision(path)
    raise BackupError(TEXTS("backup_unreadable", path=str(path), reason=TEXTS("backup_reason_kind")))


def _sqlite_backup_revision(path: Path) -> str:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupError(TEXTS("backup_unreadable", path=str(path),
                                reason=TEXTS("backup_reason_damaged", detail=str(exc)))) from None
    try:
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise BackupError(TEXTS("backup_unreadable", path=str(path),
                                    reason=TEXTS("backup_reason_damaged", detail="; ".join(problems[:3]))))
        tables = _sqlite_tables(conn)
        missing = [name for name in (*REQUIRED, "alembic_version") if name not in tables]
        if missing:
            raise BackupError(TEXTS("backup_unreadable", path=str(path),
                                    reason=TEXTS("backup_reason_tables", tables=", ".join(missing))))
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as exc:  # "file is not a database" past its header, and the like
        raise BackupError(TEXTS("backup_unreadable", path=str(path),
                                reason=TEXTS("backup_reason_damaged", detail=str(exc)))) from None
    finally:
        conn.close()
    if row is None:
        raise BackupError(TEXTS("backup_unreadable", path=str(path), reason=TEXTS("backup_reason_revision")))
    return str(row[0])


def _pg_backup_revision(path: Path) -> str:
    if shutil.which("pg_restore") is None:
        raise BackupError(TEXTS("backup_no_pg_dump", tool="pg_restore",
                                command=_quoted(["pg_restore", "--no-owner", "--dbname=URL", str(path)])))
    listing = _run(["pg_restore", "--list", str(path)], None, unreadable=path)
    entries = {tuple(line.split()[-3:-1]) for line in listing.splitlines()
               if not line.startswith(";") and " TABLE DATA " in line}
    missing = [name for name in (*REQUIRED, "alembic_version") if ("public", name) not in entries]
    if missing:
        raise BackupError(TEXTS("backup_unreadable", path=str(path),
                                reason=TEXTS("backup_reason_tables", tables=", ".join(missing))))
    script = _run(["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(path)], None,
                  unreadable=path)
    found = re.search(r"^COPY \S*alembic_version \(version_num\) FROM stdin;\n([^\n\\]+)\n", script, re.MULTILINE)
    if found is None:
        raise BackupError(TEXTS("backup_unreadable", path=str(path), reason=TEXTS("backup_reason_revision")))
    return found.group(1).strip()


def _sqlite_restore(source: Path, target: str) -> None:
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target, timeout=30)
    try:
        src.backup(dst)  # replaces everything the target held, in one transaction
        dst.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
    finally:
        dst.close()
        src.close()


def _pg_restore(source: Path, url: str, engine: Any) -> None:
    dsn, env = _libpq(url)
    command = ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
               f"--dbname={dsn}", str(source)]
    if shutil.which("pg_restore") is None:
        raise BackupError(TEXTS("backup_no_pg_dump", tool="pg_restore", command=_quoted(command)))
    with engine.begin() as conn:  # an empty schema (a server started on it) or, forced, the old data
        for table in inspect(conn).get_table_names():
            conn.execute(text(f'DROP TABLE IF EXISTS "{table}" CASCADE'))
    _run(command, env)


# ---------------------------------------------------------------------------------- helpers
def _sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL (None: not SQLite, or in memory)."""
    try:
        parsed = make_url(url)
    except Exception:  # noqa: BLE001 - not a URL
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return os.path.abspath(parsed.database)


def _not_the_database(path: Path, database: str) -> None:
    """Refuse a backup file that is the SQLite database (or its -wal / -shm file): replacing it
    would pull the file from under a running server."""
    try:
        resolved = path.resolve()
    except OSError:
        return
    if resolved in {Path(database + suffix).resolve() for suffix in ("", "-wal", "-shm", "-journal")}:
        raise BackupError(TEXTS("backup_same_file", path=str(path)))


def _sqlite_tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _require_tables(tables: set[str], where: str) -> None:
    missing = [name for name in REQUIRED if name not in tables]
    if missing:
        raise BackupError(TEXTS("backup_not_ludothek", path=where, tables=", ".join(missing)))


def _sqlite_counts(conn: sqlite3.Connection) -> tuple[int, int, str | None]:
    games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
    moves = conn.execute("SELECT count(*) FROM moves").fetchone()[0]
    revision = None
    if "alembic_version" in _sqlite_tables(conn):
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = row[0] if row else None
    return games, moves, revision


def _counts(conn: Any) -> tuple[int, int, str | None]:
    games = conn.execute(text("SELECT count(*) FROM games")).scalar() or 0
    moves = conn.execute(text("SELECT count(*) FROM moves")).scalar() or 0
    revision = None
    if inspect(conn).has_table("alembic_version"):
        revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    return games, moves, revision


def _rows(engine: Any) -> Message | None:
    """What a database holds besides its schema revision (None: nothing, it is fresh)."""
    with engine.connect() as conn:
        held = []
        for table in sorted(inspect(conn).get_table_names()):
            if table == "alembic_version":
                continue
            count = conn.execute(text(f'SELECT count(*) FROM "{table}"')).scalar() or 0
            if count:
                held.append(TEXTS("rows_in", count=count, table=table))
    return held or None


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq connection string without the password, and the environment that carries it
    (so it never shows in a process list)."""
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    return conninfo(parsed.set(password=None).render_as_string(hide_password=False)), env


def _run(command: list[str], env: dict[str, str] | None, unreadable: Path | None = None) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, errors="replace", check=False)
    if done.returncode != 0:
        detail = " ".join(done.stderr.split())[:500] or "-"
        if unreadable is not None:
            raise BackupError(TEXTS("backup_unreadable", path=str(unreadable),
                                    reason=TEXTS("backup_tool_failed", tool=command[0], status=done.returncode,
                                                 detail=detail)))
        raise BackupError(TEXTS("backup_tool_failed", tool=command[0], status=done.returncode, detail=detail))
    return done.stdout


def _quoted(command: list[str]) -> str:
    import shlex

    return shlex.join(command)


def _kind_word(kind: str) -> str:
    return "SQLite" if kind == "sqlite" else "PostgreSQL"


def _sync(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())
