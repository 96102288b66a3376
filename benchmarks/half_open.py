"""How long a server holds half-sent requests (issue 33, item 6). Loopback only.

Starts ``ludothek serve`` from the code on ``PYTHONPATH`` (a temporary SQLite file; ``--serve``
adds options, e.g. ``--serve "--header-timeout 10 --body-timeout 30"``), or uses a server
started by hand (``--url``). Opens ``--connections`` connections at once: half send a request
line and one header and stop, half send a login POST's headers with ``Content-Length: 1000`` and
ten bytes of its body and stop. Then it asks for ``/api/catalog`` as a normal client would, and
watches the half-sent connections for ``--observe`` seconds: when each one is closed by the
server (what it answered first, if anything), and how many file descriptors the server
process holds (from /proc, for a server it started).

    PYTHONPATH=$PWD python benchmarks/half_open.py
    PYTHONPATH=/work/main python benchmarks/half_open.py --observe 45   # another checkout: before

Prints one line per second (``open=… server_fds=…``) and a summary: ``closed=N/M`` with the
seconds until the first and the last close, the answers (``408``…), and the normal request's
status and time.
"""

from __future__ import annotations

import argparse
import os
import selectors
import shlex
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.servers import Server

PARTIAL_HEADERS = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Never-Ends: "
PARTIAL_BODY = (b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: 1000\r\n\r\n{\"name\": \"")


def fds_of(pid: int | None) -> int | None:
    if pid is None:
        return None
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def run(host: str, port: int, pid: int | None, args: argparse.Namespace) -> None:
    base = f"http://{host}:{port}"
    fds_before = fds_of(pid)
    began = time.monotonic()
    selector = selectors.DefaultSelector()
    opened: dict[socket.socket, bytes] = {}
    for k in range(args.connections):
        sock = socket.create_connection((host, port), timeout=10)
        sock.sendall(PARTIAL_HEADERS if k % 2 == 0 else PARTIAL_BODY)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        opened[sock] = b""
    opened_in = time.monotonic() - began
    asked = time.monotonic()
    try:
        status = httpx.get(f"{base}/api/catalog", timeout=30).status_code
    except httpx.HTTPError as exc:
        status = type(exc).__name__
    normal = time.monotonic() - asked
    print(f"opened {args.connections} half-sent connections in {opened_in:.2f} s; "
          f"normal request: {status} in {normal * 1000:.0f} ms; server_fds={fds_before}→{fds_of(pid)}")
    closes: list[float] = []
    firsts: Counter[str] = Counter()
    next_line = began + 1
    while opened and time.monotonic() - began < args.observe:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, BlockingIOError):
                chunk = b""
            if chunk:
                opened[sock] += chunk
                continue
            answer = opened.pop(sock)
            firsts[answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1 ") else "nothing"] += 1
            closes.append(time.monotonic() - began)
            selector.unregister(sock)
            sock.close()
        if time.monotonic() >= next_line:
            print(f"  t={time.monotonic() - began:5.1f} s  open={len(opened)}  server_fds={fds_of(pid)}")
            next_line += 1
    summary = f"closed={len(closes)}/{args.connections}"
    if closes:
        summary += f" first={min(closes):.2f}s last={max(closes):.2f}s answers={dict(firsts)}"
    if opened:
        summary += f" still_open_after={args.observe:.0f}s={len(opened)}"
    print(summary + f" normal_status={status} normal_ms={normal * 1000:.0f}")
    for sock in opened:
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--observe", type=float, default=45.0, help="seconds to watch (default 45)")
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--serve", default="", help="more options for the server this starts")
    args = parser.parse_args()
    if args.url:
        parts = urlsplit(args.url)
        run(parts.hostname, parts.port or 80, None, args)
        return
    with tempfile.TemporaryDirectory() as folder:
        server = Server(str(Path(folder) / "bench.sqlite3"), "--bots", "thread", *shlex.split(args.serve))
        try:
            run("127.0.0.1", server.port, server.pid, args)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
