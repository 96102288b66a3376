"""Fit Trike's learned move prior (``ludothek/games/trike/prior_kernels.py``).

    python benchmarks/trike_prior.py play --size 13 --games 100 --sims 20000 --seed 1 --out /tmp/p13.npz
    python benchmarks/trike_prior.py fit /tmp/p13.npz /tmp/p19.npz --out ludothek/games/trike/prior.npz

``play``: self-play by the MCTS (``sims`` simulations a move, the tree kept between moves; UCT as
before the prior unless ``--puct`` is given, which selects with the shipped prior);
every searched position is kept with the search's visits of each move. The opening stone is
random, White never swaps, and the first ``--sample`` searched moves are drawn in proportion to
the visits (the rest are the most visited), so the games differ.
``fit``: the softmax weights that best predict the visit shares (cross-entropy, L2, Adam),
with a tenth of the games held out to report the fit.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace

import numpy as np
from rich.progress import track

from ludothek.ai.budget import Budget
from ludothek.games.trike import mcts3
from ludothek.games.trike import prior_kernels as P
from ludothek.games.trike.mcts3_kernels import free_counts
from ludothek.games.trike.state import TrikeState


def play(args) -> None:
    rng = random.Random(args.seed)
    boards, pawns, colours, visits, games = [], [], [], [], []
    settings = replace(mcts3.DEFAULT, puct=args.puct)
    for game in track(range(args.games), description=f"side {args.size}"):
        state = TrikeState(size=args.size)
        state.apply_action(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
        kept = mcts3.Kept()
        searched = 0
        while not state.is_over():
            if state._swap_allowed():
                state.apply_action(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
                continue
            analysis = mcts3.search(state, Budget(iterations=args.sims).clock(), rng, settings, kept)
            shares = np.zeros(state.board.shape[0], np.int32)
            for action, n in analysis.visits.items():
                shares[action] = n
            if analysis.stopped is None and shares.sum() >= args.sims // 2:
                boards.append(state.board.copy())
                pawns.append(int(state.pawn))
                colours.append(int(state.colour_to_move))
                visits.append(shares)
                games.append(game)
            if searched < args.sample and analysis.stopped is None and shares.sum() > 0:
                move = rng.choices(range(len(shares)), weights=shares.tolist())[0]
            else:
                move = analysis.best
            searched += 1
            state.apply_action(move)
    np.savez_compressed(args.out, size=args.size, boards=np.array(boards), pawns=np.array(pawns),
                        colours=np.array(colours), visits=np.array(visits), games=np.array(games))
    print(f"{len(boards)} positions from {args.games} games -> {args.out}")


def features_of(path: str):
    """(feature indices per move, visit share per move, position of each move, game of each position)."""
    data = np.load(path)
    size = int(data["size"])
    neighbours = TrikeState(size=size).geometry.neighbours
    ring = P.second_ring(neighbours)
    cells = neighbours.shape[0]
    free = np.empty(cells, np.int8)
    buffer = np.empty(cells, np.int16)
    block = np.empty((cells, P.PER_MOVE), np.int64)
    rows, shares, owner = [], [], []
    for i, (board, pawn, colour, visits) in enumerate(zip(data["boards"], data["pawns"], data["colours"],
                                                          data["visits"])):
        free_counts(board, neighbours, free)
        n = P.position_features(board, neighbours, ring, free, int(pawn), int(colour), buffer, block)
        v = visits[buffer[:n]].astype(np.float64)
        rows.append(block[:n].copy())
        shares.append(v / v.sum())
        owner.append(np.full(n, i))
    games = data["games"] + 100000 * size
    return np.concatenate(rows), np.concatenate(shares), np.concatenate(owner), games


def fit(args) -> dict:
    parts = [features_of(path) for path in args.data]
    starts = np.cumsum([0] + [len(games) for *_, games in parts])  # each file's first position
    rows = np.concatenate([part[0] for part in parts])
    shares = np.concatenate([part[1] for part in parts])
    owner = np.concatenate([part[2] + start for part, start in zip(parts, starts)])
    games = np.concatenate([part[3] for part in parts])
    offset = int(starts[-1])
    held_games = {g for g in set(games.tolist()) if hash((int(g), 7)) % 10 == 0}
    held_position = np.array([g in held_games for g in games])
    held = held_position[owner]
    print(f"{offset} positions, {len(rows)} moves; {held_position.sum()} positions held out")

    def loss_and_grad(w, mask):
        logits = w[rows[mask]].sum(axis=1)
        own = owner[mask]
        top = np.full(offset, -np.inf)
        np.maximum.at(top, own, logits)
        e = np.exp(logits - top[own])
        total = np.zeros(offset)
        np.add.at(total, own, e)
        p = e / total[own]
        s = shares[mask]
        positions = len(np.unique(own))
        loss = -(s * np.log(np.maximum(p, 1e-300))).sum() / positions
        g = np.zeros_like(w)
        np.add.at(g, rows[mask].ravel(), np.repeat((p - s) / positions, P.PER_MOVE))
        return loss, g

    w = np.zeros(P.FEATURES)
    m, v = np.zeros_like(w), np.zeros_like(w)
    train = ~held
    for step in track(range(1, args.steps + 1), description="fit"):
        _, g = loss_and_grad(w, train)
        g += args.l2 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w -= args.rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    uniform_loss, _ = loss_and_grad(np.zeros_like(w), held)
    held_loss, _ = loss_and_grad(w, held)
    uniform_train, _ = loss_and_grad(np.zeros_like(w), train)
    train_loss, _ = loss_and_grad(w, train)
    print(f"cross-entropy: train {train_loss:.4f} (uniform {uniform_train:.4f}); "
          f"held out {held_loss:.4f} (uniform {uniform_loss:.4f})")
    np.savez_compressed(args.out, weights=w)
    print(f"-> {args.out}")
    return {"train": train_loss, "uniform_train": uniform_train, "held_out": held_loss,
            "uniform_held_out": uniform_loss}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--size", type=int, default=13)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--sims", type=int, default=20000)
    p.add_argument("--sample", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--puct", type=float, default=0.0, help="select with the shipped prior at this constant")
    p.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--steps", type=int, default=400)
    f.add_argument("--rate", type=float, default=0.05)
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    return play(args) if args.command == "play" else fit(args)


if __name__ == "__main__":
    main(sys.argv[1:])
