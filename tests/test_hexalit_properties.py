"""Hexalit properties over random legal games (rolls sampled): symmetry, round trips,
undo, and the invariants of temporary faces."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE
from ludothek.boards import triangle66 as T
from ludothek.games.dice.position import format_position
from ludothek.games.hexalit.kernels import OUTCOME, ROLL

from .strategies import random_game


def mirrored(state):
    """The half-turn image (r, c) -> (7 - r, 14 - c) with the colours swapped."""
    board = np.zeros_like(state.board)
    temp = np.zeros_like(state.temp)
    board[T.MIRROR] = -state.board
    temp[T.MIRROR] = state.temp
    text = format_position(board, 1 - state.side, temp)
    if state.roll_cell >= 0:
        text += f" {T.NAMES[T.MIRROR[state.roll_cell]]}W"
    return ludothek.new_game("hexalit", position=text)


def mirror_action(action: int) -> int:
    if action < ROLL:
        frm, to = divmod(action, 66)
        return int(T.MIRROR[frm]) * 66 + int(T.MIRROR[to])
    if action < OUTCOME:
        return ROLL + int(T.MIRROR[action - ROLL])
    return action


@given(data=st.data())
def test_half_turn_symmetry_maps_legal_moves_to_legal_moves(data):
    state = data.draw(random_game("hexalit", max_plies=80))
    if state.offer or state.dropped:
        return
    image = mirrored(state)
    assert sorted(mirror_action(a) for a in state._turn_actions()) == image._turn_actions()
    if state.current_player() == CHANCE:
        assert image.current_player() == CHANCE
    assert sorted(int(T.MIRROR[c]) for c in state.threatened_cells()) == image.threatened_cells()
    assert image.eins_gebot() == state.eins_gebot()
    if state.roll_cell < 0:
        assert image.perft(2) == state.perft(2)


@given(data=st.data())
def test_position_strings_round_trip(data):
    state = data.draw(random_game("hexalit", max_plies=80))
    text = state.position()
    again = ludothek.new_game("hexalit", position=text)
    assert again.position() == text
    assert again.board.tobytes() == state.board.tobytes() and again.temp.tobytes() == state.temp.tobytes()
    assert again.roll_cell == state.roll_cell and again.side == state.side
    if not state.is_over():
        assert again._turn_actions() == state._turn_actions()


@given(data=st.data(), cube=st.booleans())
def test_undo_restores_the_exact_state(data, cube):
    state = data.draw(random_game("hexalit", max_plies=60, cube=cube))

    def snapshot():
        return (state.position(), state.key(), state.board.tobytes(), state.temp.tobytes(), state.turns,
                state.cube, state.offer, state.offered, state.dropped, dict(state._reps),
                state.legal_actions(), state.is_over(), state.record_tokens())

    before = snapshot()
    actions = state.legal_actions()
    for action in actions[:: max(1, len(actions) // 10)]:
        state.play(action)
        if state.current_player() == CHANCE:
            state.play(data.draw(st.sampled_from(state.legal_actions())))
            state.undo()
        state.undo()
        assert snapshot() == before
    # undo all the way back to the start
    while state.ply:
        state.undo()
    assert state.position() == ludothek.new_game("hexalit").position()
    assert state.temp.sum() == 0 and state.turns == 0 and state.cube == 1


@given(data=st.data(), cube=st.booleans())
def test_records_round_trip_without_randomness(data, cube):
    state = data.draw(random_game("hexalit", max_plies=80, cube=cube))
    record = ludothek.Record.from_state(state)
    text = ludothek.dumps(record)
    again = ludothek.loads(text)
    assert again == record
    replayed = again.replay()
    assert replayed == state and replayed.position() == state.position()
    assert replayed.record_tokens() == state.record_tokens() and replayed.result() == state.result()


@given(data=st.data())
def test_temporary_face_invariants(data):
    state = data.draw(random_game("hexalit", max_plies=120))
    board, temp = state.board, state.temp
    assert not (temp & (board == 0)).any(), "a temporary flag on an empty cell"
    for sign in (1, -1):
        ones = np.flatnonzero(board * sign == 1)
        if len(ones) == 1:
            assert not temp[ones[0]], "a side's only 1 must be permanent"
        # one roll per turn and every older temporary die turns back (or waits under the
        # Eins-Gebot, which forbids rolling): a side has at most one temporary die
        assert int((temp & (board * sign > 0)).sum()) <= 1
    for c in np.flatnonzero(temp):
        assert 1 <= abs(int(board[c])) <= 6


@settings(max_examples=15)
@given(data=st.data())
def test_kernel_perft_agrees_with_the_state(data):
    state = data.draw(random_game("hexalit", max_plies=60))
    if state.is_over() or state.roll_cell >= 0:
        return
    assert state.perft(2) == state._perft_python(2)


@settings(max_examples=20)
@given(data=st.data())
def test_notation_round_trips(data):
    state = data.draw(random_game("hexalit", max_plies=60, cube=True))
    if state.is_over():
        return
    for action in state.legal_actions():
        text = state.action_to_str(action)
        assert state.parse_move(text) == action
        assert state.parse_move(text.lower()) == action
