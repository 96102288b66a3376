"""ludothek.vector's BitisVector against the plain API: the same placements give the same
trajectories (legal masks, observations, rewards, terminations and truncations, winners,
auto-reset)."""

from __future__ import annotations

import numpy as np
import pytest

import ludothek
from ludothek.games.bitis.vector import BitisVector
from ludothek.integrations.observe import encoder_for

from .vector_checks import check_against_pettingzoo, plain_mask


def check_against_plain(vector: BitisVector, steps: int, choose=None) -> dict[str, int]:
    """Step ``vector`` and plain states with the same placements (``choose(legal)``'s, else the
    vector's own random ones); compare everything; return the endings seen (``"cut"`` for the
    vector's limit)."""
    encoder = encoder_for("bitis", {})
    states = [ludothek.new_game("bitis") for _ in range(vector.n)]
    observations, legal = vector.reset()
    endings: dict[str, int] = {}
    for _ in range(steps):
        for i, state in enumerate(states):
            seat = state.current_player()
            assert vector.current_player[i] == seat and vector.plies[i] == state.ply
            assert np.array_equal(legal[i], plain_mask(state))
            assert np.array_equal(observations[i], encoder.encode(state, seat))
        actions = vector.sample_actions() if choose is None else choose(legal)
        movers = [state.current_player() for state in states]
        observations, rewards, terminations, truncations, legal = vector.step(actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            cut = not state.is_over() and state.ply >= vector.max_plies
            assert truncations[i] == cut
            assert terminations[i] == state.is_over()
            assert rewards[i].tolist() == state.returns()
            if state.is_over() or cut:
                ending = state.ending() or "cut"
                endings[ending] = endings.get(ending, 0) + 1
                won = state.returns().index(1.0) if state.winner() else -1
                assert vector.final_winners[i] == won
                assert np.array_equal(vector.final_observations[i], encoder.encode(state, movers[i]))
                states[i] = ludothek.new_game("bitis")
            else:
                assert vector.final_winners[i] == -1
    return endings


class RepeatingChooser:
    """Random placements that avoid the base lines where they can, and mostly one that brings
    back a position seen before in the game (for threefold repetitions)."""

    def __init__(self, vector: BitisVector, seed: int):
        self.vector, self.rng = vector, np.random.default_rng(seed)

    def __call__(self, legal: np.ndarray) -> np.ndarray:
        actions = np.empty(len(legal), np.int64)
        for i in range(len(legal)):
            options = np.flatnonzero(legal[i])
            inner = [a for a in options if 4 <= (a // 24) % 24 < 20]  # rows 2..5
            options = inner or options
            history = self.vector.history[i, : self.vector.plies[i] + 1]
            back = [a for a in options if self._key_after(i, a) in history]
            actions[i] = self.rng.choice(back) if back and self.rng.random() < 0.8 else self.rng.choice(options)
        return actions

    def _key_after(self, i: int, action: int) -> int:
        from ludothek.games.bitis.kernels import key_of

        cells, ors = self.vector.cells[i].copy(), self.vector.ors[i].copy()
        die = action // 576
        cells[die], ors[die] = (action // 24) % 24, action % 24
        return int(key_of(cells, ors, die, 1 - self.vector.games[i, 1]))


def test_same_trajectories_as_the_plain_api():
    endings = check_against_plain(BitisVector(16, seed=1), steps=120)
    assert endings.get("own_base_line", 0) + endings.get("far_base_line", 0) >= 20
    assert endings.get("no_placement", 0) >= 1


def test_positions_that_come_back_end_in_a_repetition_draw_and_the_limit_cuts():
    vector = BitisVector(8, max_plies=30, seed=2)
    endings = check_against_plain(vector, steps=150, choose=RepeatingChooser(vector, 2))
    assert endings.get("repetition", 0) >= 3
    assert endings.get("cut", 0) >= 1


def test_parallel_stepping_gives_the_same_trajectories():
    serial, parallel = BitisVector(6, seed=5), BitisVector(6, seed=5, parallel=True)
    serial.reset(), parallel.reset()
    for _ in range(60):
        actions = serial.sample_actions()
        assert np.array_equal(actions, parallel.sample_actions())
        assert all(np.array_equal(a, b) for a, b in zip(serial.step(actions), parallel.step(actions)))
        assert np.array_equal(serial.final_observations, parallel.final_observations)


def test_illegal_actions_and_options_are_refused():
    vector = BitisVector(2, seed=0)
    with pytest.raises(RuntimeError):
        vector.step(np.array([0, 0]))
    vector.reset()
    before = (vector.cells.copy(), vector.games.copy(), vector.legal.copy(), vector.observations.copy())
    outside_row_4 = 0 * 576 + 0 * 24 + 0  # die III on A1: the first placement must be on row 4
    for bad in (outside_row_4, vector.num_actions, -1):
        with pytest.raises(ValueError, match="not legal in game 0"):
            vector.step(np.array([bad, 12 * 24]))
    after = (vector.cells, vector.games, vector.legal, vector.observations)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    for bad in (0, -3, 1.5, True):
        with pytest.raises(ValueError, match="max_plies"):
            BitisVector(2, max_plies=bad)
    with pytest.raises(ValueError):
        BitisVector(0)


def test_vectors_are_found_by_game_name():
    from ludothek import vector

    assert vector.vector_class("bitis") is BitisVector
    assert vector.make("bitis", 3, max_plies=50).max_plies == 50


def test_same_observations_as_the_pettingzoo_environment():
    pytest.importorskip("pettingzoo")
    from ludothek.integrations.pettingzoo import env

    game = env("bitis")
    game.reset()
    assert check_against_pettingzoo(BitisVector(1, seed=3), game, rounds=80) >= 3
