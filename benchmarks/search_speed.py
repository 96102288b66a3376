"""Nodes per second of the alpha-beta searches of the dice games: the Python search
(``alphabeta-py``) against the compiled one (``alphabeta``), in the same run, on the start
position and a few middle-game positions; and the time both need for the same tree.

    taskset -c 1 python benchmarks/search_speed.py --seconds 3
    taskset -c 1 python benchmarks/search_speed.py --games trigeo --options

Three tables per game:

* ``rate``: each search with ``--seconds`` on each position: nodes, seconds, depth reached,
  nodes per second (wall clock; ``cpu`` per CPU second, which a busy machine does not
  distort), and compiled / Python.  The two count nodes alike (a position the search
  visits) except that the Python search counts a horizon node twice (its ``_search`` and its
  ``_quiesce`` call).
* ``same tree``: both searches to a fixed depth with nothing that changes values (no table
  cut-offs, no reductions: the tree of plain alpha-beta), CPU seconds and the ratio.
* ``options`` (with ``--options``): the compiled search's nodes and CPU seconds to a fixed
  depth with the late-move and null-move reductions on and off.
* ``--duel A B``: paired games (each opening played with both colours) between two settings
  of the compiled search at the same node budget, e.g.
  ``--duel '{"lmr": 1}' '{"lmr": 0}' --duel-nodes 10000 --pairs 40`` (how the defaults of
  :mod:`ludothek.games.dice.search` were chosen).

Middle-game positions come from seeded games of a compiled bot after a random opening, so
every run measures the same positions. ``--pin CPU`` pins the process itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludothek  # noqa: E402
from ludothek.ai.alphabeta import AlphaBetaAgent  # noqa: E402
from ludothek.ai.budget import Budget  # noqa: E402
from ludothek.core.protocol import CHANCE  # noqa: E402

PLAIN = {"tt": "off", "lmr": 0, "null_move": 0}
OPTION_SETS = [
    {"lmr": 0, "null_move": 0}, {"lmr": 1, "null_move": 0}, {"lmr": 2, "null_move": 0},
    {"lmr": 0, "null_move": 2}, {"lmr": 1, "null_move": 2},
]


class _NoTable(dict):
    def get(self, key, default=None):
        return None

    def __setitem__(self, key, value):
        pass


def middle_game(game: str, seed: int, plies: int):
    rng = random.Random(seed)
    state = ludothek.new_game(game)
    bot = AlphaBetaAgent(game, seed, Budget(iterations=3000))
    for k in range(plies):
        if state.is_over():
            break
        if state.current_player() == CHANCE or k < 4:
            state.play(rng.choice(state.legal_actions()))
        else:
            state.play(bot.choose(state))
    while not state.is_over() and state.current_player() == CHANCE:
        state.play(rng.choice(state.legal_actions()))
    return state


def positions(game: str, count: int) -> list:
    found = [ludothek.new_game(game)]
    seed = 0
    while len(found) < count + 1 and seed < 10 * count:
        state = middle_game(game, seed, 20 + 6 * seed)
        seed += 1
        if not state.is_over():
            found.append(state)
    return found


def timed(agent, state):
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = agent.analyse(state)
    return analysis, time.perf_counter() - wall, time.process_time() - cpu


def rate_table(game: str, states: list, seconds: float) -> None:
    print(f"\n{game}: rate, {seconds:g} s a search")
    print(f"{'position':<9} {'search':<13} {'nodes':>9} {'depth':>5} {'nodes/s':>10} {'nodes/cpu s':>11} {'ratio':>6}")
    totals = {}
    for number, state in enumerate(states):
        rates = {}
        for name, compiled in (("alphabeta-py", False), ("alphabeta", True)):
            agent = AlphaBetaAgent(game, 1, Budget(seconds=seconds), compiled=compiled)
            analysis, wall, cpu = timed(agent, state)
            rates[name] = (analysis.iterations / wall, analysis.iterations / max(cpu, 1e-9))
            for k, v in zip(("wall", "cpu"), rates[name]):
                totals.setdefault((name, k), []).append(v)
            ratio = "" if not compiled else f"{rates['alphabeta'][0] / rates['alphabeta-py'][0]:6.1f}"
            label = "start" if number == 0 else f"middle {number}"
            print(f"{label:<9} {name:<13} {analysis.iterations:>9} {analysis.depth:>5} {rates[name][0]:>10.0f} "
                  f"{rates[name][1]:>11.0f} {ratio:>6}")
    mean = {key: sum(v) / len(v) for key, v in totals.items()}
    print(f"{'mean':<9} {'alphabeta-py':<13} {'':>9} {'':>5} {mean['alphabeta-py', 'wall']:>10.0f} "
          f"{mean['alphabeta-py', 'cpu']:>11.0f}")
    print(f"{'mean':<9} {'alphabeta':<13} {'':>9} {'':>5} {mean['alphabeta', 'wall']:>10.0f} "
          f"{mean['alphabeta', 'cpu']:>11.0f} {mean['alphabeta', 'wall'] / mean['alphabeta-py', 'wall']:6.1f}")


def same_tree_table(game: str, states: list, depth: int) -> None:
    print(f"\n{game}: the same tree (plain alpha-beta to depth {depth}, quiescence 4)")
    print(f"{'position':<9} {'python s':>9} {'compiled s':>10} {'ratio':>7} {'value':>9}")
    total_py = total_c = 0.0
    for number, state in enumerate(states):
        python = AlphaBetaAgent(game, 0, Budget(iterations=10**9), max_depth=depth, compiled=False)
        python.tt = _NoTable()
        compiled = AlphaBetaAgent(game, 0, Budget(iterations=10**9), max_depth=depth, search_options=PLAIN)
        a, _, cpu_py = timed(python, state)
        b, _, cpu_c = timed(compiled, state)
        assert abs(a.value - b.value) < 1e-9, (state.position(), a.value, b.value)
        total_py += cpu_py
        total_c += cpu_c
        label = "start" if number == 0 else f"middle {number}"
        print(f"{label:<9} {cpu_py:>9.3f} {cpu_c:>10.4f} {cpu_py / max(cpu_c, 1e-9):>7.0f} {b.value:>9.4f}")
    print(f"{'all':<9} {total_py:>9.3f} {total_c:>10.4f} {total_py / max(total_c, 1e-9):>7.0f}")


def options_table(game: str, states: list, depth: int) -> None:
    print(f"\n{game}: the compiled search's reductions, nodes and CPU seconds to depth {depth} (all positions)")
    for options in OPTION_SETS:
        nodes = 0
        cpu = 0.0
        for state in states:
            agent = AlphaBetaAgent(game, 1, Budget(iterations=10**9), max_depth=depth, search_options=options)
            analysis, _, spent = timed(agent, state)
            nodes += analysis.iterations
            cpu += spent
        print(f"  {str(options):<32} nodes {nodes:>10}  cpu {cpu:7.2f} s  ({nodes / cpu:,.0f} nodes/s)")


def duel(game: str, first: dict, second: dict, nodes: int, pairs: int) -> None:
    """Paired games: ``first`` plays each random four-ply opening once with each colour."""
    score = 0.0
    games = 0
    for pair in range(pairs):
        rng = random.Random(1000 + pair)
        opening = ludothek.new_game(game)
        for _ in range(4):
            while opening.current_player() == CHANCE:
                opening.play(rng.choice(opening.legal_actions()))
            opening.play(rng.choice(opening.legal_actions()))
        for seat in (0, 1):
            state = opening.copy()
            dice = random.Random(5000 + pair)
            agents = {seat: AlphaBetaAgent(game, pair, Budget(iterations=nodes), search_options=first),
                      1 - seat: AlphaBetaAgent(game, pair, Budget(iterations=nodes), search_options=second)}
            while not state.is_over():
                player = state.current_player()
                if player == CHANCE:
                    state.play(dice.choice(state.legal_actions()))
                else:
                    state.play(agents[player].choose(state))
            score += (state.returns()[seat] + 1) / 2
            games += 1
        print(f"  {games} games: {first} scores {score}/{games}", flush=True)
    print(f"\n{game}: {first} against {second}, {nodes} nodes a move: {score}/{games} = {score / games:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["trigeo", "hexalit"])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--middle", type=int, default=3, help="middle-game positions besides the start")
    parser.add_argument("--depth", type=int, default=0, help="same-tree depth (default: 3 Trigeo, 2 Hexalit)")
    parser.add_argument("--options", action="store_true", help="also measure the reductions")
    parser.add_argument("--options-depth", type=int, default=0, help="default: 7 Trigeo, 4 Hexalit")
    parser.add_argument("--duel", nargs=2, metavar=("A", "B"), help="settings (JSON) of two searches to pair")
    parser.add_argument("--duel-nodes", type=int, default=10000)
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--pin", type=int, default=None, metavar="CPU", help="pin this process to one CPU")
    args = parser.parse_args()
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})
    print(f"CPUs allowed: {sorted(os.sched_getaffinity(0))}; load average {os.getloadavg()[0]:.2f}")
    if args.duel:
        for game in args.games:
            duel(game, json.loads(args.duel[0]), json.loads(args.duel[1]), args.duel_nodes, args.pairs)
        return
    for game in args.games:
        states = positions(game, args.middle)
        for state in states:  # load the kernels before any clock starts
            AlphaBetaAgent(game, 0, Budget(iterations=50)).analyse(state)
            AlphaBetaAgent(game, 0, Budget(iterations=50), compiled=False).analyse(state)
        rate_table(game, states, args.seconds)
        same_tree_table(game, states, args.depth or (3 if game == "trigeo" else 2))
        if args.options:
            options_table(game, states, args.options_depth or (7 if game == "trigeo" else 4))


if __name__ == "__main__":
    main()
