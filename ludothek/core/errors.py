"""Every error Ludothek raises on purpose derives from :class:`LudothekError`.

Messages name what is wrong and where, so callers (CLI, web server) can show them as they are.
"""


class LudothekError(Exception):
    """Base class of all Ludothek errors."""


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

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class IllegalMove(LudothekError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class GameOver(IllegalMove):
    """A move was played (or undone past the start) where that is impossible."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a 5,000-digit number or a
    pasted essay should not make the message unreadable)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
