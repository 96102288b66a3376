"""The web app's JSON API and websockets (Starlette TestClient; SQLite and PostgreSQL)."""


from __future__ import annotations

import json
import random
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import ludothek
from ludothek.core.registry import game_spec
from ludothek.web import create_app

GAMES = ludothek.games()
SMALL = {"trike": {"size": 7}}


@pytest.fixture()
def client(db_url):
    """The app on a SQLite file, then on a fresh PostgreSQL database (see conftest.py)."""
    app = create_app(db_url, bot_executor="thread", rate_limits="off")
    with TestClient(app) as test_client:
        yield test_client


def create(client, game="trike", **spec):
    spec.setdefault("options", dict(SMALL.get(game, {})))
    spec.setdefault("start", "fixed")
    response = client.post("/api/games", json={"game": game, **spec})
    assert response.status_code == 201, response.text
    return response.json()


def move(client, game_id, token, text, **extra):
    return client.post(f"/api/games/{game_id}/move", json={"token": token, "move": text, **extra})


def view(client, game_id, token=None):
    headers = {"X-Ludothek-Token": token} if token else {}
    response = client.get(f"/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_catalog_lists_every_game(client):
    data = client.get("/api/catalog").json()
    assert [g["name"] for g in data["games"]] == GAMES  # in display order
    assert all(g["rules"] is True for g in data["games"])
    boards = {g["name"]: g["board"] for g in data["games"]}
    assert {name: boards[name] for name in ("trike", "trigeo", "hexalit", "bitis")} == {
        "trike": "hextri", "trigeo": "tri66", "hexalit": "tri66", "bitis": "grid"}
    assert "random" in data["bots"]
    catalog = client.get("/api/i18n").json()
    assert catalog["de"]["resign"] == "Aufgeben" and catalog["en"]["resign"] == "Resign"
    assert set(catalog["en"]) == set(catalog["de"])


@pytest.mark.parametrize("game", GAMES)
def test_play_a_game_through_the_api(client, game):
    """Random legal moves from the server's own list, then a resignation; the record replays."""
    created = create(client, game)
    game_id, token = created["id"], created["token"]
    rng = random.Random(7)
    state = created["game"]
    assert state["status"] == "ongoing"
    for _ in range(40):
        if state["status"] != "ongoing":
            break
        # the server's list is the game's own list of legal moves
        reference = ludothek.loads(client.get(f"/api/games/{game_id}/record").text).replay()
        assert sorted(m["move"] for m in state["moves"]) == reference.legal_moves()
        choice = rng.choice(state["moves"])["move"]
        response = move(client, game_id, token, choice)
        assert response.status_code == 200, response.text
        state = response.json()["game"]
    record = ludothek.loads(client.get(f"/api/games/{game_id}/record").text)
    assert record.replay().position() == state["position"]
    if state["status"] == "ongoing":
        response = client.post(f"/api/games/{game_id}/resign", json={"token": token})
        assert response.status_code == 200
        state = response.json()["game"]
        assert state["termination"] == "resign"
    assert state["status"] == "over"
    assert state["result"] in (*ludothek.game_class(game).colours, "draw")
    again = client.post(f"/api/games/{game_id}/resign", json={"token": token})
    assert again.status_code == 409


def test_rejected_requests_change_nothing(client):
    created = create(client, "trike")
    game_id, token = created["id"], created["token"]
    assert move(client, game_id, token, "d2").status_code == 200
    before = view(client, game_id)["game"]

    def unchanged():
        now = view(client, game_id)["game"]
        assert now["version"] == before["version"] and now["history"] == before["history"]

    cases = [
        (move(client, game_id, token, "a1"), 400, "not legal"),  # well-formed, illegal
        (move(client, game_id, token, "d2d2"), 400, "not a cell"),  # malformed
        (move(client, game_id, token, "x" * 500), 400, "at most"),
        (client.post(f"/api/games/{game_id}/move", json={"token": token, "move": 12}), 400, "notation"),
        (move(client, game_id, "forged-token", "c2"), 403, "token"),
        (move(client, game_id, "", "c2"), 401, "token"),
        (client.post(f"/api/games/{game_id}/move", json={"move": "c2"}), 401, "token"),
        (client.post(f"/api/games/{game_id}/move", content=b"{not json", headers={"Content-Type": "application/json"}),
         400, "JSON"),
        (client.post(f"/api/games/{game_id}/move", content=b"[1, 2]"), 400, "object"),
        (client.post(f"/api/games/{game_id}/move", content=b"{\"move\": \"" + b"a" * 20000 + b"\"}"), 413, "larger"),
        (move(client, "no-such-game", token, "c2"), 404, "game"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, response.text
        assert words in response.json()["error"]
        unchanged()
    # forged tokens cannot undo or resign either
    assert client.post(f"/api/games/{game_id}/undo", json={"token": "x" * 32}).status_code == 403
    assert client.post(f"/api/games/{game_id}/resign", json={"token": "x" * 32}).status_code == 403
    unchanged()


def test_online_game_with_invite_and_spectator(client):
    created = create(client, "trike", opponent="friend", seat=0)
    game_id, host = created["id"], created["token"]
    assert created["game"]["status"] == "waiting"
    assert move(client, game_id, host, "d2").status_code == 409  # nobody to play against yet
    assert client.post(f"/api/games/{game_id}/join", json={"invite": "wrong"}).status_code == 403
    assert client.post(f"/api/games/{game_id}/join", json={}).status_code == 401
    joined = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]})
    assert joined.status_code == 200
    guest = joined.json()["token"]
    assert joined.json()["seats"] == [1]
    assert client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]}).status_code == 409
    assert view(client, game_id, guest)["you"] == [1]
    assert view(client, game_id)["you"] == []  # a spectator
    # moves for the wrong seat are refused
    wrong = move(client, game_id, guest, "d2")
    assert wrong.status_code == 409 and "not your turn" in wrong.json()["error"]
    assert move(client, game_id, host, "d2").status_code == 200
    assert move(client, game_id, host, "c2").status_code == 409
    assert move(client, game_id, guest, "swap").status_code == 200
    assert view(client, game_id)["game"]["colours"] == ["white", "black"]
    assert client.post(f"/api/games/{game_id}/undo", json={"token": host}).status_code == 403
    assert client.post(f"/api/games/{game_id}/resign", json={"token": guest}).status_code == 200
    over = view(client, game_id)["game"]
    assert over["status"] == "over" and over["result"] == "white"  # the guest held black after the swap
    # rematch: the first caller creates it, the other claims his seat
    first = client.post(f"/api/games/{game_id}/rematch", json={"token": host}).json()
    second = client.post(f"/api/games/{game_id}/rematch", json={"token": guest}).json()
    assert first["id"] == second["id"] and first["seats"] == [1] and second["seats"] == [0]
    assert client.post(f"/api/games/{game_id}/rematch", json={"token": guest}).status_code == 409
    assert view(client, first["id"])["game"]["status"] == "ongoing"
    assert move(client, first["id"], second["token"], "a1").status_code == 200


def test_undo_in_hot_seat_and_against_a_bot(client):
    created = create(client, "trike")
    game_id, token = created["id"], created["token"]
    assert client.post(f"/api/games/{game_id}/undo", json={"token": token}).status_code == 409
    for text in ("d2", "swap", "c2"):
        assert move(client, game_id, token, text).status_code == 200
    state = client.post(f"/api/games/{game_id}/undo", json={"token": token}).json()["game"]
    assert [h["text"] for h in state["history"]] == ["d2", "swap"]

    bot = create(client, "trike", opponent="bot", bot="random", seat=0)
    bot_id, bot_token = bot["id"], bot["token"]
    assert move(client, bot_id, bot_token, "d2").status_code == 200
    state = wait_for(client, bot_id, lambda s: len(s["history"]) >= 2)
    assert state["to_seat"] == 0
    state = client.post(f"/api/games/{bot_id}/undo", json={"token": bot_token}).json()["game"]
    assert state["history"] == [] and state["to_seat"] == 0
    # the bot's seat cannot be played with the person's token
    assert move(client, bot_id, bot_token, "d2", seat=1).status_code == 403


def wait_for(client, game_id, condition, seconds=20.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        state = view(client, game_id)["game"]
        if condition(state):
            return state
        time.sleep(0.05)
    raise AssertionError(f"timed out; last state {state['history']}")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_against_the_random_bot(client, game):
    created = create(client, game, opponent="bot", bot="random", seat=1)
    game_id, token = created["id"], created["token"]
    rng = random.Random(3)
    for _ in range(60):
        state = wait_for(client, game_id, lambda s: s["status"] != "ongoing" or s["to_seat"] == 1)
        if state["status"] != "ongoing":
            break
        assert move(client, game_id, token, rng.choice(state["moves"])["move"]).status_code == 200
    state = view(client, game_id)["game"]
    # every token has its mover's colour, except a roll made before anyone moved (no mover)
    history = state["history"]
    assert history and all(h["colour"] in state["colours"] for h in history[1:])
    assert history[0]["colour"] in state["colours"] or history[0]["ply"] == 1


def test_clock_runs_out_on_the_server(client):
    created = create(client, "trike", clock={"minutes": 0.01, "increment": 0})
    game_id, token = created["id"], created["token"]
    assert created["game"]["clock"]["running"] == 0
    time.sleep(0.8)
    state = view(client, game_id)["game"]
    assert state["status"] == "over" and state["termination"] == "time" and state["result"] == "white"
    assert move(client, game_id, token, "d2").status_code == 409
    assert client.post("/api/games", json={"game": "trike", "clock": {"minutes": -1}}).status_code == 400


def test_rules_pages(client):
    for game in GAMES:
        response = client.get(f"/api/rules/{game}")
        assert response.status_code == 200, response.text
        page = response.json()
        assert page == game_spec(game).rules_page()
        assert set(page) - {"summary"} == {"title", "en", "de"} and page["en"] and page["de"]
        if "summary" in page:  # the home page's one line on the game
            assert set(page["summary"]) == {"en", "de"} and all(page["summary"].values())
    assert client.get("/api/rules/trike").json()["title"]["de"] == "Trike"
    response = client.get("/api/rules/chess")
    assert response.status_code == 404 and "unknown game 'chess'" in response.json()["error"]
    assert client.get("/static/rules.json").status_code == 404  # one page per game now


def test_bad_create_requests(client):
    for body, words in [
        ({"game": "chess"}, "unknown game"),
        ({"game": "trike", "options": {"size": 99}}, "at most"),
        ({"game": "trike", "options": {"colour": 1}}, "no option"),
        ({"game": "trike", "opponent": "alien"}, "opponent"),
        ({"game": "trike", "opponent": "bot", "bot": "grandmaster"}, "bot must be one of random, bot:1"),
        ({"game": "trike", "opponent": "bot", "bot": "mcts:600s"}, "not 'mcts:600s'"),
        ({"game": "trike", "opponent": "bot", "bot": "perfect"}, "bot must be one of"),
        ({}, "name the game"),
    ]:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400 and words in response.json()["error"], response.text


def test_replay_any_ply_and_archive(client):
    created = create(client, "trike")
    for text in ("d2", "swap", "c2", "c1"):
        move(client, created["id"], created["token"], text)
    at2 = client.get(f"/api/games/{created['id']}?at=2").json()["game"]
    assert at2["status"] == "replay" and at2["board"]["stones"] == {"d2": "b"} and at2["moves"] == []
    listed = client.get("/api/games?status=ongoing").json()["games"]
    assert created["id"] in [g["id"] for g in listed]
    assert client.get("/api/games?status=nonsense").status_code == 400


@pytest.mark.skipif("trigeo" not in GAMES and "hexalit" not in GAMES, reason="no game with a 'first' option yet")
def test_the_server_rolls_for_the_first_player(client):
    game = "trigeo" if "trigeo" in GAMES else "hexalit"
    state = create(client, game, start="high")["game"]
    assert state["tags"]["StartRoll"].startswith("high:")
    assert state["to_move"] == state["options"]["first"]


@pytest.mark.skipif("hexalit" not in GAMES, reason="Hexalit is not registered yet")
def test_hexalit_rolls_are_made_by_the_server(client):
    created = create(client, "hexalit", options={"cube": True})
    game_id, token = created["id"], created["token"]
    rolls = [m["move"] for m in created["game"]["moves"] if m["kind"] == "roll"]
    assert rolls and all(m["from"] for m in created["game"]["moves"] if m["kind"] == "roll")
    state = move(client, game_id, token, rolls[0]).json()["game"]
    token_text = state["history"][-1]["text"]
    assert token_text.startswith(rolls[0]) and token_text[len(rolls[0])] in "123456"
    assert state["last"]["kind"] == "roll"
    # a client cannot choose the outcome of a roll
    before = view(client, game_id)["game"]["version"]
    other = ludothek.loads(client.get(f"/api/games/{game_id}/record").text).replay()
    for text in other.legal_moves():
        if text.endswith("W"):
            refused = move(client, game_id, token, text + "6")
            assert refused.status_code == 400 and "server rolls" in refused.json()["error"], refused.text
            break
    assert view(client, game_id)["game"]["version"] == before
    record = ludothek.loads(client.get(f"/api/games/{game_id}/record").text)
    assert record.moves[-1] == token_text


# ---------------------------------------------------------------------------- websockets
def test_websocket_live_game(client):
    created = create(client, "trike", opponent="friend", seat=0)
    game_id, host = created["id"], created["token"]
    guest = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]}).json()["token"]
    with client.websocket_connect(f"/ws/games/{game_id}") as spectator, \
            client.websocket_connect(f"/ws/games/{game_id}") as player:
        assert spectator.receive_json()["type"] == "state"
        assert player.receive_json()["type"] == "state"
        player.send_json({"type": "auth", "token": host})
        authed = player.receive_json()
        assert authed["you"] == [0]
        player.send_json({"type": "move", "move": "d2", "ref": 1})
        first, second = player.receive_json(), player.receive_json()
        kinds = {first["type"], second["type"]}
        assert kinds == {"state", "ok"}
        seen = spectator.receive_json()
        assert seen["type"] == "state" and seen["game"]["history"][-1]["text"] == "d2" and seen["you"] == []
        version = seen["game"]["version"]

        def error(message):
            reply = player.receive_json()
            assert reply["type"] == "error", reply
            return reply

        player.send_json({"type": "move", "move": "c2"})  # guest's turn
        assert error(None)["status"] == 409
        player.send_json({"type": "move", "move": "q9", "token": guest})
        assert error(None)["status"] == 400
        player.send_text("{broken")
        assert "JSON" in error(None)["error"]
        player.send_text(json.dumps({"type": "move", "move": "a" * 10000}))
        assert error(None)["status"] == 413
        player.send_json({"type": "teleport"})
        assert "unknown message type" in error(None)["error"]
        player.send_json(["not", "an", "object"])
        assert error(None)["status"] == 400
        player.send_json({"type": "auth", "token": "forged"})
        assert error(None)["status"] == 403
        spectator.send_json({"type": "move", "move": "c2"})
        reply = spectator.receive_json()
        assert reply["type"] == "error" and reply["status"] == 401
        player.send_json({"type": "ping", "ref": "x"})
        assert player.receive_json() == {"type": "pong", "ref": "x"}
    assert view(client, game_id)["game"]["version"] == version


def test_a_move_for_a_stale_ply_is_refused_with_the_current_game(client):
    created = create(client, "trike")
    game_id, token = created["id"], created["token"]
    assert move(client, game_id, token, "a1", ply=0).status_code == 200
    stale = move(client, game_id, token, "b2", ply=0)  # a repeated request meant for the start
    assert stale.status_code == 409 and stale.json()["key"] == "web.stale_ply", stale.text
    assert "after 0 actions" in stale.json()["error"] and "now has 1" in stale.json()["error"]
    assert stale.json()["game"]["plies"] == 1 and stale.json()["game"]["history"][0]["text"] == "a1"
    assert move(client, game_id, token, "b2", ply=1).status_code == 200
    undone = client.post(f"/api/games/{game_id}/undo", json={"token": token, "ply": 1})
    assert undone.status_code == 409 and undone.json()["game"]["plies"] == 2  # not the undo meant for ply 1
    assert view(client, game_id)["game"]["plies"] == 2
    for bad in ("2", -1, True, 1.5, [2]):
        response = move(client, game_id, token, "c3", ply=bad)
        assert response.status_code == 400 and response.json()["key"] == "web.ply_number", (bad, response.text)
    assert view(client, game_id)["game"]["plies"] == 2
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "move", "move": "c3", "token": token, "ply": 1, "ref": 5})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 409 and reply["ref"] == 5, reply
        assert reply["key"] == "web.stale_ply" and reply["game"]["plies"] == 2


def test_websocket_for_a_missing_game(client):
    with client.websocket_connect("/ws/games/nothing-here") as ws:
        assert ws.receive_json()["status"] == 404


def test_a_move_made_while_a_socket_connects_reaches_it(client, monkeypatch):
    """The opponent's move is made, and pushed, while the socket's handler reads the game: the
    page must still hear of it, not be left with the position before it (once, under load, a
    page waited for good on a game that had ended)."""
    created = create(client, "trike")
    game_id, token = created["id"], created["token"]
    service, runner = client.app.state.service, client.app.state.runner
    read = service.get_view
    moved = []

    async def read_then_a_move(gid, *args, **kwargs):
        seen = await read(gid, *args, **kwargs)
        if not moved:
            moved.append(await service.play(gid, token, "d2"))
            await runner.changed(gid, await read(gid, check=False))
        return seen

    monkeypatch.setattr(service, "get_view", read_then_a_move)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        states = [ws.receive_json()]
        ws.send_json({"type": "nonsense"})  # its error reply comes after everything sent before
        while (message := ws.receive_json())["type"] != "error":
            states.append(message)
    assert moved and max(state["game"]["plies"] for state in states) == 1


@pytest.mark.skipif("hexalit" not in GAMES, reason="Hexalit is not registered yet")
def test_hexalit_doubling_cube_offer_and_drop(client):
    created = create(client, "hexalit", options={"cube": True, "first": "white"})
    game_id, token = created["id"], created["token"]
    offers = [m for m in created["game"]["moves"] if m["kind"] == "cube"]
    assert [m["move"] for m in offers] == ["double 2"]
    state = move(client, game_id, token, "double 2").json()["game"]
    assert sorted(m["move"] for m in state["moves"]) == ["drop", "take"]
    assert all(m["kind"] == "cube" for m in state["moves"]) and state["board"]["cube"]["offer"]
    assert state["history"] == [{"text": "double 2", "ply": 1, "colour": "white"}]
    state = move(client, game_id, token, "drop").json()["game"]
    assert state["status"] == "over" and state["result"] == "white"
    # as in records, the cube actions are one token with the rest of the turn
    assert state["history"] == [{"text": "double 2 drop", "ply": 2, "colour": "white"}]
    assert state["last"] == {"move": "drop", "cells": [], "kind": "cube"}
    replayed = ludothek.loads(client.get(f"/api/games/{game_id}/record").text).replay()
    assert replayed.move_texts == ["double 2", "drop"] and replayed.result() == "white"


@pytest.mark.skipif("hexalit" not in GAMES, reason="Hexalit is not registered yet")
def test_hexalit_cube_actions_join_the_turn_they_open(client):
    created = create(client, "hexalit", options={"cube": True, "first": "white"})
    game_id, token = created["id"], created["token"]
    move(client, game_id, token, "double 2")
    state = move(client, game_id, token, "take").json()["game"]
    roll = next(m for m in state["moves"] if m["kind"] == "roll")
    state = move(client, game_id, token, roll["move"]).json()["game"]
    [entry] = state["history"]
    assert entry["text"].startswith(f"double 2 take {roll['move']}") and entry["ply"] == 4
    assert entry["colour"] == "white"
    # the last move shown is the roll, not the cube action that opened the turn
    assert state["last"] == {"move": roll["move"], "cells": [roll["from"]], "kind": "roll"}
    record = client.get(f"/api/games/{game_id}/record").text
    assert ludothek.loads(record).replay().record_tokens() == [entry["text"]]


def test_a_second_server_process_sees_the_same_games(tmp_path):
    """Two apps on one database (as behind a load balancer): moves made through one are
    valid state for the other; a stale in-memory copy is never used."""
    db = str(tmp_path / "shared.sqlite3")
    with TestClient(create_app(db, bot_executor="thread")) as one, \
            TestClient(create_app(db, bot_executor="thread")) as two:
        created = create(one, "trike")
        game_id, token = created["id"], created["token"]
        assert move(one, game_id, token, "d2").status_code == 200
        assert view(two, game_id)["game"]["history"][-1]["text"] == "d2"
        assert move(two, game_id, token, "swap").status_code == 200
        assert move(one, game_id, token, "c2").status_code == 200  # one's cached state was stale: replayed
        assert [h["text"] for h in view(two, game_id)["game"]["history"]] == ["d2", "swap", "c2"]
        with two.websocket_connect(f"/ws/games/{game_id}") as ws:
            assert ws.receive_json()["type"] == "state"
            assert move(one, game_id, token, "c1").status_code == 200
            pushed = ws.receive_json()  # published by two's poller
            assert pushed["game"]["history"][-1]["text"] == "c1"


@pytest.mark.skipif("hexalit" not in GAMES, reason="Hexalit is not registered yet")
def test_undo_takes_back_a_roll_with_its_outcome(client):
    created = create(client, "hexalit", options={"first": "white"})
    game_id, token = created["id"], created["token"]
    roll = next(m["move"] for m in created["game"]["moves"] if m["kind"] == "roll")
    state = move(client, game_id, token, roll).json()["game"]
    assert state["plies"] == 2 and len(state["history"]) == 1
    state = client.post(f"/api/games/{game_id}/undo", json={"token": token}).json()["game"]
    assert state["plies"] == 0 and state["history"] == [] and state["to_move"] == "white"


def test_rematch_against_the_bot_swaps_colours(client):
    created = create(client, "trike", opponent="bot", bot="random", seat=0)
    game_id, token = created["id"], created["token"]
    client.post(f"/api/games/{game_id}/resign", json={"token": token})
    again = client.post(f"/api/games/{game_id}/rematch", json={"token": token})
    assert again.status_code == 200
    data = again.json()
    assert data["seats"] == [1] and data["game"]["seats"][0] == {"kind": "bot", "agent": "random"}
    assert view(client, game_id)["game"]["rematch"] == data["id"]
    wait_for(client, data["id"], lambda s: len(s["history"]) == 1)  # the bot opens the rematch


def test_flag_fall_is_pushed_to_watchers(client):
    created = create(client, "trike", clock={"minutes": 0.01, "increment": 1})
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        pushed = ws.receive_json()["game"]
        if pushed["status"] == "ongoing":  # else the 0.6 s passed before the socket opened
            assert pushed["clock"]["running"] == 0
            pushed = ws.receive_json()["game"]  # sent by the server's own timer, no request needed
        assert pushed["status"] == "over" and pushed["termination"] == "time"


def test_in_memory_database_url(tmp_path):
    with TestClient(create_app("sqlite://", bot_executor="thread")) as memory:
        created = create(memory, "trike")
        assert move(memory, created["id"], created["token"], "a1").status_code == 200
