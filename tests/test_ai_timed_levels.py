"""Levels 6-8: time budgets read through a fake clock (no test waits real seconds), the
dice games' extension on critical turns (at most twice the budget), the levels' wiring."""

from __future__ import annotations

import random

import pytest

import ludothek
from ludothek.ai import timing
from ludothek.ai.alphabeta import AlphaBetaAgent
from ludothek.ai.base import make_agent
from ludothek.ai.budget import MOST_CRITICAL, Budget
from ludothek.ai.levels import LEVELS, THINKING, level_of
from ludothek.ai.timing import SWING, CriticalTurn, next_depth_hopeless
from ludothek.core.errors import OptionError

GAMES = ("trike", "trigeo", "hexalit", "bitis")


class SetClock:
    """A clock the test sets by hand."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class SteppingClock:
    """Each read is ``step`` seconds after the one before: time passes as the search looks."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def midgame(game: str, seed: int = 5, plies: int = 6):
    """A position a few random plies in that a short search does not find decided."""
    rng = random.Random(seed)
    while True:
        state = ludothek.new_game(game)
        for _ in range(plies):
            if state.is_over():
                break
            if state.current_player() < 0:
                actions, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(actions, weights)[0])
            else:
                state.play(rng.choice(state.legal_actions()))
        while not state.is_over() and state.current_player() < 0:
            state.play(rng.choices(*zip(*state.chance_outcomes()))[0])
        if not state.is_over() and len(state.legal_actions()) > 3 and (
                game == "bitis" or abs(AlphaBetaAgent(game, 1, Budget(iterations=3000)).analyse(state).value) < 0.5):
            return state


# ------------------------------------------------------------------ the clock
def test_a_clock_stops_at_its_budget_when_the_turn_is_not_critical():
    now = SetClock()
    clock = Budget(seconds=1.0, critical=2.0).clock(now)
    asked = []
    clock.critical = lambda: asked.append(now.t) or None
    now.t += 0.999
    assert not clock.out_of_time() and asked == []
    now.t += 0.001
    assert clock.out_of_time() and clock.extended is None
    now.t += 0.5
    assert clock.out_of_time() and len(asked) == 1  # asked once, at the deadline


def test_a_critical_turn_gets_at_most_twice_the_budget():
    now = SetClock()
    clock = Budget(seconds=1.0, critical=2.0).clock(now)
    clock.critical = lambda: "swing"
    now.t += 1.0
    assert not clock.out_of_time() and clock.extended == "swing" and clock.allowed() == pytest.approx(2.0)
    now.t += 0.999
    assert not clock.out_of_time()
    now.t += 0.001
    assert clock.out_of_time()
    now.t += 10
    assert clock.out_of_time() and clock.allowed() == pytest.approx(2.0)  # extended once only


def test_a_budget_without_the_factor_never_asks():
    now = SetClock()
    clock = Budget(seconds=1.0).clock(now)
    clock.critical = lambda: pytest.fail("asked")
    now.t += 1.0
    assert clock.out_of_time()


@pytest.mark.parametrize("kwargs", [{"seconds": 1.0, "critical": MOST_CRITICAL + 0.01},
                                    {"seconds": 1.0, "critical": 0.5}, {"iterations": 10, "critical": 1.5}])
def test_a_budget_refuses_a_bad_critical_factor(kwargs):
    with pytest.raises(OptionError, match="critical"):
        Budget(**kwargs)


# ------------------------------------------------------------------ what is critical
def test_critical_turn_reasons():
    turn = CriticalTurn()
    assert turn() is None  # nothing known yet
    turn.depth_done(7, 0.20)
    assert turn() is None
    turn.running = lambda: 0.20 - SWING - 0.01
    assert turn() == "fail_low"
    turn.running = lambda: None  # the previous best not searched yet at this depth
    assert turn() is None
    turn.depth_done(7, 0.20 + SWING / 2)
    assert turn() is None  # same move, a small change
    turn.depth_done(7, 0.20 + SWING / 2 - SWING - 0.01)
    assert turn() == "swing"
    turn.depth_done(9, 0.05)
    assert turn() == "best_changed"


def test_a_critical_turn_counts_with_its_longer_time_when_deciding_on_the_next_depth():
    now = SetClock()
    clock = Budget(seconds=1.0, critical=2.0).clock(now)
    turn = timing.watch(clock)
    now.t += 0.6
    assert next_depth_hopeless(clock)  # more than half of one second gone
    turn.depth_done(1, 0.0)
    turn.depth_done(2, 0.5)  # a swing: two seconds are allowed
    assert not next_depth_hopeless(clock)
    now.t += 0.5
    assert next_depth_hopeless(clock)


# ------------------------------------------------------------------ the searches
STEP = 0.0025  # seconds a read of the fake clock


def _timed(agent, state):
    agent.now = SteppingClock(STEP)
    return agent.analyse(state)


@pytest.mark.parametrize("game", ["trigeo", "hexalit"])
@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("verdict", [None, "forced"])
def test_the_dice_search_stops_at_its_budget_and_at_most_twice_it_on_a_critical_turn(game, compiled, verdict,
                                                                                      monkeypatch):
    monkeypatch.setattr(CriticalTurn, "__call__", lambda self: verdict)
    budget = Budget(seconds=0.5, critical=2.0)
    agent = AlphaBetaAgent(game, 3, budget, compiled=compiled)
    found = _timed(agent, midgame(game))
    slack = 3 * STEP  # the read that saw the deadline, and the one that measured the time spent
    assert found.critical == verdict
    if verdict is None:
        assert found.seconds <= 0.5 + slack
        if found.stopped is None:  # it spent its budget (it may stop sooner, e.g. at a decided game)
            assert found.seconds >= 0.5
    else:
        # past the soft deadline, up to the hard one (or a depth finished after half of it)
        assert found.stopped in (None, "next_depth") and 0.5 < found.seconds <= 1.0 + slack
    assert found.best in midgame(game).legal_actions()


def test_the_search_asks_its_own_rule_when_the_time_is_up(monkeypatch):
    asked = []
    original = CriticalTurn.__call__

    def spy(self):
        asked.append(len(self.completed))
        return original(self)

    monkeypatch.setattr(CriticalTurn, "__call__", spy)
    agent = make_agent("bot:6", "trigeo", seed=1)
    found = _timed(agent, midgame("trigeo"))
    if found.stopped is None:  # it reached its deadline: the rule was asked, with completed depths
        assert asked and max(asked) >= 1
    assert found.seconds <= 2 * 0.5 + 3 * STEP


def test_trike_level_stops_at_its_budget():
    # its first move in the game: no time saved yet to go on with
    agent = make_agent("bot:6", "trike", seed=1)
    found = _timed(agent, midgame("trike", plies=6))
    assert found.critical is None and found.seconds <= 0.5 + 3 * STEP
    if found.stopped is None:
        assert found.seconds >= 0.5


# ------------------------------------------------------------------ the levels
@pytest.mark.parametrize("game", GAMES)
def test_levels_six_to_eight_are_time_budgets(game):
    assert LEVELS == tuple(range(1, 9))
    for level, seconds in THINKING.items():
        found = level_of(game, level)
        assert found.budget.seconds == seconds and found.budget.iterations is None
        # the dice games' critical turns, Trike's unsettled moves (on time saved before)
        assert found.budget.critical == (1.0 if game == "bitis" else MOST_CRITICAL)
        assert make_agent(f"bot:{level}", game, seed=1).name == f"bot:{level}"
    assert THINKING == {6: 0.5, 7: 2.0, 8: 8.0}


def test_bitis_top_levels_play_from_the_table():
    state = midgame("bitis", plies=4)
    from ludothek.games.bitis.perfect import best_moves

    for level in (6, 7, 8):
        assert level_of("bitis", level).algorithm == "perfect"
        agent = make_agent(f"bot:{level}", "bitis", seed=level)
        assert state.action_to_str(agent.choose(state)) in best_moves(state)


def test_a_level_above_eight_is_refused():
    with pytest.raises(OptionError, match="1..8|8"):
        make_agent("bot:9", "trike")


def test_the_cli_plays_the_top_levels():
    import json

    from click.testing import CliRunner

    from ludothek.cli import main

    result = CliRunner().invoke(main, ["match", "bitis", "bot:8", "bot:6", "-n", "2", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 2
    refused = CliRunner().invoke(main, ["match", "bitis", "bot:9", "bot:6", "-n", "2"])
    assert refused.exit_code != 0 and "1..8" in refused.output


def test_the_opponent_choice_says_how_long_the_levels_think():
    from ludothek.i18n import WEB as MESSAGES
    from ludothek.web.service import bot_levels, bot_thinking, game_catalog

    assert bot_levels("trigeo")[-3:] == ["bot:6", "bot:7", "bot:8"]
    assert bot_thinking("trigeo") == {"bot:6": {"seconds": 0.5, "most": 1.0}, "bot:7": {"seconds": 2.0, "most": 4.0},
                                      "bot:8": {"seconds": 8.0, "most": 16.0}}
    assert bot_thinking("trike")["bot:8"] == {"seconds": 8.0, "most": 16.0} and "bot:5" not in bot_thinking("trike")
    assert {level: bot_thinking("bitis").get(f"bot:{level}") for level in (5, 8)} == {5: {"perfect": True},
                                                                                      8: {"perfect": True}}
    catalog = {game["name"]: game for game in game_catalog()}
    assert catalog["hexalit"]["bot_thinking"] == bot_thinking("hexalit")
    for key in ("bot_thinks", "bot_thinks_more", "bot_table"):
        assert "{level}" in MESSAGES[key]["en"] and "{level}" in MESSAGES[key]["de"]
