"""Steps per second: ludothek.vector's batched games (TrikeVector, TrigeoVector, HexalitVector,
BitisVector) against the PettingZoo environment stepped in a Python loop, both with uniformly random legal
actions (a Hexalit step is one turn: a roll's face is drawn within it, by both).

Run: taskset -c 1 python benchmarks/vector_speed.py [--game trike] [--size 13] [--seconds 3] [--games 256 1024]
     taskset -c 1 python benchmarks/vector_speed.py --game trigeo [--max-plies 400] --games 256
     taskset -c 1 python benchmarks/vector_speed.py --game hexalit [--max-plies 400] --games 256
     taskset -c 1 python benchmarks/vector_speed.py --game bitis [--max-plies 200] --games 256
(``--parallel`` adds the prange variant; give it both cores: taskset -c 0,1)
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ludothek.vector import make


def game_options(args: argparse.Namespace) -> tuple[dict, dict]:
    """The options of the game measured: for the vector and for the environment (Bitis has no
    move limit of its own: the vector's ``max_plies`` is the environment's ``max_moves``)."""
    if args.game == "trike":
        return {"size": args.size}, {"size": args.size}
    if args.game == "bitis":
        return {"max_plies": args.max_plies}, {"max_moves": args.max_plies}
    return {"max_plies": args.max_plies}, {"max_plies": args.max_plies}


def vector_steps_per_s(game: str, options: dict, games: int, seconds: float, parallel: bool) -> float:
    vector = make(game, games, seed=1, parallel=parallel, copy=False, **options)
    vector.reset()
    vector.step(vector.sample_actions())  # compile (or load) before timing
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        vector.step(vector.sample_actions())
        steps += games
    return steps / (time.perf_counter() - started)


def pettingzoo_steps_per_s(game_name: str, options: dict, seconds: float) -> float:
    from ludothek.integrations.pettingzoo import env

    game = env(game_name, **options)
    game.reset(seed=1)
    rng = np.random.default_rng(1)

    def play(steps: int, seconds: float) -> tuple[int, float]:
        played, started = 0, time.perf_counter()
        while played < steps and time.perf_counter() - started < seconds:
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.reset()
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            played += 1
        return played, time.perf_counter() - started

    play(20, 60.0)  # load the compiled kernels before timing, as for the vector
    game.reset(seed=1)
    steps, elapsed = play(2**62, seconds)
    return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("trike", "trigeo", "hexalit", "bitis"), default="trike")
    parser.add_argument("--size", type=int, default=13, help="trike: the board's side")
    parser.add_argument("--max-plies", type=int, default=400, help="trigeo, hexalit, bitis: the move limit")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--parallel", action="store_true", help="also time the prange variant")
    args = parser.parse_args()
    options, env_options = game_options(args)
    shown = " ".join(f"{k}={v}" for k, v in options.items())
    loop = pettingzoo_steps_per_s(args.game, env_options, args.seconds)
    print(f"pettingzoo_loop game={args.game} {shown} steps_per_s={loop:.0f}")
    for games in args.games:
        for parallel in (False, True) if args.parallel else (False,):
            rate = vector_steps_per_s(args.game, options, games, args.seconds, parallel)
            kind = "vector_parallel" if parallel else "vector"
            print(f"{kind} game={args.game} {shown} games={games} steps_per_s={rate:.0f} "
                  f"vs_pettingzoo={rate / loop:.0f}x")


if __name__ == "__main__":
    main()
