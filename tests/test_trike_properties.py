"""Round trips and invariants of Trike under random legal games."""

from hypothesis import given
from hypothesis import strategies as st

import ludothek

from .strategies import random_game

sizes = st.integers(7, 19)


@st.composite
def trike_games(draw, max_plies=80):
    return draw(random_game("trike", max_plies=max_plies, size=draw(sizes)))


@given(trike_games())
def test_position_string_round_trip(state):
    again = ludothek.new_game("trike", position=state.position())
    assert again == state
    assert again.position() == state.position()
    assert again.legal_moves() == state.legal_moves()
    assert again.current_player() == state.current_player()


@given(trike_games())
def test_undo_restores_the_identical_state(state):
    before = (state.position(), state.key(), state.legal_actions(), state.returns())
    if state.is_over():
        return
    for action in state.legal_actions():
        state.play(action)
        state.undo()
        assert (state.position(), state.key(), state.legal_actions(), state.returns()) == before


@given(trike_games())
def test_undo_all_the_way_back_gives_the_start(state):
    size = state.options["size"]
    while state.ply:
        state.undo()
    assert state == ludothek.new_game("trike", size=size)


@given(trike_games())
def test_record_round_trip(state):
    record = ludothek.Record.from_state(state, Black="Ada", White="Max \"the\" Bot")
    text = ludothek.dumps(record)
    loaded = ludothek.loads(text)
    assert loaded == record
    assert ludothek.dumps(loaded) == text
    assert loaded.replay() == state


@given(trike_games())
def test_notation_round_trip(state):
    for action in state.legal_actions():
        assert state.parse_move(state.action_to_str(action)) == action
        assert state.parse_move(state.action_to_str(action).upper()) == action


@given(trike_games(max_plies=200))
def test_scores_are_odd_and_decide_the_game(state):
    score = state.score()
    if state.is_over():
        assert sum(score.values()) in (3, 5, 7)
        assert state.winner() == max(score, key=score.get)
        assert sorted(state.returns()) == [-1.0, 1.0]
    else:
        assert state.winner() is None and state.returns() == [0.0, 0.0]


@given(trike_games(), st.integers(0, 2**31))
def test_compiled_playouts_reach_real_ends(state, seed):
    if state.is_over():
        return
    plies, games = state.random_playouts(3, seed)
    assert games == 3
    empty_cells = state.geometry.size - state.stones()
    assert 3 <= plies <= 3 * (empty_cells + 1)  # one stone per ply, plus perhaps a swap
    # deterministic under the seed
    assert state.random_playouts(3, seed) == (plies, games)
