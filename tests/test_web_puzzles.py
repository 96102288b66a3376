"""Puzzles on the web (issue 31, item 2) through the HTTP API: a puzzle is shown without its
solution, the server checks the answer, an account's first answer rates both the account and
the puzzle as Glicko-2 says (and a second answer changes nothing), guests are not rated, the
daily puzzle is one a day, and hostile inputs get clean errors. On SQLite and PostgreSQL."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.core.registry import game_spec
from ludothek.ratings import Rating, rate_game
from ludothek.web import create_app
from ludothek.web.puzzles import daily

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


def solutions(game=GAME):
    return {p["id"]: p for p in game_spec(game).puzzle_set()["puzzles"]}


def wrong_move(view, puzzle):
    return next(m["move"] for m in view["moves"] if m["move"] not in puzzle["accepted"])


def test_a_puzzle_is_shown_without_its_solution(client):
    view = client.get(f"/api/puzzles/{GAME}/next").json()
    assert view["id"] in solutions() and view["moves"] and view["geometry"]["cells"]
    assert "solution" not in view and "accepted" not in view
    assert view["player"] is None  # a guest


def test_an_account_is_rated_by_its_first_answer_only(client):
    ann = Device(client)
    ann.signup("ann")
    first = ann.get(f"/api/puzzles/{GAME}/next").json()
    assert first["player"] == Rating().rounded()
    puzzle = solutions()[first["id"]]
    answer = ann.post(f"/api/puzzles/{GAME}/{first['id']}/answer", {"move": puzzle["solution"]})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    me, it = rate_game(Rating(), Rating(**first["rating"]), 1.0)
    assert data["correct"] is True and data["solution"] == puzzle["solution"]
    assert data["rated"]["after"] == me.rounded() and data["rated"]["puzzle"] == it.rounded()
    again = ann.post(f"/api/puzzles/{GAME}/{first['id']}/answer", {"move": puzzle["solution"]}).json()
    assert again["correct"] is True and again["rated"] is None  # the first try counts, once
    second = ann.get(f"/api/puzzles/{GAME}/next").json()
    assert second["id"] != first["id"] and second["player"] == me.rounded()
    wrong = wrong_move(second, solutions()[second["id"]])
    failed = ann.post(f"/api/puzzles/{GAME}/{second['id']}/answer", {"move": wrong}).json()
    after, _ = rate_game(me, Rating(**second["rating"]), 0.0)
    assert failed["correct"] is False and failed["rated"]["after"] == after.rounded()
    assert ann.get("/api/puzzles").json()["games"][[g["name"] for g in client.get("/api/puzzles").json()["games"]].index(GAME)]["rating"]["value"] == after.rounded()["value"]


def test_a_guest_is_told_right_or_wrong_but_not_rated(client):
    view = client.get(f"/api/puzzles/{GAME}/next").json()
    puzzle = solutions()[view["id"]]
    right = client.post(f"/api/puzzles/{GAME}/{view['id']}/answer", json={"move": puzzle["solution"]}).json()
    wrong = client.post(f"/api/puzzles/{GAME}/{view['id']}/answer", json={"move": wrong_move(view, puzzle)}).json()
    assert (right["correct"], wrong["correct"], right["rated"], wrong["rated"]) == (True, False, None, None)


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_day(client, clock):
    morning = client.get("/api/puzzles/daily").json()
    clock.now += 3600
    assert client.get("/api/puzzles/daily").json()["id"] == morning["id"]
    clock.now += 86400
    assert client.get("/api/puzzles/daily").json()["date"] != morning["date"]
    assert client.get("/api/puzzles").json()["daily"]["id"] == client.get("/api/puzzles/daily").json()["id"]
    import datetime
    days = {daily(datetime.date(2026, 1, 1) + datetime.timedelta(days=k)) for k in range(40)}
    assert len({g for g, _ in days}) >= 2 and len(days) >= 30


@pytest.mark.parametrize("path, status", [
    ("/api/puzzles/nogame/next", 404),
    ("/api/puzzles/nogame/abc", 404),
    (f"/api/puzzles/{GAME}/notapuzzle", 404),
    (f"/api/puzzles/{GAME}/{'x' * 5000}", 404),
    ("/api/puzzles/%00/next", 404),
    (f"/api/puzzles/{GAME}/%E2%80%AE%00", 404),
])
def test_unknown_games_and_puzzles_are_clean_404s(client, path, status):
    response = client.get(path)
    assert response.status_code == status and response.json()["error"]


def test_a_game_name_is_read_as_everywhere_in_the_api(client):
    assert client.get("/api/puzzles/TRIKE%20/next").json()["game"] == GAME  # case and spaces do not matter


@pytest.mark.parametrize("body", [
    {}, {"move": None}, {"move": 17}, {"move": ["a1"]}, {"move": ""}, {"move": "   "}, {"move": "zz99"},
    {"move": "x" * 500}, {"move": "\u0000"}, {"move": {"from": "a1"}},
])
def test_malformed_answers_are_clean_400s(client, body):
    view = client.get(f"/api/puzzles/{GAME}/next").json()
    response = client.post(f"/api/puzzles/{GAME}/{view['id']}/answer", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["error"]


def test_answers_that_are_not_json_objects_and_unknown_puzzles_are_refused(client):
    view = client.get(f"/api/puzzles/{GAME}/next").json()
    path = f"/api/puzzles/{GAME}/{view['id']}/answer"
    assert client.post(path, content=b"{not json", headers={"Content-Type": "application/json"}).status_code == 400
    assert client.post(path, content=b"[1, 2]", headers={"Content-Type": "application/json"}).status_code == 400
    assert client.post(f"/api/puzzles/{GAME}/nope/answer", json={"move": "a1"}).status_code == 404
    assert client.post(path, content=b'{"move": "' + b"a" * 20000 + b'"}',
                       headers={"Content-Type": "application/json"}).status_code == 413
    german = client.post(path, json={}, headers={"Accept-Language": "de"}).json()["error"]
    assert "Zug" in german


def test_puzzles_near_a_rating_are_many_not_the_same_few(client):
    seen = {client.get(f"/api/puzzles/{GAME}/next").json()["id"] for _ in range(40)}
    assert len(seen) > 12  # the set's first guesses tie: a guest does not see the same twelve again and again
