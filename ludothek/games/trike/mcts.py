"""Trike's compiled MCTS driver: runs :func:`.mcts_kernels.simulate` in chunks
against the clock and turns the tree's root into an :class:`Analysis`.

Used by :class:`ludothek.ai.mcts.MCTSAgent` once the pie rule is settled (from White's
first reply on); the opening move and the swap decision stay with the generic tree,
which knows seats and the swap."""

from __future__ import annotations

import numpy as np

from ...ai.base import Analysis
from .mcts_kernels import ACTION, COUNT, FIRST, VISITS, Tree, simulate

MAX_NODES = 3_000_000


def applicable(state) -> bool:
    return state.pawn >= 0 and not state._swap_allowed() and not state.is_over()


def search(state, clock, rng, exploration: float) -> Analysis:
    budget = clock.budget
    capacity = MAX_NODES if budget.iterations is None else min(MAX_NODES, 64 * budget.iterations + 256)
    tree = Tree(capacity)
    neighbours, board = state.geometry.neighbours, state.board.copy()
    pawn, colour = int(state.pawn), int(state.colour_to_move)
    chunk = 64
    while True:
        want = chunk if budget.iterations is None else min(chunk, budget.iterations - clock.count)
        if want <= 0:
            break
        ran = simulate(tree.ints, tree.value, tree.proven, tree.used, neighbours, board, pawn, colour, want,
                       exploration, rng.getrandbits(31))
        clock.tick(ran)
        if ran < want or tree.proven[0] != 0 or clock.out_of_time():
            break
        chunk = min(chunk * 2, 4096)
    return _report(state, tree, colour, clock)


def _children(tree: Tree, node: int) -> range:
    first, count = int(tree.ints[node, FIRST]), int(tree.ints[node, COUNT])
    return range(first, first + count)


def _best_child(tree: Tree, node: int, sign: int) -> int:
    children = _children(tree, node)
    for child in children:
        if tree.proven[child] * sign > 0:
            return child

    def rank(child: int):
        lost = tree.proven[child] * sign < 0
        visits = int(tree.ints[child, VISITS])
        return (not lost, visits, sign * tree.value[child] / max(visits, 1))

    return max(children, key=rank)


def _report(state, tree: Tree, colour: int, clock) -> Analysis:
    # the seat to move sees Black's values with this sign
    sign = 1 if colour == 1 else -1
    scores, visits = {}, {}
    for child in _children(tree, 0):
        action = int(tree.ints[child, ACTION])
        n = int(tree.ints[child, VISITS])
        proven = int(tree.proven[child])
        scores[action] = float(sign * proven) if proven else (float(sign * tree.value[child] / n) if n else 0.0)
        visits[action] = n
    best_child = _best_child(tree, 0, sign)
    best = int(tree.ints[best_child, ACTION])
    line = [best]
    node, turn = best_child, -sign
    while tree.ints[node, COUNT] > 0 and len(line) < 30:
        node = _best_child(tree, node, turn)
        line.append(int(tree.ints[node, ACTION]))
        turn = -turn
    return Analysis(best=best, scores=scores, line=line, value=scores[best], iterations=clock.count,
                    seconds=clock.elapsed(), depth=len(line), visits=visits,
                    stopped="proven" if int(tree.proven[0]) else None)


__all__ = ["applicable", "search", "np"]
