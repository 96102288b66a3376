"""Perft's last ply counts moves without listing them (issue 16): the counting kernels must
agree with the listing ones on every position, for Trigeo (jump fields, promotions) and
Hexalit (no jumps, rolls as six leaves)."""

import numpy as np
from hypothesis import given, settings

import ludothek
from ludothek.boards import triangle66 as T
from ludothek.games.dice import kernels as K
from ludothek.games.hexalit import kernels as H
from ludothek.games.trigeo import kernels as TK

from .strategies import random_game


def _buffer():
    return np.empty(K.MAX_MOVES, dtype=np.int32)


@settings(max_examples=40, deadline=None)
@given(random_game("trigeo", max_plies=80))
def test_trigeo_counts_agree_with_the_lists(state):
    board = state.board.copy()
    for side in (0, 1):
        for jumps in (K.JUMP_FIELDS_TRIGEO, K.NO_JUMPS):
            for promote in (True, False):
                listed = K.gen_moves(board, T.GEO, side, jumps, promote, _buffer())
                assert K.count_moves(board, T.GEO, side, jumps, promote, _buffer()) == listed
        listed = TK.legal_moves(board, T.GEO, side, K.JUMP_FIELDS_TRIGEO, _buffer())
        assert TK.count_legal_moves(board, T.GEO, side, K.JUMP_FIELDS_TRIGEO, _buffer()) == listed
    assert np.array_equal(board, state.board)


@settings(max_examples=40, deadline=None)
@given(random_game("hexalit", max_plies=80))
def test_hexalit_counts_agree_with_the_lists(state):
    board = state.board.copy()
    for side in (0, 1):
        out = _buffer()
        n = H.turn_actions(board, T.GEO, side, out)
        leaves = sum(6 if a >= H.ROLL else 1 for a in out[:n])
        assert H.count_turn_leaves(board, T.GEO, side, _buffer()) == leaves


def test_trigeo_perft_5_agrees_with_the_c_baseline():
    # benchmarks/c/trigeo_perft.c, written separately from the rules, counts the same
    assert ludothek.new_game("trigeo").perft(5) == 3412800
