"""The bots' ladder: `ludothek match` runs whose table goes into docs/LADDER.md.

Each rung is one `ludothek match` command (paired openings, seats exchanged; score, 95%
interval, Elo). Results are kept in benchmarks/ladder-results.json as they come, so a long
ladder can be run a few rungs at a time (a run skips the rungs already measured with the
same command) and the page is written from whatever is measured so far.

    python benchmarks/ladder.py --list                # the rungs and which are measured
    python benchmarks/ladder.py --only trigeo         # measure the missing trigeo rungs
    python benchmarks/ladder.py --only "trike bot:5"  # rungs whose command contains this
    python benchmarks/ladder.py --write               # only write docs/LADDER.md

The rungs of levels 6-8 think for a time: run them on cores nothing else uses, e.g.
`python benchmarks/ladder.py --only "bot:6 bot:5" --workers 2` (about 2 hours on two cores for the
four games), then "bot:7 bot:6" (about 8 hours) and "bot:8 bot:7" (about 1.5 days).

A rung too long for one sitting can be played in parts: `--parts 10` plays it as 10 matches of
20 games (`--seed 1` ... `--seed 10`: other openings each), keeps each part in
benchmarks/ladder-parts.json as it ends, and skips the parts already there (with today's
levels) when run again. Once every part is in, the rung's result is their sum. Stopping the
run loses only the part being played.

    python benchmarks/ladder.py --only "trike bot:7 bot:6" --workers 2 --parts 10

Pinning: the matches run under `taskset -c F-(F+W-1)` with W worker processes, one per core
from core F (`--first-core`, default 0); nothing else should run on those cores meanwhile (a
shared machine makes equal-time matches unfair; node budgets play the same games anyway).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

from ludothek.ai.levels import level_of
from ludothek.ai.stats import MatchStats

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "ladder-results.json"
PARTS = ROOT / "benchmarks" / "ladder-parts.json"
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
    for game in ("trike", "trigeo", "hexalit", "bitis") for level in range(2, 9)
]


def command(game: str, a: str, b: str, extra: list[str], games: int, workers: int) -> list[str]:
    return ["ludothek", "match", game, a, b, "-n", str(games), "--workers", str(workers), *extra, "--json"]


def cores(workers: int, first: int) -> str:
    return f"{first}-{first + workers - 1}"


def shown(argv: list[str], workers: int, first: int = 0) -> str:
    return f"taskset -c {cores(workers, first)} " + " ".join(shlex.quote(part) for part in argv)


def load(path: Path = RESULTS) -> dict[str, dict]:
    return json.loads(path.read_text()) if path.exists() else {}


def levels(game: str, agents: tuple[str, ...], timed: bool) -> dict[str, str]:
    """What the ``bot:N`` among ``agents`` are today (only the algorithm when the match sets the
    time per move; the shipped net's digest for a level that plays it): a result measured with
    other levels is stale."""
    found = {}
    for agent in agents:
        if agent.startswith("bot:"):
            level = level_of(game, int(agent[4:]))
            found[agent] = level.algorithm if timed else f"{level.algorithm} {level.budget.describe()}"
            if level.algorithm == "alphabeta_net":
                found[agent] += f", net {net_digest(game)}"
    return found


def net_digest(game: str) -> str:
    """The first hex digits of the SHA-256 of the game's shipped net (ludothek/games/GAME/net.npz)."""
    return hashlib.sha256((ROOT / "ludothek" / "games" / game / "net.npz").read_bytes()).hexdigest()[:8]


def current(outcome: dict) -> bool:
    timed = "--seconds-per-move" in outcome["command"]
    return outcome.get("levels") == levels(outcome["game"], (outcome["a"], outcome["b"]), timed)


def measured(results: dict[str, dict], game: str, a: str, b: str, extra: list[str], games: int) -> bool:
    """Whether the rung has a current result (on whichever cores it ran)."""
    timed = "--seconds-per-move" in extra
    return any((r["game"], r["a"], r["b"], r["games"]) == (game, a, b, games)
               and ("--seconds-per-move" in r["command"]) == timed and all(part in r["command"] for part in extra)
               and current(r) for r in results.values())


def play(argv: list[str], workers: int, first: int) -> dict:
    """Run one ``ludothek match`` pinned to its cores; its JSON result with the wall time."""
    key = shown(argv, workers, first)
    print(f"running: {key}", flush=True)
    started = time.time()
    run = subprocess.run(["taskset", "-c", cores(workers, first), *argv], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        raise SystemExit(f"failed: {key}")
    return {**json.loads(run.stdout), "wall_seconds": round(time.time() - started)}


def in_parts(key: str, game: str, a: str, b: str, extra: list[str], games: int, workers: int, first: int,
             parts: int, run=play) -> dict:
    """The rung as ``parts`` matches of ``games / parts`` games with seeds 1 ... ``parts``: each
    part is kept in :data:`PARTS` when it ends, a part kept with today's levels is not played
    again. Returns the parts summed (:func:`summed`)."""
    name = parts_name(key, parts)
    for seed in range(1, parts + 1):
        argv = command(game, a, b, [*extra, "--seed", str(seed)], games // parts, workers)
        if str(seed) in fresh_parts().get(name, {}):
            continue
        outcome = run(argv, workers, first)
        outcome.update(command=shown(argv, workers, first), levels=levels(game, (a, b), bool(extra)),
                       commit=commit(), parts=parts)
        kept = load(PARTS)  # anew: another run may have added parts meanwhile
        kept.setdefault(name, {})[str(seed)] = outcome
        PARTS.write_text(json.dumps(kept, indent=1) + "\n")
        print(f"  part {seed} of {parts}: score {outcome['score']:.3f}", flush=True)
    found = load(PARTS)[name]
    return {**summed([found[str(seed)] for seed in range(1, parts + 1)]),
            "command": f"{name} (--seed 1 … {parts}, -n {games // parts} each), summed"}


def parts_name(key: str, parts: int) -> str:
    return f"{key}, in {parts} parts"


def fresh_parts() -> dict[str, dict[str, dict]]:
    """The parts kept, by rung and seed, but those played with other levels."""
    return {name: {seed: outcome for seed, outcome in kept.items() if current(outcome)}
            for name, kept in load(PARTS).items()}


def summed(parts: list[dict]) -> dict:
    """Matches between the same agents as one: their games counted together, the interval and
    the Elo difference of the total, the plies and seconds of every game."""
    stats = MatchStats(*(sum(part[field] for part in parts) for field in ("wins", "draws", "losses")))
    commits = list(dict.fromkeys(part.get("commit", "?") for part in parts))
    return {"game": parts[0]["game"], "a": parts[0]["a"], "b": parts[0]["b"], **stats.summary(),
            "mean_plies": sum(part["mean_plies"] * part["games"] for part in parts) / stats.games,
            **{field: sum(part[field] for part in parts) for field in ("seconds_a", "seconds_b", "wall_seconds")},
            "levels": parts[0]["levels"], "commit": "/".join(commits)}


def measure(selected: list[tuple], games: int, workers: int, first: int, parts: int = 1) -> None:
    results = load()
    for title, game, a, b, extra in selected:
        argv = command(game, a, b, extra, games, workers)
        key = shown(argv, workers, first)
        if measured(results, game, a, b, extra, games):
            print(f"measured already: {game} {a} vs {b}")
            continue
        if parts > 1:
            outcome = in_parts(key, game, a, b, extra, games, workers, first, parts)
        else:
            outcome = play(argv, workers, first)
            outcome.update(command=key, levels=levels(game, (a, b), bool(extra)), commit=commit())
        outcome.update(title=title)
        results = load()  # anew: another run may have added results meanwhile
        before = results.pop(key, None)
        if before is not None:  # measured with other levels: kept as a row of its own commit
            results[f"{key} #{before.get('commit', '?')}"] = before
        results[key] = outcome
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        print(f"  score {outcome['score']:.3f}, Elo {outcome['elo']:+.0f}", flush=True)


def commit() -> str:
    run = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return run.stdout.strip() or "?"


def interval(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return "–"
    return f"{low:+.0f} … {high:+.0f}"


def titled(outcome: dict) -> str:
    title = outcome["title"]
    for agent, level in outcome.get("levels", {}).items():
        title = title.replace(agent, f"{agent} ({level})", 1)
    return title


TABLE_HEAD = ["| game | match | games | score (95% CI) | Elo (95% CI) | commit | command |",
              "|------|-------|------:|----------------|--------------|--------|---------|"]


def row(outcome: dict) -> str:
    low, high = outcome["ci95"]
    return (f"| {outcome['game']} | {titled(outcome)} | {outcome['games']} | {outcome['score']:.3f} "
            f"({low:.3f} … {high:.3f}) | {outcome['elo']:+.0f} ({interval(*outcome['elo_ci95'])}) | "
            f"{outcome.get('commit', '?')} | `{outcome['command']}` |")


def write() -> None:
    results = load()
    lines = [
        "# The bots' ladder",
        "",
        "Measured with `benchmarks/ladder.py` (each row's command reproduces it; the results are in",
        "`benchmarks/ladder-results.json`). Every match pairs its openings and exchanges the seats; the",
        "score is the first agent's, with its 95% interval, and the Elo difference follows from it.",
        "A level's algorithm and budget are shown next to it (nodes for alpha-beta, simulations for MCTS).",
        "Levels 6-8 think for a time (about 0.5, 2 and 8 s a move; Trigeo and Hexalit up to twice that on",
        "critical turns, Trike on unsettled moves with time it saved before), so their rows depend on the",
        "machine and how busy it was: see docs/LEVELS.md, which",
        "also has the nodes each level searches a move and the commands of the 200-game runs still to do.",
        "",
        "Hexalit's cube decisions (the error table before and after the learned winning chance and the",
        "match equity table with the cube) are measured on rollouts in [CUBE.md](CUBE.md).",
        "",
        *TABLE_HEAD,
    ]
    lines += [row(outcome) for outcome in results.values() if current(outcome)]
    played = {}  # rungs played in parts so far: (game, a, b) -> "n of k parts"
    for fresh in fresh_parts().values():
        if fresh:
            first = next(iter(fresh.values()))
            played[first["game"], first["a"], first["b"]] = f" ({len(fresh)} of {first['parts']} parts played)"
    missing = [f"{game}: {a} vs {b}{played.get((game, a, b), '')}" for _, game, a, b, extra in RUNGS
               if not measured(results, game, a, b, extra, GAMES)]
    if missing:
        lines += ["", f"Not measured yet with {GAMES} games: " + "; ".join(missing) + "."]
    earlier = [row(outcome) for outcome in results.values() if not current(outcome)]
    if earlier:
        lines += ["", "## Rows of earlier levels", "",
                  "Measured when a level was another algorithm or budget (shown beside it), kept for comparison.",
                  "", *TABLE_HEAD, *earlier]
    PAGE.write_text("\n".join(lines) + "\n")
    print(f"wrote {PAGE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="measure the rungs whose command contains this text")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--first-core", type=int, default=0, help="pin the workers from this core on")
    parser.add_argument("--parts", type=int, default=1, help="play each rung as this many matches, kept as they end")
    parser.add_argument("--list", action="store_true", help="list the rungs")
    parser.add_argument("--write", action="store_true", help="only write the page")
    args = parser.parse_args()
    if args.list:
        results = load()
        for title, game, a, b, extra in RUNGS:
            key = shown(command(game, a, b, extra, args.games, args.workers), args.workers, args.first_core)
            status = "done" if measured(results, game, a, b, extra, args.games) else "todo"
            if status == "todo" and args.parts > 1:
                status += f" ({len(fresh_parts().get(parts_name(key, args.parts), {}))} of {args.parts} parts)"
            print(f"{status} {key}")
        return
    if not args.write:
        selected = [rung for rung in RUNGS
                    if not args.only or args.only in " ".join([rung[1], rung[2], rung[3], *rung[4]])]
        if args.parts < 1 or args.games % args.parts:
            parser.error(f"--parts must divide --games ({args.games}) into whole matches")
        measure(selected, args.games, args.workers, args.first_core, args.parts)
    write()


if __name__ == "__main__":
    main()
