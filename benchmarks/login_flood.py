"""How long a correct login from an unrelated address waits while a flood of failed logins
from many addresses fills the password-hashing queue (issue 30, item 3). Loopback only.

Starts ``ludothek serve`` from the code on ``PYTHONPATH`` (a temporary SQLite file, default
argon2 parameters and login limits), signs up one account, then, ``--rounds`` times: sends
``--per-address`` wrong-password logins (unknown names, under every limit) from each of
``--addresses`` loopback source addresses (127.0.0.10, .11, ...) at once, waits ``--delay``
seconds and logs in correctly from 127.0.0.200, timing that login alone (and once before
any flood, for comparison). Every request is
bounded by ``--timeout`` seconds.

    PYTHONPATH=$PWD python benchmarks/login_flood.py
    python benchmarks/login_flood.py --url http://127.0.0.1:8765  # a server started by hand, e.g.
        # from another checkout (an older one may compile its kernels longer than we wait here)

Prints one line per round and a summary: ``login_ms=… status=… flood=…`` (the flood's answers
by status).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers import Server  # noqa: E402

PASSWORD = "a long and quiet evening"
UNRELATED = "127.0.0.200"


async def login(base: str, source: str, name: str, password: str, timeout: float) -> tuple[int, float]:
    """(status, seconds) of one login from a loopback source address (599: no answer in time)."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=timeout) as client:
        began = time.perf_counter()
        try:
            response = await client.post("/api/login", json={"name": name, "password": password})
        except httpx.TimeoutException:
            return 599, time.perf_counter() - began
        return response.status_code, time.perf_counter() - began


async def one_round(base: str, number: int, args: argparse.Namespace) -> tuple[int, float, Counter]:
    flood = [asyncio.create_task(login(base, f"127.0.0.{10 + a}", f"nobody{number}x{a}x{k}", "wrong password",
                                       args.timeout))
             for a in range(args.addresses) for k in range(args.per_address)]
    await asyncio.sleep(args.delay)  # the flood is in the queue by now
    status, seconds = await login(base, UNRELATED, "bench", PASSWORD, args.timeout)
    answers = Counter(status for status, _ in await asyncio.gather(*flood))
    return status, seconds, answers


async def measure(base: str, args: argparse.Namespace) -> list[float]:
    async with httpx.AsyncClient(base_url=base, timeout=args.timeout) as client:
        created = await client.post("/api/signup", json={"name": "bench", "password": PASSWORD})
        assert created.status_code == 201, created.text
    status, quiet = await login(base, UNRELATED, "bench", PASSWORD, args.timeout)
    print(f"no flood: login_ms={quiet * 1000:.0f} status={status}", flush=True)
    times = []
    for number in range(args.rounds):
        status, seconds, answers = await one_round(base, number, args)
        times.append(seconds)
        print(f"round {number + 1}: login_ms={seconds * 1000:.0f} status={status} "
              f"flood={dict(sorted(answers.items()))}", flush=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--addresses", type=int, default=40, help="flooding loopback addresses (at most 180)")
    parser.add_argument("--per-address", type=int, default=3, help="wrong logins per address and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds between the flood and the login")
    parser.add_argument("--url", help="a running server on this machine (loopback) instead of a new one")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds any one request may take")
    args = parser.parse_args()
    if not 1 <= args.addresses <= 180 or not 1 <= args.per_address <= 10 or not 1 <= args.rounds <= 20:
        parser.error("keep it small: 1-180 addresses, 1-10 logins each, 1-20 rounds")
    if args.url:
        if urlsplit(args.url).hostname not in ("127.0.0.1", "localhost"):
            parser.error("--url must be a loopback address: the flood comes from 127.0.0.x")
        times = asyncio.run(measure(args.url.rstrip("/"), args))
        report(times)
        return
    with tempfile.TemporaryDirectory() as folder:
        server = Server(str(Path(folder) / "flood.sqlite3"), "--rate-limits", "off")
        try:
            times = asyncio.run(measure(server.base, args))
        finally:
            server.stop()
    report(times)


def report(times: list[float]) -> None:
    print(f"summary: rounds={len(times)} median_login_ms={statistics.median(times) * 1000:.0f} "
          f"max_login_ms={max(times) * 1000:.0f}")


if __name__ == "__main__":
    main()
