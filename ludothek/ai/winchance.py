"""Winning chances: the review's evaluation (seat 0's view, [-1, 1]) as the probability that
seat 0 wins, calibrated per game from bot-vs-bot games (issue 31, item 4).

A game's package holds ``win_chances.json``, written by ``scripts/calibrate_win_chances.py``
(docs/EVALUATION.md): positions of bot games, evaluated by the review's own search, paired with
the games' outcomes, and a logistic map fitted to them by maximum likelihood,

    P(seat 0 wins) = 1 / (1 + exp(-slope · atanh(eval)))

one parameter, so that an even evaluation is 50% for either side and the map is the same seen
from both seats. ``atanh`` undoes the squashing of the evaluations into [-1, 1] (the dice
games' ``0.9 · tanh(pawns / 6)``); with slope 2 the map is the plain ``(1 + eval) / 2``, so the
fit can only do better than that. A game without the file keeps the plain linear map ``(1 + eval) / 2``. A solved
game's exact values are certain: a won position is 100%, a lost one 0%, a draw 50%.

Marks, as lichess does: a move's *loss* is how many percentage points of winning chances the
mover gave away against the best move (see :mod:`.review`); from :data:`THRESHOLDS` on it is an
inaccuracy, a mistake or a blunder.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from ..core.registry import game_spec

#: the file in a game's package
FILE = "win_chances.json"
#: percentage points of winning chances lost from which a move is marked
THRESHOLDS = {"inaccuracy": 10.0, "mistake": 20.0, "blunder": 30.0}
#: a smaller loss is the search's noise: the best move is named only from this loss on
GROUND = 5.0


#: evaluations are clipped to this before ``atanh``
EDGE = 0.999


def stretch(value: float) -> float:
    """``atanh`` of the evaluation, clipped: the map's input."""
    return math.atanh(max(-EDGE, min(EDGE, float(value))))


def logistic(value: float, slope: float) -> float:
    """The probability (0 … 1) that seat 0 wins at evaluation ``value``."""
    x = max(-60.0, min(60.0, slope * stretch(value)))
    return 1.0 / (1.0 + math.exp(-x))


def fit_slope(samples: Sequence[tuple[float, float]], iterations: int = 50) -> float:
    """The slope that maximises the likelihood of ``samples``: (evaluation, outcome) with the
    outcome 1 (seat 0 won), 0 (lost) or 0.5 (a draw, half a win). Newton's method on the
    one-parameter log-likelihood, which is concave."""
    if not samples:
        raise ValueError("no samples to fit")
    slope = 2.0
    for _ in range(iterations):
        gradient = hessian = 0.0
        for value, outcome in samples:
            p = logistic(value, slope)
            x = stretch(value)
            gradient += (outcome - p) * x
            hessian -= p * (1 - p) * x * x
        if hessian >= -1e-12:
            break
        step = gradient / hessian
        slope = max(0.01, min(200.0, slope - step))
        if abs(step) < 1e-9:
            break
    return slope


def log_loss(samples: Sequence[tuple[float, float]], slope: float) -> float:
    """The mean log-loss of the map on ``samples`` (lower is better; ln 2 = 0.693 is a coin)."""
    total = 0.0
    for value, outcome in samples:
        p = min(1 - 1e-9, max(1e-9, logistic(value, slope)))
        total -= outcome * math.log(p) + (1 - outcome) * math.log(1 - p)
    return total / len(samples)


@lru_cache(maxsize=None)
def calibration(game: str) -> dict[str, Any] | None:
    """The game's calibration file as read, or None when its package has none."""
    package = game_spec(game).state.partition(":")[0].rpartition(".")[0]
    try:
        text = resources.files(package).joinpath(FILE).read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    data = json.loads(text)
    if not isinstance(data.get("slope"), (int, float)) or data["slope"] <= 0:
        raise ValueError(f"{package}/{FILE}: 'slope' must be a positive number")
    return data


def win_percent(game: str, value: float) -> float:
    """Seat 0's winning chances in percent at the review's evaluation ``value`` (±1 is a result
    the search proved: 100 or 0)."""
    if abs(value) >= 1.0:
        return 100.0 if value > 0 else 0.0
    data = calibration(game)
    if data is None:
        return 50.0 * (1.0 + max(-1.0, min(1.0, value)))
    return 100.0 * logistic(value, float(data["slope"]))


def exact_percent(exact: dict[str, Any] | None) -> float | None:
    """A solved position's winning chances for seat 0: 100, 0 or 50 (None: not known)."""
    if not exact:
        return None
    if exact.get("winner") is None:
        return 50.0
    return 100.0 if exact["winner"] == 0 else 0.0


def mark_of(points: float) -> str | None:
    """The mark of a move that lost ``points`` percentage points of winning chances."""
    found = None
    for mark, least in THRESHOLDS.items():  # in increasing order
        if points >= least:
            found = mark
    return found
