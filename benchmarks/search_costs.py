"""Where a node of the compiled Trigeo search spends its time: each kernel the search calls at a
node, timed on positions like the search's leaves, set against the time of a whole node.

    taskset -c 1 python benchmarks/search_costs.py
    taskset -c 1 python benchmarks/search_costs.py --rounds 5 --positions 600

Each round (rounds interleaved, the median shown):

* the search: the agent of ``ludothek analyse trigeo --seconds S`` on the start position
  (nanoseconds a node: ``seconds / iterations`` as ``--json`` reports them, and how many
  evaluations and statuses or lists of moves a node asks for);
* each kernel in a compiled loop over the positions (a few random plies from the start and
  middle-game positions of ``search_speed.py``): the position's status at the horizon (is
  the 1 threatened, the mover's moves counted), the other side's moves counted, both 1s'
  safety, the whole evaluation (the mover's count given, as the search calls it), the free
  captures, the list of legal moves (an inner node) and a move made onto the next frame.

The last lines are the budget: what the evaluation, the status and making the move cost per
node of the search, and what that leaves of the 500 ns a node has at 2 M nodes/s.  A kernel
looping over a few hundred positions runs warmer (caches, branch predictors) than inside the
search, so its cost here is a lower bound of its cost there.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludothek  # noqa: E402
from ludothek.ai.alphabeta import AlphaBetaAgent  # noqa: E402
from ludothek.ai.budget import Budget  # noqa: E402
from ludothek.boards import triangle66 as T  # noqa: E402
from ludothek.core.borrow import borrowed  # noqa: E402
from ludothek.games.dice import search_kernels as K  # noqa: E402
from ludothek.games.dice.eval_kernels import TRIGEO_WEIGHTS, masked_one_safety  # noqa: E402
from ludothek.games.dice.kernels import JUMP_FIELDS_TRIGEO  # noqa: E402
from ludothek.games.dice.masks import ROWS, dice_masks, jump_masks, masked_count_moves  # noqa: E402
from ludothek.games.trigeo.kernels import free_captures, masked_legal_moves_threat, masked_status  # noqa: E402
from ludothek.games.trigeo.search import root  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_speed import positions  # noqa: E402

GAME = "trigeo"
NODE_NS_AT_2M = 500.0  # the time a node has at 2 M nodes/s


# ---------------------------------------------------------------- the kernels, in loops
# Each loop borrows its arrays (ludothek.core.borrow) as the search's run does: numba's
# reference counting would otherwise add its atomics to every call timed.
@njit
def _status(boards, masks, sides, geo, jumps, out, scratch, reps):
    boards, masks, sides = borrowed(boards), borrowed(masks), borrowed(sides)
    geo, jumps = borrowed(geo), borrowed(jumps)
    out, scratch = borrowed(out), borrowed(scratch)
    jump_lo, jump_hi = jump_masks(jumps)
    total = 0
    for _ in range(reps):
        for i in range(boards.shape[0]):
            n, _threat, moves = masked_status(boards[i], masks[i], geo, sides[i], jumps, jump_lo, jump_hi, out,
                                              scratch)
            total += n + moves
    return total


@njit
def _counts(boards, masks, sides, geo, jumps, scratch, other, reps):
    """The mover's (``other`` 0) or the other side's (1) moves counted; the last round's counts."""
    boards, masks, sides = borrowed(boards), borrowed(masks), borrowed(sides)
    geo, jumps = borrowed(geo), borrowed(jumps)
    scratch = borrowed(scratch)
    jump_lo, jump_hi = jump_masks(jumps)
    counts = np.zeros(boards.shape[0], np.int64)
    for _ in range(reps):
        for i in range(boards.shape[0]):
            side = sides[i] ^ other
            counts[i] = masked_count_moves(boards[i], masks[i], geo, side, jumps, jump_lo, jump_hi, True, scratch)
    return counts


@njit
def _safety(boards, masks, geo, jumps, weights, reps):
    boards, masks, geo = borrowed(boards), borrowed(masks), borrowed(geo)
    jumps, weights = borrowed(jumps), borrowed(weights)
    jump_lo, jump_hi = jump_masks(jumps)
    total = 0.0
    for _ in range(reps):
        for i in range(boards.shape[0]):
            total += (masked_one_safety(boards[i], masks[i], geo, 0, jump_lo, jump_hi, weights)
                      - masked_one_safety(boards[i], masks[i], geo, 1, jump_lo, jump_hi, weights))
    return total


@njit
def _evaluation(boards, masks, sides, mover_moves, geo, jumps, weights, scratch, reps):
    boards, masks, sides = borrowed(boards), borrowed(masks), borrowed(sides)
    geo, jumps = borrowed(geo), borrowed(jumps)
    mover_moves, weights, scratch = borrowed(mover_moves), borrowed(weights), borrowed(scratch)
    jump_lo, jump_hi = jump_masks(jumps)
    total = 0.0
    for _ in range(reps):
        for i in range(boards.shape[0]):
            total += K.evaluate(K.TRIGEO, boards[i], boards[i], masks[i], sides[i], geo, jumps, jump_lo, jump_hi,
                                mover_moves[i], scratch, weights)
    return total


@njit
def _move_lists(boards, masks, sides, geo, jumps, out, inner, reps):
    """The free captures (``inner`` 0) or the legal moves of an inner node (1)."""
    boards, masks, sides = borrowed(boards), borrowed(masks), borrowed(sides)
    geo, jumps = borrowed(geo), borrowed(jumps)
    out = borrowed(out)
    jump_lo, jump_hi = jump_masks(jumps)
    total = 0
    for _ in range(reps):
        for i in range(boards.shape[0]):
            if inner:
                n, _threat = masked_legal_moves_threat(boards[i], masks[i], geo, sides[i], jumps, jump_lo, jump_hi, out)
            else:
                n = free_captures(boards[i], masks[i], geo, sides[i], jumps, jump_lo, jump_hi, out)
            total += n
    return total


@njit
def _push(ints, flts, hashes, boards, temps, masks, moves, reps):
    """Frame ``2i`` holds position ``i``; its first legal move is made onto frame ``2i + 1``."""
    ints, flts, hashes, boards = borrowed(ints), borrowed(flts), borrowed(hashes), borrowed(boards)
    temps, masks, moves = borrowed(temps), borrowed(masks), borrowed(moves)
    total = np.uint64(0)
    for _ in range(reps):
        for i in range(moves.shape[0]):
            K._push_move(K.TRIGEO, ints, flts, hashes, boards, temps, masks, 2 * i, moves[i], 0, -1.0, 1.0, K.K_QS, 1)
            total ^= hashes[2 * i + 1]
    return total


# ---------------------------------------------------------------- positions and the search
def sample(count: int, seed: int):
    """States a few random plies from the benchmark positions (none over), and their boards,
    masks and sides as arrays."""
    rng = random.Random(seed)
    starts = positions(GAME, 4)
    found = []
    while len(found) < count:
        state = rng.choice(starts).copy()
        for _ in range(rng.randrange(2, 10)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_actions()))
        if not state.is_over():
            found.append(state)
    boards = np.array([s.board for s in found], np.int8)
    masks = np.zeros((count, ROWS, 2), np.uint64)
    for i in range(count):
        dice_masks(boards[i], masks[i])
    sides = np.array([s.side for s in found], np.int64)
    return found, boards, masks, sides


def frames_for_push(found, boards, masks, sides):
    count = len(found)
    ints = np.zeros((2 * count, K.N_INTS), np.int64)
    flts = np.zeros((2 * count, K.N_FLTS), np.float64)
    hashes = np.zeros(2 * count, np.uint64)
    frame_boards = np.zeros((2 * count, boards.shape[1]), np.int8)
    temps = np.zeros_like(frame_boards, np.bool_)
    frame_masks = np.zeros((2 * count, ROWS, 2), np.uint64)
    moves = np.zeros(count, np.int32)
    for i, state in enumerate(found):
        frame_boards[2 * i] = boards[i]
        frame_masks[2 * i] = masks[i]
        ints[2 * i, K.F_SIDE] = sides[i]
        hashes[2 * i] = np.uint64(root(state).key)
        moves[i] = state.legal_actions()[0]
    return ints, flts, hashes, frame_boards, temps, frame_masks, moves


def search_round(seconds: float) -> dict:
    agent = AlphaBetaAgent(GAME, 1, Budget(seconds=seconds), exact_root=True)  # analyse's agent
    analysis = agent.analyse(ludothek.new_game(GAME))
    reg = agent.compiled_tables.reg
    nodes = int(analysis.iterations)
    return {"ns a node": 1e9 * analysis.seconds / nodes, "nodes": nodes,
            "evaluations a node": int(reg[K.R_EVALS]) / nodes,
            "statuses and lists a node": int(reg[K.R_GENERATED]) / nodes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--reps", type=int, default=200, help="passes over the positions per kernel and round")
    parser.add_argument("--seconds", type=float, default=3.0, help="the search's budget (as analyse --seconds)")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()

    found, boards, masks, sides = sample(args.positions, args.seed)
    geo, jumps, weights = T.GEO, JUMP_FIELDS_TRIGEO, np.array(TRIGEO_WEIGHTS)
    out, scratch = np.zeros(K.MAX_LIST, np.int32), np.zeros(K.MAX_LIST, np.int32)
    mover_moves = _counts(boards, masks, sides, geo, jumps, scratch, 0, 1)
    push_frames = frames_for_push(found, boards, masks, sides)
    kernels = {
        "status (threat, mover's count)": (_status, (boards, masks, sides, geo, jumps, out, scratch)),
        "the other side's count": (_counts, (boards, masks, sides, geo, jumps, scratch, 1)),
        "both 1s' safety": (_safety, (boards, masks, geo, jumps, weights)),
        "evaluation (mover's count given)":
            (_evaluation, (boards, masks, sides, mover_moves, geo, jumps, weights, scratch)),
        "free captures": (_move_lists, (boards, masks, sides, geo, jumps, out, 0)),
        "legal moves (inner node)": (_move_lists, (boards, masks, sides, geo, jumps, out, 1)),
        "a move onto the next frame": (_push, push_frames),
    }
    for function, arguments in kernels.values():
        function(*arguments, 1)  # compile
    search_round(0.2)  # load the search
    timings: dict[str, list[float]] = {name: [] for name in kernels}
    searches = []
    for number in range(args.rounds):
        searches.append(search_round(args.seconds))
        for name, (function, arguments) in kernels.items():
            started = time.perf_counter()
            function(*arguments, args.reps)
            timings[name].append(1e9 * (time.perf_counter() - started) / (args.reps * len(found)))
        print(f"round {number + 1}/{args.rounds}: {searches[-1]['ns a node']:.0f} ns a search node", file=sys.stderr)

    node_ns = statistics.median(s["ns a node"] for s in searches)
    evaluations = statistics.median(s["evaluations a node"] for s in searches)
    statuses = statistics.median(s["statuses and lists a node"] for s in searches)
    cost = {name: statistics.median(values) for name, values in timings.items()}
    print(f"\n{GAME}: the search of the start position, {args.seconds:g} s, median of {args.rounds} rounds")
    print(f"  {node_ns:.0f} ns a node ({1e3 / node_ns:.2f} M nodes/s), {searches[-1]['nodes']:,} nodes; "
          f"{evaluations:.2f} evaluations and {statuses:.2f} statuses or lists a node")
    print(f"\n{'kernel':<36} {'ns a call':>10} {'range':>15}")
    for name, values in timings.items():
        print(f"{name:<36} {cost[name]:>10.0f} {min(values):>7.0f}-{max(values):<7.0f}")
    leaf = (evaluations * cost["evaluation (mover's count given)"] + statuses * cost["status (threat, mover's count)"]
            + cost["a move onto the next frame"])
    print(f"\nevaluation, status and the move onto the frame, at the rates the search asks for them: "
          f"{leaf:.0f} ns a node, {leaf / node_ns:.0%} of it")
    left = NODE_NS_AT_2M - leaf
    print(f"everything else (the loop, ordering, captures, lists, the tables, cache misses): "
          f"{node_ns - leaf:.0f} ns; at 2 M nodes/s "
          + (f"it would have {left:.0f} ns ({left / (node_ns - leaf):.2f}× its time now)" if left > 0
             else "nothing would be left for it"))


if __name__ == "__main__":
    main()
