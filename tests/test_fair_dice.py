"""Provably fair dice (ludothek.core.fairdice): every roll follows from a secret committed at the
start, in the outcome function, the web app, the `ludothek verify` command and the terminal.

Games with dice are found by their protocol (a chance node at the start or one action later),
never by name."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import io
import random
import time
import warnings
from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import ludothek
from ludothek.cli import main
from ludothek.core import fairdice
from ludothek.core.errors import LudothekError, RecordError
from ludothek.core.protocol import CHANCE
from ludothek.core.record import Record, dumps, loads
from ludothek.core.registry import game_class
from ludothek.terminal import TerminalGame

SECRET = "5f" * 32
OTHER = "a0" * 32


def chance_games() -> list[str]:
    """Games whose start position, or a position one action later, is a chance node."""
    found = []
    for name in ludothek.games():
        state = game_class(name)()
        if state.current_player() == CHANCE or any(_leads_to_chance(state, a) for a in state.legal_actions()):
            found.append(name)
    return found


def _leads_to_chance(state, action) -> bool:
    probe = state.copy()
    probe.play(action)
    return probe.current_player() == CHANCE


CHANCE_GAMES = chance_games()
needs_chance = pytest.mark.skipif(not CHANCE_GAMES, reason="no installed game rolls dice")


def test_some_installed_game_rolls_dice_and_the_probe_agrees():
    assert CHANCE_GAMES, "the tests below need a game with chance nodes"
    assert [g for g in ludothek.games() if fairdice.has_chance(g)] == CHANCE_GAMES


# ---------------------------------------------------------------------------- the outcome function
def test_the_commitment_is_the_sha256_of_the_secret_text():
    assert fairdice.commitment(SECRET) == hashlib.sha256(SECRET.encode("ascii")).hexdigest()
    fresh = fairdice.new_secret()
    assert fairdice.is_secret(fresh) and fresh != fairdice.new_secret()
    for bad in ("", "5f" * 31, "5F" * 32, "zz" * 32, None, 7):
        assert not fairdice.is_secret(bad)
    with pytest.raises(LudothekError, match="64 lower-case hex digits"):
        fairdice.commitment("5F" * 32)


def test_weights_are_exact_for_the_probabilities():
    assert fairdice.weights([(a, 1 / 6) for a in range(6)]) == [(a, 1) for a in range(6)]
    assert fairdice.weights([(9, 0.2), (4, 0.5), (7, 0.3)]) == [(4, 5), (7, 3), (9, 2)]
    assert fairdice.weights([(0, 1 / 3), (1, 2 / 3)]) == [(0, 1), (1, 2)]
    with pytest.raises(LudothekError, match="not a chance node"):
        fairdice.weights([])
    with pytest.raises(LudothekError, match="0 or more"):
        fairdice.weights([(0, -0.5), (1, 1.5)])


@pytest.mark.parametrize("outcomes", [
    [(a, 1 / 6) for a in range(6)],
    [(0, 0.5), (1, 0.3), (2, 0.2)],
    [(10, 1 / 3), (11, 1 / 3), (12, 1 / 3)],
    [(0, 0.0), (1, 0.25), (2, 0.75)],
])
def test_the_outcomes_follow_their_probabilities(outcomes):
    """36,000 plies of one secret: every count within 5 standard deviations of its expectation
    and the chi-square statistic below its 99.99th percentile (deterministic: a fixed secret)."""
    plies = 36_000
    counts = Counter(fairdice.outcome(SECRET, "gameid", ply, outcomes) for ply in range(plies))
    chi_square = 0.0
    for action, p in outcomes:
        expected = plies * p
        if p == 0:
            assert counts[action] == 0
            continue
        sd = (plies * p * (1 - p)) ** 0.5
        assert abs(counts[action] - expected) < 5 * sd, (action, counts)
        chi_square += (counts[action] - expected) ** 2 / expected
    assert chi_square < 25.7, counts  # chi-square with <= 5 degrees of freedom: 99.99% below 25.7
    assert set(counts) <= {a for a, _ in outcomes}


def test_an_outcome_depends_on_secret_game_and_ply_only():
    outcomes = [(a, 1 / 6) for a in range(6)]
    first = [fairdice.outcome(SECRET, "g1", ply, outcomes) for ply in range(200)]
    assert first == [fairdice.outcome(SECRET, "g1", ply, outcomes) for ply in range(200)]
    assert first == [fairdice.outcome(SECRET, "g1", ply, list(reversed(outcomes))) for ply in range(200)]
    assert first != [fairdice.outcome(OTHER, "g1", ply, outcomes) for ply in range(200)]
    assert first != [fairdice.outcome(SECRET, "g2", ply, outcomes) for ply in range(200)]


def test_a_roll_is_bound_to_the_action_chosen_before_it():
    """Scheme 2: the message is GAMEID:PLY:CHOSEN, so rolling another die at the same ply is
    another, independent draw (over 60 plies the faces of two choices differ somewhere)."""
    outcomes = [(a, 1 / 6) for a in range(6)]
    b4 = [fairdice.outcome(SECRET, "g1", ply, outcomes, "B4W") for ply in range(60)]
    b5 = [fairdice.outcome(SECRET, "g1", ply, outcomes, "B5W") for ply in range(60)]
    assert b4 != b5
    assert b4 != [fairdice.outcome(SECRET, "g1", ply, outcomes) for ply in range(60)]  # scheme 1's message
    # the message as documented, computed by hand: HMAC-SHA256(secret, "g1:7:B4W"), 8 bytes mod 6
    value = int.from_bytes(hmac.new(SECRET.encode(), b"g1:7:B4W", hashlib.sha256).digest()[:8], "big")
    assert value < (1 << 64) - (1 << 64) % 6  # not a rejected number (else the next digest counts)
    assert b4[7] == value % 6


@needs_chance
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_roll_binds_the_notation_of_the_action_before_the_chance_node(game):
    state = game_class(game)()
    if state.current_player() == CHANCE:  # a roll at the setup position follows no choice
        assert fairdice.chosen_before(state) == ""
        state.play(fairdice.roll(state, SECRET, "g9"))
    action = next(a for a in state.legal_actions() if _leads_to_chance(state, a))
    chosen = state.action_to_str(action)
    unwritten = state.copy()
    unwritten.apply_action(action)  # a search's step: no notation kept
    state.play(action)
    assert fairdice.chosen_before(state) == chosen and fairdice.chosen_before(unwritten) == chosen
    assert fairdice.roll(state, SECRET, "g9") == fairdice.outcome(SECRET, "g9", state.ply, state.chance_outcomes(), chosen)
    assert fairdice.roll(state, SECRET, "g9", scheme=1) == fairdice.outcome(SECRET, "g9", state.ply,
                                                                              state.chance_outcomes())


def test_a_rejected_number_draws_the_next_one():
    """A total just above 2^63 rejects nearly half the 64-bit numbers: the draw stays in range,
    deterministic, and spread over the whole range."""
    total = (1 << 63) + 1
    key = SECRET.encode("ascii")
    values = [fairdice._uniform(key, f"g:{ply}", total) for ply in range(300)]
    assert values == [fairdice._uniform(key, f"g:{ply}", total) for ply in range(300)]
    assert all(0 <= v < total for v in values)
    assert sum(v >= total // 2 for v in values) > 100 and sum(v < total // 2 for v in values) > 100


def test_the_roll_for_the_first_move_follows_from_the_secret():
    colours = ("white", "black")
    rolls = {fairdice.roll_first(colours, "high", SECRET, f"g{n}") for n in range(60)}
    assert fairdice.roll_first(colours, "high", SECRET, "g1") == fairdice.roll_first(colours, "high", SECRET, "g1")
    assert {first for first, _ in rolls} == {"white", "black"}  # both start sometimes
    for first, text in rolls:
        last = text.split("; ")[-1]
        (c0, a), (c1, b) = (part.split() for part in last.split(", "))
        assert (c0, c1) == colours and a != b and first == (c0 if int(a) > int(b) else c1)


# ---------------------------------------------------------------------------- verify
def _fair_record(game: str, seed: int, secret: str = SECRET, game_id: str = "testgame1",
                 scheme: int = fairdice.SCHEME) -> Record:
    """A random game whose rolls come from the secret, with the fair-dice tags."""
    rng = random.Random(seed)
    state = game_class(game)()
    while not state.is_over() and state.ply < 60:
        if state.current_player() == CHANCE:
            state.play(fairdice.roll(state, secret, game_id, scheme))
        else:
            state.play(rng.choice(state.legal_actions()))
    return Record.from_state(state, **fairdice.tags(game_id, secret, reveal=True, scheme=scheme))


@needs_chance
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_records_of_both_schemes_verify_and_the_scheme_tag_decides(game):
    old = _fair_record(game, seed=5, scheme=1)
    new = _fair_record(game, seed=5)
    assert "DiceScheme" not in old.tags and new.tags["DiceScheme"] == "2"
    assert fairdice.verify(old).ok and fairdice.verify(dumps(old)).ok
    assert fairdice.verify(new).ok and fairdice.verify(dumps(new)).ok
    # read with the other scheme, some roll of a long enough game differs
    swapped = dict(new.tags)
    del swapped["DiceScheme"]
    assert fairdice.verify(dataclasses.replace(new, tags=swapped)).problem in ("roll", "broken")
    report = fairdice.verify(dataclasses.replace(new, tags=dict(new.tags, DiceScheme="3")))
    assert report.problem == "scheme" and "DiceScheme" in str(report) and "1, 2" in str(report)


def _chance_plies(record: Record) -> list[int]:
    state = game_class(record.game)(record.position, **record.options)
    plies = []
    for action in record.replay().history:
        if state.current_player() == CHANCE:
            plies.append(state.ply)
        state.play(action)
    return plies


@needs_chance
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_a_fair_record_verifies_and_a_changed_outcome_is_named(game):
    record = _fair_record(game, seed=3)
    plies = _chance_plies(record)
    assert plies
    report = fairdice.verify(record)
    assert report.ok and report.rolls == len(plies), report
    assert fairdice.verify(dumps(record)).ok
    # change the outcome of one roll (the record then ends there)
    bad_ply = plies[len(plies) // 2]
    actions = record.replay().history
    state = game_class(game)()
    for action in actions[:bad_ply]:
        state.play(action)
    other = next(a for a, p in state.chance_outcomes() if a != actions[bad_ply] and p > 0)
    state.play(other)
    tampered = Record.from_state(state, result="*", **record.tags)
    report = fairdice.verify(tampered)
    assert not report.ok and report.problem == "roll" and report.ply == bad_ply + 1, report
    assert report.found == state.played(bad_ply)[1] and f"ply {bad_ply + 1}" in str(report)
    # the same, in a text whose later moves (written after the changed roll) need not replay
    text = dumps(tampered).replace(" *\n", " " + " ".join(record.moves[len(tampered.moves):]) + " *\n")
    report = fairdice.verify(text)
    assert report.problem == "roll" and report.ply == bad_ply + 1, report


@needs_chance
def test_a_changed_secret_or_missing_tags_fail():
    game = CHANCE_GAMES[0]
    record = _fair_record(game, seed=4)
    changed = Record(record.game, record.options, record.moves, record.result, record.position,
                     {**record.tags, "DiceSecret": OTHER})
    report = fairdice.verify(changed)
    assert report.problem == "commitment" and not report.ok
    # a secret changed together with its commitment: the first roll no longer matches
    both = Record(record.game, record.options, record.moves, record.result, record.position,
                  {**record.tags, **fairdice.tags("testgame1", OTHER, reveal=True)})
    report = fairdice.verify(both)
    assert not report.ok and report.problem == "roll" and report.ply - 1 in _chance_plies(record), report
    unrevealed = {k: v for k, v in record.tags.items() if k != "DiceSecret"}
    assert fairdice.verify(Record(record.game, record.options, record.moves, record.result, record.position,
                                  unrevealed)).problem == "unrevealed"
    assert fairdice.verify(Record(record.game, record.options, record.moves, record.result, record.position,
                                  {})).problem == "unfair"
    bad = {**record.tags, "DiceSecret": "zz"}
    assert fairdice.verify(Record(record.game, record.options, record.moves, record.result, record.position,
                                  bad)).problem == "secret"
    with pytest.raises(RecordError):
        fairdice.verify("this is no record")


def test_a_forged_roll_for_the_first_move_fails():
    game = next((g for g in ludothek.games() if any(o.name == "first" for o in game_class(g).OPTIONS)), None)
    if game is None:
        pytest.skip("no game with a 'first' option")
    cls = game_class(game)
    first, rolls = fairdice.roll_first(cls.colours, "high", SECRET, "g7")
    tags = {"StartRoll": f"high: {rolls}", **fairdice.tags("g7", SECRET, reveal=True)}
    record = Record.from_state(cls(first=first), **tags)
    report = fairdice.verify(record)
    assert report.ok and report.start_roll and report.rolls == 0
    loser = next(c for c in cls.colours if c != first)
    forged = Record.from_state(cls(first=loser), **tags)
    assert fairdice.verify(forged).problem == "start_roll"
    a, b = (6, 1) if loser == cls.colours[0] else (1, 6)
    forged_tags = {**tags, "StartRoll": f"high: {cls.colours[0]} {a}, {cls.colours[1]} {b}"}
    assert fairdice.verify(Record.from_state(cls(first=loser), **forged_tags)).problem == "start_roll"


# ---------------------------------------------------------------------------- the command
def _invoke(*args):
    return CliRunner().invoke(main, list(args))


def rolls_verified(count: int) -> str:
    return f"{count} roll verified" if count == 1 else f"{count} rolls verified"


def _no_dice_game() -> str | None:
    return next((g for g in ludothek.games() if g not in CHANCE_GAMES
                 and not any(o.name == "first" for o in game_class(g).OPTIONS)), None)


def test_verify_on_a_game_without_dice_says_so_and_succeeds(tmp_path):
    """Issue 33, item 7: not "the dice were not rolled from a committed secret" but: no dice."""
    game = _no_dice_game()
    if game is None:
        pytest.skip("every installed game rolls dice")
    state = game_class(game)()
    rng = random.Random(2)
    for _ in range(4):
        if not state.is_over():
            state.play(rng.choice(state.legal_actions()))
    path = tmp_path / "nodice.ludo"
    path.write_text(dumps(Record.from_state(state)), encoding="utf-8")
    report = fairdice.verify(dumps(Record.from_state(state)))
    assert report.ok and not report.dice and report.rolls == 0
    result = _invoke("verify", str(path), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{path}: no dice were rolled in this game: nothing to verify."
    german = _invoke("verify", str(path), "--lang", "de")
    assert german.exit_code == 0 and "in dieser Partie wurde nicht gewürfelt: nichts zu prüfen" in german.output


@needs_chance
def test_a_record_that_rolled_without_commitment_is_still_unfair():
    record = _fair_record(CHANCE_GAMES[0], seed=4)
    assert _chance_plies(record)
    bare = Record(record.game, record.options, record.moves, record.result, record.position, {})
    assert fairdice.verify(bare).problem == "unfair"
    # before its first roll, a game of dice has rolled none: nothing to verify
    fresh = Record.from_state(game_class(CHANCE_GAMES[0])())
    assert fairdice.verify(fresh).ok and not fairdice.verify(fresh).dice


@needs_chance
def test_one_roll_is_one_roll_in_both_languages(tmp_path):
    """Issue 33, item 7: "1 roll verified", not "1 rolls verified"."""
    game = CHANCE_GAMES[0]
    rng = random.Random(1)
    state = game_class(game)()
    while state.current_player() != CHANCE:
        state.play(rng.choice(state.legal_actions()))
    state.play(fairdice.roll(state, SECRET, "onegame", fairdice.SCHEME))
    record = Record.from_state(state, result="*", **fairdice.tags("onegame", SECRET, reveal=True))
    path = tmp_path / "one.ludo"
    path.write_text(dumps(record), encoding="utf-8")
    assert fairdice.verify(record).rolls == 1
    result = _invoke("verify", str(path), "--lang", "en")
    assert result.exit_code == 0 and result.output.strip() == f"{path}: 1 roll verified.", result.output
    german = _invoke("verify", str(path), "--lang", "de")
    assert german.output.strip() == f"{path}: 1 Wurf geprüft.", german.output
    assert str(fairdice.verify(record)) == "1 roll verified"


@needs_chance
def test_verify_command_exit_codes_and_messages(tmp_path):
    record = _fair_record(CHANCE_GAMES[0], seed=5)
    good = tmp_path / "good.ludo"
    good.write_text(dumps(record), encoding="utf-8")
    result = _invoke("verify", str(good), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert rolls_verified(len(_chance_plies(record))) in result.output
    assert "Würfe geprüft" in _invoke("verify", str(good), "--lang", "de").output
    tampered = tmp_path / "tampered.ludo"
    tampered.write_text(dumps(record).replace(record.tags["DiceSecret"], OTHER), encoding="utf-8")
    result = _invoke("verify", str(tampered), "--lang", "en")
    assert result.exit_code == 1 and "does not match the DiceCommitment" in result.output
    # files that are no records: one clean error line, exit status 2
    for path, words in ((tmp_path / "missing.ludo", "cannot read"), (tmp_path / "garbage.ludo", "Game")):
        if path.name == "garbage.ludo":
            path.write_text("nothing here\n", encoding="utf-8")
        result = _invoke("verify", str(path))
        assert result.exit_code == 2 and result.output.startswith("error: ") and words in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1
    binary = tmp_path / "binary.ludo"
    binary.write_bytes(b"\xff\xfe\x00")
    result = _invoke("verify", str(binary))
    assert result.exit_code == 2 and "UTF-8" in result.output


# ---------------------------------------------------------------------------- the web app
@pytest.fixture()
def client(tmp_path):
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ludothek.web import create_app

    app = create_app(str(tmp_path / "web.sqlite3"), bot_executor="thread", rate_limits="off")
    with TestClient(app) as test_client:
        yield test_client


def _view(client, game_id, token=None):
    headers = {"X-Ludothek-Token": token} if token else {}
    response = client.get(f"/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["game"]


def _record(client, game_id) -> Record:
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    return loads(response.text)


def _wait_for_my_turn(client, game_id, seat):
    for _ in range(600):  # the bot moves in a thread; no assertion on how long it takes
        view = _view(client, game_id)
        if view["status"] != "ongoing" or view["to_seat"] == seat:
            return view
        time.sleep(0.05)
    raise AssertionError("the bot never answered")


def _rolls(record: Record) -> dict[int, int]:
    state = game_class(record.game)(record.position, **record.options)
    found = {}
    for action in record.replay().history:
        if state.current_player() == CHANCE:
            found[state.ply] = action
        state.play(action)
    return found


def _post(client, game_id, action, token, **body):
    return client.post(f"/api/games/{game_id}/{action}", json={"token": token, **body})


def _roll_move(client, game_id) -> tuple[str, int]:
    """A move of the player to move after which the server rolls, and the ply it is made at."""
    state = _record(client, game_id).replay()
    action = next(a for a in state.legal_actions() if _leads_to_chance(state, a))
    return state.action_to_str(action), state.ply


@needs_chance
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_a_shown_roll_is_never_undone_against_a_bot(client, game):
    created = client.post("/api/games", json={"game": game, "opponent": "bot", "bot": "random", "seat": 0,
                                              "start": "fixed"})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    view = _wait_for_my_turn(client, game_id, 0)
    text, ply = _roll_move(client, game_id)
    response = _post(client, game_id, "move", token, move=text)
    assert response.status_code == 200, response.text
    face = _rolls(_record(client, game_id))[ply + 1]
    view = _wait_for_my_turn(client, game_id, 0)
    if view["status"] != "ongoing":
        pytest.skip("the random bot ended the game at once")
    assert view["undo"] is False and view["undo_blocked"] == "roll" and view["roll_floor"] >= ply + 2
    refused = _post(client, game_id, "undo", token)
    assert refused.status_code == 409 and refused.json()["key"] == "web.undo_past_roll", refused.text
    assert _view(client, game_id)["plies"] == view["plies"] and _rolls(_record(client, game_id))[ply + 1] == face
    # a move after the roll can be undone again, down to the roll and no further
    state = _record(client, game_id).replay()
    quiet = [a for a in state.legal_actions() if not _leads_to_chance(state, a)]
    if not quiet:
        return
    plies = _view(client, game_id)["plies"]
    assert _post(client, game_id, "move", token, move=state.action_to_str(quiet[0])).status_code == 200
    after = _wait_for_my_turn(client, game_id, 0)
    if after["status"] != "ongoing":
        return
    if max(_rolls(_record(client, game_id))) > plies:  # the bot's reply was a roll: that one stays now
        assert after["undo"] is False and after["undo_blocked"] == "roll"
        return
    assert after["undo"] is True and after["undo_blocked"] is None
    undone = _post(client, game_id, "undo", token)
    assert undone.status_code == 200, undone.text
    assert undone.json()["game"]["plies"] == plies
    assert _rolls(_record(client, game_id))[ply + 1] == face


@needs_chance
def test_a_takeback_past_a_shown_roll_is_refused_online(client):
    game = CHANCE_GAMES[0]
    created = client.post("/api/games", json={"game": game, "opponent": "friend", "start": "fixed"}).json()
    game_id, tokens = created["id"], [created["token"], None]
    joined = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    tokens[1] = joined.json()["token"]
    view = _view(client, game_id)
    mover = view["to_seat"]
    text, ply = _roll_move(client, game_id)
    assert _post(client, game_id, "move", tokens[mover], move=text).status_code == 200
    view = _view(client, game_id)
    assert view["takeback"][mover] is False and view["moved"][mover] is True
    refused = _post(client, game_id, "offer", tokens[mover], kind="takeback")
    assert refused.status_code == 409 and refused.json()["key"] == "web.takeback_past_roll", refused.text
    assert _view(client, game_id)["offer"] is None


CALLS = st.lists(st.tuples(st.integers(0, 1), st.sampled_from(["move", "move", "undo", "offer", "answer"]),
                           st.integers(0, 10**6)), min_size=4, max_size=14)


@needs_chance
@settings(max_examples=12)
@given(game=st.sampled_from(CHANCE_GAMES or ["none"]), opponent=st.sampled_from(["bot", "friend"]), calls=CALLS)
def test_no_sequence_of_calls_learns_a_face_before_committing_to_the_die(tmp_path_factory, game, opponent, calls):
    """Any sequence of moves, undos, takeback offers and answers, against a bot and online: once
    a roll was shown, it and every action before it stay as they were. So a player never sees
    a face and then commits to a different choice at that ply. (Every call is drawn up front:
    the bot's timing must not change what hypothesis draws.)"""
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ludothek.web import create_app

    db = str(tmp_path_factory.mktemp("dice") / "web.sqlite3")
    with TestClient(create_app(db, bot_executor="thread", rate_limits="off")) as client:
        spec = {"game": game, "opponent": opponent, "bot": "random", "seat": 0, "start": "fixed"}
        created = client.post("/api/games", json=spec).json()
        game_id, tokens = created["id"], [created["token"], created["token"]]
        if opponent == "friend":
            tokens[1] = client.post(f"/api/games/{game_id}/join", json={"invite": created["invite"]}).json()["token"]
        shown: list = []  # the actions up to and including the last roll anybody has seen
        for seat, kind, pick in calls:
            view = _wait_for_my_turn(client, game_id, 0) if opponent == "bot" else _view(client, game_id)
            if view["status"] != "ongoing":
                break
            if opponent == "bot":
                seat = 0
            if kind == "move" and view["to_seat"] == seat:
                move = view["moves"][pick % len(view["moves"])]["move"]
                _post(client, game_id, "move", tokens[seat], move=move, ply=view["plies"])
            elif kind == "undo":
                _post(client, game_id, "undo", tokens[seat])
            elif kind == "offer":
                _post(client, game_id, "offer", tokens[seat], kind="takeback")
            elif kind == "answer":
                _post(client, game_id, "answer", tokens[seat], accept=True)
            record = _record(client, game_id)
            history = record.replay().history
            assert history[:len(shown)] == shown, "a shown roll, or an action before it, was taken back"
            rolls = _rolls(record)
            if rolls:
                shown = history[:max(rolls) + 1]


@needs_chance
def test_the_secret_is_shown_once_the_game_is_over_and_the_record_verifies(client, tmp_path):
    game = CHANCE_GAMES[0]
    created = client.post("/api/games", json={"game": game, "opponent": "hotseat", "start": "fixed"}).json()
    game_id, token = created["id"], created["token"]
    rng = random.Random(2)
    for _ in range(12):
        view = _view(client, game_id)
        if view["status"] != "ongoing":
            break
        move = rng.choice(view["moves"])["move"]
        assert client.post(f"/api/games/{game_id}/move", json={"token": token, "move": move}).status_code == 200
    view = _view(client, game_id)
    commitment = view["dice"]["commitment"]
    assert view["dice"]["secret"] is None
    record = _record(client, game_id)
    assert record.tags["DiceCommitment"] == commitment and record.tags["GameId"] == game_id
    assert "DiceSecret" not in record.tags
    assert fairdice.verify(record).problem == "unrevealed"
    if view["status"] == "ongoing":
        response = client.post(f"/api/games/{game_id}/resign", json={"token": token})
        assert response.status_code == 200, response.text
    view = _view(client, game_id)
    secret = view["dice"]["secret"]
    assert view["status"] == "over" and hashlib.sha256(secret.encode()).hexdigest() == commitment
    assert view["dice"]["commitment"] == commitment
    path = tmp_path / "web.ludo"
    path.write_text(client.get(f"/api/games/{game_id}/record").text, encoding="utf-8")
    assert loads(path.read_text("utf-8")).tags["DiceSecret"] == secret
    result = _invoke("verify", str(path), "--lang", "en")
    rolls = len(_rolls(loads(path.read_text("utf-8"))))
    assert result.exit_code == 0 and rolls_verified(rolls) in result.output, result.output
    # one outcome changed in the downloaded record: named by its ply
    record = loads(path.read_text("utf-8"))
    ply = max(_rolls(record))
    state = game_class(game)()
    for action in record.replay().history[:ply]:
        state.play(action)
    state.play(next(a for a, p in state.chance_outcomes() if a != _rolls(record)[ply] and p > 0))
    path.write_text(dumps(Record.from_state(state, result="*", **record.tags)), encoding="utf-8")
    result = _invoke("verify", str(path), "--lang", "en")
    assert result.exit_code == 1 and f"ply {ply + 1}" in result.output, result.output


def test_a_game_without_dice_shows_none(client):
    game = next((g for g in ludothek.games() if g not in CHANCE_GAMES and not any(
        o.name == "first" for o in game_class(g).OPTIONS)), None)
    if game is None:
        pytest.skip("every game rolls dice")
    created = client.post("/api/games", json={"game": game, "start": "fixed"}).json()
    assert _view(client, created["id"])["dice"] is None
    assert "DiceCommitment" not in _record(client, created["id"]).tags


def test_the_start_roll_is_verifiable(client, tmp_path):
    game = next((g for g in ludothek.games() if any(o.name == "first" for o in game_class(g).OPTIONS)), None)
    if game is None:
        pytest.skip("no game with a 'first' option")
    created = client.post("/api/games", json={"game": game, "start": "low"}).json()
    view = _view(client, created["id"])
    assert view["tags"]["StartRoll"].startswith("low:") and view["dice"]["commitment"]
    client.post(f"/api/games/{created['id']}/resign", json={"token": created["token"]})
    report = fairdice.verify(_record(client, created["id"]))
    assert report.ok and report.start_roll, report


@needs_chance
def test_a_game_from_before_the_secrets_still_rolls(tmp_path):
    """A game stored without a secret (created before migration 0003) keeps playing: its dice
    come from the system's random source, and it shows no dice commitment."""
    pytest.importorskip("starlette")
    sqlalchemy = pytest.importorskip("sqlalchemy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ludothek.web import create_app

    db = str(tmp_path / "old.sqlite3")
    game = CHANCE_GAMES[0]
    with TestClient(create_app(db, bot_executor="thread", rate_limits="off")) as client:
        created = client.post("/api/games", json={"game": game, "start": "fixed"}).json()
    engine = sqlalchemy.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("UPDATE games SET dice_secret = NULL"))
    engine.dispose()
    with TestClient(create_app(db, bot_executor="thread", rate_limits="off")) as client:
        game_id, token = created["id"], created["token"]
        assert _view(client, game_id)["dice"] is None
        state = _record(client, game_id).replay()
        action = next(a for a in state.legal_actions() if _leads_to_chance(state, a))
        response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": state.action_to_str(action)})
        assert response.status_code == 200, response.text
        record = _record(client, game_id)
        assert state.ply + 1 in _rolls(record) and "DiceCommitment" not in record.tags


@needs_chance
def test_the_secret_survives_a_restart_of_the_server(tmp_path):
    """The secret is stored with the game: after a restart the commitment is the same and the
    rolls made before and after it all verify."""
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ludothek.web import create_app

    db = str(tmp_path / "restart.sqlite3")
    game = CHANCE_GAMES[0]

    def roll_once(client, game_id, token):
        state = _record(client, game_id).replay()
        action = next(a for a in state.legal_actions() if _leads_to_chance(state, a))
        response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": state.action_to_str(action)})
        assert response.status_code == 200, response.text

    with TestClient(create_app(db, bot_executor="thread", rate_limits="off")) as client:
        created = client.post("/api/games", json={"game": game, "start": "fixed"}).json()
        game_id, token = created["id"], created["token"]
        commitment = _view(client, game_id)["dice"]["commitment"]
        roll_once(client, game_id, token)
    with TestClient(create_app(db, bot_executor="thread", rate_limits="off")) as client:
        assert _view(client, game_id)["dice"]["commitment"] == commitment
        roll_once(client, game_id, token)
        assert client.post(f"/api/games/{game_id}/resign", json={"token": token}).status_code == 200
        record = _record(client, game_id)
    report = fairdice.verify(record)
    assert report.ok and report.rolls >= 2 and record.tags["DiceCommitment"] == commitment, report


# ---------------------------------------------------------------------------- the terminal
def _typed_roll(game: str):
    """A position of ``game`` with a person to move whose legal move leads to a roll, that
    move, and the record token of it with an outcome (the roll as typed for analysis)."""
    rng = random.Random(1)
    state = game_class(game)()
    for _ in range(400):
        if state.is_over():
            state = game_class(game)()
        if state.current_player() == CHANCE:
            state.play(rng.choice([a for a, p in state.chance_outcomes() if p > 0]))
            continue
        leading = [a for a in state.legal_actions() if _leads_to_chance(state, a)]
        if leading:
            probe = state.copy()
            probe.play(leading[0])
            probe.play(probe.chance_outcomes()[-1][0])
            return state, state.action_to_str(leading[0]), probe.record_tokens()[-1], probe.history[-1]
        state.play(rng.choice(state.legal_actions()))
    raise AssertionError(f"no roll found in {game}")


def _terminal(state, vs, seat, lines, **extra):
    output = io.StringIO()
    answers = iter(lines)

    def read(prompt):
        output.write(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(state, vs=vs, me="human", seat=seat, lang=extra.pop("lang", "en"), rng=random.Random(3),
                        console=Console(file=output, width=200, color_system=None), read=read, **extra)
    return game, output


@needs_chance
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_the_terminal_refuses_a_typed_outcome_against_an_agent(game):
    state, _roll_text, typed, outcome = _typed_roll(game)
    seat = state.current_player()
    ply = state.ply
    session, output = _terminal(state.copy(), "random", seat, [typed, "quit"])
    session.run()
    text = output.getvalue()
    assert "the program rolls the dice (fair dice)" in text and "without its outcome" in text, text
    assert session.state.ply == ply  # nothing was played
    assert f"fingerprint is {fairdice.commitment(session.dice_secret)}" in text
    assert f"The dice secret: {session.dice_secret}" in text  # revealed when the session ends
    session, output = _terminal(state.copy(), "random", seat, [typed, "quit"], lang="de")
    session.run()
    assert "würfelt das Programm (faire Würfel)" in output.getvalue()
    # hot-seat: the typed outcome is played (analysis)
    session, output = _terminal(state.copy(), "human", seat, [typed, "quit"])
    session.run()
    assert session.state.ply == ply + 2 and session.state.history[-1] == outcome, output.getvalue()
    assert "fair dice" not in output.getvalue()


@needs_chance
def test_the_terminal_rolls_fair_against_an_agent_and_the_saved_record_verifies(tmp_path):
    game = CHANCE_GAMES[0]
    state, roll_text, _typed, _outcome = _typed_roll(game)
    seat = state.current_player()
    path = tmp_path / "terminal.ludo"
    secret = fairdice.new_secret()
    session, output = _terminal(state.copy(), "random", seat, [roll_text, "undo", "quit", "y", str(path)],
                                interactive=True, dice_secret=secret, game_id="term1")
    session.run()
    text = output.getvalue()
    expected = fairdice.outcome(secret, "term1", state.ply + 1, _after(state, roll_text).chance_outcomes(), roll_text)
    assert session.state.history[state.ply + 1] == expected, text
    # the roll was shown: undo refuses to take it back, and the agent's reply stays too
    assert "a shown roll is never taken back" in text and session.state.ply > state.ply + 1, text
    record = loads(path.read_text("utf-8"))
    assert record.tags["DiceSecret"] == secret and record.tags["GameId"] == "term1"
    report = fairdice.verify(record)
    assert report.ok and report.rolls >= 1, report


def _after(state, text):
    probe = state.copy()
    probe.play(text)
    return probe


@needs_chance
def test_a_whole_terminal_game_between_agents_reveals_the_secret_in_its_record(tmp_path):
    # the game with the shortest random games
    game = min(CHANCE_GAMES, key=lambda g: game_class(g)().random_playouts(20, 1)[0])
    path = tmp_path / "agents.ludo"
    output = io.StringIO()
    answers = iter(["y", str(path)])
    session = TerminalGame(game_class(game)(), vs="random", me="random", seat=0, lang="en", rng=random.Random(4),
                           console=Console(file=output, width=200, color_system=None),
                           read=lambda prompt: next(answers), interactive=True)
    session.run()
    assert session.state.is_over() and session.revealed
    record = loads(path.read_text("utf-8"))
    report = fairdice.verify(record)
    assert report.ok and report.rolls == len(_rolls(record)) > 0, report
    result = _invoke("verify", str(path), "--lang", "en")
    assert result.exit_code == 0 and rolls_verified(report.rolls) in result.output


@needs_chance
def test_the_play_command_refuses_a_typed_outcome_against_a_bot():
    game, found = None, None
    for name in CHANCE_GAMES:
        state = game_class(name)()
        if state.current_player() == 0 and any(_leads_to_chance(state, a) for a in state.legal_actions()):
            game = name
            action = next(a for a in state.legal_actions() if _leads_to_chance(state, a))
            probe = state.copy()
            probe.play(action)
            probe.play(probe.chance_outcomes()[0][0])
            found = probe.record_tokens()[-1]
            break
    if game is None:
        pytest.skip("no game whose first player can roll at once")
    result = CliRunner().invoke(main, ["play", game, "--vs", "random", "--start", "fixed", "--lang", "en"],
                                input=f"{found}\nquit\n")
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.split())  # the console wraps long lines
    assert "Fair dice" in words and "type the roll without its outcome" in words, words
    assert "The dice secret:" in words
    hot = CliRunner().invoke(main, ["play", game, "--start", "fixed", "--lang", "en"], input=f"{found}\nquit\n")
    words = " ".join(hot.output.split())
    assert hot.exit_code == 0 and "without its outcome" not in words and "Fair dice" not in words, words
    assert found in words  # the position after the typed roll and outcome is drawn


@needs_chance
def test_verify_command_names_an_unknown_dice_scheme(tmp_path):
    record = _fair_record(CHANCE_GAMES[0], seed=2)
    path = tmp_path / "future.ludo"
    path.write_text(dumps(dataclasses.replace(record, tags=dict(record.tags, DiceScheme="7"))), encoding="utf-8")
    result = _invoke("verify", str(path), "--lang", "en")
    assert result.exit_code == 1 and "DiceScheme" in result.output and "'7'" in result.output, result.output
    result = _invoke("verify", str(path), "--lang", "de")
    assert result.exit_code == 1 and "keines, das diese Version kennt" in result.output, result.output
