"""Swiss pairings by the Dutch system, and the tie-breaks Buchholz and Sonneborn-Berger.

Written from the rules of the FIDE Dutch system (C.04.3); docs/TOURNAMENTS.md says in short
what this module does and where it simplifies. Players are strings; their order in the list
given to :func:`pair_round` is the initial ranking (pairing numbers 1, 2, ...). "White" is seat 0
(the first player of the game), "black" seat 1.

Absolute rules, never broken: no two players meet twice; nobody gets a second bye; nobody plays
the same colour three times in a row or ends up with two more games of one colour than the
other. Within them, as the Dutch system: players are paired in score groups from the top; a
group's upper half meets its lower half (S1[i] against S2[i]); when that breaks an absolute rule
the lower half is reordered (transpositions), then players are exchanged between the halves;
players moved down from above are paired first; among valid pairings the one leaving fewest
colour preferences unmet, then fewest repeated floats, wins; a player who cannot be paired in the group floats down;
the bye goes to the lowest-ranked player who has not had one and whose bye lets all others be
paired.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..core.errors import LudothekError
from .texts import TEXTS

WHITE, BLACK = "W", "B"
#: how many valid candidate pairings of one score group are compared for colour preferences
_CANDIDATES = 400


class PairingError(LudothekError, ValueError):
    """No pairing satisfies the absolute rules (e.g. more rounds than opponents)."""


@dataclass(frozen=True)
class Game:
    """One board of a round: ``white`` plays seat 0. ``black`` None is a bye. ``score`` is
    white's points (1, 0.5 or 0), None while the game runs."""

    white: str
    black: str | None
    score: float | None = None

    @property
    def is_bye(self) -> bool:
        return self.black is None


@dataclass
class _Player:
    name: str
    number: int  # pairing number, 0-based
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    opponents: set[str] = field(default_factory=set)
    had_bye: bool = False
    last_float: str = ""  # "down" or "up" if the last round paired them out of their score (a bye: down)

    def preference(self) -> tuple[int, str | None]:
        """(strength, colour): 3 absolute, 2 strong, 1 mild, 0 none."""
        if not self.colours:
            return 0, None
        difference = self.colours.count(WHITE) - self.colours.count(BLACK)
        last = self.colours[-1]
        other = BLACK if last == WHITE else WHITE
        if difference < -1:
            return 3, WHITE
        if difference > 1:
            return 3, BLACK
        if len(self.colours) >= 2 and self.colours[-2] == last:
            return 3, other
        if difference == -1:
            return 2, WHITE
        if difference == 1:
            return 2, BLACK
        return 1, other

    def may_play(self, colour: str) -> bool:
        """False if ``colour`` would be a third in a row or a difference of three."""
        colours = self.colours + [colour]
        if len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3]:
            return False
        return abs(colours.count(WHITE) - colours.count(BLACK)) <= 2


def _players(players: Sequence[str], rounds: Iterable[Sequence[Game]]) -> dict[str, _Player]:
    if len(set(players)) != len(players):
        raise PairingError(TEXTS("listed_twice", player=repr(next(p for p in players if players.count(p) > 1))))
    table = {name: _Player(name, number) for number, name in enumerate(players)}
    for games in rounds:
        before = {name: p.score for name, p in table.items()}
        for p in table.values():
            p.last_float = ""
        for game in games:
            if game.white not in table or (game.black is not None and game.black not in table):
                raise PairingError(TEXTS("unknown_player", player=repr(game.white)))
            if game.score not in (0.0, 0.5, 1.0):
                raise PairingError(TEXTS("no_result", player=repr(game.white)))
            white = table[game.white]
            if game.is_bye:
                white.had_bye = True
                white.score += game.score
                white.last_float = "down"
                continue
            black = table[game.black]
            if before[white.name] != before[black.name]:
                higher, lower = (white, black) if before[white.name] > before[black.name] else (black, white)
                higher.last_float, lower.last_float = "down", "up"
            white.score += game.score
            black.score += 1 - game.score
            white.colours.append(WHITE)
            black.colours.append(BLACK)
            white.opponents.add(black.name)
            black.opponents.add(white.name)
    return table


def _colours(a: _Player, b: _Player, board: int) -> tuple[_Player, _Player]:
    """(white, black) for a pair, ``a`` ranked above ``b`` (the Dutch system's colour rules)."""
    (sa, ca), (sb, cb) = a.preference(), b.preference()
    if ca is not None and cb is not None and ca != cb:
        return (a, b) if ca == WHITE else (b, a)  # both get what they want
    if sa != sb and (ca or cb):  # the stronger preference wins
        strong, colour = (a, ca) if sa > sb else (b, cb)
        weak = b if strong is a else a
        return (strong, weak) if colour == WHITE else (weak, strong)
    # alternate from the latest round in which they had different colours
    for x, y in zip(reversed(a.colours), reversed(b.colours)):
        if x != y:
            return (b, a) if x == WHITE else (a, b)
    if ca is not None:  # the higher-ranked player's preference
        return (a, b) if ca == WHITE else (b, a)
    # no history: the higher-ranked gets white on odd boards (1, 3, ...), black on even ones
    return (a, b) if board % 2 == 0 else (b, a)


def _compatible(a: _Player, b: _Player) -> bool:
    if b.name in a.opponents:
        return False
    (sa, ca), (sb, cb) = a.preference(), b.preference()
    if sa == 3 and sb == 3 and ca == cb:
        return False
    return (a.may_play(WHITE) and b.may_play(BLACK)) or (a.may_play(BLACK) and b.may_play(WHITE))


def _quality(candidate: Candidate) -> tuple[int, int, int, int]:
    """What a candidate leaves wanting, least first (the Dutch system's quality rules in their
    order): unmet strong colour preferences, unmet mild ones, players floating down who floated
    down last round, players floating up (meeting a higher score) who floated up last round."""
    pairs, down = candidate
    strong, mild = _conflicts(pairs)
    again_down = sum(1 for p in down if p.last_float == "down")
    again_up = sum(1 for a, b in pairs if a.score != b.score and min(a, b, key=_up_key).last_float == "up")
    return strong, mild, again_down, again_up


def _up_key(p: _Player) -> tuple[float, int]:
    return p.score, -p.number  # the lower of two players: fewer points, then a later number


def _conflicts(pairs: list[tuple[_Player, _Player]]) -> tuple[int, int]:
    """Colour preferences a candidate leaves unmet: (strong ones, mild ones)."""
    strong = mild = 0
    for a, b in pairs:
        (sa, ca), (sb, cb) = a.preference(), b.preference()
        if ca is not None and ca == cb:
            if min(sa, sb) >= 2:
                strong += 1
            else:
                mild += 1
    return strong, mild


def _exchanges(m: int, n: int, size: int) -> list[tuple[int, ...]]:
    """The S1s made by exchanging ``size`` players of S1 (positions ``0..m-1``) with ``size`` of
    S2 (``m..n-1``), in the Dutch system's order: the smallest difference between the sums of
    the positions exchanged first; then the one that moves the lowest-ranked S1 players (the
    highest positions, compared from the highest down); then the highest-ranked S2 players."""
    moves = [(a, b) for a in itertools.combinations(range(m), size) for b in itertools.combinations(range(m, n), size)]
    moves.sort(key=lambda ab: (sum(ab[1]) - sum(ab[0]), tuple(-x for x in sorted(ab[0], reverse=True)), ab[1]))
    return [tuple(sorted(set(range(m)) - set(a) | set(b))) for a, b in moves]


#: exchanges of up to this many players are tried in the Dutch system's order (above: by S1 chosen)
_ORDERED_EXCHANGES = 2


def _halves(bracket: list[_Player], m: int) -> Iterator[tuple[list[_Player], list[_Player]]]:
    """S1/S2 splits: the top ``m`` first, then with one player exchanged, then two, in the
    Dutch system's order (:func:`_exchanges`), then every other choice of S1 in order."""
    n = len(bracket)
    seen = set()
    ordered = [tuple(range(m))]
    for size in range(1, min(m, n - m, _ORDERED_EXCHANGES) + 1):
        ordered += _exchanges(m, n, size)
    for chosen in itertools.chain(ordered, itertools.combinations(range(n), m)):
        if chosen in seen:
            continue
        seen.add(chosen)
        yield [bracket[i] for i in chosen], [p for i, p in enumerate(bracket) if i not in chosen]


def _matchings(s1: list[_Player], s2: list[_Player]) -> Iterator[list[_Player]]:
    """Opponents for S1[0], S1[1], ... from S2, in the order of S2's transpositions (S2 as
    ranked first), leaving out those that break an absolute rule."""
    if not s1:
        yield []
        return
    for index, b in enumerate(s2):
        if _compatible(s1[0], b):
            for rest in _matchings(s1[1:], s2[:index] + s2[index + 1:]):
                yield [b] + rest


Candidate = tuple[list[tuple[_Player, _Player]], list[_Player]]  # (pairs, players floating down)


def _homogeneous(bracket: list[_Player], last: bool) -> Iterator[Candidate]:
    """Pairings of players of one score, best first. In the last bracket everybody must be
    paired; elsewhere as many pairs as the absolute rules allow come first."""
    n = len(bracket)
    for m in range(n // 2, -1, -1):
        if last and 2 * m != n:
            continue
        found = []
        for s1, s2 in _halves(bracket, m):
            for order in _matchings(s1, s2):
                found.append((list(zip(s1, order)), [p for p in s2 if p not in order]))
                if len(found) >= _CANDIDATES:
                    break
            if len(found) >= _CANDIDATES:
                break
        # stable: among equally good ones the Dutch system's order decides
        found.sort(key=_quality)
        yield from found
        if last:
            return


def _candidates(movers: list[_Player], residents: list[_Player], last: bool) -> Iterator[Candidate]:
    """Pairings of a bracket: the players moved down from above (``movers``) are paired first,
    each with a resident (S1 = the movers, S2 = the residents), as many of them as possible;
    the residents left over are then paired among themselves (the remainder)."""
    if not movers:
        yield from _homogeneous(residents, last)
        return
    for m1 in range(min(len(movers), len(residents)), -1, -1):
        found: list[Candidate] = []
        for chosen in itertools.combinations(movers, m1):
            still = [p for p in movers if p not in chosen]
            if last and still:
                continue
            for order in _matchings(list(chosen), residents):
                rest = [p for p in residents if p not in order]
                for pairs, down in _homogeneous(rest, last):
                    found.append((list(zip(chosen, order)) + pairs, sorted(still + down, key=_rank_key)))
                    if len(found) >= _CANDIDATES:
                        break
                if len(found) >= _CANDIDATES:
                    break
            if len(found) >= _CANDIDATES:
                break
        found.sort(key=_quality)
        yield from found


def _rank_key(p: _Player) -> tuple[float, int]:
    return -p.score, p.number


def _pair_groups(groups: list[list[_Player]], movers: list[_Player]) -> list[tuple[_Player, _Player]] | None:
    if not groups:
        return [] if not movers else None
    for pairs, down in _candidates(movers, groups[0], last=len(groups) == 1):
        rest = _pair_groups(groups[1:], down)
        if rest is not None:
            return pairs + rest
    return None


def _ranked(table: dict[str, _Player]) -> list[_Player]:
    return sorted(table.values(), key=_rank_key)


def pair_round(players: Sequence[str], rounds: Sequence[Sequence[Game]], bye_score: float = 1.0) -> list[Game]:
    """The next round's games, board 1 first, the bye (if any) last.

    ``players``: in initial ranking order (e.g. by rating); ``rounds``: the games so far, all
    with results. :class:`PairingError` when no pairing meets the absolute rules."""
    table = _players(players, rounds)
    ranked = _ranked(table)
    byes: list[_Player | None] = [None]
    if len(ranked) % 2:
        byes = [p for p in reversed(ranked) if not p.had_bye]
    for bye in byes:
        playing = [p for p in ranked if p is not bye]
        groups = [list(g) for _, g in itertools.groupby(playing, key=lambda p: p.score)]
        pairs = _pair_groups(groups, [])
        if pairs is None:
            continue
        ordered = sorted(pairs, key=lambda ab: (-max(ab[0].score, ab[1].score), -(ab[0].score + ab[1].score),
                                                min(ab[0].number, ab[1].number)))
        games = []
        for board, (a, b) in enumerate(ordered):
            a, b = (a, b) if (a.score, -a.number) > (b.score, -b.number) else (b, a)
            white, black = _colours(a, b, board)
            if not (white.may_play(WHITE) and black.may_play(BLACK)):
                white, black = black, white
            games.append(Game(white.name, black.name))
        if bye is not None:
            games.append(Game(bye.name, None, bye_score))
        return games
    raise PairingError(TEXTS("stuck"))


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int


def standings(players: Sequence[str], rounds: Sequence[Sequence[Game]]) -> list[Standing]:
    """Players by score, then Buchholz (the sum of their opponents' scores), then
    Sonneborn-Berger (the scores of opponents they beat, plus half of those they drew with),
    then initial ranking. A bye adds to neither tie-break. Games without a result are left out."""
    finished = [[g for g in games if g.score is not None] for games in rounds]
    table = _players(players, finished)
    buchholz = {name: 0.0 for name in table}
    berger = {name: 0.0 for name in table}
    games = {name: 0 for name in table}
    for round_games in finished:
        for game in round_games:
            if game.is_bye:
                continue
            for me, other, mine in ((game.white, game.black, game.score), (game.black, game.white, 1 - game.score)):
                buchholz[me] += table[other].score
                berger[me] += mine * table[other].score
                games[me] += 1
    order = sorted(table.values(), key=lambda p: (-p.score, -buchholz[p.name], -berger[p.name], p.number))
    return [Standing(rank, p.name, p.score, buchholz[p.name], berger[p.name], games[p.name])
            for rank, p in enumerate(order, start=1)]
