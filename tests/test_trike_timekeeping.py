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


def play(agents, size, rng):
    """A game from a random opening stone; returns each seat's (seconds, stopped) per move."""
    state = ludothek.new_game("trike", size=size)
    state.play(rng.choice(state.legal_actions()))
    moves = {0: [], 1: []}
    while not state.is_over():
        seat = state.current_player()
        analysis = agents[seat].analyse(state)
        moves[seat].append((analysis.seconds, analysis.stopped))
        if analysis.critical is None:  # only an unsettled move goes past its budget
            assert analysis.seconds <= BUDGET + 16 * PER_SIMULATION
            if analysis.stopped == "settled":
                assert analysis.seconds < BUDGET
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
        assert sum(seconds for seconds, _ in managed) <= BUDGET * len(managed) + slack * len(managed)
        assert all(seconds <= 2 * BUDGET + slack for seconds, _ in managed)
        assert all(seconds <= BUDGET + slack for seconds, _ in fixed)
        early += sum(stopped == "settled" for _, stopped in managed)
        extended += sum(seconds > BUDGET + slack for seconds, _ in managed)
    assert early and extended


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
