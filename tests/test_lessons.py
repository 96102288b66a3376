"""Lessons (issue 31, item 1): every game's lesson data checked against its engine, and the
/api/lessons routes: the server judges each try (the engine's reason for a refused move, in the
page's language), keeps an account's progress, takes a guest's progress over at login, and the
last step starts a game against bot:1."""

from __future__ import annotations

import copy
import warnings

import pytest

import ludothek
from ludothek.core.registry import game_spec
from ludothek.web import lessons
from ludothek.web.boards import adapter

pytest.importorskip("starlette")
pytest.importorskip("httpx")
argon2 = pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.web import create_app

FAST = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
DE = {"Accept-Language": "de"}
GAMES = [name for name in ludothek.games() if game_spec(name).lessons]


# ---------------------------------------------------------------------------- the data
def test_the_four_games_have_lessons():
    assert {"trike", "trigeo", "hexalit", "bitis"} <= set(GAMES)
    assert lessons.games_with_lessons() == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_lessons_agree_with_the_engine(game):
    assert lessons.problems(game) == []


@pytest.mark.parametrize("game", GAMES)
def test_a_short_path_ending_with_a_game_against_bot_1(game):
    steps = lessons.lessons_of(game)
    assert 5 <= len(steps) <= 9
    assert steps[-1]["kind"] == "play" and steps[-1]["bot"] == "bot:1"
    assert all(step.get("kind") != "play" for step in steps[:-1])


@pytest.mark.parametrize("game", GAMES)
def test_every_anticipated_wrong_try_is_refused_or_no_answer(game):
    ad = adapter(game)
    for step in lessons.lessons_of(game)[:-1]:
        state = lessons.step_state(game, step)
        solving = set(lessons.answers(state, step, ad))
        assert solving, step["id"]
        for move in step.get("wrong", ()):
            answer = lessons.judge(game, step, {"move": move}, "de")
            assert answer["ok"] is False, (step["id"], move)
            assert answer["error"] and answer["hint"] == step["hint"]["de"]
        # a step that asks for a capture, a win or given moves is a real choice
        if step["goal"].get("kind") not in ("any", "roll") and "from" not in step["goal"]:
            assert len(solving) < len(state.legal_moves()), step["id"]


def test_the_checks_find_broken_lessons(monkeypatch):
    """The data checks can fail: a position that does not parse, an answer the engine refuses,
    a wrong try that solves the step, a missing German text."""
    steps = copy.deepcopy(list(lessons.lessons_of("trigeo")))
    steps[0]["position"] = "9/3K7/3b9/13/11 w -"
    steps[1]["goal"] = {"moves": ["C5XD5"]}
    steps[2]["wrong"] = ["C9°D12"]
    del steps[3]["hint"]["de"]
    monkeypatch.setattr(lessons, "lessons_of", lambda game: tuple(steps))
    found = "\n".join(lessons.problems("trigeo"))
    assert "the-one': its position does not set up" in found
    assert "the answer 'C5XD5' is refused" in found
    assert "the wrong try 'C9°D12' solves it" in found
    assert "jump-fields': hint needs an English and a German text" in found


# ---------------------------------------------------------------------------- the routes
@pytest.fixture()
def client(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off",
                     warm=False, password_hasher=FAST)
    with TestClient(app) as test_client:
        yield test_client


def test_a_refused_try_says_why_in_the_pages_language(client):
    # the 2 on C5 tries to capture straight ahead
    answer = client.post("/api/lessons/trigeo/the-two", json={"from": "C5", "to": "D5"}, headers=DE).json()
    assert answer["ok"] is False and answer["legal"] is False
    assert "eine 2 zieht ein Feld geradeaus" in answer["error"]
    assert answer["hint"].startswith("Geradeaus ist versperrt")
    english = client.post("/api/lessons/trigeo/the-two", json={"from": "C5", "to": "D5"}).json()
    assert "captures only diagonally forward" in english["error"]
    # a legal move that is not what the step asks
    answer = client.post("/api/lessons/trigeo/promotion", json={"move": "E5XF5"}).json()
    assert answer == {"ok": False, "legal": True, "error": "E5XF5 is a legal move, but not what this step asks for",
                      "hint": lessons.step_of("trigeo", "promotion")["hint"]["en"]}
    # two legal moves fit the clicks: the page asks which
    choices = client.post("/api/lessons/trigeo/promotion", json={"from": "E5", "to": "F5"}).json()["choices"]
    assert sorted(c["move"] for c in choices) == ["E5XF5", "E5XF5=6"]


def test_the_eins_gebot_and_rolls(client):
    answer = client.post("/api/lessons/hexalit/eins-gebot", json={"from": "B5", "to": None}).json()
    assert answer["ok"] is False and "Eins-Gebot" in answer["error"]
    answer = client.post("/api/lessons/hexalit/roll", json={"from": "A7", "to": None}, headers=DE).json()
    assert "A7 zeigt die einzige 1 von Weiß" in answer["error"]
    answer = client.post("/api/lessons/hexalit/roll", json={"from": "B5", "to": None}).json()
    assert answer["ok"] is True and answer["move"] == "B5W"
    assert answer["board"]["dice"]["B5"]["temporary"] is True  # the server rolled
    assert answer["progress"] is None  # a guest: the page keeps it


def test_a_solved_step_answers_the_board_after_it(client):
    answer = client.post("/api/lessons/hexalit/temporary-face", json={"from": "C5", "to": "F5"}).json()
    assert answer["ok"] is True and answer["move"] == "C5°F5"
    assert answer["board"]["dice"]["F5"] == {"face": 2, "colour": "white"}  # turned back to 2
    assert answer["done_text"].startswith("Captured")
    answer = client.post("/api/lessons/trike/pie-rule", json={"move": "swap"}).json()
    assert answer["ok"] is True and answer["board"]["swapped"] is True
    answer = client.post("/api/lessons/bitis/which-die", json={"from": "5,4", "to": "6,4"}).json()
    assert answer["ok"] is False and "placed last" in answer["error"]
    answer = client.post("/api/lessons/trike/straight-lines", json={"from": None, "to": "g2"}).json()
    assert "cannot reach it in a straight line" in answer["error"]


def test_bad_requests_are_clear(client):
    assert client.get("/api/lessons/chess").status_code == 404
    missing = client.post("/api/lessons/trike/nope", json={"move": "a1"})
    assert missing.status_code == 404 and "no lesson step 'nope'" in missing.json()["error"]
    assert client.post("/api/lessons/trike/first-stone", json={}).status_code == 400
    assert client.post("/api/lessons/trike/first-stone", json={"move": 5}).status_code == 400
    assert client.post("/api/lessons/trike/first-game", json={"move": "a1"}).status_code == 400
    assert client.post("/api/lessons/trike/first-stone/play", json={}).status_code == 400
    assert client.post("/api/lessons/progress", json={"progress": {}}).status_code == 401


def test_progress_belongs_to_the_account_and_a_guests_is_handed_over(client):
    listing = client.get("/api/lessons").json()
    assert [g["name"] for g in listing["games"]][:1] and listing["progress"] is None
    me = client.post("/api/signup", json={"name": "learner", "password": "a long table top"}).json()
    client.headers["X-CSRF-Token"] = me["csrf"]
    solved = client.post("/api/lessons/trike/pie-rule", json={"move": "swap"}).json()
    assert solved["progress"] == {"trike": ["pie-rule"]}
    handed = client.post("/api/lessons/progress", json={"progress": {
        "trike": ["first-stone", "no-such-step"], "bitis": ["open"], "chess": ["x"]}}).json()
    assert handed["progress"] == {"trike": ["first-stone", "pie-rule"], "bitis": ["open"]}
    assert client.post("/api/lessons/progress", json={"progress": ["trike"]}).status_code == 400
    assert client.get("/api/lessons/trike").json()["progress"]["trike"] == ["first-stone", "pie-rule"]
    # the last step: a game against bot:1, and the step is done
    created = client.post("/api/lessons/trike/first-game/play", json={})
    assert created.status_code == 201
    body = created.json()
    assert body["game"]["game"] == "trike" and body["game"]["options"]["size"] == 9
    assert body["seats"] == [0] and body["game"]["seats"][1] == {"kind": "bot", "agent": "bot:1"}
    assert "first-game" in body["progress"]["trike"]
