"""`ludothek users disable` ends the account's sessions at once on every server (issue 33, item
7): two servers on PostgreSQL, which cache sessions and hear of the end by NOTIFY, and one on
SQLite, which does not cache them."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("argon2")

from ludothek.web.accounts import CACHE_SECONDS

from .servers import ONE_PROCESS, Server

PASSWORD = "a long passphrase"


def users(db: str, *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "ludothek.cli", "users", *args, "--db", db], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "LUDOTHEK_LANG": "en"}, check=False)
    assert done.returncode == 0, done.stderr


def logged_in(base: str, name: str, signup: bool = False) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/signup" if signup else "/api/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    assert me(client) == name
    return client


def me(client: httpx.Client) -> str | None:
    answer = client.get("/api/me")
    assert answer.status_code == 200, answer.text
    user = answer.json()["user"]
    return user["name"] if user else None


def ended_within(clients: list[httpx.Client], bound: float) -> float:
    """Seconds until no client's session answers any more (asking again and again), at most ``bound``."""
    started = time.monotonic()
    waiting = list(clients)
    while waiting:
        waiting = [client for client in waiting if me(client) is not None]
        assert time.monotonic() - started < bound, "a session still works"
    return time.monotonic() - started


@pytest.fixture()
def two_servers(postgres_url):
    started: list[Server] = []
    try:
        for _ in range(2):
            started.append(Server(postgres_url, *ONE_PROCESS, "--bots", "thread", "--rate-limits", "off",
                                  "--login-limits", "off"))
        yield postgres_url, started
    finally:
        for server in started:
            server.stop()


def test_disable_ends_the_sessions_at_once_on_every_postgres_server(two_servers):
    db, (a, b) = two_servers
    clients = [logged_in(a.base, "mallory", signup=True), logged_in(b.base, "mallory"), logged_in(a.base, "mallory")]
    bystander = logged_in(b.base, "alice", signup=True)
    for client in clients:  # each server has just read (and cached) the sessions
        assert me(client) == "mallory"
    users(db, "disable", "mallory")
    # far sooner than a cached session would expire (before: up to CACHE_SECONDS)
    took = ended_within(clients, CACHE_SECONDS / 2)
    print(f"sessions ended on both servers {took:.3f} s after 'ludothek users disable' returned")
    assert me(bystander) == "alice"
    refused = httpx.post(f"{b.base}/api/login", json={"name": "mallory", "password": PASSWORD}, timeout=30)
    assert refused.status_code == 403
    # a new password ends the sessions the same way
    again = logged_in(a.base, "alice")
    done = subprocess.run([sys.executable, "-m", "ludothek.cli", "users", "reset-password", "alice",
                           "--password-stdin", "--db", db], input="another long passphrase\n", capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    ended_within([again, bystander], CACHE_SECONDS / 2)


def test_disable_ends_the_session_at_once_on_sqlite(tmp_path):
    db = str(tmp_path / "s.sqlite3")
    server = Server(db, "--bots", "thread", "--rate-limits", "off", "--login-limits", "off")
    try:
        client = logged_in(server.base, "mallory", signup=True)
        assert me(client) == "mallory"
        users(db, "disable", "mallory")
        assert me(client) is None  # the very next request
    finally:
        server.stop()
