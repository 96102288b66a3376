"""Match statistics: score, its 95% confidence interval, and the Elo difference.

A game scores 1 (win), 1/2 (draw) or 0 (loss). The interval is the normal approximation
with the sample variance of the per-game scores (so draws narrow it), and the Elo interval
maps the score interval's ends through the logistic Elo curve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def elo_difference(score: float) -> float:
    """Elo difference implied by an expected score: ``-400 log10(1/score - 1)``
    (±infinity for a score of 1 or 0)."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score must be between 0 and 1, not {score}")
    if score == 1.0:
        return math.inf
    if score == 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score gives 0, not -0


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def wilson_interval(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``p`` observed in ``n`` trials."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low, high = centre - half, centre + half
    # p = 0 or 1 puts one end exactly on the boundary; keep rounding from moving it off
    return (0.0 if low < 1e-12 else low), (1.0 if high > 1 - 1e-12 else high)


@dataclass(frozen=True)
class MatchStats:
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    @property
    def stderr(self) -> float:
        n = self.games
        if n < 2:
            return math.nan
        p = self.score
        variance = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2 + self.losses * p**2) / n
        return math.sqrt(variance / n)

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The score's confidence interval (default 95%), clipped to [0, 1]. When every game
        ended alike the sample variance is 0 and says nothing: then the Wilson interval."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        half = z * self.stderr
        if math.isnan(half) or half == 0.0:
            return wilson_interval(self.score, n, z)
        return max(0.0, self.score - half), min(1.0, self.score + half)

    @property
    def elo(self) -> float:
        return elo_difference(self.score)

    def elo_interval(self, z: float = Z95) -> tuple[float, float]:
        low, high = self.interval(z)
        return elo_difference(low), elo_difference(high)

    def summary(self) -> dict:
        """The result as JSON fields (``ludothek match --json``): counts, score, its interval and
        the Elo difference with its interval (None where infinite: a clean sweep)."""
        low, high = self.interval()
        elo_low, elo_high = self.elo_interval()
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "score": self.score, "ci95": [low, high], "elo": _finite(self.elo),
                "elo_ci95": [_finite(elo_low), _finite(elo_high)]}

    def describe(self, name_a: str = "A") -> list[str]:
        low, high = self.interval()
        elo_low, elo_high = self.elo_interval()
        return [
            f"{name_a}: {self.wins} wins, {self.draws} draws, {self.losses} losses in {self.games} games",
            f"score {self.score:.3f} (95% CI {low:.3f}..{high:.3f})",
            f"Elo difference {_elo(self.elo)} (95% CI {_elo(elo_low)}..{_elo(elo_high)})",
        ]


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _elo(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"
