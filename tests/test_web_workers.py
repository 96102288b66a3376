"""`ludothek serve --workers N`: real worker processes behind one port on PostgreSQL. A worker
killed with SIGKILL while moves are in flight is replaced and loses no acknowledged move;
SIGTERM stops every worker gracefully (in-flight moves answered, websockets closed with 1012)
and within its bound; /metrics, summed over the workers, agrees with the load benchmark."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
pytest.importorskip("prometheus_client")

from .servers import READY_TIMEOUT, Server
from .test_web_operations import sample

ROOT = Path(__file__).resolve().parent.parent
TWO = "Ludothek's 2 workers are ready"
#: generous bounds for a busy two-core machine (not timings: the test waits on events up to them)
BOUND = 120.0


def start(db: str, *args: str) -> Server:
    return Server(db, "--workers", "2", "--bots", "thread", "--rate-limits", "off", *args, ready=TWO)


def worker_pids(server: Server) -> list[int]:
    line = next(line for line in server.output if line.startswith(TWO))
    return [int(pid) for pid in re.findall(r"\d+", line.split("pids", 1)[1])]


def wait_for_line(server: Server, prefix: str, bound: float = BOUND) -> str:
    until = time.monotonic() + bound
    while time.monotonic() < until:
        try:
            line = server.lines.get(timeout=1)
        except queue.Empty:
            continue
        if line is None:
            raise AssertionError("the server ended:\n" + "".join(server.output))
        if line.startswith(prefix):
            return line
    raise AssertionError(f"no line {prefix!r} within {bound:.0f} s:\n" + "".join(server.output))


def new_games(base: str, count: int) -> list[dict]:
    with httpx.Client(base_url=base, timeout=30) as client:
        return [new_game(client, threading.Event()) for _ in range(count)]


class Ledger:
    """The moves the server acknowledged, per game: (ply before the move, its notation)."""

    def __init__(self) -> None:
        self.acked: dict[str, list[tuple[int, str]]] = {}
        self.dropped = 0  # requests whose connection died before an answer
        self.failures: list[str] = []  # what went wrong in a client thread
        self.lock = threading.Lock()

    def guarded(self, target: Any, *args: Any) -> threading.Thread:
        def run() -> None:
            try:
                result = target(*args)
                if asyncio.iscoroutine(result):
                    asyncio.run(result)
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                self.failures.append(f"{type(exc).__name__}: {exc}")

        return threading.Thread(target=run, daemon=True)

    def ack(self, game_id: str, ply: int, text: str) -> None:
        with self.lock:
            self.acked.setdefault(game_id, []).append((ply, text))

    def total(self) -> int:
        with self.lock:
            return sum(len(moves) for moves in self.acked.values())

    def drop(self) -> None:
        with self.lock:
            self.dropped += 1


def http_player(base: str, game: dict, ledger: Ledger, stop: threading.Event, seed: int) -> None:
    """Moves over a new connection each time (so the requests spread over the workers); after a
    dropped connection it reads the game again and goes on; after a game's end, a new game."""
    rng = random.Random(seed)
    game_id, token, state = game["id"], game["token"], game["game"]
    with httpx.Client(base_url=base, timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as client:
        while not stop.is_set():
            if state["status"] != "ongoing":
                game = new_game(client, stop)
                if game is None:
                    return
                game_id, token, state = game["id"], game["token"], game["game"]
            text = rng.choice(state["moves"])["move"]
            ply = state["plies"]
            try:
                response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": text, "ply": ply})
            except httpx.HTTPError:
                ledger.drop()
                state = refetch(client, game_id, stop) or state
                continue
            if response.status_code == 200:
                state = response.json()["game"]
                ledger.ack(game_id, ply, text)
            elif response.status_code == 409:  # a move whose answer was lost was stored after all
                state = response.json()["game"]
            else:
                raise AssertionError(f"move answered {response.status_code}: {response.text}")


def new_game(client: Any, stop: threading.Event) -> dict | None:
    while not stop.is_set():
        try:
            response = client.post("/api/games", json={"game": "trike", "options": {"size": 13}, "start": "fixed"})
        except httpx.HTTPError:
            time.sleep(0.05)  # a worker starting again: not a hot loop
            continue
        assert response.status_code == 201, response.text
        return response.json()
    return None


def refetch(client: Any, game_id: str, stop: threading.Event) -> dict | None:
    while not stop.is_set():
        try:
            response = client.get(f"/api/games/{game_id}")
        except httpx.HTTPError:
            time.sleep(0.05)
            continue
        if response.status_code == 200:
            return response.json()["game"]
        time.sleep(0.05)  # a worker starting again: not a hot loop
    return None


async def ws_player(port: int, game: dict, ledger: Ledger, stop: threading.Event, seed: int) -> None:
    """Moves over a websocket (which stays with one worker); when it drops, reconnects; after a
    game's end, plays a new game."""
    rng = random.Random(seed)
    game_id, token = game["id"], game["token"]
    ref = 0
    while not stop.is_set():
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}") as ws:
                state = json.loads(await ws.recv())["game"]
                await ws.send(json.dumps({"type": "auth", "token": token}))
                state = json.loads(await ws.recv())["game"]
                while not stop.is_set() and state["status"] == "ongoing":
                    ref += 1
                    text, ply = rng.choice(state["moves"])["move"], state["plies"]
                    await ws.send(json.dumps({"type": "move", "token": token, "move": text, "ply": ply, "ref": ref}))
                    while True:
                        reply = json.loads(await ws.recv())
                        if reply["type"] == "state":
                            state = reply["game"]
                        elif reply.get("ref") == ref:
                            break
                    # the new state was published to this socket before the answer
                    assert reply["type"] == "ok", f"websocket move answered {reply}"
                    ledger.ack(game_id, ply, text)
            if not stop.is_set():
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                    game = await asyncio.to_thread(new_game, client, stop)
                if game is not None:
                    game_id, token = game["id"], game["token"]
        except (OSError, websockets.ConnectionClosed):
            ledger.drop()
            await asyncio.sleep(0.05)


def check_ledger(base: str, ledger: Ledger) -> int:
    """Every acknowledged move is in its game's stored history, at its ply."""
    checked = 0
    with httpx.Client(base_url=base, timeout=30) as client:
        for game_id, moves in ledger.acked.items():
            history = client.get(f"/api/games/{game_id}").json()["game"]["history"]
            for ply, text in moves:
                assert ply < len(history), f"game {game_id}: acknowledged move {text} (ply {ply}) is missing"
                assert history[ply]["text"] == text, f"game {game_id} ply {ply}: stored {history[ply]}, acked {text}"
                checked += 1
    return checked


def wait_until(predicate, bound: float = BOUND, detail: Any = str) -> None:
    until = time.monotonic() + bound
    while not predicate():
        if time.monotonic() > until:
            raise AssertionError(f"not reached within {bound:.0f} s")
        time.sleep(0.02)


def test_sigkill_of_a_worker_with_moves_in_flight_loses_no_acknowledged_move(postgres_url):
    server = start(postgres_url)
    ledger, stop = Ledger(), threading.Event()
    try:
        games = new_games(server.base, 6)
        threads = [ledger.guarded(http_player, server.base, g, ledger, stop, k) for k, g in enumerate(games[:4])]
        threads += [ledger.guarded(ws_player, server.port, g, ledger, stop, k) for k, g in enumerate(games[4:], 10)]
        for thread in threads:
            thread.start()
        wait_until(lambda: ledger.total() >= 60)
        killed: list[int] = []
        victim = worker_pids(server)[0]
        # kill a worker in the middle of the traffic, until a client saw a request die with it
        # (a request was in flight there); each time the supervisor must start a new worker
        for _ in range(4):
            dropped = ledger.dropped
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
            line = wait_for_line(server, "Ludothek worker ")  # "... died ..."
            assert str(victim) in line and "died" in line, line
            line = wait_for_line(server, "Ludothek worker ")  # "... is ready again (pid N)"
            new_pid = int(re.search(r"pid (\d+)", line).group(1))
            assert "ready again" in line and new_pid not in killed
            goal = ledger.total() + 40  # the moves go on
            wait_until(lambda goal=goal: ledger.total() >= goal, detail=lambda: f": {ledger.failures}")
            if ledger.dropped > dropped:
                break
            victim = new_pid
        assert ledger.dropped > 0, "no request was in flight at any kill"
        stop.set()
        for thread in threads:
            thread.join(BOUND)
        assert all(not thread.is_alive() for thread in threads)
        assert ledger.failures == []
        assert check_ledger(server.base, ledger) == ledger.total() >= 100
    finally:
        stop.set()
        server.stop()
    assert server.process.returncode == 0, "".join(server.output)


def test_sigterm_stops_every_worker_gracefully(postgres_url):
    server = start(postgres_url, "--shutdown-timeout", "20")
    pids = worker_pids(server)
    ledger, stop = Ledger(), threading.Event()
    codes: list[int] = []
    games = new_games(server.base, 4)

    async def watch(game_id: str, opened: list) -> None:
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}") as ws:
            opened.append(1)
            try:
                while True:
                    await ws.recv()
            except websockets.ConnectionClosed as closed:
                codes.append(closed.rcvd.code if closed.rcvd else -1)

    async def watchers() -> None:
        opened: list = []
        tasks = [asyncio.create_task(watch(games[k % 4]["id"], opened)) for k in range(8)]
        while len(opened) < 8:
            await asyncio.sleep(0.01)
        ready.set()
        await asyncio.gather(*tasks)

    ready = threading.Event()
    watching = threading.Thread(target=lambda: asyncio.run(watchers()), daemon=True)
    watching.start()
    players = [ledger.guarded(http_player, server.base, g, ledger, stop, k) for k, g in enumerate(games)]
    try:
        assert ready.wait(BOUND)
        for thread in players:
            thread.start()
        wait_until(lambda: ledger.total() >= 40)
        server.process.send_signal(signal.SIGTERM)  # with moves in flight
        assert server.process.wait(BOUND) == 0, "".join(server.output)
    finally:
        stop.set()
        server.kill()
    watching.join(BOUND)
    for thread in players:
        thread.join(BOUND)
    assert ledger.failures == []
    assert codes == [1012] * 8  # "service restart": the page reconnects
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
    again = Server(postgres_url, "--bots", "thread", "--rate-limits", "off")
    try:
        assert check_ledger(again.base, ledger) == ledger.total()
    finally:
        again.stop()


def test_ctrl_c_stops_the_supervisor_and_every_worker(postgres_url):
    server = start(postgres_url)
    pids = worker_pids(server)
    try:
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(BOUND) == 0, "".join(server.output)
    finally:
        server.kill()
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


def test_a_request_that_never_completes_does_not_hold_the_shutdown(tmp_path):
    server = Server(str(tmp_path / "s.sqlite3"), "--bots", "thread", "--shutdown-timeout", "1")
    with socket.create_connection(("127.0.0.1", server.port)) as half:
        half.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"game\":")
        with httpx.Client(base_url=server.base) as client:  # the half-sent request is being read
            assert client.get("/healthz").status_code == 200
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(BOUND)
        except subprocess.TimeoutExpired:
            server.kill()
            pytest.fail("the server still waited for the half-sent request")


def test_metrics_over_the_workers_agree_with_the_load_benchmark(postgres_url):
    server = start(postgres_url)
    try:
        before = httpx.get(f"{server.base}/metrics", timeout=30).text
        result = subprocess.run(  # noqa: PLW1510 - its return code is asserted below
            [sys.executable, str(ROOT / "benchmarks" / "web_load.py"), "--url", server.base, "--games", "6",
             "--seconds", "4", "--max-plies", "40", "--metrics"],
            capture_output=True, text=True, timeout=READY_TIMEOUT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert result.returncode == 0, result.stderr
        counted = dict(field.split("=", 1) for field in result.stdout.split())
        after = httpx.get(f"{server.base}/metrics", timeout=30).text
    finally:
        server.stop()

    def delta(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    moves, games = int(counted["moves"]), int(counted["games"])
    assert moves > 0 and int(counted["errors"]) == 0
    assert delta("ludothek_http_requests_total", route="/api/games/{id}/move", method="POST", status="200") == moves
    assert delta("ludothek_http_requests_total", route="/api/games", method="POST", status="201") == games
    assert delta("ludothek_move_seconds_count") == moves
    assert int(counted["metrics_moves"]) == moves and int(counted["metrics_games"]) == games
