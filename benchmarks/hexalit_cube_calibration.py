"""Calibrate Hexalit's winning chance: how an evaluation maps to the chance of winning.

The bots' cube decisions (``ludothek/games/hexalit/cube.py``) turn the one-turn value ``v``
of the player to move (the game's evaluation one turn ahead, in (-0.9, 0.9)) into a chance
``p = 1 / (1 + exp(-SLOPE * v))``.  This script measures that mapping:

1. ``--games`` games from the start position, each with its own seed: an opening of 6..30
   turns in which each turn is a uniformly random action with probability 1/2 and the
   bot's choice otherwise (so the middle-game positions differ), then ``--bot`` against
   itself to the end (the default ``max_plies``; dice rolled with the game's seed).
2. Every ``--every``-th turn start after the opening is a sample: its position, three
   estimators for the player to move (:data:`ESTIMATORS`: the static evaluation, the best
   evaluation one turn ahead, the evaluation after the captures are played out), and the
   game's result for that player: 1 win, 1/2 draw, 0 loss.
3. Logistic fits by maximum likelihood (Newton's method, a draw as half a win) of three
   forms (:data:`FORMS`): ``p = σ(b v)``, ``σ(a + b v)`` and ``σ(b1 v + b3 v³)``, for each
   estimator, with the log-loss and a binned table.  Decided samples (``|v| >= 1``) are
   left out.

    python benchmarks/hexalit_cube_calibration.py --games 300 --out /tmp/hexalit_cube.json
    python benchmarks/hexalit_cube_calibration.py --fit /tmp/hexalit_cube.json

The samples of one game are correlated: the standard errors printed assume one sample per
game at worst (they are scaled by sqrt(samples / games)).

Result behind ``cube.SLOPE`` (``--bot bot:3 --every 5``, seeds 1001-1080 and 2001-2400:
11,199 samples from 370 games that reached the middle game; 37% won, 27% drawn, 36% lost
for the player to move), for the quiet evaluation ``x`` in pawns:

* ``p = σ(b x)``: b = 0.272 ± 0.029, log-loss 0.4220 (a constant: 0.6931);
* ``σ(a + b x)``: a = -0.03 ± 0.14 — no intercept needed, an even evaluation is 50%;
* ``σ(b1 x + b3 (x/10)³)``: b3 = -0.15 ± 0.15, log-loss 0.4213 — no better;
* ``σ(b v)`` on the squashed ``v = 0.9 tanh(x/6)``: log-loss 0.4339 — worse: the squash
  saturates, while a whole army up wins ~100% (observed: 1.000 above 20 pawns);
* the static evaluation without the captures played out fits a little worse throughout;
  the best evaluation one turn ahead (tried first) is biased upwards (+0.07 on the
  squashed scale on average; the start position came out at 62%) and was dropped.

By phase: turns < 40 give b = 0.22, turns >= 60 give b = 0.29.

Refit for the learned chance (docs/CUBE.md; ``--bot bot:3 --every 5 --games 300
--first-seed 2001``, today's bot:3 = alpha-beta at 1000 nodes: 8,129 undecided samples from
245 games): quiet hand b = 0.207 ± 0.028 (log-loss 0.4720), quiet net b = 0.214 ± 0.029
(``cube.NET_SLOPE``, log-loss 0.4709; the first net: 0.217, 0.4721), static hand 0.201, static
net 0.210.  On 163 held-out games (``--first-seed 3001 --games 200``, then ``--fit ...
--held-out FILE``) the quiet net's log-loss is 0.5189, the quiet hand's 0.5203.  Weaker players convert
less: ``--bot bot:2`` (seeds 1-300, 239 games, 49% draws) gives b = 0.124 ± 0.019.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import ludothek
from ludothek.ai.base import make_agent
from ludothek.core.protocol import CHANCE
from ludothek.games.dice.position import parse_position
from ludothek.games.hexalit import cube

#: the estimators compared, in pawns (the evaluation before its squash): the game's static
#: evaluation and the evaluation after the captures are played out (the one
#: ``cube.winning_chance(state, "hand")`` uses), and the same two with the learned net
#: (``cube.winning_chance(state, "net")`` uses the quiet one)
ESTIMATORS = {"static_pawns": cube.static_pawns, "quiet_pawns": cube.quiet_pawns,
              "net_static_pawns": cube.net_static_pawns,
              "net_quiet_pawns": lambda board, temp, side: cube.quiet_pawns(board, temp, side,
                                                                            static=cube.net_static_pawns)}


def estimates(board, temp, side) -> dict[str, float]:
    return {name: float(function(board, temp, side)) for name, function in ESTIMATORS.items()}


def play(seed: int, bot: str, every: int) -> list[dict]:
    rng = random.Random(seed)
    agent = make_agent(bot, "hexalit", seed=seed)
    state = ludothek.new_game("hexalit")
    opening = rng.randint(6, 30)
    samples = []
    while not state.is_over():
        turn = state.turns
        if state.current_player() == CHANCE:
            state.apply_action(rng.choice(state.legal_actions()))  # a fair die
            continue
        if turn >= opening and (turn - opening) % every == 0:
            side = state.side
            samples.append({"side": side, "turn": turn, "position": state.position(),
                            **estimates(state.board, state.temp, side)})
        if turn < opening and rng.random() < 0.5:
            action = rng.choice(state.legal_actions())
        else:
            action = agent.choose(state)
        state.apply_action(action)
    won = state.winner()
    for sample in samples:
        if won is None:
            sample["result"] = 0.5
        else:
            sample["result"] = 1.0 if (won == "white") == (sample["side"] == 0) else 0.0
    for sample in samples:
        sample["game"] = seed
        sample["ending"] = state.ending()
        sample["length"] = state.turns
    return samples


def fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Maximum-likelihood logistic fit of ``y`` (soft labels) on the columns of ``X``:
    (coefficients, covariance, log-loss)."""
    w = np.zeros(X.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ w))
        grad = X.T @ (y - p)
        hess = (X * (p * (1 - p))[:, None]).T @ X
        step = np.linalg.solve(hess, grad)
        w += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = np.clip(1 / (1 + np.exp(-X @ w)), 1e-12, 1 - 1e-12)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    cov = np.linalg.inv((X * (p * (1 - p))[:, None]).T @ X)
    return w, cov, loss


#: the forms fitted, of the evaluation x in pawns: name -> (coefficient names, design matrix)
FORMS = {
    "b x": (("b",), lambda x: x[:, None]),
    "a + b x": (("a", "b"), lambda x: np.column_stack([np.ones_like(x), x])),
    "b1 x + b3 (x/10)^3": (("b1", "b3"), lambda x: np.column_stack([x, (x / 10) ** 3])),
    "b v, v = 0.9 tanh(x/6)": (("b",), lambda x: (0.9 * np.tanh(x / 6))[:, None]),
}
#: the forms in the binned table
SHOWN = ("b x", "b1 x + b3 (x/10)^3", "b v, v = 0.9 tanh(x/6)")


def report(samples: list[dict]) -> None:
    games = len({s["game"] for s in samples})
    y_all = np.array([s["result"] for s in samples])
    print(f"{len(samples)} samples from {games} games; results: "
          f"{np.mean(y_all == 1):.3f} won, {np.mean(y_all == 0.5):.3f} drawn, {np.mean(y_all == 0):.3f} lost "
          f"(for the player to move)")
    endings: dict[str, int] = {}
    for s in {s["game"]: s for s in samples}.values():
        endings[s["ending"]] = endings.get(s["ending"], 0) + 1
    print("endings:", endings)
    scale = math.sqrt(len(samples) / max(games, 1))
    for name in ESTIMATORS:
        x = np.array([s[name] for s in samples])
        keep = np.abs(x) < cube.WON
        x, y = x[keep], y_all[keep]
        mean = float(np.mean(y))
        base = float(-np.mean(y * np.log(mean) + (1 - y) * np.log(1 - mean)))
        print(f"\n{name}: {keep.sum()} undecided samples (log-loss of a constant: {base:.4f})")
        fitted = {}
        for form, (labels, design) in FORMS.items():
            w, cov, loss = fit(design(x), y)
            se = np.sqrt(np.diag(cov)) * scale
            terms = ", ".join(f"{label} = {v:.3f} ± {e:.3f}" for label, v, e in zip(labels, w, se))
            print(f"  p = σ({form}): {terms}; log-loss {loss:.4f}")
            fitted[form] = (w, design)
        print("   x range (pawns)     n   mean x  results  fitted: " + " | ".join(SHOWN))
        edges = [-200, -20, -12, -8, -5, -3, -1.5, -0.5, 0.5, 1.5, 3, 5, 8, 12, 20, 200]
        for lo, hi in itertools.pairwise(edges):
            inside = (x >= lo) & (x < hi)
            if inside.sum() == 0:
                continue
            cells = []
            for form in SHOWN:
                w, design = fitted[form]
                cells.append(float(np.mean(1 / (1 + np.exp(-design(x[inside]) @ w)))))
            print(f"  [{lo:+6.1f},{hi:+6.1f})  {inside.sum():5d}  {x[inside].mean():+6.2f}   {y[inside].mean():.3f}    "
                  + "   ".join(f"{cell:.3f}" for cell in cells))


def held_out(samples: list[dict], held: list[dict]) -> None:
    """Each estimator's ``p = σ(b x)``, fitted to ``samples``, judged on the ``held`` samples
    (other games): log-loss and Brier score over their undecided positions."""
    games = len({s["game"] for s in held})
    print(f"\nheld out: {len(held)} samples from {games} games; p = σ(b x) fitted above")
    for name in ESTIMATORS:
        x = np.array([s[name] for s in samples])
        keep = np.abs(x) < cube.WON
        (b,), _, _ = fit(x[keep][:, None], np.array([s["result"] for s in samples])[keep])
        x = np.array([s[name] for s in held])
        keep = np.abs(x) < cube.WON
        y = np.array([s["result"] for s in held])[keep]
        p = np.clip(1 / (1 + np.exp(-b * x[keep])), 1e-12, 1 - 1e-12)
        loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
        print(f"  {name}: b = {b:.3f}, {keep.sum()} undecided, log-loss {loss:.4f}, "
              f"Brier {float(np.mean((p - y) ** 2)):.4f}")


def with_estimates(paths: list[str]) -> list[dict]:
    """The samples of these files, with any estimator added since they were taken."""
    samples = [s for path in paths for s in json.loads(Path(path).read_text())]
    for sample in samples:
        if any(name not in sample for name in ESTIMATORS):
            board, side, temp = parse_position(sample["position"])
            sample.update(estimates(board, temp, side))
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--bot", default="bot:2")
    parser.add_argument("--every", type=int, default=3, help="a sample every N turns (default 3)")
    parser.add_argument("--out", help="write the samples to this JSON file (and fit them)")
    parser.add_argument("--fit", nargs="+", help="fit samples from these JSON files, play nothing")
    parser.add_argument("--per-game", type=int, help="fit only the first N samples of each game")
    parser.add_argument("--held-out", nargs="+", help="with --fit: judge the fits on the samples of these files")
    args = parser.parse_args()
    if args.fit:
        samples = with_estimates(args.fit)
        if args.per_game:
            seen: dict[int, int] = {}
            kept = []
            for s in samples:
                seen[s["game"]] = seen.get(s["game"], 0) + 1
                if seen[s["game"]] <= args.per_game:
                    kept.append(s)
            samples = kept
        report(samples)
        if args.held_out:
            held_out(samples, with_estimates(args.held_out))
        return
    samples: list[dict] = []
    started = time.time()
    for k in range(args.games):
        samples += play(args.first_seed + k, args.bot, args.every)
        if (k + 1) % 10 == 0:
            print(f"{k + 1} games, {len(samples)} samples, {time.time() - started:.0f} s", file=sys.stderr)
            if args.out:
                Path(args.out).write_text(json.dumps(samples))
    if args.out:
        Path(args.out).write_text(json.dumps(samples))
    report(samples)


if __name__ == "__main__":
    main()
