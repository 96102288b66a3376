"""The web server's clean errors: an HTTP status and a keyed message."""

from __future__ import annotations

from ..core.errors import LudothekError
from ..core.messages import Message


class WebError(Exception):
    """A clean error for the client: an HTTP status and a message.

    ``message`` is a keyed :class:`~ludothek.core.messages.Message` (or a
    :class:`~ludothek.core.errors.LudothekError`, whose message it takes over, key and all);
    :meth:`text` gives it in a language, ``key`` names it (``web.not_your_turn``, or a game's
    key; None for a plugin's plain string). The attribute ``message`` stays
    the English text, as before. ``fields`` go into the error's JSON beside the message (a
    stale move's answer carries the game as it is now)."""

    def __init__(self, status: int, message: Message | LudothekError | str, fields: dict | None = None):
        if isinstance(message, LudothekError):
            message = message.message
        super().__init__(str(message))
        self.status = status
        self.keyed = message
        self.message = str(message)
        self.fields = fields or {}

    @property
    def key(self) -> str | None:
        return self.keyed.key if isinstance(self.keyed, Message) else None

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (``en`` or ``de``)."""
        return self.keyed.text(lang) if isinstance(self.keyed, Message) else str(self.keyed)


class RetryLater(WebError):
    """A refusal that passes: 429 when a client went over a limit, 503 when a queue is full;
    ``retry_after`` is the seconds until trying again makes sense (the ``Retry-After`` header)."""

    def __init__(self, status: int, message: Message, retry_after: float):
        super().__init__(status, message)
        self.retry_after = retry_after
