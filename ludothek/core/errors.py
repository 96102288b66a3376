"""Every error Ludothek raises on purpose derives from :class:`LudothekError`.

Messages name what is wrong and where. Ludothek's own errors carry a keyed
:class:`~.messages.Message`, so callers show them in their reader's language
(``error.text("de")``); ``str(error)`` is the English text. A plain string is still accepted
(a plugin game may not translate its errors).
"""

from __future__ import annotations

from .messages import Catalog, Message

TEXTS = Catalog("errors", {
    "at_line": ("line {line}: {message}", "Zeile {line}: {message}"),
})


class LudothekError(Exception):
    """Base class of all Ludothek errors."""

    def __init__(self, message: Message | str = "", *args: object):
        self.message = message
        super().__init__(str(message), *args)

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en`` or ``de``)."""
        return self.message.text(lang) if isinstance(self.message, Message) else str(self.message)


class UnknownGame(LudothekError, LookupError):
    """No game with that name is registered."""


class OptionError(LudothekError, ValueError):
    """A game option is unknown, of the wrong type or out of range."""


class ParseError(LudothekError, ValueError):
    """Text (a move, a position, a record) is malformed."""


class PositionError(ParseError):
    """A position string is malformed or describes an impossible position."""


class RecordError(ParseError):
    """A game record is malformed or does not replay; the message names the line."""

    def __init__(self, message: Message | str, line: int | None = None):
        self.line = line
        super().__init__(TEXTS("at_line", line=line, message=message) if line is not None else message)


class IllegalMove(LudothekError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class GameOver(IllegalMove):
    """A move was played (or undone past the start) where that is impossible."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a 5,000-digit number or a
    pasted essay should not make the message unreadable)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
