"""Hexalit's cube decision set: positions from bot self-play with rollouts for "truth"
(docs/CUBE.md).  ``benchmarks/cube_errors.py`` turns the saved set into the error table.

1. **Positions** (``select``): turn starts of bot:3 self-play games played by
   ``benchmarks/hexalit_cube_calibration.py`` (each game from a random middle game; a
   sample every 5 turns), only from games *not* used to fit the winning chances (the fits
   used seeds 2001-2300; the set comes from seeds 3001-3200, ``--from-seed``).  The side to move is ahead: the positions are drawn evenly from five
   bands of its estimated chance (50-60, 60-70, 70-80, 80-90, 90-98%; the estimate is the mean
   of the hand and the net chance at SLOPE = 0.27, so neither estimator chooses the
   positions alone), at most 4 a game, undecided positions only; saved with the bands
   interleaved (a rollout run stopped early covers every band).
2. **Rollouts** (``rollout``): from each position ``--games`` games of bot:3 against bot:3
   (the compiled alpha-beta at 1000 nodes a move, the cube off, the dice from a seeded
   generator per game, drawn after ``ROLLOUT_TURNS`` turns), the results counted for the
   side to move.  Written after every position, so an interrupted run resumes, and a
   larger ``--games`` adds the missing games to each position.

    python benchmarks/hexalit_cube_calibration.py --bot bot:3 --every 5 --games 200 \\
        --first-seed 3001 --out /tmp/cube/held.json
    python benchmarks/cube_rollouts.py select /tmp/cube/held.json --from-seed 3001 \\
        --per-band 30 --out benchmarks/hexalit_cube_positions.json
    taskset -c 1 nice -n 10 python benchmarks/cube_rollouts.py rollout \\
        benchmarks/hexalit_cube_positions.json --games 24
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ludothek
from ludothek.ai.alphabeta import AlphaBetaAgent
from ludothek.ai.budget import Budget
from ludothek.core.protocol import CHANCE

BANDS = ((0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.98))
SELECT_SLOPE = 0.27
#: the rollout players: bot:3 (``alphabeta_levels`` of Hexalit: 1000 nodes a move)
ROLLOUT_NODES = 1000
#: a rollout is drawn after this many turns from the position (the self-play games, which
#: reached these positions after 20-100 turns, were drawn at 400 turns from the start)
ROLLOUT_TURNS = 200
WON = 1000.0


def _sigma(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-SELECT_SLOPE * x))


def select(samples: list[dict], from_seed: int, per_band: int, per_game: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    pool = [s for s in samples if s["game"] >= from_seed
            and abs(s["quiet_pawns"]) < WON and abs(s["net_quiet_pawns"]) < WON]
    rng.shuffle(pool)
    bands: list[list[dict]] = []
    used: dict[int, int] = {}
    for lo, hi in BANDS:
        band: list[dict] = []
        for s in pool:
            p = 0.5 * (_sigma(s["quiet_pawns"]) + _sigma(s["net_quiet_pawns"]))
            if lo <= p < hi and used.get(s["game"], 0) < per_game and all(s is not c for b in bands for c in b):
                band.append(s)
                used[s["game"]] = used.get(s["game"], 0) + 1
                if len(band) == per_band:
                    break
        bands.append(band)
    # the bands interleaved: a rollout run stopped early still covers every band evenly
    chosen = [band[k] for k in range(per_band) for band in bands if k < len(band)]
    return [{"position": s["position"], "side": s["side"], "game": s["game"], "turn": s["turn"],
             "result": s["result"]} for s in chosen]


def rollout(position: str, games: int, key: str, first: int = 0) -> dict:
    """Games ``first .. games - 1`` of bot:3 against itself from ``position``, the cube off:
    the results for the side to move."""
    counts = {"wins": 0, "draws": 0, "losses": 0}
    for g in range(first, games):
        rng = random.Random(f"cube/{key}/{g}")
        state = ludothek.new_game("hexalit", position=position, max_plies=ROLLOUT_TURNS)
        mover = state.side
        agents = [AlphaBetaAgent("hexalit", rng.getrandbits(31), Budget(iterations=ROLLOUT_NODES)) for _ in range(2)]
        while not state.is_over():
            player = state.current_player()
            if player == CHANCE:
                outcomes, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(outcomes, weights)[0])
            else:
                state.play(agents[player].choose(state))
        won = state.winner()
        if won is None:
            counts["draws"] += 1
        elif (won == "white") == (mover == 0):
            counts["wins"] += 1
        else:
            counts["losses"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("select", help="choose the positions from calibration samples")
    s.add_argument("samples", nargs="+")
    s.add_argument("--from-seed", type=int, required=True, help="only games with this seed or later")
    s.add_argument("--per-band", type=int, default=30)
    s.add_argument("--per-game", type=int, default=4)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--out", required=True)
    r = sub.add_parser("rollout", help="roll the positions out (resumes)")
    r.add_argument("file")
    r.add_argument("--games", type=int, default=40)
    r.add_argument("--limit", type=int, help="only the first N positions")
    args = parser.parse_args()
    if args.command == "select":
        samples = [x for path in args.samples for x in json.loads(Path(path).read_text())]
        chosen = select(samples, args.from_seed, args.per_band, args.per_game, args.seed)
        Path(args.out).write_text(json.dumps({"rollout_policy": f"bot:3 (alpha-beta {ROLLOUT_NODES} nodes a move), cube off, "
                                                                f"drawn after {ROLLOUT_TURNS} turns",
                                              "positions": chosen}, indent=1))
        print(f"{len(chosen)} positions from {len({c['game'] for c in chosen})} games", file=sys.stderr)
        return
    path = Path(args.file)
    data = json.loads(path.read_text())
    positions = data["positions"][:args.limit] if args.limit else data["positions"]
    started = time.process_time()
    for i, item in enumerate(positions):
        done = item.get("rollouts", 0)
        if done >= args.games:
            continue
        more = rollout(item["position"], args.games, f"{item['game']}/{item['turn']}", first=done)
        for name, count in more.items():
            item[name] = item.get(name, 0) + count
        item["rollouts"] = args.games
        path.write_text(json.dumps(data, indent=1))
        print(f"{i + 1}/{len(positions)}: {item['wins']}-{item['draws']}-{item['losses']}, "
              f"{time.process_time() - started:.0f} CPU s", file=sys.stderr)


if __name__ == "__main__":
    main()
