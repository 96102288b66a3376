"""How fast a move made through one server reaches a websocket watcher on another.

Starts two ``ludothek serve`` processes on one PostgreSQL database (``--db``, e.g. the URL that
``scripts/postgres-cluster.sh start DIR`` prints), watches a game on server B and makes
``--moves`` moves through server A; prints the delay from sending each move until B's watcher
has the new state (that includes A's commit). Loopback only; bounded.

    python benchmarks/cross_server.py --db "postgresql+psycopg://root@/ludothek?host=/tmp/pg"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers import Server  # noqa: E402 - the same server starter as the tests


async def measure(a: str, b: str, moves: int) -> list[float]:
    async with httpx.AsyncClient(base_url=a, timeout=10) as client:
        created = (await client.post("/api/games", json={"game": "trike", "options": {"size": 13},
                                                        "start": "fixed"})).json()
        game_id, token, state = created["id"], created["token"], created["game"]
        delays = []
        async with websockets.connect(b.replace("http", "ws", 1) + f"/ws/games/{game_id}") as ws:
            await ws.recv()
            for k in range(moves):
                if state["status"] != "ongoing":
                    break
                await asyncio.sleep(0.02)
                sent = time.perf_counter()
                response = await client.post(f"/api/games/{game_id}/move", json={
                    "token": token, "move": state["moves"][k % len(state["moves"])]["move"]})
                response.raise_for_status()
                state = response.json()["game"]
                while json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["game"]["version"] < state["version"]:
                    pass
                delays.append(time.perf_counter() - sent)
        return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL")
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    servers = [Server(args.db, "--rate-limits", "off") for _ in range(2)]
    try:
        delays = asyncio.run(measure(servers[0].base, servers[1].base, max(1, min(args.moves, 80))))
    finally:
        for server in servers:
            server.stop()
    ms = sorted(d * 1000 for d in delays)
    print(f"moves={len(ms)} p50_ms={statistics.median(ms):.1f} max_ms={ms[-1]:.1f}")


if __name__ == "__main__":
    main()
