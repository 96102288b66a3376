import json

import pytest

import ludothek
from ludothek import IllegalMove, OptionError, ParseError, PositionError

from .conftest import DATA


def conformance_games():
    with open(DATA / "trike-random-games.jsonl", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


@pytest.mark.parametrize("size,expected", [(7, [28, 364, 3612]), (13, [91, 2275])])
def test_perft_from_the_start(size, expected):
    state = ludothek.new_game("trike", size=size)
    assert [state.perft(d) for d in range(1, len(expected) + 1)] == expected


def test_compiled_perft_agrees_with_the_protocol_reference():
    state = ludothek.new_game("trike", size=8)
    for move in ("d2", "swap", "g5", "f4"):
        state.play(move)
    reference = ludothek.GameState.perft
    assert [state.perft(d) for d in (1, 2, 3)] == [reference(state, d) for d in (1, 2, 3)]


@pytest.mark.parametrize("line", conformance_games(), ids=lambda g: f"size{g['size']}-{len(g['moves'])}plies")
def test_agrees_with_the_independent_implementation(line):
    state = ludothek.new_game("trike", size=line["size"])
    for ply, expected in enumerate(line["legal_after_each_prefix"]):
        legal = [] if state.is_over() else [m for m in state.legal_moves() if m != "swap"]
        assert legal == expected, f"legal moves after {ply} plies"
        if ply < len(line["moves"]):
            state.play(line["moves"][ply])
    assert state.is_over()
    score = state.score()
    assert [score["black"], score["white"]] == line["points_black_white"]
    assert state.winner() == line["winner"]


def test_conformance_file_is_complete():
    assert len(conformance_games()) == 50


def test_swap_exchanges_seats_not_stones():
    state = ludothek.new_game("trike", size=7)
    state.play("d2")
    assert "swap" in state.legal_moves()
    assert state.current_player() == 1 and state.to_move == "white"
    state.play("swap")
    assert state.to_move == "white"
    assert state.current_player() == 0  # the player who opened now plays White
    assert state.seat_colour(1) == "black"
    assert "swap" not in state.legal_moves()
    assert state.position() == "1/2/3/1B2/5/6/7 w swap"
    with pytest.raises(IllegalMove, match="already used"):
        state.play("swap")


def test_swap_only_on_whites_first_turn():
    state = ludothek.new_game("trike", size=7)
    with pytest.raises(IllegalMove, match="first turn"):
        state.play("swap")
    state.play("a1")
    state.play("b1")
    with pytest.raises(IllegalMove):
        state.play("swap")


def test_pawn_moves_in_straight_lines_over_empty_cells_only():
    state = ludothek.new_game("trike", size=7)
    state.play("d1")  # pawn on d1: lines go up the left edge, along row d, down both diagonals
    assert state.legal_moves() == sorted(
        ["a1", "b1", "c1", "d2", "d3", "d4", "e1", "f1", "g1", "e2", "f3", "g4", "swap"]
    )
    state.play("d3")
    with pytest.raises(IllegalMove, match="occupied"):
        state.play("d1")
    with pytest.raises(IllegalMove, match="straight line"):
        state.play("g1")  # on no line through d3
    # from d3: west d2 (d1 blocks), east d4, up-left c2 b1, up-right c3,
    # down-left e3 f3 g3, down-right e4 f5 g6
    assert state.legal_moves() == sorted(["d2", "d4", "c2", "b1", "c3", "e3", "f3", "g3", "e4", "f5", "g6"])


def test_cannot_jump_over_stones():
    # pawn on d1; d2 occupied, so d3 and d4 are out of reach along row d
    state = ludothek.new_game("trike", position="1/2/3/Wb2/5/6/7 b", size=7)
    assert state.position() == "1/2/3/Wb2/5/6/7 b"
    assert "d3" not in state.legal_moves() and "d4" not in state.legal_moves()


def test_end_and_score():
    # pawn in the apex, both neighbours taken: game over, scored cells a1, b1, b2
    state = ludothek.new_game("trike", position="W/bw/3/4/5/6/b6 b", size=7)
    assert state.is_over() and state.legal_moves() == [] and state.to_move is None
    assert state.score() == {"black": 1, "white": 2}
    assert state.winner() == "white"
    assert state.returns() == [-1.0, 1.0]
    assert state.summary()["status"] == "over"


def test_returns_follow_the_swap():
    state = ludothek.new_game("trike", position="W/bw/3/4/5/6/b6 b swap", size=7)
    # after the swap, seat 0 holds White
    assert state.returns() == [1.0, -1.0]


@pytest.mark.parametrize(
    "position,message",
    [
        ("1/2/3/4/5/6 b", "7 to 19"),
        ("1/2/3/4/5/6/7", "2 or 3 fields"),
        ("1/2/3/4/5/6/7 x", "side to move"),
        ("1/2/3/4/5/6/7 b extra", "third field"),
        ("1/2/3/4/5/6/8 b", "more than 7 cells"),
        ("1/2/3/4/5/6/6 b", "has 6 cells, needs 7"),
        ("1/2/3/4/5/6/6x b", "unknown character 'x'"),
        ("1/2/3/0/5/6/7 b", "number from 1"),
        ("1/2/3/b3/5/6/7 w", "no pawn"),
        ("1/2/3/B3/W4/6/7 b", "second pawn"),
        ("1/2/3/B3/5/6/7 b", "it is w to move"),
        ("1/2/3/B3/w4/6/7 b", "pawn stands on a black stone, but white moved last"),
        ("1/2/3/Bb2/5/6/7 w", "cannot happen"),
        ("1/2/3/4/5/6/7 w swap", "it is b to move"),
        ("1/2/3/4/5/6/7 b swap", "opening stone"),
    ],
)
def test_bad_positions_are_rejected_with_a_reason(position, message):
    with pytest.raises(PositionError, match=message):
        ludothek.new_game("trike", position=position)


def test_size_option_and_position_must_agree():
    with pytest.raises(PositionError, match="size option is 9"):
        ludothek.new_game("trike", position="1/2/3/4/5/6/7 b", size=9)
    assert ludothek.new_game("trike", position="1/2/3/4/5/6/7/8/9 b").options["size"] == 9


@pytest.mark.parametrize("size", [6, 20, "big", 7.5, True])
def test_bad_sizes(size):
    with pytest.raises(OptionError, match="size"):
        ludothek.new_game("trike", size=size)


def test_unknown_option():
    with pytest.raises(OptionError, match="no option 'colour'"):
        ludothek.new_game("trike", colour="red")


@pytest.mark.parametrize(
    "move,error,message",
    [
        ("", ParseError, "not a cell name"),
        ("h1", ParseError, "rows a..g"),
        ("c4", ParseError, "columns 1..3"),
        ("c0", ParseError, "columns 1..3"),
        ("1c", ParseError, "not a cell name"),
        ("swapp", ParseError, "not a cell name"),
    ],
)
def test_bad_moves(move, error, message):
    state = ludothek.new_game("trike", size=7)
    with pytest.raises(error, match=message):
        state.play(move)
    assert state.ply == 0


def test_notation_is_case_insensitive_and_output_lower_case():
    state = ludothek.new_game("trike", size=7)
    state.play(" C2 ")
    assert state.move_texts == ["c2"]


def test_play_after_the_end_and_undo_before_the_start():
    state = ludothek.new_game("trike", position="W/bw/3/4/5/6/b6 b", size=7)
    with pytest.raises(ludothek.GameOver):
        state.play("c1")
    with pytest.raises(ludothek.GameOver):
        state.undo()


def test_action_interface():
    state = ludothek.new_game("trike", size=7)
    assert state.num_actions == 29
    assert state.legal_actions() == list(range(28))
    state.play(5)
    assert state.legal_actions()[-1] == state.swap_action == 28
    with pytest.raises(IllegalMove):
        state.play(5)
    with pytest.raises(ParseError):
        state.play(None)  # type: ignore[arg-type]


def test_perft_counts_leaves_as_in_chess_when_games_end_early():
    state = ludothek.new_game("trike", size=7)
    for move in "c1 f4 f2 f1 e1 e4".split():  # four plies before this game's end
        state.play(move)
    reference = ludothek.GameState.perft
    counts = [state.perft(depth) for depth in range(1, 7)]
    assert counts == [reference(state, depth) for depth in range(1, 7)]
    over = ludothek.new_game("trike", position="W/bw/3/4/5/6/b6 b", size=7)
    assert over.perft(0) == 1 and over.perft(1) == 0 and over.perft(3) == 0


def test_a_game_can_end_at_ply_3_and_perft_counts_no_leaf_below_it():
    state = ludothek.new_game("trike", size=7)
    for move in ("f1", "g2", "g1"):  # the pawn is shut in the corner g1
        state.play(move)
    assert state.is_over() and state.winner() == "black"
    assert ludothek.new_game("trike").perft(4) == 905604  # six such corner lines on side 13
