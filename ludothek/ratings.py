"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).

A rating is a value, a deviation (how sure we are of the value; large for a newcomer) and a
volatility (how erratic the player's results are). :func:`rate` takes a player's rating and
the results of one rating period (each against an opponent's rating *as it was before the
period*) and returns the new rating; a period without games only widens the deviation.

The platform rates each finished rated game as one period for both players (as lichess does),
so a rating moves after every game. Computations run on Glicko-2's internal scale
(``mu = (r - 1500) / 173.7178``, ``phi = RD / 173.7178``); values shown to people are on the
Glicko scale (1500 ± RD).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

SCALE = 173.7178
#: a newcomer's rating
START_VALUE, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: the system constant: how much the volatility may change in a period (Glickman suggests 0.3-1.2)
TAU = 0.5
#: the deviation never falls below this (a rating never becomes certain) and never exceeds a newcomer's
MIN_DEVIATION = 30.0
CONVERGENCE = 1e-6


@dataclass(frozen=True)
class Rating:
    value: float = START_VALUE
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.value - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE

    def rounded(self) -> dict[str, float]:
        return {"value": round(self.value, 2), "deviation": round(self.deviation, 2),
                "volatility": round(self.volatility, 6)}


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score (0..1) against the opponent."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def rate(player: Rating, results: Iterable[tuple[Rating, float]], tau: float = TAU,
         clamp: bool = True) -> Rating:
    """The player's rating after a period with ``results``: ``(opponent's rating, score)``
    pairs, the score 1 for a win, 0.5 for a draw, 0 for a loss. ``clamp`` keeps the deviation
    between :data:`MIN_DEVIATION` and a newcomer's (off: Glickman's plain algorithm)."""
    results = list(results)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        return _bounded(Rating(player.value, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma), clamp)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1 (from 0 to 1), not {score!r}")
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    sigma = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * improvement
    return _bounded(Rating(mu * SCALE + 1500.0, phi * SCALE, sigma), clamp)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the algorithm: the root of f by the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    upper = a
    if delta * delta > phi * phi + v:
        lower = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        lower = a - k * tau
    f_upper, f_lower = f(upper), f(lower)
    while abs(lower - upper) > CONVERGENCE:
        c = upper + (upper - lower) * f_upper / (f_lower - f_upper)
        f_c = f(c)
        if f_c * f_lower <= 0:
            upper, f_upper = lower, f_lower
        else:
            f_upper /= 2.0
        lower, f_lower = c, f_c
    return math.exp(upper / 2.0)


def _bounded(rating: Rating, clamp: bool) -> Rating:
    if not clamp:
        return rating
    deviation = min(max(rating.deviation, MIN_DEVIATION), START_DEVIATION)
    return Rating(rating.value, deviation, rating.volatility)


def rate_game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them; ``score`` is the first player's."""
    return rate(first, [(second, score)]), rate(second, [(first, 1.0 - score)])
