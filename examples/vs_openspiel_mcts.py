"""Our strongest bot against OpenSpiel's C++ MCTS bot, on every game.

Needs the extra ``ludothek[openspiel]``. For each game, plays ``--games`` games with the
same thinking time per move for both sides (``--seconds``), alternating seats, and prints
a result table. OpenSpiel's side is ``pyspiel.MCTSBot`` (UCT, c = 2, one random rollout per
leaf, MCTS-Solver on) searching our game through the OpenSpiel adapter
(:mod:`ludothek.integrations.openspiel`) under a wall-clock limit per move.

Our side (``--ours auto``): the stored perfect player where a game is solved (Bitis), else
the algorithm of our strongest level (``bot:5``) given the same time per move as OpenSpiel;
if no bots are installed, the random agent (and the table says so).

    python examples/vs_openspiel_mcts.py --games 100 --seconds 0.1
    python examples/vs_openspiel_mcts.py --game trike -o trike:size=9 --games 20

Note: OpenSpiel's ``MCTSBot.step`` crashes (segfault) on Python-implemented games in
open-spiel 2.0.2; we call ``mcts_search`` and take the best child, which is what ``step``
does.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

import ludothek
from ludothek.core.errors import LudothekError
from ludothek.core.options import parse_assignments
from ludothek.core.protocol import CHANCE
from ludothek.core.registry import games as game_names

try:
    import pyspiel

    from ludothek.integrations import openspiel as los
except ImportError as exc:  # pragma: no cover - message for people without the extra
    sys.exit(str(exc))


@dataclass
class Tally:
    game: str
    options: dict
    ours_name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_as_first: int = 0
    first_games: int = 0
    plies: int = 0
    ours_time: float = 0.0
    ours_moves: int = 0
    theirs_time: float = 0.0
    theirs_moves: int = 0
    theirs_sims: int = 0
    fallbacks: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


def our_agent(game: str, spec: str, seconds: float, seed: int):
    """(agent, description) for ``--ours``."""
    from ludothek.ai.base import make_agent

    if spec != "auto":
        return make_agent(spec, game, seed), spec
    if game == "bitis":
        try:
            return make_agent("perfect", game, seed), "perfect (solved)"
        except (LudothekError, ImportError):
            pass
    try:
        from ludothek.ai.levels import LEVELS, level_of

        level = level_of(game, max(LEVELS))
        ms = max(1, round(seconds * 1000))
        spec = f"{level.algorithm}:{ms}ms"
        return make_agent(spec, game, seed), f"bot:{max(LEVELS)} algorithm ({spec})"
    except (LudothekError, ImportError):
        return make_agent("random", game, seed), "random (no ludothek bots installed)"


def mcts_bot(game, seconds: float, seed: int):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(
        game, evaluator, 2.0, 10**9, 1000, True, seed, False, pyspiel.ChildSelectionPolicy.UCT, seconds
    )
    return bot, evaluator  # keep the evaluator alive as long as the bot


def play_one(game_name, options, os_game, ours, bot, our_seat, rng, tally):
    ours_state = ludothek.new_game(game_name, **options)
    os_state = os_game.new_initial_state()
    while not ours_state.is_over():
        player = ours_state.current_player()
        assert os_state.current_player() == (pyspiel.PlayerId.CHANCE if player == CHANCE else player)
        if player == CHANCE:
            actions, weights = zip(*ours_state.chance_outcomes())
            action = rng.choices(actions, weights)[0]
        elif player == our_seat:
            start = time.perf_counter()
            action = ours.choose(ours_state.copy())
            tally.ours_time += time.perf_counter() - start
            tally.ours_moves += 1
        else:
            start = time.perf_counter()
            root = bot.mcts_search(os_state)
            best = root.best_child()
            if best is None:  # no child searched (rare: the clock ran out first)
                children = list(root.children)
                if children:
                    action = max(children, key=lambda c: c.explore_count).action
                else:
                    action = rng.choice(os_state.legal_actions())
                tally.fallbacks += 1
                print(
                    f"  MCTS gave no best child in {ours_state.position()!r} "
                    f"({len(children)} children, {root.explore_count} visits)",
                    file=sys.stderr,
                )
            else:
                action = best.action
            tally.theirs_time += time.perf_counter() - start
            tally.theirs_moves += 1
            tally.theirs_sims += root.explore_count
        ours_state.play(int(action))
        os_state.apply_action(int(action))
    assert os_state.is_terminal()
    returns = ours_state.returns()
    assert list(os_state.returns()) == returns
    tally.games += 1
    tally.plies += ours_state.ply
    result = returns[our_seat]
    tally.wins += result > 0
    tally.losses += result < 0
    tally.draws += result == 0
    if our_seat == 0:
        tally.first_games += 1
        tally.wins_as_first += result > 0


def run_game(game_name, options, args, tally: Tally) -> Tally:
    os_game = los.load_game(game_name, **options)
    ours, tally.ours_name = our_agent(game_name, args.ours, args.seconds, args.seed)
    rng = random.Random(args.seed)
    for i in range(args.games):
        bot, _evaluator = mcts_bot(os_game, args.seconds, args.seed + i)
        ours, _ = our_agent(game_name, args.ours, args.seconds, args.seed + i)
        play_one(game_name, options, os_game, ours, bot, i % 2, rng, tally)
        if args.verbose:
            print(f"  {game_name} game {i + 1}: {tally.wins}-{tally.draws}-{tally.losses}", file=sys.stderr, flush=True)
    return tally


def table(tallies: list[Tally], seconds: float) -> str:
    head = (
        f"{'game':<22} {'ours':<34} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>6} "
        f"{'plies':>6} {'s/move ours':>11} {'s/move MCTS':>11} {'sims/move':>9}"
    )
    lines = [f"Our bot vs OpenSpiel MCTSBot (UCT c=2, 1 random rollout, solver), {seconds:g} s per move", head]
    lines.append("-" * len(head))
    for t in tallies:
        name = t.game + (" " + ",".join(f"{k}={v}" for k, v in t.options.items()) if t.options else "")
        lines.append(
            f"{name:<22} {t.ours_name:<34} {t.games:>5} {t.wins:>4} {t.draws:>4} {t.losses:>4} "
            f"{100 * t.score:>5.1f}% {t.plies / max(t.games, 1):>6.1f} "
            f"{t.ours_time / max(t.ours_moves, 1):>11.3f} {t.theirs_time / max(t.theirs_moves, 1):>11.3f} "
            f"{t.theirs_sims / max(t.theirs_moves, 1):>9.0f}"
        )
    lines.append("W/D/L from our side; seats alternate (our bot moves first in half of the games).")
    fallbacks = sum(t.fallbacks for t in tallies)
    if fallbacks:
        lines.append(f"MCTS returned no best child {fallbacks} times; it then played its most visited child.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game type (default 100)")
    parser.add_argument("--seconds", type=float, default=0.1, help="thinking time per move for both (default 0.1)")
    parser.add_argument("--game", action="append", help="a game to play (repeatable; default: every game)")
    parser.add_argument("-o", "--option", action="append", default=[], help="GAME:NAME=VALUE, e.g. trike:size=9")
    parser.add_argument("--ours", default="auto", help="our agent spec (default auto: strongest available)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="report every game on stderr")
    args = parser.parse_args(argv)
    names = args.game or game_names()
    options: dict[str, dict] = {name: {} for name in names}
    for item in args.option:
        game, _, assignment = item.partition(":")
        if game not in options:
            parser.error(f"option {item!r}: game {game!r} is not being played")
        options[game].update(parse_assignments([assignment]))
    tallies = []
    for name in names:
        started = time.time()
        tally = Tally(name, options[name], "?")
        try:
            run_game(name, options[name], args, tally)
        except Exception as exc:  # noqa: BLE001 - report it, keep the games played, go on
            print(f"{name}: stopped by {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            tally.ours_name += f" (stopped: {type(exc).__name__})"
        tallies.append(tally)
        print(f"{name}: {tally.games} games in {time.time() - started:.0f} s", file=sys.stderr, flush=True)
        print(table(tallies, args.seconds), file=sys.stderr, flush=True)
    print(table(tallies, args.seconds))


if __name__ == "__main__":
    main()
