"""Check benchmarks/c/hexalit_perft against ludothek's Hexalit perft.

Builds the C program if it is missing or older than its source, then compares the counts
at depths 1..DEPTH (default 4) from the start position and from positions reached by
random games: some with temporary dice of the side to move or of its opponent, some with
a threatened lone 1 (the Eins-Gebot), some with two or more 1s of the side to move.
Exits non-zero on any mismatch.

Usage (from /tmp, so that the current directory does not shadow ludothek):
    python /work/main/benchmarks/c/check_hexalit.py [DEPTH] [GAMES]
"""

import os
import random
import subprocess
import sys

import ludothek
from ludothek.boards.triangle66 import GEO
from ludothek.games.hexalit import kernels

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "hexalit_perft.c")
BINARY = os.path.join(HERE, "hexalit_perft")


def build():
    if not os.path.exists(BINARY) or os.path.getmtime(BINARY) < os.path.getmtime(SOURCE):
        subprocess.run(["cc", "-O3", "-march=native", "-Wall", "-Wextra", "-o", BINARY, SOURCE], check=True)


def kind(state):
    """What the position is interesting for (a set of labels)."""
    board, temp, side = state.board, state.temp, state.side
    sgn = 1 - 2 * side
    labels = set()
    if any(temp[c] and board[c] * sgn > 0 for c in range(66)):
        labels.add("mover-temp")
    if any(temp[c] and board[c] * sgn < 0 for c in range(66)):
        labels.add("opponent-temp")
    ones = sum(1 for c in range(66) if board[c] * sgn == 1)
    if ones >= 2:
        labels.add("mover-ones>=2")
    if kernels.gebot_cell(board, GEO, side) >= 0:
        labels.add("gebot")
    if any(temp[c] and board[c] * sgn == 1 for c in range(66)):
        labels.add("temp-1")
    return labels


def positions(games, seed=1, each=3):
    """Turn starts from ``games`` random games (actions uniform, roll faces uniform): for
    every label of :func:`kind` (and its pairs) up to ``each`` positions that have it, and
    the last position of every game."""
    rng = random.Random(seed)
    pool = []
    last = []
    for _ in range(games):
        state = ludothek.new_game("hexalit")
        plies = rng.randrange(6, 200)
        for _ in range(plies):
            if state.is_over():
                break
            if state.current_player() == ludothek.CHANCE:
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
                continue
            labels = kind(state)
            if labels:
                pool.append((state.board.copy(), state.temp.copy(), state.side, labels))
            state.apply_action(rng.choice(state.legal_actions()))
        if state.current_player() != ludothek.CHANCE and not state.is_over():
            last.append((state.board.copy(), state.temp.copy(), state.side, kind(state) | {"game-end"}))
    rng.shuffle(pool)
    chosen = []
    wanted = {}
    for case in pool:  # the rarest combinations first: a position counts for its label pairs
        labels = sorted(case[3])
        keys = [(a, b) for a in labels for b in labels if a <= b]
        if any(wanted.get(k, 0) < each for k in keys):
            chosen.append(case)
            for k in keys:
                wanted[k] = wanted.get(k, 0) + 1
    return chosen + last[: max(0, 12 - len(chosen))] + last[-4:]


def c_counts(board, temp, side, depth):
    args = [BINARY, str(depth), ",".join(str(int(v)) for v in board), "".join("1" if t else "0" for t in temp), str(side)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()
    return [int(x) for x in out[1::2]]


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    build()
    start = ludothek.new_game("hexalit")
    cases = [(start.board.copy(), start.temp.copy(), start.side, {"start"})] + positions(games)
    covered = {}
    bad = 0
    for i, (board, temp, side, labels) in enumerate(cases):
        theirs = [int(kernels.perft(board, temp, GEO, side, d)) for d in range(1, depth + 1)]
        ours = c_counts(board, temp, side, depth)
        ok = theirs == ours
        bad += not ok
        for label in labels:
            covered[label] = covered.get(label, 0) + 1
        print(f"{i:2d} {'ok ' if ok else 'BAD'} side={side} {','.join(sorted(labels)) or '-':40s} ludothek {theirs}"
              + ("" if ok else f" C {ours}"))
    print("positions:", len(cases), "covered:", ", ".join(f"{k} {v}" for k, v in sorted(covered.items())))
    for needed in ("mover-temp", "opponent-temp", "gebot", "mover-ones>=2", "temp-1"):
        if needed not in covered:
            print("no position with", needed)
            bad += 1
    print("mismatches:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
