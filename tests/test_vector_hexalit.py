"""ludothek.vector's HexalitVector against the plain API: the same actions, with the faces the
vector rolled, give the same trajectories (legal masks, observations with temporary faces,
rewards, terminations and truncations, winners, auto-reset)."""

from __future__ import annotations

import numpy as np
import pytest

import ludothek
from ludothek.games.hexalit.vector import HexalitVector
from ludothek.integrations.observe import encoder_for

from .vector_checks import OUTCOME, Chooser, check_against_plain, check_against_pettingzoo, plain_mask

CELLS = 66
ROLL = CELLS * CELLS
DOUBLE = OUTCOME + 6
# White's 3 on A9 to B11 and back, Black's 3 on F9 to E11 and back (as in the Trigeo tests)
WHITE_OUT, WHITE_BACK = 6 * CELLS + 18, 18 * CELLS + 6
BLACK_OUT, BLACK_BACK = 63 * CELLS + 55, 55 * CELLS + 63
WINS = ("one_captured", "one_trapped", "no_move")


def eins_gebot(state) -> bool:
    return state.eins_gebot()


@pytest.mark.parametrize("seed", [0, 1])
def test_same_trajectories_as_the_plain_api(seed):
    vector = HexalitVector(8, max_plies=60, seed=seed)
    counts = check_against_plain(vector, "hexalit", steps=250, choose=Chooser(8, seed, undo=0.5), tally=eins_gebot)
    assert counts["repetition"] >= 3
    assert counts["move_limit"] >= 3
    assert counts["tally"] >= 1  # positions where the Eins-Gebot bound the side to move


def test_same_trajectories_with_the_vectors_own_actions_to_wins():
    # random play: games are long, most are won before 400 turns
    counts = check_against_plain(HexalitVector(3, seed=7), "hexalit", steps=500, tally=eins_gebot)
    assert sum(counts[kind] for kind in WINS) >= 2
    assert counts["tally"] >= 5


def test_a_short_limit_truncates_and_black_may_move_first():
    vector = HexalitVector(6, max_plies=20, first="black", seed=3)
    assert vector.reset()[0][:, -1].all() and (vector.current_player == 1).all()
    counts = check_against_plain(vector, "hexalit", steps=70)
    assert counts["move_limit"] >= 6


def test_the_vector_rolls_fair_faces_and_reports_them():
    vector = HexalitVector(64, seed=2)
    vector.reset()
    faces = []
    for _ in range(200):
        actions = vector.sample_actions()
        vector.step(actions)
        rolled = actions >= ROLL
        assert ((vector.faces > 0) == rolled).all()
        faces.extend(vector.faces[rolled].tolist())
    counts = np.bincount(faces, minlength=7)[1:]
    expected = counts.sum() / 6
    assert counts.sum() > 1500
    assert ((counts - expected) ** 2 / expected).sum() < 20.5  # chi-square, 5 degrees of freedom, p = 0.001


def test_parallel_stepping_rolls_and_plays_as_the_serial_one():
    serial, parallel = HexalitVector(6, max_plies=50, seed=5), HexalitVector(6, max_plies=50, seed=5, parallel=True)
    for vector in (serial, parallel):
        vector.reset()
    for _ in range(120):
        actions = serial.sample_actions()
        assert np.array_equal(actions, parallel.sample_actions())
        a, b = serial.step(actions), parallel.step(actions)
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
        assert np.array_equal(serial.faces, parallel.faces)
        assert np.array_equal(serial.final_observations, parallel.final_observations)
    counts = check_against_plain(HexalitVector(3, max_plies=40, seed=6, parallel=True), "hexalit", steps=90)
    assert counts["move_limit"] >= 3


def test_shuffling_two_dice_back_and_forth_is_a_threefold_repetition_draw():
    vector = HexalitVector(2, seed=0)
    vector.reset()
    other = vector.sample_actions()[1]  # game 1 plays on
    state = ludothek.new_game("hexalit")
    for turn, action in enumerate([WHITE_OUT, BLACK_OUT, WHITE_BACK, BLACK_BACK] * 2):
        assert vector.legal[0, action]
        observations, rewards, terminations, truncations, legal = vector.step(np.array([action, other]))
        other = vector.sample_actions()[1]
        state.apply_action(action)
        assert state.repetitions() == 1 + (turn + 1) // 4
        assert terminations[0] == (turn == 7) and not truncations.any()
    assert state.ending() == "repetition"
    assert rewards[0].tolist() == [0.0, 0.0] and vector.final_winners[0] == -1
    encoder = encoder_for("hexalit", vector.options)
    assert np.array_equal(vector.final_observations[0], encoder.encode(state, 1))  # Black moved last
    start = ludothek.new_game("hexalit")
    assert vector.plies.tolist()[0] == 0 and vector.current_player[0] == 0
    assert np.array_equal(observations[0], encoder.encode(start, 0))
    assert np.array_equal(legal[0], plain_mask(start))


def test_a_rolled_face_is_temporary_in_the_observation():
    vector = HexalitVector(1, seed=4)
    vector.reset()
    b5 = 12  # White's 2 on B5
    assert vector.legal[0, ROLL + b5]
    observations, *_ = vector.step(np.array([ROLL + b5]))
    face = int(vector.faces[0])
    state = ludothek.new_game("hexalit")
    state.apply_action(ROLL + b5)
    state.apply_action(OUTCOME + face - 1)
    encoder = encoder_for("hexalit", vector.options)
    temporary = encoder.planes.index("temporary")
    assert np.array_equal(observations[0], encoder.encode(state, 1))
    assert observations[0, temporary].sum() == (0 if face == 2 else 1)
    assert vector.boards[0, b5] == face


def test_illegal_actions_are_refused_and_change_nothing():
    vector = HexalitVector(2, seed=0)
    vector.reset()
    vector.step(np.array([WHITE_OUT, WHITE_OUT]))
    before = (vector.boards.copy(), vector.temps.copy(), vector.games.copy(), vector.history.copy(),
              vector.legal.copy(), vector.observations.copy(), vector._dice.copy())
    # Black to move: White's move back, a chance outcome, the cube, a roll of a 3, out of range
    for bad in (WHITE_BACK, OUTCOME, DOUBLE, ROLL + 63, vector.num_actions, -1):
        with pytest.raises(ValueError, match="not legal in game 0"):
            vector.step(np.array([bad, BLACK_OUT]))
    with pytest.raises(ValueError, match="not legal in game 1"):
        vector.step(np.array([BLACK_OUT, WHITE_BACK]))
    with pytest.raises(ValueError, match="must be 2 integers"):
        vector.step(np.array([0.5, 1.0]))
    after = (vector.boards, vector.temps, vector.games, vector.history, vector.legal, vector.observations,
             vector._dice)
    assert all(np.array_equal(a, b) for a, b in zip(before, after))


def test_options_are_checked():
    with pytest.raises(Exception, match="max_plies"):
        HexalitVector(2, max_plies=0)
    with pytest.raises(Exception, match="first"):
        HexalitVector(2, first="red")
    with pytest.raises(ValueError, match="cube"):
        HexalitVector(2, cube=True)
    with pytest.raises(ValueError):
        HexalitVector(0)
    with pytest.raises(RuntimeError):
        HexalitVector(1).step(np.array([WHITE_OUT]))


def test_same_seed_same_actions_and_rolls_and_reset_reseeds():
    runs = []
    for _ in range(2):
        vector = HexalitVector(3, seed=11)
        vector.reset()
        record = []
        for _ in range(30):
            actions = vector.sample_actions()
            vector.step(actions)
            record.append(np.concatenate([actions, vector.faces]))
        vector.reset(seed=11)
        record.append(np.concatenate([vector.sample_actions(), vector.faces]))
        runs.append(np.array(record))
    assert np.array_equal(runs[0], runs[1])
    assert np.array_equal(runs[0][0, :3], runs[0][-1, :3])  # reset(seed) starts the same games again


def test_vectors_are_found_by_game_name():
    from ludothek import vector

    assert vector.vector_class("hexalit") is HexalitVector
    assert vector.HexalitVector is HexalitVector
    made = vector.make("hexalit", 3, max_plies=50)
    assert made.n == 3 and made.max_plies == 50


class _Faces:
    """Stands in for the PettingZoo environment's generator: its chance node shows the face
    the vector rolled."""

    face = 1

    def choice(self, n, p=None):
        return self.face - 1


def test_same_observations_as_the_pettingzoo_environment():
    pytest.importorskip("pettingzoo")
    from ludothek.integrations.pettingzoo import env

    game = env("hexalit", max_plies=12)
    game.reset()
    faces = game._rng = _Faces()
    rolled = []

    def hand_over_the_face(vector):
        faces.face = max(int(vector.faces[0]), 1)
        rolled.append(int(vector.faces[0]))

    vector = HexalitVector(1, max_plies=12, seed=3)
    assert check_against_pettingzoo(vector, game, rounds=40, before_env_step=hand_over_the_face) >= 2
    assert sum(face > 0 for face in rolled) >= 3
