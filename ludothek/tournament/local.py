"""A tournament between agents on this machine (``ludothek tournament``): a Swiss of a fixed
number of rounds, or an Arena of a fixed number of minutes.

Games are played one at a time in this process. An Arena is simulated on a clock of its own:
each game lasts, on that clock, as long as its agents took to play it, and the two players wait
for a new opponent from the moment it ends; so the pairings are those of a real Arena in which
every game runs at once, and the whole tournament takes about MINUTES times half the number of
players to compute. Every game's record carries ``Event`` and ``Round`` tags.
"""

from __future__ import annotations

import datetime as _dt
import heapq
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..ai.match import run_games
from ..ai.pairing import GameResult, MatchGame, play_game
from ..core.record import Record
from . import arena as _arena
from . import swiss as _swiss
from .texts import TEXTS


@dataclass
class Played:
    """One finished game of a tournament and its record."""

    round: str  # the Round tag: the Swiss round, or "-" in an Arena (lichess writes it so)
    first: str  # seat 0
    second: str
    score: float  # seat 0's
    record: Record
    points: tuple[int, int] | None = None  # Arena points of each seat


@dataclass
class Outcome:
    kind: str  # "swiss" or "arena"
    players: list[str]
    games: list[Played] = field(default_factory=list)
    swiss_rounds: list[list[_swiss.Game]] = field(default_factory=list)
    swiss_table: list[_swiss.Standing] = field(default_factory=list)
    arena_table: list[_arena.Entry] = field(default_factory=list)


def player_names(agents: Sequence[str]) -> list[str]:
    """Unique names for the players: an agent spec given twice becomes ``bot:2 (2)``."""
    names, seen = [], {}
    for spec in agents:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if seen[spec] == 1 else f"{spec} ({seen[spec]})")
    return names


class _Table:
    def __init__(self, game: str, agents: dict[str, str], seed: int, options: tuple, event: str):
        self.game, self.agents, self.seed, self.options, self.event = game, agents, seed, options, event
        self.date = _dt.date.today().strftime("%Y.%m.%d")
        self.count = 0
        self.seconds = 0.0  # how long the last game took to play

    def spec(self, first: str, second: str, board: int, key: int) -> MatchGame:
        """The game of ``first`` (seat 0: an even number) and ``second``, its openings and dice
        drawn from the tournament's seed, ``key`` (a round or a game count) and the board."""
        return MatchGame(self.game, self.agents[first], self.agents[second], 2 * board, self.seed * 100_003 + key,
                         options=self.options)

    def play(self, first: str, second: str, round_tag: str) -> tuple[GameResult, Record]:
        self.count += 1
        started = time.perf_counter()
        result = play_game(self.spec(first, second, 0, self.count))
        self.seconds = time.perf_counter() - started
        return result, self.record(result, first, second, round_tag)

    def record(self, result: GameResult, first: str, second: str, round_tag: str) -> Record:
        record = Record(self.game, dict(self.options), result.moves, result.result,
                        tags={"Event": self.event, "Date": self.date, "Round": round_tag})
        state = record.replay()
        for seat, name in enumerate((first, second)):
            record.tags[state.seat_colour(seat).capitalize()] = name
        return record


def run_swiss(game: str, agents: Sequence[str], rounds: int, seed: int = 1, options: tuple = (),
              event: str | None = None, progress: Callable[[Played], None] | None = None,
              workers: int = 1) -> Outcome:
    """``agents`` in order of their initial ranking (strongest first); the games of a round
    are played on ``workers`` processes."""
    names = player_names(agents)
    if len(names) < 2:
        raise _swiss.PairingError(TEXTS("few_players"))
    table = _Table(game, dict(zip(names, agents)), seed, options, event or f"Swiss of {len(names)} ({game})")
    outcome = Outcome("swiss", names)
    for number in range(1, rounds + 1):
        pairings = _swiss.pair_round(names, outcome.swiss_rounds)
        scores: dict[int, float] = {}
        specs = [table.spec(p.white, p.black, board, number) for board, p in enumerate(pairings) if not p.is_bye]
        for result in run_games(specs, workers):
            board = result.number // 2
            pairing = pairings[board]
            scores[board] = result.score_a  # A sits in seat 0: its number is even
            played = Played(str(number), pairing.white, pairing.black, result.score_a,
                            table.record(result, pairing.white, pairing.black, str(number)))
            outcome.games.append(played)
            if progress:
                progress(played)
        outcome.swiss_rounds.append([p if p.is_bye else _swiss.Game(p.white, p.black, scores[board])
                                     for board, p in enumerate(pairings)])
    outcome.swiss_table = _swiss.standings(names, outcome.swiss_rounds)
    return outcome


def run_arena(game: str, agents: Sequence[str], minutes: float, seed: int = 1, options: tuple = (),
              event: str | None = None, progress: Callable[[Played, float], None] | None = None) -> Outcome:
    """``progress(game, minutes_gone)`` after each game (on the Arena's own clock)."""
    names = player_names(agents)
    if len(names) < 2:
        raise _arena.ArenaError(TEXTS("few_players"))
    table = _Table(game, dict(zip(names, agents)), seed, options, event or f"Arena of {len(names)} ({game})")
    outcome = Outcome("arena", names)
    arena = _arena.Arena(0.0, minutes)
    for name in names:
        arena.join(name, 0.0)
    now = 0.0
    running: list[tuple[float, int, _arena.Pairing, float, Record]] = []
    while True:
        for pairing in arena.pair(now):
            result, record = table.play(pairing.first, pairing.second, "-")
            score = result.score_a  # A sits in seat 0
            # a game lasts, on the Arena's clock, as long as it took to play (at least 10 ms)
            heapq.heappush(running, (now + max(table.seconds, 0.01), table.count, pairing, score, record))
        if not running:
            break
        now, _, pairing, score, record = heapq.heappop(running)
        points = arena.finish(pairing, score, now)
        played = Played("-", pairing.first, pairing.second, score, record, points)
        outcome.games.append(played)
        if progress:
            progress(played, min(now / 60, minutes))
    outcome.arena_table = arena.standings()
    return outcome


def describe(outcome: Outcome) -> list[str]:
    """The standings as lines of text."""
    if outcome.kind == "swiss":
        width = max(len(s.player) for s in outcome.swiss_table)
        lines = [f"{'#':>3}  {'player':<{width}}  {'points':>6}  {'Buchholz':>8}  {'S-B':>6}  games"]
        for s in outcome.swiss_table:
            lines.append(f"{s.rank:>3}  {s.player:<{width}}  {s.score:>6g}  {s.buchholz:>8g}  "
                         f"{s.sonneborn_berger:>6g}  {s.games:>5}")
        return lines
    width = max(len(e.player) for e in outcome.arena_table)
    lines = [f"{'#':>3}  {'player':<{width}}  {'points':>6}  {'games':>5}  {'won':>4}  points per game"]
    for rank, e in enumerate(outcome.arena_table, start=1):
        sheet = " ".join(f"{p}" if not fire else f"[{p}]" for p, fire in zip(e.history, e.fire))
        lines.append(f"{rank:>3}  {e.player:<{width}}  {e.points:>6}  {e.games:>5}  {e.wins:>4}  {sheet}")
    return lines


def summary(outcome: Any) -> dict:
    """The standings as JSON-ready data."""
    if outcome.kind == "swiss":
        table = [{"rank": s.rank, "player": s.player, "score": s.score, "buchholz": s.buchholz,
                  "sonneborn_berger": s.sonneborn_berger, "games": s.games} for s in outcome.swiss_table]
        rounds = [[{"white": g.white, "black": g.black, "score": g.score} for g in games]
                  for games in outcome.swiss_rounds]
        return {"kind": "swiss", "standings": table, "rounds": rounds}
    table = [{"rank": rank, "player": e.player, "points": e.points, "games": e.games, "wins": e.wins,
              "sheet": e.history} for rank, e in enumerate(outcome.arena_table, start=1)]
    return {"kind": "arena", "standings": table, "games": len(outcome.games)}
