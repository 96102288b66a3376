"""The mask kernels the compiled Trigeo search uses agree with the board kernels (the rules)
on positions from random games: threats, move lists, counts, captures, the evaluation."""

import random

import numpy as np
import pytest

import ludothek
from ludothek.boards import triangle66 as T
from ludothek.games.dice import eval_kernels as E
from ludothek.games.dice import kernels as DK
from ludothek.games.dice import masks as M
from ludothek.games.trigeo import kernels as TK

J = DK.JUMP_FIELDS_TRIGEO
JUMP_LO, JUMP_HI = M.jump_masks(J)


def _positions(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        state = ludothek.new_game("trigeo")
        for _ in range(rng.randrange(0, 150)):
            if state.is_over():
                break
            state.play(rng.choice(state.legal_actions()))
        d = np.zeros((M.ROWS, 2), np.uint64)
        M.dice_masks(state.board, d)
        yield state, d


def _captures(board, moves):
    return sorted(int(m) for m in moves if board[(m % DK.PROMO) % DK.CELLS] != 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_mask_kernels_are_the_board_kernels(seed):
    out, out2, scratch = (np.zeros(DK.MAX_MOVES, np.int32) for _ in range(3))
    threatened = 0
    for state, d in _positions(200, seed):
        b = state.board
        occ_lo, occ_hi = d[0, 0] | d[8, 0], d[0, 1] | d[8, 1]
        for target in range(DK.CELLS):
            for by in (0, 1):
                assert M.attacked_or_jumped(d, target, by, occ_lo, occ_hi, JUMP_LO, JUMP_HI) == \
                    DK.is_attacked(b, T.GEO, target, by, J), (state.position(), target, by)
        for side in (0, 1):
            n, threat = TK.legal_moves_threat(b, T.GEO, side, J, out)
            n2, threat2 = TK.masked_legal_moves_threat(b, d, T.GEO, side, J, JUMP_LO, JUMP_HI, out2)
            assert (n2, threat2) == (n, threat) and list(out2[:n2]) == list(out[:n]), state.position()
            count = DK.count_moves(b, T.GEO, side, J, True, scratch)
            assert M.masked_count_moves(b, d, T.GEO, side, J, JUMP_LO, JUMP_HI, True, scratch) == count
            listed, threat3, moves = TK.masked_status(b, d, T.GEO, side, J, JUMP_LO, JUMP_HI, out2, scratch)
            assert threat3 == threat
            if threat:
                threatened += 1
                assert listed == n and moves == -1
            else:
                assert (listed, moves) in ((-1, n), (0, -1)) and (listed != 0 or n == 0)
            k = TK.masked_captures(b, d, T.GEO, side, J, JUMP_LO, JUMP_HI, out2)
            assert sorted(int(m) for m in out2[:k]) == _captures(b, out[:n]), state.position()
            if n and not threat:  # the capture list without asking again whether the 1 is threatened
                k2 = TK.free_captures(b, d, T.GEO, side, J, JUMP_LO, JUMP_HI, out)
                assert list(out[:k2]) == list(out2[:k]), state.position()
    assert threatened > 10


@pytest.mark.parametrize("w", [E.TRIGEO_WEIGHTS, E.weights(advance=0.11, mobility=0.07, threatened=1.3, neighbour=0.2,
                                                           trapped=0.9, one_free=0.5, tempo=0.2)])
def test_the_masked_evaluation_is_the_evaluation(w):
    """The evaluation is its terms' sum, with the game's weights and with others."""
    scratch = np.zeros(DK.MAX_MOVES, np.int32)
    for state, d in _positions(200, 3):
        b = state.board
        white = DK.count_moves(b, T.GEO, 0, J, True, scratch)
        black = DK.count_moves(b, T.GEO, 1, J, True, scratch)
        material = advance = 0.0
        for cell in range(DK.CELLS):
            v = int(b[cell])
            if v:
                sign = 1.0 if v > 0 else -1.0
                material += sign * E.FACE_VALUE[abs(v)]
                if abs(v) == 2:
                    row = int(T.GEO[cell, T.G_ROW])
                    advance += sign * w[E.W_ADVANCE] * ((row - 1) if v > 0 else (6 - row))
        safety = E.one_safety(b, T.GEO, 0, J, w) - E.one_safety(b, T.GEO, 1, J, w)
        expected = material + advance + w[E.W_MOBILITY] * (white - black) + safety
        assert E.evaluate_white_counted(b, T.GEO, J, white, black, w) == pytest.approx(expected, abs=1e-12)


def test_moving_keeps_the_masks():
    rng = random.Random(4)
    out = np.zeros(DK.MAX_MOVES, np.int32)
    for state, d in _positions(60, 5):
        b = state.board.copy()
        side = state.side
        for _ in range(20):
            n = TK.legal_moves(b, T.GEO, side, J, out)
            if n == 0:
                break
            TK.masked_apply_move(b, d, out[rng.randrange(n)])
            side = 1 - side
            fresh = np.zeros((M.ROWS, 2), np.uint64)
            M.dice_masks(b, fresh)
            assert (fresh[:16] == d[:16]).all()
