"""Game records: a PGN-like text format.

::

    [Game "<name>"]
    [Size "7"]
    [Black "Ada"]
    [White "Max"]
    [Date "2026.11.29"]
    [Result "white"]

    1. <move> <move> 2. <move> <move> 3. ...  white

Tag pairs first (``[Name "value"]``, one a line), a blank line, then the moves numbered per
full turn and the result (``*``, ``draw`` or the winning colour). Game options are tags named
after the option (``max_plies`` → ``MaxPlies``); a setup position is the ``Position`` tag.
:func:`load` replays every move, so a record that loads is a legal game.

Tag names are ASCII letters, digits and ``_``, starting with a letter. In a tag value ``"`` and
``\\`` are written ``\\"`` and ``\\\\``; line breaks of every kind, other control characters
(tab excepted) and lone surrogates are written ``\\n``, ``\\r`` or ``\\uXXXX`` (four hex
digits, e.g. ``\\u2028``), so that a value stays on its line.

:func:`dumps` writes only what :func:`loads` reads back to an equal record; it raises
:class:`RecordError` for a tag it cannot write (a name outside that alphabet, or ``Game``,
``Position``, ``Result`` or a tag of one of the game's options, which the record writes itself
from its fields), and, having replayed the record, for moves that are illegal or not written as
the game writes them, options or a setup position not as the game reads them, or a result that
the finished game contradicts. Records made by :meth:`Record.from_state` or :func:`loads` pass.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import LudothekError, RecordError, shown
from .options import checked
from .protocol import GameState
from .registry import game_class
from .texts import TEXTS, os_reason

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*", re.ASCII)
#: what a tag value cannot hold as it is: line breaks (all that str.splitlines() breaks at),
#: other control characters but tab, and lone surrogates (not encodable as UTF-8)
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"n": "\n", "r": "\r"}


def _tag_name(option: str) -> str:
    return "".join(part.capitalize() for part in option.split("_"))


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str = "*"
    position: str | None = None
    #: other tags (players, date, event, termination …), in order
    tags: dict[str, str] = field(default_factory=dict)

    def replay(self) -> GameState:
        """The state after every move, checked by the game's rules."""
        state = _setup(game_class(self.game), self.position, self.options)
        for move in self.moves:
            state.play(move)
        return state

    @classmethod
    def from_state(cls, state: GameState, result: str | None = None, **tags: str) -> "Record":
        """A record of ``state``'s game so far. ``result`` overrides the rules' result
        (a resignation); ``tags`` are extra tags such as ``Black="Ada"``."""
        tags.setdefault("Date", _dt.date.today().strftime("%Y.%m.%d"))
        return cls(
            game=state.name,
            options=dict(state.options),
            moves=state.record_tokens(),
            result=result if result is not None else state.result(),
            position=state.setup_position,
            tags={k: str(v) for k, v in tags.items()},
        )


def _quote(value: str) -> str:
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return _UNSAFE.sub(lambda m: _ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), value)


def _unquote(value: str) -> str:
    def one(match: re.Match) -> str:
        code = match.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        return _UNESCAPES.get(code, code)

    return re.sub(r"\\(u[0-9A-Fa-f]{4}|.)", one, value)


def _setup(cls: type[GameState], position: str | None, options: dict[str, Any]) -> GameState:
    """A record's starting state, its options checked by name first: one called "position" or
    "self" is then an unknown option, not a TypeError."""
    return cls(position, **checked(cls.name, cls.OPTIONS, options))


def _check_game(record: Record) -> type[GameState]:
    """Refuse a record that :func:`loads` would refuse or read back differently: it must
    replay, and hold its game, options, setup position and moves as the game writes them
    (as :meth:`Record.from_state` and :func:`loads` make records)."""
    try:
        cls = game_class(record.game)
    except LudothekError as exc:
        raise RecordError(exc.message) from None
    if record.game != cls.name:
        raise RecordError(TEXTS("record_game_name", game=shown(record.game), spelled=repr(cls.name)))
    if not isinstance(record.options, dict) or not isinstance(record.moves, list) or not isinstance(record.tags, dict):
        raise RecordError(TEXTS("record_fields"))
    if record.position is not None and not isinstance(record.position, str):
        raise RecordError(TEXTS("record_setup_type", kind=type(record.position).__name__))
    try:
        state = _setup(cls, record.position, record.options)
    except LudothekError as exc:
        raise RecordError(TEXTS("record_setup", error=exc)) from None
    if state.options != record.options:
        raise RecordError(TEXTS("record_options", game=cls.name, options=str(state.options)))
    if state.setup_position != record.position:
        raise RecordError(TEXTS("record_setup_written", given=shown(record.position, 80),
                                written=repr(state.setup_position)))
    for ply, move in enumerate(record.moves, start=1):
        if not isinstance(move, str):
            raise RecordError(TEXTS("record_move_type", ply=ply, kind=type(move).__name__))
        try:
            state.play(move)
        except LudothekError as exc:
            raise RecordError(TEXTS("record_move", move=shown(move), ply=ply, error=exc)) from None
    written = state.record_tokens()
    if written != record.moves:
        shorter = min(len(written), len(record.moves))
        i = next((i for i in range(shorter) if written[i] != record.moves[i]), shorter)
        mine = shown(record.moves[i]) if i < len(record.moves) else TEXTS("none_move")
        theirs = repr(written[i]) if i < len(written) else TEXTS("none_move")
        raise RecordError(TEXTS("record_move_written", ply=i + 1, written=theirs, given=mine))
    if state.is_over() and record.result != state.result():
        raise RecordError(TEXTS("record_result_contradicts", rules=repr(state.result()), given=shown(record.result)))
    return cls


def _check_tags(record: Record, cls: type[GameState]) -> None:
    """Refuse what :func:`dumps` cannot write so that :func:`loads` reads it back."""
    own = {"Game", "Position", "Result", *(_tag_name(o.name) for o in cls.OPTIONS)}
    for name, value in record.tags.items():
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise RecordError(TEXTS("record_tag_name", tag=shown(name)))
        if name in own:
            raise RecordError(TEXTS("record_tag_own", tag=repr(name)))
        if not isinstance(value, str):
            raise RecordError(TEXTS("record_tag_value", tag=repr(name), kind=type(value).__name__))
    valid_results = {"*", "draw", *cls.colours}
    if record.result not in valid_results:
        raise RecordError(TEXTS("record_result", result=shown(record.result), valid=", ".join(sorted(valid_results))))


def dumps(record: Record) -> str:
    """The record as text; ``loads(dumps(r)) == r``. :class:`RecordError` for a record that
    would not read back so: a tag the format cannot hold, a result that is not ``*``, ``draw``
    or a colour of the game (or not the rules' result of a finished game), moves that do not
    replay or are not written as the game writes them (replaying costs a few milliseconds)."""
    cls = _check_game(record)
    _check_tags(record, cls)
    defaults = {o.name: o.default for o in cls.OPTIONS}
    lines = [f'[Game "{record.game}"]']
    for name, value in record.options.items():
        if value != defaults.get(name):
            text = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(f'[{_tag_name(name)} "{_quote(text)}"]')
    if record.position is not None:
        lines.append(f'[Position "{_quote(record.position)}"]')
    for name, value in record.tags.items():
        lines.append(f'[{name} "{_quote(value)}"]')
    lines.append(f'[Result "{record.result}"]')
    lines.append("")
    lines.extend(_movetext(record))
    return "\n".join(lines) + "\n"


def _movetext(record: Record) -> list[str]:
    """Moves numbered per full turn (numbers are for people; loading ignores them)."""
    words: list[str] = []
    for index, move in enumerate(record.moves):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(move)
    words.append(record.result)
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def loads(text: str) -> Record:
    """Parse and replay a record; :class:`RecordError` names the line of any problem."""
    if not isinstance(text, str):
        raise RecordError(TEXTS("record_text_type", kind=type(text).__name__))
    tags: dict[str, tuple[str, int]] = {}
    move_words: list[tuple[str, int]] = []
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and not in_moves:
            match = _TAG.match(line)
            if not match:
                raise RecordError(TEXTS("record_tag_malformed", line=repr(line[:60])), number)
            name, value = match.group(1), _unquote(match.group(2))
            if name in tags:
                raise RecordError(TEXTS("record_tag_twice", tag=repr(name)), number)
            tags[name] = (value, number)
            continue
        in_moves = True
        if line.startswith("["):
            raise RecordError(TEXTS("record_tag_late", line=repr(line[:40])), number)
        for char in "{};()":
            if char in line:
                raise RecordError(TEXTS("record_comments", char=repr(char)), number)
        move_words.extend((word, number) for word in line.split())
    if "Game" not in tags:
        raise RecordError(TEXTS("record_game_missing"), 1)
    game, game_line = tags.pop("Game")
    try:
        cls = game_class(game)
    except LudothekError as exc:
        raise RecordError(exc.message, game_line) from None

    options: dict[str, Any] = {}
    by_tag = {_tag_name(o.name): o.name for o in cls.OPTIONS}
    for tag in list(tags):
        if tag in by_tag:
            options[by_tag[tag]] = tags.pop(tag)[0]
    position = tags.pop("Position", (None, 0))
    result_tag = tags.pop("Result", ("*", 0))
    try:
        state = cls(position[0], **options)
    except LudothekError as exc:
        raise RecordError(exc.message, position[1] or game_line) from None

    valid_results = {"*", "draw", *cls.colours}
    result = None
    # the line that states the result (or, if none does, of the last move or the setup)
    result_line = move_words[-1][1] if move_words else position[1] or game_line
    if move_words and move_words[-1][0].lower() in valid_results:
        result = move_words.pop()[0].lower()
    if result_tag[1]:
        result_line = result_tag[1]
        tagged = result_tag[0].lower()
        if tagged not in valid_results:
            valid = ", ".join(sorted(valid_results))
            raise RecordError(TEXTS("record_result", result=repr(result_tag[0]), valid=valid), result_tag[1])
        if result is not None and result != tagged:
            raise RecordError(TEXTS("record_result_tag", moves=repr(result), tag=repr(tagged)), result_tag[1])
        result = tagged
    result = result or "*"

    tokens = cls.join_record_words(move_words)
    for word, number in tokens:
        if _NUMBER.match(word):
            continue
        try:
            state.play(word)
        except LudothekError as exc:
            raise RecordError(TEXTS("record_ply", move=repr(word), ply=state.ply + 1, error=exc), number) from None
    if state.is_over() and result != state.result():
        raise RecordError(TEXTS("record_result_contradicts", rules=repr(state.result()), given=repr(result)),
                          result_line)
    return Record(
        game=cls.name,
        options=dict(state.options),
        moves=state.record_tokens(),
        result=result,
        position=state.setup_position,
        tags={name: value for name, (value, _) in tags.items()},
    )


def load(path: str | os.PathLike) -> Record:
    """Read and replay the record in file ``path`` (UTF-8 text)."""
    if not isinstance(path, (str, os.PathLike)):
        raise RecordError(TEXTS("record_path_type", kind=type(path).__name__))
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise RecordError(TEXTS("cannot_read", path=shown(str(path), 200), reason=os_reason(exc))) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = len((data[: exc.start] + b".").decode("utf-8").splitlines())  # what loads would count
        raise RecordError(TEXTS("record_not_utf8", path=str(path), byte=f"{data[exc.start]:02x}", offset=exc.start),
                          line) from None
    return loads(text)


def dump(record: Record, path: str | os.PathLike) -> None:
    """Write ``record`` to file ``path`` (UTF-8 text)."""
    if not isinstance(path, (str, os.PathLike)):  # an int would be taken as a file descriptor
        raise RecordError(TEXTS("record_path_type", kind=type(path).__name__))
    text = dumps(record)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise RecordError(TEXTS("cannot_write", path=shown(str(path), 200), reason=os_reason(exc))) from exc
