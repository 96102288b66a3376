import os
import signal
import sys
import uuid
from pathlib import Path

from .plugin_registration import register_race_plugin

register_race_plugin()  # before anything imports Ludothek's registry

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from .browser import browser, page, server  # noqa: E402, F401 - the browser tests' fixtures

DATA = Path(__file__).parent / "data"

# A suite started in the background by a shell without job control ("... &" in a script) has
# SIGINT ignored, and so would every server and command it starts: the tests of Ctrl-C need it
# delivered, as at a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile(
    "ludothek", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ludothek"))


# The files that take longest (wall seconds, as `benchmarks/suite_costs.py` measures them) go
# first: the test processes then share out the short files at the end instead of all waiting on
# one that started late. Only the order changes; a file missing here runs in its usual place.
LONGEST_FIRST = [
    "test_web_browser.py", "test_web_tournaments_browser.py", "test_web_a11y_browser.py",
    "test_web_workers.py", "test_fuzz.py", "test_web_phone_browser.py", "test_web_lobby_browser.py",
    "test_backup_live.py", "test_web_botpool.py", "test_web_zoom_browser.py", "test_lessons_browser.py",
    "test_trike_mcts3.py", "test_dice_counting.py", "test_web_api.py", "test_sessions_end.py",
    "test_web_puzzles_browser.py",
]


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order


# ---------------------------------------------------------------------------- PostgreSQL
# scripts/test.sh starts a throwaway cluster and sets LUDOTHEK_TEST_POSTGRES to its URL. Without
# it the PostgreSQL tests are skipped, except in CI (CI=true), where they must not be.
POSTGRES = os.environ.get("LUDOTHEK_TEST_POSTGRES")


def _fresh_postgres():
    """A fresh, empty PostgreSQL database (dropped afterwards): its URL."""
    if not POSTGRES:
        message = "LUDOTHEK_TEST_POSTGRES is not set (bash scripts/test.sh starts a PostgreSQL cluster)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    name = "test_" + uuid.uuid4().hex[:16]
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture()
def postgres_url():
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    yield from _fresh_postgres()


@pytest.fixture(scope="module")
def module_postgres_url():
    """A fresh, empty PostgreSQL database for one test module's servers (dropped afterwards):
    its tests must not depend on one another's data."""
    yield from _fresh_postgres()


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path):
    """A database for a web test: a SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "web.sqlite3")
    return request.getfixturevalue("postgres_url")


# ---------------------------------------------------------------------------- Ray
@pytest.fixture()
def ray_stopped_after():
    """For a test that starts a local Ray instance: stop it when the test ends. Left running,
    its GCS server, raylet and idle workers use CPU until the test process exits (and the
    whole suite's machine is busy)."""
    yield
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        ray.shutdown()
