"""Inputs for the fuzzing suite (issue 14): valid things from random play, then mutated.

Every generator here is written once against a small :class:`Chooser` interface and used two
ways:

* by Hypothesis (``tests/test_fuzz.py``), through :class:`DrawChooser`, so failures shrink, and
* by plain seeded loops (``benchmarks/fuzz.py``), through :class:`RandomChooser`, so that long
  runs count their inputs exactly and need no Hypothesis database.

A generator returns a *case*: a small frozen dataclass of plain data (game name, options, the
actions of a random game, text) whose ``repr`` reproduces it. The checks live in
``tests/test_fuzz.py``; this module only makes inputs and never calls product code that could
refuse them (it plays legal actions of random games, reads positions and legal moves, nothing
else).

The Hypothesis strategies (``positions(game)``, ``move_cases(game)`` … at the end) wrap the same
generators with :func:`strategy`.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE

T = TypeVar("T")

#: every registered game (the suite follows the registry: a new game is fuzzed too)
GAMES: tuple[str, ...] = tuple(ludothek.games())


# ============================================================================ choosers
class Chooser:
    """Where a generator gets its decisions from. Subclasses give :meth:`integer`; the rest
    is built on it so both back ends make the same decisions from the same numbers. Choices
    shrink (under Hypothesis) towards the first item of a list and towards ``lo``."""

    def integer(self, lo: int, hi: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def choice(self, items: Sequence[T]) -> T:
        return items[self.integer(0, len(items) - 1)]

    def coin(self, p: float = 0.5) -> bool:
        """True with probability ``p`` (shrinks to False)."""
        return self.integer(0, 999) >= 1000 - int(p * 1000)

    def weighted(self, table: Sequence[tuple[int, T]]) -> T:
        """One of ``table``'s values, with integer weights (shrinks to the first entry)."""
        pick = self.integer(0, sum(w for w, _ in table) - 1)
        for weight, value in table:
            if pick < weight:
                return value
            pick -= weight
        raise AssertionError("unreachable")

    def char(self) -> str:
        """Any Unicode character but a surrogate (those cannot even be written as UTF-8)."""
        code = self.integer(0, 0x10FFFF - 0x800)
        return chr(code + 0x800 if code >= 0xD800 else code)

    def seed(self) -> int:
        return self.integer(0, 2**32 - 1)


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random | int):
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChooser(Chooser):
    """Decisions drawn by Hypothesis (``draw`` from ``@st.composite`` or ``st.data()``)."""

    def __init__(self, draw: Callable[[Any], Any]):
        self.draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))


# ============================================================================ mutations
UNICODE_DIGITS = ("²", "³", "¹", "③", "⑫", "٣", "۴", "२", "２", "𝟗", "Ⅷ", "ⅷ", "↉", "½", "᠑", "໓")
#: int() refuses more than 4,300 digits; these runs cross that line and others
HUGE_RUNS = ("9" * 4301, "1" * 5000, "0" * 5000, "9" * 40, "1" * 19, "9" * 20, "٣" * 4400)
SEPARATORS = ("/", " ", ":", "-", ",", ".", "|", "°", "*", "x", "X", "=", "^", "+", "_", "#", "@", "~")
WHITESPACE = (" ", "\t", "\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\xa0", "\u3000")
SPECIALS = ("\x00", '"', "\\", "[", "]", "{", "}", ";", "(", ")", "'", "%", "\ufeff", "\u200b", "\u0301")
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def piece(ch: Chooser) -> str:
    """One odd thing to put into a string."""
    kind = ch.weighted([
        (8, "digit"), (6, "unicode digit"), (2, "huge run"), (6, "separator"), (8, "letter"),
        (4, "whitespace"), (2, "nul"), (3, "special"), (5, "unicode"), (2, "number"),
    ])
    if kind == "digit":
        return str(ch.integer(0, 9))
    if kind == "unicode digit":
        return ch.choice(UNICODE_DIGITS)
    if kind == "huge run":
        return ch.choice(HUGE_RUNS)
    if kind == "separator":
        return ch.choice(SEPARATORS)
    if kind == "letter":
        return ch.choice(LETTERS)
    if kind == "whitespace":
        return ch.choice(WHITESPACE)
    if kind == "nul":
        return "\x00"
    if kind == "special":
        return ch.choice(SPECIALS)
    if kind == "number":
        return ch.choice(("-1", "0", "00", "-0", "1e3", "nan", "inf", str(2**63), str(2**64 + 1), "0x10", "1_0"))
    return ch.char()


def junk(ch: Chooser, max_pieces: int = 12) -> str:
    return "".join(piece(ch) for _ in range(ch.integer(0, max_pieces)))


def mutate_text(ch: Chooser, text: str, max_ops: int = 3, donors: Sequence[str] = ()) -> str:
    """``text`` after 1 … ``max_ops`` edits: insert, delete, replace, duplicate, swap,
    truncate, change case, or (with ``donors``) swap in a field of another valid string."""
    for _ in range(ch.integer(1, max_ops)):
        ops = ["insert", "delete", "replace", "duplicate", "swap", "truncate", "case"]
        if donors:
            ops.append("field")
        op = ch.choice(ops)
        n = len(text)
        i = ch.integer(0, n)
        if op == "insert" or n == 0:
            text = text[:i] + piece(ch) + text[i:]
        elif op == "delete":
            j = min(n, i + ch.integer(1, 4))
            text = text[:i] + text[j:]
        elif op == "replace":
            j = min(n, i + ch.integer(1, 3))
            text = text[:i] + piece(ch) + text[j:]
        elif op == "duplicate":
            j = min(n, i + ch.integer(1, 8))
            text = text[:j] + text[i:j] * ch.integer(1, 3) + text[j:]
        elif op == "swap":
            i, j = sorted((min(i, n - 1), ch.integer(0, n - 1)))
            text = text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:] if i != j else text
        elif op == "truncate":
            text = text[:i]
        elif op == "case":
            text = text.swapcase() if ch.coin() else text.upper()
        else:  # a field (split at whitespace or '/') of another valid string
            donor = ch.choice(donors)
            sep = "/" if "/" in text and ch.coin() else " "
            mine, theirs = text.split(sep), donor.split(sep) if sep in donor else donor.split()
            if mine and theirs:
                mine[ch.integer(0, len(mine) - 1)] = ch.choice(theirs)
                text = sep.join(mine)
    return text


def mutate_lines(ch: Chooser, text: str, extra: Sequence[str] = ()) -> str:
    """Line-level edits of a record: drop, duplicate, swap or insert lines, change line ends."""
    lines = text.split("\n")
    op = ch.choice(["drop", "duplicate", "swap", "insert", "ends", "blank"])
    i = ch.integer(0, len(lines) - 1)
    if op == "drop":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap":
        j = ch.integer(0, len(lines) - 1)
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "insert":
        lines.insert(i, ch.choice(extra) if extra and ch.coin() else junk(ch))
    elif op == "ends":
        return ch.choice(("\r\n", "\r", "\u2028", "\x85", "\n\n")).join(lines)
    else:
        lines.insert(i, "")
    return "\n".join(lines)


# ============================================================================ random games
@dataclass(frozen=True)
class StateSpec:
    """A state as plain data: a game, its options and the actions played from the start."""

    game: str
    options: tuple[tuple[str, Any], ...] = ()
    actions: tuple[int, ...] = ()

    def build(self) -> ludothek.GameState:
        state = ludothek.new_game(self.game, **dict(self.options))
        for action in self.actions:
            state.play(action)
        return state


def option_values(option: Any) -> list[Any]:
    """Valid values of one declared option, the cheap ones first (small boards, short games)."""
    if option.choices is not None:
        return [option.default, *[c for c in option.choices if c != option.default]]
    if option.type is bool:
        return [option.default, not option.default]
    if option.type is int and option.min is not None:
        top = option.max if option.max is not None else option.min + 100
        if option.name == "size":  # boards: mostly the smallest, sometimes the default or the largest
            picks = [option.min, option.min, option.min + 1, option.default, top]
        else:  # caps such as max_plies: mostly the default, sometimes tiny (games end soon)
            picks = [option.default, option.default, option.min, option.min + 4, option.min + 20]
        return [p for p in picks if option.min <= p <= top]
    return [option.default]


def gen_options(ch: Chooser, game: str) -> tuple[tuple[str, Any], ...]:
    cls = ludothek.game_class(game)
    chosen = []
    for option in cls.OPTIONS:
        value = ch.choice(option_values(option))
        if value != option.default or ch.coin(0.2):
            chosen.append((option.name, value))
    return tuple(chosen)


def legal_now(state: ludothek.GameState) -> list[int]:
    if state.current_player() == CHANCE:
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def gen_state(ch: Chooser, game: str | None = None, max_plies: int = 40,
              finish: float = 0.1) -> tuple[StateSpec, ludothek.GameState]:
    """A random legal game: options, then up to ``max_plies`` drawn actions; with probability
    ``finish`` it is played on to its end (by a seeded generator, so the draw stays small)."""
    game = game or ch.choice(GAMES)
    options = gen_options(ch, game)
    state = ludothek.new_game(game, **dict(options))
    actions: list[int] = []
    for _ in range(ch.integer(0, max_plies)):
        if state.is_over():
            break
        action = ch.choice(legal_now(state))
        state.play(action)
        actions.append(action)
    if ch.coin(finish):
        rng = random.Random(ch.seed())
        for _ in range(2000):
            if state.is_over():
                break
            action = rng.choice(legal_now(state))
            state.play(action)
            actions.append(action)
    return StateSpec(game, options, tuple(actions)), state


def gen_positions(ch: Chooser, game: str, count: int = 2) -> list[str]:
    return [gen_state(ch, game, max_plies=30)[1].position() for _ in range(count)]


# ============================================================================ 1. positions
@dataclass(frozen=True)
class PositionCase:
    game: str
    text: Any  # usually a str; sometimes not (new_game must refuse it cleanly)
    options: tuple[tuple[str, Any], ...] = ()
    how: str = ""


ODD_OPTION_NAMES = ("colour", "Size", "max-plies", "", " size", "size\x00", "première", "__class__")


def odd_option_value(ch: Chooser, option: Any) -> Any:
    valid = option_values(option)
    return ch.choice([
        ch.choice(valid), str(ch.choice(valid)), str(ch.choice(valid)).upper(), " 9 ", "²", "٣", "９",
        "9" * 5000, 10**30, -(10**30), -1, 0, True, False, "true", "yes", "maybe", None, 1.5, 7.0,
        float("nan"), float("inf"), "nan", "inf", [], {}, (), "WHITE", " black ", "", b"7",
        np.int64(9), np.int32(7), np.bool_(True), np.float64(9.0), "7\x00", "1e3", mutate_text(ch, str(option.default)),
    ])


def gen_odd_options(ch: Chooser, game: str) -> tuple[tuple[str, Any], ...]:
    cls = ludothek.game_class(game)
    chosen: list[tuple[str, Any]] = []
    if cls.OPTIONS:
        for _ in range(ch.integer(1, 2)):
            option = ch.choice(cls.OPTIONS)
            chosen.append((option.name, odd_option_value(ch, option)))
    if not cls.OPTIONS or ch.coin(0.2):
        chosen.append((ch.choice(ODD_OPTION_NAMES), ch.choice([1, "1", None, "x"])))
    return tuple(dict(chosen).items())


def gen_position_case(ch: Chooser, game: str | None = None) -> PositionCase:
    game = game or ch.choice(GAMES)
    spec, state = gen_state(ch, game, max_plies=40)
    valid = state.position()
    how = ch.weighted([(3, "valid"), (12, "mutated"), (1, "other game"), (2, "junk"), (1, "not text"),
                       (2, "odd options")])
    options: tuple[tuple[str, Any], ...] = ()
    if how == "valid":
        text: Any = valid
        if ch.coin(0.3):
            options = spec.options
    elif how == "mutated":
        text = mutate_text(ch, valid, max_ops=3, donors=gen_positions(ch, game, 1) + [valid])
    elif how == "other game":
        other = ch.choice(GAMES)
        text = gen_state(ch, other, max_plies=10)[1].position()
        if ch.coin():
            text = mutate_text(ch, text)
    elif how == "junk":
        text = junk(ch, 20)
    elif how == "not text":
        text = ch.choice([5, 0, 1.5, b"1/2/3 b", ["-"], {"position": valid}, True, np.str_(valid)])
    else:
        text = valid if ch.coin() else None
        options = gen_odd_options(ch, game)
    return PositionCase(game, text, options, how)


# ============================================================================ 2. moves
#: notation that a game treats specially, beyond what legal_moves() lists at random states
SPECIAL_WORDS: dict[str, tuple[str, ...]] = {
    "trike": ("swap", "SWAP", " swap ", "pass", "a1", "a0", "z99", "a" + "1" * 5000),
    "trigeo": ("A5XB2", "A5xB2", "A5*B2", "C7°D7", "E9°F10=6", "E9°F10=²", "B6XC6^", "B6XC6+", "B6X"),
    "hexalit": ("take", "drop", "Take", "DROP", "double", "double 2", "double 4", "B5W", "B5W6", "B5w 6",
                "B5W7", "B5W0", "B5W²", "6", "W6", "B5W66"),
    "bitis": ("IV43:9318", "IV 4,3 9318", "I11:1111", "V64:7823", "IV43:931²", "IV4³:9318", "VI43:9318",
              "IV43:" + "9" * 5000, "iv43:9318"),
}
STAKES = ("2", "4", "8", "64", "128", "1", "0", "-2", "3", "²", "③", "２", "٤", "9" * 5000, "1" * 4301,
          "", "two", "2.0", " 2", "0x2", "2 2", "1e1", "\x002")


def cube_words(ch: Chooser, state: ludothek.GameState) -> str:
    """Hexalit's cube and roll words: ``double N`` with the right, wrong and odd N, rolls with
    their outcome (``B5W6``)."""
    kind = ch.choice(["double", "take/drop", "roll"])
    if kind == "double":
        right = str(2 * getattr(state, "cube", 1))
        stake = right if ch.coin(0.3) else ch.choice(STAKES)
        return ch.choice(["double ", "double  ", "Double ", "double\t", "double"]) + stake
    if kind == "take/drop":
        return ch.choice(["take", "drop", "TAKE", "Drop", "take 2", "drop drop", "took"])
    rolls = [m for m in state.legal_moves() if m.upper().endswith("W")] if not state.is_over() else []
    roll = ch.choice(rolls) if rolls else ch.choice(["B5W", "A3W", "F11W", "Z9W"])
    return roll + ch.choice(["6", "1", "3", "7", "0", "²", "６", "66", "", " 6", "W6", "6^", "6+"])


@dataclass(frozen=True)
class MoveCase:
    spec: StateSpec
    move: str
    how: str = ""


def gen_move_text(ch: Chooser, spec: StateSpec, state: ludothek.GameState) -> tuple[str, str]:
    """A move for ``state``: one of its legal moves, a legal move of another state, a special
    word of the game, junk, or any of those mutated."""
    legal = state.legal_moves() if not state.is_over() else []
    how = ch.weighted([(5, "legal"), (8, "mutated legal"), (2, "elsewhere"), (3, "special"), (1, "junk")])
    if how in ("legal", "mutated legal") and not legal:
        how = "elsewhere"
    if how in ("legal", "mutated legal"):
        move = ch.choice(legal)
    elif how == "elsewhere":
        other = gen_state(ch, spec.game, max_plies=20, finish=0)[1]
        move = ch.choice(other.legal_moves() or ["swap"])
    elif how == "special":
        if spec.game == "hexalit" and ch.coin(0.7):
            move = cube_words(ch, state)
        else:
            move = ch.choice(SPECIAL_WORDS.get(spec.game, ("x",)))
    else:
        move = junk(ch, 8)
    if how == "mutated legal" or (how in ("elsewhere", "special") and ch.coin(0.3)):
        move = mutate_text(ch, move, max_ops=2, donors=legal[:20])
        how = "mutated " + how.removeprefix("mutated ")
    return move, how


def gen_move_case(ch: Chooser, game: str | None = None) -> MoveCase:
    spec, state = gen_state(ch, game, max_plies=40, finish=0.1)
    move, how = gen_move_text(ch, spec, state)
    return MoveCase(spec, move, how)


# ============================================================================ 3. records
ODD_TAG_NAMES = (
    "Black", "White", "Event", "Site", "Date", "Round", "Termination", "Annotator", "Black_Elo", "x1",
    # reserved names (the record writes these itself) and names the format cannot hold
    "Result", "Game", "Position", "Size", "MaxPlies", "First", "Cube", "Max_Plies", "result", "GAME",
    "with space", "", "1abc", "_x", "Ü", "naïve", "x]", 'a"b', "tag\n", "A" * 100, "Tag\x00", "B\u2028",
)
ODD_TAG_VALUES = (
    "Ada", "", " ", 'quote"d', "back\\slash", "\\", '\\"', "new\nline", "cr\rhere", "crlf\r\n", "ls\u2028x",
    "ps\u2029", "nel\x85", "nul\x00", "tab\tbed", "]", '"]', '[Game "bitis"]', "\\n", "\\u2028", "\\u00",
    "ünï©ødé", "𝕏", "9" * 5000, "2026.11.29", "\x1b[31m", "\ufeff", "a\x0bb", "\x7f",
)


@dataclass(frozen=True)
class RecordCase:
    """``kind``: ``object`` (the record of a played game with odd tags or an odd result: dumps
    must refuse it or write what loads reads back equal), ``edited`` (the same with one move or
    the setup position edited), ``text`` (mutated record text for loads), ``file`` (bytes for
    load, from a file or an odd path), ``dump`` (a record written by dump to a file or an odd
    path)."""

    kind: str
    spec: StateSpec
    result: str | None = None
    tags: tuple[tuple[str, str], ...] = ()
    moves: tuple[str, ...] | None = None
    position: str | None = None
    text: str | None = None
    data: bytes | None = None
    #: for ``file``: where load reads (``file`` is the bytes above; the others are odd paths)
    path: str = "file"


def gen_tags(ch: Chooser) -> tuple[tuple[str, str], ...]:
    tags: dict[str, str] = {}
    for _ in range(ch.integer(0, 4)):
        name = ch.choice(ODD_TAG_NAMES) if ch.coin(0.8) else mutate_text(ch, "Black", 2)
        value = ch.choice(ODD_TAG_VALUES) if ch.coin(0.7) else junk(ch, 6)
        tags[name] = value
    return tuple(tags.items())


def gen_result(ch: Chooser, state: ludothek.GameState) -> str | None:
    """Mostly the rules' result (None); sometimes a resignation, or an odd result."""
    how = ch.weighted([(6, "rules"), (2, "colour"), (2, "odd")])
    if how == "rules":
        return None
    if how == "colour":
        return ch.choice([*state.colours, "draw", "*"])
    return ch.choice(["White", "BLACK", "red", "", " white", "1-0", "*x", 'white"', "draw\n", "\u2028", "²"])


def record_text_of(spec: StateSpec, state: ludothek.GameState, ch: Chooser) -> str:
    """The text of a valid record (built without ludothek.dumps, which is under test)."""
    cls = type(state)
    defaults = {o.name: o.default for o in cls.OPTIONS}
    lines = [f'[Game "{spec.game}"]']
    for name, value in state.options.items():
        if value != defaults.get(name):
            text = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(f'[{"".join(p.capitalize() for p in name.split("_"))} "{text}"]')
    lines.append('[Black "Ada"]')
    result = state.result()
    if ch.coin(0.7):
        lines.append(f'[Result "{result}"]')
    lines.append("")
    words = []
    for index, token in enumerate(state.record_tokens()):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(token)
    words.append(result)
    for start in range(0, len(words), 12):
        lines.append(" ".join(words[start:start + 12]))
    return "\n".join(lines) + "\n"


RECORD_KINDS = (("object", 5), ("edited", 1), ("text", 6), ("file", 2), ("dump", 1))


def gen_record_case(ch: Chooser, game: str | None = None, kinds: Sequence[str] | None = None) -> RecordCase:
    """A record case of one of ``kinds`` (default: all, see :class:`RecordCase`)."""
    spec, state = gen_state(ch, game, max_plies=30, finish=0.15)
    kind = ch.weighted([(w, k) for k, w in RECORD_KINDS if kinds is None or k in kinds])
    if kind == "object":  # Record.from_state with odd tags and results: dumps' documented contract
        return RecordCase(kind, spec, result=gen_result(ch, state), tags=gen_tags(ch))
    if kind == "dump":  # ludothek.dump to a file, or to odd paths
        path = ch.weighted([(4, "file"), (1, "missing folder"), (1, "directory"), (1, "nul"), (1, "not text"),
                            (1, "odd name")])
        return RecordCase(kind, spec, tags=gen_tags(ch) if ch.coin(0.3) else (), path=path)
    if kind == "edited":  # a record object edited after from_state: a move or the setup position
        tokens = list(state.record_tokens())
        if tokens and ch.coin(0.7):
            i = ch.integer(0, len(tokens) - 1)
            tokens[i] = mutate_text(ch, tokens[i], max_ops=2)
            return RecordCase(kind, spec, tags=gen_tags(ch) if ch.coin(0.2) else (), moves=tuple(tokens))
        return RecordCase(kind, spec, position=mutate_text(ch, state.position(), max_ops=2))
    text = record_text_of(spec, state, ch)
    how = ch.weighted([(1, "valid"), (6, "chars"), (3, "lines"), (2, "result"), (2, "tag")])
    if how == "chars":
        text = mutate_text(ch, text, max_ops=3)
    elif how == "lines":
        text = mutate_lines(ch, text, extra=['[Position "' + gen_positions(ch, spec.game, 1)[0] + '"]',
                                             '[Result "draw"]', '[Size "9"]', "1. swap", "*"])
    elif how == "result":
        odd = ch.choice(["red", "White", "draw", "*", "black", "white", "", "1-0", "²", "draw draw"])
        text = text.rstrip("\n").rsplit(" ", 1)[0] + " " + odd + "\n" if ch.coin() else \
            text.replace('[Result "', f'[Result "{odd}', 1)
    elif how == "tag":
        name, value = ch.choice(ODD_TAG_NAMES), ch.choice(ODD_TAG_VALUES)
        line = f'[{name} "{value}"]'
        if ch.coin(0.3):
            line = f'[Position "{mutate_text(ch, state.position(), 2)}"]'
        text = text.replace("\n", "\n" + line + "\n", 1)
    if kind == "text":
        return RecordCase("text", spec, text=text)
    data = text.encode("utf-8")
    encoding = ch.weighted([(3, "utf-8"), (2, "bad bytes"), (1, "latin-1"), (1, "utf-16"), (1, "bom")])
    if encoding == "bad bytes":
        i = ch.integer(0, len(data))
        data = data[:i] + ch.choice([b"\xff", b"\xfe\xff", b"\xc3", b"\xe2\x80", b"\xed\xa0\x80", b"\x80"]) + data[i:]
    elif encoding == "latin-1":
        data = (text + '[Note "café"]').encode("latin-1", "replace")
        data = data.replace(b"caf\xc3\xa9", b"caf\xe9") if b"\xe9" not in data else data
    elif encoding == "utf-16":
        data = text.encode("utf-16")
    elif encoding == "bom":
        data = b"\xef\xbb\xbf" + data
    path = ch.weighted([(12, "file"), (1, "missing"), (1, "directory"), (1, "nul"), (1, "not text")])
    return RecordCase("file", spec, data=data, path=path)


# ============================================================================ 4. state API calls
@dataclass(frozen=True)
class CallCase:
    spec: StateSpec
    method: str
    args: tuple[Any, ...] = ()

    def __repr__(self) -> str:
        shown = ", ".join(_short(a) for a in self.args)
        return f"CallCase({self.spec!r}, state.{self.method}({shown}))"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}…<{len(text)} chars>"


def numeric_oddities(ch: Chooser, near: int, size: int) -> Any:
    """A number-like argument: ``near`` itself in odd types, or out of range, or not a number."""
    return ch.choice([
        near, np.int64(near), np.int32(near), np.uint16(min(near, 65535)), np.intp(near), float(near),
        near + 0.5, True, False, None, str(near), -1, -5, size, size + 1, 10**6, 10**30, -(10**30),
        float("nan"), float("inf"), "", "²", b"1", [near], (near,), {near: 1}, complex(near, 0),
        np.float64(near), np.array(near), np.array([near]), object(),
    ])


def gen_call_case(ch: Chooser, game: str | None = None) -> CallCase:
    spec, state = gen_state(ch, game, max_plies=40, finish=0.15)
    size = state.num_actions
    actions = legal_now(state) if not state.is_over() else []
    near = ch.choice(actions) if actions and ch.coin(0.7) else ch.integer(0, size - 1)
    method = ch.weighted([
        (4, "perft"), (4, "action_to_str"), (6, "play"), (2, "parse_move"), (2, "is_legal"), (1, "undo"),
        (2, "inspect"), (1, "random_playouts"), (1, "parse_token"), (1, "apply_action"), (1, "new_game"),
    ])
    if method == "perft":
        depth = ch.choice([-1, -5, 0, 1, "2", "1", 1.0, 2.0, None, True, False, np.int64(1), np.int8(-1), 10**30,
                           -(10**30), 1.5, "x", [], float("nan"), 1001, "٣"])
        return CallCase(spec, "perft", (depth,))
    if method == "random_playouts":
        count = ch.choice([1, 0, -1, "1", 1.5, None, np.int64(1), True])
        seed = ch.choice([1, 0, -1, 2**31, 2**63, 2**70, -(2**70), "7", 1.5, None, np.int64(3)])
        return CallCase(spec, "random_playouts", (count, seed))
    if method in ("parse_move", "parse_token"):
        text, _ = gen_move_text(ch, spec, state)
        arg = text if ch.coin(0.7) else ch.choice([None, 5, b"c1", ["c1"], np.str_(text), 1.5])
        return CallCase(spec, method, (arg,))
    if method == "undo":
        return CallCase(spec, "undo", ())
    if method == "inspect":
        name = ch.choice(["legal_moves", "legal_actions", "chance_outcomes", "summary", "render", "returns",
                          "score", "key", "copy", "result", "winner", "to_move", "position", "record_tokens",
                          "repetitions"])
        return CallCase(spec, name, ())
    if method == "new_game":
        position = ch.choice([None, 5, b"x", ["x"], state.position(), np.str_(state.position())])
        return CallCase(spec, "new_game", (position, gen_odd_options(ch, spec.game)))
    return CallCase(spec, method, (numeric_oddities(ch, near, size),))


# ============================================================================ 5. agents
CHEAP_AGENTS = ("random", "bot:1")
ODD_AGENTS = ("bot:0", "bot:6", "bot:-1", "bot:²", "bot:٣", "bot:1.5", "bot:", "bot:" + "9" * 5000, "random:3",
              "random:", "", " ", ":", "alien", "BOT:1", " random ", "perfect", "mcts:-5", "mcts:0", "mcts:x",
              "uct:nan", "alphabeta:-1", "alphabeta:1e999s", "mcts:nans", "mcts:-1ms", "bot:1:2", "\x00", None, 3)


@dataclass(frozen=True)
class AgentCase:
    spec: StateSpec
    agent: Any
    seed: Any = 1
    choose: bool = True


def gen_agent_case(ch: Chooser, game: str | None = None) -> AgentCase:
    game = game or ch.choice(GAMES)
    where = ch.weighted([(3, "finished"), (3, "chance"), (2, "anywhere")])
    spec, state = gen_state(ch, game, max_plies=40, finish=0.9 if where == "finished" else 0.0)
    if where == "chance":  # walk on until a chance node if the game has them (or it ends)
        rng = random.Random(ch.seed())
        actions = list(spec.actions)
        for _ in range(60):
            if state.is_over() or state.current_player() == CHANCE:
                break
            action = rng.choice(legal_now(state))
            state.play(action)
            actions.append(action)
        spec = StateSpec(spec.game, spec.options, tuple(actions))
    cheap = list(CHEAP_AGENTS) + (["perfect"] if game == "bitis" else [])
    if ch.coin(0.75):
        return AgentCase(spec, ch.choice(cheap), ch.choice([1, 0, None, 7]), choose=True)
    seed = ch.choice([1, None, -1, 2**70, "3", 1.5])
    return AgentCase(spec, ch.choice(ODD_AGENTS), seed, choose=False)


# ============================================================================ 6. the command line
@functools.cache
def cli_verbs() -> tuple[str, ...]:
    """The verbs ``ludothek --help`` lists (its "Commands:" section)."""
    from click.testing import CliRunner

    from ludothek.cli import main

    text = CliRunner().invoke(main, ["--help"]).output
    verbs, listing = [], False
    for line in text.splitlines():
        if line.strip().lower().startswith("commands"):
            listing = True
        elif listing and not line.strip() and verbs:
            break  # the end of the section
        elif listing and line.startswith("  ") and line.strip():
            word = line.split()[0]
            if word.replace("-", "").isalnum() and word.islower():
                verbs.append(word)
    return tuple(sorted(verbs)) or tuple(sorted(main.commands))


#: verbs never run with arguments that could make them start work that does not end by itself
NEVER_RUN = {"serve"}
NUMBERS = ("nan", "inf", "-inf", "-1", "0", "1", str(10**30), "1e30", "x", "²", "٣", "0.5", "-0", "1e-9",
           str(2**63), str(2**70), "9" * 5000, "", " 1")
GAME_NAME_ODDITIES = ("chess", "Trike", " trike ", "TRIGEO", "", "tri", "hexalit\x00", "bitis ", "β", "trike,trigeo")


@dataclass(frozen=True)
class CliCase:
    args: tuple[str, ...]
    stdin: str = ""
    files: tuple[tuple[str, bytes], ...] = ()  # written into the working directory first
    how: str = ""
    lang: str = "en"  # LUDOTHEK_LANG and LANG of the call: errors look alike in every locale

    def __repr__(self) -> str:
        args = ", ".join(_short(a) for a in self.args)
        extra = f", stdin={self.stdin!r}" if self.stdin else ""
        files = f", files={[(n, _short(d)) for n, d in self.files]}" if self.files else ""
        return f"CliCase([{args}]{extra}{files}, how={self.how!r}, lang={self.lang!r})"


def game_name(ch: Chooser, game: str) -> str:
    if ch.coin(0.85):
        return game
    return ch.choice(GAME_NAME_ODDITIES) if ch.coin() else mutate_text(ch, game, 2)


def game_option_args(ch: Chooser, spec: StateSpec, state: ludothek.GameState) -> list[str]:
    args: list[str] = []
    cls = ludothek.game_class(spec.game)
    for name, value in spec.options:
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if name == "size" and ch.coin():
            args += ["--size", text]
        else:
            args += ["-o", f"{name}={text}"]
    if ch.coin(0.3):
        if ch.coin(0.5) and cls.OPTIONS:
            option = ch.choice(cls.OPTIONS)
            args += ["-o", f"{option.name}={ch.choice(NUMBERS + ('true', 'maybe', 'black', 'WHITE'))}"]
        else:
            args += ch.choice([["--size", ch.choice(NUMBERS)], ["-o", "size"], ["-o", "=3"], ["-o", "nosuch=1"],
                               ["-o", "max-plies=5"], ["--size"], ["-o", "first=WHITE"]])
    if ch.coin(0.3):
        text = state.position()
        args += ["-p", mutate_text(ch, text, 2) if ch.coin(0.5) else text]
    return args


def gen_cli_case(ch: Chooser, game: str | None = None, verb: str | None = None) -> CliCase:
    """An argument list for ``ludothek``: a verb (``verb``, or any) with mostly valid arguments
    for a random game, numbers from an odd pool, then maybe mutated (drop, duplicate, insert, edit)."""
    spec, state = gen_state(ch, game, max_plies=12, finish=0.05)
    verbs = [v for v in cli_verbs() if v not in NEVER_RUN] + ["--help", "--version", "nosuchverb"]
    verb = verb or ch.choice(verbs)
    name = game_name(ch, spec.game)
    moves = [state_move for state_move in _move_texts(spec)]
    protected: list[str] = []  # put in after mutation, before the fuzzed options (which override them)
    files: list[tuple[str, bytes]] = []
    stdin = ""
    if verb == "moves":
        args = ["moves", name, *game_option_args(ch, spec, state)]
        if ch.coin(0.3):
            args.append("--json")
        args += moves[: ch.integer(0, len(moves))]
    elif verb == "perft":
        args = ["perft", name, *game_option_args(ch, spec, state),
                ch.choice(["1", "2", "0", "-1", "21", "x", "nan", str(10**30), "²", "1.0", "٢"])]
        if ch.coin(0.2):
            args.append("--stats")
    elif verb == "bench":
        protected = ["--seconds", "0.1"]
        args = ["bench", name, *game_option_args(ch, spec, state)]
        if ch.coin(0.5):
            args += ["--seconds", ch.choice(["nan", "inf", "-inf", "-1", "0", "1e30", "x", "0.05", "", "NaN"])]
        if ch.coin(0.5):
            args += ["--seed", ch.choice(NUMBERS)]
        if ch.coin(0.1):
            args.append("--baseline")
    elif verb == "analyse":
        protected = ["--iterations", "20"]
        args = ["analyse", name, *game_option_args(ch, spec, state), *moves[: ch.integer(0, len(moves))]]
        if ch.coin(0.4):
            args += ["--seconds", ch.choice(["nan", "inf", "-1", "0", "x", "1e30", "0.001"])]
        if ch.coin(0.3):
            args += ["--agent", ch.choice(["bot:1", "random", "mcts:10", "alphabeta:20", "uct:10", "perfect",
                                           "alien", "bot:9", "mcts:0", "mcts:-1s", ""])]
        if ch.coin(0.3):
            args += ["--top", ch.choice(["0", "-1", "3", "x", "nan"])]
        if ch.coin(0.2):
            args += ["--seed", ch.choice(NUMBERS)]
        if ch.coin(0.2):
            args.append("--json")
    elif verb == "match":
        opts = [o for o in game_option_args(ch, spec, state) if o != "-p"]
        args = ["match", name, ch.choice(["random", "bot:1", "alien", "bot:0", ""]),
                ch.choice(["random", "random", "bot:1", "perfect"]), "-n", ch.choice(["1", "2", "0", "-1", "x", "nan"])]
        args += opts
        if ch.coin(0.3):
            args += ["--workers", ch.choice(["1", "0", "-1", "x", "nan"])]
        if ch.coin(0.3):
            args += ["--seconds-per-move", ch.choice(["nan", "inf", "-1", "0", "0.001", "x", "1e-9"])]
        if ch.coin(0.3):
            args += ["--opening-plies", ch.choice(["0", "1", "-1", "x", "nan", "3"])]
        if ch.coin(0.2):
            args += ["--seed", ch.choice(NUMBERS)]
        if ch.coin(0.2):
            args.append("--json")
    elif verb == "play":
        args = ["play", name, *game_option_args(ch, spec, state)]
        args += ["--vs", ch.choice(["human", "random", "bot:1", "alien", "bot:0", "perfect", "", "random:x"])]
        if ch.coin(0.3):
            args += ["--me", ch.choice(["human", "alien", "bot:0", ""])]
        if ch.coin(0.3):
            args += ["--seat", ch.choice(["1", "2", "0", "3", "x"])]
        if ch.coin(0.3):
            args += ["--start", ch.choice(["high", "low", "fixed", "middle", ""])]
        if ch.coin(0.2):
            args += ["--lang", ch.choice(["en", "de", "fr", ""])]
        if ch.coin(0.3):
            args += ["--seed", ch.choice(NUMBERS)]
        commands = ["moves", "board", "help", "undo", "resign", "quit", "save out.ludo", "save", "save /",
                    "save \x00", *moves[:3], junk(ch, 4)]
        stdin = "\n".join(ch.choice(commands) for _ in range(ch.integer(0, 4)))
    elif verb == "replay":
        case = gen_record_case(ch, spec.game)
        data = case.data if case.data is not None else (case.text or "").encode("utf-8", "surrogatepass")
        files.append(("game.ludo", data))
        args = ["replay", ch.choice(["game.ludo", "game.ludo", "missing.ludo", ".", "", "\x00"])]
    elif verb == "solve":
        target = mutate_text(ch, "bitis", 2) if ch.coin(0.7) else ch.choice(GAME_NAME_ODDITIES)
        if target.strip().lower() == "bitis":  # the real thing takes seconds: not here
            target = "chess"
        args = ["solve", target]
    elif verb == "migrate":
        args = ["migrate", "--db", ch.choice(["fuzz.sqlite3", "", "::", "notaurl://", "sqlite:////nonexistent/x/y.db",
                                              "/", "sqlite:///fuzz.sqlite3", "\x00", "postgresql://"])]
    elif verb in ("backup", "restore"):
        made = "fuzz.sqlite3"
        noise = junk(ch, 40).encode("utf-8", "surrogatepass")
        files.append(("some.backup", ch.choice([b"", b"hello\n", b"PGDMP" + noise, b"SQLite format 3\x00" + noise])))
        args = [verb, "--db", ch.choice([made, "", "::", "notaurl://", "sqlite://", "/", "\x00",
                                         "sqlite:////nonexistent/x/y.db"]),
                ch.choice(["some.backup", "missing.backup", "", "/", ".", "\x00", "out.backup"])]
        if verb == "restore" and ch.coin(0.3):
            args.append("--force")
    elif verb == "db":
        args = ["db", ch.choice(["upgrade", "current", "nosuch", ""]), "--db",
                ch.choice(["fuzz.sqlite3", "", "::", "notaurl://", "/", "\x00"])]
    elif verb == "games":
        args = ["games"] + ([junk(ch, 3)] if ch.coin(0.2) else [])
    elif verb == "puzzles":  # one short game between random players at most
        protected = ["--games", "1", "--count", "1", "--agents", "random,random", "--window", "3", "--out", "p.json"]
        args = ["puzzles", ch.choice(["mine", "mine", "nosuch", ""]), name]
        if ch.coin(0.3):
            args += [ch.choice(["--count", "--games", "--seed", "--window", "--per-game", "--random-plies"]),
                     ch.choice(["0", "-1", "x", "nan", "2", str(2**70), ""])]
        if ch.coin(0.2):
            args += ["--agents", ch.choice(["random", "bot:9,random", ",", "alien,random", ""])]
    elif verb == "train":  # a few positions and one epoch at most
        protected = ["--positions", "8", "--nodes", "8", "--epochs", "1", "--hidden", "2"]
        noise = junk(ch, 40).encode("utf-8", "surrogatepass")
        files.append(("some.npz", ch.choice([b"", b"hello\n", b"PK\x03\x04" + noise, b"\x93NUMPY" + noise])))
        args = ["train", name]
        if ch.coin(0.4):
            args += [ch.choice(["--resume", "--data"]), ch.choice(["some.npz", "missing.npz", "", "/", ".", "\x00"])]
        if ch.coin(0.3):
            args += [ch.choice(["--out", "--checkpoint"]), ch.choice(["t.npz", "", "/", ".", "/nonexistent/x.npz", "\x00"])]
        if ch.coin(0.3):  # no huge valid numbers: they would train for hours
            args += [ch.choice(["--positions", "--epochs", "--nodes", "--hidden", "--batch", "--lr", "--l2",
                                "--outcome-weight", "--seed"]),
                     ch.choice(["nan", "inf", "-1", "0", "x", "²", "0.5", "", " 1", "2", "1e-9"])]
    elif verb == "warm":  # in this process: a pool of fresh interpreters loading every kernel costs seconds
        args = ["warm"]
        protected = ["--jobs", "1"]
    elif verb == "tournament":  # between random players: a few quick games at most
        opts = [o for o in game_option_args(ch, spec, state) if o != "-p"]
        kind = ch.choice(["--swiss", "--swiss", "--arena"])
        length = ch.choice(["1", "2", "0", "-1", "x", "nan", "inf", "1e30", "", "0.01", str(2**70), "²"])
        players = ch.choice(["random,random", "random,random,random", "random", "", ",", "random,,random",
                             "random,alien", "bot:9,random", "random,random,random,random,random",
                             ",".join(["random"] * 12), "random," + "x" * 5000, "random,\x00"])
        args = ["tournament", name, kind, length, "--players", players, *opts]
        if ch.coin(0.15):
            args += ["--swiss" if kind == "--arena" else "--arena", "1"]  # both kinds at once
        if ch.coin(0.3):
            args += ["--records", ch.choice(["recs", "", "/", "\x00", ".", "recs/../recs"])]
        if ch.coin(0.2):
            args += ["--event", ch.choice(["", "\x00", "x" * 5000, "Cup <b>", "a\nb"])]
        if ch.coin(0.2):
            args += ["--seed", ch.choice(NUMBERS)]
        if ch.coin(0.2):
            args += ["--workers", ch.choice(["1", "0", "-1", "x", "nan"])]
        if ch.coin(0.2):
            args.append("--json")
    else:
        args = [verb]
    if ch.coin(0.1):
        args.append(ch.choice(["--help", "-h"]))
    how = "valid-ish"
    if ch.coin(0.35):
        how = "mutated"
        for _ in range(ch.integer(1, 2)):
            op = ch.choice(["drop", "duplicate", "insert", "edit", "swap"])
            i = ch.integer(1, max(1, len(args) - 1)) if len(args) > 1 else 0
            if op == "drop" and len(args) > 1:
                del args[i]
            elif op == "duplicate" and args:
                args.insert(i, args[min(i, len(args) - 1)])
            elif op == "insert":
                args.insert(i, ch.choice(["--", "-", "--bogus", "-x", "", " ", "\x00", "nan", "9" * 5000,
                                          "--size=nan", "--seed=" + str(2**70), "-o", "--json", "³", ch.char()]))
            elif op == "swap" and len(args) > 2:
                j = ch.integer(1, len(args) - 1)
                args[i], args[j] = args[j], args[i]
            elif args and i < len(args) and args[i] not in ("--vs", "--me", "--agent"):
                before = args[i - 1] if i > 0 else ""
                if before not in ("--vs", "--me", "--agent", "-n", "--workers"):
                    args[i] = mutate_text(ch, args[i], 2)
    if args and args[0] == "solve" and len(args) > 1 and args[1].strip().lower() == "bitis":
        args[1] = "chess"
    if args and args[0] == "serve":
        args = ["serve", "--port", "-1"]  # never starts: click refuses the port
    lang = ch.choice(["en", "de_DE.UTF-8", "de", "fr_FR.UTF-8", ""])
    return CliCase(tuple(bound_cost(args[:2] + protected + args[2:])), stdin, tuple(files), how, lang)


#: options whose valid values make a call run long: the largest value fuzzing passes on, and
#: the value put in its place (invalid values such as nan, -1 or 1e30 pass unchanged)
COSTLY = {"--seconds": (0.5, "0.1"), "--iterations": (200, "20"), "-n": (4, "2"), "--workers": (1, "1"),
          "--seconds-per-move": (0.01, "0.001"), "--opening-plies": (40, "3"), "--top": (1000, "10"),
          "--arena": (0.02, "0.01"), "--swiss": (3, "2"), "--jobs": (1, "1")}


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except (ValueError, OverflowError):
        return None
    return value if math.isfinite(value) else None


def bound_cost(args: list[str]) -> list[str]:
    """``args`` with valid but costly values made cheap (a 10-minute bench, perft 12, a
    thousand-game match are not edge cases, only slow)."""
    out = list(args)
    for i, arg in enumerate(out):
        option, value = (arg.split("=", 1) if arg.startswith("--") and "=" in arg else (out[i - 1] if i else "", arg))
        number = _number(value)
        if number is None:
            continue
        if option in COSTLY and number > COSTLY[option][0]:
            replacement = COSTLY[option][1]
        elif out and out[0] == "perft" and option not in ("--size", "-o", "-p", "--position", "--option") \
                and 2 < number <= 20:
            replacement = "2"  # the depth
        else:
            continue
        out[i] = f"{option}={replacement}" if arg.startswith("--") and "=" in arg else replacement
    return out


def _move_texts(spec: StateSpec) -> list[str]:
    """The record tokens of ``spec``'s game (how moves are typed on the command line)."""
    return list(spec.build().record_tokens())


# ============================================================================ 7. the web API
ODD_JSON = (None, True, False, 0, -1, 1, 2, 1.5, 1e308, -1e308, 10**30, -(10**30), 2**63, "", " ", "x" * 200,
            "²", "\x00", "\u2028", "ünï", "0", "1", "null", [], {}, [1, 2], {"a": {"b": [None]}}, [[[[[]]]]],
            "9" * 5000, "random", "bot:1", "friend", "high", "fixed")


def odd_json(ch: Chooser) -> Any:
    return ch.choice(ODD_JSON) if ch.coin(0.8) else junk(ch, 6)


def random_json(ch: Chooser, depth: int = 3) -> Any:
    """Any JSON value: scalars from :data:`ODD_JSON` and junk, lists and objects nested up to
    ``depth`` with keys the API knows and others."""
    shape = ch.weighted([(4, "scalar"), (1, "list"), (2, "object")]) if depth > 0 else "scalar"
    if shape == "scalar":
        return odd_json(ch)
    if shape == "list":
        return [random_json(ch, depth - 1) for _ in range(ch.integer(0, 3))]
    keys = ("game", "options", "token", "move", "seat", "opponent", "bot", "start", "position", "clock", "invite",
            "type", "ref", "size", "minutes", "")
    return {ch.choice(keys) if ch.coin(0.8) else junk(ch, 4): random_json(ch, depth - 1) for _ in range(ch.integer(0, 4))}


def mutate_json(ch: Chooser, body: Any) -> Any:
    """A JSON object edited: a value replaced by an odd one, a key dropped or added, the
    object wrapped, or a string value mutated."""
    if not isinstance(body, dict) or not body or ch.coin(0.1):
        return ch.choice([[body], "body", None, 7, [], body])
    body = dict(body)
    op = ch.choice(["replace", "drop", "add", "mutate string", "nest"])
    key = ch.choice(sorted(body))
    if op == "replace":
        body[key] = odd_json(ch)
    elif op == "drop":
        del body[key]
    elif op == "add":
        body[ch.choice(["extra", "game", "token", "move", "seat", "options", "__proto__", "", "ref"])] = odd_json(ch)
    elif op == "mutate string" and isinstance(body[key], str):
        body[key] = mutate_text(ch, body[key], 2)
    elif op == "nest" and isinstance(body[key], dict) and body[key]:
        inner = dict(body[key])
        inner[ch.choice(sorted(inner))] = odd_json(ch)
        body[key] = inner
    else:
        body[key] = odd_json(ch)
    return body


def encode_body(ch: Chooser, body: Any) -> bytes:
    """JSON text of ``body`` (the standard library writes big integers too), sometimes a random
    JSON value instead, sometimes damaged: cut, invalid UTF-8, a huge body, duplicate keys, NaN,
    or nothing."""
    if ch.coin(0.1):
        body = random_json(ch)
    raw = json.dumps(body, ensure_ascii=ch.coin()).encode("utf-8", "surrogatepass")
    how = ch.weighted([(12, "as is"), (1, "cut"), (1, "bad utf-8"), (1, "huge"), (1, "empty"), (1, "nan"),
                       (1, "duplicate key"), (1, "junk")])
    if how == "cut":
        return raw[: ch.integer(0, len(raw))]
    if how == "bad utf-8":
        i = ch.integer(0, len(raw))
        return raw[:i] + b"\xff\xc3" + raw[i:]
    if how == "huge":
        return b'{"move": "' + b"a" * 20000 + b'"}'
    if how == "empty":
        return ch.choice([b"", b" ", b"\n", b"{}"])
    if how == "nan":
        return ch.choice([b'{"move": NaN}', b'{"seat": Infinity}', b'{"options": {"size": -Infinity}}'])
    if how == "duplicate key":
        return b'{"game": "trike", "game": "chess"}'
    if how == "junk":
        return junk(ch, 10).encode("utf-8", "surrogatepass")
    return raw


@dataclass(frozen=True)
class WebCase:
    """One request (or one websocket message) against game slot ``slot`` of the harness."""

    kind: str
    slot: int
    method: str = "GET"
    path: str = ""
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()
    messages: tuple[Any, ...] = ()  # websocket: str or bytes frames

    def __repr__(self) -> str:
        parts = [f"{self.kind} slot={self.slot} {self.method} {_short(self.path)}"]
        if self.params:
            parts.append("params=" + ", ".join(f"{k}={_short(v)}" for k, v in self.params))
        if self.body is not None:
            parts.append(f"body={_short(self.body)}")
        if self.headers:
            parts.append(f"headers={self.headers!r}")
        if self.messages:
            parts.append("messages=[" + ", ".join(_short(m) for m in self.messages) + "]")
        return "WebCase(" + " ".join(parts) + ")"


def odd_id(ch: Chooser, real: str) -> str:
    """A game id: mostly the real one, sometimes a mutated or made-up one (no '/', '?', '#', so
    the request still reaches the route)."""
    if ch.coin(0.8):
        return real
    text = ch.choice(["", "x" * 30, "nosuchgame", "0", "-1", "²", "%00", "ünï", mutate_text(ch, real, 2)])
    text = "".join(c for c in text if c not in "/?#%\\")
    return text if text.strip(".") else "x"  # '.' and '..' would be path steps, not ids


def gen_web_case(ch: Chooser, slots: Sequence[dict[str, Any]]) -> WebCase:
    """A request against one of ``slots`` (the harness's games: id, token, invite, mode and
    the last view); valid bodies are built from the view (its legal moves) and then mutated."""
    from urllib.parse import quote

    index = ch.integer(0, len(slots) - 1)
    slot = slots[index]
    view = slot.get("view") or {}
    legal = [m["move"] for m in view.get("moves", [])] if isinstance(view.get("moves"), list) else []
    gid = quote(odd_id(ch, slot["id"]), safe="")
    tokens = slot.get("tokens") or [""]
    token = ch.choice(tokens) if ch.coin(0.85) else \
        ch.choice(["", "x" * 32, "forged", (slots[-1 - index].get("tokens") or [""])[0], "x" * 500])
    kind = ch.weighted([(6, "move"), (2, "create"), (1, "undo"), (1, "resign"), (1, "claim"), (1, "join"),
                        (1, "rematch"), (2, "get"), (2, "preview"), (1, "geometry"), (1, "list"), (1, "record"),
                        (4, "ws")])
    game = slot["game"]
    if kind == "move":
        move = ch.choice(legal) if legal and ch.coin(0.6) else \
            (cube_words(ch, ludothek.new_game("hexalit", cube=True)) if game == "hexalit" and ch.coin(0.3)
             else ch.choice(SPECIAL_WORDS.get(game, ("x",))))
        if ch.coin(0.5):
            move = mutate_text(ch, move, 2, donors=legal[:10])
        body: Any = {"token": token, "move": move}
        if ch.coin(0.2):
            body["seat"] = ch.choice([0, 1, 2, -1, "0", True, None, 0.0])
        if ch.coin(0.3):
            body = mutate_json(ch, body)
        return WebCase("move", index, "POST", f"/api/games/{gid}/move", body=encode_body(ch, body))
    if kind in ("undo", "resign", "claim", "rematch"):
        body = {"token": token}
        if kind == "resign" and ch.coin(0.3):
            body["seat"] = ch.choice([0, 1, 5, "1", None])
        if ch.coin(0.3):
            body = mutate_json(ch, body)
        headers = (("x-ludothek-token", token),) if ch.coin(0.1) and token.isascii() else ()
        return WebCase(kind, index, "POST", f"/api/games/{gid}/{kind}", body=encode_body(ch, body), headers=headers)
    if kind == "join":
        body = {"invite": slot.get("invite") or ch.choice(["", "wrong", "x" * 101])}
        if ch.coin(0.4):
            body = mutate_json(ch, body)
        return WebCase("join", index, "POST", f"/api/games/{gid}/join", body=encode_body(ch, body))
    if kind == "create":
        spec, state = gen_state(ch, ch.choice(GAMES), max_plies=6, finish=0)
        body = {"game": spec.game, "options": {k: v for k, v in spec.options}, "start": "fixed",
                "opponent": ch.choice(["hotseat", "friend", "bot"])}
        if body["opponent"] == "bot":
            body["bot"] = ch.choice(["random", "bot:1", "perfect", "mcts:600s", "grandmaster"])
            body["seat"] = ch.choice([0, 1, "random"])
        if ch.coin(0.3):
            body["position"] = state.position() if ch.coin(0.4) else mutate_text(ch, state.position(), 2)
        if ch.coin(0.2):
            body["clock"] = ch.choice([None, {"minutes": 5, "increment": 2}, {"minutes": -1}, {"minutes": float("nan")},
                                       {"minutes": 10**30}, {"minutes": "5"}, [], {"increment": 181}, 5])
        if ch.coin(0.2):
            body["start"] = ch.choice(["high", "low", "middle", None, 1])
        if ch.coin(0.5):
            body = mutate_json(ch, body)
        return WebCase("create", index, "POST", "/api/games", body=encode_body(ch, body))
    if kind == "get":
        at = ch.choice(["0", "1", "2", "-1", "", "x", "²", "٣", "1e3", " 2", "9" * 5000, str(10**30), "nan",
                        str(len(view.get("history", []))), "0x1"]) if ch.coin(0.7) else None
        params = (("at", at),) if at is not None else ()
        return WebCase("get", index, "GET", f"/api/games/{gid}", params=params)
    if kind == "record":
        return WebCase("record", index, "GET", f"/api/games/{gid}/record")
    if kind == "list":
        params = tuple((k, v) for k, v in (
            ("status", ch.choice(["", "waiting", "ongoing", "over", "x", "²"])),
            ("limit", ch.choice(["", "0", "-1", "5", "x", "9" * 5000, "1e3", "nan"])),
            ("offset", ch.choice(["", "0", "-1", "9" * 5000, "x", str(2**63), str(2**64)])),
        ) if ch.coin(0.6))
        return WebCase("list", index, "GET", "/api/games", params=params)
    if kind in ("preview", "geometry"):
        spec, state = gen_state(ch, game, max_plies=20, finish=0.05)
        position = state.position() if ch.coin(0.4) else mutate_text(ch, state.position(), 3)
        options = [(k, str(v).lower() if isinstance(v, bool) else str(v)) for k, v in spec.options]
        if ch.coin(0.3):
            cls = ludothek.game_class(game)
            name = ch.choice([o.name for o in cls.OPTIONS] or ["size"]) if ch.coin(0.8) else ch.choice(ODD_OPTION_NAMES)
            options.append((name, ch.choice(NUMBERS + ("true", "black", "maybe"))))
        if kind == "geometry":
            params = tuple(options) + ((("position", position),) if ch.coin(0.5) else ())
            name = game if ch.coin(0.8) else ch.choice(GAME_NAME_ODDITIES)
            name = quote("".join(c for c in name if c not in "/?#%\\") or "x", safe="")
            return WebCase("geometry", index, "GET", f"/api/geometry/{name}", params=params)
        moves = "|".join(spec.build().record_tokens()[: ch.integer(0, 6)]) if ch.coin(0.5) else ""
        if moves and ch.coin(0.5):
            moves = mutate_text(ch, moves, 2)
        params = [("game", game_name(ch, game))] + [("o." + k, v) for k, v in options]
        if ch.coin(0.6):
            params.append(("position", position))
        if moves:
            params.append(("moves", moves))
        if ch.coin(0.4):
            params.append(("legal", ch.choice(["1", "", "0"])))
        return WebCase("preview", index, "GET", "/api/preview", params=tuple(params))
    # a websocket: a few messages, valid ones mutated, raw text and bytes
    messages: list[Any] = []
    for _ in range(ch.integer(1, 3)):
        shape = ch.weighted([(4, "action"), (1, "auth"), (1, "ping"), (2, "raw")])
        if shape == "raw":
            messages.append(ch.choice([junk(ch, 8), b"\xff\xfe", b"{}", "", "[]", "null", "x" * 5000,
                                       '{"type": "move"', b'{"type": "ping"}', "\x00"]))
            continue
        if shape == "action":
            kind2 = ch.choice(["move", "move", "undo", "resign", "claim", "nonsense", None, 5])
            data: Any = {"type": kind2, "token": token,
                         "ref": ch.choice([1, "r", None, [1], 1.5, 10**30, 2**64 - 1, -(2**63) - 1, "²"])}
            if kind2 == "move":
                move = ch.choice(legal) if legal and ch.coin(0.6) else ch.choice(SPECIAL_WORDS.get(game, ("x",)))
                data["move"] = mutate_text(ch, move, 2) if ch.coin(0.5) else move
        elif shape == "auth":
            data = {"type": "auth", "token": ch.choice([token, "", None, 5, "x" * 200])}
        else:
            data = {"type": "ping", "ref": ch.choice([1, "x", None, {}, 10**30])}
        if ch.coin(0.3):
            data = mutate_json(ch, data)
        if ch.coin(0.1):
            data = random_json(ch)
        raw = json.dumps(data)
        messages.append(raw.encode() if ch.coin(0.15) else raw)
    return WebCase("ws", index, "WS", f"/ws/games/{gid}", messages=tuple(messages))


# ============================================================================ Hypothesis strategies
def strategy(generator: Callable[..., T], *args: Any) -> st.SearchStrategy[T]:
    """A Hypothesis strategy drawing ``generator(chooser, *args)``."""

    @st.composite
    def build(draw: Any) -> T:
        return generator(DrawChooser(draw), *args)

    return build()


def positions(game: str | None = None) -> st.SearchStrategy[PositionCase]:
    return strategy(gen_position_case, game)


def move_cases(game: str | None = None) -> st.SearchStrategy[MoveCase]:
    return strategy(gen_move_case, game)


def record_cases(game: str | None = None, kinds: Sequence[str] | None = None) -> st.SearchStrategy[RecordCase]:
    return strategy(gen_record_case, game, kinds)


def call_cases(game: str | None = None) -> st.SearchStrategy[CallCase]:
    return strategy(gen_call_case, game)


def agent_cases(game: str | None = None) -> st.SearchStrategy[AgentCase]:
    return strategy(gen_agent_case, game)


def cli_cases(game: str | None = None, verb: str | None = None) -> st.SearchStrategy[CliCase]:
    return strategy(gen_cli_case, game, verb)


def web_cases(slots: Sequence[dict[str, Any]]) -> st.SearchStrategy[WebCase]:
    return strategy(gen_web_case, slots)


__all__ = [
    "GAMES",
    "AgentCase",
    "CallCase",
    "Chooser",
    "CliCase",
    "DrawChooser",
    "MoveCase",
    "PositionCase",
    "RandomChooser",
    "RecordCase",
    "StateSpec",
    "WebCase",
    "agent_cases",
    "call_cases",
    "cli_cases",
    "gen_agent_case",
    "gen_call_case",
    "gen_cli_case",
    "gen_move_case",
    "gen_position_case",
    "gen_record_case",
    "gen_state",
    "gen_web_case",
    "junk",
    "move_cases",
    "mutate_json",
    "mutate_lines",
    "mutate_text",
    "piece",
    "positions",
    "record_cases",
    "strategy",
    "web_cases",
]
