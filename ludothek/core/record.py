"""Game records: a PGN-like text format.

::

    [Game "trike"]
    [Size "7"]
    [Black "Ada"]
    [White "Max"]
    [Date "2026.11.29"]
    [Result "white"]

    1. c1 swap 2. f4 f2 3. ...  white

Tag pairs first (``[Name "value"]``, one a line, ``\\"`` and ``\\\\`` escaped), a blank line,
then the moves numbered per full turn and the result (``*``, ``draw`` or the winning colour).
Game options are tags named after the option (``max_plies`` → ``MaxPlies``); a setup position is
the ``Position`` tag. :func:`load` replays every move, so a record that loads is a legal game.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import LudothekError, RecordError
from .protocol import GameState
from .registry import game_class

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^\d+\.(\.\.)?$")


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
        state = game_class(self.game)(self.position, **self.options)
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
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def dumps(record: Record) -> str:
    """The record as text; ``loads(dumps(r)) == r``."""
    cls = game_class(record.game)
    defaults = {o.name: o.default for o in cls.OPTIONS}
    lines = [f'[Game "{record.game}"]']
    for name, value in record.options.items():
        if value != defaults.get(name):
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            lines.append(f'[{_tag_name(name)} "{_quote(shown)}"]')
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
        raise RecordError(f"a record must be text, not {type(text).__name__}")
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
                raise RecordError(f'malformed tag {line[:60]!r}: expected [Name "value"]', number)
            name, value = match.group(1), _unquote(match.group(2))
            if name in tags:
                raise RecordError(f"tag {name!r} appears twice", number)
            tags[name] = (value, number)
            continue
        in_moves = True
        if line.startswith("["):
            raise RecordError(f"tag {line[:40]!r} after the moves began", number)
        for char in "{};()":
            if char in line:
                raise RecordError(f"comments and variations ({char!r}) are not supported", number)
        move_words.extend((word, number) for word in line.split())
    if "Game" not in tags:
        raise RecordError('missing [Game "…"] tag', 1)
    game, game_line = tags.pop("Game")
    try:
        cls = game_class(game)
    except LudothekError as exc:
        raise RecordError(str(exc), game_line) from None

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
        raise RecordError(str(exc), position[1] or game_line) from None

    valid_results = {"*", "draw", *cls.colours}
    result = None
    if move_words and move_words[-1][0].lower() in valid_results:
        result = move_words.pop()[0].lower()
    if result_tag[1]:
        tagged = result_tag[0].lower()
        if tagged not in valid_results:
            raise RecordError(f"result {result_tag[0]!r} must be one of {', '.join(sorted(valid_results))}", result_tag[1])
        if result is not None and result != tagged:
            raise RecordError(f"the moves end with result {result!r} but the Result tag says {tagged!r}", result_tag[1])
        result = tagged
    result = result or "*"

    tokens = cls.join_record_words(move_words)
    for word, number in tokens:
        if _NUMBER.match(word):
            continue
        try:
            state.play(word)
        except LudothekError as exc:
            raise RecordError(f"move {word!r} (ply {state.ply + 1}): {exc}", number) from None
    if state.is_over() and result != state.result():
        raise RecordError(f"the moves end the game with result {state.result()!r}, but the record says {result!r}")
    return Record(
        game=cls.name,
        options=dict(state.options),
        moves=state.record_tokens(),
        result=result,
        position=state.setup_position,
        tags={name: value for name, (value, _) in tags.items()},
    )


def load(path: str) -> Record:
    try:
        with open(path, encoding="utf-8") as handle:
            return loads(handle.read())
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None


def dump(record: Record, path: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(dumps(record))
