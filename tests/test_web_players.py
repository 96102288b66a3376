"""Players (issue 11, items 3-6) through the HTTP API and the lobby socket, on SQLite and
PostgreSQL: correspondence games flagged by an injected clock, rated games changing both
ratings as Glicko-2 says (and only rated games between two accounts that both moved), the
lobby's seeks (post, accept, cancel, limits, pushed to pages, gone with their author), "your
turn" counts, profiles, the leaderboard and the archive's filters."""

from __future__ import annotations

import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.core.registry import game_class
from ludothek.ratings import Rating, rate_game
from ludothek.web import create_app
from ludothek.web.clocks import DAY

from .test_web_accounts import FAST, Device, legal

ORIGIN = {"Origin": "http://testserver"}


class Clock:
    """The server's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock():
    return Clock()


@pytest.fixture()
def client(db_url, clock):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off", warm=False,
                     password_hasher=FAST, clock=clock, sweep=3600, lobby_interval=3600)
    with TestClient(app) as test_client:
        yield test_client


def player(client, name):
    device = Device(client)
    device.signup(name)
    return device


def friend_game(host, guest, **spec):
    """An online game between two devices: (game id, the host's seat, the started view)."""
    spec = {"game": "trike", "options": {"size": 7}, "start": "fixed", "opponent": "friend", "seat": 0, **spec}
    made = host.post("/api/games", spec)
    assert made.status_code == 201, made.text
    joined = guest.post(f"/api/games/{made.json()['id']}/join", {"invite": made.json()["invite"]})
    assert joined.status_code == 200, joined.text
    return made.json()["id"], joined.json()["game"]


def move(device, game_id):
    view = device.get(f"/api/games/{game_id}").json()["game"]
    answer = device.post(f"/api/games/{game_id}/move", {"move": legal(view)})
    assert answer.status_code == 200, answer.text
    return answer.json()["game"]


def eventually(read, expected, seconds=10.0):
    """What ``read()`` gives once it gives ``expected`` (the server handles a closed socket
    after the test's side has closed it), or its last answer after ``seconds``."""
    until = time.monotonic() + seconds
    while (value := read()) != expected and time.monotonic() < until:
        time.sleep(0.05)
    return value


def deleting(device, path):
    return device.request("DELETE", path)


# ---------------------------------------------------------------------------- correspondence
def test_a_correspondence_game_counts_days_per_move_and_flags_when_the_deadline_passes(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, view = friend_game(ann, bob, clock={"days": 3})
    # each first move has a day (or the game is aborted, see test_web_aborts.py); then the days count
    assert view["clock"] == {"days": 3, "deadline": None, "running": None}
    clock.now += DAY - 60
    move(ann, game_id)
    view = move(bob, game_id)
    assert view["clock"] == {"days": 3, "deadline": clock.now + 3 * DAY, "running": 0}
    clock.now += 2 * DAY  # a move in time starts the other's three days
    view = move(ann, game_id)
    assert view["clock"] == {"days": 3, "deadline": clock.now + 3 * DAY, "running": 1}
    clock.now += 3 * DAY - 1
    assert client.app.state.service.now() < view["clock"]["deadline"]
    assert bob.get(f"/api/games/{game_id}").json()["game"]["status"] == "ongoing"
    clock.now += 2  # past bob's deadline: the server's sweep adjudicates, nobody has to look
    ended = client.portal.call(client.app.state.service.flag_overdue)
    assert ended == [game_id]
    over = ann.get(f"/api/games/{game_id}").json()["game"]
    assert (over["status"], over["termination"], over["result"]) == ("over", "time", over["colours"][0])
    record = ann.get(f"/api/games/{game_id}/record").text
    assert f'[TimeControl "1/{3 * DAY}"]' in record


@pytest.mark.parametrize("bad", [{"days": 5}, {"days": "3"}, {"days": True}, {"days": 3, "minutes": 5}])
def test_a_correspondence_clock_takes_only_the_offered_days(client, bad):
    ann = player(client, "ann")
    answer = ann.post("/api/games", {"game": "trike", "opponent": "friend", "clock": bad})
    assert answer.status_code == 400 and answer.json()["key"] == "web.clock_days"
    german = ann.post("/api/games", {"game": "trike", "opponent": "friend", "clock": bad},
                      headers={"Accept-Language": "de"})
    assert "Fernpartie" in german.json()["error"]


# ---------------------------------------------------------------------------- rated games
def test_a_rated_game_changes_both_ratings_as_glicko2_says(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, view = friend_game(ann, bob, rated=True)
    assert view["rated"] is True and view["ratings"] is None
    move(ann, game_id)
    move(bob, game_id)
    over = bob.post(f"/api/games/{game_id}/resign", {}).json()["game"]
    first, second = rate_game(Rating(), Rating(), 1.0)  # ann (seat 0) won
    # newcomers: provisional (deviation above 110) before the game and still after one game
    assert over["ratings"] == [
        {"before": 1500.0, "after": round(first.value, 2), "delta": round(first.value - 1500, 2),
         "deviation": round(first.deviation, 2), "deviation_before": 350.0, "provisional_before": True,
         "provisional": first.deviation > 110},
        {"before": 1500.0, "after": round(second.value, 2), "delta": round(second.value - 1500, 2),
         "deviation": round(second.deviation, 2), "deviation_before": 350.0, "provisional_before": True,
         "provisional": second.deviation > 110},
    ]
    assert over["ratings"][0]["provisional"] is True
    record = ann.get(f"/api/games/{game_id}/record").text
    colours = over["colours"]
    assert '[Event "Rated game"]' in record
    assert f'[{colours[0].capitalize()}Rating "1500"]' in record
    assert f'[{colours[0].capitalize()}RatingDiff "+{round(first.value - 1500)}"]' in record
    # her next seek shows her rating in that game; a guest's seek has none
    seek(ann)
    seek(Device(client))
    ratings = {s["by"]: s["rating"] for s in bob.get("/api/lobby").json()["seeks"]}
    assert ratings == {"ann": {"value": round(first.value, 2), "deviation": round(first.deviation, 2),
                               "provisional": True}, None: None}
    assert f'[{colours[1].capitalize()}RatingDiff "{round(second.value - 1500)}"]' in record
    # the second game starts from the first's ratings
    again, _ = friend_game(bob, ann, rated=True)
    move(bob, again)
    move(ann, again)
    lost = ann.post(f"/api/games/{again}/resign", {}).json()["game"]
    bob_now, ann_now = rate_game(second, first, 1.0)
    assert [r["after"] for r in lost["ratings"]] == [round(bob_now.value, 2), round(ann_now.value, 2)]
    profile = client.get("/api/users/ANN").json()  # names in any case
    assert profile["name"] == "ann" and profile["counts"] == {"trike": {"win": 1, "draw": 0, "loss": 1}}
    (trike,) = profile["ratings"]
    assert (trike["game"], trike["value"], trike["games"], trike["provisional"]) == (
        "trike", round(ann_now.value, 2), 2, True)
    assert [h["value"] for h in trike["history"]] == [round(first.value, 2), round(ann_now.value, 2)]
    assert [h["game_id"] for h in trike["history"]] == [game_id, again]
    # a draw by agreement (Trigeo can end drawn) is half a point each
    drawn_id, _ = friend_game(ann, bob, rated=True, game="trigeo", options={})
    move(ann, drawn_id)
    move(bob, drawn_id)
    assert ann.post(f"/api/games/{drawn_id}/offer", {"kind": "draw"}).status_code == 200
    drawn = bob.post(f"/api/games/{drawn_id}/answer", {"accept": True}).json()["game"]
    even = rate_game(Rating(), Rating(), 0.5)
    assert [r["after"] for r in drawn["ratings"]] == [round(even[0].value, 2), round(even[1].value, 2)] == [1500, 1500]
    assert client.get("/api/users/bob").json()["counts"]["trigeo"] == {"win": 0, "draw": 1, "loss": 0}
    board = client.get("/api/leaderboard/trike").json()
    ranked = sorted([(ann_now.value, "ann"), (bob_now.value, "bob")], reverse=True)
    assert [(p["rank"], p["name"], p["value"]) for p in board["players"]] == [
        (rank, name, round(value, 2)) for rank, (value, name) in enumerate(ranked, 1)]
    assert client.get("/api/leaderboard/hexalit").json()["players"] == []


def test_a_rated_game_nobody_played_in_changes_no_rating(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob, rated=True)
    move(ann, game_id)
    over = bob.post(f"/api/games/{game_id}/resign", {}).json()["game"]  # before bob's first move
    assert over["status"] == "over" and over["ratings"] is None
    assert client.get("/api/users/bob").json()["ratings"] == []


def test_only_games_between_two_accounts_online_are_rated(client):
    ann = player(client, "ann")
    guest = Device(client)
    for spec, key in (({"opponent": "hotseat"}, "web.rated_online"), ({"opponent": "bot", "bot": "random"}, "web.rated_online"),
                      ({"opponent": "friend", "position": game_class("trike")().position()}, "web.rated_position")):
        answer = ann.post("/api/games", {"game": "trike", "rated": True, **spec})
        assert answer.status_code == 400 and answer.json()["key"] == key, answer.text
    assert guest.post("/api/games", {"game": "trike", "opponent": "friend", "rated": True}).status_code == 401
    assert ann.post("/api/games", {"game": "trike", "opponent": "friend", "rated": "yes"}).status_code == 400
    made = ann.post("/api/games", {"game": "trike", "opponent": "friend", "rated": True}).json()
    refused = guest.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    assert refused.status_code == 401 and refused.json()["key"] == "web.rated_join_login"


def test_a_casual_game_between_accounts_changes_no_rating_but_counts_on_the_profile(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob)
    move(ann, game_id)
    move(bob, game_id)
    over = ann.post(f"/api/games/{game_id}/resign", {}).json()["game"]
    assert over["rated"] is False and over["ratings"] is None
    assert client.get("/api/users/bob").json()["counts"] == {"trike": {"win": 1, "draw": 0, "loss": 0}}
    assert client.get("/api/users/nobody").status_code == 404


# ---------------------------------------------------------------------------- your turn, the archive
def test_your_turn_counts_and_my_games_list_them_first(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    first, _ = friend_game(ann, bob)
    second, _ = friend_game(bob, ann, game="trigeo", options={})
    assert ann.me()["your_turn"] == 1 and bob.me()["your_turn"] == 1  # each starts one
    move(ann, first)
    assert ann.me()["your_turn"] == 0 and bob.me()["your_turn"] == 2
    mine = bob.get("/api/games?mine=1").json()["games"]
    assert [g["your_turn"] for g in mine] == [True, True]
    move(bob, second)
    mine = ann.get("/api/games?mine=1").json()["games"]
    assert [(g["id"], g["your_turn"]) for g in mine] == [(second, True), (first, False)]
    # everyone's archive, filtered
    assert {g["id"] for g in client.get("/api/games?player=ANN").json()["games"]} == {first, second}
    assert [g["id"] for g in client.get("/api/games?player=ann&game=trigeo").json()["games"]] == [second]
    assert client.get("/api/games?player=nobody").json()["games"] == []
    assert client.get("/api/games?game=chess").status_code == 400


# ---------------------------------------------------------------------------- the lobby
def seek(device, **spec):
    answer = device.post("/api/seeks", {"game": "trike", "options": {"size": 7}, **spec})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_seek_accepted_starts_the_game_for_both(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    posted = seek(ann, seat=1, clock={"minutes": 5, "increment": 3}, rated=True)
    listed = bob.get("/api/lobby").json()["seeks"]
    assert [(s["id"], s["by"], s["seat"], s["rated"], s["mine"]) for s in listed] == [
        (posted["seek"]["id"], "ann", 1, True, False)]
    assert ann.get("/api/lobby").json()["seeks"][0]["mine"] is True
    assert "token" not in listed[0] and "client" not in listed[0]
    # the author's rating in the seek's game: a newcomer's starting rating, provisional
    assert listed[0]["rating"] == {"value": 1500.0, "deviation": 350.0, "provisional": True}
    refused = ann.post(f"/api/seeks/{posted['seek']['id']}/accept", {})
    assert refused.status_code == 409 and refused.json()["key"] == "web.seek_own"
    accepted = bob.post(f"/api/seeks/{posted['seek']['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text
    game = accepted.json()["game"]
    assert (game["status"], game["rated"], accepted.json()["seats"]) == ("ongoing", True, [0])
    assert [s["name"] for s in game["seats"]] == ["bob", "ann"]
    assert game["clock"]["initial"] == 300000
    # the author's seat: his account's, and his seek's token holds it too
    view = client.get(f"/api/games/{game['id']}", headers={"X-Ludothek-Token": posted["token"]}).json()
    assert view["you"] == [1]
    assert ann.get(f"/api/games/{game['id']}").json()["you"] == [1]
    assert bob.get("/api/lobby").json()["seeks"] == []
    assert [g["id"] for g in bob.get("/api/lobby").json()["live"]] == [game["id"]]
    # the players' own game: theirs to open, not to watch; anyone else's to watch
    assert [g["mine"] for g in bob.get("/api/lobby").json()["live"]] == [True]
    assert [g["mine"] for g in ann.get("/api/lobby").json()["live"]] == [True]
    assert [g["mine"] for g in client.get("/api/lobby").json()["live"]] == [False]
    gone = bob.post(f"/api/seeks/{posted['seek']['id']}/accept", {})
    assert gone.status_code == 404 and gone.json()["key"] == "web.seek_gone"


def test_guests_seek_and_accept_casual_games_but_not_rated_ones(client):
    guest, other = Device(client), Device(client)
    assert guest.post("/api/seeks", {"game": "trike", "rated": True}).status_code == 401
    posted = seek(guest, seat="random")
    assert posted["seek"]["by"] is None and posted["seek"]["seat"] is None
    taken = other.post(f"/api/seeks/{posted['seek']['id']}/accept", {}).json()
    author = client.get(f"/api/games/{taken['id']}", headers={"X-Ludothek-Token": posted["token"]}).json()
    assert sorted(author["you"] + taken["seats"]) == [0, 1]
    ann = player(client, "ann")
    rated = seek(ann, rated=True)
    refused = guest.post(f"/api/seeks/{rated['seek']['id']}/accept", {})
    assert refused.status_code == 401 and refused.json()["key"] == "web.rated_login"


def test_seeks_are_cancelled_by_their_author_only_and_limited(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    posted = [seek(ann) for _ in range(3)]
    too_many = ann.post("/api/seeks", {"game": "trike"})
    assert too_many.status_code == 429 and too_many.json()["key"] == "web.seek_limit"
    first = posted[0]["seek"]["id"]
    assert deleting(bob, f"/api/seeks/{first}").status_code == 403
    assert deleting(ann, f"/api/seeks/{first}").json() == {"ok": True}
    assert deleting(ann, f"/api/seeks/{first}").status_code == 404
    guest = Device(client)
    by_guest = seek(guest)
    assert deleting(guest, f"/api/seeks/{by_guest['seek']['id']}").status_code == 403
    answer = guest.request("DELETE", f"/api/seeks/{by_guest['seek']['id']}",
                           headers={"X-Ludothek-Token": by_guest["token"]})
    assert answer.status_code == 200


@pytest.mark.parametrize("body, key", [
    ({"game": "chess"}, "core.unknown_game"),
    ({"game": "trike", "options": {"size": 2}}, None),
    ({"game": "trike", "seat": 2}, "web.seek_seat"),
    ({"game": "trike", "seat": True}, "web.seek_seat"),
    ({"game": "trike", "clock": {"days": 4}}, "web.clock_days"),
    ({"game": "trike", "rated": 1}, "web.rated_bool"),
    ({"game": "trike", "options": "size=7"}, "web.options_object"),
])
def test_a_bad_seek_is_refused_clearly(client, body, key):
    answer = Device(client).post("/api/seeks", body)
    assert answer.status_code == 400, answer.text
    if key:
        assert answer.json()["key"] == key


def test_the_lobby_socket_pushes_seeks_starts_games_and_counts_turns(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    headers = {**ORIGIN, "Cookie": f"ludothek_session={ann.session}"}
    with client.websocket_connect("/ws/lobby", headers=headers) as ws:
        assert ws.receive_json() == {"type": "lobby", "seeks": [], "live": []}
        assert ws.receive_json() == {"type": "turns", "count": 0, "game": None}
        posted = seek(ann)
        pushed = ws.receive_json()
        assert pushed["type"] == "lobby" and [s["id"] for s in pushed["seeks"]] == [posted["seek"]["id"]]
        ws.send_json({"type": "own", "seek": posted["seek"]["id"], "token": "wrong", "ref": 1})
        assert ws.receive_json()["key"] == "web.seek_not_yours"
        ws.send_json({"type": "own", "seek": posted["seek"]["id"], "token": posted["token"], "ref": 2})
        assert ws.receive_json() == {"type": "ok", "ref": 2}
        accepted = bob.post(f"/api/seeks/{posted['seek']['id']}/accept", {}).json()
        assert ws.receive_json() == {"type": "started", "seek": posted["seek"]["id"], "game": accepted["id"]}
        listed = ws.receive_json()
        assert listed["seeks"] == [] and [g["id"] for g in listed["live"]] == [accepted["id"]]
        if accepted["game"]["to_seat"] != accepted["seats"][0]:  # ann starts: one game where it is her turn
            assert ws.receive_json() == {"type": "turns", "count": 1, "game": accepted["id"]}
        ws.send_json({"type": "ping", "ref": "p"})
        assert ws.receive_json() == {"type": "pong", "ref": "p"}
        ws.send_json({"type": "move"})
        assert ws.receive_json()["key"] == "web.unknown_type"
    # a page that leaves takes its live seek along, but not a correspondence one
    with client.websocket_connect("/ws/lobby", headers=headers) as ws:
        ws.receive_json()
        live_seek, letter = seek(ann), seek(ann, clock={"days": 7})
        for posted in (live_seek, letter):
            ws.send_json({"type": "own", "seek": posted["seek"]["id"], "token": posted["token"], "ref": "own"})
            while ws.receive_json().get("ref") != "own":  # lists pushed meanwhile
                pass
    open_seeks = eventually(lambda: [s["id"] for s in bob.get("/api/lobby").json()["seeks"]], [letter["seek"]["id"]])
    assert open_seeks == [letter["seek"]["id"]]


def test_a_seek_accepted_before_its_page_claims_it_still_starts_the_game_there(client):
    ann, bob = player(client, "ann"), player(client, "bob")
    posted = seek(ann)
    accepted = bob.post(f"/api/seeks/{posted['seek']['id']}/accept", {}).json()
    with client.websocket_connect("/ws/lobby", headers=ORIGIN) as ws:
        ws.receive_json()
        ws.send_json({"type": "own", "seek": posted["seek"]["id"], "token": posted["token"], "ref": 1})
        assert ws.receive_json() == {"type": "started", "seek": posted["seek"]["id"], "game": accepted["id"]}


def test_the_author_is_sent_to_a_game_only_once_it_exists(client, monkeypatch):
    """A seek is taken a moment before its game is made; a lobby look in that moment (here
    staged: the look runs just before the game is made) must not send the author's page to a
    game that does not exist yet (it showed "This game does not exist" and stayed there)."""
    from ludothek.web import lobby as lobby_module

    ann, bob = player(client, "ann"), player(client, "bob")
    lobby, store = client.app.state.lobby, client.app.state.store
    real_create, real_send, sent = lobby.service.create, lobby_module.send, []

    async def look_then_create(*args, **kwargs):
        await lobby.refresh()
        return await real_create(*args, **kwargs)

    async def send(ws, message):
        if message["type"] == "started":
            sent.append(store.load(message["game"], with_moves=False) is not None)
        await real_send(ws, message)

    monkeypatch.setattr(lobby.service, "create", look_then_create)
    monkeypatch.setattr(lobby_module, "send", send)
    posted = seek(ann)
    with client.websocket_connect("/ws/lobby", headers=ORIGIN) as ws:
        ws.receive_json()
        ws.send_json({"type": "own", "seek": posted["seek"]["id"], "token": posted["token"], "ref": 1})
        assert ws.receive_json() == {"type": "ok", "ref": 1}
        accepted = bob.post(f"/api/seeks/{posted['seek']['id']}/accept", {}).json()
        while (message := ws.receive_json())["type"] != "started":
            pass
    assert message["game"] == accepted["id"] and sent == [True]


def test_seeks_expire_and_an_absent_authors_live_seek_goes(client, clock):
    ann = player(client, "ann")
    live_seek, letter = seek(ann), seek(ann, clock={"days": 2})
    lobby = client.app.state.lobby
    clock.now += 61  # no page of the author refreshed the live seek
    client.portal.call(lobby.refresh)
    assert [s["id"] for s in client.get("/api/lobby").json()["seeks"]] == [letter["seek"]["id"]]
    clock.now += 7 * DAY
    client.portal.call(lobby.refresh)
    assert client.get("/api/lobby").json()["seeks"] == []
    assert live_seek["seek"]["id"] != letter["seek"]["id"]
