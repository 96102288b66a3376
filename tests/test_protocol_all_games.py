"""Protocol checks every installed game must pass (``ludothek.games()``: the built-in games and
any plugin, such as the Race game of tests/plugin): round trips, undo, clean errors, the parts
its spec declares."""

import json
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE, TERMINAL, LudothekError
from ludothek.core.protocol import GameState
from ludothek.core.registry import game_spec
from ludothek.integrations.observe import Encoder
from ludothek.web.boards import Adapter

from .strategies import random_game

GAMES = ludothek.games()


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_random_games_round_trip(game, data):
    state = data.draw(random_game(game, max_plies=40))
    # position string
    again = ludothek.new_game(game, position=state.position(), **state.options)
    assert again == state and again.position() == state.position()
    if state.is_over() and not again.is_over():
        # only a draw that hangs on the game's history (repetition, ply limit) may differ
        assert state.winner() is None
    else:
        assert again.legal_actions() == state.legal_actions()
    # record
    record = ludothek.Record.from_state(state)
    assert ludothek.loads(ludothek.dumps(record)) == record
    assert record.replay() == state
    # undo
    before = (state.position(), state.key(), state.legal_actions())
    actions = state.legal_actions()
    for action in actions[:: max(1, len(actions) // 8)]:
        state.play(action)
        state.undo()
        assert (state.position(), state.key(), state.legal_actions()) == before


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_the_move_list_follows_play_and_undo(game, data):
    """record_entries() is kept between calls; after any mix of plays, undos and calls it
    equals the move list of the same game replayed from scratch."""
    state = ludothek.new_game(game)
    for _ in range(data.draw(st.integers(0, 60))):
        step = data.draw(st.sampled_from(["play", "play", "undo", "look"]))
        if step == "undo" and state.ply:
            state.undo()
        elif step == "look":
            state.record_entries()
        elif step == "play" and not state.is_over():
            state.play(data.draw(st.sampled_from(state.legal_actions())))
    fresh = ludothek.new_game(game)
    for action in state.history:
        fresh.play(action)
    entries = state.record_entries()
    assert entries == fresh.record_entries()
    assert [e.text for e in entries] == state.record_tokens()
    assert [p for e in entries for p in e.parts] == state.move_texts
    assert all(a.end == b.start for a, b in zip(entries, entries[1:])) and (not entries or entries[-1].end == state.ply)


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_actions_and_notation_agree(game, data):
    state = data.draw(random_game(game, max_plies=40))
    player = state.current_player()
    if player == TERMINAL:
        assert state.legal_actions() == [] or state.is_over()
        assert state.to_move is None
        return
    actions = state.legal_actions()
    assert actions == sorted(set(actions))
    assert all(0 <= a < state.num_actions for a in actions)
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == actions
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        return
    assert state.legal_moves() == sorted(state.legal_moves())
    for action in actions:
        assert state.parse_move(state.action_to_str(action)) == action
    json.dumps(state.summary())


@pytest.mark.parametrize("game", GAMES)
@given(text=st.text(max_size=30))
def test_fuzzed_moves_give_clean_errors(game, text):
    state = ludothek.new_game(game)
    before = state.position()
    try:
        state.play(text)
    except LudothekError:
        assert state.position() == before and state.ply == 0


@pytest.mark.parametrize("game", GAMES)
@given(text=st.text(max_size=60))
def test_fuzzed_positions_give_clean_errors(game, text):
    try:
        ludothek.new_game(game, position=text)
    except LudothekError:
        pass


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_mutated_positions_give_clean_errors(game, data):
    """Real position strings with one character changed: parse cleanly or fail cleanly."""
    state = data.draw(random_game(game, max_plies=20))
    text = state.position()
    where = data.draw(st.integers(0, len(text) - 1))
    char = data.draw(st.sampled_from("0123456789/ -,:abwBWkpnbrqKPNBRQIVX+^°"))
    mutated = text[:where] + char + text[where + 1 :]
    try:
        parsed = ludothek.new_game(game, position=mutated, **state.options)
    except LudothekError:
        return
    assert ludothek.new_game(game, position=parsed.position(), **state.options) == parsed


@pytest.mark.parametrize("game", GAMES)
@given(data=st.data())
def test_fuzzed_records_give_clean_errors(game, data):
    state = data.draw(random_game(game, max_plies=10))
    text = ludothek.dumps(ludothek.Record.from_state(state))
    where = data.draw(st.integers(0, len(text) - 1))
    cut = data.draw(st.integers(0, 5))
    try:
        ludothek.loads(text[:where] + text[where + cut :])
    except LudothekError:
        pass


@pytest.mark.parametrize("game", GAMES)
def test_registry_metadata(game):
    cls = ludothek.game_class(game)
    assert cls.name == game and set(cls.title) == {"en", "de"}
    assert issubclass(cls, GameState) and len(cls.colours) == 2
    state = ludothek.new_game(game)
    assert not state.is_over()
    if state.to_move == "chance":  # a game may open with a roll (Race does)
        assert state.chance_outcomes()
    else:
        assert state.to_move in cls.colours


@pytest.mark.parametrize("game", GAMES)
def test_spec_parts_load_and_keep_their_contracts(game):
    """Whatever parts a game's spec declares load from its package and are what consumers
    expect: a board adapter, an observation encoder, a picture, a rules page, a hint."""
    spec = game_spec(game)
    assert spec.name == game and spec.load("state") is ludothek.game_class(game)
    state = ludothek.new_game(game)
    if spec.has("board"):
        board = spec.load("board")
        assert issubclass(board, Adapter)
        geometry = board().geometry(state.options)
        assert geometry["kind"] and isinstance(geometry["cells"], list)
        json.dumps(board().board(state))
    if spec.has("observation"):
        encoder = spec.load("observation")(state.options)
        assert isinstance(encoder, Encoder)
        tensor = encoder.encode(state, 0)
        assert tensor.shape == encoder.shape and ((tensor == 0) | (tensor == 1)).all()
    if spec.has("picture"):
        picture = spec.load("picture")(state)
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    if spec.rules:
        page = spec.rules_page()
        assert set(page["title"]) == {"en", "de"}
        for lang in ("en", "de"):
            assert page[lang] and all(entry[0] in ("h", "p", "fig") for entry in page[lang])
    if spec.hint:
        assert set(spec.hint) == {"en", "de"}


@pytest.mark.parametrize("game", GAMES)
def test_games_stay_within_their_length_bound(game):
    cls = ludothek.game_class(game)
    options = {"max_plies": 30} if any(o.name == "max_plies" for o in cls.OPTIONS) else {}
    bound = cls.length_bound(ludothek.new_game(game, **options).options)
    if bound is None:
        pytest.skip(f"{game}'s rules set no bound on its length")
    rng = random.Random(3)
    for _ in range(3):
        state = ludothek.new_game(game, **options)
        while not state.is_over():
            if state.current_player() == CHANCE:
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.ply <= bound
