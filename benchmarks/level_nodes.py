"""Nodes (alpha-beta) or simulations (MCTS) searched per move at each bot level, with the time
and depth, on a few positions of each game (a few seeded random plies in, not yet decided).

    nice -n 10 python benchmarks/level_nodes.py                       # levels 1-8, every game
    nice -n 10 python benchmarks/level_nodes.py --levels 5-7 --games trigeo,hexalit --positions 3

The time-budgeted levels (6-8) search as many nodes as the machine gives them in their time:
on a busy machine fewer. "critical" counts the moves given more than their budget (the dice
games, ludothek/ai/timing.py). The table is Markdown, for docs/LADDER.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludothek  # noqa: E402
from ludothek.ai.alphabeta import AlphaBetaAgent  # noqa: E402
from ludothek.ai.base import make_agent  # noqa: E402
from ludothek.ai.budget import Budget  # noqa: E402
from ludothek.ai.levels import LEVELS, level_of  # noqa: E402
from ludothek.web.botpool import warm_game  # noqa: E402


def positions(game: str, count: int, seed: int, plies: int = 8) -> list:
    """``count`` positions ``plies`` random plies in (fewer for Bitis, whose games are short)
    that a short search does not find decided."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = ludothek.new_game(game)
        for _ in range(plies if game != "bitis" else 3):
            if state.is_over():
                break
            if state.current_player() < 0:
                actions, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(actions, weights)[0])
            else:
                state.play(rng.choice(state.legal_actions()))
        while not state.is_over() and state.current_player() < 0:
            state.play(rng.choices(*zip(*state.chance_outcomes()))[0])
        if state.is_over():
            continue
        if game != "bitis" and abs(AlphaBetaAgent(game, 1, Budget(iterations=3000)).analyse(state).value) > 0.5:
            continue
        found.append(state)
    return found


def level_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return [level for level in LEVELS if int(first) <= level <= int(last or first)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="trike,trigeo,hexalit,bitis")
    parser.add_argument("--levels", default="1-8", help="e.g. 1-8 or 6-7")
    parser.add_argument("--positions", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| game | level | search | nodes a move (mean, min … max) | seconds a move (mean, most) | depth | critical |")
    print("|------|------:|--------|------------------|---------------|------:|---------:|")
    for game in args.games.split(","):
        states = positions(game, args.positions, args.seed)
        warm_game(game, others=False)  # compile or load each level's kernels before any clock runs
        for level in level_range(args.levels):
            spec = level_of(game, level)
            nodes, seconds, depths, critical = [], [], [], 0
            for i, state in enumerate(states):
                agent = make_agent(f"bot:{level}", game, seed=i + 1)
                found = agent.analyse(state)
                nodes.append(found.iterations)
                seconds.append(found.seconds)
                depths.append(found.depth)
                critical += found.critical is not None
            print(f"| {game} | {level} | {spec.algorithm} {spec.budget.describe()} | "
                  f"{statistics.mean(nodes):,.0f} ({min(nodes):,} … {max(nodes):,}) | "
                  f"{statistics.mean(seconds):.3f} ({max(seconds):.3f}) | {statistics.mean(depths):.1f} | "
                  f"{critical}/{len(states)} |", flush=True)


if __name__ == "__main__":
    main()
