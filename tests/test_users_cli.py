"""`ludothek users`: list the web app's accounts, reset a password, disable and enable an account
(on SQLite and PostgreSQL, against the database a server is using)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("httpx")
argon2 = pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from click.testing import CliRunner

from ludothek.cli import main
from ludothek.web import create_app

FAST = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def users(*args, input=None, lang="en"):
    return CliRunner().invoke(main, ["users", *args], input=input, env={"LUDOTHEK_LANG": lang})


def login(client, name, password):
    client.cookies.clear()
    return client.post("/api/login", json={"name": name, "password": password})


@pytest.fixture()
def server(db_url):
    """A server's app on the database, with two accounts; alice has a game."""
    app = create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off", warm=False,
                     password_hasher=FAST)
    with TestClient(app) as client:
        for name in ("alice", "bob"):
            client.cookies.clear()
            assert client.post("/api/signup", json={"name": name, "password": f"{name} passphrase"}).status_code == 201
        csrf = login(client, "alice", "alice passphrase").json()["csrf"]
        created = client.post("/api/games", headers={"X-CSRF-Token": csrf},
                              json={"game": "trike", "options": {"size": 7}, "opponent": "friend"})
        assert created.status_code == 201
        yield app, client, db_url


def test_list_the_accounts(server):
    _, _, db = server
    result = users("list", "--db", db)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["NAME", "CREATED", "LAST", "SEEN", "SESSIONS", "GAMES", "STATUS"]
    alice, bob = (line.split() for line in lines[1:])
    assert alice[0] == "alice" and alice[-3:] == ["2", "1", "active"]  # two sessions, one game
    assert bob[0] == "bob" and bob[-3:] == ["1", "0", "active"]


def test_reset_a_password(server, monkeypatch):
    app, client, db = server
    monkeypatch.setattr("ludothek.cli._has_terminal", lambda: True)  # a person at a terminal is asked twice
    result = users("reset-password", "alice", "--db", db, input="a brand new secret\na brand new secret\n")
    assert result.exit_code == 0, result.output
    assert "alice: new password set; its sessions ended" in result.output
    assert "a brand new secret" not in result.output  # the prompt does not show it
    app.state.accounts._cache.clear()  # what the server sees within seconds
    assert login(client, "alice", "alice passphrase").status_code == 401
    assert login(client, "alice", "a brand new secret").status_code == 200
    assert users("list", "--db", db).output.splitlines()[1].split()[-3] == "1"  # the old sessions ended
    piped = users("reset-password", "ALICE", "--password-stdin", "--db", db, input="piped in secret\n")
    assert piped.exit_code == 0, piped.output
    assert login(client, "alice", "piped in secret").status_code == 200


def test_a_weak_password_or_an_unknown_name_is_a_clean_error(server):
    _, _, db = server
    weak = users("reset-password", "bob", "--password-stdin", "--db", db, input="password1\n")
    assert weak.exit_code == 2
    assert weak.output.strip() == "error: this password is one of the most common ones: choose another"
    short = users("reset-password", "bob", "--password-stdin", "--db", db, input="short\n", lang="de")
    assert short.exit_code == 2 and short.output.strip() == "error: ein Passwort braucht mindestens 8 Zeichen"
    unknown = users("disable", "nobody", "--db", db)
    assert unknown.exit_code == 2 and unknown.output.strip() == "error: there is no user named 'nobody'"


def test_reset_password_checks_the_name_before_asking(server, monkeypatch):
    """Issue 33, item 7: an unknown name is refused at once, not after two password prompts."""
    _, _, db = server
    monkeypatch.setattr("ludothek.cli._has_terminal", lambda: True)
    asked = []
    monkeypatch.setattr("click.prompt", lambda *args, **kwargs: asked.append(args) or "a brand new secret")
    unknown = users("reset-password", "nobody", "--db", db)
    assert unknown.exit_code == 2 and unknown.output.strip() == "error: there is no user named 'nobody'"
    assert asked == []
    piped = users("reset-password", "nobody", "--password-stdin", "--db", db, input="a brand new secret\n")
    assert piped.exit_code == 2 and piped.output.strip() == "error: there is no user named 'nobody'"


def test_reset_password_without_a_terminal_asks_for_password_stdin(server, tmp_path):
    """Without a terminal and without --password-stdin: one clear error line, no GetPassWarning,
    no "Aborted!" (a real process with its standard input from /dev/null)."""
    import os
    import subprocess
    import sys

    _, _, db = server
    done = subprocess.run([sys.executable, "-m", "ludothek.cli", "users", "reset-password", "alice", "--db", db],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LUDOTHEK_LANG": "en"}, check=False)
    assert done.returncode == 2, done
    assert done.stderr.strip() == ("error: no terminal to ask for the password: give it on standard input with "
                                   "--password-stdin (its first line)"), done.stderr
    assert "Warning" not in done.stderr and "Aborted" not in done.stderr + done.stdout
    assert users("list", "--db", db).exit_code == 0


def test_disable_and_enable_an_account(server):
    _, client, db = server
    result = users("disable", "bob", "--db", db)
    assert result.exit_code == 0 and result.output.strip() == "bob: disabled"
    refused = login(client, "bob", "bob passphrase")
    assert refused.status_code == 403 and refused.json()["key"] == "web.account_disabled"
    name, _day, _time, _seen, sessions, games, status, *since = users("list", "--db", db).output.splitlines()[2].split()
    assert (name, sessions, games, status) == ("bob", "0", "0", "disabled") and len(since) == 2  # its sessions ended
    assert users("enable", "bob", "--db", db).exit_code == 0
    assert login(client, "bob", "bob passphrase").status_code == 200


@pytest.mark.parametrize("args", [["users"], ["users", "--help"]])
def test_users_without_a_verb_shows_its_help(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    for verb in ("list", "reset-password", "disable", "enable"):
        assert verb in result.output
