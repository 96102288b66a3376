"""The bots' doubling cube in Hexalit (``ludothek/games/hexalit/cube.py``): double, take and
drop decided from the estimated winning chance by a cube-equity rule, for money and in a
:class:`HexalitMatch`, by every bot level — on hand-built positions."""

import random

import pytest

import ludothek
from ludothek import CHANCE
from ludothek.ai.base import make_agent
from ludothek.ai.knowledge import decided
from ludothek.games.hexalit import cube
from ludothek.games.hexalit.kernels import DOUBLE, DROP, TAKE
from ludothek.games.hexalit.match import HexalitMatch

from .test_hexalit import START

LEVELS = [f"bot:{level}" for level in range(1, 6)]
#: levels whose move search is quick (iteration budgets): they may also search a move here
QUICK = ["bot:1", "bot:2", "bot:3", "mcts:40", "uct:40", "alphabeta:150"]

#: White has nothing but its 1; Black has its whole army
LONE_WHITE = START.replace("1RBNKBNR1/2PPPQPPP2/6P6", "4K4/11/13")
#: the start, but Black has lost a knight and its front pawn (inside the doubling window by the
#: hand and the net chance: 72.7% and 71.5%)
AHEAD = START.replace("6p6/2pppqppp2/1rbnkbnr1", "13/2pppqppp2/1rb1kbnr1")


def cube_game(position: str, side: str, first: str | None = None, **options) -> ludothek.GameState:
    """``position`` with ``side`` ("w"/"b") to move, played for stakes."""
    rows = position.rsplit(" ", 2)[0]
    return ludothek.new_game("hexalit", position=f"{rows} {side} -", cube=True,
                             first=first or ("white" if side == "w" else "black"), **options)


def offered(position: str, side: str, **options) -> ludothek.GameState:
    """``side`` has just offered to double: the opponent answers."""
    state = cube_game(position, side, **options)
    state.play("double 2")
    return state


# ---------------------------------------------------------------------- the chance
def test_the_calibration_maps_evaluation_zero_to_an_even_game():
    assert cube.chance_of(0.0) == 0.5
    for pawns in (0.5, 2.0, 6.0, 20.0):
        assert cube.chance_of(pawns) > cube.chance_of(pawns / 2) > 0.5
        assert cube.chance_of(-pawns) == pytest.approx(1 - cube.chance_of(pawns))
    assert cube.chance_of(cube.WON) == 1.0 and cube.chance_of(-cube.WON) == 0.0  # decided: exact
    assert 0.6 < cube.chance_of(2.5) < cube.DOUBLE_POINT  # a knight up: ahead, no double yet
    assert cube.chance_of(40.0) > 0.99  # a whole army up
    start = ludothek.new_game("hexalit", cube=True)
    assert 0.45 < cube.winning_chance(start) < 0.6  # the start is about even


def test_winning_chance_speaks_for_the_player_who_acts():
    state = cube_game(LONE_WHITE, "b")
    p = cube.winning_chance(state)
    assert p > 0.9
    state.play("double 2")  # now White answers: its chance is the rest
    assert cube.winning_chance(state) == pytest.approx(1 - p)
    assert cube.side_chance(state, 0) == pytest.approx(1 - p)


# ---------------------------------------------------------------------- the rule, pure
def test_money_play_take_point_and_doubling_window():
    state = cube_game(START, "w")
    assert cube.take_point(state) == cube.MONEY_TAKE_POINT == 0.25
    assert cube.should_take(state, 0.26) and not cube.should_take(state, 0.24)
    assert not cube.should_double(state, 0.45)  # never a lost game
    assert not cube.should_double(state, 0.6)  # not ahead enough
    assert cube.should_double(state, 0.72)  # the window: the opponent still takes
    assert cube.should_take(state, 1 - 0.72)
    assert cube.should_double(state, 0.8) and not cube.should_take(state, 0.2)  # cash: he drops
    assert cube.should_double(state, 0.99)  # no gammons: never too good to double


def test_the_last_doubler_redoubles_only_to_cash():
    state = cube_game(START, "w")
    state.play("double 2")
    state.play("take")
    state.play("B5W2")  # White's turn after the take
    assert cube.last_doubler(state) == 0 and state.side == 1
    assert cube.should_double(state, 0.72)  # Black took: he may redouble in the window
    state.play("E5W2")
    assert state.side == 0 and DOUBLE in state.legal_actions()
    assert not cube.should_double(state, 0.72)  # White doubled last: only to cash
    assert cube.should_double(state, 0.8)
    black_first = cube_game(START, "b")
    black_first.play("double 2")
    black_first.play("take")
    assert cube.last_doubler(black_first) == 1 and cube.last_doubler(cube_game(START, "w")) is None


def test_the_take_point_moves_with_the_match_score():
    match = HexalitMatch(5, players=("Ada", "Max"))
    even = match.start(white="Ada")
    assert even.match_away == (5, 5)
    assert 0.1 < cube.take_point(even) < 0.35  # close to the money take point
    # Max (Black, the taker) needs one game: he drops more (his lead is at stake)
    match.score.update({"Ada": 0, "Max": 4})
    taker_needs_one = match.start(white="Ada")
    assert taker_needs_one.match_away == (5, 1)
    assert cube.take_point(taker_needs_one) > cube.take_point(even)  # the leader takes less
    # Ada (White) needs one game: Black must take anything, a drop loses the match
    match.score.update({"Ada": 4, "Max": 0})
    doubler_needs_one = match.start(white="Ada")
    assert cube.take_point(doubler_needs_one) == 0.0
    assert cube.should_take(doubler_needs_one, 0.05)
    assert not cube.should_take(cube_game(START, "w"), 0.05)  # for money: drop
    # and Ada, needing only the stake, never doubles unless Max should drop (he never should)
    assert not cube.should_double(doubler_needs_one, 0.9)


def test_coin_flip_match_equity():
    coin = "coin_flip"
    assert cube.match_equity(1, 1, coin) == 0.5
    assert cube.match_equity(1, 2, coin) == 0.75
    assert cube.match_equity(3, 3, coin) == 0.5
    assert cube.match_equity(0, 3, coin) == 1.0 and cube.match_equity(2, 0, coin) == 0.0
    assert cube.match_equity(2, 5, coin) + cube.match_equity(5, 2, coin) == pytest.approx(1.0)


# ---------------------------------------------------------------------- the bots
@pytest.mark.parametrize("spec", LEVELS)
def test_every_level_drops_a_double_with_a_lone_one_against_a_full_army(spec):
    state = offered(LONE_WHITE, "b")
    assert make_agent(spec, "hexalit", seed=1).choose(state) == DROP


@pytest.mark.parametrize("spec", LEVELS)
def test_every_level_takes_at_the_start_position(spec):
    state = offered(START, "w")
    assert make_agent(spec, "hexalit", seed=1).choose(state) == TAKE


@pytest.mark.parametrize("spec", LEVELS)
def test_every_level_doubles_a_won_game_and_the_opponent_drops(spec):
    state = cube_game(LONE_WHITE, "b")  # Black (to move, it started) has won but not finished
    assert DOUBLE in state.legal_actions()
    assert make_agent(spec, "hexalit", seed=1).choose(state) == DOUBLE


@pytest.mark.parametrize("spec", LEVELS)
def test_every_level_doubles_inside_the_window_and_the_opponent_takes(spec):
    state = cube_game(AHEAD, "w")  # White is a knight and a pawn up: clearly ahead, far from won
    p = cube.winning_chance(state)
    assert cube.DOUBLE_POINT <= p < 1 - cube.MONEY_TAKE_POINT, p  # the doubling window
    assert make_agent(spec, "hexalit", seed=1).choose(state) == DOUBLE
    state.play("double 2")
    assert make_agent(spec, "hexalit", seed=2).choose(state) == TAKE  # Black still has a take


@pytest.mark.parametrize("spec", QUICK)
def test_a_bot_never_doubles_a_lost_game(spec):
    state = cube_game(LONE_WHITE, "w")  # White may bring the cube in, but is lost
    assert DOUBLE in state.legal_actions()
    assert cube.winning_chance(state) < 0.1
    action = make_agent(spec, "hexalit", seed=1).choose(state)
    assert action != DOUBLE and action in state.legal_actions()


@pytest.mark.parametrize("spec", QUICK)
def test_a_bot_does_not_double_an_even_game_and_searches_its_move(spec):
    state = ludothek.new_game("hexalit", cube=True)
    assert not cube.should_double(state, cube.winning_chance(state))
    action = make_agent(spec, "hexalit", seed=3).choose(state)
    assert action != DOUBLE and action in state.legal_actions()


def test_in_a_match_a_bot_takes_a_hopeless_double_when_a_drop_loses_the_match():
    match = HexalitMatch(3, players=("Ada", "Max"), score={"Ada": 0, "Max": 2})
    state = match.start(white="Ada", position=f"{LONE_WHITE.rsplit(' ', 2)[0]} b -", first="black")
    state.play("double 2")  # Max (Black) needs one point: dropping would end the match
    assert make_agent("bot:2", "hexalit", seed=1).choose(state) == TAKE
    money = offered(LONE_WHITE, "b")
    assert make_agent("bot:2", "hexalit", seed=1).choose(money) == DROP


def test_the_hook_is_for_cube_decisions_only():
    plain = ludothek.new_game("hexalit")
    agent = make_agent("bot:1", "hexalit", seed=1)
    assert decided(plain, agent) is None  # no cube: the agent searches as before
    assert decided(ludothek.new_game("trigeo"), agent) is None  # other games: the generic None
    searched = decided(ludothek.new_game("hexalit", cube=True), agent)
    assert searched is not None and searched.best != DOUBLE  # the move, searched without the cube


# ---------------------------------------------------------------------- whole games
def _check_cube_action(state, action) -> None:
    """The bot's action is legal and agrees with the rule."""
    assert action in state.legal_actions()
    p = cube.winning_chance(state)
    if state.offer:
        assert action == (TAKE if cube.should_take(state, p) else DROP)
    elif DOUBLE in state.legal_actions():
        assert (action == DOUBLE) == cube.should_double(state, p)
    else:
        assert action not in (DOUBLE, TAKE, DROP)


@pytest.mark.parametrize("white,black,seed", [("bot:1", "bot:2", 1), ("bot:2", "bot:3", 2), ("bot:3", "bot:1", 3)])
def test_bots_play_cube_games_to_the_end(white, black, seed):
    rng = random.Random(seed)
    agents = [make_agent(white, "hexalit", seed=seed), make_agent(black, "hexalit", seed=seed + 1)]
    decisions = 0
    for first in ("white", "black"):
        state = ludothek.new_game("hexalit", cube=True, max_plies=80, first=first)
        while not state.is_over():
            if state.current_player() == CHANCE:
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            decisions += state.offer or DOUBLE in state.legal_actions()
            action = agents[state.current_player()].choose(state)
            _check_cube_action(state, action)
            state.apply_action(action)
        won = state.winner()
        assert state.points() == {"white": 0, "black": 0} if won is None else state.points()[won] == state.cube
    assert decisions >= 2  # at least the starting player's first turn in each game


def test_bots_play_a_match_to_the_end():
    match = HexalitMatch(3, players=("one", "two"))
    agents = {"one": make_agent("bot:1", "hexalit", seed=5), "two": make_agent("bot:2", "hexalit", seed=6)}
    rng = random.Random(7)
    for game in range(6):
        if match.is_over():
            break
        white, black = ("one", "two") if game % 2 == 0 else ("two", "one")
        state = match.start(white=white, max_plies=60)
        seats = [agents[white], agents[black]]
        while not state.is_over():
            if state.current_player() == CHANCE:
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            action = seats[state.current_player()].choose(state)
            _check_cube_action(state, action)
            state.apply_action(action)
        match.add(state, white=white)
    assert sum(points for _, points in match.games) == sum(match.score.values())
