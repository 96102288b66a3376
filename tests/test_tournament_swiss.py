"""Swiss pairings (Dutch system) and tie-breaks, against a hand-worked example and properties."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludothek.tournament.swiss import Game, PairingError, _halves, _matchings, _players, pair_round, standings

PLAYERS = ["A", "B", "C", "D", "E"]  # initial ranking: A is number 1


def _pairs(games):
    return [(g.white, g.black) for g in games]


def _higher_wins(games):
    """Results where the better-seeded player always wins (byes keep their point)."""
    return [g if g.is_bye else Game(g.white, g.black, 1.0 if PLAYERS.index(g.white) < PLAYERS.index(g.black) else 0.0)
            for g in games]


def test_five_players_five_rounds_match_the_hand_worked_example():
    rounds = []
    expected = [
        # Round 1: nobody has points. The bye goes to the lowest-ranked, E. The group A B C D splits
        # into S1 = A B and S2 = C D: A-C and B-D. Nobody has a colour yet, so the higher-ranked
        # takes white on board 1 and black on board 2: A white, D white.
        [("A", "C"), ("D", "B"), ("E", None)],
        # Round 2: A, B (wins) and E (bye) have 1, C and D 0. Bye: the lowest-ranked without one,
        # D. Group A B E: S1 = A, S2 = B E. A-B would send E down again, and a bye counts as a
        # downfloat (FIDE 2025 rules), so the next candidate A-E, which meets every colour wish
        # too, wins; B moves down to C: B-C. Colours: A (W) wants black and E has no wish: E white.
        # B and C both had black and want white; the higher-ranked, B, gets it.
        [("E", "A"), ("B", "C"), ("D", None)],
        # Round 3: A 2, B 2; D 1 (bye), E 1; C 0. Bye: E and D had one, so C. A-B (both met other
        # players only); A (W B) wants white, B (B W) black: A white. D-E is the only pairing left;
        # both had white once and want black, never had different colours in the same round, so
        # the higher-ranked D gets black.
        [("A", "B"), ("E", "D"), ("C", None)],
        # Round 4: A 3; B 2, D 2; C 1 (bye), E 1. Bye: E, C, D had one, so B. A is alone and moves
        # down to D (not met yet): A-D; A (W B W) strongly wants black, D (W B) mildly white: D
        # white. C-E: C had two blacks, E two whites, so C white (both absolute wishes met).
        [("D", "A"), ("C", "E"), ("B", None)],
        # Round 5: A 4; B 3; C 2, D 2; E 1. Only A has no bye yet: A. B moves down to C D but met
        # both, so C-D is paired and B moves on to E: B-E. C (B B W) strongly wants white, D
        # (W B W) black: C white. B (B W B) wants white, E (W W B) black: B white.
        [("B", "E"), ("C", "D"), ("A", None)],
    ]
    for number, want in enumerate(expected, start=1):
        games = pair_round(PLAYERS, rounds)
        assert _pairs(games) == want, f"round {number}"
        rounds.append(_higher_wins(games))
    table = standings(PLAYERS, rounds)
    # A won four games and a bye: 5. Buchholz = opponents' scores C 3 + E 1 + B 4 + D 2 = 10;
    # Sonneborn-Berger: all four beaten, so also 10. B: beat D, C, E (2 + 3 + 1 = 6), lost to A;
    # Buchholz 2 + 3 + 5 + 1 = 11. C: beat E (1) and D (2), lost to A and B: SB 3, Buchholz
    # 5 + 4 + 1 + 2 = 12. D: beat E (1); Buchholz 4 + 1 + 5 + 3 = 13. E: Buchholz 5 + 2 + 3 + 4 = 14.
    assert [(s.player, s.score, s.buchholz, s.sonneborn_berger) for s in table] == [
        ("A", 5, 10, 10), ("B", 4, 11, 6), ("C", 3, 12, 3), ("D", 2, 13, 1), ("E", 1, 14, 0)]
    assert all(s.games == 4 for s in table)


def test_tie_breaks_decide_equal_scores():
    # Four players, two rounds, given by hand (not by the pairing code):
    # round 1: A beats B, C draws D; round 2: A draws C, B beats D.
    # Scores: A 1.5, B 1, C 1, D 0.5.
    # Buchholz: B: A 1.5 + D 0.5 = 2; C: D 0.5 + A 1.5 = 2 (equal), so Sonneborn-Berger:
    # B beat D: 0.5; C drew D and A: 0.25 + 0.75 = 1. C ahead of B.
    rounds = [[Game("A", "B", 1.0), Game("C", "D", 0.5)], [Game("C", "A", 0.5), Game("B", "D", 1.0)]]
    table = standings(["A", "B", "C", "D"], rounds)
    assert [s.player for s in table] == ["A", "C", "B", "D"]
    assert [(s.buchholz, s.sonneborn_berger) for s in table[1:3]] == [(2, 1), (2, 0.5)]


def test_colour_is_never_three_times_the_same_and_balance_stays_within_two():
    rounds = []
    names = [f"p{i}" for i in range(8)]
    rng = random.Random(3)
    for _ in range(7):
        games = pair_round(names, rounds)
        rounds.append([Game(g.white, g.black, rng.choice([0.0, 0.5, 1.0])) for g in games])
    for name in names:
        colours = ["W" if g.white == name else "B" for games in rounds for g in games if name in (g.white, g.black)]
        assert "WWW" not in "".join(colours) and "BBB" not in "".join(colours)
        assert abs(colours.count("W") - colours.count("B")) <= 2


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.data())
def test_no_pair_repeats_and_at_most_one_bye_each(count, data):
    names = [f"p{i}" for i in range(count)]
    rounds: list[list[Game]] = []
    for _ in range(data.draw(st.integers(1, count - 1 if count % 2 == 0 else count), label="rounds")):
        try:
            games = pair_round(names, rounds)
        except PairingError:
            break  # a Swiss can paint itself into a corner late; it must say so, not repeat
        scores = data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=len(games), max_size=len(games)))
        rounds.append([g if g.is_bye else Game(g.white, g.black, s) for g, s in zip(games, scores)])
        seated = [p for g in games for p in (g.white, g.black) if p is not None]
        assert sorted(seated) == sorted(names)  # everybody plays or has the bye, once
    met = [frozenset((g.white, g.black)) for games in rounds for g in games if not g.is_bye]
    assert len(met) == len(set(met))
    byes = [g.white for games in rounds for g in games if g.is_bye]
    assert len(byes) == len(set(byes))
    assert len(rounds) >= 1


def test_impossible_round_is_a_clear_error():
    rounds = [[Game("A", "B", 1.0)]]
    with pytest.raises(PairingError, match="repeat game"):
        pair_round(["A", "B"], rounds)
    with pytest.raises(PairingError, match="listed twice"):
        pair_round(["A", "A"], [])
    with pytest.raises(PairingError, match="no result"):
        pair_round(["A", "B"], [[Game("A", "B")]])


def test_a_player_moved_down_is_paired_first_and_colour_wishes_outrank_the_order():
    # Round 1 given by hand: A beats F, B draws E, D (white) draws C. A has 1 point; B, C, D, E
    # 0.5; F 0. Round 2: A is alone with 1 point and moves down into B C D E, where he is paired
    # first. In the Dutch order his opponent would be B, the highest resident, and the remainder
    # C D E would give C-E (C met D) with D moving down to F. But A and B both had white and both
    # want black: one wish unmet. The quality rules put colour wishes before the order, so the
    # first candidate that meets every wish wins: A-C (C had black and wants white), then the
    # remainder B D E: B-D would again leave a wish unmet (both had white), B-E was played, so
    # D-E (E white, he had black) and B moves down to F (F had black: F white).
    names = ["A", "B", "C", "D", "E", "F"]
    rounds = [[Game("A", "F", 1.0), Game("B", "E", 0.5), Game("D", "C", 0.5)]]
    assert _pairs(pair_round(names, rounds)) == [("C", "A"), ("E", "D"), ("F", "B")]
    # Now A had black in round 1 (and F white): A-B meets both wishes, so the order keeps it.
    # The remainder C D E: C-E leaves a wish unmet (both had black), so D-E (E white) and C
    # moves down to F, who had white: C white.
    rounds = [[Game("F", "A", 0.0), Game("B", "E", 0.5), Game("D", "C", 0.5)]]
    assert _pairs(pair_round(names, rounds)) == [("A", "B"), ("E", "D"), ("C", "F")]


# ---------------------------------------------------------------------------- FIDE's published examples
# The FIDE handbook's example of the Dutch system's transpositions and exchanges (the 2012 text,
# C.04.1 D "Transposition and Exchange Procedures": S1 = players 1-4, S2 = 5-8 of one score
# bracket). Its facts, in our words: transpositions of S2 go in ascending numerical order
# (5678, 5687, 5768, ...); exchanges of one player come in the order a) 4-5, b) 4-6, c) 3-5,
# d) 4-7, e) 3-6, f) 2-5, g) 3-7, h) 2-6, i) 2-7 and of two players j) 34-56, k) 34-57, l) 24-56,
# m) 34-67, n) 24-57, o) 23-56, p) 24-67, q) 23-57, r) 23-67 (the example leaves out players 1
# and 8); with 7 players (S1 = 1-3) the same after taking 1 from every number.

FIDE_TRANSPOSITIONS = ["5678", "5687", "5768", "5786", "5867", "5876", "6578", "6587"]
FIDE_ONE = [("4", "5"), ("4", "6"), ("3", "5"), ("4", "7"), ("3", "6"), ("2", "5"), ("3", "7"), ("2", "6"), ("2", "7")]
FIDE_TWO = [("34", "56"), ("34", "57"), ("24", "56"), ("34", "67"), ("24", "57"), ("23", "56"), ("24", "67"),
            ("23", "57"), ("23", "67")]


def _fresh(count):
    names = [str(n) for n in range(1, count + 1)]
    table = _players(names, [])
    return [table[name] for name in names]


def _exchanges_seen(count, size, leave_out):
    """The exchanges of ``size`` players that :func:`_halves` tries, in its order, as (S1 players
    moved to S2, S2 players moved to S1), leaving out those involving ``leave_out``."""
    bracket = _fresh(count)
    top = {p.name for p in bracket[: count // 2]}
    seen = []
    for s1, _ in _halves(bracket, count // 2):
        names = {p.name for p in s1}
        out, into = "".join(sorted(top - names)), "".join(sorted(names - top))
        if len(out) == size and not set(out + into) & leave_out:
            seen.append((out, into))
    return seen


def test_transpositions_of_s2_follow_fides_example():
    bracket = _fresh(8)
    orders = ["".join(p.name for p in order) for order in _matchings(bracket[:4], bracket[4:])]
    assert orders[: len(FIDE_TRANSPOSITIONS)] == FIDE_TRANSPOSITIONS
    assert orders == sorted(orders) and len(orders) == 24  # all of them, in ascending order


def test_the_natural_split_comes_first_then_exchanges_in_fides_order():
    s1, s2 = next(_halves(_fresh(8), 4))
    assert [p.name for p in s1] == ["1", "2", "3", "4"] and [p.name for p in s2] == ["5", "6", "7", "8"]
    assert _exchanges_seen(8, 1, {"1", "8"}) == FIDE_ONE
    assert _exchanges_seen(8, 2, {"1", "8"}) == FIDE_TWO
    # all one-player exchanges come before any two-player one
    sizes = [len(out) for out, _ in _exchanges_seen(8, 1, set()) + _exchanges_seen(8, 2, set())]
    assert sizes == sorted(sizes)


def test_an_odd_bracket_exchanges_as_fides_example_less_one():
    less_one = [(str(int(a) - 1), str(int(b) - 1)) for a, b in FIDE_ONE]
    assert _exchanges_seen(7, 1, {"7"}) == less_one


def test_a_forced_transposition_is_the_next_in_fides_order():
    """Round 2 of eight players who all drew round 1 (one score bracket, S1 = 1-4, S2 = 5-8): the
    natural 1-5 2-6 3-7 4-8 repeats round 1, so a transposition of S2 is needed. Every
    transposition that avoids the repeats and meets the colour wishes equally well is a
    candidate; the pairing is the first such one in FIDE's order."""
    names = [str(n) for n in range(1, 9)]
    first = pair_round(names, [])
    assert [(g.white, g.black) for g in first] == [("1", "5"), ("6", "2"), ("3", "7"), ("8", "4")]
    drawn = [Game(g.white, g.black, 0.5) for g in first]
    second = pair_round(names, [drawn])
    pairs = {frozenset((g.white, g.black)) for g in second}
    # 1, 3, 6, 8 had white and want black, 2, 4, 5, 7 the other way round: the first transposition
    # of 5678 in FIDE's order that repeats no game and pairs each wish for black with one for white
    wants_black = {"1", "3", "6", "8"}
    met = {frozenset(("1", "5")), frozenset(("2", "6")), frozenset(("3", "7")), frozenset(("4", "8"))}
    expected = None
    for order in sorted(itertools.permutations("5678")):
        candidate = {frozenset((a, b)) for a, b in zip("1234", order)}
        if candidate & met:
            continue
        if all(len({a, b} & wants_black) == 1 for a, b in (tuple(c) for c in candidate)):
            expected = candidate
            break
    assert expected == {frozenset(p) for p in (("1", "7"), ("2", "8"), ("3", "5"), ("4", "6"))}
    assert pairs == expected
