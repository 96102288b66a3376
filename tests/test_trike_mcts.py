"""Trike's compiled MCTS (:mod:`ludothek.games.trike.mcts3`, the bots' ``mcts``): the solver
against a brute-force solve, forced wins, RAVE statistics, playout policies, the swap decision,
whole games under a seed, and the old search kept as ``mcts_old``. The kernel's properties from
before its additions (:mod:`.mcts3_kernels`) are tested with the additions off
(:data:`.mcts3.V2`, the ``mcts_v2`` agent), the agent's with today's settings. (Tests of the
additions: ``test_trike_mcts3.py``.)"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

import ludothek
from ludothek import OptionError
from ludothek.ai.base import make_agent
from ludothek.ai.budget import Budget
from ludothek.ai.mcts import MCTSAgent
from ludothek.boards.hex_triangle import hex_triangle
from ludothek.games.trike import kernels, mcts3
from ludothek.games.trike import mcts3_kernels as K
from ludothek.games.trike import mcts_kernels as old_kernels
from ludothek.games.trike.mcts3 import DEFAULT, V2, Settings
from ludothek.games.trike.search_kernels import _ending

# every feature of the search before the additions on (RAVE, the anti-decisive playout), the additions off
FULL = replace(V2, rave_bias=1e-3, policy=1)
# the same with today's additions (the leaf solve)
TODAY = replace(DEFAULT, rave_bias=1e-3, policy=1)


def run(tree, state_or_arrays, iterations, settings=FULL, seed=1):
    neighbours, board, pawn, colour = state_or_arrays
    return mcts3.run_kernel(tree, neighbours, board.copy(), pawn, colour, iterations, settings, seed)


def arrays(state):
    return state.geometry.neighbours, state.board, int(state.pawn), int(state.colour_to_move)


def children(tree, node):
    first, count = tree.ints[node, K.FIRST], tree.ints[node, K.COUNT]
    return range(first, first + count)


# ---------------------------------------------------------------- a plain solve to compare with
def brute_force(neighbours, board, pawn, colour):
    """+1 if Black wins with perfect play, -1 if White does: a plain recursive search."""
    buffer = np.empty(board.shape[0], np.int16)

    @cache
    def value(key: bytes, pawn: int, colour: int) -> int:
        board = np.frombuffer(key, np.int8).copy()
        n = kernels.targets(board, neighbours, pawn, buffer)
        if n == 0:
            black, white = kernels.points(board, neighbours, pawn)
            return 1 if black > white else -1
        mine = 1 if colour == 1 else -1
        for cell in [int(c) for c in buffer[:n]]:
            board[cell] = colour
            result = value(board.tobytes(), cell, 3 - colour)
            board[cell] = 0
            if result == mine:
                return mine
        return -mine

    return value(board.tobytes(), int(pawn), int(colour))


def random_position(side, plies, rng):
    """A position on a board of any side (the state only takes 7 to 19): arrays only."""
    geometry = hex_triangle(side)
    neighbours = geometry.neighbours
    board = np.zeros(geometry.size, np.int8)
    buffer = np.empty(geometry.size, np.int16)
    pawn, colour = -1, 1
    for _ in range(plies):
        n = kernels.targets(board, neighbours, pawn, buffer)
        if n == 0:
            return None
        pawn = int(buffer[rng.randrange(n)])
        board[pawn] = colour
        colour = 3 - colour
    if not kernels.has_move(board, neighbours, pawn):
        return None
    return neighbours, board, pawn, colour


# the MCTS-solver alone: with the leaf solve on, these small boards are solved at the root
# (that solve is tested in test_trike_mcts3.py)
@pytest.mark.parametrize("side,plies", [(4, 2), (4, 3), (5, 2), (5, 4), (5, 6)])
def test_proven_values_agree_with_a_brute_force_solve(side, plies):
    rng = random.Random(side * 100 + plies)
    checked = 0
    for _ in range(6):
        position = random_position(side, plies, rng)
        if position is None:
            continue
        neighbours, board, pawn, colour = position
        tree = K.Tree(400_000)
        run(tree, position, 20_000, seed=rng.randrange(1 << 30))
        assert tree.proven[0] != 0, "a small board is solved outright"
        assert tree.proven[0] == brute_force(neighbours, board, pawn, colour)
        # every proven node of the tree, with the position it stands for
        stack = [(0, board.copy(), pawn, colour)]
        while stack:
            node, here, at, mover = stack.pop()
            if tree.proven[node]:
                assert tree.proven[node] == brute_force(neighbours, here, at, mover), (node, here, at)
                checked += 1
            for child in children(tree, node):
                cell = int(tree.ints[child, K.ACTION])
                after = here.copy()
                after[cell] = mover
                stack.append((child, after, cell, 3 - mover))
    assert checked > 50


def test_free_counts_follow_the_stones_and_endings_agree_with_the_rules():
    rng = random.Random(4)
    for _ in range(40):
        position = random_position(7, rng.randrange(1, 20), rng)
        if position is None:
            continue
        neighbours, board, pawn, colour = position
        free = np.empty(board.shape[0], np.int8)
        K.free_counts(board, neighbours, free)
        buffer = np.empty(board.shape[0], np.int16)
        for cell in buffer[: kernels.targets(board, neighbours, pawn, buffer)]:
            assert K.ending(board, neighbours, free, colour, cell) == _ending(board, neighbours, colour, cell)
        cell = int(buffer[0])
        K.place(board, neighbours, free, cell, colour)
        again = np.empty_like(free)
        K.free_counts(board, neighbours, again)
        assert (again == free).all()


# ---------------------------------------------------------------- forced wins and losses
WIN_IN_1 = [("1/w1/b2/1b2/2ww1/b1B1w1/3bwb1 w", "f4"), ("1/2/1w1/1bwb/3bb/Bbwwww/1wbb3 w", "g1"),
            ("1/1w/2w/1b2/4b/1w3b/2b2W1 b", "g7")]
# the only move that wins in two (found and checked by a plain search below)
WIN_IN_2 = [("1/1b/2w/1w1b/3W1/1w3b/1bw1b2 b", "g6"), ("1/2/3/b3/2W2/bw1w1b/w1bwb2 b", "f3"),
            ("1/2/2w/2b1/2w1b/1b1W1w/4bwb b", "f5")]


def wins_now(state):
    mover = state.current_player()
    found = []
    for action in state.legal_actions():
        state.play(action)
        if state.is_over() and state.returns()[mover] > 0:
            found.append(action)
        state.undo()
    return found


@pytest.mark.parametrize("position,move", WIN_IN_1 + WIN_IN_2)
def test_the_solver_proves_and_plays_a_forced_win(position, move):
    state = ludothek.new_game("trike", position)
    if (position, move) in WIN_IN_2:
        assert not wins_now(state)  # not a win in 1
    analysis = MCTSAgent("trike", seed=2, budget=Budget(iterations=20_000)).analyse(state)
    assert state.action_to_str(analysis.best) == move
    assert analysis.value == 1.0  # proven
    assert analysis.iterations < 20_000  # the search stops once the root is proven
    assert brute_force(*arrays(state)) == (1 if state.colour_to_move == 1 else -1)


@pytest.mark.parametrize("position,move", WIN_IN_2)
def test_a_win_in_two_is_proven_in_the_tree(position, move):
    state = ludothek.new_game("trike", position)
    tree = K.Tree(500_000)
    run(tree, arrays(state), 20_000)
    assert tree.proven[0] == (1 if state.colour_to_move == 1 else -1)
    winning = [int(tree.ints[c, K.ACTION]) for c in children(tree, 0) if tree.proven[c] == tree.proven[0]]
    assert winning == [state.parse_move(move)]


def losing_at_once(state):
    mover = state.current_player()
    found = []
    for action in state.legal_actions():
        state.play(action)
        if state.is_over() and state.returns()[mover] < 0:
            found.append(action)
        state.undo()
    return found


def test_never_a_move_that_loses_at_once_when_another_exists():
    rng = random.Random(9)
    seen = 0
    for game in range(150):
        state = ludothek.new_game("trike", size=7)
        state.play(rng.choice(state.legal_actions()))
        state.play(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
        while not state.is_over():
            losing = losing_at_once(state)
            if losing and len(losing) < len(state.legal_actions()):
                seen += 1
                for budget in (1, 30):
                    action = MCTSAgent("trike", seed=game, budget=Budget(iterations=budget)).choose(state)
                    assert action not in losing, (state.position(), budget)
            state.play(rng.choice(state.legal_actions()))
    assert seen > 20


def test_no_move_that_hands_the_opponent_a_win_when_another_exists():
    rng = random.Random(5)
    seen = 0
    for game in range(60):
        state = ludothek.new_game("trike", size=7)
        state.play(rng.choice(state.legal_actions()))
        state.play(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
        while not state.is_over():
            handing, other = [], []
            for action in state.legal_actions():
                state.play(action)
                (handing if not state.is_over() and wins_now(state) else other).append(action)
                state.undo()
            if handing and other and not wins_now(state) and int((state.board == 0).sum()) <= 16:
                # where one of the other moves does not lose (a plain solve says), that is played
                mine = 1 if state.colour_to_move == 1 else -1
                holding = []
                for action in other:
                    state.play(action)
                    if (state.winner() == ("black" if mine == 1 else "white") if state.is_over()
                            else brute_force(*arrays(state)) == mine):
                        holding.append(action)
                    state.undo()
                if holding:
                    seen += 1
                    action = MCTSAgent("trike", seed=game, budget=Budget(iterations=3000)).choose(state)
                    assert action not in handing, state.position()
            state.play(rng.choice(state.legal_actions()))
    assert seen > 10


# ---------------------------------------------------------------- RAVE and the playouts
def test_amaf_counts_the_cells_the_mover_holds_at_the_end():
    tree = K.Tree(16)
    # the root has children for cells 3, 5, 7 and 9
    tree.ints[0, K.FIRST], tree.ints[0, K.COUNT] = 1, 4
    for i, cell in enumerate((3, 5, 7, 9)):
        tree.ints[1 + i, K.ACTION] = cell
    tree.used[0] = 5
    board = np.zeros(12, np.int8)
    board[[3, 9]] = 2  # White's stones at the end
    board[[5, 8]] = 1
    K.update_amaf(tree.ints, tree.amaf, 0, board, 2, -1)
    assert tree.amaf[1:5].tolist() == [[1, -1], [0, 0], [0, 0], [1, -1]]
    K.update_amaf(tree.ints, tree.amaf, 0, board, 1, 1)
    assert tree.amaf[1:5].tolist() == [[1, -1], [1, 1], [0, 0], [1, -1]]


def test_simulations_update_the_amaf_statistics_of_the_moves_played():
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    tree = K.Tree(200_000)
    assert run(tree, arrays(state), 500) == 500
    root = children(tree, 0)
    visits = tree.ints[root.start:root.stop, K.VISITS]
    amaf_n = tree.amaf[root.start:root.stop, K.AMAF_N]
    assert visits.sum() == 500
    # a root move's own cell holds the mover's stone at the end of its simulations, and
    # other simulations count it too when the mover played it later
    assert (amaf_n >= visits).all() and amaf_n.sum() > visits.sum()
    assert (np.abs(tree.amaf[root.start:root.stop, K.AMAF_W]) <= amaf_n).all()
    # without RAVE nothing is counted
    plain = K.Tree(200_000)
    run(plain, arrays(state), 500, replace(FULL, rave_bias=-1.0))
    assert not plain.amaf.any()


@pytest.mark.parametrize("policy", [0, 1])
def test_playouts_take_a_winning_ending_and_avoid_a_losing_one(policy):
    # White to move wins at once on f4 (and f4 is the only ending)
    state = ludothek.new_game("trike", "1/w1/b2/1b2/2ww1/b1B1w1/3bwb1 w")
    neighbours, board, pawn, colour = arrays(state)
    assert K.playouts(neighbours, board, pawn, colour, policy, 200, 1) == 0
    # every playout from a random position ends in a legal final position either way
    rng = random.Random(policy)
    for _ in range(20):
        position = random_position(9, rng.randrange(1, 10), rng)
        if position is not None:
            wins = K.playouts(*position, policy, 50, rng.randrange(1000))
            assert 0 <= wins <= 50


def test_the_anti_decisive_check_sees_a_handed_over_win():
    # the quick test (a neighbour of the new cell with no other empty neighbour, where the
    # opponent then wins) against the plain one (any reply of his that ends the game for him)
    rng = random.Random(8)
    seen = 0
    for _ in range(400):
        position = random_position(7, rng.randrange(12, 24), rng)
        if position is None:
            continue
        neighbours, board, pawn, colour = position
        free = np.empty(board.shape[0], np.int8)
        K.free_counts(board, neighbours, free)
        buffer = np.empty(board.shape[0], np.int16)
        moves = [int(c) for c in buffer[: kernels.targets(board, neighbours, pawn, buffer)]]
        for cell in moves:
            if K.ending(board, neighbours, free, colour, cell) != 0:
                continue
            # the plain definition: after the move, can the opponent end the game and win?
            after = board.copy()
            after[cell] = colour
            replies = buffer[: kernels.targets(after, neighbours, cell, buffer)].copy()
            expected = any(_ending(after, neighbours, 3 - colour, int(r)) > 0 for r in replies)
            assert kernels.hands_over(board, neighbours, free, colour, cell) == expected
            seen += expected
    assert seen > 10


# ---------------------------------------------------------------- the agent
def test_whole_games_are_legal_and_reproducible_under_a_seed():
    def game(seed):
        state = ludothek.new_game("trike", size=7)
        agents = [MCTSAgent("trike", seed=seed + seat, budget=Budget(iterations=300)) for seat in (0, 1)]
        while not state.is_over():
            action = agents[state.current_player()].choose(state)
            assert action in state.legal_actions()
            state.play(action)
        return state.record_tokens()

    first = game(10)
    assert first == game(10)
    assert len(first) >= 4


def test_the_swap_decision_is_searched_in_the_kernel():
    state = ludothek.new_game("trike", size=9)
    state.play("e3")
    assert mcts3.applicable(state) and not mcts3.applicable(state, Settings(swap=False))
    analysis = MCTSAgent("trike", seed=3, budget=Budget(iterations=2000)).analyse(state)
    swap = state.swap_action
    assert set(analysis.scores) == set(state.legal_actions())
    best_move = max((a for a in analysis.scores if a != swap), key=lambda a: analysis.visits[a])
    # swapping leaves the very position to the other player: its value is the move's, negated
    assert analysis.scores[swap] == -analysis.scores[best_move]
    assert analysis.best == (swap if analysis.scores[best_move] < 0 else best_move)
    assert not mcts3.applicable(ludothek.new_game("trike", size=9))  # Black's opening stone


def test_the_old_search_stays_reachable():
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    old = make_agent("mcts_old:700", "trike", seed=5)
    assert old.name == "mcts_old" and old.budget == Budget(iterations=700)
    assert old.analyse(state).iterations == 700
    # the kernel with its additions off, RAVE off and the first playout is the old search, tree for tree
    neighbours, board, pawn, colour = arrays(state)
    first, second = old_kernels.Tree(100_000), K.Tree(100_000)
    old_kernels.simulate(first.ints, first.value, first.proven, first.used, neighbours, board.copy(), pawn, colour,
                         2000, 1.0, 77)
    run(second, arrays(state), 2000, replace(V2, rave_bias=-1.0, policy=0), seed=77)
    used = int(first.used[0])
    assert used == second.used[0]
    assert (first.ints[:used] == second.ints[:used]).all() and (first.value[:used] == second.value[:used]).all()
    assert (first.proven[:used] == second.proven[:used]).all()


def shape(tree, node):
    """A subtree as nested tuples: action, visits, value, proven, AMAF, prior and the children."""
    return (int(tree.ints[node, K.ACTION]), int(tree.ints[node, K.VISITS]), float(tree.value[node]),
            int(tree.proven[node]), tuple(tree.amaf[node].tolist()), float(tree.prior[node]),
            tuple(shape(tree, child) for child in children(tree, node)))


@pytest.mark.parametrize("settings", [FULL, replace(TODAY, bias=0.5)], ids=["additions_off", "today_with_bias"])
def test_rerooting_keeps_exactly_the_subtree(settings):
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    tree = K.Tree(200_000)
    run(tree, arrays(state), 3000, settings)
    best = max(children(tree, 0), key=lambda c: tree.ints[c, K.VISITS])
    reply = max(children(tree, best), key=lambda c: tree.ints[c, K.VISITS])
    expected = shape(tree, reply)[1:]
    kept = sum(1 for _ in _nodes(tree, reply))
    K.reroot(tree.ints, tree.value, tree.proven, tree.amaf, tree.prior, tree.used, reply)
    assert shape(tree, 0)[1:] == expected
    assert tree.used[0] == kept < 3000 * 10


def _nodes(tree, node):
    yield node
    for child in children(tree, node):
        yield from _nodes(tree, child)


def test_an_agent_keeps_its_tree_for_the_position_reached():
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    agent = MCTSAgent("trike", seed=4, budget=Budget(iterations=3000))
    first = agent.analyse(state)
    tree = agent.trike_kept.tree
    node = next(c for c in children(tree, 0) if tree.ints[c, K.ACTION] == first.best)
    reply = max(children(tree, node), key=lambda c: tree.ints[c, K.VISITS])
    earlier = int(tree.ints[reply, K.VISITS])
    assert earlier > 10
    state.play(first.best)
    state.play(int(tree.ints[reply, K.ACTION]))
    second = agent.analyse(state)
    assert second.iterations == 3000
    assert sum(second.visits.values()) == earlier - 1 + 3000  # the first visit was a playout
    # another game, or an agent that keeps nothing, starts afresh
    assert sum(MCTSAgent("trike", seed=4, budget=Budget(iterations=3000), reuse=False)
               .analyse(state).visits.values()) == 3000
    fresh = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        fresh.play(move)
    assert sum(agent.analyse(fresh).visits.values()) == 3000


def test_mcts_with_takes_settings():
    agent = make_agent("mcts_with:300,c=0.5,rave=off,policy=0,swap=0", "trike")
    assert agent.trike_settings == mcts3.Settings(exploration=0.5, rave_bias=-1.0, policy=0, swap=False)
    assert make_agent("mcts_with:1s,reuse=0", "trike").trike_settings.reuse is False
    assert agent.budget == Budget(iterations=300)
    for bad in ("mcts_with:300,depth=3", "mcts_with:300,c=x"):
        with pytest.raises(OptionError):
            make_agent(bad, "trike")
