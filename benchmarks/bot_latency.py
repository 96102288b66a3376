"""How long a cheap bot's reply takes while other games wait for strong bots.

Starts ``ludothek serve`` (a temporary SQLite file) and opens ``--busy`` Trigeo games against
``--busy-bot`` (default ten games against bot:5, each bot to move, so the slow workers stay
busy); then plays ``--moves`` moves of a Trike game against ``--bot`` (default random) and
measures, for each of them, the time from sending the move until the bot's reply is stored and
pushed over the game's websocket. Loopback only; every loop is bounded.

    python benchmarks/bot_latency.py --busy 10 --bot random
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers import Server  # noqa: E402 - the same server starter as the tests


async def measure(base: str, args) -> list[float]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for _ in range(args.busy):
            response = await client.post("/api/games", json={
                "game": "trigeo", "start": "fixed", "opponent": "bot", "bot": args.busy_bot, "seat": 1})
            response.raise_for_status()
        created = (await client.post("/api/games", json={
            "game": "trike", "options": {"size": 13}, "start": "fixed", "opponent": "bot", "bot": args.bot})).json()
        game_id, token = created["id"], created["token"]
        delays: list[float] = []
        async with websockets.connect(base.replace("http", "ws", 1) + f"/ws/games/{game_id}") as ws:
            view = json.loads(await ws.recv())["game"]
            for _ in range(args.moves):
                if view["status"] != "ongoing":
                    break
                move = view["moves"][len(delays) % len(view["moves"])]["move"]
                sent = time.perf_counter()
                response = await client.post(f"/api/games/{game_id}/move", json={"token": token, "move": move})
                response.raise_for_status()
                mine = response.json()["game"]["version"]
                while True:  # the bot's reply: a state newer than my own move
                    view = json.loads(await asyncio.wait_for(ws.recv(), timeout=60))["game"]
                    if view["version"] > mine or view["status"] != "ongoing":
                        break
                delays.append(time.perf_counter() - sent)
        return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=10, help="games against the strong bot (default 10)")
    parser.add_argument("--busy-bot", default="bot:5")
    parser.add_argument("--bot", default="random", help="the bot whose replies are timed (default random)")
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    args.busy, args.moves = max(0, min(args.busy, 50)), max(1, min(args.moves, 200))
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "bots.sqlite3"), "--rate-limits", "off", "--max-bot-games", "0")
        try:
            delays = asyncio.run(measure(server.base, args))
        finally:
            server.stop()
    delays_ms = sorted(d * 1000 for d in delays)
    print(f"busy={args.busy}x{args.busy_bot} bot={args.bot} replies={len(delays_ms)} "
          f"p50_ms={statistics.median(delays_ms):.1f} max_ms={delays_ms[-1]:.1f}")


if __name__ == "__main__":
    main()
