"""Durability: every acknowledged move survives a SIGKILL of ``ludothek serve``."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest

from .servers import Server

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")


def test_acknowledged_moves_survive_sigkill(tmp_path):
    db = str(tmp_path / "durable.sqlite3")
    server = Server(db, "--bots", "thread", "--rate-limits", "off")
    base = server.base
    acknowledged: dict[str, list[str]] = {}
    stop = threading.Event()
    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            games = []
            for _ in range(4):
                created = client.post("/api/games", json={"game": "trike", "options": {"size": 13}}).json()
                games.append((created["id"], created["token"], created["game"]))
                acknowledged[created["id"]] = []

        def player(game_id: str, token: str, state: dict, seed: int) -> None:
            rng = random.Random(seed)
            with httpx.Client(base_url=base, timeout=10) as client:
                while not stop.is_set() and state["status"] == "ongoing":
                    choice = rng.choice(state["moves"])["move"]
                    try:
                        response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": choice})
                    except httpx.HTTPError:
                        return  # the server died mid-request: this move was never acknowledged
                    if response.status_code != 200:
                        return
                    state = response.json()["game"]
                    acknowledged[game_id].append(state["history"][-1]["text"])

        threads = [threading.Thread(target=player, args=(g, t, s, k)) for k, (g, t, s) in enumerate(games)]
        for thread in threads:
            thread.start()
        deadline = time.time() + 20
        while time.time() < deadline and sum(len(v) for v in acknowledged.values()) < 40:
            time.sleep(0.05)
        os.kill(server.pid, signal.SIGKILL)  # in the middle of the traffic
        server.process.wait(10)
        stop.set()
        for thread in threads:
            thread.join(15)
        assert sum(len(v) for v in acknowledged.values()) >= 10
    finally:
        stop.set()
        server.kill()

    again = Server(db, "--bots", "thread", "--rate-limits", "off", port=server.port)
    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            for game_id, moves in acknowledged.items():
                stored = [h["text"] for h in client.get(f"/api/games/{game_id}").json()["game"]["history"]]
                # every acknowledged move is there, in order; at most one more (committed, not yet answered)
                assert stored[: len(moves)] == moves
                assert len(stored) - len(moves) <= 1
    finally:
        again.stop()
