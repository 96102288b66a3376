"""Load benchmark for ``ludothek serve`` on loopback: many concurrent games, moves/s, latency.

Starts its own server (a temporary SQLite file, rate limits and the websocket cap off) unless ``--url`` names a
running one, which must be on this machine (loopback). Every loop is bounded by ``--seconds``
and ``--max-moves``. Players think ``--think`` seconds on average (exponentially distributed;
0 = closed loop, each player moves again as soon as the answer arrives).

    taskset -c 1 python benchmarks/web_load.py --games 200 --seconds 20 --server-cpu 0
    taskset -c 1 python benchmarks/web_load.py --games 1000 --think 1 --seconds 30 --server-cpu 0
    python benchmarks/web_load.py --db postgresql://… --workers 2 --metrics   # several server processes
    taskset -c 1 python benchmarks/web_load.py --games 50 --seconds 10 --server-cpu 0 --compare-chat

``--chat-every 10``: each player also sends a chat message (over its game's websocket) every ten
moves; ``--compare-chat`` runs twice against the same server, without chat and then with one
message per ``--chat-every`` moves (default 10), and prints both lines and their ratio (in both
runs each game keeps its players' websocket open, as a browser does: only the chat differs).

The client speaks HTTP/1.1 over one keep-alive connection per player with asyncio streams
(a full HTTP client costs more CPU than the server it measures). A dropped connection or a
bad answer is counted as an error and the player reconnects. Prints one summary line:
``offered_per_s=… moves_per_s=… p50_ms=… p99_ms=… errors=…``.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

try:
    import orjson

    loads, dumps = orjson.loads, orjson.dumps
except ImportError:  # pragma: no cover
    loads, dumps = json.loads, lambda value: json.dumps(value).encode()


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


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time so far of a process and its descendants (Linux: the workers of
    ``--workers N``), to report CPU per move: on a shared, noisy machine it varies far less
    than moves per second."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    for child in children(pid):
        total += cpu_seconds(child) or 0.0
    return total


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            pass
    return found


def start_server(db: str, sync: str, cpu: str | None, workers: int | None = None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [sys.executable, "-m", "ludothek.cli", "serve", "--port", str(port), "--db", db,
               "--sqlite-sync", sync, "--rate-limits", "off", "--chat-limits", "off", "--max-websockets", "0"]  # one address, many watchers
    if workers is not None:
        command += ["--workers", str(workers)]
    # several workers: ready when the supervisor says all are
    ready = "Ludothek is ready" if (workers or 1) == 1 else "workers are ready"
    if cpu is not None:
        command = ["taskset", "-c", cpu, *command]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    for line in process.stdout:
        if ready in line or time.time() > deadline:
            break
    else:
        raise SystemExit("the server did not start")
    return process, url


MOVE_OK = ("/api/games/{id}/move", "POST", "200")
CREATED = ("/api/games", "POST", "201")


def scrape(url: str) -> dict[tuple[str, str, str], float]:
    """The server's request counts by (route, method, status), from its /metrics."""
    from urllib.request import urlopen

    from prometheus_client.parser import text_string_to_metric_families

    with urlopen(url + "/metrics", timeout=30) as answer:
        text = answer.read().decode()
    counts = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "ludothek_http_requests_total":
                counts[sample.labels["route"], sample.labels["method"], sample.labels["status"]] = sample.value
    return counts


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.answered = False

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        payload = dumps(body) if body is not None else b""
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\n\r\n").encode()
        reused = self.writer is not None
        try:
            return await self._exchange(head + payload)
        except ConnectionError:
            if not reused or self.answered:
                raise
        # the server closed an idle keep-alive connection before reading the request (as a
        # browser does, send it again on a new connection)
        return await self._exchange(head + payload)

    async def _exchange(self, data: bytes) -> tuple[int, bytes]:
        self.answered = False
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        try:
            self.writer.write(data)
            header = await self.reader.readuntil(b"\r\n\r\n")
            self.answered = True
            status = int(header[9:12])
            length = 0
            for line in header.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            return status, await self.reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            self.close()
            raise ConnectionError("the connection dropped") from None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


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
                if loads(message).get("type") == "state":
                    counter[0] += 1
    except Exception:  # noqa: BLE001 - the benchmark goes on without this watcher
        return


class ChatSocket:
    """The players' chat of one game: a websocket that holds the seat's token, sends a message
    now and then and reads whatever comes (states, its own messages pushed back)."""

    def __init__(self, url: str, game_id: str, token: str, counts: dict):
        self.url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}"
        self.token, self.counts = token, counts
        self.ws = None
        self.reader: asyncio.Task | None = None

    async def open(self) -> None:
        import websockets

        self.ws = await websockets.connect(self.url, max_size=2**22)
        await self.ws.send(dumps({"type": "auth", "token": self.token}).decode())
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                data = loads(message)
                if data.get("type") == "chat":
                    self.counts["chat_pushed"] += len(data["messages"])
                elif data.get("type") == "error":
                    count_error(self.counts, f"chat: {data.get('error')}")
        except Exception:  # noqa: BLE001 - closed
            return

    async def say(self, text: str) -> None:
        try:
            await self.ws.send(dumps({"type": "chat", "text": text, "ref": "c"}).decode())
            self.counts["chat_sent"] += 1
        except Exception:  # noqa: BLE001 - counted, the game goes on
            count_error(self.counts, "chat: connection dropped")

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()


def count_error(counts: dict, kind: str) -> None:
    counts["errors"] += 1
    kinds = counts.setdefault("kinds", {})
    kinds[kind] = kinds.get(kind, 0) + 1


async def player(args, host: str, port: int, rng: random.Random, deadline: float, latencies: list[float],
                 counts: dict[str, int], stop: asyncio.Event, url: str, pushed: list[int], ready: list[int],
                 start: asyncio.Event) -> None:
    connection = Connection(host, port)
    options = {"size": args.size} if args.game == "trike" else {}
    first = True
    while time.time() < deadline and counts["moves"] < args.max_moves:
        try:
            status, body = await connection.request(
                "POST", "/api/games", {"game": args.game, "options": options, "start": "fixed"})
        except ConnectionError:
            count_error(counts, "create: connection dropped")
            await asyncio.sleep(0.1)
            continue
        if status != 201:
            count_error(counts, f"create: HTTP {status} {body[:80]!r}")
            await asyncio.sleep(0.1)
            continue
        created = loads(body)
        counts["games"] += 1
        game_id, token, state = created["id"], created["token"], created["game"]
        if first:  # every game exists before the measured window opens
            first = False
            ready.append(1)
            await start.wait()
            deadline = start.deadline
            if args.think:  # spread the first moves over one think time
                await asyncio.sleep(rng.uniform(0, args.think))
        watchers = [asyncio.create_task(watcher(url, game_id, stop, pushed)) for _ in range(args.watchers)]
        chat = None
        if args.chat_every or args.compare_chat:  # both runs of a comparison keep the game's socket open
            chat = ChatSocket(url, game_id, token, counts)
            try:
                await chat.open()
            except Exception:  # noqa: BLE001
                count_error(counts, "chat: cannot connect")
                chat = None
        plies, done = 0, False
        while state["status"] == "ongoing" and plies < args.max_plies and time.time() < deadline \
                and counts["moves"] < args.max_moves:
            if args.think:
                pause = rng.expovariate(1 / args.think)
                if time.time() + pause >= deadline:
                    done = True
                    break
                await asyncio.sleep(pause)
            move = rng.choice(state["moves"])["move"]
            counts["offered"] += 1
            started = time.perf_counter()
            try:
                status, body = await connection.request("POST", f"/api/games/{game_id}/move",
                                                         {"token": token, "move": move})
            except ConnectionError:
                count_error(counts, "move: connection dropped")
                break
            latencies.append(time.perf_counter() - started)
            if status != 200:
                count_error(counts, f"move: HTTP {status} {body[:80]!r}")
                break
            state = loads(body)["game"]
            counts["moves"] += 1
            plies += 1
            if chat is not None and args.chat_every and plies % args.chat_every == 0:
                await chat.say(f"move {plies}: {move} <b>not bold</b>")
        for task in watchers:
            task.cancel()
        if chat is not None:
            await chat.close()
        if done:
            break
    connection.close()


async def run(args, url: str) -> dict:
    latencies: list[float] = []
    counts = {"games": 0, "moves": 0, "offered": 0, "errors": 0, "chat_sent": 0, "chat_pushed": 0}
    pushed = [0]
    stop = asyncio.Event()
    parsed = urlparse(url)
    ready: list[int] = []
    start = asyncio.Event()
    start.deadline = time.time() + 120 + args.seconds  # type: ignore[attr-defined]
    players = asyncio.gather(*(player(args, parsed.hostname, parsed.port, random.Random(seed), start.deadline,
                                      latencies, counts, stop, url, pushed, ready, start)
                               for seed in range(args.games)))
    while len(ready) < args.games and time.time() < start.deadline - args.seconds and not players.done():
        await asyncio.sleep(0.05)
    counts["games_made_before"] = counts["games"]
    started = time.perf_counter()
    start.deadline = time.time() + args.seconds  # type: ignore[attr-defined]
    start.set()
    await players
    elapsed = max(args.seconds, time.perf_counter() - started) if args.think else time.perf_counter() - started
    stop.set()
    latencies.sort()

    def pick(q: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000, 1) if latencies else 0.0

    for kind, number in sorted(counts.get("kinds", {}).items(), key=lambda item: -item[1])[:5]:
        print(f"error x{number}: {kind}", file=sys.stderr)
    return {
        "games": counts["games"], "moves": counts["moves"], "seconds": round(elapsed, 2),
        "offered_per_s": round(counts["offered"] / elapsed, 1), "moves_per_s": round(counts["moves"] / elapsed, 1),
        "p50_ms": pick(0.50), "p90_ms": pick(0.90), "p99_ms": pick(0.99), "max_ms": pick(1.0),
        "errors": counts["errors"], "ws_pushes": pushed[0], "chat_every": args.chat_every,
        "chat_sent": counts["chat_sent"], "chat_pushed": counts["chat_pushed"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50, at most 2000)")
    parser.add_argument("--think", type=float, default=0.0, help="mean think time per move in seconds (default 0)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20, at most 300)")
    parser.add_argument("--max-moves", type=int, default=1_000_000, help="stop after this many moves in all")
    parser.add_argument("--max-plies", type=int, default=200, help="start a new game after this many plies")
    parser.add_argument("--game", default="trike")
    parser.add_argument("--size", type=int, default=13, help="Trike board size")
    parser.add_argument("--watchers", type=int, default=0, help="websocket spectators per game")
    parser.add_argument("--url", help="a running server on loopback, e.g. http://127.0.0.1:8000")
    parser.add_argument("--sqlite-sync", choices=["full", "normal"], default="full",
                        help="the started server's SQLite sync mode (default full)")
    parser.add_argument("--db", help="database for the server this script starts (default: a temporary SQLite file)")
    parser.add_argument("--server-cpu", help="pin the started server to these CPUs (taskset -c), e.g. 0")
    parser.add_argument("--workers", type=int, help="the started server's --workers (PostgreSQL for more than 1)")
    parser.add_argument("--chat-every", type=int, default=0,
                        help="each player sends a chat message every N moves (0: no chat; 10 is the issue's load)")
    parser.add_argument("--compare-chat", action="store_true",
                        help="run twice on one server: without chat, then with --chat-every (default 10); print the ratio")
    parser.add_argument("--metrics", action="store_true",
                        help="scrape the server's /metrics before and after and print what it counted: "
                             "metrics_moves (moves answered 200) and metrics_games (games created)")
    args = parser.parse_args()
    args.games = max(1, min(args.games, 2000))
    args.seconds = max(1.0, min(args.seconds, 300.0))
    args.think = max(0.0, args.think)
    process = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            loopback_only(args.url)
            url = args.url.rstrip("/")
        else:
            process, url = start_server(args.db or str(Path(tmp) / "load.sqlite3"), args.sqlite_sync, args.server_cpu,
                                        args.workers)
        try:
            scraped = scrape(url) if args.metrics else None
            if args.compare_chat:
                every = args.chat_every or 10
                args.chat_every = 0
                plain = asyncio.run(run(args, url))
                print(" ".join(f"{k}={v}" for k, v in plain.items()))
                args.chat_every = every
            before = cpu_seconds(process.pid) if process is not None else None
            result = asyncio.run(run(args, url))
            if args.compare_chat and plain["moves_per_s"]:
                result["ratio_moves_per_s_chat_vs_none"] = round(result["moves_per_s"] / plain["moves_per_s"], 3)
                result["p50_ratio"] = round(result["p50_ms"] / plain["p50_ms"], 3) if plain["p50_ms"] else None
            if scraped is not None:
                now = scrape(url)
                for name, key in (("metrics_moves", MOVE_OK), ("metrics_games", CREATED)):
                    result[name] = round(now.get(key, 0) - scraped.get(key, 0))
            after = cpu_seconds(process.pid) if process is not None else None
            if before is not None and after is not None and result["moves"]:
                result["server_cpu_us_per_move"] = round((after - before) / result["moves"] * 1e6)
        finally:
            if process is not None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
    print(" ".join(f"{k}={v}" for k, v in result.items()))
    sys.stdout.flush()
    os._exit(0)  # do not wait for sockets the server already closed


if __name__ == "__main__":
    main()
