"""Arena tournaments: a fixed time, players paired again as soon as their game ends, points
with a streak bonus and berserk. The rules in words are in docs/TOURNAMENTS.md.

Pure bookkeeping: the caller says when players join, leave and finish games, and asks
:meth:`Arena.pair` for new games; times are seconds on any clock the caller likes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import LudothekError
from .texts import TEXTS

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


class ArenaError(LudothekError, ValueError):
    """A call that does not fit the tournament's state (a player not in a game, ...)."""


def game_points(score: float, on_fire: bool, berserk: bool) -> int:
    """Points for one game: a win 2, a draw 1, a loss 0; doubled while on fire (after two
    wins in a row, until a game is not won); a berserk win one more (not doubled)."""
    if score not in (WIN, DRAW, LOSS):
        raise ArenaError(TEXTS("score", score=repr(score)))
    points = {WIN: 2, DRAW: 1, LOSS: 0}[score] * (2 if on_fire else 1)
    return points + (1 if berserk and score == WIN else 0)


@dataclass
class Entry:
    player: str
    points: int = 0
    wins: int = 0
    games: int = 0
    streak: int = 0  # wins in a row
    history: list[int] = field(default_factory=list)  # points of each game, in order
    fire: list[bool] = field(default_factory=list)  # whether each game was played on fire
    seat0: int = 0  # games played in seat 0 less those in seat 1
    last_opponent: str | None = None
    waiting_since: float | None = None  # None: playing or withdrawn
    active: bool = True
    joined: int = 0  # join order

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2


@dataclass(frozen=True)
class Pairing:
    first: str  # seat 0
    second: str


class Arena:
    def __init__(self, start: float, minutes: float):
        if not minutes > 0:
            raise ArenaError(TEXTS("minutes", minutes=repr(minutes)))
        self.start = start
        self.end = start + minutes * 60
        self.entries: dict[str, Entry] = {}
        self.playing: dict[frozenset[str], Pairing] = {}

    def running(self, now: float) -> bool:
        return self.start <= now < self.end

    def join(self, player: str, now: float) -> None:
        """Enter (or come back after withdrawing, keeping the points) and wait for a game."""
        if now >= self.end:
            raise ArenaError(TEXTS("over"))
        entry = self.entries.get(player)
        if entry is None:
            entry = self.entries[player] = Entry(player, joined=len(self.entries))
        elif entry.active:
            return
        entry.active = True
        if not self._in_game(player):
            entry.waiting_since = now

    def withdraw(self, player: str) -> None:
        """Stop being paired (a game in progress is still played out and counts)."""
        entry = self._entry(player)
        entry.active = False
        entry.waiting_since = None

    def _entry(self, player: str) -> Entry:
        try:
            return self.entries[player]
        except KeyError:
            raise ArenaError(TEXTS("not_in", player=repr(player))) from None

    def _in_game(self, player: str) -> bool:
        return any(player in key for key in self.playing)

    def pair(self, now: float) -> list[Pairing]:
        """New games for the players waiting now: the longest waiting first, each with the
        longest-waiting other player who was not their last opponent. Nobody is paired
        before the start or from the end on."""
        if not self.running(now):
            return []
        waiting = sorted((e for e in self.entries.values() if e.active and e.waiting_since is not None),
                         key=lambda e: (e.waiting_since, e.joined))
        active = sum(1 for e in self.entries.values() if e.active)
        made = []
        while waiting:
            a = waiting.pop(0)
            # a rematch at once only when there is nobody else in the whole arena
            b = next((e for e in waiting if e.player != a.last_opponent or active == 2), None)
            if b is None:
                continue
            waiting.remove(b)
            first, second = (a, b) if (a.seat0, a.joined) <= (b.seat0, b.joined) else (b, a)
            pairing = Pairing(first.player, second.player)
            for entry in (a, b):
                entry.waiting_since = None
            first.seat0 += 1
            second.seat0 -= 1
            self.playing[frozenset((a.player, b.player))] = pairing
            made.append(pairing)
        return made

    def finish(self, pairing: Pairing, first_score: float, now: float,
               berserk: tuple[bool, bool] = (False, False)) -> tuple[int, int]:
        """Score a game that :meth:`pair` made; ``first_score`` is seat 0's (1, 0.5, 0).
        Both players wait for their next game unless they withdrew or the arena is over.
        Returns the points each player got."""
        key = frozenset((pairing.first, pairing.second))
        if self.playing.get(key) != pairing:
            raise ArenaError(TEXTS("no_game", first=repr(pairing.first), second=repr(pairing.second)))
        if first_score not in (WIN, DRAW, LOSS):
            raise ArenaError(TEXTS("score", score=repr(first_score)))
        del self.playing[key]
        got = []
        for player, other, score, bers in ((pairing.first, pairing.second, first_score, berserk[0]),
                                          (pairing.second, pairing.first, 1 - first_score, berserk[1])):
            entry = self.entries[player]
            points = game_points(score, entry.on_fire, bers)
            entry.fire.append(entry.on_fire)
            entry.history.append(points)
            entry.points += points
            entry.games += 1
            entry.wins += score == WIN
            entry.streak = entry.streak + 1 if score == WIN else 0
            entry.last_opponent = other
            entry.waiting_since = now if entry.active and now < self.end else None
            got.append(points)
        return got[0], got[1]

    def standings(self) -> list[Entry]:
        """By points, then by the share of games won (lichess's "performance" aside), then who
        joined first."""
        return sorted(self.entries.values(),
                      key=lambda e: (-e.points, -(e.wins / e.games if e.games else 0), e.joined))
