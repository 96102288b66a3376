"""Who may come in: the host names a server answers to, and websockets per client address.

* :class:`HostCheck` - an ASGI middleware: a request (or websocket handshake) whose ``Host``
  header names none of the allowed hosts is answered 400 with a JSON error naming the host.
  A server reachable under any name can be pointed at by anyone's DNS name (DNS rebinding,
  cache poisoning through a forged Host); ``--allowed-hosts`` lists the names it is meant to
  have.
* :class:`WebSocketCap` - an ASGI middleware: at most ``cap`` open websockets per client
  address (the address :func:`~.guard.client_of` gives, the one the rate limits count: behind
  ``--proxy``, the client's, not the proxy's). One more is accepted only to be told why, with an
  error message the game page shows, and closed with code :data:`WS_CAP_CODE`.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qs

import orjson

from ..core.messages import Message, language_of
from .guard import client_of
from .texts import TEXTS

#: websockets one address may hold open: a person has a few tabs with one or two each; a school
#: or a company behind one address has some dozens of players
DEFAULT_MAX_WEBSOCKETS = 200
#: the close code of a refused websocket (4000-4999 are the application's; 429 as in HTTP)
WS_CAP_CODE = 4429

_NAME = re.compile(r"(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")


class HostListError(ValueError):
    """An entry of ``--allowed-hosts`` that is not a host name; ``message`` is keyed."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message

    def text(self, lang: str = "en") -> str:
        return self.message.text(lang)


class AllowedHosts:
    """The host names a server answers to, e.g. ``AllowedHosts("play.example.org,*.example.org")``:
    exact names and IP addresses, ``*.NAME`` for every subdomain of NAME (not NAME itself), ``*``
    for any host (the default, also for None). Names compare without case, port or a final dot.
    Raises :class:`HostListError` for an entry that is not a host name."""

    def __init__(self, spec: str | Iterable[str] | None = None):
        entries = [] if spec is None else spec.split(",") if isinstance(spec, str) else list(spec)
        entries = [entry.strip() for entry in entries if entry.strip()]
        self.any = spec is None or "*" in entries
        self.names: set[str] = set()
        self.suffixes: list[str] = []
        if self.any:
            return
        if not entries:
            raise HostListError(TEXTS("host_pattern", entry=spec if isinstance(spec, str) else ""))
        for entry in entries:
            name = _normal(entry)
            if name is None or (":" not in name and not _NAME.fullmatch(name)):
                raise HostListError(TEXTS("host_pattern", entry=entry))
            if name.startswith("*."):
                self.suffixes.append(name[1:])
            else:
                self.names.add(name)

    def allows(self, host: str | None) -> bool:
        """Whether a ``Host`` header (``name``, ``name:port``, ``[v6]:port``) names an allowed host."""
        if self.any:
            return True
        name = _host_name(host or "")
        if not name:
            return False
        return name in self.names or any(name.endswith(suffix) for suffix in self.suffixes)


def _normal(entry: str) -> str | None:
    """An allowed-hosts entry in the form :func:`_host_name` gives (None: not a name)."""
    entry = entry.lower().rstrip(".")
    bare = entry[1:-1] if entry.startswith("[") and entry.endswith("]") else entry
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        return None if ":" in bare or "/" in bare else bare


def _host_name(host: str) -> str:
    """The host of a ``Host`` header: lower case, without port, brackets or final dot."""
    host = host.strip().lower()
    if host.startswith("["):
        inside, bracket, port = host[1:].partition("]")
        if not bracket or (port and not (port.startswith(":") and port[1:].isdigit())):
            return ""
        try:
            return str(ipaddress.ip_address(inside))
        except ValueError:
            return ""
    name, colon, port = host.rpartition(":")
    if colon and port.isdigit():
        host = name
    elif colon:
        return ""  # a colon without a port: no host name of ours
    return host.rstrip(".")


def _header(scope: dict, name: bytes) -> str | None:
    """A header of a request or handshake (the first, if it comes twice)."""
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


def _json_error(message: Message, lang: str) -> bytes:
    return orjson.dumps({"error": message.text(lang), "key": message.key})


class HostCheck:
    """ASGI middleware: refuse HTTP requests and websocket handshakes for hosts that
    :class:`AllowedHosts` does not allow, with 400 and a JSON error in the request's language."""

    def __init__(self, app: Any, hosts: AllowedHosts):
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket") or self.hosts.any:
            await self.app(scope, receive, send)
            return
        named = [value.decode("latin-1") for key, value in scope.get("headers") or () if key == b"host"]
        if named and all(self.hosts.allows(host) for host in named):  # a second Host must not sneak past
            await self.app(scope, receive, send)
            return
        host = next((host for host in named if not self.hosts.allows(host)), None)
        message = TEXTS("no_host") if not host else TEXTS("bad_host", host=host[:100])
        body = _json_error(message, language_of(_header(scope, b"accept-language")))
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        elif "websocket.http.response" in (scope.get("extensions") or {}):
            await send({"type": "websocket.http.response.start", "status": 400, "headers": headers})
            await send({"type": "websocket.http.response.body", "body": body})
        else:  # a server without the denial-response extension answers 403
            await send({"type": "websocket.close", "code": 1008})


class WebSocketCap:
    """ASGI middleware: at most ``cap`` open websockets per client address in this process
    (0: no cap). A websocket over the cap is accepted, sent ``{"type": "error", "status": 429,
    "error", "key"}`` (in the language of its ``?lang=`` or ``Accept-Language``, as the game's own
    errors) and closed with :data:`WS_CAP_CODE`; the page shows the error and tries again later."""

    def __init__(self, app: Any, cap: int = DEFAULT_MAX_WEBSOCKETS):
        self.app = app
        self.cap = cap
        self.open: dict[str, int] = {}

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "websocket" or not self.cap:
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        held = self.open.get(client, 0)
        if held >= self.cap:
            await self._refuse(scope, receive, send)
            return
        self.open[client] = held + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[client] - 1
            if left:
                self.open[client] = left
            else:
                del self.open[client]

    async def _refuse(self, scope: dict, receive: Any, send: Any) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
        lang = language_of(asked or _header(scope, b"accept-language"))
        message = TEXTS("too_many_websockets", cap=self.cap)
        error = {"type": "error", "status": 429, "error": message.text(lang), "key": message.key}
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": orjson.dumps(error).decode()})
        await send({"type": "websocket.close", "code": WS_CAP_CODE, "reason": "too many websockets from this address"})
