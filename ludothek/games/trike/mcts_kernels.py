"""The whole MCTS for Trike as a compiled kernel (after the pie-rule decision, when the
game is a plain alternation of Black and White).

The tree lives in flat arrays (:class:`Tree`); the kernel runs a number of simulations and
returns, so the caller can watch the clock between calls and the tree stays. Values are
sums of playout results for Black (+1 Black wins, -1 White wins). Moves are the game's
own (``targets``); playouts are :func:`ludothek.ai.search_kernels.play_out`; a move that ends
the game is valued exactly (``_ending``) and proven results propagate (MCTS-solver).
"""

import numpy as np

from ...core.njit import njit
from .kernels import points, targets
from .search_kernels import _ending, play_out

# tree arrays: first child, number of children, the action into the node, visits,
# value sum for Black, proven result for Black (0 unknown, +1, -1)
FIRST, COUNT, ACTION, VISITS = 0, 1, 2, 3


class Tree:
    """Flat arrays for up to ``capacity`` nodes; node 0 is the root."""

    def __init__(self, capacity: int):
        self.ints = np.zeros((capacity, 4), np.int32)
        self.value = np.zeros(capacity, np.float64)
        self.proven = np.zeros(capacity, np.int8)
        self.used = np.ones(1, np.int64)  # how many nodes are in use (the root exists)


@njit(cache=True)
def simulate(ints, value, proven, used, neighbours, board0, pawn0, colour0, iterations, exploration, seed):
    """Run ``iterations`` simulations from the root position (``colour0`` to move, no swap
    possible any more). Returns how many ran (fewer once the root is proven)."""
    np.random.seed(seed)
    cells = board0.shape[0]
    capacity = ints.shape[0]
    board = np.empty(cells, np.int8)
    buffer = np.empty(cells, np.int16)
    safe = np.empty(cells, np.int16)
    path = np.empty(cells + 2, np.int64)
    done = 0
    for _ in range(iterations):
        if proven[0] != 0:
            break
        board[:] = board0
        pawn = pawn0
        colour = colour0
        node = 0
        depth = 0
        path[0] = 0
        result = 0.0
        while True:
            if proven[node] != 0:
                result = float(proven[node])
                break
            if ints[node, COUNT] == 0:
                if node != 0 and ints[node, VISITS] == 0:
                    result = 1.0 if play_out(neighbours, board, pawn, colour, False, buffer, safe) == 1 else -1.0
                    break
                n = targets(board, neighbours, pawn, buffer)
                if n == 0:  # only at a root that is already over
                    black, white = points(board, neighbours, pawn)
                    proven[node] = 1 if black > white else -1
                    result = float(proven[node])
                    break
                if used[0] + n > capacity:  # the tree is full: play out from here
                    result = 1.0 if play_out(neighbours, board, pawn, colour, False, buffer, safe) == 1 else -1.0
                    break
                first = used[0]
                used[0] += n
                ints[node, FIRST] = first
                ints[node, COUNT] = n
                for i in range(n):
                    child = first + i
                    ints[child, FIRST] = 0
                    ints[child, COUNT] = 0
                    ints[child, ACTION] = buffer[i]
                    ints[child, VISITS] = 0
                    value[child] = 0.0
                    ending = _ending(board, neighbours, colour, buffer[i])
                    proven[child] = 0 if ending == 0 else (ending if colour == 1 else -ending)
            # select
            sign = 1.0 if colour == 1 else -1.0
            first = ints[node, FIRST]
            n = ints[node, COUNT]
            log_n = np.log(max(ints[node, VISITS], 1))
            best = -1
            best_score = -1e18
            offset = np.random.randint(0, n)
            for k in range(n):
                child = first + (k + offset) % n
                p = proven[child] * sign
                if p > 0:
                    best = child
                    break
                if p < 0:
                    score = -1e9 + ints[child, VISITS]
                elif ints[child, VISITS] == 0:
                    score = 1e9
                else:
                    visits = ints[child, VISITS]
                    score = sign * value[child] / visits + exploration * np.sqrt(log_n / visits)
                if score > best_score:
                    best_score = score
                    best = child
            cell = ints[best, ACTION]
            board[cell] = colour
            pawn = cell
            colour = 3 - colour
            node = best
            depth += 1
            path[depth] = node
        for d in range(depth + 1):
            ints[path[d], VISITS] += 1
            value[path[d]] += result
        propagate_proof(ints, proven, path, depth, colour0)
        done += 1
    return done


@njit(cache=True)
def propagate_proof(ints, proven, path, depth, colour0):
    """MCTS-solver: move proven results up ``path`` (root ``path[0]``, leaf ``path[depth]``,
    ``colour0`` to move at the root) while a parent becomes decided: won if a child is a win
    for its mover, lost if every child is a loss for him."""
    d = depth - 1
    mover = colour0 if depth % 2 == 1 else 3 - colour0  # colour to move at path[depth - 1]
    while d >= 0 and proven[path[d + 1]] != 0:
        parent = path[d]
        if proven[parent] != 0:
            break
        sign = 1 if mover == 1 else -1
        first = ints[parent, FIRST]
        n = ints[parent, COUNT]
        decided = True
        winner = 0
        for k in range(n):
            p = proven[first + k] * sign
            if p > 0:
                winner = 1
                break
            if p == 0:
                decided = False
        if winner == 1:
            proven[parent] = sign
        elif decided:
            proven[parent] = -sign
        else:
            break
        d -= 1
        mover = 3 - mover
