"""Trike speed, as ratios against the plain-Python reference measured in the same run.

Run: python3 -m pytest benchmarks --benchmark-enable
"""

import ludothek
from ludothek import GameState


def test_compiled_playouts(benchmark):
    state = ludothek.new_game("trike", size=13)
    state.random_playouts(1, 0)
    benchmark(state.random_playouts, 1000, 1)


def test_python_reference_playouts(benchmark):
    state = ludothek.new_game("trike", size=13)
    benchmark(GameState.random_playouts, state, 10, 1)


def test_compiled_perft_4(benchmark):
    state = ludothek.new_game("trike", size=13)
    assert benchmark(state.perft, 4) == 905604  # six lines end at ply 3 and add no leaf
