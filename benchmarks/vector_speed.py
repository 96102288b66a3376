"""Steps per second: ludothek.vector's TrikeVector against the PettingZoo environment
stepped in a Python loop, both with uniformly random legal actions.

Run: taskset -c 1 python benchmarks/vector_speed.py [--size 13] [--seconds 3] [--games 256 1024]
(``--parallel`` adds the prange variant; give it both cores: taskset -c 0,1)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ludothek.vector import TrikeVector


def vector_steps_per_s(games: int, size: int, seconds: float, parallel: bool) -> float:
    vector = TrikeVector(games, size=size, seed=1, parallel=parallel, copy=False)
    vector.reset()
    vector.step(vector.sample_actions())  # compile (or load) before timing
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        vector.step(vector.sample_actions())
        steps += games
    return steps / (time.perf_counter() - started)


def pettingzoo_steps_per_s(size: int, seconds: float) -> float:
    from ludothek.integrations.pettingzoo import env

    game = env("trike", size=size)
    game.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        observation, _, terminated, _, _ = game.last()
        if terminated:
            game.reset()
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return steps / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--parallel", action="store_true", help="also time the prange variant")
    args = parser.parse_args()
    loop = pettingzoo_steps_per_s(args.size, args.seconds)
    print(f"pettingzoo_loop size={args.size} steps_per_s={loop:.0f}")
    for games in args.games:
        for parallel in (False, True) if args.parallel else (False,):
            rate = vector_steps_per_s(games, args.size, args.seconds, parallel)
            kind = "vector_parallel" if parallel else "vector"
            print(f"{kind} size={args.size} games={games} steps_per_s={rate:.0f} vs_pettingzoo={rate / loop:.0f}x")


if __name__ == "__main__":
    main()
