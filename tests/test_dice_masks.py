"""The dice kernels' masks (issue 16): the attack test on masks answers what the walks of
``is_attacked`` and the independent reference answer; the masks Hexalit keeps along with the
board through moves, rolls and the end of the turn are the masks of the board it reaches;
borrowed views are the arrays they borrow."""

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import ludothek
from ludothek.boards import triangle66 as T
from ludothek.core.borrow import borrowed
from ludothek.games.dice import kernels as K
from ludothek.games.dice import masks as M
from ludothek.games.hexalit import kernels as H

from . import dice_reference as R
from .strategies import random_game

boards = st.lists(st.integers(-6, 6), min_size=66, max_size=66).map(lambda cells: np.array(cells, np.int8))


@numba.njit
def _attacks_by_masks(board):
    """For every cell and side: does :func:`M.attacked` say the side attacks it?"""
    d = np.zeros((M.ROWS, 2), np.uint64)
    M.dice_masks(board, d)
    out = np.zeros((2, K.CELLS), np.bool_)
    for by in range(2):
        for target in range(K.CELLS):
            out[by, target] = M.attacked(d, target, by, d[0, 0] | d[8, 0], d[0, 1] | d[8, 1])
    return out


def _reference_board(board):
    return {T.COORDS[c]: ("w" if v > 0 else "b", abs(int(v))) for c, v in enumerate(board) if v}


@settings(max_examples=150, deadline=None)
@given(boards)
def test_attacks_on_masks_are_the_walks_attacks(board):
    got = _attacks_by_masks(board)
    for by in range(2):
        expected = [K.is_attacked(board, T.GEO, t, by, K.NO_JUMPS) for t in range(K.CELLS)]
        assert list(got[by]) == expected


@settings(max_examples=25, deadline=None)
@given(random_game("hexalit", max_plies=100))
def test_attacks_on_masks_agree_with_the_reference(state):
    got = _attacks_by_masks(state.board)
    reference = _reference_board(state.board)
    for by, colour in ((0, "w"), (1, "b")):
        expected = [R.attacked(reference, T.COORDS[t], colour, jumps=False) for t in range(K.CELLS)]
        assert list(got[by]) == expected


def test_the_dice_masks_of_the_start():
    state = ludothek.new_game("hexalit")
    d = np.zeros((M.ROWS, 2), np.uint64)
    H.position_masks(state.board, state.temp, d)
    for side, sgn in ((0, 1), (1, -1)):
        cells = lambda row: [c for c in range(K.CELLS) if (int(d[row, c >> 6]) >> (c & 63)) & 1]
        assert cells(8 * side) == [c for c in range(K.CELLS) if state.board[c] * sgn > 0]
        for face in range(1, 7):
            assert cells(8 * side + face) == [c for c in range(K.CELLS) if state.board[c] == sgn * face]
    assert not d[M.TEMP].any()


@numba.njit
def _play_keeping_masks(board, temp, side, actions, faces, keeps):
    """Play the actions with the mask-keeping kernels; after each, the masks kept and the
    masks made anew from the board reached (rows of ``out``: kept, made)."""
    d = np.zeros((M.ROWS, 2), np.uint64)
    H.position_masks(board, temp, d)
    out = np.zeros((actions.shape[0], 2, M.ROWS, 2), np.uint64)
    fresh = np.zeros((M.ROWS, 2), np.uint64)
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < H.ROLL:
            H.masked_play_move(board, temp, d, side, a, keeps[i])
        else:
            H.masked_play_roll(board, temp, d, side, a - H.ROLL, faces[i], keeps[i])
        side = 1 - side
        H.position_masks(board, temp, fresh)
        out[i, 0] = d
        out[i, 1] = fresh
    return out


@settings(max_examples=40, deadline=None)
@given(random_game("hexalit", max_plies=60), st.data())
def test_the_masks_kept_through_a_game_are_the_masks_of_its_boards(state, data):
    board, temp, side = state.board.copy(), state.temp.copy(), state.side
    actions, faces, keeps = [], [], []
    trial_board, trial_temp = board.copy(), temp.copy()
    buf = np.empty(K.MAX_MOVES, np.int32)
    for _ in range(data.draw(st.integers(1, 40))):
        n, keep = H.turn_actions_keep(trial_board, T.GEO, side, buf)
        if n == 0 or K.count_ones(trial_board, 1 - side) == 0:
            break
        a = int(buf[data.draw(st.integers(0, n - 1))])
        face = data.draw(st.integers(1, 6))
        if a < H.ROLL:
            H.play_move(trial_board, trial_temp, side, a, keep)
        else:
            H.play_roll(trial_board, trial_temp, side, a - H.ROLL, face, keep)
        actions.append(a), faces.append(face), keeps.append(keep)
        side = 1 - side
    if not actions:
        return
    out = _play_keeping_masks(board, temp, state.side, np.array(actions), np.array(faces), np.array(keeps))
    assert np.array_equal(out[:, 0], out[:, 1])
    assert np.array_equal(board, trial_board) and np.array_equal(temp, trial_temp)


@numba.njit
def _fingerprints(board, temp, side):
    d = np.zeros((M.ROWS, 2), np.uint64)
    H.position_masks(board, temp, d)
    return M.fingerprint(d, side)


@settings(max_examples=60, deadline=None)
@given(random_game("hexalit", max_plies=80), random_game("hexalit", max_plies=80))
def test_fingerprints_tell_positions_apart_as_the_position_hash_does(a, b):
    same = H.position_hash(a.board, a.temp, a.side) == H.position_hash(b.board, b.temp, b.side)
    assert (_fingerprints(a.board, a.temp, a.side) == _fingerprints(b.board, b.temp, b.side)) == same
    assert _fingerprints(a.board, a.temp, 0) != _fingerprints(a.board, a.temp, 1)


@numba.njit
def _write_through_a_borrowed_view(array, value):
    view = borrowed(array)
    view[1] = value
    return view.shape[0], view[0]


def test_a_borrowed_view_is_the_array_it_borrows():
    array = np.arange(5, dtype=np.int64)
    assert _write_through_a_borrowed_view(array, 42) == (5, 0)
    assert list(array) == [0, 42, 2, 3, 4]
