"""ludothek.vector's TrigeoVector against the plain API: the same actions give the same
trajectories (legal masks, observations, rewards, terminations and truncations, winners,
auto-reset)."""

from __future__ import annotations

import numpy as np
import pytest

import ludothek
from ludothek.games.trigeo.vector import TrigeoVector
from ludothek.integrations.observe import encoder_for

from .vector_checks import Chooser, check_against_plain, check_against_pettingzoo, plain_mask

CELLS = 66
# White's 3 on A9 to B11 and back, Black's 3 on F9 to E11 and back (cells A9=6, B11=18,
# F9=63, E11=55)
WHITE_OUT, WHITE_BACK = 6 * CELLS + 18, 18 * CELLS + 6
BLACK_OUT, BLACK_BACK = 63 * CELLS + 55, 55 * CELLS + 63


WINS = ("one_captured", "one_trapped", "no_move")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_trajectories_as_the_plain_api(seed):
    vector = TrigeoVector(8, max_plies=80, seed=seed)
    endings = check_against_plain(vector, "trigeo", steps=250, choose=Chooser(8, seed, undo=0.5))
    assert sum(endings.get(kind, 0) for kind in WINS) >= 3
    assert endings.get("repetition", 0) >= 3
    assert endings.get("move_limit", 0) >= 3


def test_same_trajectories_with_the_default_options_and_the_vectors_own_actions():
    endings = check_against_plain(TrigeoVector(4, seed=7), "trigeo", steps=260)
    assert sum(endings.get(kind, 0) for kind in WINS) >= 2


def test_a_short_limit_truncates_and_black_may_move_first():
    vector = TrigeoVector(6, max_plies=30, first="black", seed=3)
    assert vector.reset()[0][:, -1].all() and (vector.current_player == 1).all()
    endings = check_against_plain(vector, "trigeo", steps=100)
    assert endings.get("move_limit", 0) >= 6


def test_parallel_stepping_gives_the_same_trajectories():
    vector = TrigeoVector(4, max_plies=60, seed=5, parallel=True)
    endings = check_against_plain(vector, "trigeo", steps=150, choose=Chooser(4, 5, undo=0.5))
    assert sum(endings.values()) >= 4


def test_shuffling_two_dice_back_and_forth_is_a_threefold_repetition_draw():
    vector = TrigeoVector(2, seed=0)
    vector.reset()
    other = vector.sample_actions()[1]  # game 1 plays on, unrepeated
    state = ludothek.new_game("trigeo")
    for ply, action in enumerate([WHITE_OUT, BLACK_OUT, WHITE_BACK, BLACK_BACK] * 2):
        assert vector.legal[0, action]
        observations, rewards, terminations, truncations, legal = vector.step(np.array([action, other]))
        other = vector.sample_actions()[1]
        state.apply_action(action)
        assert state.repetitions() == 1 + (ply + 1) // 4
        assert terminations[0] == (ply == 7) and not truncations.any()
    assert state.ending() == "repetition"
    assert rewards[0].tolist() == [0.0, 0.0] and vector.final_winners[0] == -1
    encoder = encoder_for("trigeo", vector.options)
    assert np.array_equal(vector.final_observations[0], encoder.encode(state, 1))  # Black moved last
    # game 0 started again in the same step
    assert vector.plies.tolist()[0] == 0 and vector.current_player[0] == 0
    start = ludothek.new_game("trigeo")
    assert np.array_equal(observations[0], encoder.encode(start, 0))
    assert np.array_equal(legal[0], plain_mask(start))


def test_illegal_actions_are_refused_and_change_nothing():
    vector = TrigeoVector(2, seed=0)
    vector.reset()
    vector.step(np.array([WHITE_OUT, WHITE_OUT]))
    before = (vector.boards.copy(), vector.games.copy(), vector.history.copy(), vector.legal.copy(),
              vector.observations.copy())
    # Black to move: White's move back, a move from an empty cell, out of range
    for actions in ([WHITE_BACK, BLACK_OUT], [0, BLACK_OUT], [vector.num_actions, BLACK_OUT], [-1, BLACK_OUT]):
        with pytest.raises(ValueError, match="not legal in game 0"):
            vector.step(np.array(actions))
    with pytest.raises(ValueError, match="not legal in game 1"):
        vector.step(np.array([BLACK_OUT, WHITE_BACK]))
    with pytest.raises(ValueError, match="must be 2 integers"):
        vector.step(np.array([0.5, 1.0]))
    with pytest.raises(ValueError, match="must be 2 integers"):
        vector.step(np.array([BLACK_OUT]))
    after = (vector.boards, vector.games, vector.history, vector.legal, vector.observations)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))


def test_options_are_checked_by_the_plain_api():
    with pytest.raises(Exception, match="max_plies"):
        TrigeoVector(2, max_plies=0)
    with pytest.raises(Exception, match="first"):
        TrigeoVector(2, first="red")
    with pytest.raises(ValueError):
        TrigeoVector(0)


def test_copy_false_returns_the_vectors_own_buffers():
    vector = TrigeoVector(2, seed=0, copy=False)
    observations, legal = vector.reset()
    step = vector.step(vector.sample_actions())
    assert step.observations is vector.observations and step.truncations is vector.truncations
    assert step._fields == ("observations", "rewards", "terminations", "truncations", "legal")
    copied = TrigeoVector(2, seed=0)
    copied.reset()
    assert copied.step(copied.sample_actions()).legal is not copied.legal


def test_vectors_are_found_by_game_name():
    from ludothek import vector

    assert vector.vector_class("trigeo") is TrigeoVector
    assert vector.TrigeoVector is TrigeoVector
    made = vector.make("trigeo", 3, max_plies=50)
    assert made.n == 3 and made.max_plies == 50


def test_step_before_reset_is_refused():
    with pytest.raises(RuntimeError):
        TrigeoVector(1).step(np.array([WHITE_OUT]))


def test_same_seed_same_actions():
    runs = []
    for _ in range(2):
        vector = TrigeoVector(3, seed=11)
        vector.reset()
        actions = []
        for _ in range(20):
            actions.append(vector.sample_actions())
            vector.step(actions[-1])
        runs.append(np.array(actions))
    assert np.array_equal(runs[0], runs[1])


def test_same_observations_as_the_pettingzoo_environment():
    pytest.importorskip("pettingzoo")
    from ludothek.integrations.pettingzoo import env

    game = env("trigeo", max_plies=12)
    game.reset()
    assert check_against_pettingzoo(TrigeoVector(1, max_plies=12, seed=3), game, rounds=30) >= 2  # into a third game


def test_a_two_jumping_back_between_jump_fields_repeats_positions():
    # Black's 2 goes D6-C6 (a step forward) and C6-D6 (a jump back) while White's 1 goes
    # B6-C8-B6: the position after ply 14 comes back after plies 18 and 22
    moves = [1151, 4289, 883, 4354, 277, 3338, 415, 3401, 882, 2361, 1597, 3271, 1956,
             2533, 885, 1688, 1795, 2533, 885, 1688, 1795, 2533]
    vector = TrigeoVector(1, seed=0)
    vector.reset()
    state = ludothek.new_game("trigeo")
    for ply, action in enumerate(moves, 1):
        _, rewards, terminations, truncations, _ = vector.step(np.array([action]))
        state.apply_action(action)
        assert terminations[0] == state.is_over() == (ply == len(moves))
    assert state.ending() == "repetition" and vector.final_winners[0] == -1
    assert rewards[0].tolist() == [0.0, 0.0] and not truncations[0]
