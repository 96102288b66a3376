"""The web server as a platform: group commit, bad input answered 400 with the game unchanged
(HTTP and websocket), claiming a game the opponent abandoned, expiring games nobody joined, the
cap on live bot games, and bots resumed after a restart."""

from __future__ import annotations

import asyncio
import time
import warnings

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.web import create_app
from ludothek.web.service import GameService
from ludothek.web.store import Conflict, Store, Write


def make_client(db_url, **options):
    options.setdefault("rate_limits", "off")
    return TestClient(create_app(db_url, bot_executor="thread", **options))


@pytest.fixture()
def client(db_url):
    with make_client(db_url) as test_client:
        yield test_client


def new_game(client, **spec):
    spec.setdefault("game", "trike")
    spec.setdefault("options", {"size": 7})
    spec.setdefault("start", "fixed")
    response = client.post("/api/games", json=spec)
    assert response.status_code == 201, response.text
    return response.json()


def snapshot(client, game_id):
    game = client.get(f"/api/games/{game_id}").json()["game"]
    return game["version"], game["position"], game["status"], [h["text"] for h in game["history"]]


# ---------------------------------------------------------------------------- group commit
def test_concurrent_writes_share_commits_and_compare_and_set_holds(tmp_path):
    store = Store(str(tmp_path / "group.sqlite3"))
    service = GameService(store)

    async def scenario():
        ids = [(await service.create({"game": "trike", "options": {"size": 7}, "start": "fixed"}))["id"]
               for _ in range(30)]
        before = store.batches
        rows = [service.games[game_id].row for game_id in ids]
        for row in rows:
            row.tags = {"note": "x"}
        await asyncio.gather(*(store.commit(Write(row, row.version)) for row in rows))
        # a stale version loses, whatever else its batch holds
        stale = Write(rows[0], rows[0].version - 1)
        results = await asyncio.gather(store.commit(stale), store.commit(Write(rows[1], rows[1].version)),
                                       return_exceptions=True)
        return ids, store.batches - before, results

    ids, batches, results = asyncio.run(scenario())
    assert batches < 30  # 31 writes queued together did not need 31 commits
    assert isinstance(results[0], Conflict) and results[1] is None
    store.close()
    again = Store(str(tmp_path / "group.sqlite3"))
    assert all(again.load(game_id).tags == {"note": "x"} for game_id in ids)
    assert again.load(ids[1]).version == 2
    again.close()


# ---------------------------------------------------------------------------- bad input
def test_bad_requests_are_400_and_change_nothing(client):
    created = new_game(client)
    game_id, token = created["id"], created["token"]
    assert client.post(f"/api/games/{game_id}/move", json={"token": token, "move": "c1"}).status_code == 200
    before = snapshot(client, game_id)
    bad = [
        ("move", {"token": token, "move": "e5", "seat": 0.0}),
        ("move", {"token": token, "move": "e5", "seat": True}),
        ("move", {"token": token, "move": "e5", "seat": "1"}),
        ("move", {"token": token, "move": ["e5"]}),
        ("resign", {"token": token, "seat": 1.0}),
    ]
    for action, body in bad:
        response = client.post(f"/api/games/{game_id}/{action}", json=body)
        assert response.status_code == 400, (action, body, response.text)
        assert response.json()["error"]
    nested = client.post(f"/api/games/{game_id}/move", content=b"[" * 8000,
                         headers={"content-type": "application/json"})
    assert nested.status_code == 400 and "nests deeper" in nested.json()["error"]
    assert snapshot(client, game_id) == before


def test_bad_websocket_messages_get_an_error_and_the_socket_stays(client):
    created = new_game(client)
    game_id, token = created["id"], created["token"]
    before = snapshot(client, game_id)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        assert ws.receive_json()["type"] == "state"
        for message in (
            {"type": "move", "token": token, "move": "e5", "seat": 0.0, "ref": 1},
            {"type": "resign", "token": token, "seat": 1.0, "ref": 2},
        ):
            ws.send_json(message)
            reply = ws.receive_json()
            assert reply == {"type": "error", "status": 400, "error": reply["error"], "key": reply["key"],
                             "ref": message["ref"]}
            assert reply["key"], reply
        ws.send_text("[" * 8000)
        assert ws.receive_json()["status"] in (400, 413)
        ws.send_json({"type": "ping", "ref": 3})
        assert ws.receive_json() == {"type": "pong", "ref": 3}
    assert snapshot(client, game_id) == before


def test_client_cannot_set_server_fields(client):
    created = new_game(client, _rematch_of="someone-else", _start="low")
    game = client.get(f"/api/games/{created['id']}").json()["game"]
    assert game["rematch_of"] is None


# ---------------------------------------------------------------------------- claims and expiry
def online_game(client):
    created = new_game(client, opponent="friend", seat=0)
    joined = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]}).json()
    return created["id"], created["token"], joined["token"]


def test_claim_a_game_the_opponent_abandoned(db_url):
    ahead = [0.0]  # the server's clock is moved on by the test: no wait that a busy machine could outlast
    with make_client(db_url, claim_after=300, clock=lambda: time.time() + ahead[0]) as client:
        game_id, first, second = online_game(client)
        # black (seat 0) is to move; the waiting player may not claim yet, the mover never
        early = client.post(f"/api/games/{game_id}/claim", json={"token": second})
        assert early.status_code == 409 and "still has" in early.json()["error"]
        assert 0 < client.get(f"/api/games/{game_id}").json()["game"]["claim_in"] <= 300
        ahead[0] = 300
        assert client.get(f"/api/games/{game_id}").json()["game"]["claim_in"] == 0  # not a cached figure
        own_turn = client.post(f"/api/games/{game_id}/claim", json={"token": first})
        assert own_turn.status_code == 409 and "your turn" in own_turn.json()["error"]
        # not while the absent player watches the game with his token
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.receive_json()
            ws.send_json({"type": "auth", "token": first})
            ws.receive_json()
            present = client.post(f"/api/games/{game_id}/claim", json={"token": second})
            assert present.status_code == 409 and "connected" in present.json()["error"]
        claimed = client.post(f"/api/games/{game_id}/claim", json={"token": second})
        assert claimed.status_code == 200, claimed.text
        game = claimed.json()["game"]
        assert game["status"] == "over" and game["termination"] == "abandon"
        assert game["result"] == game["colours"][1]
        assert "[Termination \"abandon\"]" in client.get(f"/api/games/{game_id}/record").text


def test_the_store_stamps_moves_by_the_apps_clock(db_url):
    """A game's ``updated`` comes from the app's clock, which its claims are counted on: with a
    clock far from the wall's, the countdown to a claim is still the whole ``claim_after``."""
    now = [2_000_000_000.0]  # 2033, years from the machine's time
    with make_client(db_url, claim_after=300, clock=lambda: now[0]) as client:
        game_id, first, _ = online_game(client)
        board = client.get(f"/api/games/{game_id}").json()["game"]
        now[0] += 60
        moved = client.post(f"/api/games/{game_id}/move", json={"token": first, "move": board["moves"][0]["move"]})
        assert moved.status_code == 200, moved.text
        game = client.get(f"/api/games/{game_id}").json()["game"]
        assert game["updated"] == now[0]
        assert game["claim_in"] == 300


def test_no_claim_in_games_with_a_clock_or_at_home(client):
    hotseat = new_game(client)
    response = client.post(f"/api/games/{hotseat['id']}/claim", json={"token": hotseat["token"]})
    assert response.status_code == 409


def test_games_nobody_joined_expire(client):
    created = new_game(client, opponent="friend")
    ended = client.portal.call(client.app.state.service.expire_waiting, 0)
    assert ended >= 1
    game = client.get(f"/api/games/{created['id']}").json()["game"]
    assert game["status"] == "over" and game["termination"] == "expired" and not game["open_seat"]
    assert client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]}).status_code == 409


# ---------------------------------------------------------------------------- bots
def test_live_bot_games_per_client_are_capped(client):
    cap = client.app.state.service.bot_cap
    for _ in range(cap):
        new_game(client, opponent="bot", bot="random")
    refused = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "opponent": "bot"})
    assert refused.status_code == 429 and "finish or resign" in refused.json()["error"]
    assert client.post("/api/games", json={"game": "trike", "options": {"size": 7}}).status_code == 201


def test_a_bot_turn_pending_at_shutdown_is_played_after_restart(tmp_path):
    db = str(tmp_path / "resume.sqlite3")
    store = Store(db)
    # made without a server: the bot (black, seat 0) is to move and nobody asked it yet
    created = asyncio.run(GameService(store).create(
        {"game": "trike", "options": {"size": 7}, "start": "fixed", "opponent": "bot", "bot": "random", "seat": 1}))
    store.close()
    with make_client(db) as client:
        deadline = time.time() + 20
        while time.time() < deadline and client.app.state.store.count_moves(created["id"]) == 0:
            time.sleep(0.05)
        assert client.app.state.store.count_moves(created["id"]) == 1


def test_migrate_command_brings_the_schema_to_head(tmp_path):
    from click.testing import CliRunner

    from ludothek.cli import main
    from ludothek.web import migrations

    db = str(tmp_path / "migrate.sqlite3")
    first = CliRunner().invoke(main, ["migrate", "--db", db])
    assert first.exit_code == 0 and f"schema {migrations.head()} (was empty)" in first.output
    again = CliRunner().invoke(main, ["migrate", "--db", db])
    assert again.exit_code == 0 and "(was" not in again.output
    broken = CliRunner().invoke(main, ["migrate", "--db", "postgresql://nobody@/none?host=/nonexistent"])
    assert broken.exit_code == 2 and "cannot migrate" in broken.output


def test_archive_paging_refuses_offsets_the_database_cannot_hold(client):
    for offset in ("99999999999999999999999", "-1", "abc"):
        response = client.get(f"/api/games?offset={offset}")
        assert response.status_code == 400 and "offset" in response.json()["error"]
    assert client.get("/api/games?offset=1000000000").status_code == 200
