"""A move names the ply it answers: of many requests sent at once for one seat, each with the
ply its client saw, exactly one is applied — on one server with SQLite and across two servers
on one PostgreSQL database — even against a bot fast enough to reply in between."""

from __future__ import annotations

import random
import threading

import pytest

httpx = pytest.importorskip("httpx")

from .servers import ONE_PROCESS, Server

REQUESTS = 30


@pytest.fixture(params=["sqlite", "postgres"])
def bases(request, tmp_path):
    """The base URLs the requests are spread over: one SQLite server, or two on PostgreSQL."""
    if request.param == "sqlite":
        db, count = str(tmp_path / "web.sqlite3"), 1
    else:
        pytest.importorskip("psycopg")
        db, count = request.getfixturevalue("postgres_url"), 2
    started: list[Server] = []
    try:
        for _ in range(count):
            started.append(Server(db, *ONE_PROCESS, "--bots", "thread", "--rate-limits", "off"))
        yield [server.base for server in started]
    finally:
        for server in started:
            server.stop()


def test_of_many_moves_for_one_ply_exactly_one_is_applied(bases):
    created = httpx.post(f"{bases[0]}/api/games", timeout=30, json={
        "game": "trike", "options": {"size": 9}, "start": "fixed", "opponent": "bot", "bot": "random", "seat": 0})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    seen = created.json()["game"]
    assert seen["to_seat"] == 0 and seen["plies"] == 0
    moves = [m["move"] for m in seen["moves"]]
    rng = random.Random(7)
    requests = [rng.choice(moves) for _ in range(REQUESTS)]
    answers: list[tuple[str, int, dict]] = []
    barrier = threading.Barrier(REQUESTS)

    def send(k: int, text: str) -> None:
        with httpx.Client(base_url=bases[k % len(bases)], timeout=60) as client:
            barrier.wait()
            response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": text, "ply": 0})
            answers.append((text, response.status_code, response.json()))

    threads = [threading.Thread(target=send, args=(k, text)) for k, text in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(answers) == REQUESTS
    accepted = [(text, body) for text, status, body in answers if status == 200]
    refused = [body for _, status, body in answers if status != 200]
    assert len(accepted) == 1, answers
    assert all(status == 409 for _, status, _ in answers if status != 200), answers
    # a refusal after the game moved on carries the game as it is then
    assert all(body["game"]["plies"] >= 1 for body in refused if body["key"] == "web.stale_ply")
    text, body = accepted[0]
    final = httpx.get(f"{bases[-1]}/api/games/{game_id}", timeout=30).json()["game"]
    history = [h["text"] for h in final["history"]]
    assert history[0] == text and body["game"]["history"][0]["text"] == text
    # the human moved once: everything after ply 1 is the bot's (at most one reply, as it waits for the human)
    assert len(history) <= 2, history
