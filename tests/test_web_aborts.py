"""Games nobody started do not count (issue 30, item 6), on SQLite and PostgreSQL: an online game
with a clock is aborted when a player's first move does not come within 30 s (a day by
correspondence), each side's window counted from when it became his turn; a player may abort
before his own first move. An aborted game has no result, changes no rating, is no win, draw or
loss on a profile and says so in lists and records. The server's clock is injected: no waiting."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek import i18n
from ludothek.web import aborts, create_app
from ludothek.web.clocks import DAY

from .test_web_accounts import FAST, SESSION_COOKIE, Device
from .test_web_players import clock, client, friend_game, move, player  # noqa: F401 - fixtures

LIVE = {"minutes": 5, "increment": 3}


def sweep(client):
    """The server's periodic look for games out of time, run now."""
    return client.portal.call(client.app.state.service.flag_overdue)


def game(device, game_id):
    return device.get(f"/api/games/{game_id}").json()["game"]


def assert_aborted(client, device, game_id, reason):
    over = game(device, game_id)
    assert (over["status"], over["termination"], over["result"]) == ("over", "aborted", "*")
    assert over["ending"]["reason"] == reason
    assert over["ending"]["text"] == {k: i18n.WEB[f"ending_aborted_{reason}"][k] for k in ("en", "de")}
    assert over["ratings"] is None and over["abort"] is None and over["may_abort"] == [False, False]
    record = device.get(f"/api/games/{game_id}/record").text
    assert '[Result "*"]' in record and '[Termination "aborted"]' in record
    (listed,) = [g for g in device.get("/api/games?status=over").json()["games"] if g["id"] == game_id]
    assert (listed["termination"], listed["result"]) == ("aborted", "*")
    return over


def assert_counts_for_nobody(client, *names):
    for name in names:
        profile = client.get(f"/api/users/{name}").json()
        assert profile["counts"] == {} and profile["ratings"] == [], profile
    assert client.get("/api/leaderboard/trike").json()["players"] == []


def test_a_rated_live_game_nobody_moved_in_is_aborted_after_30_seconds(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, view = friend_game(ann, bob, rated=True, clock=LIVE)
    # the first move's window runs instead of White's clock
    assert view["abort"] == {"seat": 0, "deadline": clock.now + 30, "in": 30.0}
    assert view["clock"]["running"] is None and view["may_abort"] == [True, True]
    clock.now += 29
    assert sweep(client) == []
    still = game(bob, game_id)
    assert still["status"] == "ongoing" and still["abort"]["in"] == 1.0
    assert still["clock"]["remaining"] == [300000, 300000]  # no time was charged meanwhile
    clock.now += 2
    assert sweep(client) == [game_id]  # the sweep ends it: nobody has to look
    assert_aborted(client, ann, game_id, aborts.LATE)
    assert_counts_for_nobody(client, "ann", "bob")


def test_each_side_has_its_own_window_and_a_first_move_costs_no_time(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob, rated=True, clock=LIVE)
    clock.now += 25
    view = move(ann, game_id)
    assert view["clock"]["remaining"][0] == 300000 + 3000  # the increment, nothing charged
    assert view["abort"] == {"seat": 1, "deadline": clock.now + 30, "in": 30.0}
    assert view["may_abort"] == [False, True]
    clock.now += 30  # Bob's first move is late: a request finds it so, before any sweep
    assert_aborted(client, bob, game_id, aborts.LATE)
    assert_counts_for_nobody(client, "ann", "bob")


def test_once_both_have_moved_the_clock_runs_and_decides(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob, rated=True, clock={"minutes": 1, "increment": 0})
    move(ann, game_id)
    clock.now += 10
    view = move(bob, game_id)
    assert view["abort"] is None and view["clock"]["running"] == 0 and view["may_abort"] == [False, False]
    clock.now += 61  # now Ann's own clock runs out: a loss on time, rated
    assert sweep(client) == [game_id]
    over = game(ann, game_id)
    assert (over["termination"], over["result"]) == ("time", over["colours"][1])
    assert over["ratings"] is not None
    assert client.get("/api/users/ann").json()["counts"] == {"trike": {"win": 0, "draw": 0, "loss": 1}}


def test_a_correspondence_game_gives_a_day_for_each_first_move(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, view = friend_game(ann, bob, clock={"days": 7})
    assert view["abort"]["deadline"] == clock.now + DAY
    clock.now += DAY - 1
    assert sweep(client) == []
    move(ann, game_id)
    clock.now += DAY - 1
    assert sweep(client) == [] and game(bob, game_id)["abort"]["seat"] == 1
    clock.now += 2
    assert sweep(client) == [game_id]
    assert_aborted(client, ann, game_id, aborts.LATE)
    assert_counts_for_nobody(client, "ann", "bob")


def test_a_player_may_abort_before_his_own_first_move_only(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob, rated=True, clock=LIVE)
    move(ann, game_id)
    refused = ann.post(f"/api/games/{game_id}/abort", {})
    assert refused.status_code == 409 and refused.json()["key"] == "web.abort_moved"
    german = ann.post(f"/api/games/{game_id}/abort", {}, headers={"Accept-Language": "de"})
    assert "abbrechen" in german.json()["error"]
    answer = bob.post(f"/api/games/{game_id}/abort", {})
    assert answer.status_code == 200, answer.text
    assert answer.json()["game"]["ending"]["reason"] == aborts.BY_PLAYER
    assert_aborted(client, bob, game_id, aborts.BY_PLAYER)
    assert_counts_for_nobody(client, "ann", "bob")
    again = bob.post(f"/api/games/{game_id}/abort", {})
    assert again.status_code == 409 and again.json()["key"] == "web.over"


def test_an_online_game_without_a_clock_waits_but_can_be_aborted(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, view = friend_game(ann, bob)
    assert view["abort"] is None and view["may_abort"] == [True, True]
    clock.now += 29 * DAY  # no clock: nobody is bound to a time, the game goes on (a session unused for 30 days ends)
    assert sweep(client) == [] and game(ann, game_id)["status"] == "ongoing"
    assert ann.post(f"/api/games/{game_id}/abort", {}).status_code == 200
    assert_aborted(client, ann, game_id, aborts.BY_PLAYER)


def test_only_players_of_online_games_in_play_abort(client):
    ann = player(client, "ann")
    for spec in ({"opponent": "hotseat"}, {"opponent": "bot", "bot": "random", "seat": 1}):
        made = ann.post("/api/games", {"game": "trike", "options": {"size": 7}, **spec}).json()
        answer = ann.post(f"/api/games/{made['id']}/abort", {})
        assert answer.status_code == 403 and answer.json()["key"] == "web.abort_online", answer.text
    waiting = ann.post("/api/games", {"game": "trike", "opponent": "friend", "clock": LIVE}).json()
    answer = ann.post(f"/api/games/{waiting['id']}/abort", {})
    assert answer.status_code == 409 and answer.json()["key"] == "web.not_started_waiting"
    stranger = Device(client)
    answer = stranger.post(f"/api/games/{waiting['id']}/abort", {"token": "not-a-seat"})
    assert answer.status_code == 403 and answer.json()["key"] == "web.token_no_seat"
    assert client.post(f"/api/games/{waiting['id']}/abort", json={}).status_code == 401


def test_the_websocket_aborts_too_and_tells_the_watchers(client, clock):
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob, clock=LIVE)
    made = client.app.state.service.games[game_id].row
    assert made.deadline == clock.now + 30  # the sweep finds the game by this column
    client.cookies.clear()
    bob_page = {"Cookie": f"{SESSION_COOKIE}={bob.session}"}
    with client.websocket_connect(f"/ws/games/{game_id}") as watcher, \
            client.websocket_connect(f"/ws/games/{game_id}", headers=bob_page) as ws:
        assert watcher.receive_json()["game"]["status"] == "ongoing"
        assert ws.receive_json()["game"]["status"] == "ongoing"
        ws.send_json({"type": "auth"})
        assert ws.receive_json()["you"] == [1]
        ws.send_json({"type": "abort", "ref": 7})
        replies = [ws.receive_json(), ws.receive_json()]
        assert {"type": "ok", "ref": 7} in replies
        pushed = watcher.receive_json()
        assert pushed["game"]["termination"] == "aborted"


def test_whoever_finds_the_window_passed_tells_every_watcher(client, clock):
    """A game whose time ran out ends at the first request that reads it. That can be any
    page (loading the game, opening its socket), not only the sweep or the timer, and the
    ending must still reach every page already watching. (It reached only the page that asked.
    The sweep then found nothing, and the other player's page said "ongoing" forever.)"""
    ann, bob = player(client, "ann"), player(client, "bob")
    game_id, _ = friend_game(ann, bob, rated=True, clock=LIVE)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        assert watcher.receive_json()["game"]["status"] == "ongoing"
        clock.now += 31
        assert game(bob, game_id)["termination"] == "aborted"  # Bob's page loads the game: it ends
        assert sweep(client) == []  # nothing left for the sweep
        watcher.send_json({"type": "ping", "ref": 1})  # answered after anything pushed before
        pushed = watcher.receive_json()
        assert (pushed["game"]["status"], pushed["game"]["termination"]) == ("over", "aborted")
    # the same for a fallen flag, found by a socket that opens
    game_id, _ = friend_game(ann, bob, clock=LIVE)
    for device in (ann, bob):
        move(device, game_id)
    with client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        assert watcher.receive_json()["game"]["status"] == "ongoing"
        clock.now += 400
        with client.websocket_connect(f"/ws/games/{game_id}") as late:
            assert late.receive_json()["game"]["termination"] == "time"
        watcher.send_json({"type": "ping", "ref": 2})
        pushed = watcher.receive_json()
        assert (pushed["game"]["status"], pushed["game"]["termination"]) == ("over", "time")


def test_the_servers_own_timer_aborts_a_live_game(db_url, monkeypatch):
    monkeypatch.setattr(aborts, "LIVE_WINDOW", 0.3)  # the real clock runs here: a short window
    app = create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off", warm=False,
                     password_hasher=FAST, sweep=3600)
    with TestClient(app) as real:
        ann, bob = player(real, "ann"), player(real, "bob")
        game_id, _ = friend_game(ann, bob, clock=LIVE)
        with real.websocket_connect(f"/ws/games/{game_id}") as ws:
            first = ws.receive_json()["game"]
            if first["status"] == "ongoing":  # else the window passed before the socket opened
                first = ws.receive_json()["game"]  # pushed by the timer, no request needed
        assert (first["status"], first["termination"]) == ("over", "aborted")
