"""Connections that would hold the server's sockets forever: read deadlines and a cap.

uvicorn closes a keep-alive connection that stays idle between requests, but it waits forever
for a request's headers and body: a client that connects and sends nothing, or half a request
(a slow-loris), keeps a socket and a file descriptor until the process runs out of them.
:class:`TimedHttpProtocol` is uvicorn's httptools protocol with three more rules:

* **headers**: a request's headers must be complete within ``header_timeout`` seconds of the
  connection being made (for the first request) or of the request's first byte (later ones on
  a keep-alive connection); a deadline, not an idle time, so a byte every few seconds does not
  keep it open;
* **body**: once the headers are in, the body must not stall for ``body_timeout`` seconds
  (an idle time, reset by every piece that arrives), and after those first seconds it must
  keep an average of ``min_body_rate`` bytes a second: each piece moves the deadline on by its
  size at that rate, so a body dripped a byte at a time ends too (as Apache's mod_reqtimeout
  ``MinRate`` does);
* **connections**: with ``max_connections``, a connection made while that many are open
  (websockets included) is answered 503 and closed at once.

A request that misses a deadline is answered ``408`` (a JSON error, as every other) when no
answer to it has started, then the connection is closed. Time the server itself keeps a
client waiting does not count: while reading is paused (the app has not taken the body yet,
or a pipelined request waits for the one before it to be answered) the deadline moves on.
:func:`uvicorn_options` gives the ``uvicorn.Config`` arguments that install it.
"""

from __future__ import annotations

import asyncio
import functools
import resource
from dataclasses import dataclass
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..core.messages import Message, language_of
from .texts import TEXTS

#: the defaults of ``ludothek serve``: a person's browser sends its headers at once and a body
#: of a few hundred bytes; these leave room for a very slow mobile link
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
#: bytes a second a body must average once ``body_timeout`` has passed (the API's largest body,
#: 16 KiB, then has about a minute in all)
MIN_BODY_RATE = 500.0
#: file descriptors kept for everything but client connections (database, bot workers' pipes,
#: static files being sent, logs) when the connection cap is derived from the open-file limit
RESERVED_FILES = 256
#: the open-file limit the server raises its own (soft) limit to, at most
RAISED_FILE_LIMIT = 65536


@dataclass(frozen=True)
class ReadLimits:
    """``header_timeout`` and ``body_timeout`` in seconds; ``max_connections`` open at once
    (0: no cap); ``min_body_rate`` in bytes a second."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int = 0
    min_body_rate: float = MIN_BODY_RATE


class TimedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with read deadlines and a connection cap (module docstring).
    uvicorn makes one per connection with keyword arguments; ``limits`` is bound with
    :func:`functools.partial` (see :func:`uvicorn_options`)."""

    def __init__(self, *args: Any, limits: ReadLimits, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.limits = limits
        self.deadline: asyncio.TimerHandle | None = None
        self.waiting_for: str | None = None  # "headers" or "body" while a deadline runs
        self.body_began = 0.0  # when the body's deadline began, and the bytes read since
        self.body_bytes = 0

    # ------------------------------------------------------------------ the connection
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        cap = self.limits.max_connections
        if cap and len(self.connections) > cap:  # this one is counted already
            self._refuse(503, TEXTS("too_many_connections"))
            return
        self._arm("headers", self.limits.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    # ------------------------------------------------------------------ the parser's events
    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.deadline is None:  # a later request on a keep-alive connection
            self._arm("headers", self.limits.header_timeout)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()  # a websocket's handshake is taken over by its own protocol
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._start_body()  # ended at once if there is no body

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        if self.waiting_for == "body":
            self.body_bytes += len(body)
            limits = self.limits
            paced = self.body_began + limits.body_timeout + self.body_bytes / limits.min_body_rate
            self._disarm()
            self._arm("body", min(limits.body_timeout, paced - self.loop.time()))

    def on_message_complete(self) -> None:
        if self.waiting_for == "body":
            self._disarm()
        super().on_message_complete()

    # ------------------------------------------------------------------ deadlines
    def _start_body(self) -> None:
        self.body_began, self.body_bytes = self.loop.time(), 0
        self._arm("body", self.limits.body_timeout)

    def _arm(self, what: str, seconds: float) -> None:
        self.waiting_for = what
        self.deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
        self.deadline = None
        self.waiting_for = None

    def _expired(self) -> None:
        what = self.waiting_for
        self.deadline = None
        self.waiting_for = None
        if self.transport is None or self.transport.is_closing() or what is None:
            return
        seconds = self.limits.header_timeout if what == "headers" else self.limits.body_timeout
        previous_unanswered = what == "headers" and self.cycle is not None and not self.cycle.response_complete
        if self.flow.read_paused or previous_unanswered:
            # the server keeps the client waiting, not the other way round: start afresh
            self._start_body() if what == "body" else self._arm(what, seconds)
            return
        answered = what == "body" and self.cycle is not None and self.cycle.response_started
        if answered:
            self.transport.close()
            return
        lang = language_of(_header(self.headers, b"accept-language")) if what == "body" else "en"
        if what == "headers":
            message = TEXTS("timeout_headers", seconds=f"{seconds:g}")
        else:
            message = TEXTS("timeout_body", seconds=f"{seconds:g}", rate=f"{self.limits.min_body_rate:g}")
        self._refuse(408, message, lang)

    def _refuse(self, status: int, message: Message, lang: str = "en") -> None:
        """Answer ``status`` with a JSON error and close (before any answer has started)."""
        body = orjson.dumps({"error": message.text(lang), "key": message.key})
        reason = b"Request Timeout" if status == 408 else b"Service Unavailable"
        head = b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n"
        self.transport.write(head % (status, reason, len(body)) + body)
        self.transport.close()


def _header(headers: list[tuple[bytes, bytes]] | None, name: bytes) -> str | None:
    for key, value in headers or ():
        if key == name:
            return value.decode("latin-1")
    return None


# ---------------------------------------------------------------------------- configuration
def open_file_limit() -> int:
    """This process's open-file limit, first raised to its hard limit (at most
    :data:`RAISED_FILE_LIMIT`): the soft limit is often 1024, a few hundred players' worth."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = RAISED_FILE_LIMIT if hard == resource.RLIM_INFINITY else min(hard, RAISED_FILE_LIMIT)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (OSError, ValueError):
            pass
    return RAISED_FILE_LIMIT if soft == resource.RLIM_INFINITY else soft


def default_max_connections() -> int:
    """The connection cap when none is given: the open-file limit less what the server needs
    for everything else (:data:`RESERVED_FILES`)."""
    limit = open_file_limit()
    return max(limit - RESERVED_FILES, limit // 2)


def uvicorn_options(header_timeout: float = HEADER_TIMEOUT, body_timeout: float = BODY_TIMEOUT,
                    max_connections: int | None = None, min_body_rate: float = MIN_BODY_RATE) -> dict[str, Any]:
    """The ``uvicorn.Config`` keyword arguments that install :class:`TimedHttpProtocol`;
    ``max_connections`` None derives the cap from the open-file limit, 0 sets none. Raises
    ``ValueError`` for a deadline that is not a positive number of seconds."""
    for name, value in (("header_timeout", header_timeout), ("body_timeout", body_timeout),
                        ("min_body_rate", min_body_rate)):
        if not value > 0:
            raise ValueError(f"{name} must be a positive number, not {value!r}")
    cap = default_max_connections() if max_connections is None else max_connections
    limits = ReadLimits(float(header_timeout), float(body_timeout), int(cap), float(min_body_rate))
    # a partial of a module-level class pickles, should uvicorn's config travel to a worker process
    return {"http": functools.partial(TimedHttpProtocol, limits=limits)}
