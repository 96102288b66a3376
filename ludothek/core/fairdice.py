"""Provably fair dice: every chance outcome of a game follows from a secret fixed at its start.

A game that is to be played fair gets a **secret** when it is created: 32 random bytes, written
as 64 lower-case hex digits. Its **commitment**, the SHA-256 of that text, is published from the
start (in the web view and in the record's ``DiceCommitment`` tag); the secret itself only once
the game is over (``DiceSecret``). Nobody can then have changed a roll: anyone can check that the
secret hashes to the commitment and re-derive every roll from it (``ludothek verify FILE``).

The roll at ply ``p`` (the ``p``-th action from the setup position, counting from 0) of game
``game_id`` is derived from ::

    HMAC-SHA256(key = the secret's 64 hex digits as ASCII, message = f"{game_id}:{p}:{chosen}")

where ``chosen`` is the notation of the action just before the roll (the player's choice of
die, ``B5W`` for a roll of the die on B5; empty at ply 0), and nothing else. So replaying the
game or a server crash between roll and commit never change what the die shows, and no choice
inherits another choice's face: rolling the die on B4 instead of B5 at the same ply is another
message. (Records written before December 2026 have no ``DiceScheme`` tag and used the message
``f"{game_id}:{p}"``, scheme 1; :func:`verify` checks them so.) How a digest becomes an outcome
(:func:`outcome`), exactly for the probabilities:

1. The outcomes ``(action, probability)`` of the state's ``chance_outcomes()`` are sorted by
   action. Each probability is read as the nearest fraction with a denominator up to 2^16 (the
   float ``1/6`` is exactly 1/6), and all are brought to a common denominator: whole weights
   ``w_i`` with total ``T``. (Should that denominator exceed 2^48, which no game does, the
   weights are ``round(probability * 2^48)``.)
2. ``u`` is the first 8 bytes of the digest, a big-endian number in ``0 … 2^64 - 1``. If ``u`` is
   below the largest multiple of ``T`` not above 2^64, ``r = u mod T`` is uniform on
   ``0 … T - 1``; otherwise (a chance below ``T / 2^64``) the next digest,
   ``HMAC(secret, f"{game_id}:{p}:{k}")`` for ``k = 1, 2, …``, is tried.
3. The outcome is the first ``i`` whose cumulative weight ``w_0 + … + w_i`` exceeds ``r``.

So an outcome of probability ``w_i / T`` comes up with exactly that probability, given an HMAC
that cannot be told from random. The roll for who moves first (:func:`seat_dice`) reads the
messages ``f"{game_id}:first:{n}"`` (``n = 0, 1, …``, one per die) the same way, each a uniform
whole number from the die's range.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm
from typing import Any

from .errors import LudothekError, RecordError, shown
from .messages import Message, colour
from .protocol import CHANCE, GameState
from .seating import roll_for_first
from .texts import TEXTS

#: record tags: the game's id (part of every HMAC message), the commitment, the secret
TAG_GAME_ID = "GameId"
TAG_COMMITMENT = "DiceCommitment"
TAG_SECRET = "DiceSecret"
#: the tag the roll for the first move is written in (``"high: white 3, black 5"``)
TAG_START_ROLL = "StartRoll"
#: the tag naming how a roll's message is formed: "2" binds the chosen action (above); records
#: without it are scheme 1 (the game's id and the ply only)
TAG_SCHEME = "DiceScheme"
SCHEME = 2
SCHEMES = (1, 2)
SECRET_BYTES = 32
_SECRET = re.compile(r"[0-9a-f]{64}")
_DENOMINATOR = 1 << 16
_FALLBACK = 1 << 48
_SPAN = 1 << 64


def new_secret() -> str:
    """A fresh secret: 32 random bytes from the operating system, as 64 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def is_secret(value: Any) -> bool:
    """Whether ``value`` is a secret as :func:`new_secret` writes it."""
    return isinstance(value, str) and _SECRET.fullmatch(value) is not None


def commitment(secret: str) -> str:
    """What is published before the first roll: SHA-256 of the secret's text, in hex
    (``printf %s SECRET | sha256sum`` gives the same)."""
    return hashlib.sha256(_key(secret)).hexdigest()


def _key(secret: str) -> bytes:
    if not is_secret(secret):
        raise LudothekError(TEXTS("dice_secret", value=shown(secret)))
    return secret.encode("ascii")


def _uniform(key: bytes, message: str, total: int) -> int:
    """A whole number uniform on ``0 … total - 1`` from the HMAC of ``message`` (steps 2 above)."""
    limit = _SPAN - _SPAN % total
    attempt = 0
    while True:
        text = message if attempt == 0 else f"{message}:{attempt}"
        digest = hmac.new(key, text.encode("utf-8"), hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % total
        attempt += 1


def weights(outcomes: Sequence[tuple[int, float]]) -> list[tuple[int, int]]:
    """The outcomes sorted by action with whole weights in the exact ratio of their
    probabilities (step 1 above)."""
    if not outcomes:
        raise LudothekError(TEXTS("dice_no_outcomes"))
    ordered = sorted((int(action), float(p)) for action, p in outcomes)
    if any(not p >= 0 for _, p in ordered):  # also refuses NaN
        raise LudothekError(TEXTS("dice_negative", outcomes=str(ordered)))
    fractions = [Fraction(p).limit_denominator(_DENOMINATOR) for _, p in ordered]
    common = lcm(*(f.denominator for f in fractions))
    if common <= _FALLBACK:
        whole = [int(f * common) for f in fractions]
    else:
        whole = [round(p * _FALLBACK) for _, p in ordered]
    if sum(whole) <= 0:
        raise LudothekError(TEXTS("dice_zero", outcomes=str(ordered)))
    return [(action, w) for (action, _), w in zip(ordered, whole)]


def outcome(secret: str, game_id: str, ply: int, outcomes: Sequence[tuple[int, float]],
            chosen: str | None = None) -> int:
    """The chance outcome (an action of ``outcomes``, the state's ``chance_outcomes()``) that
    the secret gives at ``ply`` (the state's ``ply`` at the chance node) of game ``game_id``
    after the action written ``chosen`` (None: scheme 1, which did not bind it)."""
    weighted = weights(outcomes)
    message = f"{game_id}:{int(ply)}" if chosen is None else f"{game_id}:{int(ply)}:{chosen}"
    r = _uniform(_key(secret), message, sum(w for _, w in weighted))
    for action, w in weighted:
        if r < w:
            return action
        r -= w
    raise AssertionError("unreachable: r is below the total weight")


class SeatDice:
    """The dice of the roll for the first move: ``randint`` as :func:`roll_for_first` needs
    it, each die from the next message ``f"{game_id}:first:{n}"``."""

    def __init__(self, secret: str, game_id: str):
        self._key = _key(secret)
        self._game_id = game_id
        self._count = 0

    def randint(self, low: int, high: int) -> int:
        value = low + _uniform(self._key, f"{self._game_id}:first:{self._count}", high - low + 1)
        self._count += 1
        return value


def seat_dice(secret: str, game_id: str) -> SeatDice:
    return SeatDice(secret, game_id)


def roll_first(colours: tuple[str, str], rule: str, secret: str, game_id: str) -> tuple[str, str]:
    """The roll for who moves first (``rule`` ``high`` or ``low``) from the secret: the starting
    colour and the rolls as the ``StartRoll`` tag writes them after ``"{rule}: "``."""
    return roll_for_first(colours, rule, seat_dice(secret, game_id))


def tags(game_id: str, secret: str, reveal: bool, scheme: int = SCHEME) -> dict[str, str]:
    """The record tags of a fair game: its id, commitment and scheme, and the secret if ``reveal``."""
    found = {TAG_GAME_ID: game_id, TAG_COMMITMENT: commitment(secret)}
    if scheme != 1:
        found[TAG_SCHEME] = str(scheme)
    if reveal:
        found[TAG_SECRET] = secret
    return found


@cache
@cache
def has_chance(game: str) -> bool:
    """Whether a game rolls dice, found from its protocol: its start position, or a position
    one action later, is a chance node. (A game whose first roll can only come later is found
    by its rolls: a record or a server's moves then hold chance outcomes.)"""
    from .registry import game_class

    try:
        state = game_class(game)()
        if state.current_player() == CHANCE:
            return True
        for action in state.legal_actions():
            state.apply_action(action)
            if state.current_player() == CHANCE:
                return True
            state.undo()
    except LudothekError:
        return False
    return False


def roll(state: GameState, secret: str, game_id: str, scheme: int = SCHEME) -> int:
    """The outcome the secret gives at ``state``'s chance node (not played)."""
    return outcome(secret, game_id, state.ply, state.chance_outcomes(), None if scheme == 1 else chosen_before(state))


def chosen_before(state: GameState) -> str:
    """The notation of the action that led to ``state`` ("" at the setup position): the
    choice a roll is bound to. An action played with ``play`` kept its notation; one applied
    with ``apply_action`` (searches) has none, and is written on a copy."""
    if not state.ply:
        return ""
    action, text = state.played(state.ply - 1)
    if text:
        return text
    probe = state.copy()
    probe.undo()
    return probe.action_to_str(action)


# ---------------------------------------------------------------------------- verifying
@dataclass
class Report:
    """What :func:`verify` found. ``ok`` when the secret matches the commitment and every roll;
    else ``problem`` says which check failed:

    * ``"unfair"`` — the record has no ``DiceCommitment`` or ``GameId`` tag (its dice were not
      rolled from a committed secret);
    * ``"unrevealed"`` — no ``DiceSecret`` yet (it is revealed when the game is over);
    * ``"secret"`` — the ``DiceSecret`` is not 64 lower-case hex digits;
    * ``"scheme"`` — the ``DiceScheme`` is none this version knows;
    * ``"commitment"`` — the secret does not hash to the commitment;
    * ``"start_roll"`` — the roll for the first move (``StartRoll``) is not the secret's;
    * ``"roll"`` — the outcome at ``ply`` (1-based, in ``move``) is ``found``, the secret gives
      ``expected``;
    * ``"broken"`` — the moves stop replaying at ``ply`` (``detail`` says why) with every roll
      before it right.

    ``detail`` is a :class:`~.messages.Message` (``str()`` is English, ``.text("de")`` German).
    A record in which no die was rolled (a game without dice, or before its first roll) has
    nothing to verify: ``ok`` with ``dice`` False.
    """

    ok: bool
    rolls: int = 0
    start_roll: bool = False
    problem: str | None = None
    ply: int | None = None
    move: str | None = None
    found: str | None = None
    expected: str | None = None
    detail: Message | str = ""
    dice: bool = True

    def __str__(self) -> str:
        if self.ok and not self.dice:
            return "no dice were rolled: nothing to verify"
        if self.ok:
            extra = " and the roll for the first move" if self.start_roll else ""
            return f"{self.rolls} {'roll' if self.rolls == 1 else 'rolls'}{extra} verified"
        if self.problem == "roll":
            return (f"ply {self.ply} ({self.move}): the record has the outcome {self.found}, but the secret "
                    f"gives {self.expected}")
        return str(self.detail)


def verify(record: Any) -> Report:
    """Re-derive every chance outcome of a record (a :class:`~.record.Record` or a record's
    text) from its ``DiceSecret``, ``GameId`` and ``DiceCommitment`` tags.

    Text is read leniently: a record whose moves stop replaying (an outcome changed makes a
    later move illegal) still reports the first roll that differs; :class:`RecordError` only
    for text that is no record at all, or one that breaks before any roll differs."""
    from .record import Record, loads

    if isinstance(record, str):
        try:
            record = loads(record)
        except RecordError as exc:
            report = _verify_loosely(record)
            if report is not None and report.problem != "broken":
                return report
            raise exc from None
    if not isinstance(record, Record):
        raise RecordError(TEXTS("verify_type", kind=type(record).__name__))
    from .registry import game_class

    cls = game_class(record.game)
    return _check(cls, record.options, record.position, record.tags, record.moves)


def _check(cls: type[GameState], options: dict[str, Any], position: str | None, found_tags: dict[str, str],
           tokens: Sequence[str]) -> Report:
    game_id, committed = found_tags.get(TAG_GAME_ID), found_tags.get(TAG_COMMITMENT)
    secret = found_tags.get(TAG_SECRET)
    if not game_id or not committed:
        if TAG_START_ROLL not in found_tags and not _rolled(cls, options, position, tokens):
            return Report(True, dice=False)
        return Report(False, problem="unfair",
                      detail=TEXTS("verify_unfair", commitment=TAG_COMMITMENT, game_id=TAG_GAME_ID))
    if secret is None:
        return Report(False, problem="unrevealed", detail=TEXTS("verify_unrevealed", secret=TAG_SECRET))
    if not is_secret(secret):
        return Report(False, problem="secret", detail=TEXTS("verify_secret", secret=TAG_SECRET))
    if commitment(secret) != committed.lower():
        return Report(False, problem="commitment", detail=TEXTS(
            "verify_commitment", secret=TAG_SECRET, commitment=TAG_COMMITMENT, digest=commitment(secret)))
    scheme_text = found_tags.get(TAG_SCHEME, "1").strip()
    if scheme_text not in {str(n) for n in SCHEMES}:
        return Report(False, problem="scheme", detail=TEXTS(
            "verify_scheme", tag=TAG_SCHEME, value=shown(scheme_text), known=", ".join(map(str, SCHEMES))))
    scheme = int(scheme_text)
    start = found_tags.get(TAG_START_ROLL)
    if start is not None:
        rule, _, rolls = start.partition(":")
        rule = rule.strip()
        if rule not in ("high", "low"):
            return Report(False, problem="start_roll",
                          detail=TEXTS("verify_start_rule", tag=TAG_START_ROLL, high="high", low="low"))
        first, expected = roll_first(cls.colours, rule, secret, game_id)
        if rolls.strip() != expected or options.get("first", first) != first:
            return Report(False, problem="start_roll", detail=TEXTS(
                "verify_start_roll", rule=rule, expected=expected, first=colour(first)))
    try:
        state = cls(position, **options)
    except LudothekError as exc:
        return Report(False, problem="broken", ply=0, detail=TEXTS("verify_setup", error=exc))
    rolls = 0
    for token in tokens:
        try:
            actions = state.parse_token(token)
        except LudothekError as exc:
            return Report(False, rolls, problem="broken", ply=state.ply + 1, move=token,
                          detail=TEXTS("verify_replay", ply=state.ply + 1, move=token, error=exc))
        for action in actions:
            if state.current_player() == CHANCE:
                expected_action = roll(state, secret, game_id, scheme)
                if action != expected_action:
                    return Report(False, rolls, problem="roll", ply=state.ply + 1, move=token,
                                  found=state.action_to_str(action), expected=state.action_to_str(expected_action))
                rolls += 1
            try:
                state.play(int(action))
            except LudothekError as exc:
                return Report(False, rolls, problem="broken", ply=state.ply + 1, move=token,
                              detail=TEXTS("verify_replay", ply=state.ply + 1, move=token, error=exc))
    return Report(True, rolls, start_roll=start is not None)


def _rolled(cls: type[GameState], options: dict[str, Any], position: str | None, tokens: Sequence[str]) -> bool:
    """Whether the moves hold a chance outcome (a moves list that does not replay counts as
    rolled: what it held cannot be known)."""
    try:
        state = cls(position, **options)
        for token in tokens:
            for action in state.parse_token(token):
                if state.current_player() == CHANCE:
                    return True
                state.play(int(action))
    except LudothekError:
        return True
    return False


def _verify_loosely(text: str) -> Report | None:
    """:func:`_check` on a record's text that does not load: its tags and move words as
    :func:`~.record.loads` reads them, without its checks (``None`` if not even that)."""
    from .record import _NUMBER, _TAG, _tag_name, _unquote
    from .registry import game_class

    found: dict[str, str] = {}
    words: list[tuple[str, int]] = []
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        match = _TAG.match(line) if not in_moves else None
        if match:
            found.setdefault(match.group(1), _unquote(match.group(2)))
            continue
        in_moves = True
        words.extend((word, number) for word in line.split())
    try:
        cls = game_class(found.pop("Game", ""))
    except LudothekError:
        return None
    by_tag = {_tag_name(o.name): o.name for o in cls.OPTIONS}
    options = {by_tag[name]: found.pop(name) for name in list(found) if name in by_tag}
    position = found.pop("Position", None)
    if words and words[-1][0].lower() in {"*", "draw", *cls.colours}:
        words.pop()
    tokens = [word for word, _ in cls.join_record_words(words) if not _NUMBER.match(word)]
    return _check(cls, options, position, found, tokens)
