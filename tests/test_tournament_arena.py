"""Arena points (streak, berserk) and the pairing of waiting players."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludothek.tournament.arena import Arena, ArenaError, Pairing, game_points


def test_points_for_one_game():
    assert [game_points(s, False, False) for s in (1, 0.5, 0)] == [2, 1, 0]
    assert [game_points(s, True, False) for s in (1, 0.5, 0)] == [4, 2, 0]  # on fire: doubled
    assert game_points(1, False, True) == 3  # berserk win
    assert game_points(1, True, True) == 5  # the berserk point is not doubled
    assert game_points(0.5, False, True) == 1 and game_points(0, True, True) == 0
    with pytest.raises(ArenaError):
        game_points(2, False, False)


def test_streak_starts_after_two_wins_and_ends_with_a_non_win():
    arena = Arena(0, 60)
    for p in ("a", "b", "c"):
        arena.join(p, 0)
    got = []
    # a wins five games (the 3rd to 5th on fire), draws (on fire: 2), then wins again (2: no fire)
    for t, score in enumerate([1, 1, 1, 1, 0.5, 1], start=1):
        pairs = [p for p in arena.pair(t) if "a" in (p.first, p.second)]
        while not pairs:  # a waits until an opponent is free
            for other in list(arena.playing.values()):
                arena.finish(other, 0.5, t)
            pairs = [p for p in arena.pair(t) if "a" in (p.first, p.second)]
        (pairing,) = pairs
        first_score = score if pairing.first == "a" else 1 - score
        got.append(arena.finish(pairing, first_score, t)[0 if pairing.first == "a" else 1])
    assert got == [2, 2, 4, 4, 2, 2]
    assert arena.entries["a"].points == 16


def test_the_longest_waiting_is_paired_first_and_not_with_the_last_opponent():
    arena = Arena(100, 10)
    assert arena.pair(50) == []  # not started
    arena.join("a", 100)
    arena.join("b", 101)
    arena.join("c", 102)
    arena.join("d", 103)
    first = arena.pair(104)
    assert first == [Pairing("a", "b"), Pairing("c", "d")]
    arena.finish(first[0], 1, 110)  # a and b wait again; a must not meet b at once
    assert arena.pair(111) == []
    arena.finish(first[1], 0, 120)
    second = arena.pair(121)
    assert {frozenset((p.first, p.second)) for p in second} == {frozenset("ac"), frozenset("bd")}
    for pairing in second:
        arena.finish(pairing, 0.5, 130)
    # after the end nobody is paired; the standings rank by points
    assert arena.pair(100 + 600) == []
    assert [e.player for e in arena.standings()] == ["a", "d", "b", "c"]  # equal points: share of wins, then who joined first
    assert [e.points for e in arena.standings()] == [3, 3, 1, 1]


def test_two_players_alone_may_play_again_and_withdrawn_players_are_not_paired():
    arena = Arena(0, 1)
    arena.join("a", 0)
    arena.join("b", 0)
    (game,) = arena.pair(0)
    arena.finish(game, 1, 1)
    assert len(arena.pair(1)) == 1
    arena = Arena(0, 1)
    for p in "abc":
        arena.join(p, 0)
    arena.withdraw("a")
    assert arena.pair(0) == [Pairing("b", "c")]
    with pytest.raises(ArenaError):
        arena.finish(Pairing("a", "b"), 1, 1)
    with pytest.raises(ArenaError):
        arena.withdraw("zed")


EVENTS = st.lists(st.tuples(st.sampled_from(["join", "withdraw", "finish", "pair"]), st.integers(0, 5),
                            st.sampled_from([0.0, 0.5, 1.0]), st.booleans()), max_size=60)


@settings(max_examples=60, deadline=None)
@given(EVENTS)
def test_arena_invariants(events):
    arena = Arena(0, 1)  # 60 seconds; one event a second, so some come after the end
    names = [f"p{i}" for i in range(6)]
    earned = {name: [] for name in names}
    for now, (kind, who, score, berserk) in enumerate(events):
        name = names[who]
        if kind == "join" and now < 60:
            arena.join(name, now)
        elif kind == "withdraw" and name in arena.entries:
            arena.withdraw(name)
        elif kind == "finish" and arena.playing:
            pairing = sorted(arena.playing.values(), key=lambda p: p.first)[who % len(arena.playing)]
            fire = (arena.entries[pairing.first].on_fire, arena.entries[pairing.second].on_fire)
            got = arena.finish(pairing, score, now, (berserk, False))
            assert got == (game_points(score, fire[0], berserk), game_points(1 - score, fire[1], False))
            earned[pairing.first].append(got[0])
            earned[pairing.second].append(got[1])
        elif kind == "pair":
            active = sum(1 for e in arena.entries.values() if e.active)
            before = {n: e.last_opponent for n, e in arena.entries.items()}
            made = arena.pair(now)
            assert not made or now < 60
            for p in made:
                assert before[p.first] != p.second or active == 2  # no rematch at once among three or more
        busy = [n for key in arena.playing for n in key]
        assert len(busy) == len(set(busy))  # nobody plays two games at once
    for name, entry in arena.entries.items():
        assert entry.history == earned[name] and entry.points == sum(earned[name])
        assert entry.games == len(earned[name])
