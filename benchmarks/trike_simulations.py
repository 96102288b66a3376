"""Simulations per CPU second of Trike's MCTS kernel (:mod:`ludothek.games.trike.mcts3`): the bots'
settings (``mcts``), the same with policy 0's playout instead of the line-word one, and the
search before the additions (``mcts_v2``), as ratios against ``mcts_v2`` measured in the same run.

    taskset -c 1 python benchmarks/trike_simulations.py
    PYTHONPATH=/path/to/other/checkout taskset -c 1 python benchmarks/trike_simulations.py   # another version

Each setting runs ``--simulations`` from a fresh tree on a few seeded positions of each side
(random moves, no swap), twice, the settings taking turns; a row gives the medians. Everything
runs in this process, pinned by the caller (``taskset``), so the ratios hold on a busy machine
better than the rates do.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

import ludothek
from ludothek.games.trike import mcts3
from ludothek.games.trike.mcts3_kernels import Tree

SETTINGS = {"mcts": mcts3.DEFAULT, "mcts, policy 0": replace(mcts3.DEFAULT, policy=0), "mcts_v2": mcts3.V2}
POSITIONS = ((7, 5), (13, 3), (13, 13), (19, 3), (19, 19))  # (side, plies played)


def position(side: int, plies: int, seed: int):
    rng = random.Random(seed)
    while True:
        state = ludothek.new_game("trike", size=side)
        while state.ply < plies and not state.is_over():
            state.play(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
        if not state.is_over():
            return state


def rate(state, settings, simulations: int, seed: int) -> float:
    tree = Tree(64 * simulations + 256)
    arrays = (state.geometry.neighbours, state.board.copy(), int(state.pawn), int(state.colour_to_move))
    started = time.process_time()
    ran = mcts3.run_kernel(tree, *arrays, simulations, settings, seed)
    return ran / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=30_000)
    parser.add_argument("--positions", type=int, default=4, help="positions of each side and length")
    args = parser.parse_args()
    for state in (position(7, 5, 0), position(13, 3, 0)):  # load the kernels before timing
        for settings in SETTINGS.values():
            rate(state, settings, 100, 0)
    names = list(SETTINGS)
    print("side  plies  " + "  ".join(f"{name:>15}" for name in names) + "  " +
          "  ".join(f"{name + ' / v2':>20}" for name in names[:-1]))
    for side, plies in POSITIONS:
        rates: dict[str, list[float]] = {name: [] for name in names}
        for seed in range(args.positions):
            state = position(side, plies, seed)
            for repeat in range(2):
                for name in names:
                    rates[name].append(rate(state, SETTINGS[name], args.simulations, 7 + repeat))
        base = rates["mcts_v2"]
        ratios = [statistics.median(a / b for a, b in zip(rates[name], base)) for name in names[:-1]]
        print(f"{side:4}  {plies:5}  " + "  ".join(f"{statistics.median(rates[name]):15,.0f}" for name in names)
              + "  " + "  ".join(f"{ratio:20.2f}" for ratio in ratios), flush=True)


if __name__ == "__main__":
    main()
