"""ludothek.vector against the plain API: the same actions give the same trajectories."""

from __future__ import annotations

import numpy as np
import pytest

import ludothek
from ludothek.integrations.observe import encoder_for
from ludothek.vector import TrikeVector

from .vector_checks import check_against_pettingzoo

SIZE = 7


def plain_mask(state) -> np.ndarray:
    """PettingZoo's action mask for the seat to move."""
    mask = np.zeros(state.num_actions, np.int8)
    mask[state.legal_actions()] = 1
    return mask


def check_against_plain(vector: TrikeVector, steps: int) -> int:
    """Step ``vector`` with its own random actions and the same actions through plain
    states; compare everything the vector returns. Returns how many games ended."""
    encoder = encoder_for("trike", {"size": vector.size})
    states = [ludothek.new_game("trike", size=vector.size) for _ in range(vector.n)]
    observations, legal = vector.reset()
    ended = 0
    for _ in range(steps):
        for i, state in enumerate(states):
            seat = state.current_player()
            assert vector.current_player[i] == seat
            assert np.array_equal(legal[i], plain_mask(state))
            assert np.array_equal(observations[i], encoder.encode(state, seat))
        actions = vector.sample_actions()
        movers = [state.current_player() for state in states]
        observations, rewards, terminations, legal = vector.step(actions)
        for i, state in enumerate(states):
            state.apply_action(int(actions[i]))
            assert terminations[i] == state.is_over()
            assert rewards[i].tolist() == state.returns()
            if state.is_over():
                ended += 1
                assert vector.final_winners[i] == state.returns().index(1.0)
                assert np.array_equal(vector.final_observations[i], encoder.encode(state, movers[i]))
                states[i] = ludothek.new_game("trike", size=vector.size)
    return ended


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_trajectories_as_the_plain_api(seed):
    assert check_against_plain(TrikeVector(6, size=SIZE, seed=seed), steps=70) > 6


def test_parallel_stepping_gives_the_same_trajectories():
    assert check_against_plain(TrikeVector(4, size=SIZE, seed=5, parallel=True), steps=40) > 2


def test_swap_is_offered_once_and_keeps_the_colour_to_move():
    vector = TrikeVector(2, size=SIZE, seed=0)
    vector.reset()
    swap = vector.num_cells
    assert not vector.legal[:, swap].any()
    vector.step(np.array([0, 5]))
    assert vector.legal[:, swap].all() and vector.current_player.tolist() == [1, 1]
    observations, _, _, legal = vector.step(np.array([swap, vector.sample_actions()[1]]))
    # game 0: White is still to move, now played by seat 0, and the swap is gone
    assert vector.current_player.tolist() == [0, 0]
    assert not legal[:, swap].any()
    assert observations[0, 5].all() and not observations[0, 4].any()


def test_illegal_actions_are_refused_and_change_nothing():
    vector = TrikeVector(2, size=SIZE, seed=0)
    vector.reset()
    vector.step(np.array([0, 0]))
    before = vector.boards.copy()
    for actions in ([0, 1], [vector.num_actions, 1], [-1, 1]):  # occupied, out of range
        with pytest.raises(ValueError, match="not legal in game 0"):
            vector.step(np.array(actions))
    with pytest.raises(ValueError, match="must be 2 integers"):
        vector.step(np.array([0.5, 1.0]))
    assert np.array_equal(vector.boards, before)


def test_vectors_are_found_by_game_name():
    from ludothek import vector

    assert vector.vector_class("trike") is TrikeVector
    assert vector.make("trike", 3, size=SIZE).n == 3
    with pytest.raises(ValueError, match="no batched API"):
        vector.make("wettlauf", 3)  # the plugin game of tests/plugin offers none
    with pytest.raises(AttributeError):
        vector.NoSuchVector  # noqa: B018


def test_step_before_reset_is_refused():
    with pytest.raises(RuntimeError):
        TrikeVector(1, size=SIZE).step(np.array([0]))


def test_same_observations_as_the_pettingzoo_environment():
    pytest.importorskip("pettingzoo")
    from ludothek.integrations.pettingzoo import env

    game = env("trike", size=SIZE)
    game.reset()
    assert check_against_pettingzoo(TrikeVector(1, size=SIZE, seed=3), game, rounds=12) >= 1  # into a second game
