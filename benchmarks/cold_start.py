"""A cold start of ``ludothek serve``: with an empty kernel cache (a new folder, unless one is
given), when the address is shown, when the home page answers, when a game of every kind can be
created, when each game's ``bot:1`` has made its first move (after the human's first move if
the start roll gives it to him), the CPU time each of the server's processes has used by then
(Linux), and how long Ctrl-C takes to stop the server.

    python3 benchmarks/cold_start.py                 # a cold start
    python3 benchmarks/cold_start.py CACHE_FOLDER    # again with that folder: a warm start
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds_by_process(root: int) -> list[tuple[int, str, float]]:
    """(pid, role, CPU seconds) of process ``root`` and its descendants, read from ``/proc``."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents, found = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        found[pid] = (command, (int(fields[11]) + int(fields[12])) / ticks)
    family = {root}
    for _ in range(4):
        family |= {pid for pid, parent in parents.items() if parent in family}
    return [(pid, "server" if pid == root else found[pid][0][-60:], found[pid][1]) for pid in sorted(family)
            if pid in found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", nargs="?", help="the kernel cache folder (default: a new, empty one)")
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    cache = args.cache or tempfile.mkdtemp(prefix="ludothek-cold-")
    db = Path(tempfile.mkdtemp()) / "cold.sqlite3"
    started = time.monotonic()

    def at() -> str:
        return f"{time.monotonic() - started:6.1f} s"

    server = subprocess.Popen(
        [sys.executable, "-m", "ludothek.cli", "serve", "--port", str(args.port), "--db", str(db)],
        cwd=ROOT, env=dict(os.environ, NUMBA_CACHE_DIR=cache), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    threading.Thread(target=lambda: [print(f"[{at()}] {line.rstrip()}", flush=True) for line in server.stdout],
                     daemon=True).start()
    base = f"http://127.0.0.1:{args.port}"

    def call(method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(base + path, method=method, headers={"Content-Type": "application/json"},
                                         data=None if body is None else json.dumps(body).encode())
        return json.loads(urllib.request.urlopen(request, timeout=900).read())

    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=900).read()
            break
        except OSError:
            time.sleep(0.1)
    print(f"home page answered at {at()}", flush=True)
    catalog = call("GET", "/api/catalog")
    games = [entry["name"] for entry in (catalog["games"] if isinstance(catalog, dict) else catalog)]

    def play(game: str) -> None:
        created = call("POST", "/api/games", {"game": game, "opponent": "bot", "bot": "bot:1", "seat": 1})
        print(f"{game}: created at {at()}", flush=True)
        state = created["game"]
        if state["to_seat"] == 1:  # the human moves first: the bot answers
            state = call("POST", f"/api/games/{created['id']}/move",
                         {"token": created["token"], "move": state["moves"][0]["move"]})["game"]
        plies = state["plies"]
        while not (state["plies"] > plies and (state["to_seat"] == 1 or state["status"] != "ongoing")):
            time.sleep(0.1)
            state = call("GET", f"/api/games/{created['id']}")["game"]
        print(f"{game}: bot:1 moved at {at()}", flush=True)

    players = [threading.Thread(target=play, args=(game,)) for game in games]
    for player in players:
        player.start()
    for player in players:
        player.join()
    print(f"a game of every kind against bot:1 going at {at()}", flush=True)
    processes = cpu_seconds_by_process(server.pid)
    for pid, role, seconds in processes:
        print(f"    {seconds:6.1f} CPU s  {pid}  {role}")
    print(f"    {sum(seconds for _, _, seconds in processes):6.1f} CPU s  in all", flush=True)
    stopping = time.monotonic()
    server.send_signal(signal.SIGINT)
    server.wait(300)
    print(f"Ctrl-C stopped it in {time.monotonic() - stopping:.1f} s (exit status {server.returncode})", flush=True)


if __name__ == "__main__":
    main()
