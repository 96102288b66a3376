"""Tune the dice games' evaluation weights by self-play: a coordinate search with the match
runner (``ludothek match``, paired openings, seats exchanged).

For each weight in turn, a challenger with that weight raised and then lowered by ``--step``
(a weight at 0 is tried at ``--step`` pawns instead) plays the current weights at a fixed node
budget; the first challenger whose score reaches ``0.5 + --margin`` replaces them. Rounds
repeat with half the step until a round changes nothing. Both sides search the same number of
nodes, so a weight that makes the evaluation slower costs nothing here; the speed is the
search's own business (`ludothek analyse`).

    taskset -c 0 python benchmarks/tune_eval.py trigeo --nodes 3000 --games 400
    taskset -c 0 python benchmarks/tune_eval.py hexalit --weights mobility,tempo --rounds 1

Each match is logged as it ends (JSON lines in ``--log``); the end prints the weights found
and a check match of them against the game's weights at ``--check-nodes``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludothek.games.dice.eval_kernels import HEXALIT_WEIGHTS, TRIGEO_WEIGHTS, WEIGHT_NAMES  # noqa: E402

GAME_WEIGHTS = {"trigeo": TRIGEO_WEIGHTS, "hexalit": HEXALIT_WEIGHTS}
#: weights a game does not use (their term is always 0 there)
UNUSED = {"trigeo": {"temp_face", "spare_one"}, "hexalit": set()}


def spec(nodes: int, weights: dict[str, float]) -> str:
    return f"alphabeta_with:{nodes}," + ",".join(f"{name}={value:.6g}" for name, value in weights.items())


def match(game: str, a: str, b: str, games: int, seed: int) -> dict:
    argv = ["ludothek", "match", game, a, b, "-n", str(games), "--workers", "1", "--seed", str(seed), "--json"]
    run = subprocess.run(argv, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{run.stderr}")
    return json.loads(run.stdout)


def game_weights(game: str) -> dict[str, float]:
    """The weights the game plays with, by name (those it uses)."""
    return {name: float(value) for name, value in zip(WEIGHT_NAMES, GAME_WEIGHTS[game]) if name not in UNUSED[game]}


def tune(args) -> dict[str, float]:
    current = game_weights(args.game)
    names = args.weights.split(",") if args.weights else list(current)
    step, seed = args.step, args.seed
    log = open(args.log, "a")
    for round_ in range(1, args.rounds + 1):
        changed = False
        for name in names:
            value = current[name]
            tries = [value * (1 + step), value * (1 - step)] if value else [step, -step]
            for tried in tries:
                challenger = {**current, name: round(tried, 6)}
                seed += 1
                started = time.time()
                outcome = match(args.game, spec(args.nodes, challenger), spec(args.nodes, current), args.games, seed)
                accepted = outcome["score"] >= 0.5 + args.margin
                entry = {"round": round_, "weight": name, "from": value, "to": challenger[name],
                         "score": outcome["score"], "ci95": outcome["ci95"], "accepted": accepted,
                         "seconds": round(time.time() - started), "seed": seed}
                log.write(json.dumps(entry) + "\n")
                log.flush()
                print(f"round {round_}  {name:10s} {value:.4g} -> {challenger[name]:.4g}: score {outcome['score']:.3f}"
                      f" ({outcome['ci95'][0]:.3f} … {outcome['ci95'][1]:.3f}){'  accepted' if accepted else ''}",
                      flush=True)
                if accepted:
                    current, changed = challenger, True
                    break
        if not changed:
            break
        step /= 2
    return current


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(GAME_WEIGHTS))
    parser.add_argument("--nodes", type=int, default=3000, help="alpha-beta nodes a move, both sides")
    parser.add_argument("--games", type=int, default=400, help="games per match (even: pairs)")
    parser.add_argument("--step", type=float, default=0.5, help="relative change tried first")
    parser.add_argument("--margin", type=float, default=0.04, help="score above 0.5 a challenger needs")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--weights", help="only these weights (comma-separated names)")
    parser.add_argument("--check-nodes", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--log", default="tune_eval.jsonl")
    args = parser.parse_args()
    found = tune(args)
    print("weights found:", json.dumps(found))
    base = game_weights(args.game)
    if found != base:
        check = match(args.game, spec(args.check_nodes, found), spec(args.check_nodes, base), args.games, 1)
        print(f"check at {args.check_nodes} nodes, found against the game's weights: score {check['score']:.3f} "
              f"({check['ci95'][0]:.3f} … {check['ci95'][1]:.3f}), Elo {check['elo']:+.0f}")


if __name__ == "__main__":
    main()
