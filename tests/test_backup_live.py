"""A backup of a live server under load keeps every move acknowledged before it began: players
move continuously in several games while `ludothek backup` runs; the backup, restored into a
fresh database and served by a fresh server, holds every such move (issue 33, item 5)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading

import pytest

from .servers import Server
from .test_backup import second_postgres  # noqa: F401 - a fixture: a second fresh PostgreSQL database

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

TABLES = 6  # games played at once
BOUND = 120.0  # seconds: a generous bound for waits on a busy machine, never a time to sleep


def ludothek(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludothek.cli", *args], capture_output=True, text=True,
                          timeout=BOUND, env={**os.environ, "LUDOTHEK_LANG": "en"}, check=False)


class Players:
    """One thread per table, each moving as fast as the server answers and starting a new game
    when one ends; every acknowledged move (HTTP 200) is appended to its game's list."""

    def __init__(self, base: str):
        self.base = base
        self.stop = threading.Event()
        self.acknowledged: dict[str, list[str]] = {}
        self.errors: list[str] = []
        self.moved = threading.Condition()
        self.threads = [threading.Thread(target=self._play, args=(seed,), daemon=True) for seed in range(TABLES)]
        for thread in self.threads:
            thread.start()

    def total(self) -> int:
        return sum(len(moves) for moves in self.acknowledged.values())

    def wait_for(self, count: int) -> None:
        with self.moved:
            assert self.moved.wait_for(lambda: self.total() >= count or self.errors, BOUND), self.total()
        assert not self.errors, self.errors

    def _play(self, seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=self.base, timeout=30) as client:
            while not self.stop.is_set():
                created = client.post("/api/games", json={"game": "trike", "options": {"size": 13}})
                if created.status_code not in (200, 201):
                    self.errors.append(f"new game: {created.status_code} {created.text[:200]}")
                    return
                game_id, token, state = created.json()["id"], created.json()["token"], created.json()["game"]
                with self.moved:
                    self.acknowledged[game_id] = []
                while not self.stop.is_set() and state["status"] == "ongoing":
                    move = rng.choice(state["moves"])["move"]
                    response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": move})
                    if response.status_code != 200:
                        self.errors.append(f"{game_id}: {response.status_code} {response.text[:200]}")
                        return
                    state = response.json()["game"]
                    with self.moved:
                        self.acknowledged[game_id].append(state["history"][-1]["text"])
                        self.moved.notify_all()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(BOUND)


def backup_under_load(db: str, target: str, tmp_path, extra: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Serve ``db``, play, back up while the moves go on, restore into ``target``; the moves
    acknowledged before the backup began, per game."""
    server = Server(db, "--bots", "thread", "--rate-limits", "off", *extra)
    try:
        players = Players(server.base)
        try:
            players.wait_for(60)
            with players.moved:  # what was acknowledged when the backup starts
                before = {game: list(moves) for game, moves in players.acknowledged.items()}
            made = ludothek("backup", "--db", db, str(tmp_path / "live.backup"))
            during = players.total() - sum(len(moves) for moves in before.values())
            players.wait_for(players.total() + 20)  # the server takes moves after the backup too
        finally:
            players.finish()
        assert not players.errors, players.errors
    finally:
        server.stop()
    assert made.returncode == 0, made.stderr
    assert "games" in made.stdout.strip().splitlines()[-1], made.stdout
    assert during > 0, "no move was acknowledged while the backup ran: it did not run under load"
    print(f"moves acknowledged while the backup ran: {during}; before: {sum(map(len, before.values()))}")
    restored = ludothek("restore", "--db", target, str(tmp_path / "live.backup"))
    assert restored.returncode == 0, restored.stderr
    return before


def check_restored(target: str, before: dict[str, list[str]], extra: tuple[str, ...] = ()) -> None:
    fresh = Server(target, "--bots", "thread", "--rate-limits", "off", *extra)
    try:
        with httpx.Client(base_url=fresh.base, timeout=30) as client:
            for game_id, moves in before.items():
                answer = client.get(f"/api/games/{game_id}")
                assert answer.status_code == 200, answer.text
                stored = [entry["text"] for entry in answer.json()["game"]["history"]]
                assert stored[:len(moves)] == moves, game_id
    finally:
        fresh.stop()


def test_a_backup_under_load_keeps_every_acknowledged_move_sqlite(tmp_path):
    db = str(tmp_path / "live.sqlite3")
    target = str(tmp_path / "restored.sqlite3")
    before = backup_under_load(db, target, tmp_path)
    assert sum(len(moves) for moves in before.values()) >= 60
    check_restored(target, before)


def test_a_backup_under_load_keeps_every_acknowledged_move_postgres(postgres_url, request, tmp_path):
    db, target = postgres_url, request.getfixturevalue("second_postgres")
    before = backup_under_load(db, target, tmp_path)
    check_restored(target, before)
