"""Load benchmark for ``ludothek serve`` on loopback: many concurrent games, moves/s, latency.

Starts its own server (a temporary SQLite file) unless ``--url`` names a running one, which must
be on this machine (loopback). Every loop is bounded by ``--seconds`` and ``--max-moves``.

    python benchmarks/web_load.py --games 50 --seconds 20
    python benchmarks/web_load.py --games 20 --game trigeo --watchers 1

Prints one summary line: ``games=… moves=… moves_per_s=… p50_ms=… p99_ms=… errors=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def loopback_only(url: str) -> None:
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise SystemExit(f"refusing to load {host!r}: this benchmark only talks to loopback addresses")


def start_server(db: str, sync: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "ludothek.cli", "serve", "--port", str(port), "--db", db, "--sqlite-sync", sync],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(url + "/api/catalog", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


async def watcher(url: str, game_id: str, stop: asyncio.Event, counter: list[int]) -> None:
    import websockets

    ws_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
    try:
        async with websockets.connect(ws_url, max_size=2**22) as ws:
            while not stop.is_set():
                try:
                    message = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                if json.loads(message).get("type") == "state":
                    counter[0] += 1
    except Exception:  # noqa: BLE001 - the benchmark goes on without this watcher
        return


async def player(client: httpx.AsyncClient, args, rng: random.Random, deadline: float, latencies: list[float],
                 counts: dict[str, int], stop: asyncio.Event, url: str, pushed: list[int]) -> None:
    while time.time() < deadline and counts["moves"] < args.max_moves:
        options = {"size": args.size} if args.game == "trike" else {}
        response = await client.post("/api/games", json={"game": args.game, "options": options, "start": "fixed"})
        if response.status_code != 201:
            counts["errors"] += 1
            return
        created = response.json()
        counts["games"] += 1
        game_id, token, state = created["id"], created["token"], created["game"]
        watchers = [asyncio.create_task(watcher(url, game_id, stop, pushed)) for _ in range(args.watchers)]
        plies = 0
        while state["status"] == "ongoing" and plies < args.max_plies and time.time() < deadline \
                and counts["moves"] < args.max_moves:
            move = rng.choice(state["moves"])["move"]
            started = time.perf_counter()
            response = await client.post(f"/api/games/{game_id}/move", json={"token": token, "move": move})
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200:
                counts["errors"] += 1
                break
            state = response.json()["game"]
            counts["moves"] += 1
            plies += 1
        for task in watchers:
            task.cancel()


async def run(args, url: str) -> dict:
    latencies: list[float] = []
    counts = {"games": 0, "moves": 0, "errors": 0}
    pushed = [0]
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=args.games + 4, max_keepalive_connections=args.games + 4)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        await client.get("/api/catalog")
        started = time.perf_counter()
        deadline = time.time() + args.seconds
        await asyncio.gather(*(player(client, args, random.Random(seed), deadline, latencies, counts, stop, url, pushed)
                               for seed in range(args.games)))
        elapsed = time.perf_counter() - started
        stop.set()
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else 0.0
    return {
        "games": counts["games"], "moves": counts["moves"], "seconds": round(elapsed, 2),
        "moves_per_s": round(counts["moves"] / elapsed, 1), "p50_ms": round(pick(0.50), 1),
        "p99_ms": round(pick(0.99), 1), "mean_ms": round(statistics.fmean(latencies) * 1000, 1) if latencies else 0.0,
        "errors": counts["errors"], "ws_pushes": pushed[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20, at most 300)")
    parser.add_argument("--max-moves", type=int, default=20000, help="stop after this many moves in all")
    parser.add_argument("--max-plies", type=int, default=200, help="start a new game after this many plies")
    parser.add_argument("--game", default="trike")
    parser.add_argument("--size", type=int, default=13, help="Trike board size")
    parser.add_argument("--watchers", type=int, default=0, help="websocket spectators per game")
    parser.add_argument("--url", help="a running server on loopback, e.g. http://127.0.0.1:8000")
    parser.add_argument("--sqlite-sync", choices=["full", "normal"], default="full",
                        help="the started server's SQLite sync mode (default full)")
    parser.add_argument("--db", help="database for the server this script starts (default: a temporary SQLite file)")
    args = parser.parse_args()
    args.games = max(1, min(args.games, 1000))
    args.seconds = max(1.0, min(args.seconds, 300.0))
    process = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            loopback_only(args.url)
            url = args.url.rstrip("/")
        else:
            process, url = start_server(args.db or str(Path(tmp) / "load.sqlite3"), args.sqlite_sync)
        try:
            result = asyncio.run(run(args, url))
        finally:
            if process is not None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
    print(" ".join(f"{k}={v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
