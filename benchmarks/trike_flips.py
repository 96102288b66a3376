"""Where Trike games between two searches are won and lost, found by the exact solver.

    python benchmarks/trike_flips.py play mcts:200ms mcts_v2:800ms --size 13 -n 40 --seed 1 --out g1.json
    python benchmarks/trike_flips.py solve g1.json g2.json --most 42 --limit 30000000 --workers 2

``play``: the games ``ludothek match`` plays with the same arguments (the same openings), their
moves and thinking times kept. ``solve``: every position of those games whose pawn region (the empty cells
connected to the pawn) has at most ``--most`` cells is solved exactly (up to ``--limit``
positions each; more leaves it unknown). A move from a won position to a lost one is a *flip*,
counted against the bot that played it. The report gives the plies at which the first
position of a game was solved; how many of each bot's losses were already lost there (decided
while the region was larger) and where the others were lost (the region at the loser's last
flip); and each bot's flips by region size, against the won positions it moved in.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from rich.progress import track

from ludothek.ai.match import game_specs, run_games
from ludothek.games.trike.kernels import EMPTY
from ludothek.games.trike.mcts3_kernels import free_counts, solve
from ludothek.games.trike.state import TrikeState

#: region sizes reported together
BUCKETS = ((0, 10), (11, 15), (16, 20), (21, 25), (26, 30), (31, 35), (36, 40), (41, 999))
#: where a game was lost (:func:`tally`) when no flip in the positions solved decided it
BEFORE, UNSOLVED = -1, -2


def play(args) -> None:
    specs = game_specs("trike", args.a, args.b, args.n, args.seed, options=(("size", args.size),))
    games = []
    for result in track(run_games(specs, args.workers), total=len(specs), description="games"):
        games.append({"number": result.number, "a_seat": result.a_seat, "score_a": result.score_a,
                      "seconds": list(result.seconds), "moves": result.moves})
    games.sort(key=lambda game: game["number"])
    with open(args.out, "w") as out:
        json.dump({"a": args.a, "b": args.b, "size": args.size, "seed": args.seed, "games": games}, out)
    thinking = [sum(g["seconds"][seat] for g in games) for seat in (0, 1)]
    print(f"{args.a} scored {sum(g['score_a'] for g in games)} of {len(games)}, thinking {thinking[0]:.0f} s "
          f"against {thinking[1]:.0f} s -> {args.out}")


def region(board: np.ndarray, neighbours: np.ndarray, pawn: int) -> int:
    """How many empty cells are connected to the pawn."""
    seen = {pawn}
    todo = [pawn]
    count = 0
    while todo:
        cell = todo.pop()
        for other in neighbours[cell]:
            if other >= 0 and other not in seen and board[other] == EMPTY:
                seen.add(int(other))
                todo.append(int(other))
                count += 1
    return count


def solved_game(job: tuple[int, list[str], int, int]) -> tuple[list[tuple[int, int, int]], int]:
    """(player to move, region size, exact value for the mover: +1, -1 or 0 unknown) of each
    position of the game where a bot moves, in order; and the player who won."""
    size, moves, most, limit = job
    state = TrikeState(size=size)
    cells = state.board.shape[0]
    neighbours = state.geometry.neighbours
    free = np.empty(cells, np.int8)
    work = (np.empty((cells + 1, cells), np.int16), np.empty(cells + 1, np.int32), np.empty(cells + 1, np.int32),
            np.empty(cells + 2, np.int32))
    out = []
    for move in moves:
        if state.pawn >= 0 and not state._swap_allowed():
            cells_left = region(state.board, neighbours, int(state.pawn))
            value = 0
            if cells_left <= most:
                board = state.board.copy()
                free_counts(board, neighbours, free)
                value = int(solve(board, neighbours, free, int(state.pawn), int(state.colour_to_move), limit, *work))
            out.append((state.current_player(), cells_left, value))
        state.play(move)
    return out, 0 if state.returns()[0] > 0 else 1


def tally(games: list[tuple[dict[int, str], list[tuple[int, int, int]], int]], most: int) -> dict[str, Counter]:
    """Counts over solved games (each: the bots' names by player, :func:`solved_game`'s positions,
    the winner): ``flips`` and ``won`` (bot, region bucket: won positions given away, won
    positions moved in), ``decided`` (loser, where the game was lost: the bucket of its last
    flip, the loser's, after which the result never changed; ``BEFORE`` when the loser was
    already lost in the first position solved and nothing flipped after; ``UNSOLVED``),
    ``unknown`` (bucket: positions not solved in the limit) and ``first`` (the ply of a game's
    first position solved: how many games)."""
    counts = {name: Counter() for name in ("decided", "flips", "won", "unknown", "first")}
    for names, plies, winner in games:
        first = next((ply for ply, (_, cells, value) in enumerate(plies) if cells <= most and value != 0), None)
        if first is not None:
            counts["first"][first + 2] += 1  # before it: the random first stone and the swap decision
        where = UNSOLVED if all(value == 0 for _, _, value in plies) else BEFORE
        # the value for the next mover after each move; after the last, +1 if its mover lost
        afters = [value for _, _, value in plies[1:]] + [1 if plies[-1][0] != winner else -1]
        for (player, cells, value), after in zip(plies, afters):
            if cells > most:
                continue
            bucket = next(low for low, high in BUCKETS if low <= cells <= high)
            if value == 0:
                counts["unknown"][bucket] += 1
            elif value > 0:
                counts["won"][names[player], bucket] += 1
                if after > 0:  # the opponent, to move next, wins: a won position given away
                    counts["flips"][names[player], bucket] += 1
                    where = bucket
        counts["decided"][names[1 - winner], where] += 1
    return counts


def report(files: list[str], most: int, limit: int, workers: int) -> None:
    records = []
    for path in files:
        data = json.load(open(path))
        records += [(data["size"], game, data["a"], data["b"]) for game in data["games"]]
    jobs = [(size, game["moves"], most, limit) for size, game, _, _ in records]
    with ProcessPoolExecutor(workers) as pool:
        solved = list(track(pool.map(solved_game, jobs), total=len(jobs), description="solving"))
    games = [({game["a_seat"]: a, 1 - game["a_seat"]: b}, plies, winner)
             for (_, game, a, b), (plies, winner) in zip(records, solved)]
    counts = tally(games, most)
    print(f"{len(records)} games, positions with a region of at most {most} cells solved ({limit:,} positions each)")
    plies = sorted(counts["first"].elements())
    if plies:
        print(f"the first position solved came at ply {plies[0]} … {plies[-1]} (median {plies[len(plies) // 2]})")
    for name in (records[0][2], records[0][3]):
        lost = sum(count for (loser, _), count in counts["decided"].items() if loser == name)
        print(f"{name} lost {lost}: {counts['decided'][name, BEFORE]} already lost in the first position solved, "
              f"{counts['decided'][name, UNSOLVED]} never solved, the rest where it last gave a win away:")
        print("  region  given away / won positions moved in  games lost there")
        for low, high in BUCKETS:
            if counts["won"][name, low]:
                print(f"  {low:2}-{high:3}  {counts['flips'][name, low]:4} / {counts['won'][name, low]:5}"
                      f"  {counts['decided'][name, low]:17}")
    print("not solved within the limit: " + ", ".join(f"{low}-{high} {counts['unknown'][low]}"
                                                      for low, high in BUCKETS if counts["unknown"][low]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--size", type=int, default=13)
    p.add_argument("-n", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", required=True)
    s = sub.add_parser("solve")
    s.add_argument("files", nargs="+")
    s.add_argument("--most", type=int, default=42)
    s.add_argument("--limit", type=int, default=30_000_000)
    s.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.command == "play":
        play(args)
    else:
        report(args.files, args.most, args.limit, args.workers)


if __name__ == "__main__":
    main()
