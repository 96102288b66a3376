"""Challenges, follows and quick pairing (issue 32, items 1 and 3) through the HTTP API and the
lobby socket, on SQLite and PostgreSQL: a challenge declined with a reason and one accepted
(the game starts for both, with the colours and clock asked for), hostile requests answered
with clean 4xx errors naming the problem, the "accept challenges from" setting, follows with
online status and live games, and quick pairing with its rating rule."""

from __future__ import annotations

import asyncio

import orjson
from sqlalchemy import event, insert, select

from ludothek.web.lobby import Watcher
from ludothek.web.players import user_id
from ludothek.web.quickpair import ABSENT_SECONDS, pick
from ludothek.web.store import Account, quick_pairing_table

from .test_web_players import ORIGIN, client, clock, deleting, eventually, player  # noqa: F401 - fixtures

SPEC = {"game": "trike", "options": {"size": 7}, "clock": {"minutes": 5, "increment": 3}, "rated": True, "seat": 0}


def challenge(device, to, status=201, **extra):
    answer = device.post("/api/challenges", {**SPEC, "to": to, **extra})
    assert answer.status_code == status, answer.text
    return answer.json()


def test_declined_with_a_reason_then_accepted(client):
    alice, bob, carol = player(client, "alice"), player(client, "bob"), player(client, "carol")
    first = challenge(alice, "Bob")
    assert (first["from"], first["to"], first["status"]) == ("alice", "bob", "open")
    assert [c["id"] for c in bob.get("/api/challenges").json()["incoming"]] == [first["id"]]
    assert [c["id"] for c in alice.get("/api/challenges").json()["outgoing"]] == [first["id"]]
    assert carol.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    # nobody but Bob answers it
    for path in ("accept", "decline"):
        assert carol.post(f"/api/challenges/{first['id']}/{path}", {}).status_code == 403
        assert alice.post(f"/api/challenges/{first['id']}/{path}", {}).status_code == 403
    assert deleting(bob, f"/api/challenges/{first['id']}").status_code == 403
    declined = bob.post(f"/api/challenges/{first['id']}/decline", {"reason": "too_fast", "note": "after <b>dinner</b>"})
    assert declined.status_code == 200, declined.text
    seen = alice.get("/api/challenges").json()["outgoing"]
    assert [(c["status"], c["reason"], c["note"]) for c in seen] == [("declined", "too_fast", "after <b>dinner</b>")]
    assert bob.get("/api/challenges").json()["incoming"] == []
    assert bob.post(f"/api/challenges/{first['id']}/accept", {}).status_code == 404  # answered already

    second = challenge(alice, "bob")
    accepted = bob.post(f"/api/challenges/{second['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text
    game = accepted.json()["game"]
    assert game["status"] == "ongoing" and game["rated"] and accepted.json()["seats"] == [1]
    assert [p.get("user") for p in game["players"]] == ["alice", "bob"] if "players" in game else True
    outgoing = alice.get("/api/challenges").json()["outgoing"]
    assert [(c["id"], c["status"], c["game_id"]) for c in outgoing if c["status"] == "accepted"] == [
        (second["id"], "accepted", game["id"])]
    # Alice's account owns seat 0 without any token
    view = alice.get(f"/api/games/{game['id']}").json()
    assert view["game"]["id"] == game["id"]
    assert client.app.state.store.load(game["id"], with_moves=False).user0 is not None


def test_hostile_challenges_get_clean_errors(client):
    alice, bob = player(client, "alice"), player(client, "bob")
    guest = player.__globals__["Device"](client)
    cases = [
        (guest, {**SPEC, "to": "bob"}, 401, "challenges.login"),
        (alice, {**SPEC, "to": "nobody_here"}, 404, "challenges.unknown"),
        (alice, {**SPEC, "to": "ALICE"}, 400, "challenges.self"),
        (alice, {**SPEC}, 400, "challenges.to_missing"),
        (alice, {**SPEC, "to": ["bob"]}, 400, "challenges.to_missing"),
        (alice, {**SPEC, "to": "x" * 5000}, 404, "challenges.unknown"),
        (alice, {**SPEC, "to": "bob", "game": "chess"}, 400, None),
        (alice, {**SPEC, "to": "bob", "options": {"size": 99}}, 400, None),
        (alice, {**SPEC, "to": "bob", "clock": {"minutes": -1}}, 400, "web.clock_range"),
        (alice, {**SPEC, "to": "bob", "rated": "yes"}, 400, "web.rated_bool"),
        (alice, {**SPEC, "to": "bob", "seat": 7}, 400, "web.seek_seat"),
    ]
    for device, body, status, key in cases:
        answer = device.post("/api/challenges", body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"], answer.text
        if key:
            assert answer.json()["key"] == key, answer.text
    made = challenge(alice, "bob")
    assert alice.post("/api/challenges", {**SPEC, "to": "bob"}).json()["key"] == "challenges.already"
    decline = f"/api/challenges/{made['id']}/decline"
    for body, status, key in [({"reason": "rude"}, 400, "challenges.reason"),
                              ({"note": "x" * 201}, 400, "challenges.note_long"),
                              ({"note": 5}, 400, "challenges.note_type"),
                              ({"note": "bell\x07"}, 400, "challenges.note_control"),
                              ({"note": "y" * 20000}, 413, "web.body_too_large")]:
        answer = bob.post(decline, body)
        assert (answer.status_code, answer.json()["key"]) == (status, key), answer.text
    assert bob.post("/api/challenges/not-a-challenge/accept", {}).json()["key"] == "challenges.gone"
    assert bob.post("/api/challenges/" + "z" * 300 + "/accept", {}).status_code == 404
    # German errors for a German page
    german = alice.post("/api/challenges", {**SPEC, "to": "alice"}, headers={"Accept-Language": "de"})
    assert german.json()["error"] == "du kannst dich nicht selbst herausfordern"
    # the challenge is still open after all that
    assert [c["id"] for c in bob.get("/api/challenges").json()["incoming"]] == [made["id"]]
    assert deleting(alice, f"/api/challenges/{made['id']}").status_code == 200
    assert bob.get("/api/challenges").json()["incoming"] == []


def test_refusing_challenges_and_follows(client, clock):
    alice, bob, carol = player(client, "alice"), player(client, "bob"), player(client, "carol")
    assert bob.get("/api/challenges/settings").json() == {"accept": "everyone"}
    assert bob.request("PUT", "/api/challenges/settings", json={"accept": "some"}).json()["key"] == "challenges.setting"
    assert bob.request("PUT", "/api/challenges/settings", json={"accept": "followed"}).status_code == 200
    assert challenge(alice, "bob", status=403)["key"] == "challenges.refuses_unfollowed"
    assert bob.post("/api/follows/ALICE").json() == {"name": "alice", "following": True}
    challenge(alice, "bob")
    assert challenge(carol, "bob", status=403)["key"] == "challenges.refuses_unfollowed"
    bob.request("PUT", "/api/challenges/settings", json={"accept": "nobody"})
    assert challenge(carol, "bob", status=403)["key"] == "challenges.refuses_all"
    # a block (from the chat) refuses its player's challenges whatever the setting, without saying so
    bob.request("PUT", "/api/challenges/settings", json={"accept": "everyone"})
    assert bob.post("/api/chat/relations", {"name": "carol", "kind": "block"}).status_code == 200
    assert challenge(carol, "bob", status=403)["key"] == "challenges.refuses_all"
    challenge(alice, "carol")  # only the blocked direction
    # the one who blocked cannot challenge either, and is told why
    refused = challenge(bob, "carol", status=403)
    assert refused["key"] == "challenges.you_blocked" and "unblock" in refused["error"]
    # a block cancels the open challenges between the two, both ways, unannounced
    to_carol = challenge(bob, "carol", status=403)  # (still refused)
    made = challenge(carol, "alice")
    assert [c["id"] for c in alice.get("/api/challenges").json()["incoming"]] == [made["id"]]
    assert alice.post("/api/chat/relations", {"name": "carol", "kind": "block"}).status_code == 200
    mine = alice.get("/api/challenges").json()
    assert mine["incoming"] == [] and [c["to"] for c in mine["outgoing"]] == ["bob"]  # (Alice to Carol: gone too)
    assert carol.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    assert alice.post(f"/api/challenges/{made['id']}/accept", {}).status_code == 404
    assert to_carol["key"] == "challenges.you_blocked"
    alice.post("/api/chat/relations", {"name": "carol", "kind": "block", "on": False})
    bob.post("/api/chat/relations", {"name": "carol", "kind": "block", "on": False})
    challenge(bob, "carol")
    bob.request("PUT", "/api/challenges/settings", json={"accept": "nobody"})
    # follows: errors, then online status and live games from pages watching the lobby
    assert bob.post("/api/follows/bob").json()["key"] == "follows.self"
    assert bob.post("/api/follows/ghost").status_code == 404
    assert player.__globals__["Device"](client).get("/api/follows").status_code == 401
    bob.post("/api/follows/carol")
    listed = bob.get("/api/follows").json()["following"]
    assert [(p["name"], p["online"], p["playing"]) for p in listed] == [("alice", False, []), ("carol", False, [])]
    headers = {**ORIGIN, "Cookie": f"ludothek_session={carol.session}"}
    with client.websocket_connect("/ws/lobby", headers=headers) as ws:
        ws.receive_json()
        online = eventually(lambda: [(p["name"], p["online"]) for p in bob.get("/api/follows").json()["following"]],
                            [("carol", True), ("alice", False)])
        assert online == [("carol", True), ("alice", False)]
    clock.now += 120
    assert all(not p["online"] for p in bob.get("/api/follows").json()["following"])
    assert deleting(bob, "/api/follows/carol").json() == {"name": "carol", "following": False}
    assert [p["name"] for p in bob.get("/api/follows").json()["following"]] == ["alice"]


def test_challenges_are_pushed_over_the_lobby_socket(client):
    alice, bob = player(client, "alice"), player(client, "bob")
    bob_headers = {**ORIGIN, "Cookie": f"ludothek_session={bob.session}"}
    alice_headers = {**ORIGIN, "Cookie": f"ludothek_session={alice.session}"}
    with client.websocket_connect("/ws/lobby", headers=bob_headers) as bws, \
            client.websocket_connect("/ws/lobby", headers=alice_headers) as aws:
        made = challenge(alice, "bob")

        def next_of(ws, kind):
            while (message := ws.receive_json())["type"] != kind:
                pass
            return message
        assert [c["id"] for c in next_of(bws, "challenges")["incoming"]] == [made["id"]]
        bob.post(f"/api/challenges/{made['id']}/decline", {"reason": "later"})
        answer = next_of(aws, "challenge_answer")["challenge"]
        assert (answer["status"], answer["reason"]) == ("declined", "later")
        again = challenge(alice, "bob")
        game_id = bob.post(f"/api/challenges/{again['id']}/accept", {}).json()["id"]
        answer = next_of(aws, "challenge_answer")["challenge"]
        assert (answer["status"], answer["game_id"]) == ("accepted", game_id)


def test_the_challenger_hears_of_the_game_only_once_it_exists(client, monkeypatch):
    """Accepting answers the challenge at once (no second answer can win), then creates the
    game. A look at the lobby in between (every 1.5 s, on any server) must neither push the
    challenger the game's id nor list it: under load it once sent her page to a game that did
    not exist yet ("This game does not exist", for good)."""
    alice, bob = player(client, "alice"), player(client, "bob")
    made = challenge(alice, "bob")
    challenges = client.app.state.challenges
    alice_id = challenges._open(made["id"])["from_id"]
    during = []
    create = challenges.service.create

    async def create_after_a_lobby_look(*args, **kwargs):
        lists, answers = challenges._news([alice_id])
        during.append(([(c["status"], c["game_id"]) for c in lists[alice_id]["outgoing"]], answers))
        return await create(*args, **kwargs)

    monkeypatch.setattr(challenges.service, "create", create_after_a_lobby_look)
    accepted = bob.post(f"/api/challenges/{made['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text
    assert during == [([("accepted", None)], {})]
    lists, answers = challenges._news([alice_id])
    game_id = accepted.json()["id"]
    assert [(c["status"], c["game_id"]) for c in answers[alice_id]] == [("accepted", game_id)]
    assert alice.get(f"/api/games/{game_id}").status_code == 200
    assert challenges._news([alice_id])[1] == {}  # told once


def test_quick_pairing_pairs_two_waiting_players(client):
    ann, ben = player(client, "ann"), player(client, "ben")
    assert player.__globals__["Device"](client).post("/api/quick", {"game": "trike", "clock": "3+2"}).status_code == 401
    assert ann.post("/api/quick", {"game": "trike", "clock": "4+4"}).json()["key"] == "quickpair.clock"
    assert ann.post("/api/quick", {"game": "nope", "clock": "3+2"}).status_code == 400
    assert ann.post("/api/quick", {"game": "trike", "clock": "3+2"}).json() == {"waiting": "trike|3+2"}
    assert ben.get("/api/quick").json()["waiting"] == {"trike|3+2": 1}
    headers = {**ORIGIN, "Cookie": f"ludothek_session={ann.session}"}
    with client.websocket_connect("/ws/lobby", headers=headers) as ws:
        paired = ben.post("/api/quick", {"game": "trike", "clock": "3+2"}).json()
        assert set(paired) == {"game"}
        while (message := ws.receive_json())["type"] != "paired":
            pass
        assert message == {"type": "paired", "game": paired["game"]}
    row = client.app.state.store.load(paired["game"], with_moves=False)
    assert row.rated and row.status == "ongoing" and {row.user0, row.user1} == {1, 2}
    assert row.clock["initial"] == 180000 and row.clock["increment"] == 2000
    assert ben.get("/api/quick").json()["waiting"] == {}


def test_a_press_answers_the_game_a_lobby_look_paired_it_into_meanwhile(client, monkeypatch):
    """Ben's press enters him; before it pairs him, Ann's lobby look (another task) pairs them:
    the press must answer that game, not "waiting"."""
    ann, ben = player(client, "ann"), player(client, "ben")
    quick = client.app.state.quick
    assert ann.post("/api/quick", {"game": "trike", "clock": "3+2"}).json() == {"waiting": "trike|3+2"}
    real_join, real_enter, raced = quick.join, quick._enter, []

    async def join(user, body):
        loop = asyncio.get_running_loop()

        def enter_then_race(user, pool, game):
            real_enter(user, pool, game)
            raced.append(asyncio.run_coroutine_threadsafe(quick._try(1), loop).result())

        monkeypatch.setattr(quick, "_enter", enter_then_race)
        return await real_join(user, body)

    monkeypatch.setattr(quick, "join", join)
    paired = ben.post("/api/quick", {"game": "trike", "clock": "3+2"}).json()
    assert raced[0] is not None and paired == {"game": raced[0]}
    assert client.app.state.store.load(raced[0], with_moves=False).status == "ongoing"


def test_a_pairing_is_told_only_once_its_game_exists(client, monkeypatch):
    """A pairing names its game before the game is created: a lobby look (or a press) in
    between, here or on another server, must not send a page to it yet."""
    ann, ben = player(client, "ann"), player(client, "ben")
    quick = client.app.state.quick
    ann_id, ben_id = (user_id(quick.store, name) for name in ("ann", "ben"))
    assert ann.post("/api/quick", {"game": "trike", "clock": "3+2"}).json() == {"waiting": "trike|3+2"}
    during = []
    create = quick.service.create

    async def create_after_a_lobby_look(*args, **kwargs):
        during.append((quick._places([ann_id, ben_id])[0], quick._games_of([ann_id, ben_id])))
        return await create(*args, **kwargs)

    monkeypatch.setattr(quick.service, "create", create_after_a_lobby_look)
    paired = ben.post("/api/quick", {"game": "trike", "clock": "3+2"}).json()
    assert during == [({ann_id: None, ben_id: None}, {})]
    assert quick._places([ann_id])[0] == {ann_id: paired["game"]} == quick._games_of([ann_id])  # Ann is told now


def test_the_rating_rule():
    me = {"rating": 1500.0, "joined": 100.0}
    far = {"rating": 2100.0, "joined": 50.0}
    near = {"rating": 1650.0, "joined": 90.0}
    nearer = {"rating": 1420.0, "joined": 95.0}
    assert pick(me, [far], 100.0) is far  # only one waiting: paired whatever the ratings
    assert pick(me, [far, near, nearer], 100.0) is nearer  # several: the closest in range
    # none in range (200 points, 50 more for each 10 s the longer waiting of two has waited): wait
    other = {"rating": 1950.0, "joined": 60.0}
    assert pick(me, [far, other], 100.0) is None
    assert pick(me, [far, other], 110.0) is other  # 10 s later the range reaches 450


class Page:
    """A lobby socket as the quick-pairing hook sees it: it keeps what is sent to it."""

    def __init__(self):
        self.sent = []

    async def send_text(self, text):
        self.sent.append(orjson.loads(text))


def test_a_lobby_look_writes_only_when_there_is_something_to_write(client, clock):
    """Each look (every 1.5 s) reads the places; ``seen`` is written only when older than
    REFRESH_SECONDS, and a pair the widened range allows is made by the look, both players told."""
    quick, store = client.app.state.quick, client.app.state.store
    for name in ("ann", "ben", "cid", "dan", "eve"):
        player(client, name)
    ids = {r["name"]: r["id"] for r in client.app.state.accounts.users()}
    start = clock.now

    def wait_at_button(name, rating):
        with store.engine.begin() as conn:
            conn.execute(insert(quick_pairing_table).values(user_id=ids[name], pool="trike|3+2", rating=rating,
                                                            joined=clock.now, seen=clock.now, game_id=None))

    for name, rating in (("ann", 1000.0), ("ben", 2000.0), ("cid", 3000.0), ("eve", 4000.0)):  # too far apart
        wait_at_button(name, rating)
    pages = {name: Page() for name in ids}
    watchers = {pages[name]: Watcher(user=Account(ids[name], name)) for name in ids}
    written = []

    def statement(conn, cursor, sql, parameters, context, executemany):
        if "quick_pairing" in sql and sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE"):
            written.append(sql.lstrip().split(None, 1)[0].upper())

    def look(seconds=1.5):
        clock.now += seconds
        written.clear()
        client.portal.call(quick.hook, watchers)
        return list(written)

    event.listen(store.engine, "before_cursor_execute", statement)
    try:
        assert look() == ["DELETE"]  # the places long gone, at a process's first look
        assert look() == [] and look() == []  # nothing to write
        assert look() == ["UPDATE"]  # `seen` was 6 s old
        with store.engine.connect() as conn:
            seen = dict(conn.execute(select(quick_pairing_table.c.user_id, quick_pairing_table.c.seen)).all())
        assert seen == {ids[name]: clock.now for name in ("ann", "ben", "cid", "eve")}
        assert look() == [] and quick.counts() == {"trike|3+2": 4}
        # the places of pages here are kept (written every REFRESH_SECONDS); Cid's page goes, his lapses
        for _ in range(int(ABSENT_SECONDS // 1.5) + 1):
            look()
        assert quick.counts() == {"trike|3+2": 4}
        del watchers[pages["cid"]]
        for _ in range(int(ABSENT_SECONDS // 1.5) + 1):
            look()
        assert quick.counts() == {"trike|3+2": 3} and quick.waiting_for(ids["cid"]) == "trike|3+2"
        assert not any(page.sent for page in pages.values())
        # Dan comes, 50 points from Ben: the next look pairs those two and tells both at once
        wait_at_button("dan", 2050.0)
        look()
        assert pages["ben"].sent == pages["dan"].sent == [{"type": "paired", "game": pages["ben"].sent[0]["game"]}]
        row = store.load(pages["ben"].sent[0]["game"], with_moves=False)
        assert {row.user0, row.user1} == {ids["ben"], ids["dan"]} and row.rated
        assert not pages["ann"].sent and not pages["eve"].sent and quick.counts() == {"trike|3+2": 2}
        assert quick.waiting_for(ids["ben"]) is None and quick.waiting_for(ids["dan"]) is None
        assert clock.now - start < 10 * ABSENT_SECONDS
    finally:
        event.remove(store.engine, "before_cursor_execute", statement)


def test_quick_pairing_keeps_apart_two_players_one_of_whom_blocked_the_other(client):
    ann, ben, cyd = player(client, "ann"), player(client, "ben"), player(client, "cyd")
    assert ben.post("/api/chat/relations", {"name": "ann", "kind": "block"}).status_code == 200
    assert ann.post("/api/quick", {"game": "trike", "clock": "3+2"}).json() == {"waiting": "trike|3+2"}
    assert ben.post("/api/quick", {"game": "trike", "clock": "3+2"}).json() == {"waiting": "trike|3+2"}
    assert ben.get("/api/quick").json()["waiting"] == {"trike|3+2": 2}
    # a third is paired with the one who waited longest
    paired = cyd.post("/api/quick", {"game": "trike", "clock": "3+2"}).json()
    row = client.app.state.store.load(paired["game"], with_moves=False)
    users = {r["name"]: r["id"] for r in client.app.state.accounts.users()}
    assert {row.user0, row.user1} == {users["ann"], users["cyd"]}
    assert ben.get("/api/quick").json() == {"clocks": ["3+2", "5+3", "10+5"], "waiting": {"trike|3+2": 1}, "mine": "trike|3+2"}
