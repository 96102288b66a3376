"""Schema migrations: any database reaches the newest revision, whose schema is store.metadata."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

pytest.importorskip("alembic")

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.pool import StaticPool

from ludothek.web import migrations
from ludothek.web.store import metadata


@pytest.fixture(params=["sqlite-file", "sqlite-memory", "postgres"])
def engine(request, tmp_path):
    if request.param == "sqlite-file":
        engine = create_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    elif request.param == "sqlite-memory":
        engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        engine = create_engine(request.getfixturevalue("postgres_url"))
    yield engine
    engine.dispose()


def schema_diff(engine) -> list:
    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), metadata)


def test_a_fresh_database_gets_the_schema_of_store_metadata(engine):
    assert migrations.current(engine) is None
    migrations.upgrade(engine)
    assert migrations.current(engine) == migrations.head() == "0004"
    # empty once store.py's tables match the newest revision
    assert schema_diff(engine) == []
    migrations.upgrade(engine)  # up to date: nothing to do
    assert migrations.current(engine) == "0004"


def test_a_database_from_before_migrations_is_stamped_and_upgraded(engine):
    migrations.upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))  # as Store's create_all left it
        conn.execute(text(
            "INSERT INTO games (id, game, options, mode, seats, status, result, tags, version, ply, turns, "
            "created, updated) VALUES ('g1', 'trike', '{}', 'local', '[]', 'ongoing', '*', '{}', 0, 0, 0, 1, 1)"
        ))
    assert migrations.current(engine) is None
    migrations.upgrade(engine)
    assert migrations.current(engine) == "0004"
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id, creator FROM games")).all() == [("g1", None)]
    assert schema_diff(engine) == []


def test_a_database_of_the_previous_version_keeps_its_games(engine):
    """0002 -> 0003 adds the fair-play columns; a game stored before reads back with none."""
    migrations.upgrade(engine, "0002")
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, game, options, mode, seats, status, result, tags, version, ply, turns, "
            "created, updated, creator) VALUES ('g2', 'trike', '{}', 'bot', '[]', 'over', 'black', '{}', 3, 5, 5, "
            "1, 2, 'c')"
        ))
    migrations.upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, status, creator, dice_secret, reason, offer FROM games")).all()
    assert rows == [("g2", "over", "c", None, None, None)]
    assert schema_diff(engine) == []


def test_analyses_are_added_to_a_database_of_0003_and_go_with_their_game(engine):
    """0003 -> 0004 adds the table of stored computer analyses (issue 12, item 7)."""
    migrations.upgrade(engine, "0003")
    assert "analyses" not in inspect(engine).get_table_names()
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, game, options, mode, seats, status, result, tags, version, ply, turns, "
            "created, updated) VALUES ('g3', 'trike', '{}', 'local', '[]', 'over', 'black', '{}', 2, 2, 2, 1, 2)"
        ))
    migrations.upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO analyses (game_id, format, plies, result, created) "
                          "VALUES ('g3', 1, 2, '{}', 3)"))
        assert conn.execute(text("SELECT game_id, plies FROM analyses")).all() == [("g3", 2)]
    assert schema_diff(engine) == []
    migrations.downgrade(engine, "0003")
    assert "analyses" not in inspect(engine).get_table_names()
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id FROM games")).all() == [("g3",)]


def test_downgrade_and_upgrade_again(engine):
    migrations.upgrade(engine)
    migrations.downgrade(engine, "0001")
    assert "creator" not in {c["name"] for c in inspect(engine).get_columns("games")}
    migrations.downgrade(engine, "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    migrations.upgrade(engine)
    assert schema_diff(engine) == []


def test_a_failed_migration_leaves_nothing_behind(tmp_path):
    """The whole upgrade is one transaction, on SQLite too (where DDL would otherwise commit
    statement by statement)."""
    engine = create_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE moves (x INTEGER)"))  # 0001's second table will clash
    with pytest.raises(Exception, match="already exists"):
        migrations.upgrade(engine)
    assert set(inspect(engine).get_table_names()) == {"moves"}


# each process waits for the same moment (argv[2]) before it migrates
MIGRATE = """
import sys, time, sqlalchemy
from ludothek.web import migrations
engine = sqlalchemy.create_engine(sys.argv[1])
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
migrations.upgrade(engine)
"""


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_processes_starting_at_once_migrate_once(backend, request, tmp_path):
    url = f"sqlite:///{tmp_path / 'm.sqlite3'}" if backend == "sqlite" else request.getfixturevalue("postgres_url")
    at = str(time.time() + 3)
    processes = [subprocess.Popen([sys.executable, "-c", MIGRATE, url, at], stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
    for process in processes:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    engine = create_engine(url)
    try:
        assert migrations.current(engine) == "0004"
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        assert schema_diff(engine) == []
    finally:
        engine.dispose()
