"""Trike's MCTS under a time budget (:mod:`ludothek.games.trike.timekeeping`): a settled move
stops early, an unsettled one draws on the time saved, and a game never thinks more than its
moves' budgets in all. The clock is fake: it advances with the simulations run, so no test
waits real seconds and every game is reproducible."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludothek
from ludothek.ai.base import Analysis, make_agent
from ludothek.ai.budget import Budget
from ludothek.ai.mcts import MCTSAgent
from ludothek.games.trike import mcts3
from ludothek.games.trike import timekeeping as T
from ludothek.games.trike.mcts_kernels import COUNT, FIRST, VISITS

from .test_trike_flips import flips  # the benchmark's plain flood fill: the reference for T.endgame

BUDGET = 0.02
PER_SIMULATION = 2e-6  # the fake clock's seconds a simulation (10,000 simulations a budget)


class FakeTime:
    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds


@pytest.fixture
def fake_time(monkeypatch) -> FakeTime:
    time = FakeTime()
    real = mcts3.run_kernel

    def timed(*args, **kwargs):
        ran = real(*args, **kwargs)
        time.seconds += ran * PER_SIMULATION
        return ran

    monkeypatch.setattr(mcts3, "run_kernel", timed)
    return time


def root(visits, means):
    """Tree arrays of a root whose children have these visits and mean results for Black."""
    count = len(visits)
    ints = np.zeros((count + 1, 4), np.int32)
    value = np.zeros(count + 1)
    ints[0, FIRST], ints[0, COUNT] = 1, count
    for k, (n, mean) in enumerate(zip(visits, means), start=1):
        ints[k, VISITS] = n
        value[k] = n * mean
    return ints, value


class Counted:
    """A stand-in clock for :func:`.timekeeping.settled`: ``count`` simulations in ``elapsed``
    seconds of a ``budget`` seconds move."""

    def __init__(self, count, elapsed, budget):
        self.count, self.started, self.deadline = count, 0.0, budget
        self._elapsed = elapsed

    def elapsed(self):
        return self._elapsed


def test_a_choice_is_unsettled_when_the_runner_up_is_close_or_has_a_better_mean():
    assert not T.unsettled(*root([100, 10, 5], [0.2, 0.1, 0.0]), 1)
    assert T.unsettled(*root([100, 80, 5], [0.2, 0.1, 0.0]), 1)  # close in visits
    assert T.unsettled(*root([100, 30, 5], [0.2, 0.4, 0.0]), 1)  # behind on values
    assert not T.unsettled(*root([100, 20, 5], [0.2, 0.4, 0.0]), 1)  # too few visits to count
    # White moves: the means are Black's, so White's best is the lowest
    assert T.unsettled(*root([100, 30, 5], [0.2, 0.1, 0.0]), -1)
    assert not T.unsettled(*root([100, 30, 5], [-0.2, 0.1, 0.0]), -1)


def test_a_move_is_settled_once_the_leader_cannot_be_overtaken_in_the_time_left():
    settled = root([600, 100, 50], [0.3, 0.1, 0.0])
    # 750 simulations in half the move: 750 more to come, more than the lead of 500
    assert not T.settled(*settled, 1, Counted(750, 0.5, 1.0))
    # 750 in 0.8 of the move: about 190 to come
    assert T.settled(*settled, 1, Counted(750, 0.8, 1.0))
    # a runner-up with a better mean and enough visits to count: go on
    assert T.settled(*root([600, 160, 50], [0.3, 0.1, 0.0]), 1, Counted(750, 0.8, 1.0))
    assert not T.settled(*root([600, 160, 50], [0.3, 0.6, 0.0]), 1, Counted(750, 0.8, 1.0))


def test_the_bank_lets_an_unsettled_move_go_on_up_to_twice_its_budget():
    bank = T.Bank()
    time = FakeTime()
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: True)
    time.seconds = 1.0
    assert clock.out_of_time()  # nothing saved: no more time
    bank.settle(clock)
    assert bank.seconds == 0.0
    bank.seconds = 0.3
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: True)
    time.seconds += 1.0
    assert not clock.out_of_time() and clock.extended == "unsettled"
    time.seconds += 0.3
    assert clock.out_of_time()
    bank.settle(clock)
    assert bank.seconds == pytest.approx(0.0)
    bank.seconds = 5.0
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: True)
    assert clock.hard - clock.started == pytest.approx(2.0)  # never past twice the budget
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: False)  # settled at the deadline: stop there
    time.seconds += 1.0
    assert clock.out_of_time() and clock.extended is None


def test_lending_lets_a_move_before_the_endgame_think_longer_on_credit_up_to_the_debt_limit():
    bank = T.Bank()
    time = FakeTime()
    moves = 0
    while True:
        clock = Budget(seconds=1.0).clock(time)
        bank.allow(clock, lambda: True, lend=0.5)
        if clock.allowed() == pytest.approx(1.0):
            break
        assert clock.allowed() == pytest.approx(1.5)
        time.seconds += 1.5
        assert clock.out_of_time() and clock.extended is None  # in debt: nothing saved to go on with
        bank.settle(clock)
        moves += 1
    assert moves == T.MOST_DEBT / 0.5 and bank.seconds == pytest.approx(-T.MOST_DEBT)
    time.seconds += 3.0  # a move past its time adds no debt beyond the limit
    bank.settle(clock)
    assert bank.seconds == pytest.approx(-T.MOST_DEBT)
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: True, lend=0.5, endgame=True)
    assert clock.allowed() == pytest.approx(1.0)
    bank.settle(clock)  # the endgame's quick moves pay the debt back; it is not written off
    assert bank.seconds == pytest.approx(1.0 - T.MOST_DEBT)
    bank.seconds = 0.2  # savings are lent first, and what is left of them still serves an unsettled move
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: True, lend=0.5)
    assert clock.allowed() == pytest.approx(1.5) and clock.hard - clock.started == pytest.approx(1.5)
    bank.seconds = 2.0
    clock = Budget(seconds=1.0).clock(time)
    bank.allow(clock, lambda: True, lend=0.5)
    assert clock.hard - clock.started == pytest.approx(2.0)


def test_the_endgame_is_a_pawn_region_of_at_most_30_empty_cells():
    rng = random.Random(9)
    seen = set()
    for _ in range(20):
        state = ludothek.new_game("trike", size=9)
        while not state.is_over():
            state.play(rng.choice(state.legal_actions()))
            if state.pawn >= 0:
                small = flips.region(state.board, state.geometry.neighbours, int(state.pawn)) <= T.ENDGAME_CELLS
                seen.add(small)
                assert T.endgame(state) == small
    assert seen == {True, False}


def play(agents, size, rng, lend=0.0):
    """A game from a random opening stone; returns each seat's (seconds, stopped, endgame) per
    move. ``lend``: the budgets a move may borrow."""
    state = ludothek.new_game("trike", size=size)
    state.play(rng.choice(state.legal_actions()))
    moves = {0: [], 1: []}
    while not state.is_over():
        seat = state.current_player()
        endgame = T.endgame(state)
        analysis = agents[seat].analyse(state)
        moves[seat].append((analysis.seconds, analysis.stopped, endgame))
        if analysis.critical is None:  # only an unsettled move goes past its budget and its credit
            assert analysis.seconds <= BUDGET * (1 + lend) + 16 * PER_SIMULATION
            if analysis.stopped == "settled":
                assert analysis.seconds < BUDGET * (1 + lend)
        state.play(analysis.best)
    return moves


@pytest.mark.parametrize("size", [9, 13])
def test_a_game_never_thinks_longer_than_its_budgets_in_all(fake_time, size):
    rng = random.Random(size)
    early = extended = 0
    for seed in range(3):
        agents = []
        for name in ("mcts", "mcts_v2"):
            agent = make_agent(f"{name}:{BUDGET * 1000:g}ms", "trike", seed=seed)
            agent.now = fake_time
            agents.append(agent)
        if seed % 2:
            agents.reverse()
        moves = play(agents, size, rng)
        managed = moves[0] if agents[0].name == "mcts" else moves[1]
        fixed = moves[1] if agents[0].name == "mcts" else moves[0]
        # the kernel's last chunk may end a little past a deadline (at most 16 simulations)
        slack = 16 * PER_SIMULATION
        assert sum(seconds for seconds, _, _ in managed) <= BUDGET * len(managed) + slack * len(managed)
        assert all(seconds <= 2 * BUDGET + slack for seconds, _, _ in managed)
        assert all(seconds <= BUDGET + slack for seconds, _, _ in fixed)
        early += sum(stopped == "settled" for _, stopped, _ in managed)
        extended += sum(seconds > BUDGET + slack for seconds, _, _ in managed)
    assert early and extended


def test_a_lending_game_borrows_before_the_endgame_and_owes_at_most_the_debt_limit(fake_time):
    rng = random.Random(13)
    slack = 16 * PER_SIMULATION
    for seed in range(2):
        lender = make_agent(f"mcts_with:{BUDGET * 1000:g}ms,lend=0.5", "trike", seed=seed)
        other = make_agent(f"mcts_v2:{BUDGET * 1000:g}ms", "trike", seed=seed)
        lender.now = other.now = fake_time
        agents = [lender, other] if seed % 2 == 0 else [other, lender]
        moves = play(agents, 13, rng, lend=0.5)[agents.index(lender)]
        spent = sum(seconds for seconds, _, _ in moves)
        assert spent <= BUDGET * (len(moves) + T.MOST_DEBT) + slack * len(moves)
        assert all(seconds <= 2 * BUDGET + slack for seconds, _, _ in moves)
        # moves before the endgame think past the budget on credit, without being unsettled
        assert any(seconds > 1.2 * BUDGET for seconds, stopped, endgame in moves if not endgame)
        assert all(seconds <= BUDGET + slack for seconds, stopped, endgame in moves if endgame)


def test_the_time_saved_stays_with_its_game(fake_time):
    agent = MCTSAgent("trike", seed=3, budget=Budget(seconds=BUDGET))
    agent.now = fake_time
    rng = random.Random(5)
    for _ in range(2):
        state = ludothek.new_game("trike", size=9)
        state.play(rng.choice(state.legal_actions()))
        first = agent.analyse(state)
        # a new game starts with only its first move's saving in the bank
        assert agent.trike_kept.bank.seconds == pytest.approx(max(0.0, BUDGET - first.seconds))
        while not state.is_over():
            state.play(agent.analyse(state).best)


def test_mcts_with_turns_the_time_keeping_off():
    assert make_agent("mcts_with:200ms,manage=0", "trike").trike_settings.manage is False
    assert mcts3.DEFAULT.manage and not mcts3.V2.manage


def test_mcts_with_lends_between_0_and_1_budgets():
    assert make_agent("mcts_with:200ms,lend=0.3", "trike").trike_settings.lend == 0.3
    assert mcts3.DEFAULT.lend == 0.0
    for text in ("-0.1", "1.5", "nan", "much"):
        with pytest.raises(ludothek.OptionError, match="lend"):
            make_agent(f"mcts_with:200ms,lend={text}", "trike")


@pytest.mark.parametrize("value", [0.5, -0.5])
def test_the_swap_decision_keeps_why_the_move_stopped_or_went_on(value):
    state = ludothek.new_game("trike", size=7)
    state.play(state.legal_actions()[0])
    move = next(action for action in state.legal_actions() if action != state.swap_action)
    analysis = Analysis(best=move, scores={move: value}, line=[move], value=value, visits={move: 10},
                        stopped="settled", critical="unsettled")
    decided = mcts3._with_swap(state, analysis)
    assert decided.best == (move if value > 0 else state.swap_action)
    assert (decided.stopped, decided.critical) == ("settled", "unsettled")
