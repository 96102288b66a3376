"""Chat (issue 32, item 2) over the real websockets, on SQLite and PostgreSQL: players and
spectators in rooms of their own, the lobby (guests read-only), hostile input (markup kept as
text, 100 kB, control characters, floods), mutes, blocks and :func:`blocked`, reports with
context, operators' mute and ban; two apps on one database are two servers: a message written
on one reaches a page on the other."""

from __future__ import annotations

import warnings

import orjson
import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
argon2 = pytest.importorskip("argon2")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.cli import main
from ludothek.web import chat as chat_module
from ludothek.web import create_app
from ludothek.web.guard import SESSION_COOKIE

FAST = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse battery"


def make_app(db, **options):
    return create_app(db, bot_executor="thread", rate_limits="off", login_limits="off", warm=False,
                      password_hasher=FAST, chat_interval=0.05, **options)


class Person:
    """One browser: its own session cookie on a test client of one app."""

    def __init__(self, client, name=None):
        self.client = client
        self.cookie = None
        self.csrf = None
        if name:
            response = client.post("/api/signup", json={"name": name, "password": PASSWORD})
            assert response.status_code == 201, response.text
            self.cookie = response.cookies[SESSION_COOKIE]
            client.cookies.clear()
            self.csrf = self.get("/api/me").json()["csrf"]

    def headers(self):
        headers = {"Cookie": f"{SESSION_COOKIE}={self.cookie}"} if self.cookie else {}
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        return headers

    def get(self, path):
        response = self.client.get(path, headers=self.headers())
        self.client.cookies.clear()
        return response

    def post(self, path, body):
        response = self.client.post(path, json=body, headers=self.headers())
        self.client.cookies.clear()
        return response

    def socket(self, path):
        return self.client.websocket_connect(path, headers=self.headers())


def receive(ws, kind=None):
    """The next message (of type ``kind``), skipping others (states, lobby lists, turns)."""
    while True:
        data = orjson.loads(ws.receive_text())
        if kind is None or data["type"] == kind:
            return data


def reply(ws, message):
    """Send a chat message; the answer to it (ok or error), pushed messages skipped."""
    ws.send_text(orjson.dumps(message).decode())
    while True:
        data = orjson.loads(ws.receive_text())
        # (a message too large to read has no ref in its answer)
        if data.get("ref") == message.get("ref") or (data["type"] == "error" and data.get("ref") is None):
            return data


def game_between(alice, bob):
    created = alice.post("/api/games", {"game": "trike", "options": {"size": 7}, "opponent": "friend"}).json()
    joined = bob.post(f"/api/games/{created['id']}/join", {"invite": created["invite"]}).json()
    return created["id"], created["token"], joined["token"]


@pytest.fixture()
def two(db_url):
    """Two servers on one database."""
    with TestClient(make_app(db_url)) as one, TestClient(make_app(db_url)) as other:
        yield one, other


def test_players_and_spectators_have_rooms_of_their_own_across_two_servers(two):
    one, other = two
    alice, bob, carol = Person(one, "Alice"), Person(other, "Bob"), Person(other, "Carol")
    game_id, token_a, token_b = game_between(alice, bob)
    with alice.socket(f"/ws/games/{game_id}") as wa, bob.socket(f"/ws/games/{game_id}") as wb, \
            carol.socket(f"/ws/games/{game_id}") as wc:
        for ws, token in ((wa, token_a), (wb, token_b)):
            receive(ws, "state")
            assert reply(ws, {"type": "auth", "token": token, "ref": 1})["you"]
        receive(wc, "state")
        assert reply(wa, {"type": "chat", "text": "<script>alert(1)</script> gl hf https://x.example",
                          "ref": "c1"})["type"] == "ok"
        pushed = receive(wb, "chat")  # from the other server
        assert pushed["room"] == "players"
        assert pushed["messages"][0]["text"] == "<script>alert(1)</script> gl hf https://x.example"
        assert pushed["messages"][0]["name"] == "Alice"
        assert reply(wc, {"type": "chat", "text": "nice opening", "ref": "c2"})["type"] == "ok"
        history = reply(wb, {"type": "chat_history", "ref": "h"})
        assert [m["text"] for m in history["messages"]] == ["<script>alert(1)</script> gl hf https://x.example"]
        spectators = reply(wc, {"type": "chat_history", "ref": "h"})
        assert spectators["room"] == "spectators" and [m["text"] for m in spectators["messages"]] == ["nice opening"]


def test_the_lobby_chat_is_read_only_for_guests(two):
    one, other = two
    alice, guest = Person(one, "Alice"), Person(other)
    with alice.socket("/ws/lobby") as wa, guest.socket("/ws/lobby") as wg:
        receive(wa, "lobby")
        receive(wg, "lobby")
        refused = reply(wg, {"type": "chat", "text": "hi", "ref": "c1"})
        assert refused["type"] == "error" and refused["status"] == 401 and "log in" in refused["error"]
        assert reply(wa, {"type": "chat", "text": "hello lobby", "ref": "c2"})["type"] == "ok"
        assert receive(wg, "chat")["messages"][0]["text"] == "hello lobby"


def test_hostile_input_gets_clean_errors(db_url):
    with TestClient(make_app(db_url, chat_limits="account=5/minute;address=100/minute")) as client:
        alice = Person(client, "Alice")
        with alice.socket("/ws/lobby?lang=de") as ws:
            receive(ws, "lobby")
            big = reply(ws, {"type": "chat", "text": "x" * 100_000, "ref": "big"})
            assert big["type"] == "error" and big["status"] == 413 and big["key"] == "web.message_too_large"
            long = reply(ws, {"type": "chat", "text": "x" * 501, "ref": "long"})
            assert long["status"] == 413 and long["error"] == "die Nachricht hat 501 Zeichen; erlaubt sind höchstens 500"
            bell = reply(ws, {"type": "chat", "text": "ding\x07dong", "ref": "bell"})
            assert bell["status"] == 400 and "U+0007" in bell["error"]
            bidi = reply(ws, {"type": "chat", "text": "abc\u202edef", "ref": "bidi"})
            assert bidi["status"] == 400 and "U+202E" in bidi["error"]
            assert reply(ws, {"type": "chat", "text": "   ", "ref": "e"})["status"] == 400
            assert reply(ws, {"type": "chat", "text": 5, "ref": "n"})["status"] == 400
            assert reply(ws, {"type": "chat", "text": "two\nlines\tand a tab", "ref": "nl"})["type"] == "ok"
            answers = [reply(ws, {"type": "chat", "text": f"flood {k}", "ref": f"f{k}"}) for k in range(6)]
            assert [a["type"] for a in answers] == ["ok"] * 4 + ["error"] * 2
            assert answers[-1]["status"] == 429 and answers[-1]["error"].startswith("du schreibst zu schnell")
            texts = [m["text"] for m in reply(ws, {"type": "chat_history", "ref": "h"})["messages"]]
            assert texts == ["two lines and a tab", "flood 0", "flood 1", "flood 2", "flood 3"]


def test_mute_block_report_and_the_operators_mute_and_ban(db_url, tmp_path):
    with TestClient(make_app(db_url)) as client:
        alice, bob, carol = Person(client, "Alice"), Person(client, "Bob"), Person(client, "Carol")
        with bob.socket("/ws/lobby") as wb:
            receive(wb, "lobby")
            for k in range(3):
                assert reply(wb, {"type": "chat", "text": f"bob {k}", "ref": f"b{k}"})["type"] == "ok"
        def history(who):
            return [m["text"] for m in _lobby_history(who)]
        assert history(alice) == ["bob 0", "bob 1", "bob 2"]
        # a mute: hidden for Alice only
        assert alice.post("/api/chat/relations", {"name": "bob", "kind": "mute"}).json() == {"mute": ["Bob"], "block": []}
        assert history(alice) == [] and history(carol) == ["bob 0", "bob 1", "bob 2"]
        assert alice.post("/api/chat/relations", {"name": "Alice", "kind": "mute"}).status_code == 400
        assert alice.post("/api/chat/relations", {"name": "nobody", "kind": "block"}).status_code == 404
        # a block: hidden both ways, and blocked() says so for the challenges
        assert carol.post("/api/chat/relations", {"name": "Bob", "kind": "block"}).status_code == 200
        store = client.app.state.store
        users = {r["name"]: r["id"] for r in client.app.state.accounts.users()}
        assert chat_module.blocked(store, users["Carol"], users["Bob"])
        assert not chat_module.blocked(store, users["Bob"], users["Carol"])
        assert history(carol) == []
        # a report, stored with the messages before it
        last = _lobby_history(Person(client))  # a guest reads the lobby
        message_id = last[-1]["id"]
        assert alice.post("/api/chat/reports", {"message": message_id, "reason": "rude"}).status_code == 201
        assert alice.post("/api/chat/reports", {"message": 10**9}).status_code == 404
        reports = chat_module.reports(store)
        assert [line["text"] for line in reports[0]["context"]] == ["bob 0", "bob 1", "bob 2"]
        # operators: a site-wide mute hides Bob from everyone and stops him writing
        db = client.app.state.store.url
    runner = CliRunner()
    listed = runner.invoke(main, ["users", "reports", "--db", db])
    assert listed.exit_code == 0 and "Alice reported Bob in lobby (rude)" in listed.output and "bob 2" in listed.output
    muted = runner.invoke(main, ["users", "mute", "Bob", "--hours", "1", "--db", db])
    assert muted.exit_code == 0 and "Bob: muted until" in muted.output, muted.output
    unknown = runner.invoke(main, ["users", "mute", "Nobody", "--hours", "1", "--db", db])
    assert unknown.exit_code != 0 and "there is no player 'Nobody'" in unknown.output, unknown.output
    with TestClient(make_app(db)) as client:
        dave, bob = Person(client, "Dave"), _login(client, "Bob")
        assert _lobby_history(dave) == []
        assert [m["text"] for m in _lobby_history(bob)] == ["bob 0", "bob 1", "bob 2"]  # his own, still
        with bob.socket("/ws/lobby") as wb:
            receive(wb, "lobby")
            refused = reply(wb, {"type": "chat", "text": "let me talk", "ref": "x"})
            assert refused["status"] == 403 and "muted" in refused["error"]
    assert runner.invoke(main, ["users", "mute", "Bob", "--hours", "0", "--db", db]).exit_code == 0
    assert runner.invoke(main, ["users", "ban", "Bob", "--db", db]).exit_code == 0
    with TestClient(make_app(db)) as client:
        bob = _login(client, "Bob")
        with bob.socket("/ws/lobby") as wb:
            receive(wb, "lobby")
            assert "banned" in reply(wb, {"type": "chat", "text": "hi", "ref": "x"})["error"]
        assert _lobby_history(_login(client, "Dave")) == []


def _login(client, name):
    person = Person(client)
    response = client.post("/api/login", json={"name": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    person.cookie = response.cookies[SESSION_COOKIE]
    client.cookies.clear()
    person.csrf = person.get("/api/me").json()["csrf"]
    return person


def _lobby_history(person):
    with person.socket("/ws/lobby") as ws:
        receive(ws, "lobby")
        return reply(ws, {"type": "chat_history", "ref": "h"})["messages"]


def test_players_chat_is_reported_only_by_its_players(db_url):
    with TestClient(make_app(db_url)) as client:
        alice, bob, carol = Person(client, "Alice"), Person(client, "Bob"), Person(client, "Carol")
        game_id, token_a, _ = game_between(alice, bob)
        with alice.socket(f"/ws/games/{game_id}") as wa:
            receive(wa, "state")
            reply(wa, {"type": "auth", "token": token_a, "ref": 1})
            reply(wa, {"type": "chat", "text": "private", "ref": "c"})
            message_id = reply(wa, {"type": "chat_history", "ref": "h"})["messages"][0]["id"]
        assert carol.post("/api/chat/reports", {"message": message_id}).status_code == 403
        assert bob.post("/api/chat/reports", {"message": message_id}).status_code == 201


def test_a_mute_or_a_block_is_listed_and_undone(db_url):
    with TestClient(make_app(db_url)) as client:
        alice, bob = Person(client, "Alice"), Person(client, "Bob")
        Person(client, "Carol")
        with bob.socket("/ws/lobby") as wb:
            receive(wb, "lobby")
            assert reply(wb, {"type": "chat", "text": "hello from bob", "ref": "b"})["type"] == "ok"
        alice.post("/api/chat/relations", {"name": "Bob", "kind": "mute"})
        assert alice.post("/api/chat/relations", {"name": "carol", "kind": "block"}).json() == {"mute": ["Bob"], "block": ["Carol"]}
        assert alice.get("/api/chat/relations").json() == {"mute": ["Bob"], "block": ["Carol"]}
        assert _lobby_history(alice) == []
        store = client.app.state.store
        users = {r["name"]: r["id"] for r in client.app.state.accounts.users()}
        assert chat_module.blocked(store, users["Alice"], users["Carol"])
        # undoing a mute leaves the block, and the other way round
        assert alice.post("/api/chat/relations", {"name": "Carol", "kind": "mute", "on": False}).json() == {"mute": ["Bob"], "block": ["Carol"]}
        assert alice.post("/api/chat/relations", {"name": "bob", "kind": "mute", "on": False}).json() == {"mute": [], "block": ["Carol"]}
        assert [m["text"] for m in _lobby_history(alice)] == ["hello from bob"]
        assert alice.post("/api/chat/relations", {"name": "Carol", "kind": "block", "on": False}).json() == {"mute": [], "block": []}
        assert not chat_module.blocked(store, users["Alice"], users["Carol"])
        # undoing what is not there changes nothing; bad input is named
        assert alice.post("/api/chat/relations", {"name": "Carol", "kind": "block", "on": False}).status_code == 200
        bad = alice.post("/api/chat/relations", {"name": "Carol", "kind": "block", "on": "no"})
        assert bad.status_code == 400 and "'on' must be true" in bad.json()["error"]
        assert alice.post("/api/chat/relations", {"name": "Carol", "kind": "ignore", "on": False}).status_code == 400
        assert Person(client).get("/api/chat/relations").status_code == 401


def test_a_report_gives_its_reason_and_hostile_reasons_get_clean_errors(db_url):
    with TestClient(make_app(db_url)) as client:
        alice, bob = Person(client, "Alice"), Person(client, "Bob")
        with bob.socket("/ws/lobby") as wb:
            receive(wb, "lobby")
            for k in range(3):
                assert reply(wb, {"type": "chat", "text": f"bob {k}", "ref": f"b{k}"})["type"] == "ok"
        ids = [m["id"] for m in _lobby_history(alice)]

        def refused(reason, status, expected):
            response = alice.post("/api/chat/reports", {"message": ids[-1], "reason": reason})
            assert response.status_code == status and expected in response.json()["error"], response.text
        refused("x" * 301, 400, "the reason has 301 characters; at most 300 are allowed")
        refused("ding\x07", 400, "control character U+0007")
        refused("abc\u202edef", 400, "U+202E")
        refused(["a list"], 400, "'reason' must be text")
        refused({"a": 1}, 400, "'reason' must be text")
        big = alice.post("/api/chat/reports", {"message": ids[-1], "reason": "x" * 100_000})
        assert big.status_code in (400, 413) and big.json()["error"]
        assert chat_module.reports(client.app.state.store) == []
        german = client.post("/api/chat/reports", json={"message": ids[-1], "reason": "y" * 400},
                             headers={**alice.headers(), "Accept-Language": "de"})
        client.cookies.clear()
        assert german.json()["error"] == "die Begründung hat 400 Zeichen; erlaubt sind höchstens 300"
        # a good one: stored on one line, with its context, and listed by the CLI as text
        reason = "  <b>insults</b>\nagain  "
        assert alice.post("/api/chat/reports", {"message": ids[-1], "reason": reason}).status_code == 201
        assert alice.post("/api/chat/reports", {"message": ids[0], "reason": "   "}).status_code == 201
        found = chat_module.reports(client.app.state.store)
        assert [r["reason"] for r in found] == [None, "<b>insults</b> again"]
        assert [line["text"] for line in found[1]["context"]] == ["bob 0", "bob 1", "bob 2"]
        db = client.app.state.store.url
    listed = CliRunner().invoke(main, ["users", "reports", "--db", db])
    assert listed.exit_code == 0, listed.output
    assert "Alice reported Bob in lobby (<b>insults</b> again):" in listed.output
