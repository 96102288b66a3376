"""Trike's compiled MCTS (the one the bots use; :mod:`.mcts_kernels` is the first, kept as the
``mcts_old`` agent; this one with its additions off is the search before December 2026, the
``mcts_v2`` agent).

As in the first kernel, the tree lives in flat arrays (:class:`Tree`), the kernel runs a
number of simulations and returns so the caller can watch the clock, values are sums of
results for Black (+1 Black wins, -1 White wins), and the moves are the game's own
(``targets``). On top of the first kernel:

* **MCTS-solver** with the same rules: a move that ends the game is valued exactly when its
  node is made, proven results move up (a node is won when one child is won for its mover,
  lost when all are lost), a proven win is chosen at once and a proven loss only when
  nothing else is left.
* **RAVE** (all moves as first; Gelly & Silver): each child also keeps AMAF statistics, the
  results of the simulations through its parent in which the parent's mover later put a
  stone on the child's cell. In Trike every cell is played at most once, so "played later by
  the mover" is simply "holds the mover's stone when the simulation ends" — one look at the
  final board per child. The selection mixes the child's own mean with its AMAF mean,
  ``beta = an / (an + n + bias * an * n)`` (``rave_bias < 0``: RAVE off).
* **Playout policies** over incremental counts of empty neighbours (``free``): a cell with no
  empty neighbour ends the game when the pawn lands there. ``policy`` 0: take a move that ends
  the game with a win, avoid one that ends it with a loss, else uniform (the first kernel's
  playout). 1: also avoid, where possible, moves after which the opponent can end the game in
  his favour at once (anti-decisive, two plies; he can only do so on a neighbour of the pawn's
  new cell whose last empty neighbour that cell was). -1: uniform. 4 (:data:`LINES`): policy 0's
  choices read from the board's line words and drawn with splitmix64 (:mod:`.line_playout`).

The bots use the solver with policy 4 and RAVE off: RAVE and policy 1 lost clearly at equal
time (see :class:`.mcts3.Settings`); they stay as settings for the ``mcts_with`` agent. The
playout of policy 0 looks at each reachable cell once (the first kernel enumerated them and
then looked again), so with the same seed, RAVE and the additions below off, this kernel
builds the first kernel's tree, faster.

Added in December 2026 (the ``mcts_v2`` agent has them all off):

* **Exact leaf solve**: the rest of a Trike game only uses the empty cells connected to the
  pawn (it slides through empty cells only), so once that region is small the position can be
  solved outright. At a leaf's first visit, when the region has at most ``solve_size`` cells
  (:func:`region_at_most`, a flood fill that stops early), a depth-first win/loss search
  (:func:`solve`, at most ``solve_limit`` positions, endings valued at once) replaces the
  playout; a solved leaf is a proven node of the MCTS-solver, so the tree's end-game is exact
  many moves before the tree itself could prove it.
* ``rollout_size``: the same solve inside a playout (:func:`play_out_solving`); off.
* Progressive bias (``bias``: the local balance of a move's cell, :func:`balance`, weighted
  ``bias / (visits + 1)``), first-play urgency (``fpu``), and the playout policies 2 (the
  better of two moves by local balance) and 3 (draw again, twice at most, a move that hands
  over a win); off.
* ``mix``: a new leaf's value mixes the heuristic evaluation of
  :func:`.search_kernels.evaluate_mover` (weight ``mix``) with its playout's result; off
  (it lost every game at ``mix`` 1, see :class:`.mcts3.Settings`).
* **PUCT with a learned move prior** (``puct`` > 0, on): when a node's children are made, each
  gets its prior from :mod:`.prior_kernels` (``factors``, the exponentials of its weights;
  ``ring`` holds the cells two steps from each cell), and selection takes
  ``q + puct * prior * sqrt(N) / (1 + n)`` instead of UCT, an unvisited child counting as its
  parent's value less ``reduction``. So the search no longer tries every move once before it
  looks deeper at any, which on side 19 (dozens of moves a position) cost most of its
  simulations.
* **Resisting in a proven loss** (:func:`resisting`, used by the driver once the root is
  proven lost): every move loses against perfect play, so the search would play the first
  or the most visited. It plays instead the move after which the smallest share of the
  opponent's replies win for him, each reply solved exactly, so that an opponent who searches
  rather than solves has the best chance to go wrong.
* **A winning move by the exact solver** (:func:`winning_move`), with which
  ``benchmarks/trike_book.py`` solves side 7's opening book (:mod:`.book`).
"""

import numpy as np

from ...core.njit import njit
from ...core.random_kernels import random_below
from .kernels import EMPTY, hands_over, line_tables, occupancy, occupy, points, targets, wins_there
from .line_playout import play_out_lines
from .mcts_kernels import ACTION, COUNT, FIRST, VISITS, propagate_proof  # the same tree layout
from .prior_kernels import PER_MOVE, move_priors
from .search_kernels import evaluate_mover

# tree arrays: first child, number of children, the action into the node, visits
# AMAF arrays: visits, result sum for Black
AMAF_N, AMAF_W = 0, 1
#: the playout policy read from the line words (:mod:`.line_playout`)
LINES = 4


class Tree:
    """Flat arrays for up to ``capacity`` nodes; node 0 is the root."""

    def __init__(self, capacity: int):
        self.ints = np.zeros((capacity, 4), np.int32)
        self.value = np.zeros(capacity, np.float64)
        self.proven = np.zeros(capacity, np.int8)
        self.amaf = np.zeros((capacity, 2), np.int32)
        self.prior = np.zeros(capacity, np.float32)
        self.used = np.ones(1, np.int64)  # how many nodes are in use (the root exists)

    @classmethod
    def unfilled(cls, capacity: int) -> "Tree":
        """A tree whose arrays are not filled with zeros (the kernel writes every node it
        makes; the caller clears the root): no time spent on memory never used."""
        tree = cls.__new__(cls)
        tree.ints = np.empty((capacity, 4), np.int32)
        tree.value = np.empty(capacity, np.float64)
        tree.proven = np.empty(capacity, np.int8)
        tree.amaf = np.empty((capacity, 2), np.int32)
        tree.prior = np.empty(capacity, np.float32)
        tree.used = np.ones(1, np.int64)
        return tree


@njit(cache=True)
def free_counts(board, neighbours, free):
    """``free[cell]``: how many neighbours of ``cell`` are empty."""
    for cell in range(board.shape[0]):
        count = 0
        for direction in range(6):
            other = neighbours[cell, direction]
            if other >= 0 and board[other] == EMPTY:
                count += 1
        free[cell] = count


@njit(cache=True)
def place(board, neighbours, free, cell, colour):
    """Put ``colour`` on ``cell`` and keep the counts of empty neighbours."""
    board[cell] = colour
    for direction in range(6):
        other = neighbours[cell, direction]
        if other >= 0:
            free[other] -= 1


@njit(cache=True)
def unplace(board, neighbours, free, cell):
    """Undo :func:`place`."""
    board[cell] = EMPTY
    for direction in range(6):
        other = neighbours[cell, direction]
        if other >= 0:
            free[other] += 1


@njit(cache=True)
def region_at_most(board, neighbours, pawn, most, seen, stamp, queue):
    """Whether the empty cells connected to the pawn (the only cells the rest of the game can
    use) number at most ``most``. A flood fill that stops once it has found more; ``seen``
    holds stamps (cells marked ``stamp`` are found in this fill)."""
    count = 0
    head = 0
    for direction in range(6):
        cell = neighbours[pawn, direction]
        if cell >= 0 and board[cell] == EMPTY and seen[cell] != stamp:
            seen[cell] = stamp
            queue[count] = cell
            count += 1
    while head < count:
        if count > most:
            return False
        cell = queue[head]
        head += 1
        for direction in range(6):
            other = neighbours[cell, direction]
            if other >= 0 and board[other] == EMPTY and seen[other] != stamp:
                seen[other] = stamp
                queue[count] = other
                count += 1
    return count <= most


@njit(cache=True)
def solve(board, neighbours, free, pawn, colour, limit, moves, counts, nexts, pawns):
    """Exact win/loss of the position (``colour`` to move, the game not over) by depth-first
    search, or 0 when more than ``limit`` positions would be needed: +1 if ``colour`` wins.
    Iterative (numba's disk cache does not take recursion); ``moves`` (plies x cells),
    ``counts``, ``nexts`` and ``pawns`` (plies + 1) are work arrays; the board and the free
    counts are restored. A move that ends the game is valued at once and never searched."""
    depth = 0
    pawns[0] = pawn
    visited = 0
    value = 0
    generate = True
    while True:
        if generate:
            # the moves of the position at ``depth``: a winning ending decides it, losing
            # endings are left out, the rest are searched in turn
            visited += 1
            if visited > limit:
                while depth > 0:
                    unplace(board, neighbours, free, pawns[depth])
                    depth -= 1
                return 0
            mover = colour if depth % 2 == 0 else 3 - colour
            count = 0
            won = False
            here = pawns[depth]
            for direction in range(6):
                cell = neighbours[here, direction]
                while cell >= 0 and board[cell] == EMPTY:
                    if free[cell] != 0:
                        moves[depth, count] = cell
                        count += 1
                    elif wins_there(board, neighbours, mover, cell):
                        won = True
                        break
                    cell = neighbours[cell, direction]
                if won:
                    break
            counts[depth] = count
            nexts[depth] = 0
            generate = False
            value = 1 if won else (-1 if count == 0 else 0)
        if value == 0:
            # search the next move of the position at ``depth``
            if nexts[depth] == counts[depth]:
                value = -1
            else:
                cell = moves[depth, nexts[depth]]
                nexts[depth] += 1
                mover = colour if depth % 2 == 0 else 3 - colour
                place(board, neighbours, free, cell, mover)
                depth += 1
                pawns[depth] = cell
                generate = True
                continue
        # the position at ``depth`` is decided (``value`` for its mover): back up
        if depth == 0:
            return value
        unplace(board, neighbours, free, pawns[depth])
        depth -= 1
        value = 1 if value < 0 else 0  # a lost child wins the parent; a won one decides nothing yet


@njit(cache=True)
def winning_move(board, neighbours, free, pawn, colour, limit, moves, counts, nexts, pawns):
    """The exact result of the position (``colour`` to move) and a move that wins it (one that
    ends the game, if there is one), each other move's outcome found by :func:`solve` with
    ``limit`` positions: ``(1, cell)``, ``(-1, -1)`` when every move loses, ``(0, -1)`` when a
    move that might win was not solved in time. The board and ``free`` are restored."""
    count = targets(board, neighbours, pawn, moves[0])
    for i in range(count):
        cell = moves[0, i]
        if free[cell] == 0 and wins_there(board, neighbours, colour, cell):
            return 1, cell
    cells = moves[0, :count].copy()
    unsolved = False
    for cell in cells:
        if free[cell] != 0:
            place(board, neighbours, free, cell, colour)
            value = solve(board, neighbours, free, cell, 3 - colour, limit, moves, counts, nexts, pawns)
            unplace(board, neighbours, free, cell)
            if value < 0:
                return 1, cell
            unsolved = unsolved or value == 0
    return (0 if unsolved else -1), -1


@njit(cache=True)
def resisting(board, neighbours, free, pawn, colour, limit, replies, moves, counts, nexts, pawns):
    """In a lost position (``colour`` to move), the move that leaves the opponent the smallest
    share of winning replies (each reply solved exactly, at most ``limit`` positions; a reply
    not solved in time counts as not winning), more replies breaking ties; -1 if every move
    ends the game. A lost position is still worth playing well: an opponent who searches
    rather than solves may miss a win that few of his moves keep. The board and ``free`` are
    restored."""
    best = -1
    best_share = 2.0
    best_replies = -1
    for direction in range(6):
        cell = neighbours[pawn, direction]
        while cell >= 0 and board[cell] == EMPTY:
            if free[cell] != 0:
                place(board, neighbours, free, cell, colour)
                n = targets(board, neighbours, cell, replies)
                winning = 0
                for i in range(n):
                    reply = replies[i]
                    if free[reply] == 0:
                        if wins_there(board, neighbours, 3 - colour, reply):
                            winning += 1
                    else:
                        place(board, neighbours, free, reply, 3 - colour)
                        if solve(board, neighbours, free, reply, colour, limit, moves, counts, nexts, pawns) < 0:
                            winning += 1
                        unplace(board, neighbours, free, reply)
                unplace(board, neighbours, free, cell)
                share = winning / n
                if share < best_share or (share == best_share and n > best_replies):
                    best, best_share, best_replies = cell, share, n
            cell = neighbours[cell, direction]
    return best


@njit(cache=True)
def ending(board, neighbours, free, colour, cell):
    """+1 if ``colour`` moving to ``cell`` ends the game and wins, -1 if it ends it and
    loses, 0 if the game goes on."""
    if free[cell] != 0:
        return 0
    return 1 if wins_there(board, neighbours, colour, cell) else -1


@njit(cache=True)
def balance(board, neighbours, colour, cell):
    """``colour``'s share of the cells scored if the game ended with the pawn on ``cell``
    carrying its stone (``cell`` empty): (own - opposing) / scored cells, in [-1, 1]."""
    mine = 1
    theirs = 0
    scored = 1
    for direction in range(6):
        other = neighbours[cell, direction]
        if other >= 0:
            scored += 1
            if board[other] == colour:
                mine += 1
            elif board[other] != EMPTY:
                theirs += 1
    return (mine - theirs) / scored


@njit(cache=True)
def play_out(neighbours, board, free, pawn, colour, policy, buffer, safe):
    """A playout on ``board``/``free`` themselves (changed) with numba's current random
    state; the pawn is placed (no opening stone, no swap). Returns 1 if Black wins, else -1."""
    if policy == 1:
        return play_out_anti(neighbours, board, free, pawn, colour, buffer, safe)
    while True:
        # one pass over the cells the pawn can reach: the safe ones (the game goes on) into
        # buffer, the losing endings into safe; a winning ending is taken at once
        n_safe = 0
        n_lost = 0
        pick = -1
        for direction in range(6):
            cell = neighbours[pawn, direction]
            while cell >= 0 and board[cell] == EMPTY:
                if free[cell] != 0:
                    buffer[n_safe] = cell
                    n_safe += 1
                elif policy < 0 or not wins_there(board, neighbours, colour, cell):
                    safe[n_lost] = cell
                    n_lost += 1
                else:
                    pick = cell
                    break
                cell = neighbours[cell, direction]
            if pick >= 0:
                break
        if pick < 0:
            if policy < 0 and n_safe + n_lost > 0:  # uniform: no look at the endings
                k = np.random.randint(0, n_safe + n_lost)
                pick = buffer[k] if k < n_safe else safe[k - n_safe]
            elif n_safe > 0:
                pick = buffer[np.random.randint(0, n_safe)]
                if policy == 3 and n_safe > 1:  # draw again (twice at most) a move handing over a win
                    for _ in range(2):
                        if not hands_over(board, neighbours, free, colour, pick):
                            break
                        pick = buffer[np.random.randint(0, n_safe)]
                if policy == 2 and n_safe > 1:  # the better of two by local balance
                    other = buffer[np.random.randint(0, n_safe)]
                    if balance(board, neighbours, colour, other) > balance(board, neighbours, colour, pick):
                        pick = other
            elif n_lost > 0:
                pick = safe[np.random.randint(0, n_lost)]
            else:
                break  # the pawn is walled in: the game is over
        place(board, neighbours, free, pick, colour)
        pawn = pick
        colour = 3 - colour
    black, white = points(board, neighbours, pawn)
    return 1 if black > white else -1


@njit(cache=True, inline="always")
def roll(neighbours, board, free, occupied, cell_lines, cell_at, pawn, colour, policy, buffer, safe, state, lengths,
         losing):
    """A playout of ``policy`` from the position on ``board`` (and ``free``, or with policy
    :data:`LINES` ``occupied``, the line words): (1 if Black wins else -1, splitmix64's state)."""
    if policy == LINES:
        return play_out_lines(neighbours, board, occupied, cell_lines, cell_at, pawn, colour, state, lengths, losing)
    return play_out(neighbours, board, free, pawn, colour, policy, buffer, safe), state


@njit(cache=True)
def play_out_solving(neighbours, board, free, pawn, colour, buffer, safe, most, limit, seen, stamp, queue, moves,
                     counts, nexts, pawns):
    """Policy 0, and every other move a look at the pawn's region: once it has at most
    ``most`` empty cells the rest is solved exactly (``limit`` positions at most) instead of
    played at random. Returns 1 if Black wins, else -1."""
    step = 0
    while True:
        if step % 2 == 0:
            stamp += 1
            if region_at_most(board, neighbours, pawn, most, seen, stamp, queue):
                exact = solve(board, neighbours, free, pawn, colour, limit, moves, counts, nexts, pawns)
                if exact != 0:
                    return exact if colour == 1 else -exact
        step += 1
        n_safe = 0
        n_lost = 0
        pick = -1
        for direction in range(6):
            cell = neighbours[pawn, direction]
            while cell >= 0 and board[cell] == EMPTY:
                if free[cell] != 0:
                    buffer[n_safe] = cell
                    n_safe += 1
                elif not wins_there(board, neighbours, colour, cell):
                    safe[n_lost] = cell
                    n_lost += 1
                else:
                    pick = cell
                    break
                cell = neighbours[cell, direction]
            if pick >= 0:
                break
        if pick < 0:
            if n_safe > 0:
                pick = buffer[np.random.randint(0, n_safe)]
            elif n_lost > 0:
                pick = safe[np.random.randint(0, n_lost)]
            else:
                break
        place(board, neighbours, free, pick, colour)
        pawn = pick
        colour = 3 - colour
    black, white = points(board, neighbours, pawn)
    return 1 if black > white else -1


@njit(cache=True)
def play_out_anti(neighbours, board, free, pawn, colour, buffer, safe):
    """Policy 1: as policy 0, and among the moves that do not end the game prefer those after
    which the opponent cannot end it in his favour at once. Such an ending is a *pocket*, an
    empty cell with one empty neighbour, entered from that neighbour: the pockets are kept in
    a list (entries go stale when the cell fills or its last neighbour does, and are dropped
    when seen), so the check costs nothing while there are none."""
    cells = board.shape[0]
    pockets = np.empty(cells, np.int16)
    mark = np.zeros(cells, np.int32)  # stamps: a move of this ply, or one handing over a win
    n_pockets = 0
    for cell in range(cells):
        if board[cell] == EMPTY and free[cell] == 1:
            pockets[n_pockets] = cell
            n_pockets += 1
    stamp = 0
    while True:
        n = targets(board, neighbours, pawn, buffer)
        if n == 0:
            break
        pick = -1
        n_safe = 0
        for i in range(n):
            cell = buffer[i]
            if free[cell] == 0:
                if wins_there(board, neighbours, colour, cell):
                    pick = cell
                    break
            else:
                safe[n_safe] = cell
                n_safe += 1
        if pick < 0:
            if n_safe == 0:
                pick = buffer[np.random.randint(0, n)]
            else:
                if n_safe > 1 and n_pockets > 0:
                    stamp += 2
                    for i in range(n_safe):
                        mark[safe[i]] = stamp
                    j = 0
                    while j < n_pockets:
                        pocket = pockets[j]
                        if board[pocket] != EMPTY or free[pocket] != 1:
                            n_pockets -= 1  # stale: drop it
                            pockets[j] = pockets[n_pockets]
                            continue
                        j += 1
                        entry = -1
                        for direction in range(6):
                            other = neighbours[pocket, direction]
                            if other >= 0 and board[other] == EMPTY:
                                entry = other
                                break
                        if mark[entry] == stamp:  # a move of ours: does it hand over the pocket?
                            board[entry] = colour
                            if wins_there(board, neighbours, 3 - colour, pocket):
                                mark[entry] = stamp + 1
                            board[entry] = EMPTY
                    good = 0
                    for i in range(n_safe):
                        if mark[safe[i]] == stamp:
                            safe[good] = safe[i]
                            good += 1
                    if good > 0:
                        n_safe = good
                    # else every such move hands over a win (nothing was moved): any of them
                pick = safe[np.random.randint(0, n_safe)]
        place(board, neighbours, free, pick, colour)
        for direction in range(6):
            other = neighbours[pick, direction]
            if other >= 0 and board[other] == EMPTY and free[other] == 1:
                pockets[n_pockets] = other
                n_pockets += 1
        pawn = pick
        colour = 3 - colour
    black, white = points(board, neighbours, pawn)
    return 1 if black > white else -1


@njit(cache=True)
def update_amaf(ints, amaf, node, board, mover, result):
    """AMAF statistics of ``node``'s children after a simulation through ``node`` ended on
    ``board``: every child whose cell holds ``mover``'s stone (the colour to move at ``node``)
    counts the result. (A cell is played at most once, and only cells empty at ``node`` are
    its children, so this is "the mover played it later in the simulation".)"""
    first = ints[node, FIRST]
    for k in range(ints[node, COUNT]):
        child = first + k
        if board[ints[child, ACTION]] == mover:
            amaf[child, AMAF_N] += 1
            amaf[child, AMAF_W] += result


@njit(cache=True)
def simulate(ints, value, proven, amaf, prior, used, neighbours, board0, pawn0, colour0, iterations, exploration,
             rave_bias, policy, seed, bias, fpu, solve_size, solve_limit, rollout_size, mix, puct, reduction, factors,
             ring, cell_lines, cell_at, empty_lines, expand):
    """Run ``iterations`` simulations from the root (node 0; ``colour0`` to move, the pawn
    placed, no swap possible). Returns how many ran (fewer once the root is proven). A leaf
    (not the root) is played out from on its first ``expand`` visits and gets its children on
    the next (its exact solve is tried on the first). With policy :data:`LINES` the board's line
    words (``cell_lines``, ``cell_at``, ``empty_lines`` from :func:`.kernels.line_tables`) follow
    the board, and every draw is splitmix64's."""
    np.random.seed(seed)
    lines = policy == LINES
    state = np.uint64(seed)
    occupied0 = occupancy(board0, cell_lines, empty_lines)
    occupied = occupied0.copy()
    lengths = np.empty(6, np.int64)
    losing = np.empty(6, np.int64)
    cells = board0.shape[0]
    capacity = ints.shape[0]
    board = np.empty(cells, np.int8)
    free0 = np.empty(cells, np.int8)
    free_counts(board0, neighbours, free0)
    free = np.empty(cells, np.int8)
    buffer = np.empty(cells, np.int16)
    safe = np.empty(cells, np.int16)
    path = np.empty(cells + 2, np.int64)
    rave = rave_bias >= 0.0
    seen = np.zeros(cells, np.int64)
    queue = np.empty(cells, np.int16)
    moves = np.empty((cells + 1, cells), np.int16)
    counts = np.empty(cells + 1, np.int32)
    nexts = np.empty(cells + 1, np.int32)
    pawns = np.empty(cells + 2, np.int32)
    shares = np.empty(cells, np.float64)
    scratch = np.empty(PER_MOVE, np.int64)
    stamp = 0
    done = 0
    for _ in range(iterations):
        if proven[0] != 0:
            break
        board[:] = board0
        free[:] = free0
        if lines:
            occupied[:] = occupied0
        pawn = pawn0
        colour = colour0
        node = 0
        depth = 0
        path[0] = 0
        result = 0.0
        while True:
            if proven[node] != 0:
                result = proven[node]
                break
            if ints[node, COUNT] == 0:
                if node != 0 and ints[node, VISITS] < expand:
                    if solve_size > 0 and ints[node, VISITS] == 0:
                        stamp += 1
                        if region_at_most(board, neighbours, pawn, solve_size, seen, stamp, queue):
                            exact = solve(board, neighbours, free, pawn, colour, solve_limit, moves, counts, nexts,
                                          pawns)
                            if exact != 0:
                                proven[node] = exact if colour == 1 else -exact
                                result = proven[node]
                                break
                    if rollout_size > 0:
                        stamp += 1
                        result = play_out_solving(neighbours, board, free, pawn, colour, buffer, safe, rollout_size,
                                                  solve_limit, seen, stamp, queue, moves, counts, nexts, pawns)
                        stamp += cells  # the playout's own stamps
                    else:
                        guess = 0.0
                        if mix > 0.0:
                            guess = evaluate_mover(neighbours, board, pawn, colour)
                            if colour == 2:
                                guess = -guess
                        if mix < 1.0:
                            outcome, state = roll(neighbours, board, free, occupied, cell_lines, cell_at, pawn,
                                                  colour, policy, buffer, safe, state, lengths, losing)
                            result = (1.0 - mix) * outcome + mix * guess
                        else:
                            result = guess
                    break
                n = targets(board, neighbours, pawn, buffer)
                if n == 0:  # only at a root that is already over
                    black, white = points(board, neighbours, pawn)
                    proven[node] = 1 if black > white else -1
                    result = proven[node]
                    break
                if used[0] + n > capacity:  # the tree is full: play out from here
                    result, state = roll(neighbours, board, free, occupied, cell_lines, cell_at, pawn, colour, policy,
                                         buffer, safe, state, lengths, losing)
                    break
                if puct > 0.0:
                    move_priors(factors, board, neighbours, ring, free, colour, buffer, n, shares, scratch)
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
                    amaf[child, AMAF_N] = 0
                    amaf[child, AMAF_W] = 0
                    if puct > 0.0:
                        prior[child] = shares[i]
                    else:
                        prior[child] = balance(board, neighbours, colour, buffer[i]) if bias != 0.0 else 0.0
                    end = ending(board, neighbours, free, colour, buffer[i])
                    proven[child] = end if colour == 1 else -end
            # select
            sign = 1.0 if colour == 1 else -1.0
            first = ints[node, FIRST]
            n = ints[node, COUNT]
            log_n = np.log(max(ints[node, VISITS], 1))
            if puct > 0.0:
                scale = puct * np.sqrt(max(ints[node, VISITS], 1))
                unvisited_q = sign * value[node] / max(ints[node, VISITS], 1) - reduction
            best = -1
            best_score = -1e18
            if lines:
                state, offset = random_below(state, n)
            else:
                offset = np.random.randint(0, n)
            child = first + offset - 1  # the children in turn from a random one (ties go to the first)
            for _ in range(n):
                child += 1
                if child == first + n:
                    child = first
                p = proven[child] * sign
                if p > 0:
                    best = child
                    break
                visits = ints[child, VISITS]
                if p < 0:
                    score = -1e9 + visits
                elif puct > 0.0:
                    q = sign * value[child] / visits if visits > 0 else unvisited_q
                    score = q + scale * prior[child] / (1 + visits)
                elif rave and amaf[child, AMAF_N] > 0:
                    an = amaf[child, AMAF_N]
                    q_amaf = sign * amaf[child, AMAF_W] / an
                    if visits == 0:
                        score = q_amaf + exploration * np.sqrt(log_n)
                    else:
                        beta = an / (an + visits + rave_bias * an * visits)
                        q = (1.0 - beta) * sign * value[child] / visits + beta * q_amaf
                        score = q + exploration * np.sqrt(log_n / visits)
                elif visits == 0:
                    score = (1e9 if fpu < 0.0 else fpu) + bias * prior[child]
                else:
                    score = (sign * value[child] / visits + exploration * np.sqrt(log_n / visits)
                             + bias * prior[child] / (visits + 1))
                if score > best_score:
                    best_score = score
                    best = child
            cell = ints[best, ACTION]
            place(board, neighbours, free, cell, colour)
            if lines:
                occupy(occupied, cell_lines, cell)
            pawn = cell
            colour = 3 - colour
            node = best
            depth += 1
            path[depth] = node
        for d in range(depth + 1):
            ints[path[d], VISITS] += 1
            value[path[d]] += result
        if rave:
            mover = colour0
            for d in range(depth):
                update_amaf(ints, amaf, path[d], board, mover, result)
                mover = 3 - mover
        propagate_proof(ints, proven, path, depth, colour0)
        done += 1
    return done


@njit(cache=True)
def reroot(ints, value, proven, amaf, prior, used, root):
    """Keep only ``root``'s subtree, with ``root`` as node 0, in place (tree reuse between
    moves). Nodes keep their order (a child block is always made after its parent), so every
    node moves down or stays and a block of children stays one block."""
    n = used[0]
    keep = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    keep[root] = True
    stack[0] = root
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        first = ints[node, FIRST]
        for k in range(ints[node, COUNT]):
            keep[first + k] = True
            stack[top] = first + k
            top += 1
    remap = np.zeros(n, np.int64)
    count = 0
    for i in range(n):
        if keep[i]:
            remap[i] = count
            count += 1
    for i in range(n):
        if keep[i]:
            j = remap[i]
            ints[j, FIRST] = remap[ints[i, FIRST]] if ints[i, COUNT] > 0 else 0
            ints[j, COUNT] = ints[i, COUNT]
            ints[j, ACTION] = ints[i, ACTION]
            ints[j, VISITS] = ints[i, VISITS]
            value[j] = value[i]
            proven[j] = proven[i]
            amaf[j, AMAF_N] = amaf[i, AMAF_N]
            amaf[j, AMAF_W] = amaf[i, AMAF_W]
            prior[j] = prior[i]
    used[0] = count


@njit(cache=True)
def playouts(neighbours, board0, pawn0, colour0, policy, count, seed):
    """``count`` playouts from a position (the pawn placed); returns Black's wins (for tests
    and benchmarks of the policies)."""
    np.random.seed(seed)
    state = np.uint64(seed)
    cells = board0.shape[0]
    board = np.empty(cells, np.int8)
    free0 = np.empty(cells, np.int8)
    free_counts(board0, neighbours, free0)
    free = np.empty(cells, np.int8)
    buffer = np.empty(cells, np.int16)
    safe = np.empty(cells, np.int16)
    cell_lines, cell_at, empty_lines = line_tables(neighbours)
    occupied0 = occupancy(board0, cell_lines, empty_lines)
    occupied = occupied0.copy()
    lengths = np.empty(6, np.int64)
    losing = np.empty(6, np.int64)
    wins = 0
    for _ in range(count):
        board[:] = board0
        free[:] = free0
        occupied[:] = occupied0
        result, state = roll(neighbours, board, free, occupied, cell_lines, cell_at, pawn0, colour0, policy, buffer,
                             safe, state, lengths, losing)
        if result == 1:
            wins += 1
    return wins
