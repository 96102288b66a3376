"""Fair play at the table (issue 12): why a game ended, undo that never reopens a finished
game, and takebacks and draw offers that the opponent answers in online games."""

from __future__ import annotations

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
from ludothek import i18n
from ludothek.core.protocol import CHANCE
from ludothek.core.registry import game_spec
from ludothek.web import create_app

GAMES = ludothek.games()
#: Trike, one move before its end: c1 walls the pawn in (Black 3 : White 2)
TRIKE_LAST_MOVE = "1/bw/1ww/Wbb1/ww3/1bbwwb/wbbw1bb b"


@pytest.fixture()
def client(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="off")
    with TestClient(app) as test_client:
        yield test_client


def create(client, game, **spec):
    spec.setdefault("start", "fixed")
    response = client.post("/api/games", json={"game": game, **spec})
    assert response.status_code == 201, response.text
    return response.json()


def post(client, game_id, action, **body):
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def ok(response):
    assert response.status_code == 200, response.text
    return response.json()["game"]


def refused(response, status, words):
    assert response.status_code == status, response.text
    assert words in response.json()["error"], response.json()["error"]


def view(client, game_id):
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    return response.json()["game"]


def online(client, game="trike", options=None):
    """An online game in play: (id, host's token for seat 0, guest's token for seat 1)."""
    if options is None:
        options = {"size": 7} if game == "trike" else {}
    created = create(client, game, opponent="friend", seat=0, options=options)
    joined = post(client, created["id"], "join", invite=created["invite"])
    assert joined.status_code == 200, joined.text
    return created["id"], created["token"], joined.json()["token"]


def history(state):
    return [h["text"] for h in state["history"]]


# ---------------------------------------------------------------------------- why a game ended
#: (game, options, position, moves, the ending's key, the result): the last move ends the game
RULE_ENDINGS = [
    ("trike", {}, "1/bw/1ww/Wbb1/ww3/1bbwwb/wbbw1bb b", ["c1"], "pawn_trapped", "black"),
    ("trigeo", {}, "9/2N8/3Nr3P4/4n1p6/3Pp1nk3/7PK w -", ["F11°E9"], "one_captured", "white"),
    ("trigeo", {}, "1R2KB1R1/2PPPQPPP1N/5pP1q4/5p1B5/2pp2ppp2/1rbnkbnr1 w -", ["C7°C6"], "one_trapped", "white"),
    ("trigeo", {}, "kpp6/pppp7/13/13/11/3K5 w -", ["F6XF7"], "no_move", "white"),
    ("trigeo", {}, None, ["A4XA3", "D7XC6", "A3XA4", "C6XD7"] * 2, "repetition", "draw"),
    ("trigeo", {"max_plies": 2}, None, ["A4XA3", "D7XC6"], "move_limit", "draw"),
    ("hexalit", {}, "1RBNKBNR1/2PPPQNP3/6P2P3/6k6/2pppqppp2/1rbnrbnr1 w B8,F7", ["B6XC6"], "one_trapped", "white"),
    ("hexalit", {}, "1k1N1p2b/3K4B2/4P1P1bP3/9p3/6p2r1/6P2 b -", ["A4°B5"], "one_captured", "black"),
    ("hexalit", {"first": "white"}, None, ["A4XA3", "F4XF3", "A3XA4", "F3XF4"] * 2, "repetition", "draw"),
    ("hexalit", {"first": "white", "max_plies": 1}, None, ["A4XA3"], "move_limit", "draw"),
    ("hexalit", {"first": "white", "cube": True}, None, ["double 2", "drop"], "cube_dropped", "white"),
    ("bitis", {}, "42:9516 51:8139 41:3684 IV B", ["V61:3486"], "far_base_line", "b"),
    ("bitis", {}, "23:9712 33:1398 34:7823 V B", ["IV13:1594"], "own_base_line", "a"),
    ("bitis", {}, "- - 41:3486 V B", ["IV31:8931"], "no_placement", "b"),
    ("bitis", {}, "42:6257 52:5843 41:4762 V A", ["IV31:5149", "V43:3782", "IV52:5843", "V41:4762"] * 2,
     "repetition", "draw"),
    ("wettlauf", {}, "h,12 s,s w -", ["12"], "home", "white"),
    ("wettlauf", {"max_plies": 1}, None, ["s"], "move_limit", "draw"),
]


@pytest.mark.parametrize("game, options, position, moves, reason, result", RULE_ENDINGS,
                         ids=[f"{case[0]}-{case[4]}" for case in RULE_ENDINGS])
def test_the_rule_that_ended_the_game_is_named(client, game, options, position, moves, reason, result):
    if game not in GAMES:
        pytest.skip(f"{game} is not installed")
    spec = {"options": options} if position is None else {"options": options, "position": position}
    created = create(client, game, **spec)
    game_id, token = created["id"], created["token"]
    state = created["game"]
    assert state["ending"] is None and state["status"] == "ongoing"
    for text in moves:
        assert state["status"] == "ongoing", (text, state["ending"])
        state = ok(post(client, game_id, "move", token=token, move=text))
    assert state["status"] == "over" and state["termination"] == "rules" and state["result"] == result
    ending = state["ending"]
    assert ending["termination"] == "rules" and ending["reason"] == reason
    assert ending["text"] == dict(game_spec(game).endings[reason])
    assert ending["text"]["en"] != ending["text"]["de"]
    assert client.app.state.store.load(game_id).reason == reason  # stored with the game
    assert view(client, game_id)["ending"] == ending
    if game == "trike":  # the count decides: the score comes with the ending
        assert ending["score"] == {"black": 3, "white": 2}
    if game == "hexalit" and options.get("cube"):  # the stake the game was worth
        assert ending["stake"] == 1 and ending["score"] == {"white": 1, "black": 0}
    # the record names the result
    record = client.get(f"/api/games/{game_id}/record").text
    assert f'[Result "{result}"]' in record


def test_every_game_has_words_for_every_ending_it_reaches():
    """Random games of each game end only in endings its spec has words for, in both languages."""

    for name in GAMES:
        spec = game_spec(name)
        assert spec.endings, f"{name} names no endings"
        for words in spec.endings.values():
            assert set(words) == {"en", "de"} and all(words.values())
        for seed in range(6):
            rng = random.Random(seed)
            options = {"size": 7} if name == "trike" else ({"max_plies": 40} if name != "bitis" else {})
            state = ludothek.new_game(name, **options)
            assert state.ending() is None
            while not state.is_over():
                if state.current_player() == CHANCE:
                    actions, weights = zip(*state.chance_outcomes())
                    state.play(rng.choices(actions, weights)[0])
                else:
                    state.play(rng.choice(state.legal_actions()))
            assert state.ending() in spec.endings, (name, state.ending())
            assert spec.draws or state.result() != "draw"
    assert game_spec("trike").draws is False


def test_resignation_time_abandonment_and_expiry_have_words(client, db_url):
    created = create(client, "trike", options={"size": 7})
    state = ok(post(client, created["id"], "resign", token=created["token"]))
    assert state["ending"] == {"termination": "resign", "reason": "resign",
                               "text": {k: i18n.WEB["ending_resign"][k] for k in ("en", "de")}}
    assert client.app.state.store.load(created["id"]).reason is None  # no rule ended it

    timed = create(client, "trike", options={"size": 7}, clock={"minutes": 0.005, "increment": 0})
    with client.websocket_connect(f"/ws/games/{timed['id']}") as ws:
        pushed = ws.receive_json()["game"]
        if pushed["status"] == "ongoing":  # else the 0.3 s passed before the socket opened
            pushed = ws.receive_json()["game"]  # the server's own timer ends the game
    assert pushed["ending"]["reason"] == "time"
    assert pushed["ending"]["text"]["de"] == i18n.WEB["ending_time"]["de"]

    waiting = create(client, "trike", opponent="friend", options={"size": 7})
    assert client.portal.call(client.app.state.service.expire_waiting, 0) >= 1
    assert view(client, waiting["id"])["ending"]["reason"] == "expired"

    with TestClient(create_app(db_url, bot_executor="thread", rate_limits="off", claim_after=0)) as other:
        game_id, host, _guest = online(other)
        ok(post(other, game_id, "move", token=host, move="d2"))
        state = ok(post(other, game_id, "claim", token=host))  # the guest, to move, stayed away
        assert state["result"] == "black" and state["ending"]["reason"] == "abandon"
        assert state["ending"]["text"]["en"] == i18n.WEB["ending_abandon"]["en"]


# ---------------------------------------------------------------------------- undo
def test_undo_is_refused_once_a_hot_seat_game_is_over(client):
    created = create(client, "trike", position="1/bw/1ww/Wbb1/ww3/1bbwwb/wbbw1bb b")
    game_id, token = created["id"], created["token"]
    assert created["game"]["undo"] is False  # nothing played yet
    state = ok(post(client, game_id, "move", token=token, move="c1"))
    assert state["status"] == "over" and state["undo"] is False
    refused(post(client, game_id, "undo", token=token), 409, "the game is over")
    after = view(client, game_id)
    assert after["status"] == "over" and history(after) == ["c1"]
    archived = {g["id"]: g for g in client.get("/api/games?status=over").json()["games"]}
    assert archived[game_id]["status"] == "over"  # the archive agrees


def test_undo_against_a_bot_never_reopens_a_finished_game(client):
    # the person (black) ends the game with his move: the bot never gets to reply
    created = create(client, "trike", opponent="bot", bot="random", seat=0,
                     position="1/bw/1ww/Wbb1/ww3/1bbwwb/wbbw1bb b")
    game_id, token = created["id"], created["token"]
    assert created["game"]["undo"] is False
    state = ok(post(client, game_id, "move", token=token, move="c1"))
    assert state["status"] == "over" and state["ending"]["reason"] == "pawn_trapped"
    refused(post(client, game_id, "undo", token=token), 409, "over")
    assert view(client, game_id)["status"] == "over"
    # a resigned game too
    other = create(client, "trike", opponent="bot", bot="random", seat=0, options={"size": 7})
    ok(post(client, other["id"], "resign", token=other["token"]))
    refused(post(client, other["id"], "undo", token=other["token"]), 409, "over")


def test_undo_against_a_bot_takes_back_the_move_and_the_reply(client):
    created = create(client, "trike", opponent="bot", bot="random", seat=0, options={"size": 7})
    game_id, token = created["id"], created["token"]
    ok(post(client, game_id, "move", token=token, move="d2"))
    state = wait_for(client, game_id, lambda s: len(s["history"]) == 2)
    assert state["undo"] is True and state["to_seat"] == 0
    state = ok(post(client, game_id, "undo", token=token))
    assert state["history"] == [] and state["to_seat"] == 0 and state["status"] == "ongoing"


def wait_for(client, game_id, condition, tries=2000):
    for _ in range(tries):
        state = view(client, game_id)
        if condition(state):
            return state
        time.sleep(0.01)
    raise AssertionError(f"the condition never held; last state {history(state)}")


# ---------------------------------------------------------------------------- takebacks
def test_a_takeback_accepted_takes_back_the_requesters_move_and_the_reply(client):
    game_id, host, guest = online(client)
    ok(post(client, game_id, "move", token=host, move="d2"))
    ok(post(client, game_id, "move", token=guest, move="c2"))
    state = ok(post(client, game_id, "offer", token=host, kind="takeback"))
    assert state["offer"] == {"kind": "takeback", "by": 0, "ply": 2}
    assert client.app.state.store.load(game_id).offer == state["offer"]  # other processes see it
    state = ok(post(client, game_id, "answer", token=guest, accept=True))
    assert state["history"] == [] and state["to_seat"] == 0 and state["offer"] is None
    assert state["plies"] == 0 and client.app.state.store.load(game_id).ply == 0
    # the guest takes back his own move while the host is to move: only that move goes
    ok(post(client, game_id, "move", token=host, move="d2"))
    ok(post(client, game_id, "move", token=guest, move="c2"))
    ok(post(client, game_id, "offer", token=guest, kind="takeback"))
    state = ok(post(client, game_id, "answer", token=host, accept=True))
    assert history(state) == ["d2"] and state["to_seat"] == 1
    ok(post(client, game_id, "move", token=guest, move="swap"))  # play goes on
    assert view(client, game_id)["colours"] == ["white", "black"]


def test_a_takeback_declined_changes_nothing_but_the_offer(client):
    game_id, host, guest = online(client)
    ok(post(client, game_id, "move", token=host, move="d2"))
    state = ok(post(client, game_id, "offer", token=host, kind="takeback"))
    assert state["offer"]["by"] == 0
    state = ok(post(client, game_id, "answer", token=guest, accept=False))
    assert state["offer"] is None and history(state) == ["d2"] and state["to_seat"] == 1
    assert client.app.state.store.load(game_id).offer is None


def test_the_offerer_may_withdraw(client):
    game_id, host, guest = online(client)
    ok(post(client, game_id, "move", token=host, move="d2"))
    ok(post(client, game_id, "offer", token=host, kind="takeback"))
    refused(post(client, game_id, "withdraw", token=guest), 409, "only the player who made the offer")
    state = ok(post(client, game_id, "withdraw", token=host))
    assert state["offer"] is None
    refused(post(client, game_id, "withdraw", token=host), 409, "no offer to withdraw")
    refused(post(client, game_id, "answer", token=guest, accept=True), 409, "no offer to answer")


# ---------------------------------------------------------------------------- draw offers
@pytest.mark.skipif("trigeo" not in GAMES, reason="needs a game with draws")
def test_a_draw_offer_accepted_ends_the_game_as_an_agreed_draw(client):
    game_id, host, guest = online(client, "trigeo", {"first": "white"})
    ok(post(client, game_id, "move", token=host, move="A4XA3"))
    state = ok(post(client, game_id, "offer", token=guest, kind="draw"))  # on his own turn
    assert state["offer"] == {"kind": "draw", "by": 1, "ply": 1}
    state = ok(post(client, game_id, "answer", token=host, accept=True))
    assert state["status"] == "over" and state["result"] == "draw" and state["termination"] == "agreement"
    assert state["offer"] is None and state["undo"] is False
    assert state["ending"] == {"termination": "agreement", "reason": "agreement",
                               "text": {k: i18n.WEB["ending_agreement"][k] for k in ("en", "de")}}
    record = client.get(f"/api/games/{game_id}/record").text
    assert '[Result "draw"]' in record and '[Termination "agreement"]' in record
    # nothing more to offer, answer or take back
    refused(post(client, game_id, "offer", token=host, kind="takeback"), 409, "over")
    refused(post(client, game_id, "answer", token=host, accept=True), 409, "over")
    refused(post(client, game_id, "undo", token=host), 409, "over")
    refused(post(client, game_id, "move", token=guest, move="D7XC6"), 409, "over")


@pytest.mark.skipif("trigeo" not in GAMES, reason="needs a game with draws")
def test_a_draw_offer_declined_and_one_cleared_by_a_move(client):
    game_id, host, guest = online(client, "trigeo", {"first": "white"})
    ok(post(client, game_id, "offer", token=host, kind="draw"))
    state = ok(post(client, game_id, "answer", token=guest, accept=False))
    assert state["status"] == "ongoing" and state["offer"] is None
    # an offer waits while the game goes on; the next move answers it
    ok(post(client, game_id, "offer", token=guest, kind="draw"))
    state = ok(post(client, game_id, "move", token=host, move="A4XA3"))
    assert state["offer"] is None and client.app.state.store.load(game_id).offer is None
    refused(post(client, game_id, "answer", token=host, accept=True), 409, "no offer")
    # so does the end of the game
    ok(post(client, game_id, "offer", token=host, kind="takeback"))
    state = ok(post(client, game_id, "resign", token=guest))
    assert state["offer"] is None and state["ending"]["reason"] == "resign"


def test_a_draw_cannot_be_offered_in_a_game_without_draws(client):
    assert game_spec("trike").draws is False
    game_id, host, guest = online(client)
    ok(post(client, game_id, "move", token=host, move="d2"))
    refused(post(client, game_id, "offer", token=guest, kind="draw"), 409, "cannot end in a draw")
    assert view(client, game_id)["draws"] is False and view(client, game_id)["offer"] is None


# ---------------------------------------------------------------------------- misuse
def test_offers_and_answers_are_refused_with_clear_errors(client):
    created = create(client, "trike", opponent="friend", seat=0, options={"size": 7})
    game_id, host = created["id"], created["token"]
    refused(post(client, game_id, "offer", token=host, kind="takeback"), 409, "has not started")  # waiting
    guest = post(client, game_id, "join", invite=created["invite"]).json()["token"]
    refused(post(client, game_id, "offer", token=host, kind="takeback"), 409, "no move of yours")
    refused(post(client, game_id, "offer", token=host, kind="truce"), 400, "takeback")
    refused(post(client, game_id, "offer", token=host), 400, "takeback")
    refused(post(client, game_id, "offer", token="x" * 32, kind="takeback"), 403, "token")
    refused(post(client, game_id, "offer", kind="takeback"), 401, "token")
    refused(post(client, "no-such-game", "offer", token=host, kind="takeback"), 404, "game")
    ok(post(client, game_id, "move", token=host, move="d2"))
    ok(post(client, game_id, "offer", token=host, kind="takeback"))
    refused(post(client, game_id, "offer", token=host, kind="takeback"), 409, "your takeback proposal is still")
    refused(post(client, game_id, "offer", token=guest, kind="takeback"), 409, "your opponent's takeback")
    refused(post(client, game_id, "answer", token=host, accept=True), 409, "your own")
    refused(post(client, game_id, "answer", token=guest, accept="yes"), 400, "true or false")
    refused(post(client, game_id, "answer", token=guest), 400, "true or false")
    refused(post(client, game_id, "answer", token="x" * 32, accept=True), 403, "token")
    assert view(client, game_id)["offer"]["kind"] == "takeback"  # still waiting after all that
    # offers are for online games; local games undo
    local = create(client, "trike", options={"size": 7})
    ok(post(client, local["id"], "move", token=local["token"], move="d2"))
    refused(post(client, local["id"], "offer", token=local["token"], kind="takeback"), 403, "online games")
    refused(post(client, local["id"], "answer", token=local["token"], accept=True), 403, "online games")
    refused(post(client, game_id, "undo", token=host), 403, "takeback")


def test_offers_and_answers_over_the_websocket(client):
    game_id, host, guest = online(client)
    ok(post(client, game_id, "move", token=host, move="d2"))
    with client.websocket_connect(f"/ws/games/{game_id}") as hosting, \
            client.websocket_connect(f"/ws/games/{game_id}") as guesting:
        assert hosting.receive_json()["type"] == "state" and guesting.receive_json()["type"] == "state"
        hosting.send_json({"type": "auth", "token": host})
        assert hosting.receive_json()["you"] == [0]
        guesting.send_json({"type": "auth", "token": guest})
        assert guesting.receive_json()["you"] == [1]
        hosting.send_json({"type": "offer", "kind": "takeback", "ref": 7})
        replies = [hosting.receive_json(), hosting.receive_json()]
        assert {r["type"] for r in replies} == {"state", "ok"}
        pushed = guesting.receive_json()  # the opponent sees the offer at once
        assert pushed["type"] == "state" and pushed["game"]["offer"]["kind"] == "takeback"
        guesting.send_json({"type": "answer", "accept": "maybe", "ref": 8})
        error = guesting.receive_json()
        assert error["type"] == "error" and error["status"] == 400 and error["ref"] == 8
        guesting.send_json({"type": "answer", "accept": True, "ref": 9})
        replies = [guesting.receive_json(), guesting.receive_json()]
        state = next(r for r in replies if r["type"] == "state")["game"]
        assert state["history"] == [] and state["offer"] is None
        assert hosting.receive_json()["game"]["history"] == []
        hosting.send_json({"type": "withdraw", "ref": 10})
        assert hosting.receive_json()["status"] == 409


# ---------------------------------------------------------------------------- the terminal
def terminal(state, lines, vs="human", lang="en"):
    from io import StringIO

    from rich.console import Console

    from ludothek.terminal import TerminalGame

    script = iter(lines)

    def read(prompt):
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    out = StringIO()
    game = TerminalGame(state, vs, "human", 0, lang, random.Random(1), console=Console(file=out, width=300),
                        read=read, interactive=False)
    return game, out


def test_the_terminal_says_why_the_game_ended_and_refuses_undo_after_it():
    state = ludothek.new_game("trike", TRIKE_LAST_MOVE)
    game, out = terminal(state, ["c1"], lang="de")
    game.run()
    text = out.getvalue()
    assert game_spec("trike").endings["pawn_trapped"]["de"] in text and "Schwarz gewinnt." in text
    game.undo()
    assert state.is_over() and state.move_texts == ["c1"]
    assert i18n.text("undo_over", "de") in out.getvalue()


def test_undo_in_the_terminal_takes_back_the_move_and_the_agents_reply():
    state = ludothek.new_game("trike", size=7)
    game, out = terminal(state, ["d2", "undo", "quit"], vs="random")
    game.run()
    assert state.ply == 0 and state.to_move == "black"  # the person's move and the reply are gone
    assert "Game left unfinished." in out.getvalue()
