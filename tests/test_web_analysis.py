"""The computer analysis of finished games over the JSON API (issue 12, item 7): only for a
finished game, computed in the bot pool, stored, and never computed twice."""

from __future__ import annotations

import random
import threading
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sqlalchemy import create_engine, text

from ludothek.ai.review import FORMAT_VERSION
from ludothek.core.registry import game_class
from ludothek.web import bots, create_app
from ludothek.web.store import database_url

#: Trike, Black to move: a1 wins at once, d4 lets White win with c3
TRIKE_CHOICE = "1/bW/ww1/bwb1/1bbw1/2wbw1/5b1 b"


@pytest.fixture()
def calls(monkeypatch):
    """Every analysis job the pool ran, with the thread that ran it."""
    seen: list[dict] = []
    compute = bots.compute_review

    def counted(args):
        seen.append({"span": list(args["span"]), "thread": threading.current_thread().name})
        return compute(args)

    monkeypatch.setattr(bots, "compute_review", counted)
    return seen


def app_for(db_url):
    return create_app(db_url, bot_executor="thread", rate_limits="off", warm=False)


def finished_trike(client, moves=("d4", "c3")):
    created = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed",
                                              "position": TRIKE_CHOICE}).json()
    game_id, token = created["id"], created["token"]
    for move in moves:
        answer = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": move})
        assert answer.status_code == 200, answer.text
    return game_id, token


def wait_done(client, game_id, timeout=120):
    deadline = time.monotonic() + timeout
    seen = set()
    while time.monotonic() < deadline:
        answer = client.get(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 200, answer.text
        data = answer.json()
        seen.add(data["status"])
        if data["status"] in ("done", "failed"):
            return data, seen
        assert data["status"] in ("queued", "running") and data["total"] == 2
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {game_id} was not done after {timeout} s")


def test_analysis_of_a_finished_game_runs_in_the_pool_and_is_stored(db_url, calls):
    app = app_for(db_url)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed",
                                                  "position": TRIKE_CHOICE}).json()
        game_id = created["id"]
        # not before the end
        refused = client.post(f"/api/games/{game_id}/analysis")
        assert refused.status_code == 409 and refused.json()["key"] == "analysis.not_over"
        german = client.post(f"/api/games/{game_id}/analysis", headers={"Accept-Language": "de"})
        assert german.status_code == 409 and "läuft noch" in german.json()["error"]
        assert client.get(f"/api/games/{game_id}/analysis").json() == {"status": "none", "over": False}
        assert client.post("/api/games/nosuchgame/analysis").status_code == 404
        for move in ("d4", "c3"):
            client.post(f"/api/games/{game_id}/move", json={"token": created["token"], "move": move})
        assert client.get(f"/api/games/{game_id}").json()["game"]["status"] == "over"
        assert client.get(f"/api/games/{game_id}/analysis").json() == {"status": "none", "over": True}
        # started: anybody who sees the game may ask; asking again while it runs starts nothing new
        started = client.post(f"/api/games/{game_id}/analysis")
        assert started.status_code in (200, 202)
        assert started.json()["status"] in ("queued", "running", "done")
        client.post(f"/api/games/{game_id}/analysis")
        data, _ = wait_done(client, game_id)
        assert data["status"] == "done", data
        analysis = data["analysis"]
        assert analysis["game"] == "trike" and analysis["agent"] == "mcts"
        assert [e["ply"] for e in analysis["entries"]] == [1, 2]
        first = analysis["entries"][0]
        assert (first["move"], first["mark"], first["best"], first["eval"]) == ("d4", "blunder", "a1", -1.0)
        # computed once, by a worker of the pool's slow lane, not on the event loop
        assert len(calls) == 1 and calls[0]["span"] == [0, 2]
        assert calls[0]["thread"].startswith("ludothek-bot-slow")
        assert app.state.service.analyses.started == 1
        # asked again: the stored analysis, nothing computed
        again = client.post(f"/api/games/{game_id}/analysis")
        assert again.status_code == 200 and again.json() == data
        assert len(calls) == 1 and app.state.service.analyses.started == 1
    # stored: another server on the same database answers at once, without computing
    with TestClient(app_for(db_url)) as client:
        assert client.get(f"/api/games/{game_id}/analysis").json() == data
        assert client.post(f"/api/games/{game_id}/analysis").json() == data
    assert len(calls) == 1
    engine = create_engine(database_url(db_url))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT game_id, format, plies FROM analyses")).all()
        assert rows == [(game_id, FORMAT_VERSION, 2)]
    finally:
        engine.dispose()


def test_a_long_game_is_analysed_in_parts_with_progress(tmp_path, calls, monkeypatch):
    """Each part is a job of its own: bot moves of other players get their turn between them."""
    from ludothek.web import analysis

    monkeypatch.setattr(analysis, "SPAN", 3)
    with TestClient(app_for(str(tmp_path / "parts.sqlite3"))) as client:
        created = client.post("/api/games", json={"game": "trike", "options": {"size": 7},
                                                  "start": "fixed"}).json()
        game_id, token = created["id"], created["token"]
        state, rng = game_class("trike")(size=7), random.Random(0)
        while state.ply < 7:
            state.play(rng.choice(state.legal_actions()))
        assert not state.is_over()
        for move in state.move_texts:
            assert client.post(f"/api/games/{game_id}/move", json={"token": token, "move": move}).status_code == 200
        assert client.post(f"/api/games/{game_id}/resign", json={"token": token, "seat": 0}).status_code == 200
        client.post(f"/api/games/{game_id}/analysis")
        deadline = time.monotonic() + 120
        progress = []
        while time.monotonic() < deadline:
            data = client.get(f"/api/games/{game_id}/analysis").json()
            if data["status"] == "done":
                break
            progress.append(data.get("done"))
            time.sleep(0.02)
        assert data["status"] == "done", data
        assert [c["span"] for c in calls] == [[0, 3], [3, 6], [6, 7]]
        assert [e["ply"] for e in data["analysis"]["entries"]] == list(range(1, 8))
        assert progress == sorted(progress)


def test_a_failed_analysis_says_so_and_may_be_asked_again(tmp_path, monkeypatch):
    def broken(args):
        raise RuntimeError("no luck")

    monkeypatch.setattr(bots, "compute_review", broken)
    with TestClient(app_for(str(tmp_path / "failed.sqlite3"))) as client:
        game_id, _ = finished_trike(client)
        client.post(f"/api/games/{game_id}/analysis")
        data, _ = wait_done(client, game_id)
        assert data["status"] == "failed" and "failed" in data["error"]
        german = client.get(f"/api/games/{game_id}/analysis", headers={"Accept-Language": "de"}).json()
        assert "fehlgeschlagen" in german["error"]
        monkeypatch.undo()
        assert client.post(f"/api/games/{game_id}/analysis").json()["status"] in ("queued", "running", "done")
        data, _ = wait_done(client, game_id)
        assert data["status"] == "done"


def test_a_game_resigned_before_any_ply_has_nothing_to_analyse(tmp_path):
    with TestClient(app_for(str(tmp_path / "empty.sqlite3"))) as client:
        created = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed"}).json()
        resigned = client.post(f"/api/games/{created['id']}/resign", json={"token": created["token"], "seat": 0})
        assert resigned.status_code == 200, resigned.text
        refused = client.post(f"/api/games/{created['id']}/analysis")
        assert refused.status_code == 409 and refused.json()["key"] == "analysis.no_plies"


def test_the_best_move_as_an_arrow_and_the_expected_line_on_the_board(db_url):
    """Issue 31: every analysed position has its best move as board cells, and its expected
    line can be played on the board, one board per ply, through the game's own rules."""
    with TestClient(app_for(db_url)) as client:
        game_id, _ = finished_trike(client)
        assert client.get(f"/api/games/{game_id}/analysis/line?ply=0").status_code == 404  # nothing yet
        client.post(f"/api/games/{game_id}/analysis")
        data, _ = wait_done(client, game_id)
        analysis = data["analysis"]
        # the start: Black's winning move a1, a placement on one cell
        assert analysis["start"]["next_best"] == "a1" and analysis["start"]["arrow"] == ["a1"]
        assert analysis["start"]["win"] == 100.0
        first = analysis["entries"][0]
        assert first["next_best"] == "c3" and first["arrow"] == ["c3"] and first["win"] == 0.0
        assert first["loss"] == 100.0 and first["mark"] == "blunder"
        line = client.get(f"/api/games/{game_id}/analysis/line?ply=1").json()
        assert line["ply"] == 1 and line["line"][0] == "c3"
        step = line["steps"][0]
        assert step["move"].startswith("c3") and step["last"]["cells"] == ["c3"]
        assert step["board"] != client.get(f"/api/games/{game_id}?at=1").json()["game"]["board"]
        for bad in ("x", "7", ""):
            answer = client.get(f"/api/games/{game_id}/analysis/line?ply={bad}")
            assert answer.status_code == 400 and "'ply' must be a whole number from 0 to 2" in answer.json()["error"]
