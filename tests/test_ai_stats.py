import math

import pytest

from ludothek.ai.stats import MatchStats, elo_difference, expected_score, wilson_interval


@pytest.mark.parametrize("score,elo", [(0.5, 0.0), (0.75, 190.848), (0.25, -190.848), (0.64, 99.95), (0.9, 381.697)])
def test_elo_difference_known_values(score, elo):
    assert elo_difference(score) == pytest.approx(elo, abs=0.01)


def test_elo_and_expected_score_are_inverse():
    for elo in (-500, -100, 0, 35, 400):
        assert elo_difference(expected_score(elo)) == pytest.approx(elo)


def test_an_even_score_is_plus_zero_elo():
    assert f"{elo_difference(0.5):+.0f}" == "+0"  # not "-0", as -400 log10(1) would be


def test_elo_of_clean_sweeps_is_infinite_and_bad_scores_fail():
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    with pytest.raises(ValueError):
        elo_difference(1.5)


def test_score_and_normal_interval():
    stats = MatchStats(wins=10, draws=0, losses=10)
    assert stats.score == 0.5
    # per-game variance 0.25, standard error sqrt(0.25 / 20)
    assert stats.stderr == pytest.approx(math.sqrt(0.25 / 20))
    low, high = stats.interval()
    assert (low, high) == pytest.approx((0.5 - 1.959964 * 0.111803, 0.5 + 1.959964 * 0.111803), abs=1e-5)


def test_draws_count_half_and_narrow_the_interval():
    with_draws = MatchStats(wins=6, draws=8, losses=6)
    without = MatchStats(wins=10, draws=0, losses=10)
    assert with_draws.score == 0.5
    assert with_draws.stderr < without.stderr
    # 6 games at +0.5, 8 at 0, 6 at -0.5 around the mean: variance 3/20
    assert with_draws.stderr == pytest.approx(math.sqrt((12 * 0.25) / 20 / 20))


def test_clean_sweep_falls_back_to_wilson():
    stats = MatchStats(wins=20, draws=0, losses=0)
    low, high = stats.interval()
    assert high == 1.0
    assert low == pytest.approx(wilson_interval(1.0, 20)[0])
    assert low == pytest.approx(0.8389, abs=1e-3)  # Wilson's lower bound for 20/20


def test_elo_interval_maps_the_score_interval():
    stats = MatchStats(wins=15, draws=2, losses=8)
    low, high = stats.interval()
    elo_low, elo_high = stats.elo_interval()
    assert elo_low == pytest.approx(elo_difference(low)) and elo_high == pytest.approx(elo_difference(high))
    assert elo_low < stats.elo < elo_high
    assert stats.describe("x")[0] == "x: 15 wins, 2 draws, 8 losses in 25 games"
