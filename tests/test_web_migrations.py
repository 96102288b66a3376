"""Schema migrations: any database reaches the newest revision, whose schema is store.metadata."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

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
    assert migrations.current(engine) == migrations.head() == "0012"
    # empty once store.py's tables match the newest revision
    assert schema_diff(engine) == []
    migrations.upgrade(engine)  # up to date: nothing to do
    assert migrations.current(engine) == "0012"


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
    assert migrations.current(engine) == "0012"
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


def test_accounts_are_added_to_a_database_of_0004_and_its_games_stay_guests(engine):
    """0004 -> 0005 adds users, sessions and the seat owners games.user0/user1 (issue 11)."""
    migrations.upgrade(engine, "0004")
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, game, options, mode, seats, status, result, tags, version, ply, turns, "
            "created, updated) VALUES ('g4', 'trike', '{}', 'online', '[]', 'ongoing', '*', '{}', 2, 2, 2, 1, 2)"
        ))
    migrations.upgrade(engine)
    assert {"users", "sessions"} <= set(inspect(engine).get_table_names())
    with engine.begin() as conn:
        assert conn.execute(text("SELECT id, user0, user1 FROM games")).all() == [("g4", None, None)]
        conn.execute(text("INSERT INTO users (name, name_key, password, created) VALUES ('Ann', 'ann', 'h', 1)"))
        with pytest.raises(Exception), conn.begin_nested():  # noqa: B017 - the driver's own IntegrityError
            conn.execute(text("INSERT INTO users (name, name_key, password, created) VALUES ('ANN', 'ann', 'h', 1)"))
    assert schema_diff(engine) == []
    migrations.downgrade(engine, "0004")
    assert not {"users", "sessions"} & set(inspect(engine).get_table_names())
    assert "user0" not in {c["name"] for c in inspect(engine).get_columns("games")}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT id FROM games")).all() == [("g4",)]


def test_a_sqlite_database_of_the_previous_version_upgrades_in_place(tmp_path):
    """tests/data/web-0004.sqlite was made by the web app before accounts (see web-0004.json):
    the server opens it where it is, upgrades it, and its games play on; a guest who signs up
    takes his seats there along."""
    import json
    import shutil
    import warnings

    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from ludothek.web import create_app

    data = Path(__file__).parent / "data"
    old = json.loads((data / "web-0004.json").read_text())
    path = tmp_path / "old.sqlite3"
    shutil.copy(data / "web-0004.sqlite", path)
    before = create_engine(f"sqlite:///{path}")
    assert migrations.current(before) == old["revision"] == "0004"
    before.dispose()
    app = create_app(str(path), bot_executor="thread", rate_limits="off", warm=False)
    with TestClient(app) as client:
        assert migrations.current(app.state.store.engine) == "0012"
        hotseat, online, bot = old["hotseat"], old["online"], old["bot"]
        games = {g["id"]: g for g in client.get("/api/games?limit=10").json()["games"]}
        assert set(games) == {hotseat["id"], online["id"], bot["id"]}
        assert games[bot["id"]]["status"] == "over" and games[bot["id"]]["result"] == bot["result"]
        view = client.get(f"/api/games/{hotseat['id']}", headers={"X-Ludothek-Token": hotseat["token"]}).json()
        assert view["game"]["plies"] == hotseat["plies"] and view["you"] == [0, 1]
        moved = client.post(f"/api/games/{hotseat['id']}/move",
                            json={"token": hotseat["token"], "move": view["game"]["moves"][0]["move"]})
        assert moved.status_code == 200 and moved.json()["game"]["plies"] == hotseat["plies"] + 1
        # the guest of the online game's first seat signs up and takes it along
        signed = client.post("/api/signup", json={"name": "oldtimer", "password": "a long passphrase"})
        assert signed.status_code == 201, signed.text
        csrf = {"X-CSRF-Token": signed.json()["csrf"]}
        claimed = client.post("/api/me/games", headers=csrf,
                              json={"games": [{"id": online["id"], "token": online["tokens"][0]}]})
        assert claimed.json()["claimed"] == [{"id": online["id"], "seats": [0]}]
        seen = client.get(f"/api/games/{online['id']}").json()  # the cookie alone
        assert seen["you"] == [0] and seen["game"]["plies"] == online["plies"]
        assert seen["game"]["seats"][0]["name"] == "oldtimer"
    engine = create_engine(f"sqlite:///{path}")
    try:
        assert schema_diff(engine) == []
    finally:
        engine.dispose()


def test_a_sqlite_database_with_accounts_upgrades_to_ratings_and_the_lobby(tmp_path):
    """tests/data/web-0005.sqlite was made by the web app with accounts, before ratings, the
    lobby and correspondence (see web-0005.json): the server upgrades it in place, tells the
    player whose turn it is in the game that was on (a column the old schema did not have),
    and the game plays on."""
    import json
    import shutil
    import warnings

    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from ludothek.web import create_app

    data = Path(__file__).parent / "data"
    old = json.loads((data / "web-0005.json").read_text())
    path = tmp_path / "old.sqlite3"
    shutil.copy(data / "web-0005.sqlite", path)
    before = create_engine(f"sqlite:///{path}")
    assert migrations.current(before) == old["revision"] == "0005"
    before.dispose()
    online = old["online"]
    app = create_app(str(path), bot_executor="thread", rate_limits="off", warm=False)
    with TestClient(app) as first, TestClient(app) as second:
        assert migrations.current(app.state.store.engine) == "0012"
        to_move = online["to_seat"]
        clients = [first, second]
        for seat, client in enumerate(clients):
            logged = client.post("/api/login", json={"name": online["names"][seat], "password": online["passwords"][seat]})
            assert logged.status_code == 200, logged.text
            client.headers["X-CSRF-Token"] = logged.json()["csrf"]
            me = client.get("/api/me").json()
            assert me["your_turn"] == (1 if seat == to_move else 0)
            mine = client.get("/api/games?mine=1").json()["games"]
            entry = {g["id"]: g for g in mine}[online["id"]]
            assert entry["your_turn"] is (seat == to_move) and entry["rated"] is False
            if seat == to_move:  # the game where it is his turn comes first
                assert mine[0]["id"] == online["id"]
        view = clients[to_move].get(f"/api/games/{online['id']}").json()
        assert view["you"] == [to_move] and view["game"]["plies"] == online["plies"]
        moved = clients[to_move].post(f"/api/games/{online['id']}/move", json={"move": view["game"]["moves"][0]["move"]})
        assert moved.status_code == 200, moved.text
        assert [client.get("/api/me").json()["your_turn"] for client in clients] == [
            int(seat != to_move) for seat in (0, 1)]
        clocked = first.get(f"/api/games/{old['clocked']['id']}").json()["game"]
        assert clocked["clock"]["initial"] == 300000 and clocked["rated"] is False
    engine = create_engine(f"sqlite:///{path}")
    try:
        assert schema_diff(engine) == []
    finally:
        engine.dispose()


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
        assert migrations.current(engine) == "0012"
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
        assert schema_diff(engine) == []
    finally:
        engine.dispose()
