"""A learned move prior for Trike's MCTS: a linear softmax over local features of each move.

A move is the cell the pawn slides to (the mover's stone goes there). Its features are sparse
indicators (:data:`PER_MOVE` of them on at once), its logit the sum of their weights, and the
prior of a position's moves the softmax of their logits. The weights are fitted to the visit
shares of today's search in self-play (``benchmarks/trike_prior.py``; docs/LEVELS.md has the
command, data and fit), and :mod:`.mcts3` selects with them by PUCT.

The features of moving to ``cell``, seen by the mover:

* the ring of its six neighbours, each off the board, empty, the mover's or the opponent's, up
  to turning and mirroring (430 classes);
* how many of those neighbours are empty with no other empty neighbour (dead ends the pawn
  could be driven into next; 0 … 3, more counts as 3);
* whether the opponent can then end the game at once and win (:func:`.kernels.hands_over`);
* the balance of stones two steps from ``cell`` (mover's minus opponent's, -4 … +4);
* how many cells two steps from ``cell`` are empty (0 … 12).

How far the pawn slides and how many replies the opponent then has were tried as well and
left out: neither lowered the held-out cross-entropy (2.1906 and 2.1910 without them against
2.1898 with both), and the replies cost a walk along six lines for every move.
"""

from itertools import pairwise

import numpy as np

from ...core.njit import njit
from .kernels import EMPTY, hands_over, targets

#: the six directions of :mod:`ludothek.boards.hex_triangle` in turn around a cell
AROUND = (1, 5, 4, 0, 2, 3)


def _neighbour_classes() -> np.ndarray:
    """``classes[code]``: the class of a ring of six neighbours, each off the board (0), empty
    (1), the mover's (2) or the opponent's (3), ``code`` the base-4 number read in
    :data:`AROUND` order; rings that turn or mirror into each other share a class."""
    canonical = {}
    classes = np.empty(4096, np.int64)
    for code in range(4096):
        ring = [(code >> (2 * k)) & 3 for k in range(6)]
        forms = [ring[i:] + ring[:i] for i in range(6)]
        forms += [list(reversed(form)) for form in forms]
        key = min(sum(v << (2 * k) for k, v in enumerate(form)) for form in forms)
        classes[code] = canonical.setdefault(key, len(canonical))
    return classes


NEIGHBOUR_CLASSES = _neighbour_classes()
NEIGHBOURS = 0  # the class of the ring of six neighbours
HANDS_OVER = NEIGHBOURS + int(NEIGHBOUR_CLASSES.max()) + 1
RING_BALANCE = HANDS_OVER + 2
RING_EMPTY = RING_BALANCE + 9
DEAD_ENDS = RING_EMPTY + 13
FEATURES = DEAD_ENDS + 4
PER_MOVE = 5


def second_ring(neighbours: np.ndarray) -> np.ndarray:
    """``ring[cell, k]``: the cells exactly two steps from ``cell`` (-1 pads, 12 at most)."""
    cells = neighbours.shape[0]
    ring = np.full((cells, 12), -1, np.int16)
    for cell in range(cells):
        near = {int(n) for n in neighbours[cell] if n >= 0}
        far = sorted({int(m) for n in near for m in neighbours[n] if m >= 0} - near - {cell})
        ring[cell, : len(far)] = far
    return ring


@njit(cache=True)
def move_features(board, neighbours, ring, free, colour, cell, out):
    """Write the :data:`PER_MOVE` feature indices of ``colour`` moving to ``cell`` into ``out``."""
    code = 0
    dead = 0
    for k in range(6):
        other = neighbours[cell, AROUND[k]]
        state = 0
        if other >= 0:
            if board[other] == EMPTY:
                state = 1
                if free[other] == 1:
                    dead += 1
            elif board[other] == colour:
                state = 2
            else:
                state = 3
        code |= state << (2 * k)
    out[0] = NEIGHBOURS + NEIGHBOUR_CLASSES[code]
    out[1] = DEAD_ENDS + min(dead, 3)
    out[2] = HANDS_OVER + (1 if free[cell] != 0 and hands_over(board, neighbours, free, colour, cell) else 0)
    mine = 0
    theirs = 0
    empty = 0
    for k in range(12):
        other = ring[cell, k]
        if other < 0:
            break
        if board[other] == EMPTY:
            empty += 1
        elif board[other] == colour:
            mine += 1
        else:
            theirs += 1
    out[3] = RING_BALANCE + max(-4, min(4, mine - theirs)) + 4
    out[4] = RING_EMPTY + empty


@njit(cache=True)
def move_priors(factors, board, neighbours, ring, free, colour, cells, count, priors, scratch):
    """The softmax of the logits of ``colour``'s ``count`` moves ``cells`` into ``priors``.
    ``factors`` are the weights' exponentials (:func:`factors_of`): a move's share is the product
    of its features' factors, normalised, with no ``exp`` a move."""
    total = 0.0
    for i in range(count):
        move_features(board, neighbours, ring, free, colour, cells[i], scratch)
        share = factors[scratch[0]]
        for k in range(1, PER_MOVE):
            share *= factors[scratch[k]]
        priors[i] = share
        total += share
    for i in range(count):
        priors[i] /= total


def factors_of(weights: np.ndarray) -> np.ndarray:
    """The factors :func:`move_priors` takes: ``exp(weights)``, shifted so that the largest logit
    a move can have is 0 (no product overflows)."""
    return np.exp(weights - _largest_logit(weights) / PER_MOVE)


def _largest_logit(weights: np.ndarray) -> float:
    groups = (NEIGHBOURS, HANDS_OVER, RING_BALANCE, RING_EMPTY, DEAD_ENDS, FEATURES)
    return float(sum(weights[start:end].max() for start, end in pairwise(groups)))


@njit(cache=True)
def position_features(board, neighbours, ring, free, pawn, colour, cells, features):
    """Every move's feature indices (``features[i]``) and its cell (``cells[i]``); returns the
    number of moves."""
    count = targets(board, neighbours, pawn, cells)
    for i in range(count):
        move_features(board, neighbours, ring, free, colour, cells[i], features[i])
    return count
