"""`ludothek backup`, `ludothek restore` and `ludothek db`: round trips on SQLite and PostgreSQL,
refusals with clear messages, an older backup migrated on restore, and every command that opens
the database refusing a schema newer than the code (issue 33, item 5)."""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from pathlib import Path

import pytest

pytest.importorskip("alembic")

from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from ludothek.cli import main
from ludothek.web import migrations

from .conftest import POSTGRES

DATA = Path(__file__).parent / "data"
GAME = ("INSERT INTO games (id, game, options, mode, seats, status, result, tags, version, ply, turns, created, "
        "updated) VALUES (:id, 'trike', '{}', 'local', '[]', 'ongoing', '*', '{}', 1, 1, 1, 1, 1)")
MOVE = "INSERT INTO moves (game_id, ply, action, text, seat, at) VALUES (:id, 0, 3, 'c1', 0, 1)"

HEAD = migrations.head()  # the newest schema revision, named in the commands' reports


def run(*args, lang="en"):
    return CliRunner().invoke(main, list(args), env={"LUDOTHEK_LANG": lang})


def with_games(url: str, ids: list[str]) -> None:
    engine = create_engine(url, poolclass=NullPool)
    migrations.upgrade(engine)
    with engine.begin() as conn:
        for game_id in ids:
            conn.execute(text(GAME), {"id": game_id})
            conn.execute(text(MOVE), {"id": game_id})
    engine.dispose()


def games_in(url: str) -> list[str]:
    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as conn:
        found = [r[0] for r in conn.execute(text("SELECT id FROM games ORDER BY id"))]
    engine.dispose()
    return found


def set_revision(url: str, revision: str) -> None:
    engine = create_engine(url, poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


@pytest.fixture()
def second_postgres(postgres_url):
    """Another fresh PostgreSQL database beside ``postgres_url`` (to restore into)."""
    name = "test_" + uuid.uuid4().hex[:16]
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def pair(request, tmp_path):
    """A source and a fresh target database of one kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'source.sqlite3'}", f"sqlite:///{tmp_path / 'target.sqlite3'}"
    return request.getfixturevalue("postgres_url"), request.getfixturevalue("second_postgres")


def test_a_backup_restores_into_a_fresh_database(pair, tmp_path):
    source, target = pair
    with_games(source, ["g1", "g2", "g3"])
    file = tmp_path / "ludothek.backup"
    made = run("backup", "--db", source, str(file))
    assert made.exit_code == 0, made.output
    last = made.output.strip().splitlines()[-1]
    assert f"into {file}:" in last and f"3 games, 3 moves, schema {HEAD}" in last, last
    assert " kB" in last  # the size
    with_games(source, ["g4"])  # after the backup: not in it
    restored = run("restore", "--db", target, str(file))
    assert restored.exit_code == 0, restored.output
    assert f"3 games, 3 moves, schema {HEAD}" in restored.output and "upgraded" not in restored.output
    assert games_in(target) == ["g1", "g2", "g3"]
    current = run("db", "current", "--db", target)
    assert current.exit_code == 0 and f"schema {HEAD}, up to date" in current.output, current.output


def test_restore_refuses_a_database_that_holds_games_unless_forced(pair, tmp_path):
    source, target = pair
    with_games(source, ["g1"])
    with_games(target, ["other"])
    file = tmp_path / "b.backup"
    assert run("backup", "--db", source, str(file)).exit_code == 0
    refused = run("restore", "--db", target, str(file))
    assert refused.exit_code == 2
    line = refused.output.strip()
    assert line.startswith("error: ") and "is not empty (rows games: 1, moves: 1)" in line and "--force" in line, line
    assert games_in(target) == ["other"]
    forced = run("restore", "--db", target, "--force", str(file))
    assert forced.exit_code == 0, forced.output
    assert games_in(target) == ["g1"]


def test_a_file_that_is_no_backup_is_refused_by_name(tmp_path):
    target = f"sqlite:///{tmp_path / 't.sqlite3'}"
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n")
    result = run("restore", "--db", target, str(junk))
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: {junk} is not a Ludothek backup: it is neither a SQLite database "
                                     "nor a pg_dump archive (--format=custom)")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    result = run("restore", "--db", target, str(other))
    assert result.exit_code == 2 and "it has no games, moves, alembic_version tables" in result.output
    damaged = tmp_path / "damaged.backup"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    result = run("restore", "--db", target, str(damaged))
    assert result.exit_code == 2 and f"{damaged} is not a Ludothek backup: the SQLite file is damaged" in result.output
    missing = run("restore", "--db", target, str(tmp_path / "missing.backup"))
    assert missing.exit_code == 2 and "cannot read" in missing.output and "No such file" in missing.output
    german = run("restore", "--db", target, str(junk), lang="de")
    assert german.exit_code == 2 and "ist keine Ludothek-Sicherung" in german.output, german.output
    assert not (tmp_path / "t.sqlite3").exists() or games_in(target) == []


def test_backup_names_what_is_missing(tmp_path):
    result = run("backup", "--db", str(tmp_path / "none.sqlite3"), str(tmp_path / "b"))
    assert result.exit_code == 2 and "there is no such database file" in result.output
    plain = tmp_path / "plain.sqlite3"
    with sqlite3.connect(plain) as conn:
        conn.execute("CREATE TABLE notes (x)")
    result = run("backup", "--db", str(plain), str(tmp_path / "b"))
    assert result.exit_code == 2 and "is not a Ludothek database: it has no games, moves tables" in result.output
    assert not (tmp_path / "b").exists()


def test_the_database_itself_is_no_place_for_its_backup(tmp_path):
    db = tmp_path / "live.sqlite3"
    with_games(f"sqlite:///{db}", ["g1"])
    for target in (db, tmp_path / "live.sqlite3-wal", tmp_path / "." / "live.sqlite3"):
        result = run("backup", "--db", str(db), str(target))
        assert result.exit_code == 2, result.output
        assert result.output.strip() == f"error: {target} is the database itself: the backup must go to another file"
    assert games_in(f"sqlite:///{db}") == ["g1"]
    assert run("backup", "--db", str(db), str(tmp_path / "b.backup")).exit_code == 0
    result = run("restore", "--db", str(tmp_path / "b.backup"), "--force", str(tmp_path / "b.backup"))
    assert result.exit_code == 2 and "is the database itself" in result.output, result.output


def test_a_sqlite_backup_does_not_restore_into_postgres_and_back(postgres_url, tmp_path):
    lite = f"sqlite:///{tmp_path / 's.sqlite3'}"
    with_games(lite, ["g1"])
    assert run("backup", "--db", lite, str(tmp_path / "lite.backup")).exit_code == 0
    result = run("restore", "--db", postgres_url, str(tmp_path / "lite.backup"))
    assert result.exit_code == 2 and "is a SQLite backup: restore it into a SQLite database" in result.output
    with_games(postgres_url, ["g2"])
    assert run("backup", "--db", postgres_url, str(tmp_path / "pg.backup")).exit_code == 0
    result = run("restore", "--db", str(tmp_path / "x.sqlite3"), str(tmp_path / "pg.backup"))
    assert result.exit_code == 2 and "is a PostgreSQL backup: restore it into a PostgreSQL database" in result.output


def test_an_older_backup_is_migrated_after_restoring(tmp_path):
    """tests/data/web-0004.sqlite, made before accounts, as a backup: it restores and upgrades."""
    old = tmp_path / "old.backup"
    shutil.copy(DATA / "web-0004.sqlite", old)
    target = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    result = run("restore", "--db", target, str(old))
    assert result.exit_code == 0, result.output
    assert f"schema 0004, upgraded to {HEAD}" in result.output, result.output
    engine = create_engine(target)
    assert migrations.current(engine) == HEAD
    engine.dispose()
    assert len(games_in(target)) == 3


def test_an_older_postgres_backup_is_migrated_after_restoring(postgres_url, second_postgres, tmp_path):
    engine = create_engine(postgres_url, poolclass=NullPool)
    migrations.upgrade(engine, "0004")
    with engine.begin() as conn:
        conn.execute(text(GAME), {"id": "g0"})
    engine.dispose()
    assert run("backup", "--db", postgres_url, str(tmp_path / "old.backup")).exit_code == 0
    result = run("restore", "--db", second_postgres, str(tmp_path / "old.backup"))
    assert result.exit_code == 0, result.output
    assert f"1 game, 0 moves, schema 0004, upgraded to {HEAD}" in result.output, result.output
    assert games_in(second_postgres) == ["g0"]


def test_every_command_refuses_a_schema_newer_than_the_code(pair, tmp_path):
    source, target = pair
    with_games(source, ["g1"])
    set_revision(source, "9999")
    expected = f"has schema revision 9999, which this Ludothek does not know (it knows up to {HEAD})"
    for args in (["serve", "--port", "0", "--bots", "thread"], ["migrate"], ["db", "upgrade"], ["users", "list"]):
        result = run(*args, "--db", source)
        assert result.exit_code == 2, (args, result.output)
        line = result.output.strip()
        assert len(line.splitlines()) == 1 and line.startswith("error: the database ") and expected in line, line
        assert "upgrade Ludothek" in line
    current = run("db", "current", "--db", source)
    assert current.exit_code == 1 and f"schema 9999, NEWER than this Ludothek knows ({HEAD})" in current.output
    engine = create_engine(source, poolclass=NullPool)
    assert migrations.current(engine) == "9999"  # untouched
    engine.dispose()
    # a backup copies it as it is; restoring it is refused the same way
    assert run("backup", "--db", source, str(tmp_path / "new.backup")).exit_code == 0
    result = run("restore", "--db", target, str(tmp_path / "new.backup"))
    assert result.exit_code == 2 and expected in result.output, result.output
    german = run("migrate", "--db", source, lang="de")
    assert german.exit_code == 2 and "aktualisiere Ludothek" in german.output


def test_db_upgrade_and_its_alias_migrate(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    fresh = run("db", "current", "--db", url)
    assert fresh.exit_code == 0 and "schema -, empty" in fresh.output
    engine = create_engine(url)
    migrations.upgrade(engine, "0004")
    older = run("db", "current", "--db", url)
    assert f"schema 0004, older than this Ludothek's {HEAD}: run 'ludothek db upgrade'" in older.output
    upgraded = run("db", "upgrade", "--db", url)
    assert upgraded.exit_code == 0 and upgraded.output.strip().endswith(f"schema {HEAD} (was 0004)")
    again = run("migrate", "--db", url)
    assert again.exit_code == 0 and again.output.strip().endswith(f"schema {HEAD}")
    assert migrations.current(engine) == HEAD
    engine.dispose()
