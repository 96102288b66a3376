"""Calibrate the analysis's winning chances per game from bot-vs-bot games (issue 31, item 4).

    nice -n 10 python scripts/calibrate_win_chances.py trike trigeo hexalit bitis --minutes 5

For each game: bot games between random levels (bot:1 … bot:4, the game's own opening plies
played at random first), every few decision plies of each game evaluated by the review's own
search at the review's budget (:class:`ludothek.ai.review._Search`, the same numbers the web
analysis shows), each evaluation paired with the game's outcome for seat 0 (1 a win, 0 a
loss, 0.5 a draw). When the time is up (or ``--games`` are played), the slope of
``P(seat 0 wins) = 1 / (1 + exp(-slope · atanh(eval)))`` is fitted by maximum likelihood and
written with the fit's numbers to ``win_chances.json`` in the game's package
(:mod:`ludothek.ai.winchance` reads it). The file also keeps the samples themselves, counted in
bins of 0.02 of evaluation (``histogram``: [eval, seat 0 wins, draws, losses]), so another map
can be fitted to them without playing again: ``--refit`` does that.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from importlib import resources
from pathlib import Path

from ludothek.ai.levels import level_agent
from ludothek.ai.review import BUDGETS, _Search, search_algorithm
from ludothek.ai.winchance import FILE, fit_slope, log_loss, logistic
from ludothek.core.protocol import CHANCE
from ludothek.core.registry import game_spec, games, new_game

LEVELS = (1, 2, 3, 4)


def one_game(game: str, seed: int, every: int, judge: _Search) -> tuple[list[float], float, int]:
    """Play one bot game; return the evaluations of its sampled positions, seat 0's outcome
    and its length in plies."""
    rng = random.Random(seed)
    state = new_game(game)
    for _ in range(game_spec(game).opening_plies):
        if state.is_over():
            break
        if state.current_player() == CHANCE:
            actions, weights = zip(*state.chance_outcomes())
            state.play(rng.choices(actions, weights)[0])
        else:
            state.play(rng.choice(state.legal_actions()))
    agents = [level_agent(game, rng.choice(LEVELS), seed=rng.randrange(1 << 30)) for _ in range(2)]
    offset = rng.randrange(every)
    sampled: list[float] = []
    decisions = 0
    while not state.is_over():
        player = state.current_player()
        if player == CHANCE:
            actions, weights = zip(*state.chance_outcomes())
            state.play(rng.choices(actions, weights)[0])
            continue
        if decisions % every == offset:
            sampled.append(judge.evaluate(state).eval)
        decisions += 1
        state.play(agents[player].choose(state))
    returns = state.returns()
    outcome = 1.0 if returns[0] > 0 else 0.0 if returns[0] < 0 else 0.5
    return sampled, outcome, state.ply


def calibrate(game: str, minutes: float, games_most: int, every: int, seed: int) -> dict:
    algorithm = search_algorithm(game)
    budget = BUDGETS[algorithm]
    judge = _Search(game, algorithm, budget, 1)
    samples: list[tuple[float, float]] = []
    played = plies = 0
    began = time.perf_counter()
    while played < games_most and time.perf_counter() - began < minutes * 60:
        values, outcome, length = one_game(game, seed * 100_003 + played, every, judge)
        samples.extend((value, outcome) for value in values)
        played += 1
        plies += length
        print(f"{game}: game {played}, {length} plies, seat 0 scored {outcome}, {len(samples)} samples",
              file=sys.stderr, flush=True)
    return summary(game, samples, {"algorithm": algorithm, "budget": budget}, played, plies, every,
                   time.perf_counter() - began, seed)


def summary(game: str, samples: list[tuple[float, float]], evaluation: dict, played: int, plies: int,
            every: int, seconds: float, seed: int) -> dict:
    slope = fit_slope(samples)
    bins = []
    for low in [x / 10 for x in range(-10, 10, 2)]:
        inside = [(v, o) for v, o in samples if low <= v < low + 0.2 or (low == 0.8 and v == 1.0)]
        if inside:
            bins.append({"eval": [round(low, 1), round(low + 0.2, 1)], "n": len(inside),
                         "won": round(sum(o for _, o in inside) / len(inside), 3),
                         "fitted": round(sum(logistic(v, slope) for v, _ in inside) / len(inside), 3)})
    counts: dict[float, list[int]] = {}
    for value, outcome in samples:
        row = counts.setdefault(round(round(value / 0.02) * 0.02, 2), [0, 0, 0])
        row[0 if outcome == 1 else 1 if outcome == 0.5 else 2] += 1
    return {
        "game": game, "slope": round(slope, 4),
        "model": "P(seat 0 wins) = 1 / (1 + exp(-slope * atanh(eval)))",
        "evaluation": evaluation,
        "games": played, "plies": plies, "samples": len(samples), "every": every,
        "log_loss": round(log_loss(samples, slope), 4),
        "log_loss_linear": round(_linear_log_loss(samples), 4),
        "bins": bins, "seconds": round(seconds, 1), "seed": seed,
        "histogram": [[value, *row] for value, row in sorted(counts.items())],
    }


def refit(data: dict) -> dict:
    """The file's fit made again from its histogram (the bins' centres as the evaluations)."""
    samples = []
    for value, wins, draws, losses in data["histogram"]:
        samples += [(value, 1.0)] * wins + [(value, 0.5)] * draws + [(value, 0.0)] * losses
    return summary(data["game"], samples, data["evaluation"], data["games"], data["plies"], data["every"],
                   data["seconds"], data["seed"])


def _linear_log_loss(samples: list[tuple[float, float]]) -> float:
    import math

    total = 0.0
    for value, outcome in samples:
        p = min(1 - 1e-9, max(1e-9, (1 + value) / 2))
        total -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
    return total / len(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", choices=games())
    parser.add_argument("--minutes", type=float, default=5.0, help="time per game (default 5)")
    parser.add_argument("--games", dest="most", type=int, default=10_000, help="at most this many bot games per game")
    parser.add_argument("--every", type=int, default=3, help="evaluate every N-th decision (default 3)")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--dry-run", action="store_true", help="print the result, write nothing")
    parser.add_argument("--refit", action="store_true", help="fit again to the samples the file keeps, play nothing")
    args = parser.parse_args(argv)
    for game in args.games:
        package = game_spec(game).state.partition(":")[0].rpartition(".")[0]
        path = Path(str(resources.files(package))) / FILE
        if args.refit:
            result = refit(json.loads(path.read_text("utf-8")))
        else:
            result = calibrate(game, args.minutes, args.most, args.every, args.seed)
        text = json.dumps(result, indent=1) + "\n"
        if args.dry_run:
            print(text)
            continue
        path.write_text(text, "utf-8")
        print(f"{game}: slope {result['slope']} from {result['samples']} positions of {result['games']} games "
              f"(log-loss {result['log_loss']}, linear {result['log_loss_linear']}) -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
