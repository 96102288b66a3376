"""Glicko-2 (ludothek.ratings) against Glickman's worked example and the algorithm's properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludothek.ratings import (MIN_DEVIATION, START_DEVIATION, Rating, expected_score, rate, rate_game)


def test_glickmans_example():
    """'Example of the Glicko-2 system' (Glickman, 2013): a 1500/200 player with volatility 0.06
    beats a 1400/30 player and loses to 1550/100 and 1700/300, tau 0.5."""
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate(player, results, tau=0.5, clamp=False)
    assert after.value == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_widens_the_deviation_only():
    player = Rating(1600, 100, 0.06)
    after = rate(player, [], clamp=False)
    assert after.value == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx(math.sqrt((100 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178)


def test_equal_players_expect_half_and_a_draw_changes_little():
    a, b = Rating(1500, 80), Rating(1500, 80)
    assert expected_score(a, b) == pytest.approx(0.5)
    after_a, after_b = rate_game(a, b, 0.5)
    assert after_a.value == pytest.approx(1500) and after_b.value == pytest.approx(1500)
    assert after_a.deviation < 80


def test_bad_scores_are_refused():
    with pytest.raises(ValueError, match="score"):
        rate(Rating(), [(Rating(), 2.0)])


ratings = st.builds(Rating, st.floats(800, 2400), st.floats(MIN_DEVIATION, START_DEVIATION), st.floats(0.03, 0.1))


@given(ratings, ratings)
def test_a_win_raises_a_loss_lowers_and_the_sum_moves_the_right_way(first, second):
    won_first, lost_second = rate_game(first, second, 1.0)
    lost_first, won_second = rate_game(first, second, 0.0)
    assert won_first.value > first.value > lost_first.value
    assert won_second.value > second.value > lost_second.value
    for rating in (won_first, lost_second, lost_first, won_second):
        assert MIN_DEVIATION <= rating.deviation <= START_DEVIATION
        assert 0 < rating.volatility < 0.2


@given(ratings, ratings)
def test_the_less_certain_player_moves_more(first, second):
    sure, unsure = Rating(first.value, 50, 0.06), Rating(first.value, 300, 0.06)
    assert abs(rate(unsure, [(second, 1.0)]).value - unsure.value) > abs(rate(sure, [(second, 1.0)]).value - sure.value)
