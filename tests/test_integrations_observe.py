"""Observation tensors (ludothek.integrations.observe and each game's observe.py): the shared
contract, and tensors of named positions written out by hand from each game's layout."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from ludothek.core.protocol import CHANCE, TERMINAL
from ludothek.core.registry import game_class, game_spec, games, new_game
from ludothek.core.spec import GameSpec
from ludothek.integrations import observe
from ludothek.integrations.observe import Encoder, encoder_for

GAMES = [name for name in games() if game_spec(name).has("observation")]


def plane(encoder: Encoder, tensor: np.ndarray, name: str) -> np.ndarray:
    return tensor[encoder.planes.index(name)]


def ones(encoder: Encoder, tensor: np.ndarray, name: str) -> set[tuple[int, int]]:
    return {(int(r), int(c)) for r, c in np.argwhere(plane(encoder, tensor, name) == 1)}


# ---------------------------------------------------------------------------- the contract
@pytest.mark.parametrize("name", GAMES)
def test_contract_on_random_play(name):
    state = new_game(name)
    encoder = encoder_for(name, state.options)
    assert encoder.planes[-1] == "observer_to_act" and len(set(encoder.planes)) == len(encoder.planes)
    assert encoder.shape == (len(encoder.planes), *encoder.grid)
    assert not encoder.encode(None, 0).any()
    rng = random.Random(7)
    buffer = np.full(encoder.shape, 5.0, np.float32)
    for _ in range(40):
        for seat in (0, 1):
            tensor = encoder.encode(state, seat)
            assert tensor.dtype == np.float32 and tensor.shape == encoder.shape
            assert set(np.unique(tensor)) <= {0.0, 1.0}  # (a stake plane holds more only with a cube)
            assert plane(encoder, tensor, "observer_to_act").all() == (state.current_player() == seat)
            encoder.encode_into(buffer, state, seat)  # overwrites everything
            assert np.array_equal(buffer, tensor)
        if state.is_over():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_encode_into_checks_the_buffer_shape():
    encoder = encoder_for("bitis", {})
    with pytest.raises(ValueError, match="shape"):
        encoder.encode_into(np.zeros((3, 6, 4), np.float32), new_game("bitis"), 0)


def test_a_game_without_an_observation_has_no_encoder(monkeypatch):
    plain = GameSpec(name="plain", state=game_spec(GAMES[0]).state)
    monkeypatch.setattr(observe, "game_spec", lambda game: plain)
    assert encoder_for("plain", {}) is None


# ---------------------------------------------------------------------------- trike
def test_trike_tensor_by_hand():
    state = new_game("trike", size=7)
    for move in ("d2", "swap", "d1", "a1"):  # Black d2, swap, White d1, Black a1 (the pawn)
        state.play(move)
    encoder = encoder_for("trike", state.options)
    assert encoder.grid == (7, 7)
    triangle = np.tril(np.ones((7, 7), np.float32))
    for seat in (0, 1):
        expected = np.zeros(encoder.shape, np.float32)
        expected[0, 0, 0] = expected[0, 3, 1] = 1  # black stones a1, d2
        expected[1, 3, 0] = 1  # white stone d1
        expected[2, 0, 0] = 1  # the pawn on a1
        expected[3] = triangle
        expected[3, 0, 0] = expected[3, 3, 1] = expected[3, 3, 0] = 0
        expected[4] = 0  # White to move
        expected[5] = 1  # swapped
        expected[6] = seat == 1  # after the swap seat 1 holds Black
        expected[7] = seat == 0  # White, held by seat 0, is to act
        assert np.array_equal(encoder.encode(state, seat), expected), seat


# ---------------------------------------------------------------------------- dice games
# the start position 1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1, by hand:
# (row index, column - 1) -> plane (rows A and F hold columns 3..11, B and E 2..12, C and D 1..13)
START_DICE = {
    **{(0, c - 1): f"white_{f}" for c, f in zip(range(4, 11), (5, 4, 3, 1, 4, 3, 5))},
    **{(1, c - 1): "white_2" for c in (4, 5, 6, 8, 9, 10)},
    (1, 6): "white_6",
    (2, 6): "white_2",
    (3, 6): "black_2",
    **{(4, c - 1): "black_2" for c in (4, 5, 6, 8, 9, 10)},
    (4, 6): "black_6",
    **{(5, c - 1): f"black_{f}" for c, f in zip(range(4, 11), (5, 4, 3, 1, 4, 3, 5))},
}
DIE_PLANES = [f"{colour}_{f}" for colour in ("white", "black") for f in range(1, 7)]


def dice_of(encoder: Encoder, tensor: np.ndarray) -> dict[tuple[int, int], str]:
    found: dict[tuple[int, int], str] = {}
    for name in DIE_PLANES:
        for cell in ones(encoder, tensor, name):
            assert cell not in found, f"two die planes at {cell}"
            found[cell] = name
    return found


@pytest.mark.parametrize("name", ["trigeo", "hexalit"])
def test_dice_start_by_hand(name):
    state = new_game(name)
    encoder = encoder_for(name, state.options)
    tensor = encoder.encode(state, 0)
    assert encoder.grid == (6, 13)
    assert dice_of(encoder, tensor) == START_DICE
    cells = plane(encoder, tensor, "cell")
    assert cells.sum() == 66 and [int(n) for n in cells.sum(axis=1)] == [9, 11, 13, 13, 11, 9]
    assert cells[0, 2] == 1 and cells[0, 1] == 0 and cells[2, 0] == 1  # A3 first in row A; C1 exists
    up = plane(encoder, tensor, "up")
    assert up[0, 2] == 1 and up[0, 3] == 0 and up.sum() == 33  # A3 (1 + 3 even) is up, A4 down
    jumps = ones(encoder, tensor, "jump")
    assert jumps == ({(2, 5), (2, 6), (2, 7), (3, 5), (3, 6), (3, 7)} if name == "trigeo" else set())
    assert plane(encoder, tensor, "white_to_move").all()
    assert (
        plane(encoder, tensor, "observer_white").all()
        and not plane(encoder, encoder.encode(state, 1), "observer_white").any()
    )
    for quiet in ("temporary", "rolling", "cube_offer", "stake"):
        assert not plane(encoder, tensor, quiet).any(), quiet


def test_hexalit_roll_and_temporary_face():
    state = new_game("hexalit")
    for move in ("B5W", "3", "E5W"):  # White rolls B5 to a 3 (temporary), Black rolls E5
        state.play(move)
    assert state.current_player() == CHANCE
    encoder = encoder_for("hexalit", state.options)
    tensor = encoder.encode(state, 1)
    assert dice_of(encoder, tensor) == {**START_DICE, (1, 4): "white_3"}
    assert ones(encoder, tensor, "temporary") == {(1, 4)}
    assert ones(encoder, tensor, "rolling") == {(4, 4)}
    assert not plane(encoder, tensor, "white_to_move").any()
    assert not plane(encoder, tensor, "observer_to_act").any()  # chance acts


def test_hexalit_cube_planes():
    state = new_game("hexalit", cube=True)
    encoder = encoder_for("hexalit", state.options)
    state.play("double 2")
    offered = encoder.encode(state, 1)
    assert plane(encoder, offered, "cube_offer").all() and not plane(encoder, offered, "stake").any()
    assert plane(encoder, offered, "white_to_move").all()  # White offered; Black answers
    assert plane(encoder, offered, "observer_to_act").all()
    state.play("take")
    taken = encoder.encode(state, 0)
    assert not plane(encoder, taken, "cube_offer").any()
    assert np.allclose(plane(encoder, taken, "stake"), math.log2(2) / 6)


# ---------------------------------------------------------------------------- bitis
def test_bitis_tensor_by_hand():
    state = new_game("bitis")
    for move in ("IV43:9318", "III33:1297", "V42:2873"):
        state.play(move)
    encoder = encoder_for("bitis", state.options)
    assert encoder.grid == (6, 4)
    for seat in (0, 1):
        expected = np.zeros(encoder.shape, np.float32)
        for die, (row, column), faces in (("III", (3, 3), "1297"), ("IV", (4, 3), "9318"), ("V", (4, 2), "2873")):
            at = (row - 1, column - 1)
            expected[(encoder.planes.index(die), *at)] = 1
            for side, face in zip("NESW", faces):
                expected[(encoder.planes.index(f"{die}_{side}_{face}"), *at)] = 1
        expected[(encoder.planes.index("last"), 3, 1)] = 1  # V, placed last
        expected[encoder.planes.index("observer_a")] = seat == 0
        expected[encoder.planes.index("observer_to_act")] = seat == 1  # B to move
        assert np.array_equal(encoder.encode(state, seat), expected), seat


# ---------------------------------------------------------------------------- length bounds
def test_length_bounds():
    assert game_class("trike").length_bound({"size": 7}) == 7 * 8 // 2 + 1
    assert game_class("trigeo").length_bound({"first": "white", "max_plies": 400}) == 402
    hexalit = game_class("hexalit")
    assert hexalit.length_bound({"first": "white", "max_plies": 400, "cube": False}) == 802
    assert hexalit.length_bound({"first": "white", "max_plies": 400, "cube": True}) == 814
    assert game_class("bitis").length_bound({}) is None


@pytest.mark.parametrize(
    "name,options", [("trike", {"size": 7}), ("trigeo", {"max_plies": 12}), ("hexalit", {"max_plies": 6, "cube": True})]
)
def test_random_games_stay_within_the_length_bound(name, options):
    rng = random.Random(3)
    bound = game_class(name).length_bound(new_game(name, **options).options)
    for _ in range(20):
        state = new_game(name, **options)
        while state.current_player() != TERMINAL:
            state.apply_action(rng.choice(state.legal_actions()))
        assert len(state.history) <= bound
