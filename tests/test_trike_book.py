"""Trike's opening book for side 7 (:mod:`ludothek.games.trike.book`): the symmetries, the
shipped book against the exact solver and against itself one move on (through the game API),
and the search answering from it."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludothek
from ludothek.ai.base import make_agent
from ludothek.ai.budget import Budget
from ludothek.core.errors import OptionError
from ludothek.games.trike import book as B
from ludothek.games.trike import mcts3
from ludothek.games.trike.mcts3_kernels import free_counts, winning_move

from .test_trike_mcts3 import played, work


def exact(state) -> tuple[int, int]:
    """The exact solver's result and winning move for the mover, without a limit."""
    board, neighbours = state.board.copy(), state.geometry.neighbours
    free = np.empty(board.shape[0], np.int8)
    free_counts(board, neighbours, free)
    value, move = winning_move(board, neighbours, free, int(state.pawn), int(state.colour_to_move),
                               np.iinfo(np.int64).max, *work(board.shape[0]))
    return int(value), int(move)


def book_value(state) -> int:
    found = B.answer(state.board, int(state.pawn), int(state.colour_to_move))
    assert found is not None, state.position()
    return found[0]


def positions(stones: int, count: int, seed: int) -> list:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = played(7, stones, rng)
        if state is not None:
            found.append(state)
    return found


def test_the_six_symmetries_are_distinct_and_keep_every_neighbour():
    geometry = ludothek.new_game("trike", size=7).geometry
    maps = B.symmetries(7)
    assert len({tuple(m) for m in maps}) == 6 and list(maps[0]) == list(range(geometry.size))
    for image in maps:
        assert sorted(image) == list(range(geometry.size))
        for cell in range(geometry.size):
            around = {int(image[other]) for other in geometry.neighbours[cell] if other >= 0}
            assert around == {int(other) for other in geometry.neighbours[image[cell]] if other >= 0}


def test_every_symmetric_image_of_a_position_has_the_same_canonical_key():
    for state in positions(4, 20, seed=1):
        key, _ = B.canonical(state.board, int(state.pawn))
        for image in B.symmetries(7):
            moved = np.empty_like(state.board)
            moved[image] = state.board
            assert B.canonical(moved, int(image[state.pawn]))[0] == key


@pytest.mark.parametrize("seed", [1, 2])
def test_the_book_agrees_with_the_exact_solver_on_four_stones(seed):
    for state in positions(4, 6, seed):
        value, _ = exact(state)
        found = B.answer(state.board, int(state.pawn), int(state.colour_to_move))
        assert found is not None and found[0] == value, state.position()
        if value > 0:  # the book's move wins: the opponent is then lost
            after = state.copy()
            after.play(found[1])
            assert after.is_over() and after.returns()[state.current_player()] > 0 or exact(after)[0] < 0


@pytest.mark.parametrize("stones", [1, 2, 3])
def test_a_position_with_fewer_stones_is_won_exactly_when_a_move_leaves_the_opponent_lost(stones):
    for state in positions(stones, 8, seed=stones):
        me = state.current_player()
        outcomes = []
        for action in state.legal_actions():
            if action == state.swap_action:
                continue
            after = state.copy()
            after.play(action)
            won = after.returns()[me] > 0 if after.is_over() else book_value(after) < 0
            outcomes.append((won, action))
        value, move = B.answer(state.board, int(state.pawn), int(state.colour_to_move))
        assert value == (1 if any(won for won, _ in outcomes) else -1), state.position()
        assert (move >= 0) == (value > 0) and (value < 0 or (True, move) in outcomes)


def test_a_set_up_position_that_no_game_reaches_is_not_looked_up():
    state = ludothek.new_game("trike", size=7)
    state.play(state.legal_actions()[5])
    assert B.answer(state.board, int(state.pawn), int(state.colour_to_move)) is not None
    wrong_colour = 3 - int(state.colour_to_move)
    assert B.answer(state.board, int(state.pawn), wrong_colour) is None
    side_13 = played(13, 3, random.Random(1))
    assert B.answer(side_13.board, int(side_13.pawn), int(side_13.colour_to_move)) is None


def test_the_search_plays_the_book_move_and_swaps_a_lost_position():
    rng = random.Random(3)
    for _ in range(10):
        state = played(7, rng.choice([1, 2, 3, 4]), rng)
        value, move = B.answer(state.board, int(state.pawn), int(state.colour_to_move))
        analysis = mcts3.search(state, Budget(iterations=50).clock(), random.Random(0))
        if value > 0:
            assert analysis.best == move and analysis.value == 1.0 and analysis.stopped == "decided"
        elif state._swap_allowed():
            assert analysis.best == state.swap_action
        else:
            assert analysis.stopped != "decided"  # a lost book position is left to the search


def test_the_book_can_be_turned_off():
    state = next(s for s in positions(3, 20, seed=4) if B.answer(s.board, int(s.pawn), int(s.colour_to_move))[0] > 0)
    assert make_agent("mcts_with:100", "trike", seed=1).analyse(state).stopped == "decided"
    agent = make_agent("mcts_with:100,book=0", "trike", seed=1)
    assert agent.trike_settings.book is False and mcts3.V2.book is False
    analysis = agent.analyse(state)
    assert analysis.stopped != "decided" and analysis.iterations == 100


def test_a_broken_book_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "book.npz"
    bad.write_text("not a book")
    with pytest.raises(OptionError, match="book.npz"):
        B.load(bad)
