"""Trike's third compiled MCTS (:mod:`ludothek.games.trike.mcts3`, the bots' ``mcts``): the
exact leaf solver against a plain search through the game API, the region count, tree reuse
(the subtree kept belongs to the position reached and never offers an illegal move), whole
games under a seed, and the search before it kept as ``mcts_v2`` (this one with its additions off)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

import ludothek
from ludothek.ai.base import make_agent
from ludothek.ai.budget import Budget
from ludothek.ai.mcts import MCTSAgent
from ludothek.games.trike import mcts3
from ludothek.games.trike import mcts3_kernels as K
from ludothek.games.trike.mcts3 import Settings
from ludothek.games.trike.search_kernels import evaluate_mover


def arrays(state):
    return state.geometry.neighbours, state.board.copy(), int(state.pawn), int(state.colour_to_move)


def work(cells):
    return (np.empty((cells + 1, cells), np.int16), np.empty(cells + 1, np.int32), np.empty(cells + 1, np.int32),
            np.empty(cells + 2, np.int32))


def simulate(tree, state, iterations, settings, seed):
    return mcts3.run_kernel(tree, *arrays(state), iterations, settings, seed)


def played(size, plies, rng):
    """A position after ``plies`` random moves (no swap), or None if the game ended."""
    state = ludothek.new_game("trike", size=size)
    while state.ply < plies:
        if state.is_over():
            return None
        state.play(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
    return None if state.is_over() else state


def exhaustive(state, known=None) -> int:
    """+1 if the player to move wins with perfect play, else -1: every line through the game API
    (a position reached again by another order of moves is looked up by its key)."""
    known = {} if known is None else known
    key = state.key()
    if key not in known:
        known[key] = _exhaustive(state, known)
    return known[key]


def _exhaustive(state, known) -> int:
    me = state.current_player()
    for action in state.legal_actions():
        state.play(action)
        value = state.returns()[me] if state.is_over() else -exhaustive(state, known)
        state.undo()
        if value > 0:
            return 1
    return -1


def solve(state, limit=10**7):
    neighbours, board, pawn, colour = arrays(state)
    free = np.empty(board.shape[0], np.int8)
    K.free_counts(board, neighbours, free)
    before = board.copy(), free.copy()
    result = K.solve(board, neighbours, free, pawn, colour, limit, *work(board.shape[0]))
    assert (board == before[0]).all() and (free == before[1]).all()  # restored
    return result


# ---------------------------------------------------------------- the exact leaf solver
def test_the_solver_agrees_with_an_exhaustive_search():
    rng = random.Random(5)
    compared = 0
    while compared < 60:
        state = played(7, rng.randint(9, 20), rng)
        if state is None:
            continue
        assert solve(state) == exhaustive(state), state.position()
        compared += 1


def winning_replies(state, move, known) -> tuple[float, int]:
    """(share of the opponent's replies to ``move`` that win for him, how many replies he has),
    every reply judged by the exhaustive search (``known``: its positions solved so far)."""
    me = state.current_player()
    state.play(move)
    replies = state.legal_actions()
    winning = 0
    for reply in replies:
        state.play(reply)
        winning += state.returns()[me] < 0 if state.is_over() else exhaustive(state, known) < 0
        state.undo()
    state.undo()
    return winning / len(replies), len(replies)


def test_in_a_proven_loss_the_search_plays_the_move_with_the_fewest_winning_replies():
    rng = random.Random(8)
    known = {}  # one table for the whole test: a key is a whole position
    checked = 0
    while checked < 25:
        state = played(7, rng.randint(8, 16), rng)
        if state is None or exhaustive(state, known) > 0:
            continue
        lasting = [move for move in state.legal_actions() if not _ends(state, move)]
        if len(lasting) < 2:
            continue
        keys = {move: winning_replies(state, move, known) for move in lasting}
        fewest = min((share, -count) for share, count in keys.values())
        chosen = mcts3.search(state, Budget(iterations=5000).clock(), random.Random(1), Settings(solve_limit=10**7))
        assert chosen.stopped == "proven" and chosen.value == -1.0
        assert (keys[chosen.best][0], -keys[chosen.best][1]) == fewest, state.position()
        checked += 1


def _ends(state, move) -> bool:
    state.play(move)
    over = state.is_over()
    state.undo()
    return over


def test_the_solver_gives_up_beyond_its_limit():
    state = played(13, 6, random.Random(2))
    assert solve(state, limit=50) == 0  # far too many positions: unknown, and the board restored


def region(state):
    """The empty cells connected to the pawn, by a plain flood fill."""
    neighbours, board = state.geometry.neighbours, state.board
    found, todo = set(), [int(state.pawn)]
    while todo:
        cell = todo.pop()
        for other in neighbours[cell]:
            if other >= 0 and board[other] == 0 and int(other) not in found:
                found.add(int(other))
                todo.append(int(other))
    return len(found)


def test_the_region_count_matches_a_flood_fill():
    rng = random.Random(8)
    seen = np.zeros(91, np.int32)
    queue = np.empty(91, np.int16)
    stamp = 0
    for _ in range(40):
        state = played(13, rng.randint(2, 70), rng)
        if state is None:
            continue
        size = region(state)
        neighbours, board, pawn, _ = arrays(state)
        for most in (size - 1, size, size + 1, 20):
            stamp += 1
            assert K.region_at_most(board, neighbours, pawn, most, seen, stamp, queue) == (size <= most)


def test_a_solving_playout_is_exact_once_the_region_is_small():
    rng = random.Random(12)
    checked = 0
    while checked < 20:
        state = played(7, rng.randint(8, 18), rng)
        if state is None or region(state) > 8:
            continue
        neighbours, board, pawn, colour = arrays(state)
        cells = board.shape[0]
        free = np.empty(cells, np.int8)
        K.free_counts(board, neighbours, free)
        result = K.play_out_solving(neighbours, board, free, pawn, colour, np.empty(cells, np.int16),
                                    np.empty(cells, np.int16), 8, 10**6, np.zeros(cells, np.int64), 0,
                                    np.empty(cells, np.int16), *work(cells))
        mover_wins = exhaustive(state) == 1
        assert result == (1 if mover_wins == (colour == 1) else -1)
        checked += 1


@pytest.mark.parametrize("rollout", [0, 8])
def test_proven_nodes_and_values_of_a_search_are_right(rollout):
    rng = random.Random(11)
    checked, known = 0, {}
    for _ in range(12):
        state = played(7, rng.randint(6, 10), rng)
        if state is None:
            continue
        tree = K.Tree(200_000)
        simulate(tree, state, 3000, Settings(solve_size=12, rollout_size=rollout), seed=9)
        for child in range(tree.ints[0, K.FIRST], tree.ints[0, K.FIRST] + tree.ints[0, K.COUNT]):
            if tree.proven[child]:
                after = state.copy()
                after.play(int(tree.ints[child, K.ACTION]))
                if after.is_over():
                    continue
                black_wins = exhaustive(after, known) == (1 if after.colour_to_move == 1 else -1)
                assert tree.proven[child] == (1 if black_wins else -1)
                checked += 1
    assert checked > 5


# ---------------------------------------------------------------- the agent
def test_whole_games_are_legal_and_reproducible_under_a_seed():
    def game(seed, size):
        state = ludothek.new_game("trike", size=size)
        agents = [make_agent("mcts:400", "trike", seed=seed + seat) for seat in (0, 1)]
        while not state.is_over():
            action = agents[state.current_player()].choose(state)
            assert action in state.legal_actions()
            state.play(action)
        return state.record_tokens()

    for size in (7, 13):
        first = game(10, size)
        assert first == game(10, size)
        assert len(first) >= 4


def test_reuse_never_offers_an_illegal_move_and_keeps_the_position_reached():
    rng = random.Random(4)
    for seed in range(6):
        state = ludothek.new_game("trike", size=9)
        agent = MCTSAgent("trike", seed=seed, budget=Budget(iterations=600))
        while not state.is_over():
            legal = set(state.legal_actions())
            if state.pawn >= 0:
                analysis = agent.analyse(state)
                assert set(analysis.scores) == legal and analysis.best in legal
                tree = agent.trike_kept.tree
                # the root of the kept tree is this position: its children are exactly its moves
                moves = {int(tree.ints[c, K.ACTION]) for c in range(tree.ints[0, K.FIRST],
                                                                    tree.ints[0, K.FIRST] + tree.ints[0, K.COUNT])}
                assert moves == legal - {state.swap_action}
            state.play(rng.choice(sorted(legal)))


def test_a_reused_tree_gives_the_statistics_of_the_position_played():
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    agent = MCTSAgent("trike", seed=4, budget=Budget(iterations=3000))
    first = agent.analyse(state)
    tree = agent.trike_kept.tree
    node = next(c for c in range(tree.ints[0, K.FIRST], tree.ints[0, K.FIRST] + tree.ints[0, K.COUNT])
                if tree.ints[c, K.ACTION] == first.best)
    replies = range(tree.ints[node, K.FIRST], tree.ints[node, K.FIRST] + tree.ints[node, K.COUNT])
    reply = max(replies, key=lambda c: tree.ints[c, K.VISITS])
    kept = {int(tree.ints[c, K.ACTION]): int(tree.ints[c, K.VISITS])
            for c in range(tree.ints[reply, K.FIRST], tree.ints[reply, K.FIRST] + tree.ints[reply, K.COUNT])}
    state.play(first.best)
    state.play(int(tree.ints[reply, K.ACTION]))
    second = agent.analyse(state)
    assert set(kept) <= set(second.visits)
    assert sum(second.visits.values()) == sum(kept.values()) + 3000 - (0 if kept else 1)
    assert all(second.visits[action] >= visits for action, visits in kept.items())


def test_the_search_before_stays_reachable_as_mcts_v2():
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4", "g4", "g6"):
        state.play(move)
    v2 = make_agent("mcts_v2:700", "trike", seed=5)
    assert v2.name == "mcts_v2" and v2.budget == Budget(iterations=700)
    analysis = v2.analyse(state)
    assert analysis.iterations == 700
    assert isinstance(v2.trike_kept, mcts3.Kept)  # the bots' driver, keeping its tree
    # with every addition off, and the rest of the bots' settings
    assert v2.trike_settings == mcts3.V2
    assert (mcts3.V2.bias, mcts3.V2.fpu, mcts3.V2.solve_size, mcts3.V2.rollout_size) == (0.0, -1.0, 0, 0)
    assert mcts3.V2 == replace(mcts3.DEFAULT, policy=0, solve_size=0, solve_limit=0, puct=0.0, resist=False,
                              book=False, manage=False, fill=False)
    # mcts_v2 is this driver with V2, analysis for analysis
    again = mcts3.search(state, Budget(iterations=700).clock(), random.Random(5), mcts3.V2, mcts3.Kept())
    assert (again.best, again.visits, again.scores) == (analysis.best, analysis.visits, analysis.scores)
    # the leaf solve sets them apart: with 19 empty cells left the bots' search proves the win
    # at once, mcts_v2 only after hundreds of simulations
    late = ludothek.new_game("trike", "B/2/3/1b2/1b2w/b1ww2/1w1b3 w")
    before = make_agent("mcts_v2:700", "trike", seed=5).analyse(late)
    today = make_agent("mcts:700", "trike", seed=5).analyse(late)
    assert before.value == today.value == 1.0
    assert today.iterations < 100 < before.iterations and today.visits != before.visits


def test_the_bots_use_the_new_search():
    state = ludothek.new_game("trike", size=9)
    for move in ("e3", "e4"):
        state.play(move)
    agent = make_agent("bot:3", "trike", seed=1)
    agent.analyse(state)
    assert isinstance(agent.trike_kept, mcts3.Kept)


def test_mcts_with_takes_the_new_settings():
    agent = make_agent("mcts_with:300,solve=12,limit=500,bias=0.5,fpu=1,mix=0.25,puct=2,reduction=0.1,resist=0",
                       "trike")
    assert agent.trike_settings == Settings(solve_size=12, solve_limit=500, bias=0.5, fpu=1.0, mix=0.25, puct=2.0,
                                            reduction=0.1, resist=False)
    with pytest.raises(ludothek.OptionError):
        make_agent("mcts_with:300,solve=x", "trike")
    assert make_agent("mcts_with:300,expand=3", "trike").trike_settings == Settings(expand=3)
    with pytest.raises(ludothek.OptionError, match="expand"):
        make_agent("mcts_with:300,expand=0", "trike")
    assert make_agent("mcts_with:300,fill=0", "trike").trike_settings == Settings(fill=False)
    assert not mcts3.V2.fill and mcts3.DEFAULT.fill


def test_expand_to_fit():
    """The simulations left may fill half the free nodes: 7 a simulation at expand 1, 7 / k at k."""
    assert mcts3._expand_to_fit(1, 2000, 7.0, 100) == 1  # 700 nodes fit in 1,000
    assert mcts3._expand_to_fit(3, 2000, 7.0, 100) == 3
    assert mcts3._expand_to_fit(1, 2000, 7.0, 1000) == 7  # 7,000 nodes at 1, 1,000 at 7
    assert mcts3._expand_to_fit(1, 1999, 7.0, 1000) == 8
    assert mcts3._expand_to_fit(10, 2000, 7.0, 1000) == 10
    assert mcts3._expand_to_fit(1, 0, 7.0, 1000) == 7000
    assert mcts3._expand_to_fit(1, 0, 7.0, 10**9) == mcts3.MOST_EXPAND


def growth_under_time(monkeypatch, fill: bool) -> dict[int, int]:
    """The tree's size after each of the kernel's runs (by the simulations run so far) in a 1 s
    search on a tree of 20,000 nodes, on a clock that counts simulations as time (a machine
    making 100,000 a second), so the search is the same on any machine."""
    monkeypatch.setattr(mcts3, "MAX_NODES", 20_000)
    sizes, run = {}, mcts3.run_kernel

    def recording(tree, *args):
        ran = run(tree, *args)
        sizes[max(sizes, default=0) + ran] = int(tree.used[0])
        return ran

    monkeypatch.setattr(mcts3, "run_kernel", recording)
    clock = None
    clock = Budget(seconds=1.0).clock(lambda: 0.0 if clock is None else clock.count / 100_000)
    state = played(13, 4, random.Random(5))
    mcts3.search(state, clock, random.Random(1), replace(mcts3.DEFAULT, fill=fill, manage=False))
    assert 99_000 <= clock.count <= 101_000
    return sizes


def size_at(sizes: dict[int, int], simulations: int) -> int:
    return sizes[min(done for done in sizes if done >= simulations)]


def test_a_time_budgeted_tree_grows_until_the_time_is_up(monkeypatch):
    # without fill the tree is full (no room for a node's children) a fifth of the way through
    # and stops growing; with it, it is half full halfway and still grows in the last tenth
    frozen = growth_under_time(monkeypatch, False)
    assert 19_900 <= size_at(frozen, 20_000) and frozen[max(frozen)] - size_at(frozen, 20_000) < 100
    growing = growth_under_time(monkeypatch, True)
    assert size_at(growing, 50_000) < 12_000 < size_at(growing, 90_000) < growing[max(growing)] <= 20_000


@pytest.mark.parametrize("expand", [1, 3])
def test_a_leaf_gets_its_children_after_expand_visits(expand):
    state = played(13, 6, random.Random(3))
    tree = K.Tree(400_000)
    simulate(tree, state, 5000, Settings(expand=expand), seed=2)
    used = int(tree.used[0])
    visits, count, proven = tree.ints[1:used, K.VISITS], tree.ints[1:used, K.COUNT], tree.proven[1:used]
    assert (visits[count > 0] >= expand + 1).all()  # children made on the visit after the last playout
    assert (visits[(count == 0) & (proven == 0)] <= expand).all()


@pytest.mark.parametrize("mix", [1.0, 0.5])
def test_a_new_leaf_mixes_the_heuristic_evaluation_into_its_playout(mix):
    """``mix``: a new leaf's value is ``mix`` times the heuristic evaluation of its position (for
    Black) plus ``1 - mix`` times its playout's result (+-1)."""
    rng = random.Random(3)
    checked = 0
    for _ in range(8):
        state = played(9, rng.randrange(3, 12), rng)
        if state is None:
            continue
        neighbours, board, pawn, colour = arrays(state)
        tree = K.Tree(4096)
        simulate(tree, state, 1, Settings(solve_size=0, mix=mix), seed=11)
        first, count = tree.ints[0, K.FIRST], tree.ints[0, K.COUNT]
        leaves = [child for child in range(first, first + count) if tree.ints[child, K.VISITS] == 1]
        assert len(leaves) == 1  # one simulation: the root expanded, one child valued
        leaf = leaves[0]
        if tree.proven[leaf] != 0:
            continue  # a move that ends the game is valued exactly, not evaluated
        after = board.copy()
        after[tree.ints[leaf, K.ACTION]] = colour
        to_move = 3 - colour
        guess = evaluate_mover(neighbours, after, int(tree.ints[leaf, K.ACTION]), to_move)
        guess = guess if to_move == 1 else -guess
        if mix == 1.0:
            assert tree.value[leaf] == pytest.approx(guess)
        else:
            playout = (tree.value[leaf] - mix * guess) / (1.0 - mix)
            assert playout == pytest.approx(1.0) or playout == pytest.approx(-1.0)
        checked += 1
    assert checked >= 4
