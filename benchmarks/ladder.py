"""The bots' ladder: `ludothek match` runs whose table goes into docs/LADDER.md.

Each rung is one `ludothek match` command (paired openings, seats exchanged; score, 95%
interval, Elo). Results are kept in benchmarks/ladder-results.json as they come, so a long
ladder can be run a few rungs at a time (a run skips the rungs already measured with the
same command) and the page is written from whatever is measured so far.

    python benchmarks/ladder.py --list                # the rungs and which are measured
    python benchmarks/ladder.py --only trigeo         # measure the missing trigeo rungs
    python benchmarks/ladder.py --only "trike bot:5"  # rungs whose command contains this
    python benchmarks/ladder.py --write               # only write docs/LADDER.md

Pinning: the matches run under `taskset -c 0-(W-1)` with W worker processes, one per core;
nothing else should run meanwhile (a shared machine makes equal-time matches unfair).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "ladder-results.json"
PAGE = ROOT / "docs" / "LADDER.md"
GAMES = 200  # per rung: the issue asks for at least 200

#: (title, game, agent A, agent B, extra options); A is the stronger side expected
#: The equal-time rungs give both sides 0.1 s a move: 200 games at 1 s would take hours on two cores.
EQUAL_TIME = ["--seconds-per-move", "0.1"]
RUNGS: list[tuple[str, str, str, str, list[str]]] = [
    ("new bot:5 vs today's bot:5, 0.1 s a move each", "trigeo", "bot:5", "alphabeta-py", EQUAL_TIME),
    ("new bot:5 vs today's bot:5, 0.1 s a move each", "hexalit", "bot:5", "alphabeta-py", EQUAL_TIME),
    ("new bot:5 vs today's bot:5, 0.1 s a move each", "trike", "bot:5", "mcts_old", EQUAL_TIME),
] + [
    (f"bot:{level} vs bot:{level - 1}", game, f"bot:{level}", f"bot:{level - 1}", [])
    for game in ("trike", "trigeo", "hexalit", "bitis") for level in range(2, 6)
]


def command(game: str, a: str, b: str, extra: list[str], games: int, workers: int) -> list[str]:
    return ["ludothek", "match", game, a, b, "-n", str(games), "--workers", str(workers), *extra, "--json"]


def shown(argv: list[str], workers: int) -> str:
    return f"taskset -c 0-{workers - 1} " + " ".join(shlex.quote(part) for part in argv)


def load() -> dict[str, dict]:
    return json.loads(RESULTS.read_text()) if RESULTS.exists() else {}


def measure(selected: list[tuple], games: int, workers: int) -> None:
    results = load()
    for title, game, a, b, extra in selected:
        argv = command(game, a, b, extra, games, workers)
        key = shown(argv, workers)
        if key in results:
            print(f"measured already: {key}")
            continue
        print(f"running: {key}", flush=True)
        started = time.time()
        run = subprocess.run(["taskset", "-c", f"0-{workers - 1}", *argv], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            raise SystemExit(f"failed: {key}")
        outcome = json.loads(run.stdout)
        outcome.update(title=title, wall_seconds=round(time.time() - started), command=key)
        results[key] = outcome
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        print(f"  score {outcome['score']:.3f}, Elo {outcome['elo']:+.0f}", flush=True)


def interval(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "–"
    return f"{low:+.0f} … {high:+.0f}"


def write() -> None:
    results = load()
    lines = [
        "# The bots' ladder",
        "",
        "Measured with `benchmarks/ladder.py` (each row's command reproduces it; the results are in",
        "`benchmarks/ladder-results.json`). Every match pairs its openings and exchanges the seats; the",
        "score is the first agent's, with its 95% interval, and the Elo difference follows from it.",
        "",
        "| game | match | games | score (95% CI) | Elo (95% CI) | command |",
        "|------|-------|------:|----------------|--------------|---------|",
    ]
    for outcome in results.values():
        low, high = outcome["ci95"]
        lines.append(
            f"| {outcome['game']} | {outcome['title']} | {outcome['games']} | {outcome['score']:.3f} "
            f"({low:.3f} … {high:.3f}) | {outcome['elo']:+.0f} ({interval(*outcome['elo_ci95'])}) | "
            f"`{outcome['command']}` |")
    missing = [f"{game}: {a} vs {b}" for _, game, a, b, extra in RUNGS
               if not any(r["game"] == game and r["a"] == a and r["b"] == b for r in results.values())]
    if missing:
        lines += ["", "Not measured yet: " + "; ".join(missing) + "."]
    PAGE.write_text("\n".join(lines) + "\n")
    print(f"wrote {PAGE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="measure the rungs whose command contains this text")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="list the rungs")
    parser.add_argument("--write", action="store_true", help="only write the page")
    args = parser.parse_args()
    if args.list:
        results = load()
        for title, game, a, b, extra in RUNGS:
            key = shown(command(game, a, b, extra, args.games, args.workers), args.workers)
            print(("done " if key in results else "todo ") + key)
        return
    if not args.write:
        selected = [rung for rung in RUNGS
                    if not args.only or args.only in " ".join([rung[1], rung[2], rung[3], *rung[4]])]
        measure(selected, args.games, args.workers)
    write()


if __name__ == "__main__":
    main()
