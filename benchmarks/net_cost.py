"""What the learned evaluation costs the compiled search per node, by the width of its hidden layer.

    taskset -c 1 python benchmarks/net_cost.py
    taskset -c 1 python benchmarks/net_cost.py --game hexalit --hidden 32 64 128 256 --rounds 5

A net whose output weights are zero gives the hand evaluation's values exactly, so the search
with it builds the same tree as the search with the hand evaluation alone and the difference in
time is the net's cost alone. Each round runs every search on the start position and a few
middle-game positions (``search_speed.positions``) at ``--nodes``; rounds are interleaved, the
first is a warm-up, and the table shows CPU time per node and its ratio to the hand
evaluation's, measured in the same run (docs/LEARNED_EVAL.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_speed import positions

from ludothek.ai.alphabeta import AlphaBetaAgent
from ludothek.ai.budget import Budget
from ludothek.games.dice import net as N


def zero_net(hidden: int) -> np.ndarray:
    """A net of ``hidden`` random units whose output weights are zero: the hand evaluation."""
    return N.pack(N.init_params(hidden, np.random.default_rng(1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="trigeo", choices=("trigeo", "hexalit"))
    parser.add_argument("--hidden", type=int, nargs="+", default=[1, 16, 64, 128])
    parser.add_argument("--nodes", type=int, default=20000)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()

    states = positions(args.game, args.positions)
    settings = {"hand": {}} | {f"{h} units": {"net": zero_net(h)} for h in args.hidden}
    cpu = dict.fromkeys(settings, 0.0)
    nodes = dict.fromkeys(settings, 0)
    for round_number in range(args.rounds):
        for state in states:
            for name, options in settings.items():
                agent = AlphaBetaAgent(args.game, 1, Budget(iterations=args.nodes), search_options=options)
                start = time.process_time()
                analysis = agent.analyse(state)
                if round_number:  # the first round warms the kernels and the caches
                    cpu[name] += time.process_time() - start
                    nodes[name] += analysis.iterations
    hand = cpu["hand"] / nodes["hand"]
    print(f"{args.game}: {len(states)} positions x {args.nodes} nodes, {args.rounds - 1} rounds timed")
    print(f"{'search':<10} {'nodes':>9} {'ns/node':>8} {'x hand':>7}")
    for name in settings:
        per_node = cpu[name] / nodes[name]
        print(f"{name:<10} {nodes[name]:>9} {1e9 * per_node:>8.0f} {per_node / hand:>7.3f}")


if __name__ == "__main__":
    main()
