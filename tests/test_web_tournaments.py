"""Tournaments on the web through the HTTP API: an Arena of four to its end with the expected
points, a Swiss of five (a bye each round) paired as ludothek.tournament.swiss pairs it, Event
and Round tags in the games' records, and clean errors. On SQLite and PostgreSQL."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.web import create_app

from .test_web_accounts import FAST, Device
from .test_web_players import Clock

GAME = "trike"


@pytest.fixture()
def clock():
    return Clock()


@pytest.fixture()
def client(db_url, clock):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off",
                     warm=False, password_hasher=FAST, clock=clock, sweep=3600, lobby_interval=3600)
    with TestClient(app) as test_client:
        yield test_client


def players(client, names):
    devices = {}
    for name in names:
        devices[name] = Device(client)
        devices[name].signup(name)
    return devices


def running_games(view):
    return [g for g in view["games"] if g["second"] is not None and g["score"] is None]


def resign(devices, game, loser):
    response = devices[loser].post(f"/api/games/{game['game']}/resign", {})
    assert response.status_code == 200, response.text


def test_an_arena_of_four_to_its_end_with_the_expected_points(client, clock):
    devices = players(client, ["ann", "bob", "cid", "dan"])
    created = devices["ann"].post("/api/tournaments", {"kind": "arena", "game": GAME, "minutes": 10})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    for name in devices:
        assert devices[name].post(f"/api/tournaments/{tid}/join").status_code == 200
    view = devices["ann"].post(f"/api/tournaments/{tid}/start").json()
    # all four waited since they joined (in order): ann-bob and cid-dan
    first = running_games(view)
    assert [(g["first"], g["second"]) for g in first] == [("ann", "bob"), ("cid", "dan")]
    # ann wins three games in a row (2, 2, then 4 on fire); the others lose or win as below
    clock.now += 60
    resign(devices, first[0], "bob")  # ann 2
    resign(devices, first[1], "dan")  # cid 2
    view = devices["ann"].get(f"/api/tournaments/{tid}").json()
    second = running_games(view)
    # ann waited as long as bob but must not meet him at once: ann-cid, bob-dan
    assert sorted((g["first"], g["second"]) for g in second) in ([("ann", "cid"), ("bob", "dan")],
                                                                 [("ann", "cid"), ("dan", "bob")],
                                                                 [("cid", "ann"), ("bob", "dan")],
                                                                 [("cid", "ann"), ("dan", "bob")])
    clock.now += 60
    for g in second:
        resign(devices, g, "cid" if "ann" in (g["first"], g["second"]) else "dan")  # ann 4, bob 2
    view = devices["ann"].get(f"/api/tournaments/{tid}").json()
    third = running_games(view)
    ann_game = next(g for g in third if "ann" in (g["first"], g["second"]))
    other = next(g for g in third if g is not ann_game)
    clock.now += 60
    resign(devices, ann_game, next(p for p in (ann_game["first"], ann_game["second"]) if p != "ann"))  # ann on fire: 8
    resign(devices, other, "bob" if "bob" in (other["first"], other["second"]) else other["second"])
    clock.now += 10 * 60  # the end: nobody is paired again
    view = devices["ann"].get(f"/api/tournaments/{tid}").json()
    assert view["status"] == "over" and not running_games(view)
    table = {s["player"]: s for s in view["standings"]}
    assert table["ann"]["points"] == 8 and table["ann"]["sheet"] == [2, 2, 4]
    assert view["standings"][0]["player"] == "ann"
    assert sum(s["games"] for s in view["standings"]) == 12  # three rounds of two games
    # the games' records carry the tournament's name and Round "-"
    record = devices["bob"].get(f"/api/games/{first[0]['game']}/record").text
    assert '[Event "Trike Arena"]' in record and '[Round "-"]' in record


def test_a_swiss_of_five_pairs_each_round_with_a_bye_and_tags_rounds(client, clock):
    names = ["ann", "bob", "cid", "dan", "eve"]
    devices = players(client, names)
    tid = devices["ann"].post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 3,
                                                   "name": "Winter Cup"}).json()["id"]
    for name in names:
        devices[name].post(f"/api/tournaments/{tid}/join")
    view = devices["ann"].post(f"/api/tournaments/{tid}/start").json()
    # round 1 as the Dutch system pairs it: S1 ann bob, S2 cid dan, the bye to eve
    assert [(g["first"], g["second"]) for g in view["games"]] == [("ann", "cid"), ("dan", "bob"), ("eve", None)]
    for number in (1, 2, 3):
        games = running_games(view)
        assert len(games) == 2
        for g in games:  # the first-named player (seat 0) always wins
            resign(devices, g, g["second"])
        clock.now += 60
        view = devices["ann"].get(f"/api/tournaments/{tid}").json()
        assert view["round"] == min(number + 1, 3)
    assert view["status"] == "over"
    byes = [g["first"] for g in view["games"] if g["second"] is None]
    assert len(byes) == 3 == len(set(byes))
    met = [frozenset((g["first"], g["second"])) for g in view["games"] if g["second"]]
    assert len(met) == len(set(met)) == 6
    assert sum(s["score"] for s in view["standings"]) == 9
    record = devices["ann"].get(f"/api/games/{view['games'][-2]['game']}/record").text
    assert '[Event "Winter Cup"]' in record and '[Round "3"]' in record
    # the game page and the archive know the tournament (and link to it)
    event = {"name": "Winter Cup", "round": "3", "tournament": tid}
    assert devices["ann"].get(f"/api/games/{view['games'][-2]['game']}").json()["game"]["event"] == event
    listed = devices["ann"].get("/api/games", params={"player": "ann", "status": "over", "limit": 100}).json()["games"]
    played = sorted(str(g["round"]) for g in view["games"] if "ann" in (g["first"], g["second"]) and g["second"])
    assert sorted(g["event"]["round"] for g in listed) == played and {g["event"]["tournament"] for g in listed} == {tid}


def test_a_swiss_starts_in_rating_order_fixed_when_it_starts(client, clock):
    """The Dutch system's starting rank is the rating in the tournament's game (new accounts
    and unrated ones count 1500), not who joined first; ratings moving later do not change it."""
    from sqlalchemy import insert

    from ludothek.web.store import ratings_table, users_table

    names = ["low", "mid", "high", "top"]  # joining in the reverse order of their ratings
    devices = players(client, names)
    store = client.app.state.store
    with store.engine.begin() as conn:
        ids = dict(conn.execute(users_table.select().with_only_columns(users_table.c.name, users_table.c.id)).all())
        for name, value in (("low", 1300.0), ("mid", 1600.0), ("high", 1700.0), ("top", 1900.0)):
            conn.execute(insert(ratings_table).values(user_id=ids[name], game=GAME, value=value, deviation=60.0,
                                                      volatility=0.06, games=30, updated=0.0))
        conn.execute(insert(ratings_table).values(user_id=ids["low"], game="other", value=2500.0, deviation=60.0,
                                                  volatility=0.06, games=30, updated=0.0))
    tid = devices["low"].post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 2}).json()["id"]
    for name in names:
        devices[name].post(f"/api/tournaments/{tid}/join")
    view = devices["low"].post(f"/api/tournaments/{tid}/start").json()
    # S1 top high, S2 mid low: top meets mid, high meets low (join order would pair low-high, mid-top)
    assert sorted(frozenset((g["first"], g["second"])) for g in view["games"]) == sorted(
        [frozenset(("top", "mid")), frozenset(("high", "low"))])


def test_bad_requests_are_clean_errors(client):
    guest = Device(client)
    assert guest.post("/api/tournaments", {"kind": "arena", "game": GAME, "minutes": 5}).status_code == 401
    (ann,) = players(client, ["ann"]).values()
    for body, word in [({"kind": "cup", "game": GAME}, "swiss"), ({"kind": "swiss", "game": GAME, "rounds": 0}, "1 to"),
                       ({"kind": "arena", "game": GAME, "minutes": "x"}, "1 to"),
                       ({"kind": "arena", "game": "chess", "minutes": 5}, "chess")]:
        response = ann.post("/api/tournaments", body)
        assert response.status_code == 400 and word in response.text, response.text
    assert ann.get("/api/tournaments/nosuch").status_code == 404
    tid = ann.post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 2}).json()["id"]
    ann.post(f"/api/tournaments/{tid}/join")
    response = ann.post(f"/api/tournaments/{tid}/start")
    assert response.status_code == 409 and "two players" in response.text


def test_a_players_tournaments_and_places_are_on_his_profile(client):
    devices = players(client, ["ann", "bob"])
    tid = devices["ann"].post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 1,
                                                   "name": "Duel"}).json()["id"]
    for d in devices.values():
        d.post(f"/api/tournaments/{tid}/join")
    view = devices["ann"].post(f"/api/tournaments/{tid}/start").json()
    (game,) = running_games(view)
    resign(devices, game, game["second"])
    results = devices["bob"].get(f"/api/users/{game['first']}/tournaments").json()["tournaments"]
    assert [(r["name"], r["rank"], r["players"], r["status"]) for r in results] == [("Duel", 1, 2, "over")]
    assert devices["bob"].get("/api/users/nobody/tournaments").json() == {"tournaments": []}
    # the tournament pairs the next games: its games have no rematch
    refused = devices["bob"].post(f"/api/games/{game['game']}/rematch", {})
    assert refused.status_code == 409 and refused.json()["key"] == "web.rematch_tournament"
    assert devices["bob"].get(f"/api/games/{game['game']}").json()["game"]["rematch"] is None


def test_berserk_in_an_arena_halves_the_clock_drops_the_increment_and_scores_the_extra_point(client, clock):
    devices = players(client, ["ann", "bob", "cid"])
    tid = devices["ann"].post("/api/tournaments", {"kind": "arena", "game": GAME, "minutes": 10,
                                                   "clock": {"minutes": 2, "increment": 3}}).json()["id"]
    for name in ("ann", "bob"):
        devices[name].post(f"/api/tournaments/{tid}/join")
    view = devices["ann"].post(f"/api/tournaments/{tid}/start").json()
    (game,) = running_games(view)
    assert game["berserk"] == [False, False]
    first, second = devices[game["first"]], devices[game["second"]]
    path = f"/api/games/{game['game']}"
    shown = first.get(path).json()["game"]
    assert shown["berserk"] == {"done": [False, False], "may": [True, True]}
    # the second player goes berserk before his first move: half his time, no increment
    answer = second.post(f"{path}/berserk", {})
    assert answer.status_code == 200, answer.text
    shown = answer.json()["game"]
    assert shown["berserk"] == {"done": [False, True], "may": [True, False]}
    assert shown["clock"]["remaining"] == [120000, 60000] and shown["clock"]["berserk"] == [False, True]
    again = second.post(f"{path}/berserk", {})
    assert again.status_code == 409 and "already" in again.text
    spectator = devices["cid"].post(f"{path}/berserk", {})
    assert spectator.status_code == 403
    # the first player moves: too late for him to go berserk
    move = first.get(path).json()["game"]["moves"][0]["move"]
    assert first.post(f"{path}/move", {"move": move}).status_code == 200
    late = first.post(f"{path}/berserk", {})
    assert late.status_code == 409 and "first move" in late.text
    # a first move costs no time; after that the first player gets his increment, the berserk one none
    for device in (second, first, second):
        clock.now += 10
        move = device.get(path).json()["game"]["moves"][0]["move"]
        shown = device.post(f"{path}/move", {"move": move}).json()["game"]
    assert shown["clock"]["remaining"] == [120000 + 3000 - 10000 + 3000, 60000 - 10000]
    # the tournament page shows it at once; the berserk player wins: 2 + 1 points
    view = devices["cid"].get(f"/api/tournaments/{tid}").json()
    assert running_games(view)[0]["berserk"] == [False, True]
    resign(devices, game, game["first"])
    view = devices["cid"].get(f"/api/tournaments/{tid}").json()
    table = {s["player"]: s for s in view["standings"]}
    assert table[game["second"]]["points"] == 3 and table[game["second"]]["sheet"] == [3]
    assert table[game["second"]]["berserk"] == 1 and table[game["first"]]["points"] == 0
    assert first.post(f"{path}/berserk", {}).status_code == 409  # the game is over


def test_berserk_is_refused_outside_arena_games(client):
    devices = players(client, ["ann", "bob"])
    tid = devices["ann"].post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 1,
                                                   "clock": {"minutes": 2, "increment": 0}}).json()["id"]
    for d in devices.values():
        d.post(f"/api/tournaments/{tid}/join")
    (game,) = running_games(devices["ann"].post(f"/api/tournaments/{tid}/start").json())
    path = f"/api/games/{game['game']}"
    assert devices["ann"].get(path).json()["game"]["berserk"] is None
    refused = devices["ann"].post(f"{path}/berserk", {})
    assert refused.status_code == 403 and "Arena" in refused.text


def pushed_until(client, tid, done):
    """The tournament's views as its websocket pushes them, until ``done(view)``."""
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        while True:
            view = ws.receive_json()
            if done(view):
                return view


def test_bots_are_invited_to_a_casual_tournament_only_by_its_creator(client):
    devices = players(client, ["ann", "bob"])
    ann, bob = devices["ann"], devices["bob"]
    rated = ann.post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 1, "rated": True}).json()["id"]
    refused = ann.post(f"/api/tournaments/{rated}/bots", {"bot": "bot:1"})
    assert refused.status_code == 409 and "rated" in refused.text and "casual" in refused.text
    tid = ann.post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 1}).json()["id"]
    assert bob.post(f"/api/tournaments/{tid}/bots", {"bot": "bot:1"}).status_code == 403
    assert Device(client).post(f"/api/tournaments/{tid}/bots", {"bot": "bot:1"}).status_code == 401
    for bad in ("bot:9", "mcts:100000", None, ["bot:1"]):
        response = ann.post(f"/api/tournaments/{tid}/bots", {"bot": bad})
        assert response.status_code == 400 and "bot:1" in response.text, response.text
    view = ann.post(f"/api/tournaments/{tid}/bots", {"bot": "bot:2"}).json()
    view = ann.post(f"/api/tournaments/{tid}/bots", {"bot": "bot:2"}).json()
    assert [(p["name"], p["bot"]) for p in view["players"]] == [("bot:2", "bot:2"), ("bot:2 (2)", "bot:2")]
    view = ann.post(f"/api/tournaments/{tid}/bots/remove", {"bot": "bot:2"}).json()
    assert [p["name"] for p in view["players"]] == ["bot:2"]  # the one left is simply bot:2
    assert ann.post(f"/api/tournaments/{tid}/bots/remove", {"bot": "nobody"}).status_code == 409
    bob.post(f"/api/tournaments/{tid}/join")
    ann.post(f"/api/tournaments/{tid}/start")
    late = ann.post(f"/api/tournaments/{tid}/bots", {"bot": "bot:1"})
    assert late.status_code == 409 and "started" in late.text


def test_a_swiss_of_bots_plays_itself_to_the_end_through_the_bot_runner(client):
    (ann,) = players(client, ["ann"]).values()
    tid = ann.post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 2, "name": "Bot ladder"}).json()["id"]
    for level in ("bot:1", "random", "random", "random"):
        assert ann.post(f"/api/tournaments/{tid}/bots", {"bot": level}).status_code == 200
    view = ann.post(f"/api/tournaments/{tid}/start").json()
    # (the bots may have played round 1 to its end, and been paired again, before the answer)
    first_round = [(g["first"], g["second"]) for g in view["games"] if g["round"] == 1]
    assert first_round == [("bot:1", "random (2)"), ("random (3)", "random")]
    view = pushed_until(client, tid, lambda v: v["status"] == "over")
    assert len(view["games"]) == 4 and all(g["score"] is not None for g in view["games"])
    assert sum(s["score"] for s in view["standings"]) == 4 and all(s["bot"] for s in view["standings"])
    game = view["games"][-1]
    shown = ann.get(f"/api/games/{game['game']}").json()["game"]
    assert [s["kind"] for s in shown["seats"]] == ["bot", "bot"] and shown["status"] == "over"
    record = ann.get(f"/api/games/{game['game']}/record").text
    assert '[Event "Bot ladder"]' in record and '[Round "2"]' in record and f'"{game["first"].split()[0]}"' in record


def test_a_player_meets_a_bot_that_moves_by_itself_and_cannot_be_moved_for(client, clock):
    (ann,) = players(client, ["ann"]).values()
    tid = ann.post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 1}).json()["id"]
    ann.post(f"/api/tournaments/{tid}/bots", {"bot": "random"})
    clock.now += 1
    ann.post(f"/api/tournaments/{tid}/join")  # the bot was first: it has white on board 1
    (game,) = running_games(ann.post(f"/api/tournaments/{tid}/start").json())
    assert (game["first"], game["second"]) == ("random", "ann")
    path = f"/api/games/{game['game']}"
    with client.websocket_connect(f"/ws/games/{game['game']}") as ws:  # the bot's first move is pushed
        shown = ann.get(path).json()["game"]
        while shown["plies"] == 0:
            message = ws.receive_json()
            shown = message.get("game", shown) if message.get("type") == "state" else shown
    assert shown["seats"][0] == {"kind": "bot", "agent": "random"} and shown["seats"][1]["name"] == "ann"
    assert shown["to_seat"] == 1 and ann.get(path).json()["you"] == [1]
    resign(players_of(ann), game, "ann")
    view = ann.get(f"/api/tournaments/{tid}").json()
    assert view["status"] == "over" and view["standings"][0]["player"] == "random"


def players_of(device):
    return {"ann": device}


def test_an_arena_pairs_a_player_with_a_bot_and_bots_with_each_other_until_its_end(client, clock):
    (ann,) = players(client, ["ann"]).values()
    tid = ann.post("/api/tournaments", {"kind": "arena", "game": GAME, "minutes": 5}).json()["id"]
    for _ in range(3):
        ann.post(f"/api/tournaments/{tid}/bots", {"bot": "random"})
    clock.now += 1
    ann.post(f"/api/tournaments/{tid}/join")
    view = ann.post(f"/api/tournaments/{tid}/start").json()
    # the bots joined first: random-random (2), then random (3) with ann (the bots' game may be over already)
    assert sorted((g["first"], g["second"]) for g in view["games"]) == [("random", "random (2)"), ("random (3)", "ann")]
    # the bots' game ends by itself; they wait for someone other than each other (the Arena's rule)
    view = pushed_until(client, tid, lambda v: any(g["score"] is not None for g in v["games"]))
    resign(players_of(ann), next(g for g in running_games(view) if "ann" in (g["first"], g["second"])), "ann")
    view = ann.get(f"/api/tournaments/{tid}").json()  # all four waiting: no rematch
    again = view["games"][2:]  # the bots' new game may be over already
    assert len(again) == 2 and all(frozenset((g["first"], g["second"])) not in (
        frozenset(("random", "random (2)")), frozenset(("random (3)", "ann"))) for g in again)
    resign(players_of(ann), next(g for g in again if "ann" in (g["first"], g["second"])), "ann")
    clock.now += 5 * 60  # the end: the bots' game still on is played out, nobody is paired again
    view = pushed_until(client, tid, lambda v: v["status"] == "over")
    assert len(view["games"]) == 4 and all(g["score"] is not None for g in view["games"])
    table = {s["player"]: s for s in view["standings"]}
    assert table["ann"]["points"] == 0 and table["ann"]["games"] == 2 and table["random (3)"]["points"] >= 2
    assert sum(s["games"] for s in view["standings"]) == 8 and all(s["bot"] for s in view["standings"][:3])
