"""The shared dice pieces: move patterns and threats against the slow reference, position
strings (parse, format, errors)."""

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludothek import PositionError
from ludothek.boards import triangle66 as T

from . import dice_reference as R


class _Lazy:
    """Import on first use: importing ``ludothek.games.*`` at collection time rebinds the
    attribute ``ludothek.games`` (the registry function) to the package, which breaks other
    test modules that call ``ludothek.games()`` while being collected."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        return getattr(importlib.import_module(self._module), name)


K = _Lazy("ludothek.games.dice.kernels")
P = _Lazy("ludothek.games.dice.position")
START = "1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -"


def parse_position(text):
    return P.parse_position(text)


def format_position(*args):
    return P.format_position(*args)


def to_reference(board):
    return {T.COORDS[i]: ("w" if v > 0 else "b", abs(int(v))) for i, v in enumerate(board) if v}


boards = st.lists(
    st.one_of(st.just(0), st.just(0), st.just(0), st.integers(-6, 6)), min_size=66, max_size=66
).map(lambda values: np.array(values, dtype=np.int8))


def kernel_destinations(board, cell, jumps):
    out = np.empty(K.MAX_MOVES, dtype=np.int32)
    n = K.piece_moves(board, T.GEO, cell, jumps, True, out, 0)
    moves = [int(m) for m in out[:n]]
    assert len(moves) == len(set(moves)), "a destination listed twice"
    return {(T.COORDS[(m % K.PROMO) % 66], m >= K.PROMO) for m in moves}


@settings(max_examples=40)
@given(board=boards, jumps=st.booleans())
def test_every_face_moves_as_the_rules_say(board, jumps):
    reference = to_reference(board)
    jump_cells = K.JUMP_FIELDS_TRIGEO if jumps else K.NO_JUMPS
    for cell in np.flatnonzero(board):
        expected = R.destinations(reference, T.COORDS[cell], jumps)
        assert kernel_destinations(board, int(cell), jump_cells) == expected, (T.NAMES[cell], int(board[cell]))


@settings(max_examples=25)
@given(board=boards, jumps=st.booleans())
def test_threats_agree_with_the_reference(board, jumps):
    reference = to_reference(board)
    jump_cells = K.JUMP_FIELDS_TRIGEO if jumps else K.NO_JUMPS
    for cell in range(66):
        for by, colour in ((K.WHITE, "w"), (K.BLACK, "b")):
            if board[cell] and (board[cell] > 0) == (by == K.WHITE):
                continue  # own die on the target: not a question the rules ask
            expected = R.attacked(reference, T.COORDS[cell], colour, jumps)
            assert K.is_attacked(board, T.GEO, cell, by, jump_cells) == expected, (T.NAMES[cell], colour)


@given(board=boards)
def test_gen_moves_is_the_union_and_apply_undo_restores(board):
    out = np.empty(K.MAX_MOVES, dtype=np.int32)
    for side in (K.WHITE, K.BLACK):
        n = K.gen_moves(board, T.GEO, side, K.JUMP_FIELDS_TRIGEO, True, out)
        each = []
        buf = np.empty(K.MAX_MOVES, dtype=np.int32)
        for cell in range(66):
            if board[cell] and (board[cell] > 0) == (side == K.WHITE):
                m = K.piece_moves(board, T.GEO, cell, K.JUMP_FIELDS_TRIGEO, True, buf, 0)
                each.extend(int(x) for x in buf[:m])
        assert sorted(int(x) for x in out[:n]) == sorted(each)
        for move in out[:n]:
            before = board.copy()
            h = K.zobrist_hash(board, side, K.ZOBRIST) ^ K.move_hash_delta(board, move, K.ZOBRIST)
            captured = K.apply_move(board, move)
            assert h == K.zobrist_hash(board, 1 - side, K.ZOBRIST)
            K.undo_move(board, move, captured)
            assert np.array_equal(board, before)


def test_start_position():
    board, side, temporary = parse_position(START)
    assert side == K.WHITE and not temporary.any()
    expected = {
        "A4": 5, "A5": 4, "A6": 3, "A7": 1, "A8": 4, "A9": 3, "A10": 5,
        "B4": 2, "B5": 2, "B6": 2, "B7": 6, "B8": 2, "B9": 2, "B10": 2, "C7": 2,
    }
    got = {T.NAMES[i]: int(v) for i, v in enumerate(board) if v > 0}
    assert got == expected
    # As listed (rules and source), Black's setup is White's reflected across the middle,
    # (r, c) -> (7 - r, c); it is NOT the half-turn image the rules file claims (A5=4 -> F9=3).
    reflected = {"ABCDEF"[6 - T.COORDS[T.parse_cell(n)][0]] + n[1:]: -f for n, f in expected.items()}
    assert {T.NAMES[i]: int(v) for i, v in enumerate(board) if v < 0} == reflected
    half_turn = {T.NAMES[T.MIRROR[T.parse_cell(n)]]: -f for n, f in expected.items()}
    assert reflected != half_turn
    assert np.array_equal(P.start_board(), board)
    assert P.START == START
    assert format_position(board, side) == START


@given(board=boards, side=st.sampled_from([0, 1]), data=st.data())
def test_position_round_trip(board, side, data):
    for sign in (1, -1):  # a side has at most 15 dice; remove the surplus
        extra = [int(c) for c in np.flatnonzero(board * sign > 0)][15:]
        board[extra] = 0
    occupied = [int(c) for c in np.flatnonzero(board)]
    temporary = np.zeros(66, dtype=bool)
    if occupied:
        temporary[data.draw(st.lists(st.sampled_from(occupied), unique=True, max_size=4))] = True
    text = format_position(board, side, temporary)
    again, side2, temp2 = parse_position(text)
    assert np.array_equal(again, board) and side2 == side and np.array_equal(temp2, temporary)
    assert R.write(to_reference(board), "wb"[side]) == text.rsplit(" ", 1)[0] + " -"


def test_position_input_is_lenient_about_case_of_side_and_cells():
    board, side, temporary = parse_position("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 B c7,a7")
    assert side == K.BLACK and [T.NAMES[c] for c in np.flatnonzero(temporary)] == ["A7", "C7"]
    assert format_position(board, side, temporary).endswith(" b A7,C7")


@pytest.mark.parametrize(
    "text,message",
    [
        ("1RBNKBNR/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w -", "row A has 8 cells; it needs 9"),
        ("1RBNKBNR1/2PPPQPPP3/6P6/6p6/2pppqppp2/1rbnkbnr1 w -", "row B has more than 11 cells"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1K w -", "row F has more than 9 cells"),
        ("1RBNKBNR1/2PPPQPPP2/6X6/6p6/2pppqppp2/1rbnkbnr1 w -", "row C: unknown character 'X'"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/06p6/2pppqppp2/1rbnkbnr1 w -", "row D: empty-cell count '06'"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2 w -", "5 rows"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w C6", "C6 has no die"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w C7,C7", "C7 is listed twice"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w Z9", "temporary dice field: 'Z9'"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w", "missing its third field"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1", "missing the side to move"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 x -", "side to move must be 'w' or 'b'"),
        ("1RBNKBNR1/2PPPQPPP2/6P6/6p6/2pppqppp2/1rbnkbnr1 w - 7", "expected 3"),
        ("", "empty"),
        ("QQQQQQQQQ/QQQQQQQ4/13/13/11/4k4 w -", "White has 16 dice; each side has 15"),
    ],
)
def test_bad_positions(text, message):
    with pytest.raises(PositionError, match=message):
        parse_position(text)
