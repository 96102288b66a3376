"""The web server answers in the language the client asks for (issue 12, item 6).

Errors over HTTP follow ``Accept-Language`` (the page sends the language chosen with its EN/DE
switch), over the websocket ``?lang=`` (or the handshake's ``Accept-Language``); a client that
asks for no language gets English, word for word as before. Every error names its message's
``key``. The roll for the first move comes in parts the page words itself.
"""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.core.errors import LudothekError, ParseError
from ludothek.core.messages import Message
from ludothek.core.registry import game_class
from ludothek.web import create_app
from ludothek.web.service import WebError, start_roll_view
from ludothek.web.texts import TEXTS

from .test_web_api import client  # noqa: F401 - the app on SQLite, then on PostgreSQL

DE = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}
GERMAN_COLOURS = {"black": "Schwarz", "white": "Weiß"}


def create(client, game="trike", **spec):
    spec.setdefault("options", {"size": 7} if game == "trike" else {})
    spec.setdefault("start", "fixed")
    response = client.post("/api/games", json={"game": game, **spec})
    assert response.status_code == 201, response.text
    return response.json()


def both(client, method, path, status, **kwargs):
    """The error answered without a language and in German: (english, german, key)."""
    english = client.request(method, path, **kwargs)
    german = client.request(method, path, headers={**kwargs.pop("headers", {}), **DE}, **kwargs)
    assert english.status_code == german.status_code == status, (english.text, german.text)
    assert english.json()["key"] == german.json()["key"]
    return english.json()["error"], german.json()["error"], english.json()["key"]


def engine_error(game, options, moves, text):
    """What the game's own state says to ``text`` after ``moves``."""
    state = game_class(game)(**options)
    for move in moves:
        for action in state.parse_token(move):
            state.play(int(action))
    with pytest.raises(LudothekError) as info:
        for action in state.parse_token(text):
            state.play(int(action))
    return info.value


# ---------------------------------------------------------------------------- HTTP
def test_bad_json_in_both_languages(client):
    en, de, key = both(client, "POST", "/api/games", 400, content=b"{", headers={"content-type": "application/json"})
    assert en == "the request body is not valid JSON"
    assert de == "der Inhalt der Anfrage ist kein gültiges JSON"
    assert key == "web.not_json"
    en, de, key = both(client, "POST", "/api/games", 400, content=b"[1]", headers={"content-type": "application/json"})
    assert (en, de, key) == ("the request body must be a JSON object", "der Inhalt der Anfrage muss ein JSON-Objekt sein",
                             "web.not_object")


def test_unknown_game(client):
    en, de, key = both(client, "GET", "/api/games/nosuchgame", 404)
    assert en == "no game with id 'nosuchgame'"
    assert de == "keine Partie mit der ID 'nosuchgame'"
    assert key == "web.no_game_id"
    en, de, key = both(client, "POST", "/api/games", 400, json={"game": "chess"})
    assert "chess" in en and "chess" in de and en != de and key


def test_the_language_comes_from_the_first_tag(client):
    answers = {header: client.get("/api/games/nosuchgame", headers={"Accept-Language": header}).json()["error"]
               for header in ("de", "DE-at", "en-GB,de;q=0.9", "fr", "")}
    assert answers["de"] == answers["DE-at"] == "keine Partie mit der ID 'nosuchgame'"
    assert answers["en-GB,de;q=0.9"] == answers["fr"] == answers[""] == "no game with id 'nosuchgame'"


@pytest.mark.parametrize("text", ["z99", "!!!"])
def test_malformed_move_in_the_engines_words(client, text):
    created = create(client)
    en, de, key = both(client, "POST", f"/api/games/{created['id']}/move", 400,
                       json={"token": created["token"], "move": text})
    expected = engine_error("trike", {"size": 7}, [], text)
    assert en == str(expected) == expected.text("en")
    assert de == expected.text("de")
    if isinstance(expected.message, Message):  # the engine's own key, not the web's
        assert key == expected.message.key and not key.startswith("web.")
        assert de != en


def test_illegal_move_in_the_engines_words(client):
    created = create(client)
    path, token = f"/api/games/{created['id']}/move", created["token"]
    assert client.post(path, json={"token": token, "move": "a1"}).status_code == 200
    en, de, key = both(client, "POST", path, 400, json={"token": token, "move": "a1"})
    expected = engine_error("trike", {"size": 7}, ["a1"], "a1")
    assert (en, de) == (expected.text("en"), expected.text("de"))
    assert key == (expected.message.key if isinstance(expected.message, Message) else None)


def test_move_texts_the_server_checks(client):
    created = create(client)
    path, token = f"/api/games/{created['id']}/move", created["token"]
    en, de, key = both(client, "POST", path, 400, json={"token": token, "move": " "})
    assert (en, key) == ("a move must be a non-empty notation string", "web.move_text")
    assert de == "ein Zug muss ein nicht leerer Text in Notation sein"
    en, de, key = both(client, "POST", path, 400, json={"token": token, "move": "a" * 81})
    assert (en, de, key) == ("a move is at most 80 characters", "ein Zug hat höchstens 80 Zeichen", "web.move_long")
    en, de, key = both(client, "POST", path, 400, json={"token": token, "move": "a1", "seat": "0"})
    assert en == "seat must be 0 or 1, not the text '0'"
    assert de == "seat muss 0 oder 1 sein, nicht der Text '0'"
    assert key == "web.seat_not_text"
    en, de, key = both(client, "POST", path, 401, json={"move": "a1"})
    assert (en, de) == ("this action needs your seat token", "dafür braucht es den Token deines Platzes")


def test_move_out_of_turn(client):
    created = create(client, opponent="friend", seat=0)
    joined = client.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"]}).json()
    game = joined["game"]
    waiting = joined["token"] if game["to_seat"] == 0 else created["token"]
    colour = game["to_move"]
    en, de, key = both(client, "POST", f"/api/games/{created['id']}/move", 409, json={"token": waiting, "move": "a1"})
    assert en == f"it is not your turn: {colour} is to move"
    assert de == f"du bist nicht am Zug: {GERMAN_COLOURS[colour]} ist am Zug"
    assert key == "web.not_your_turn"


def test_undo_in_a_finished_game(client):
    created = create(client)
    game_id, token = created["id"], created["token"]
    assert client.post(f"/api/games/{game_id}/move", json={"token": token, "move": "a1"}).status_code == 200
    assert client.post(f"/api/games/{game_id}/resign", json={"token": token, "seat": 0}).status_code == 200
    en, de, key = both(client, "POST", f"/api/games/{game_id}/undo", 409, json={"token": token})
    assert en == "the game is over: its moves can no longer be taken back"
    assert de == "die Partie ist beendet: ihre Züge können nicht mehr zurückgenommen werden"
    assert key == "web.undo_over"


def test_offer_errors(client):
    local = create(client)
    en, de, key = both(client, "POST", f"/api/games/{local['id']}/offer", 403,
                       json={"token": local["token"], "kind": "draw"})
    assert en == "takeback and draw offers are for online games; in a local game use undo"
    assert de.startswith("Zurücknahme- und Remisangebote gibt es nur in Online-Partien")
    assert key == "web.offers_online"
    en, de, key = both(client, "POST", f"/api/games/{local['id']}/offer", 400,
                       json={"token": local["token"], "kind": "peace"})
    assert (en, de, key) == ("kind must be \"takeback\" or \"draw\", not 'peace'",
                             "kind muss \"takeback\" oder \"draw\" sein, nicht 'peace'", "web.offer_kind")

    # Trike knows no draw: its title in the reader's language
    trike = create(client, opponent="friend", seat=0)
    client.post(f"/api/games/{trike['id']}/join", json={"invite": trike["invite"]})
    en, de, key = both(client, "POST", f"/api/games/{trike['id']}/offer", 409,
                       json={"token": trike["token"], "kind": "draw"})
    assert en == "Trike cannot end in a draw: there is no draw to offer"
    assert de == "Trike kann nicht remis enden: es gibt kein Remis anzubieten"
    assert key == "web.no_draws"

    online = create(client, "trigeo", opponent="friend", seat=0)
    game_id = online["id"]
    other = client.post(f"/api/games/{game_id}/join", json={"invite": online["invite"]}).json()["token"]
    en, de, key = both(client, "POST", f"/api/games/{game_id}/answer", 409, json={"token": other, "accept": True})
    assert (en, de, key) == ("there is no offer to answer", "es gibt kein Angebot zu beantworten", "web.no_offer_to_answer")
    assert client.post(f"/api/games/{game_id}/offer", json={"token": online["token"], "kind": "draw"}).status_code == 200
    en, de, key = both(client, "POST", f"/api/games/{game_id}/offer", 409, json={"token": online["token"], "kind": "draw"})
    assert (en, de, key) == ("your draw offer is still waiting for an answer",
                             "dein Remisangebot wartet noch auf eine Antwort", "web.pending_own_draw")
    en, de, key = both(client, "POST", f"/api/games/{game_id}/offer", 409, json={"token": other, "kind": "takeback"})
    assert en == "your opponent's draw offer is still waiting for an answer"
    assert de == "das Remisangebot deines Gegners wartet noch auf eine Antwort"
    en, de, key = both(client, "POST", f"/api/games/{game_id}/answer", 409,
                       json={"token": online["token"], "accept": True})
    assert en == "you cannot answer your own draw offer; you may withdraw it"
    assert de == "du kannst dein eigenes Remisangebot nicht beantworten; du darfst es zurückziehen"
    en, de, key = both(client, "POST", f"/api/games/{game_id}/withdraw", 409, json={"token": other})
    assert key == "web.withdraw_others" and de.startswith("nur wer das Angebot gemacht hat")


def test_bad_create_requests_in_german(client):
    en, de, key = both(client, "POST", "/api/games", 400, json={"game": "trike", "opponent": "cat"})
    assert en == "opponent must be hotseat, bot or friend, not 'cat'"
    assert de == "opponent muss hotseat, bot oder friend sein, nicht 'cat'"
    assert key == "web.choice"
    en, de, key = both(client, "POST", "/api/games", 400, json={"game": "trike", "seat": 7})
    assert en == "seat must be 0, 1 or \"random\", not '7'"
    assert de == "seat muss 0, 1 oder \"random\" sein, nicht '7'"
    en, de, key = both(client, "POST", "/api/games", 400, json={"game": "trike", "clock": {"minutes": 999}})
    assert (en, de) == ("clock minutes must be a number from 0 to 180", "clock minutes muss eine Zahl von 0 bis 180 sein")
    en, de, key = both(client, "POST", "/api/games", 400, json={"options": {}})
    assert en.startswith('name the game: {"game": "<name>", ...} (games: trike')
    assert de.startswith('nenne das Spiel: {"game": "<name>", ...} (Spiele: trike')


def test_too_many_requests_in_german(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="create=1/minute;move=off")
    with TestClient(app) as client:
        body = {"game": "trike", "options": {"size": 7}, "start": "fixed"}
        assert client.post("/api/games", json=body).status_code == 201
        english = client.post("/api/games", json=body)
        german = client.post("/api/games", json=body, headers=DE)
    assert english.status_code == german.status_code == 429
    assert english.json()["error"].startswith("too many new games from your address: at most 1 per 1 minute; try again in ")
    assert german.json()["error"].startswith("zu viele neue Partien von deiner Adresse: höchstens 1 pro 1 Minute; "
                                             "versuche es in ")
    assert german.json()["key"] == "web.too_many_create"


# ---------------------------------------------------------------------------- websocket
def test_websocket_errors_in_the_language_of_the_page(client):
    created = create(client)
    game_id, token = created["id"], created["token"]
    with client.websocket_connect(f"/ws/games/{game_id}?lang=de") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "dance", "ref": 1})
        reply = ws.receive_json()
        assert reply == {"type": "error", "status": 400, "ref": 1, "key": "web.unknown_type",
                         "error": "unbekannter Nachrichtentyp 'dance' (auth, ping, move, undo, resign, claim, offer, "
                                  "answer, withdraw, abort, berserk, chat, chat_history)"}
        ws.send_json({"type": "move", "token": token, "move": "z99", "ref": 2})
        reply = ws.receive_json()
        expected = engine_error("trike", {"size": 7}, [], "z99")
        assert reply["error"] == expected.text("de") and reply["status"] == 400
        ws.send_text("{")
        assert ws.receive_json()["error"] == "die Nachricht ist kein gültiges JSON"
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:  # no language asked for: English
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "auth", "token": "x" * 20, "ref": 3})
        assert ws.receive_json() == {"type": "error", "status": 403, "ref": 3, "key": "web.token_no_seat",
                                     "error": "the token does not hold a seat in this game"}
    with client.websocket_connect(f"/ws/games/{game_id}", headers=DE) as ws:  # the handshake's header
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "auth", "ref": 4})
        assert ws.receive_json()["error"] == "auth braucht einen Token"


def test_websocket_to_an_unknown_game(client):
    with client.websocket_connect("/ws/games/nosuchgame?lang=de") as ws:
        reply = ws.receive_json()
    assert reply == {"type": "error", "status": 404, "key": "web.no_game_id",
                     "error": "keine Partie mit der ID 'nosuchgame'"}


# ---------------------------------------------------------------------------- the roll for the first move
@pytest.mark.parametrize("rule", ["high", "low"])
def test_the_view_gives_the_start_roll_in_parts(client, rule):
    created = create(client, "trigeo", start=rule)
    game = created["game"]
    roll = game["start_roll"]
    assert roll["rule"] == rule
    colours = list(game_class("trigeo").colours)
    for pair in roll["rolls"]:
        assert [side["colour"] for side in pair] == colours
        assert all(isinstance(side["face"], int) and 1 <= side["face"] <= 6 for side in pair)
    *ties, last = roll["rolls"]
    assert all(a["face"] == b["face"] for a, b in ties) and last[0]["face"] != last[1]["face"]
    wins = last[0]["face"] > last[1]["face"] if rule == "high" else last[0]["face"] < last[1]["face"]
    assert game["options"]["first"] == (colours[0] if wins else colours[1])
    # the record's tag says the same, in the record's own words
    words = "; ".join(", ".join(f"{side['colour']} {side['face']}" for side in pair) for pair in roll["rolls"])
    assert game["tags"]["StartRoll"] == f"{rule}: {words}"
    assert "start_roll" in client.get("/api/i18n").json()["de"]
    assert create(client, "trigeo", start="fixed")["game"]["start_roll"] is None


def test_start_roll_view_reads_the_tag():
    assert start_roll_view({"StartRoll": "low: white 3, black 3; white 1, black 5"}) == {
        "rule": "low", "rolls": [[{"colour": "white", "face": 3}, {"colour": "black", "face": 3}],
                                 [{"colour": "white", "face": 1}, {"colour": "black", "face": 5}]]}
    for broken in ("", "middle: white 1, black 2", "high: white, black 2", "high"):
        assert start_roll_view({"StartRoll": broken}) is None
    assert start_roll_view({}) is None


def test_the_page_words_the_start_roll():
    from ludothek import i18n
    from ludothek.core.messages import fields

    assert fields(i18n.WEB["start_roll"]["en"]) == fields(i18n.WEB["start_roll"]["de"]) == {"rule", "rolls"}
    assert (i18n.WEB["rule_high"]["de"], i18n.WEB["rule_low"]["de"]) == ("hoch", "niedrig")


# ---------------------------------------------------------------------------- WebError itself
def test_web_error_carries_a_keyed_message():
    error = WebError(409, TEXTS("claim_wait", duration=TEXTS("duration_hours", n="5")))
    assert error.message == str(error) == "your opponent still has 5 hours to move"
    assert error.text("de") == "dein Gegner hat noch 5 Stunden Zeit für seinen Zug"
    assert error.key == "web.claim_wait"
    engine = ParseError(TEXTS("position_long"))
    wrapped = WebError(400, engine)
    assert wrapped.key == "web.position_long" and wrapped.text("de") == "die Stellung ist zu lang"
    plain = WebError(400, LudothekError("a plugin's own words"))
    assert plain.key is None and plain.text("de") == plain.message == "a plugin's own words"


# ---------------------------------------------------------------------------- the page (Chromium; skipped without it)
def test_the_german_page_words_the_start_roll_and_the_errors(page, server):
    httpx = pytest.importorskip("httpx")
    created = httpx.post(server + "/api/games", json={"game": "trigeo", "start": "high"}).json()
    game_id, roll = created["id"], created["game"]["start_roll"]
    page.goto(server + "/")
    page.evaluate("([id, token]) => { localStorage.setItem('ludothek.lang', 'de'); "
                  "localStorage.setItem(`ludothek.token.${id}`, token); }", [game_id, created["token"]])
    page.goto(f"{server}/play/{game_id}")
    page.wait_for_selector("#start-roll")

    def words(names):
        return "; ".join(", ".join(f"{names[side['colour']]} {side['face']}" for side in pair) for pair in roll["rolls"])

    german = words(GERMAN_COLOURS)
    assert page.locator("#start-roll").inner_text() == f"Wurf um den ersten Zug (hoch beginnt): {german}"
    # a move the game refuses, answered over HTTP in the page's language
    page.fill("#move-input", "zz9")
    page.press("#move-input", "Enter")
    expected = engine_error("trigeo", {}, [], "zz9").text("de")
    page.wait_for_function("text => document.querySelector('#error').textContent === text", arg=expected)
    # and over the websocket
    page.evaluate("() => window.ludothekGame.ws.send(JSON.stringify({type: 'dance'}))")
    page.wait_for_function("() => document.querySelector('#error').textContent.startsWith('unbekannter Nachrichtentyp')")
    page.click('[data-lang="en"]')
    page.wait_for_function("() => (document.querySelector('#start-roll') || {}).textContent?.startsWith('Roll')")
    english = words({"white": "White", "black": "Black"})
    assert page.locator("#start-roll").inner_text() == f"Roll for the first move (high starts): {english}"
