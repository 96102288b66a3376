"""Perft's last ply and Hexalit's random playouts count moves without listing them (issue 16):
the counting kernels must agree with the listing ones on every position, for Trigeo (jump
fields, promotions) and Hexalit (no jumps, rolls as six leaves); Hexalit's playouts draw a
uniform action without counting them all, the draws a reference makes from the listed actions."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek.boards import triangle66 as T
from ludothek.core.random_kernels import random_below
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


@numba.njit
def _sample_from_the_list(board, geo, side, random):
    """The draws :func:`H.masked_sample_turn_action` makes, from the listed actions: each die
    owns its listed moves (a 1, 2 or 3: by target cell) or its targets on an empty board (a
    slider: walked ray by ray, near to far), a draw of a target not listed is drawn again; the
    dice go by cell word (0..63, 64..65) and within it face by face (1s, 2s, 3s, sliders);
    each roll owns one draw, after the dice.  Under the Eins-Gebot: one of the listed escapes."""
    buf = np.empty(K.MAX_MOVES, np.int32)
    n = H.turn_actions(board, geo, side, buf)
    if n == 0:
        return random, -1
    if H.gebot_cell(board, geo, side) >= 0:
        random, k = random_below(random, n)
        return random, buf[k]
    listed = set()
    for a in buf[:n]:
        listed.add(np.int64(a))
    sgn = 1 - 2 * side
    draws = np.empty(1000, np.int64)
    m = 0
    for word in range(2):
        for group in range(1, 5):
            for cell in range(64 * word, min(64 * word + 64, K.CELLS)):
                face = board[cell] * sgn
                if face <= 0 or min(face, 4) != group:
                    continue
                if face <= 3:
                    for t in range(K.CELLS):
                        if cell * K.CELLS + t in listed:
                            draws[m] = cell * K.CELLS + t
                            m += 1
                    continue
                for d in range(6):
                    side_dir = (d & 1) == geo[cell, T.G_UP]
                    if (face == 4 and side_dir) or (face == 5 and not side_dir):
                        continue
                    t = geo[cell, d]
                    while t >= 0:
                        draws[m] = cell * K.CELLS + t if cell * K.CELLS + t in listed else -1
                        m += 1
                        t = geo[t, d]
    for a in range(H.ROLL, H.ROLL + K.CELLS):
        if a in listed:
            draws[m] = a
            m += 1
    while True:
        random, r = random_below(random, m)
        if draws[r] >= 0:
            return random, draws[r]


@settings(max_examples=60, deadline=None)
@given(random_game("hexalit", max_plies=120), st.integers(0, 2**63 - 1))
def test_hexalit_sampled_action_is_the_draw_made_from_the_list(state, seed):
    board = state.board.copy()
    for side in (0, 1):
        out = _buffer()
        n = H.turn_actions(board, T.GEO, side, out)
        counted, keep = H.count_turn_actions(board, T.GEO, side, _buffer())
        assert (counted, keep) == (n, H.gebot_cell(board, T.GEO, side) >= 0)
        assert H.turn_actions_keep(board, T.GEO, side, _buffer()) == (n, keep)
        random = np.uint64(seed)
        for _ in range(5):
            expected_random, expected = _sample_from_the_list(board, T.GEO, side, random)
            random, action, sampled_keep = H.sample_turn_action(board, T.GEO, side, random, _buffer())
            assert (random, action) == (expected_random, expected)
            random = np.uint64(random)
            assert sampled_keep == keep and (action in out[:n] if n else action == -1)
    assert np.array_equal(board, state.board)


@pytest.mark.parametrize("seed", [3, 8])
def test_hexalit_sampled_actions_are_uniform_among_the_legal_ones(seed):
    state = ludothek.new_game("hexalit")
    rng = np.random.default_rng(seed)
    while True:  # a middle-game position with sliders to move and no Eins-Gebot
        state.apply_action(int(rng.choice(state.legal_actions())))
        if state.current_player() < 0:
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        sgn = 1 - 2 * state.side
        if state.turns >= 30 and not state.is_over() and not state.eins_gebot() and (state.board * sgn >= 4).sum() >= 2:
            break
    legal = [a for a in state.legal_actions()]
    random, counts = np.uint64(seed), {a: 0 for a in legal}
    draws = 200 * len(legal)
    for _ in range(draws):
        random, action, _ = H.sample_turn_action(state.board, T.GEO, state.side, np.uint64(random), _buffer())
        counts[int(action)] += 1  # a KeyError here would be an illegal action
    observed = np.array(list(counts.values()))
    chi_square = ((observed - 200) ** 2 / 200).sum()
    # degrees of freedom len(legal) - 1; the 0.999 quantile is below dof + 4.3 * sqrt(2 dof) + 10
    dof = len(legal) - 1
    assert chi_square < dof + 4.3 * np.sqrt(2 * dof) + 10, (chi_square, dof)


def _end_turn_as_the_rules_say(board, temp, side, keep, fresh):
    """The rules' three steps one by one: lone 1s permanent, the mover's other temporary
    dice back to 2 (unless the Eins-Gebot held), lone 1s permanent again."""
    def fix_lone_ones():
        for s in (0, 1):
            ones = [c for c in range(K.CELLS) if board[c] == (1 if s == 0 else -1)]
            if len(ones) == 1:
                temp[ones[0]] = False
    fix_lone_ones()
    if not keep:
        sgn = 1 - 2 * side
        for c in range(K.CELLS):
            if temp[c] and c != fresh and board[c] * sgn > 0:
                board[c] = 2 * sgn
                temp[c] = False
    fix_lone_ones()


cell_flags = st.lists(st.booleans(), min_size=66, max_size=66).map(np.array)


@settings(max_examples=200, deadline=None)
@given(random_game("hexalit", max_plies=120), st.booleans(), cell_flags, cell_flags, st.integers(-1, 65))
def test_the_end_of_a_turn_follows_the_rules_step_by_step(state, keep, temporary, rolled_ones, fresh):
    # more temporary dice, and temporary 1s, than random games reach
    board, temp, sgn = state.board.copy(), state.temp.copy(), 1 - 2 * state.side
    temp |= temporary & (board != 0)
    mover = board * sgn > 0
    board[rolled_ones & mover] = sgn
    temp[rolled_ones & mover] = True
    if fresh >= 0 and not mover[fresh]:
        fresh = -1
    expected_board, expected_temp = board.copy(), temp.copy()
    _end_turn_as_the_rules_say(expected_board, expected_temp, state.side, keep, fresh)
    H.end_turn(board, temp, state.side, keep, fresh)
    assert np.array_equal(board, expected_board) and np.array_equal(temp, expected_temp)


@numba.njit
def _playouts_from_the_lists(board0, temp0, geo, side0, max_plies, count, seed):
    """:func:`H.random_playouts` as it was before it picked by counts: every action listed,
    the Eins-Gebot asked separately, the whole history searched for repetitions."""
    state = np.uint64(seed)
    buf = np.empty(K.MAX_MOVES, np.int32)
    turns, results = 0, np.zeros(4, np.int64)
    for _ in range(count):
        board, temp, side = board0.copy(), temp0.copy(), side0
        history = np.empty(max_plies + 1, np.uint64)
        history[0] = H.position_hash(board, temp, side)
        played = 0
        while True:
            if K.count_ones(board, 1 - side) == 0:
                result = H.WHITE_WINS if side == 0 else H.BLACK_WINS
                break
            n = H.turn_actions(board, geo, side, buf)
            if n == 0:
                result = H.BLACK_WINS if side == 0 else H.WHITE_WINS
                break
            seen = 0
            for k in range(played, -1, -2):
                seen += history[k] == history[played]
            if seen >= 3 or played >= max_plies:
                result = H.DRAW
                break
            keep = H.gebot_cell(board, geo, side) >= 0
            state, a = _sample_from_the_list(board, geo, side, state)
            if a < H.ROLL:
                H.play_move(board, temp, side, a, keep)
            else:
                state, face = random_below(state, 6)
                H.play_roll(board, temp, side, a - H.ROLL, face + 1, keep)
            side = 1 - side
            played += 1
            history[played] = H.position_hash(board, temp, side)
        turns += played
        results[result] += 1
    return turns, results[H.WHITE_WINS], results[H.BLACK_WINS], results[H.DRAW]


@pytest.mark.parametrize("max_plies", [40, 400])
def test_random_playouts_are_the_games_of_the_listed_actions(max_plies):
    state = ludothek.new_game("hexalit")
    args = (state.board, state.temp, T.GEO, state.side)
    expected = _playouts_from_the_lists(*args, max_plies, 60, 7)
    assert H.random_playouts(*args, 0, max_plies, 60, 7) == expected
    assert sum(expected[1:]) == 60


def test_trigeo_perft_5_agrees_with_the_c_baseline():
    # benchmarks/c/trigeo_perft.c, written separately from the rules, counts the same
    assert ludothek.new_game("trigeo").perft(5) == 3412800
