"""Trike's playout read from the line words (:mod:`ludothek.games.trike.line_playout`, policy 4,
the bots' playout) against policy 0 (:func:`.mcts3_kernels.play_out`): the same choices in every
position, the same distribution of results, and a search with it valuing a position as with policy 0."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

import ludothek
from ludothek.boards.hex_triangle import hex_triangle
from ludothek.games.trike import kernels, mcts3
from ludothek.games.trike import line_playout as L
from ludothek.games.trike import mcts3_kernels as K
from ludothek.games.trike.mcts3 import DEFAULT

from .test_trike_line_kernels import random_positions


def policy_zero_choices(state):
    """Policy 0's candidates, by the plain definitions: (winning endings, safe moves, losing endings)."""
    neighbours, board, colour = state.geometry.neighbours, state.board.copy(), int(state.colour_to_move)
    free = np.empty(board.shape[0], np.int8)
    K.free_counts(board, neighbours, free)
    buffer = np.empty(board.shape[0], np.int16)
    won, safe, lost = set(), set(), set()
    for cell in (int(c) for c in buffer[: kernels.targets(board, neighbours, int(state.pawn), buffer)]):
        {1: won, 0: safe, -1: lost}[K.ending(board, neighbours, free, colour, cell)].add(cell)
    return won, safe, lost


@pytest.mark.parametrize("size,seed", [(7, 1), (13, 2), (19, 3)])
def test_a_step_chooses_as_policy_zero_does(size, seed):
    neighbours = hex_triangle(size).neighbours
    cell_lines, cell_at, empty_lines = kernels.line_tables(neighbours)
    lengths, losing = np.empty(6, np.int64), np.empty(6, np.int64)
    seen = {"won": 0, "safe": 0, "lost": 0, "over": 0}
    for state in random_positions(size, seed, games=8):
        board = state.board.copy()
        occupied = kernels.occupancy(board, cell_lines, empty_lines)
        for cell in range(board.shape[0]):  # a dead end by the line words is a cell with no empty neighbour
            empty_neighbours = sum(1 for other in neighbours[cell] if other >= 0 and board[other] == 0)
            assert L.dead_end(occupied, cell_lines, cell) == (empty_neighbours == 0)
        won, safe, lost = policy_zero_choices(state)
        chosen = []
        for draw in range(40 * max(len(safe), 1)):
            cell, _ = L.choose(neighbours, board, occupied, cell_lines, cell_at, int(state.pawn),
                               int(state.colour_to_move), np.uint64(draw), lengths, losing)
            chosen.append(int(cell))
        assert (board == state.board).all()  # the board is left as it was
        if won:
            assert set(chosen) <= won
            seen["won"] += 1
        elif safe:
            assert set(chosen) == safe  # every safe move, and only those, is drawn
            seen["safe"] += 1
        elif lost:
            assert set(chosen) == lost
            seen["lost"] += 1
        else:
            assert set(chosen) == {-1}  # the pawn is walled in
            seen["over"] += 1
    assert min(seen.values()) > 0, seen


@pytest.mark.parametrize("size,plies", [(7, 3), (13, 8), (19, 12)])
def test_results_have_policy_zeros_distribution(size, plies):
    rng = random.Random(size)
    for _ in range(3):
        state = ludothek.new_game("trike", size=size)
        while state.ply < plies:
            state.play(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
        if state.is_over():
            continue
        position = state.geometry.neighbours, state.board.copy(), int(state.pawn), int(state.colour_to_move)
        count = 4000
        old = K.playouts(*position, 0, count, 5) / count
        new = K.playouts(*position, K.LINES, count, 6) / count
        spread = np.sqrt(max(old * (1 - old), 0.01) * 2 / count)
        assert abs(old - new) < 4.5 * spread, (state.position(), old, new)


def test_a_winning_ending_is_always_taken():
    # White to move wins at once on f4 (and f4 is the only ending)
    state = ludothek.new_game("trike", "1/w1/b2/1b2/2ww1/b1B1w1/3bwb1 w")
    position = state.geometry.neighbours, state.board.copy(), int(state.pawn), int(state.colour_to_move)
    assert K.playouts(*position, K.LINES, 200, 1) == 0


def test_the_bots_search_uses_it_and_its_tree_values_agree_with_policy_zeros():
    assert DEFAULT.policy == K.LINES and mcts3.V2.policy == 0
    rng = random.Random(4)
    for size, plies in ((9, 6), (13, 10)):
        state = ludothek.new_game("trike", size=size)
        while state.ply < plies:
            state.play(rng.choice([a for a in state.legal_actions() if a != state.swap_action]))
        values = {}
        for policy in (0, K.LINES):
            tree = K.Tree(400_000)
            settings = replace(mcts3.V2, policy=policy)
            mcts3.run_kernel(tree, state.geometry.neighbours, state.board.copy(), int(state.pawn),
                             int(state.colour_to_move), 20_000, settings, 3)
            # the playouts start from the board the descent reached (the line words follow it):
            # the root's value is the same estimate either way
            values[policy] = tree.value[0] / tree.ints[0, K.VISITS]
        assert abs(values[0] - values[K.LINES]) < 0.06, (state.position(), values)
