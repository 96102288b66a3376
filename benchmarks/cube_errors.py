"""Hexalit's cube error table (docs/CUBE.md): the bots' double/take decisions on the saved
decision set (``benchmarks/hexalit_cube_positions.json``, made by
``benchmarks/cube_rollouts.py``) against the decisions the same rule makes with the rollout
result as the winning chance.  No rollouts are run here.

    python benchmarks/cube_errors.py                      # the table (markdown)
    python benchmarks/cube_errors.py --limit 10 --json    # a slice, as JSON

**The decisions.**  Every position (the side to move is ahead; its rollout chance ``p``:
wins plus half the draws) is judged in four contexts: money play at stake 1, and three
match scores drawn per position with a seeded generator (each player 1 to 9 points away;
the stake 1, or 2 in the third context when both need at least 3).  In each context two
decisions: should the side to move double (it may: a fresh cube), and, if it did, should
the opponent (chance ``1 - p``) take.

**The reference** is :func:`cube.should_double_at` / :func:`cube.take_point_at` with the
rollout chance and the cube-aware match table (``met.cube_equity``); for money the table
plays no part.  An estimator's decision that differs is an *error*; it is *clear* when the
reference decides the same for the rollout chance ± 2 standard errors.  Its *cost* is the
equity the decision moves, at the rollout chance, with the cube dead after the decision:
for money, stakes (no double ``2p - 1``; double ``min(2(2p - 1), 1)``; take ``2(2q - 1)``
against drop ``-1``); in a match, match-winning chance from the cube-aware table.

**The rows**: the winning chance (the shipped hand estimate at ``cube.SLOPE``, the same
refitted, the learned ``cube.net_chance``) with the coin-flip or the cube-aware table.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ludothek.games.dice.position import parse_position
from ludothek.games.hexalit import cube

DATA = Path(__file__).resolve().parent / "hexalit_cube_positions.json"
#: the hand estimate's slope refitted to today's bot:3 (the data of ``cube.NET_SLOPE``)
HAND_REFIT = 0.207
#: the chances compared: name -> (quiet evaluation used, slope)
CHANCES = {
    f"hand, SLOPE {cube.SLOPE}": ("hand", cube.SLOPE),
    f"hand, refit {HAND_REFIT}": ("hand", HAND_REFIT),
    f"net, NET_SLOPE {cube.NET_SLOPE}": ("net", cube.NET_SLOPE),
}
ROWS = [(chance, equity) for chance in CHANCES for equity in ("coin_flip", "cube")]
REFERENCE = "cube"


def contexts(index: int) -> list[tuple[int, int, int] | None]:
    """Money (None) and three match contexts (mover away, opponent away, stake)."""
    rng = random.Random(index)
    out: list[tuple[int, int, int] | None] = [None]
    for k in range(3):
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        out.append((a, b, 2 if k == 2 and a >= 3 and b >= 3 else 1))
    return out


def quiet(position: str) -> dict[str, float]:
    board, side, temp = parse_position(position)
    return {"hand": cube.quiet_pawns(board, temp, side),
            "net": cube.quiet_pawns(board, temp, side, static=cube.net_static_pawns)}


def decide(p: float, context, equity: str) -> tuple[bool, bool]:
    """(the mover doubles, the opponent takes) at the mover's chance ``p``."""
    if context is None:
        away, c, other = None, 1, None
    else:
        a, b, c = context
        away, other = (a, b), (b, a)
    double = cube.should_double_at(p, away, c, equity=equity)
    take = 1.0 - p >= cube.take_point_at(other, c, equity)
    return double, take


def costs(p: float, context) -> tuple[float, float]:
    """(|double - no double|, |take - drop|) in equity at the mover's chance ``p``, the
    opponent answering a double as the reference would."""
    m = cube.met.cube_equity
    if context is None:
        take = 2 * (2 * p - 1)  # for the mover
        no_double, double = 2 * p - 1, min(take, 1.0)
        return abs(double - no_double), abs(take - 1.0)
    a, b, c = context
    no_double = p * m(a - c, b) + (1 - p) * m(a, b - c)
    take = p * m(a - 2 * c, b) + (1 - p) * m(a, b - 2 * c)
    drop = m(a - c, b)
    return abs(min(take, drop) - no_double), abs(take - drop)


def evaluate(positions: list[dict]) -> dict:
    rows = {f"{chance} + {equity}": {"money": _zero(), "match": _zero()} for chance, equity in ROWS}
    per_position: dict[str, list[list[float]]] = {name: [] for name in rows}  # [money cost, match cost]
    calibration = {chance: {"abs": 0.0, "bias": 0.0, "n": 0} for chance in CHANCES}
    n_used = 0
    for index, item in enumerate(positions):
        n = item.get("rollouts", 0)
        if not n:
            continue
        n_used += 1
        p_true = (item["wins"] + 0.5 * item["draws"]) / n
        var = (item["wins"] + 0.25 * item["draws"]) / n - p_true ** 2
        se = math.sqrt(max(var, 1e-9) / n)
        pawns = item.get("pawns") or quiet(item["position"])
        estimates = {chance: cube.chance_of(pawns[kind], slope) for chance, (kind, slope) in CHANCES.items()}
        for chance, p in estimates.items():
            calibration[chance]["abs"] += abs(p - p_true)
            calibration[chance]["bias"] += p - p_true
            calibration[chance]["n"] += 1
        for costs_so_far in per_position.values():
            costs_so_far.append([0.0, 0.0])
        for context in contexts(index):
            truth = decide(p_true, context, REFERENCE)
            clear = [decide(max(0.0, p_true - 2 * se), context, REFERENCE)[k] == truth[k]
                     == decide(min(1.0, p_true + 2 * se), context, REFERENCE)[k] for k in (0, 1)]
            cost = costs(p_true, context)
            for chance, equity in ROWS:
                made = decide(estimates[chance], context, equity)
                cell = rows[f"{chance} + {equity}"]["money" if context is None else "match"]
                for k, kind in enumerate(("double", "take")):
                    cell[f"{kind}_n"] += 1
                    if made[k] != truth[k]:
                        cell[f"{kind}_errors"] += 1
                        cell["cost"] += cost[k]
                        per_position[f"{chance} + {equity}"][-1][0 if context is None else 1] += cost[k]
                        if clear[k]:
                            cell["clear"] += 1
    for cell in calibration.values():
        if cell["n"]:
            cell["abs"] /= cell["n"]
            cell["bias"] /= cell["n"]
    return {"positions": n_used, "rows": rows, "calibration": calibration,
            "compared": {f"{a} -> {b}": _paired(per_position[a], per_position[b]) for a, b in COMPARED}}


#: (before, after) pairs whose cost difference gets a bootstrap interval
COMPARED = [(f"hand, SLOPE {cube.SLOPE} + coin_flip", f"net, NET_SLOPE {cube.NET_SLOPE} + cube"),
            (f"hand, SLOPE {cube.SLOPE} + coin_flip", f"hand, refit {HAND_REFIT} + cube"),
            (f"hand, refit {HAND_REFIT} + cube", f"net, NET_SLOPE {cube.NET_SLOPE} + cube")]


def _paired(before: list[list[float]], after: list[list[float]], rounds: int = 2000) -> dict:
    """The change of the summed cost per position (after - before), money and match: the
    mean and a 95% bootstrap interval over the positions (seeded)."""
    diff = [[b[k] - a[k] for a, b in zip(before, after)] for k in (0, 1)]
    rng = random.Random(7)
    out = {}
    for k, kind in enumerate(("money", "match")):
        values = diff[k]
        if not values:
            continue
        means = sorted(sum(rng.choice(values) for _ in values) / len(values) for _ in range(rounds))
        out[kind] = {"mean": sum(values) / len(values), "ci95": [means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]]}
    return out


def _zero() -> dict:
    return {"double_n": 0, "double_errors": 0, "take_n": 0, "take_errors": 0, "clear": 0, "cost": 0.0}


def markdown(result: dict) -> str:
    lines = [f"{result['positions']} positions; per context type: double and take decisions",
             "",
             ("| winning chance | match table | money: errors double / take (clear) | money: cost per decision (stakes) "
              "| match: errors double / take (clear) | match: cost per decision (match %) |"),
             "|---|---|---|---:|---|---:|"]
    for name, cell in result["rows"].items():
        chance, equity = name.split(" + ")
        parts = []
        for kind, unit in (("money", 1.0), ("match", 100.0)):
            c = cell[kind]
            n = c["double_n"] + c["take_n"]
            errors = c["double_errors"] + c["take_errors"]
            parts.append(f"{errors}/{n} = {100 * errors / max(n, 1):.1f}%: {c['double_errors']} / {c['take_errors']} "
                         f"({c['clear']})")
            parts.append(f"{unit * c['cost'] / max(n, 1):.4f}")
        lines.append(f"| {chance} | {equity} | " + " | ".join(parts) + " |")
    lines += ["", ("Change of the cost per position (after - before; money in stakes, match in match %; "
                   "mean and 95% bootstrap interval over the positions):"), "",
              "| before -> after | money | match |", "|---|---|---|"]
    for name, cell in result["compared"].items():
        parts = []
        for kind, unit in (("money", 1.0), ("match", 100.0)):
            c = cell.get(kind)
            parts.append("—" if c is None else
                         f"{unit * c['mean']:+.4f} ({unit * c['ci95'][0]:+.4f} … {unit * c['ci95'][1]:+.4f})")
        lines.append(f"| {name} | " + " | ".join(parts) + " |")
    lines += ["", "| winning chance | mean abs(p - rollout p) | mean p - rollout p |", "|---|---:|---:|"]
    for chance, cell in result["calibration"].items():
        lines.append(f"| {chance} | {cell['abs']:.3f} | {cell['bias']:+.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--limit", type=int, help="only the first N positions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    positions = json.loads(Path(args.data).read_text())["positions"]
    if args.limit:
        positions = positions[:args.limit]
    result = evaluate(positions)
    print(json.dumps(result, indent=1) if args.json else markdown(result))


if __name__ == "__main__":
    main()
