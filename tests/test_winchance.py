"""Winning chances (issue 31, item 4): the calibrated map, its fit, and the marks' thresholds."""

from __future__ import annotations

import json
import math
import random

import pytest

from ludothek.ai import winchance as W
from ludothek.core.registry import game_spec, games


def test_the_map_is_symmetric_and_monotone():
    for slope in (0.5, 3.0, 8.0):
        assert W.logistic(0.0, slope) == 0.5
        values = [W.logistic(x / 10, slope) for x in range(-10, 11)]
        assert values == sorted(values)
        for x in (0.1, 0.33, 0.9):
            assert W.logistic(x, slope) + W.logistic(-x, slope) == pytest.approx(1.0)


def test_the_fit_finds_the_slope_that_made_the_outcomes():
    rng = random.Random(5)
    samples = []
    for _ in range(6000):
        value = rng.uniform(-1, 1)
        samples.append((value, 1.0 if rng.random() < W.logistic(value, 4.0) else 0.0))
    slope = W.fit_slope(samples)
    assert slope == pytest.approx(4.0, rel=0.1)
    assert W.log_loss(samples, slope) < W.log_loss(samples, 1.0) < math.log(2) + 0.01
    with pytest.raises(ValueError):
        W.fit_slope([])


def test_every_game_ships_a_calibration_that_the_map_uses():
    shipped = [game for game in games() if game_spec(game).state.startswith("ludothek.games.")]
    assert len(shipped) >= 4
    for game in shipped:
        data = W.calibration(game)
        assert data is not None, f"{game} has no {W.FILE}"
        assert data["game"] == game and data["slope"] > 0 and data["samples"] >= 100
        assert W.win_percent(game, 0.0) == 50.0
        assert W.win_percent(game, 0.3) == pytest.approx(100 * W.logistic(0.3, data["slope"]))
        # the fitted map beats the plain linear one on the games it was fitted to
        assert data["log_loss"] <= data["log_loss_linear"]
        json.dumps(data)
    for game in set(games()) - set(shipped):  # a plugin's game without the file: the linear map
        if W.calibration(game) is None:
            assert W.win_percent(game, 0.5) == 75.0


def test_exact_values_are_certain():
    assert W.exact_percent({"winner": 0, "plies": 3}) == 100.0
    assert W.exact_percent({"winner": 1, "plies": 0}) == 0.0
    assert W.exact_percent({"winner": None, "plies": None}) == 50.0
    assert W.exact_percent(None) is None


def test_thresholds_in_percentage_points():
    assert W.THRESHOLDS == {"inaccuracy": 10.0, "mistake": 20.0, "blunder": 30.0}
    assert [W.mark_of(x) for x in (0, 5, 9.99, 10, 15, 20, 29.9, 30, 35, 100)] == [
        None, None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder", "blunder"]
    # the Trigeo example: an evaluation falling from +0.02 to -0.33 loses far more than
    # an inaccuracy's worth of winning chances under Trigeo's calibration
    drop = W.win_percent("trigeo", 0.02) - W.win_percent("trigeo", -0.33)
    assert W.mark_of(drop) is not None


def test_a_proven_result_is_certain():
    for game in ("trike", "trigeo"):
        assert W.win_percent(game, 1.0) == 100.0 and W.win_percent(game, -1.0) == 0.0
        assert 0.0 < W.win_percent(game, -0.999) < W.win_percent(game, 0.999) < 100.0
