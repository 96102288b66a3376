"""Trigeo: perft, every rule on hand-built positions, properties over random games
(against the independent reference in tests/dice_reference.py), clean errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek import GameOver, IllegalMove, OptionError, ParseError, PositionError
from ludothek.boards import triangle66 as T

from . import dice_reference as R
from .strategies import random_game

PROMO = 66 * 66  # the promotion offset of the action encoding
START = "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -"


def game(position=None, **options):
    return ludothek.new_game("trigeo", position=position, **options)


def reference_moves(state):
    board, colour = R.parse(state.position())
    return sorted(R.move_text(board, m) for m in R.trigeo_legal(board, colour))


# ---------------------------------------------------------------------------- perft
def test_perft_from_the_start():
    state = game()
    assert state.position() == START
    assert [state.perft(d) for d in (1, 2, 3, 4)] == [18, 322, 6829, 143704]
    assert len(state.legal_moves()) == 18


def test_perft_matches_the_reference_and_the_protocol():
    state = game()
    board, colour = R.parse(START)
    assert [R.trigeo_perft(board, colour, d) for d in (1, 2, 3)] == [18, 322, 6829]
    for move in ("C7°D7", "E7°D7", "B6XC6"):
        state.play(move)
    assert [state.perft(d) for d in (1, 2, 3)] == [_leaves(state, d) for d in (1, 2, 3)]


def test_perft_sees_repetition_and_max_plies():
    state = game(max_plies=9)
    for move in ("A4XA3", "F4XF3", "A3XA4", "F3XF4"):
        state.play(move)
    # now the start has been seen twice: one more cycle ends the game by repetition
    assert [state.perft(d) for d in (1, 2, 3)] == [_leaves(state, d) for d in (1, 2, 3)]
    reference = ludothek.GameState.perft  # its subtrees are the kernel's: a check of the root only
    assert [state.perft(d) for d in (4, 5)] == [reference(state, d) for d in (4, 5)]


def test_perft_sees_a_repetition_through_a_two_jumping_back():
    # Black's 2 steps D6-C6 and jumps back C6-D6 while White's 1 goes B6-C8-B6: the 2's moves
    # are not irreversible, so the repetitions they make must still count (found by the
    # batched Trigeo, whose seeded trajectories disagreed with the state)
    moves = [1151, 4289, 883, 4354, 277, 3338, 415, 3401, 882, 2361, 1597, 3271, 1956,
             2533, 885, 1688, 1795, 2533, 885, 1688, 1795]
    state = game()
    for action in moves:
        state.apply_action(action)
    assert [state.perft(d) for d in (1, 2, 3)] == [_leaves(state, d) for d in (1, 2, 3)]
    state.apply_action(2533)
    assert state.ending() == "repetition"


def _leaves(state, depth):
    """Perft through the state's own actions and end test alone (``GameState.perft`` would
    hand the subtrees to the compiled kernel)."""
    if state.is_over():
        return 0
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for action in state.legal_actions():
        state.apply_action(action)
        total += _leaves(state, depth - 1)
        state.undo()
    return total


def test_first_black():
    state = game(first="black")
    assert state.to_move == "black" and state.position().endswith(" b -")
    assert state.perft(2) == 322
    assert "D7°C7" in state.legal_moves()


# ---------------------------------------------------------------------------- jump fields
def test_jump_fields_and_a_destination_reachable_both_ways_is_one_move():
    state = game(R.position({"A3": "K", "F11": "k", "C6": "R", "D8": "p", "D7": "P"}))
    moves = state.legal_moves()
    assert moves == reference_moves(state)
    # C6 (down) rook slides N, SE, SW; C7 is reachable by sliding SE and by jumping: once
    assert moves.count("C6XC7") == 1
    assert {"C6XC8", "C6XD6", "C6°D8"} <= set(moves)  # jumps only
    assert "C6XD7" not in moves  # own die on D7
    state.play("C6°D8")
    assert state.position() == R.position({"A3": "K", "F11": "k", "D8": "R", "D7": "P"}, "b")


def test_only_a_die_on_a_jump_field_jumps_and_a_jump_threatens():
    state = game(R.position({"A3": "K", "F11": "k", "B7": "N", "C5": "R"}))
    moves = state.legal_moves()
    assert moves == reference_moves(state)
    assert "C5XC6" in moves  # C5 (up) rook slides NE onto C6
    assert not any(m.startswith("C5") and m.endswith(("C7", "C8", "D6", "D7", "D8")) for m in moves)
    state = game(R.position({"A3": "K", "C6": "k", "D8": "P"}, "b"))
    assert state.threatened("black")  # a White 2 on D8 can jump onto C6
    assert all(m.startswith("C6") for m in state.legal_moves())
    assert state.legal_moves() == reference_moves(state)


def test_knight_jump_to_d7_wins_via_the_jump_field():
    state = game("4K4/11/6N6/13/2pppqppp2/1rbnkbnr1 w -")
    assert "C7XD7" in state.legal_moves()  # D7 is S of C7: a side direction, so only as a jump
    state.play("C7XD7")
    assert state.move_texts == ["C7XD7+"] and state.winner() == "white"


# ---------------------------------------------------------------------------- promotion
def test_promotion_is_a_choice():
    state = game(R.position({"A3": "K", "F7": "k", "E9": "P", "F10": "n", "A11": "p"}))
    moves = state.legal_moves()
    assert {"E9XF9", "E9XF9=6", "E9°F10", "E9°F10=6"} <= set(moves)
    assert moves == reference_moves(state)
    state.play("e9*f10=6")
    assert state.move_texts == ["E9°F10=6"]
    assert R.parse(state.position())[0][(6, 10)] == ("w", 6)
    state.undo()
    state.play("E9XF9")
    assert R.parse(state.position())[0][(6, 9)] == ("w", 2)
    # Black's 2 promotes on row A
    assert {"B5XA5", "B5XA5=6"} <= set(game(R.position({"A3": "K", "F7": "k", "B5": "p"}, "b")).legal_moves())


def test_a_2_on_its_last_row_stays_put_and_promotion_is_checked():
    state = game(R.position({"A3": "K", "F7": "k", "F9": "P", "D4": "P"}))
    assert not any(m.startswith("F9") for m in state.legal_moves())
    with pytest.raises(IllegalMove, match="promotes only on its last row"):
        state.play("D4XE4=6")
    with pytest.raises(IllegalMove, match="only a 2 can be promoted"):
        state.play("A3XA4=6")
    with pytest.raises(ParseError, match="only be promoted to a 6"):
        state.play("D4XE4=5")


# ---------------------------------------------------------------------------- threat, Eins-Gebot, end
EINS_GEBOT = "6N2/2r5P2/3Kn8/13/11/4k4 w -"  # the black rook on B4 threatens White's 1 on C4


def test_eins_gebot_only_the_threatened_1_moves_to_safety():
    state = game(EINS_GEBOT)
    assert state.threatened("white") and not state.is_over()
    moves = state.legal_moves()
    assert moves == reference_moves(state)
    assert all(m.startswith("C4") for m in moves) and "C4°C5" in moves
    assert "C4°B4" in moves  # the 1 may capture the threatening rook itself
    # some king steps are excluded because the 1 would still be threatened there
    board, _ = R.parse(EINS_GEBOT)
    plain = {R.move_text(board, ((3, 4), t, p)) for t, p in R.destinations(board, (3, 4))}
    assert plain - set(moves)
    with pytest.raises(IllegalMove, match="Eins-Gebot"):
        state.play("A9XB11")
    bad = min(plain - set(moves))
    with pytest.raises(IllegalMove, match="would still be threatened"):
        state.play(bad)


def test_threat_is_marked_and_can_be_typed():
    state = game(R.position({"A3": "K", "F7": "k", "D4": "R", "E2": "p"}))
    threats = []
    for move in state.legal_moves():
        state.play(move)
        if state.move_texts[-1].endswith("^"):
            threats.append(move)
            assert state.threatened("black") and not state.is_over()
        state.undo()
    assert threats
    state.play(threats[0] + "^")
    assert state.move_texts == [threats[0] + "^"]
    state.undo()
    quiet = next(m for m in state.legal_moves() if m not in threats)
    with pytest.raises(IllegalMove, match="marked '\\^'"):
        state.play(quiet + "^")
    with pytest.raises(IllegalMove, match="marked '\\+'"):
        state.play(threats[0] + "+")


WIN = "4K4/5N5/13/13/2pppqppp2/1rbnkbnr1 w -"  # Black's 1 on F7 is hemmed in by its own dice


def test_win_by_a_threat_without_escape():
    state = game(WIN)
    assert not state.is_over()
    state.play("B7XD7+")  # the knight on D7 leaps over E7 onto F7; the 1 cannot escape
    assert state.move_texts == ["B7XD7+"]
    assert state.is_over() and state.winner() == "white" and state.result() == "white"
    assert state.threatened("black") and state.legal_actions() == [] and state.legal_moves() == []
    with pytest.raises(GameOver):
        state.play("F7XF8")
    state.undo()
    state.play("B7XD7^+")  # both marks are true
    assert state.move_texts == ["B7XD7+"]


def test_a_hemmed_in_1_is_not_lost():
    state = game()
    assert not state.is_over()
    assert not any(m.startswith(("A7", "F7")) for m in state.legal_moves())


NO_MOVES = "kpp6/pppp7/13/13/11/4K4"


def test_no_legal_move_loses_without_threat():
    state = game(NO_MOVES + " b -")
    assert state.is_over() and state.winner() == "white" and not state.threatened("black")
    state = game(NO_MOVES + " w -")
    state.play("F7XF8")
    assert state.move_texts == ["F7XF8+"] and state.winner() == "white"


def test_a_1_may_walk_into_capture_and_its_capture_loses():
    # the rules say this "cannot happen in Trigeo"; it can: moving one's 1 next to danger is legal
    state = game(R.position({"B6": "K", "D8": "r", "F7": "k", "A9": "P"}))
    state.play("B6XC6")
    assert state.move_texts == ["B6XC6"]  # only threats to the opponent's 1 are marked
    assert state.threatened("white") and "D8°C6" in state.legal_moves()
    state.play("D8xC6")
    assert state.move_texts[-1] == "D8°C6+"
    assert state.is_over() and state.winner() == "black"


def test_threefold_repetition_is_a_draw():
    state = game()
    cycle = ["A4XA3", "F4XF3", "A3XA4", "F3XF4"]
    for move in cycle + cycle[:3]:
        state.play(move)
    assert not state.is_over()
    state.play(cycle[3])
    assert state.repetitions() == 3 and state.is_over() and state.result() == "draw"
    assert state.winner() is None and state.legal_actions() == []
    state.undo()
    assert not state.is_over()
    # a record of the drawn game round-trips
    state.play(cycle[3])
    record = ludothek.Record.from_state(state)
    assert ludothek.loads(ludothek.dumps(record)) == record and record.result == "draw"


def test_max_plies():
    state = game(max_plies=3)
    for move in ("B6XC6", "E6XD6", "B8XC8"):
        assert not state.is_over()
        state.play(move)
    assert state.is_over() and state.result() == "draw"
    # a win on the last allowed ply is still a win
    state = game(WIN, max_plies=1)
    state.play("B7XD7")
    assert state.result() == "white"


def test_options_are_validated():
    with pytest.raises(OptionError, match="first"):
        game(first="red")
    with pytest.raises(OptionError, match="max_plies"):
        game(max_plies=0)
    with pytest.raises(OptionError, match="whole number"):
        game(max_plies="many")
    with pytest.raises(OptionError, match="no option"):
        game(size=7)
    assert game(first="BLACK").to_move == "black"
    assert game(max_plies="50").options["max_plies"] == 50


# ---------------------------------------------------------------------------- notation & errors
def test_notation_input_forms():
    for text in ("B6XC6", "b6xc6", "B6 x C6", "b6Xc6"):
        state = game()
        state.play(text)
        assert state.move_texts == ["B6XC6"]
    for text in ("C7°D7", "c7*d7", "C7xD7", "C7XD7"):
        state = game()
        state.play(text)
        assert state.move_texts == ["C7°D7"]
    state = game()
    assert state.action_to_str(T.parse_cell("B6") * 66 + T.parse_cell("C6")) == "B6XC6"
    assert state.num_actions == 2 * PROMO


@pytest.mark.parametrize(
    "text,error,message",
    [
        ("", ParseError, "not a move"),
        ("B6", ParseError, "not a move"),
        ("B6-C6", ParseError, "not a move"),
        ("B6XB6", ParseError, "both B6"),
        ("A1XC6", ParseError, "off the board"),
        ("G6XC6", ParseError, "rows are A..F"),
        ("B6XC6^^", ParseError, "repeated"),
        ("C6XD6", IllegalMove, "no die on C6"),
        ("E6XD6", IllegalMove, "Black's; White is to move"),
        ("A4XA5", IllegalMove, "own die"),
        ("B6°C6", IllegalMove, "claims a capture but C6 is empty"),
        ("B6XD6", IllegalMove, "a 2 moves one cell forward"),
        ("A6XC7", IllegalMove, "own die"),
        ("A6XB5", IllegalMove, "own die"),
        ("A6XC5", IllegalMove, "the 3 \\(knight\\) on A6 cannot reach C5"),
        ("B7XC6", IllegalMove, "the 6 \\(queen\\) on B7 cannot reach C6"),
        ("B6XC6=6", IllegalMove, "last row"),
    ],
)
def test_bad_moves(text, error, message):
    state = game()
    with pytest.raises(error, match=message):
        state.play(text)
    assert state.ply == 0 and state.position() == START


@pytest.mark.parametrize(
    "position,message",
    [
        (START.replace(" -", " C7"), "no temporary dice"),
        ("K3K4/11/13/13/11/4k4 w -", "White has 2 dice showing 1"),
        ("4K4/11/13/13/11/4n4 w -", "Black \\(not to move\\) has no 1"),
        (START.replace("1rbnkbnr1", "1rbnkbnr"), "row F has 8 cells"),
        (START.replace("2PPPQPPP2", "2PPPZPPP2"), "row B: unknown character 'Z'"),
        (START[:-2], "missing its third field"),
    ],
)
def test_bad_positions(position, message):
    with pytest.raises(PositionError, match=message):
        game(position)


def test_a_side_to_move_without_its_1_has_lost():
    state = game("4K4/11/13/13/11/4n4 b -")
    assert state.is_over() and state.winner() == "white"


def test_render_shows_the_board_the_last_move_and_the_threat():
    from rich.console import Console

    state = game(EINS_GEBOT)
    console = Console(width=100, record=True, color_system=None)
    console.print(state.render())
    text = console.export_text()
    assert "Eins! White's 1 on C4 is threatened." in text and "White to move" in text
    board = text.split("\n")[2:8]  # rows A..F
    assert sum(line.count(ch) for line in board for ch in "▲▼△▽▵▿") == 66
    assert sum(line.count(ch) for line in board for ch in "△▽") == 3  # White: K, N, P
    assert sum(line.count(ch) for line in board for ch in "▲▼") == 3  # Black: k, n, r
    state.play("C4°C5")
    console.print(state.render())
    assert "Last move: C4°C5" in console.export_text()


def test_random_playouts():
    state = game()
    plies, games = state.random_playouts(50, seed=7)
    assert games == 50 and plies > 50
    results = state.random_playout_results(50, seed=7)
    assert results["plies"] == plies and results["white"] + results["black"] + results["draw"] == 50
    assert state.position() == START


# ---------------------------------------------------------------------------- properties
def mirrored(state, mapping, swap):
    """The position under a board symmetry; colours swapped if ``swap``."""
    board, colour = R.parse(state.position())
    new = {}
    for rc, (col, face) in board.items():
        target = T.COORDS[mapping[T.index(*rc)]]
        new[target] = ({"w": "b", "b": "w"}[col] if swap else col, face)
    return game(R.write(new, {"w": "b", "b": "w"}[colour] if swap else colour))


HALF_TURN = [int(T.MIRROR[i]) for i in range(66)]
LEFT_RIGHT = [T.index(r, 14 - c) for r, c in T.COORDS]
TOP_BOTTOM = [T.index(7 - r, c) for r, c in T.COORDS]


def map_action(action, mapping):
    promo, rest = divmod(action, PROMO)
    frm, to = divmod(rest, 66)
    return promo * PROMO + mapping[frm] * 66 + mapping[to]


@settings(max_examples=30)
@given(data=st.data())
def test_symmetries_map_legal_moves_onto_legal_moves(data):
    state = data.draw(random_game("trigeo", max_plies=60))
    fresh = game(state.position())
    actions = fresh.legal_actions()
    for mapping, swap in ((HALF_TURN, True), (LEFT_RIGHT, False), (TOP_BOTTOM, True)):
        image = mirrored(fresh, mapping, swap)
        assert image.legal_actions() == sorted(map_action(a, mapping) for a in actions)
    assert mirrored(game(), TOP_BOTTOM, True).position() == game(first="black").position()


@settings(max_examples=30)
@given(data=st.data())
def test_random_games_follow_the_reference(data):
    state = data.draw(random_game("trigeo", max_plies=80))
    fresh = game(state.position())
    assert fresh.legal_moves() == reference_moves(fresh)
    board, colour = R.parse(state.position())
    assert R.write(board, colour) == state.position()
    for side, col in (("white", "w"), ("black", "b")):
        ones = [rc for rc, (c, f) in board.items() if c == col and f == 1]
        enemy = "b" if col == "w" else "w"
        assert state.threatened(side) == bool(ones and R.attacked(board, ones[0], enemy))
    # marks: '^' iff the opponent's 1 is threatened, '+' iff the mover won
    if state.ply:
        text = state.move_texts[-1]
        if state.is_over() and state.winner() is not None:
            assert text.endswith("+")
        else:
            assert text.endswith("^") == state.threatened({"w": "white", "b": "black"}[colour])


@settings(max_examples=30)
@given(data=st.data())
def test_undo_restores_everything(data):
    state = data.draw(random_game("trigeo", max_plies=60))
    if state.is_over():
        return
    before = (state.position(), state.key(), state.legal_actions(), state.repetitions(), list(state._hashes))
    board = state.board.copy()
    for action in state.legal_actions():
        state.play(action)
        state.undo()
        assert (state.position(), state.key(), state.legal_actions(), state.repetitions(), list(state._hashes)) == before
        assert np.array_equal(state.board, board)
    record = ludothek.Record.from_state(state, White="Ada", Black="Max")
    loaded = ludothek.loads(ludothek.dumps(record))
    assert loaded == record and loaded.replay() == state


@settings(max_examples=15)
@given(data=st.data())
def test_compiled_perft_agrees_with_the_protocol_reference(data):
    state = data.draw(random_game("trigeo", max_plies=40))
    assert [state.perft(d) for d in (1, 2, 3)] == [_leaves(state, d) for d in (1, 2, 3)]


@pytest.mark.parametrize("seed", [1, 3, 4, 6])  # games of 79, 185, 349 and 235 plies
def test_whole_random_games_against_the_reference(seed):
    import random

    rng = random.Random(seed)
    state = game()
    while not state.is_over():
        moves = state.legal_moves()
        assert moves == reference_moves(state), f"ply {state.ply}: {state.position()}"
        state.play(rng.choice(moves))
    assert state.ply <= 400
    # the game replays from its record
    record = ludothek.loads(ludothek.dumps(ludothek.Record.from_state(state)))
    assert record.replay() == state and record.result == state.result()


@settings(max_examples=60)
@given(data=st.data())
def test_edited_position_strings_give_clean_errors(data):
    text = START
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        char = data.draw(st.sampled_from(list("KPNBRQkpnbrq0123456789/ -,wbxC7")))
        if edit == "insert":
            text = text[:i] + char + text[i:]
        elif edit == "delete":
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + char + text[i + 1:]
    try:
        state = game(text)
    except PositionError:
        return
    # accepted: it must round-trip and be playable
    assert game(state.position()).position() == state.position()
    if not state.is_over():
        state.play(state.legal_actions()[0])


def test_cli_perft_moves_and_play():
    from click.testing import CliRunner

    from ludothek.cli import main

    result = CliRunner().invoke(main, ["perft", "trigeo", "3"])
    assert result.exit_code == 0 and result.output.split() == ["1", "18", "2", "322", "3", "6829"]
    result = CliRunner().invoke(main, ["moves", "trigeo", "-p", WIN, "B7XD7"])
    assert result.exit_code == 0 and result.output.strip() == ""
    result = CliRunner().invoke(main, ["moves", "trigeo", "--json", "-p", WIN, "B7XD7"])
    assert '"winner": "white"' in result.output
    result = CliRunner().invoke(main, ["moves", "trigeo", "B6XD6"])
    assert result.exit_code != 0 and "a 2 moves one cell forward" in result.output
