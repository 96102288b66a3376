"""Hexalit (rules/hexalit.md): perft, the life of temporary faces, the Eins-Gebot, the end
of the game, the doubling cube, notation and clean errors — on hand-built positions."""

import json

import numpy as np
import pytest

import ludothek
from ludothek import CHANCE, TERMINAL, GameOver, IllegalMove, OptionError, ParseError, PositionError
from ludothek.boards import triangle66 as T
from ludothek.games.dice.position import LETTERS, format_position
from ludothek.games.hexalit.kernels import DOUBLE, DROP, OUTCOME, ROLL, TAKE

START = "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -"


def make(spec: str, side: str = "w") -> str:
    """A position string from ``"K:A7 q:D7 Q:C3*"`` (letter:cell, ``*`` = temporary face)."""
    board = np.zeros(T.SIZE, dtype=np.int8)
    temp = np.zeros(T.SIZE, dtype=np.bool_)
    for item in spec.split():
        letter, cell = item.split(":")
        index = T.parse_cell(cell.rstrip("*"))
        face = LETTERS.index(letter.upper()) + 1
        board[index] = face if letter.isupper() else -face
        temp[index] = cell.endswith("*")
    return format_position(board, 0 if side == "w" else 1, temp)


def game(spec: str, side: str = "w", **options) -> ludothek.GameState:
    return ludothek.new_game("hexalit", position=make(spec, side), **options)


def faces(state) -> dict[str, int]:
    """Non-empty cells: signed face (+ White, - Black)."""
    return {T.NAMES[c]: int(state.board[c]) for c in np.flatnonzero(state.board)}


def temporary(state) -> list[str]:
    return sorted(T.NAMES[c] for c in np.flatnonzero(state.temp))


def moves_from(state, cell: str) -> list[str]:
    return [m for m in state.legal_moves() if m.startswith(cell)]


# ---------------------------------------------------------------------- start, perft
def test_start_position_and_first_moves():
    state = ludothek.new_game("hexalit")
    assert state.position() == START
    assert state.to_move == "white" and state.current_player() == 0
    rolls = [m for m in state.legal_moves() if m.endswith("W")]
    # the seven 2s may be rolled; the lone 1 on A7 and the 3..6 may not
    assert sorted(rolls) == sorted(["B4W", "B5W", "B6W", "B8W", "B9W", "B10W", "C7W"])
    assert len(state.legal_actions()) == 13 + 7


@pytest.mark.parametrize("depth,count", [(1, 55), (2, 3028), (3, 169858), (4, 9524183)])
def test_perft_from_the_start(depth, count):
    assert ludothek.new_game("hexalit").perft(depth) == count


def test_black_first_mirrors_white_first():
    # the start is symmetric under the reflection (r, c) -> (7 - r, c) with colours swapped
    state = ludothek.new_game("hexalit", first="black")
    assert [state.perft(d) for d in (1, 2, 3)] == [55, 3028, 169858]


def test_python_perft_agrees_with_the_kernel():
    state = ludothek.new_game("hexalit")
    assert state._perft_python(2) == 3028
    state.play("C7W6")
    state.play("E9XD9")
    assert state._perft_python(2) == state.perft(2)


def test_perft_at_a_chance_node_and_with_the_cube():
    state = ludothek.new_game("hexalit")
    state.play("B5W")
    assert state.current_player() == CHANCE
    assert state.perft(1) == 6  # the outcome completes the turn
    cube = ludothek.new_game("hexalit", cube=True)
    assert cube.perft(1) == 56  # 55 + the offer to double
    assert cube.perft(2) == 3028 + 2  # cube actions are plies: the offer, then take or drop


def test_random_playouts_are_reproducible_and_finish():
    state = ludothek.new_game("hexalit")
    results = state.random_playout_results(40, seed=3)
    assert results == state.random_playout_results(40, seed=3)
    assert results["white"] + results["black"] + results["draw"] == 40
    assert 0 < results["plies"] <= 40 * 400
    plies, games = state.random_playouts(10, seed=1)
    assert games == 10 and plies > 0
    short = ludothek.new_game("hexalit", max_plies=5).random_playout_results(20, seed=1)
    assert short["plies"] <= 100 and short["draw"] >= 1
    cube = ludothek.new_game("hexalit", cube=True, max_plies=30).random_playout_results(3, seed=2)
    assert sum(cube[k] for k in ("white", "black", "draw")) == 3 and cube["plies"] <= 90


def test_compiled_playouts_end_on_repetition():
    # two lone 1s walking about: games end by a capture or by threefold repetition long
    # before max_plies
    results = game("K:A7 k:F7", max_plies=10_000).random_playout_results(100, seed=1)
    assert results["draw"] >= 1 and results["plies"] < 100 * 1000


# ---------------------------------------------------------------------- rolls and notation
def test_roll_is_a_chance_node_with_six_fair_outcomes():
    state = ludothek.new_game("hexalit")
    state.play("B5W")
    assert state.current_player() == CHANCE and state.to_move == "chance"
    assert state.legal_moves() == ["1", "2", "3", "4", "5", "6"]
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [OUTCOME + k for k in range(6)]
    assert all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)
    assert state.position() == START.replace(" -", " - B5W")
    state.play("6")
    assert state.record_tokens() == ["B5W6"]
    assert faces(state)["B5"] == 6 and temporary(state) == ["B5"]
    assert state.position() == "1RBNKBNR1/2PQPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 b B5"


def test_roll_with_outcome_as_one_move_and_in_a_record():
    state = ludothek.new_game("hexalit")
    state.play("b5w6")
    state.play("E9XD9")
    state.play("C7W1")
    assert state.record_tokens() == ["B5W6", "E9XD9", "C7W1"]
    text = ludothek.dumps(ludothek.Record.from_state(state))
    assert "1. B5W6 E9XD9 2. C7W1" in text
    record = ludothek.loads(text)
    assert record.moves == ["B5W6", "E9XD9", "C7W1"]
    assert record.replay() == state


def test_parse_move_of_roll_and_outcome_is_two_actions():
    state = ludothek.new_game("hexalit")
    assert state.parse_move("B5W") == ROLL + T.parse_cell("B5")
    assert state.parse_token("B5W6") == [ROLL + T.parse_cell("B5"), OUTCOME + 5]
    with pytest.raises(ParseError, match="roll together with its outcome"):
        state.parse_move("B5W6")
    state.play("B5W")
    for text in ("4", "W4", "B5W4", "b5w4"):
        assert state.parse_move(text) == OUTCOME + 3
    with pytest.raises(IllegalMove, match="being rolled is the one on B5"):
        state.parse_move("B6W4")
    with pytest.raises(ParseError, match="give the face"):
        state.parse_move("7")


def test_capture_notation_and_ascii_signs():
    state = game("K:A7 Q:C3 k:F7 p:D3")
    assert "C3°D3" in state.legal_moves()
    for text in ("C3°D3", "c3xd3", "C3*D3", "C3XD3"):
        assert state.parse_move(text) == T.parse_cell("C3") * 66 + T.parse_cell("D3")
    with pytest.raises(IllegalMove, match="claims a capture"):
        state.parse_move("C3*C4")


# ---------------------------------------------------------------------- which dice may be rolled
def test_only_twos_and_extra_ones_may_be_rolled():
    state = game("K:A7 P:C3 Q:C9 k:F7")
    assert sorted(m for m in state.legal_moves() if m.endswith("W")) == ["C3W"]
    with pytest.raises(IllegalMove, match="only a die showing 2"):
        state.play("C9W")
    with pytest.raises(IllegalMove, match="only 1"):
        state.play("A7W")
    with pytest.raises(IllegalMove, match="no die on C5"):
        state.play("C5W")
    with pytest.raises(IllegalMove, match="black's; white is to move"):
        state.play("F7W")
    two_ones = game("K:A7 K:C3* k:F7")
    assert sorted(m for m in two_ones.legal_moves() if m.endswith("W")) == ["A7W", "C3W"]


# ---------------------------------------------------------------------- temporary faces
def test_rolled_face_lasts_through_the_opponents_turn():
    state = game("K:A7 P:C3 k:F7 p:E10")
    state.play("C3W6")
    assert faces(state)["C3"] == 6 and temporary(state) == ["C3"]
    state.play("E10XD10")
    assert faces(state)["C3"] == 6 and temporary(state) == ["C3"]
    assert "C3XF3" in state.legal_moves()  # it moves as a 6 now


def test_temporary_die_moves_with_its_face_then_turns_back_to_two():
    state = game("K:A7 Q:C3* k:F7 p:E10")
    state.play("C3XF3")
    assert faces(state)["F3"] == 2 and temporary(state) == []
    assert "C3" not in faces(state)


def test_temporary_die_not_moved_turns_back_at_the_end_of_the_turn():
    state = game("K:A7 N:C3* k:F7 p:E10")
    state.play("A7XA6")
    assert faces(state)["C3"] == 2 and temporary(state) == []
    rolled = game("K:A7 N:C3* P:C9 k:F7 p:E10")
    rolled.play("C9W5")  # rolling another die also ends the old face
    assert faces(rolled)["C3"] == 2 and faces(rolled)["C9"] == 5 and temporary(rolled) == ["C9"]


def test_turning_back_always_gives_two_and_opponents_faces_stay():
    state = game("K:A7 R:C3* k:F7 q:E10*")
    state.play("A7XA6")
    assert faces(state)["C3"] == 2
    assert faces(state)["E10"] == -6 and temporary(state) == ["E10"]  # Black's stays till his turn ends
    state.play("F7XF6")
    assert faces(state)["E10"] == -2 and temporary(state) == []


def test_rolling_a_two_gives_a_temporary_two():
    state = game("K:A7 P:C3 k:F7 p:E10")
    state.play("C3W2")
    assert faces(state)["C3"] == 2 and temporary(state) == ["C3"]
    assert state.position().endswith(" b C3")
    state.play("E10XD10")
    state.play("A7XA6")
    assert temporary(state) == []


def test_eins_gebot_keeps_temporary_faces_and_repeats_the_test():
    # White's last 1 on A7 is threatened by the queen on D7 (along the ray N)
    state = game("K:A7 Q:C3* k:F7 q:D7 p:E10")
    assert state.eins_gebot()
    assert all(m.startswith("A7") for m in state.legal_moves())
    state.play(state.legal_moves()[0])
    assert faces(state)["C3"] == 6 and temporary(state) == ["C3"]  # kept one turn longer
    state.play("E10XD10")  # Black leaves the 1 alone: the next test fails to hold
    assert not state.eins_gebot()
    state.play("C3XC2")  # … so the temporary 6 moves as a 6 and turns back
    assert faces(state)["C2"] == 2 and temporary(state) == []


def test_eins_gebot_twice_in_a_row_keeps_the_face_again():
    state = game("K:A7 Q:C3* k:F7 q:D7 p:E10")
    state.play("A7XA8")
    assert temporary(state) == ["C3"]
    threats = [m for m in state.legal_moves() if m.startswith("D7")]
    chasing = None
    for move in threats:
        state.play(move)
        if state.eins_gebot():
            chasing = move
            break
        state.undo()
    assert chasing is not None
    escape = [m for m in state.legal_moves() if not m.startswith("A8")]
    assert escape == [] and state.legal_moves()
    state.play(state.legal_moves()[0])
    assert temporary(state) == ["C3"] and faces(state)["C3"] == 6


def test_a_rolled_one_is_a_temporary_one():
    state = game("K:A7 P:C3 k:F7 p:E10")
    state.play("C3W1")
    assert faces(state)["C3"] == 1 and temporary(state) == ["C3"]
    state.play("E10XD10")
    moves = state.legal_moves()
    assert "A7W" in moves and "C3W" in moves  # two 1s: both may be rolled
    assert "C3XC4" in moves  # it moves like a 1
    state.play("C3W5")  # a new roll replaces the old temporary face
    assert faces(state)["C3"] == 5 and temporary(state) == ["C3"]


def test_lone_one_becomes_permanent_when_the_original_one_is_rolled_away():
    state = game("K:A7 K:C3* k:F7")
    state.play("A7W4")
    assert faces(state)["C3"] == 1 and faces(state)["A7"] == 4
    assert temporary(state) == ["A7"]  # the rolled 1 on C3 is now permanent


def test_lone_one_permanent_after_turning_back():
    state = game("K:A7 K:C3* k:F7")
    state.play("A7W1")  # two 1s; C3 turns back to 2, so A7's rolled 1 is the only one
    assert faces(state)["C3"] == 2 and faces(state)["A7"] == 1
    assert temporary(state) == []


def test_capturing_one_of_two_ones_makes_the_other_permanent():
    state = game("K:A7 K:C3* k:F7 q:D7", side="b")
    state.play("D7°A7")
    assert faces(state)["C3"] == 1 and temporary(state) == []
    assert not state.is_over()


def test_a_lone_temporary_one_cannot_be_set_up():
    with pytest.raises(PositionError, match="only 1"):
        game("K:A7* k:F7")


# ---------------------------------------------------------------------- Eins-Gebot and winning
def test_eins_gebot_forbids_other_moves_and_rolls():
    state = game("K:A7 P:C3 k:F7 q:D7")
    assert state.eins_gebot()
    moves = state.legal_moves()
    assert moves and all(m.startswith("A7") for m in moves)
    assert "A7XB7" not in moves  # still on the queen's ray
    with pytest.raises(IllegalMove, match="Eins-Gebot"):
        state.play("C3W")
    with pytest.raises(IllegalMove, match="Eins-Gebot"):
        state.play("C3XD3")
    with pytest.raises(IllegalMove, match="still be threatened"):
        state.play("A7XB7")


def test_no_eins_gebot_with_two_ones():
    state = game("K:A7 K:C3* k:F7 q:D7")
    assert not state.eins_gebot()
    assert "C3W" in state.legal_moves() and "A7W" in state.legal_moves()


def test_win_by_threatening_a_lone_one_without_escape():
    # Black's 1 on F3 is hemmed in by his own dice; the knight's jump to D3 threatens it
    state = game("K:A7 N:B3 k:F3 p:F4 p:F5 p:E2 p:E3 p:E4 p:E5", side="w")
    assert not state.is_over()
    state.play("B3XD3")
    assert state.move_texts == ["B3XD3+"]
    assert state.is_over() and state.winner() == "white" and state.result() == "white"
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.returns() == [1.0, -1.0]
    with pytest.raises(GameOver):
        state.play("F3XF4")


def test_win_by_capturing_the_last_one():
    state = game("K:A7 Q:C3 k:F3 p:E10")
    state.play("C3°F3")
    assert state.move_texts == ["C3°F3+"] and state.winner() == "white"


def test_threat_mark_and_checked_marks():
    state = game("K:A7 R:C6 k:F7 p:E10")
    threats = []
    for move in state.legal_moves():
        state.play(move)
        if state.move_texts[-1].endswith("^"):
            threats.append(move)
        state.undo()
    assert threats, "some rook move must threaten the 1 on F7"
    state.play(threats[0] + "^")
    assert state.move_texts == [threats[0] + "^"] and state.threatened_ones("black") == ["F7"]
    state.undo()
    with pytest.raises(IllegalMove, match="marked '\\^'"):
        state.play("A7XA6^")
    with pytest.raises(IllegalMove, match="marked '\\+'"):
        state.play("A7XA6+")


def test_side_without_a_one_has_lost():
    state = game("Q:A7 k:F7")
    assert state.is_over() and state.winner() == "black"
    with pytest.raises(PositionError, match="neither side"):
        game("Q:A7 q:F7")


def test_no_legal_action_loses():
    # set up: White's lone 1 is hemmed in by his own dice and threatened by the knight
    state = game("K:F3 P:F4 P:F5 P:E2 P:E3 P:E4 P:E5 n:D3 k:A7")
    assert state.legal_actions() == []
    assert state.is_over() and state.winner() == "black"


# ---------------------------------------------------------------------- draws
def test_threefold_repetition_is_a_draw():
    state = game("K:A7 k:F7")
    shuffle = ["A7XA6", "F7XF6", "A6XA7", "F6XF7"]
    for move in shuffle * 2:
        assert not state.is_over()
        state.play(move)
    assert state.repetitions() == 3
    assert state.is_over() and state.winner() is None and state.result() == "draw"
    state.undo()
    assert not state.is_over()


def test_repetition_counts_which_faces_are_temporary():
    a = game("K:A7 P:C3* k:F7 p:E10")
    b = game("K:A7 P:C3 k:F7 p:E10")
    assert a.key() != b.key() and a._turn_key() != b._turn_key()


def test_max_plies_counts_turns():
    state = ludothek.new_game("hexalit", max_plies=2)
    state.play("B5W3")
    assert not state.is_over()
    state.play("E9XD9")
    assert state.is_over() and state.result() == "draw"
    with pytest.raises(OptionError):
        ludothek.new_game("hexalit", max_plies=0)


def test_first_player_option():
    state = ludothek.new_game("hexalit", first="black")
    assert state.to_move == "black" and state.position().endswith(" b -")
    with pytest.raises(OptionError):
        ludothek.new_game("hexalit", first="red")


# ---------------------------------------------------------------------- the doubling cube
def test_cube_double_take_and_redouble():
    state = ludothek.new_game("hexalit", cube=True)
    assert "double 2" in state.legal_moves() and state.stake == 1
    state.play("double 2")
    assert state.current_player() == 1 and state.legal_moves() == ["drop", "take"]
    with pytest.raises(IllegalMove, match="answer"):
        state.play("E9XD9")
    state.play("take")
    assert state.stake == 2 and state.current_player() == 0
    assert "double 4" not in state.legal_moves()  # at most one offer per turn
    with pytest.raises(IllegalMove, match="at most one per turn"):
        state.play("double 4")
    state.play("B5W6")
    assert "double 4" in state.legal_moves()  # now whoever is on turn may redouble
    state.play("double 4")
    state.play("take")
    assert state.stake == 4 and state.to_move == "black"
    record = ludothek.Record.from_state(state)
    text = ludothek.dumps(record)
    assert "1. double 2 take B5W6 double 4 take *" in text  # cube actions join the turn's move
    again = ludothek.loads(text)
    assert again.moves == ["double 2 take B5W6", "double 4 take"]
    assert again.replay() == state and again.options["cube"] is True


def test_cube_drop_ends_the_game_at_the_old_stake():
    state = ludothek.new_game("hexalit", cube=True)
    state.play("double 2")
    state.play("take")
    state.play("B5W2")
    state.play("double 4")
    state.play("drop")
    assert state.is_over() and state.winner() == "black"
    assert state.points() == {"white": 0, "black": 2}
    assert state.summary()["score"] == {"white": 0, "black": 2}
    with pytest.raises(GameOver):
        state.play("take")
    state.undo()
    assert not state.is_over() and state.current_player() == 0


def test_only_the_starting_player_brings_the_cube_in():
    state = ludothek.new_game("hexalit", cube=True)
    state.play("B5W2")
    assert not any(m.startswith("double") for m in state.legal_moves())
    with pytest.raises(IllegalMove, match="only white, who started"):
        state.play("double 2")
    black_first = ludothek.new_game("hexalit", cube=True, first="black")
    assert "double 2" in black_first.legal_moves()


def test_illegal_cube_actions():
    plain = ludothek.new_game("hexalit")
    assert DOUBLE not in plain.legal_actions()
    with pytest.raises(IllegalMove, match="cube=true"):
        plain.play("double 2")
    state = ludothek.new_game("hexalit", cube=True)
    with pytest.raises(IllegalMove, match="no offer"):
        state.play("take")
    with pytest.raises(IllegalMove, match="no offer"):
        state.play("drop")
    with pytest.raises(IllegalMove, match="'double 2'"):
        state.play("double 4")
    with pytest.raises(ParseError):
        state.play("double two")
    with pytest.raises(ludothek.LudothekError):
        state.play("take 2")
    state.play("B5W")
    with pytest.raises(IllegalMove, match="being rolled"):
        state.play("double 2")
    for action in (TAKE, DROP, DOUBLE):
        with pytest.raises(IllegalMove):
            state.play(action)


def test_cube_stake_caps_at_64():
    state = ludothek.new_game("hexalit", cube=True)
    for stake in (2, 4, 8, 16, 32, 64):
        state.play(f"double {stake}")
        state.play("take")
        state.play(next(m for m in state.legal_moves() if m.endswith("W")) + "2")
    assert state.stake == 64
    assert not any(m.startswith("double") for m in state.legal_moves())


def test_match_keeps_score():
    from ludothek.games.hexalit.match import HexalitMatch

    match = HexalitMatch(3, players=("Ada", "Max"))
    state = ludothek.new_game("hexalit", cube=True)
    state.play("double 2")
    state.play("drop")
    match.add(state, white="Ada")
    assert match.score == {"Ada": 1, "Max": 0} and not match.is_over()
    state = ludothek.new_game("hexalit", cube=True)
    state.play("double 2")
    state.play("take")
    state.play("B5W2")
    state.play("double 4")
    state.play("drop")
    match.add(state, white="Max")
    assert match.score == {"Ada": 3, "Max": 0} and match.is_over() and match.winner() == "Ada"
    with pytest.raises(GameOver):
        match.add(ludothek.new_game("hexalit", cube=True), white="Ada")


# ---------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "text,fragment",
    [
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr w -", "row F has 8 cells"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr11 w -", "row F has more than 9"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnz1 w -", "unknown character 'z'"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w C5", "C5 has no die"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w", "third field"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1", "side to move"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2 w -", "5 rows"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 x -", "'w' or 'b'"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w Z9", "temporary dice field"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w - A5W", "A5 shows 4"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w - E5W", "black's"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w - B5", "pending roll such as"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w - B5W x", "5 fields"),
        ("", "empty"),
    ],
)
def test_malformed_positions(text, fragment):
    with pytest.raises(PositionError) as info:
        ludothek.new_game("hexalit", position=text)
    assert fragment in str(info.value)


def test_position_with_a_pending_roll_round_trips():
    state = ludothek.new_game("hexalit", position=START + " B5W")
    assert state.current_player() == CHANCE and state.position() == START + " B5W"
    state.play("3")
    assert faces(state)["B5"] == 3 and state.to_move == "black"


@pytest.mark.parametrize(
    "move,error,fragment",
    [
        ("B5XD5", IllegalMove, "a 2 moves one cell forward"),
        ("A5XA3", IllegalMove, "the 4 (bishop) on A5 cannot reach A3"),
        ("C5XD5", IllegalMove, "no die on C5"),
        ("E5XD5", IllegalMove, "black's"),
        ("A4XA5", IllegalMove, "own die"),
        ("A6W", IllegalMove, "shows 3"),
        ("B5W^", ParseError, "marks with its outcome"),
        ("Z5XB5", ParseError, "rows are A..F"),
        ("A1XB5", ParseError, "off the board"),
        ("hello", ParseError, "not a move"),
        ("B5XB5", ParseError, "both B5"),
        ("E9XD9=6", ParseError, "no promotion"),
        ("", ParseError, "empty"),
    ],
)
def test_illegal_and_malformed_moves(move, error, fragment):
    state = ludothek.new_game("hexalit")
    with pytest.raises(error) as info:
        state.play(move)
    assert fragment in str(info.value)
    assert state.position() == START and state.ply == 0


def test_bad_actions_and_options():
    state = ludothek.new_game("hexalit")
    with pytest.raises(IllegalMove):
        state.play(OUTCOME)
    with pytest.raises(IllegalMove):
        state.action_to_str(99999)
    with pytest.raises(OptionError):
        ludothek.new_game("hexalit", cube="maybe")
    with pytest.raises(OptionError):
        ludothek.new_game("hexalit", size=5)


def test_undo_restores_temporary_faces_and_everything():
    state = game("K:A7 K:C3* N:C9* k:F7 q:E10*")
    snapshot = lambda: (state.position(), state.key(), state.turns, dict(state._reps),
                        state.board.tobytes(), state.temp.tobytes())
    before = snapshot()
    for action in state.legal_actions():
        state.play(action)
        if state.current_player() == CHANCE:
            for outcome in state.legal_actions():
                state.play(outcome)
                state.undo()
        state.undo()
        assert snapshot() == before


# ---------------------------------------------------------------------- display and CLI
def test_render_shows_temporary_dice_and_threats():
    from rich.console import Console

    state = game("K:A7 R:C9* k:F7 q:D7 p:E10")
    console = Console(width=100, record=True, color_system=None)
    console.print(state.render())
    text = console.export_text()
    assert "Hexalit" in text and "C9=5" in text and "Eins!" in text and "Eins-Gebot" in text


def test_cli_moves_and_perft():
    from click.testing import CliRunner

    from ludothek.cli import main

    runner = CliRunner()
    result = runner.invoke(main, ["moves", "hexalit", "--json"], catch_exceptions=False)
    data = json.loads(result.output)
    assert data["game"] == "hexalit" and data["position"] == START and len(data["legal"]) == 20
    result = runner.invoke(main, ["moves", "hexalit", "--json", "B5W6", "E5W"], catch_exceptions=False)
    data = json.loads(result.output)
    assert data["to_move"] == "chance" and data["legal"] == ["1", "2", "3", "4", "5", "6"]
    assert data["position"].endswith(" b B5 E5W")
    result = runner.invoke(main, ["perft", "hexalit", "2"], catch_exceptions=False)
    assert result.output == "1 55\n2 3028\n"
    result = runner.invoke(main, ["moves", "hexalit", "-o", "cube=true", "double 2", "take"])
    assert result.exit_code == 0 and "double" not in result.output
    result = runner.invoke(main, ["moves", "hexalit", "B5XD5"])
    assert result.exit_code != 0 and "a 2 moves one cell forward" in result.output
