"""Trike's bitmask line kernels (the fast playout path) against ``targets``."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

import ludothek
from ludothek.boards.hex_triangle import hex_triangle
from ludothek.games.trike import kernels


def random_positions(size: int, seed: int, games: int = 6):
    rng = random.Random(seed)
    for _ in range(games):
        state = ludothek.new_game("trike", size=size)
        while not state.is_over():
            if state.pawn >= 0:
                yield state
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("size", [7, 8, 19])
def test_line_tables_cover_every_cell_three_times(size):
    geometry = hex_triangle(size)
    cell_lines, cell_at, empty_lines = kernels.line_tables(geometry.neighbours)
    assert len(empty_lines) == 3 * size
    for cell in range(geometry.size):
        for axis in range(3):
            assert cell_at[cell_lines[cell, axis], cell_lines[cell, 3 + axis]] == cell
    assert np.count_nonzero(cell_at >= 0) == 3 * geometry.size


@pytest.mark.parametrize("size,seed", [(7, 1), (10, 2)])
def test_line_targets_and_kth_target_agree_with_targets(size, seed):
    geometry = hex_triangle(size)
    cell_lines, cell_at, empty_lines = kernels.line_tables(geometry.neighbours)
    expected = np.empty(geometry.size, np.int16)
    found = np.empty(geometry.size, np.int16)
    for state in random_positions(size, seed):
        occupied = kernels.occupancy(state.board, cell_lines, empty_lines)
        count = kernels.targets(state.board, geometry.neighbours, state.pawn, expected)
        assert kernels.line_targets(occupied, cell_lines, cell_at, state.pawn, found) == count
        assert sorted(found[:count]) == sorted(expected[:count])
        runs = kernels.pawn_runs(occupied, cell_lines, state.pawn)
        assert sum(runs) == count
        # every k in [0, count) names a different target: uniform k, uniform move
        picked = [kernels.kth_target(cell_lines, cell_at, state.pawn, k, runs) for k in range(count)]
        assert picked == [int(c) for c in found[:count]]


@njit(cache=True)
def _draws(seed, bound, count):
    state = np.uint64(seed)
    seen = np.zeros(bound, np.int64)
    for _ in range(count):
        state, value = kernels.random_below(state, bound)
        seen[value] += 1
    return seen


def test_bounded_draws_are_uniform():
    for bound in (1, 3, 7, 190):
        seen = _draws(7, bound, 2000 * bound)
        assert seen.sum() == 2000 * bound
        assert seen.min() > 1700 and seen.max() < 2300


def test_playouts_keep_the_mean_length():
    # the ply count of random games is a property of the rules, not of the generator
    state = ludothek.new_game("trike", size=7)
    plies, games = state.random_playouts(20000, 3)
    assert abs(plies / games - 16.36) < 0.15
