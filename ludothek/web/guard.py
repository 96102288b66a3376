"""Abuse and input hygiene for the web server.

* :class:`SecurityHeaders` - an ASGI middleware that adds a strict Content-Security-Policy and
  the usual hardening headers to every HTTP response; :class:`HardenedStarlette` puts it
  outside Starlette's own error handler, so that a 500 carries them too.
* :class:`RateLimits` and :class:`RateLimitMiddleware` - per-address limits on creating games,
  on moves (HTTP and websocket) and on asking for analyses, with the ``limits`` package (fixed
  windows in memory).
* :class:`LoginLimits` - failed logins per address and per account, new accounts per address.
* :class:`CsrfGuard` - an ASGI middleware: state-changing requests made with the session cookie
  need the session's CSRF token; login and signup only from this site's pages.
* :func:`parse_json_object`, :func:`server_fields_only` - checks of what a
  client sends, so that hostile input ends in a 400 with a message, never in a 500.

Both middlewares are plain ASGI callables (not ``BaseHTTPMiddleware``), so they cost a function
call and a few dict operations per request.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import math
import time
from functools import lru_cache
from typing import Any, ClassVar
from urllib.parse import urlsplit

import orjson
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from starlette.applications import Starlette
from starlette.requests import cookie_parser

from ..core.messages import Message, language_of
from .errors import RetryLater, WebError
from .texts import TEXTS

# ---------------------------------------------------------------------------- security headers
#: No inline script or style, no plugins, no framing, nothing from other hosts. ``connect-src
#: 'self'`` also allows ws:// and wss:// to the page's own host and port (CSP level 3; checked
#: with Chromium in tests/test_web_guard.py).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'")

SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    # The pages and the API never send a Referer to another site. Not "no-referrer": under that
    # policy Chromium sends "Origin: null" on same-origin POSTs, which would defeat an Origin
    # check against cross-site requests; the invite code never leaves our own origin either way.
    "referrer-policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware: add :data:`SECURITY_HEADERS` to every HTTP response that does not set
    the header itself. Websockets and lifespan pass through untouched."""

    def __init__(self, app: Any, headers: dict[str, str] | None = None):
        self.app = app
        chosen = SECURITY_HEADERS if headers is None else headers
        self.headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in chosen.items()]

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                present = message.get("headers") or []
                names = {name.lower() for name, _ in present}
                extra = [pair for pair in self.headers if pair[0] not in names]
                message = {**message, "headers": [*present, *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HardenedStarlette(Starlette):
    """A Starlette app with :class:`SecurityHeaders` outside its whole middleware stack.
    Starlette puts its ``ServerErrorMiddleware`` outside every middleware the app lists, so the
    500 it answers for an unhandled exception would bypass a listed ``SecurityHeaders``."""

    def build_middleware_stack(self) -> Any:
        return SecurityHeaders(super().build_middleware_stack())


# ---------------------------------------------------------------------------- rate limits
#: A person moves a few times a second at most (10/s leaves room for a burst of undos or two
#: people on one screen), and 20 new games a minute is already a lot; the hourly cap stops a
#: slow, steady flood of stored games. An analysis costs a worker seconds to minutes, so asking
#: for one is counted per address and per account (:mod:`.analysis`). Override with a string
#: of the same form; "off" disables.
DEFAULT_RATE_LIMITS = "create=20/minute,200/hour;move=10/second;analysis=10/minute,60/hour"
KINDS = {"create": "new games", "move": "moves", "analysis": "analysis requests"}


def client_of(scope: dict) -> str:
    """Who a client is, for limits: its address as the server sees it (uvicorn takes it from
    X-Forwarded-For only for trusted proxies), an IPv6 address by its /64 network, since one
    host or household usually holds a whole /64 and could otherwise change address at will."""
    client = scope.get("client")
    if not client:
        return "unknown"
    return _ipv6_network(client[0]) if ":" in client[0] else client[0]


@lru_cache(maxsize=4096)
def _ipv6_network(host: str) -> str:
    try:
        address = ipaddress.IPv6Address(host.split("%", 1)[0])
    except ValueError:
        return host
    if address.ipv4_mapped is not None:  # a dual-stack socket's IPv4 client
        return str(address.ipv4_mapped)
    return str(ipaddress.IPv6Network((address, 64), strict=False))


def http_kind(method: str, path: str) -> str | None:
    """Which limit an HTTP request counts against, or None."""
    if method == "POST" and path.startswith("/api/seeks"):  # a seek, or accepting one, makes a game
        return "create"
    if method == "POST" and path.startswith("/api/lessons/"):  # a try at a step, or the first game
        return "create" if path.endswith("/play") else "move"
    if method != "POST" or not path.startswith("/api/games"):
        return None
    if path == "/api/games" or path == "/api/games/":
        return "create"
    action = path.rsplit("/", 1)[-1]
    if action in ("move", "undo", "resign", "claim", "join", "offer", "answer", "withdraw"):
        return "move"
    if action == "rematch":  # it creates a game
        return "create"
    if action == "analysis":
        return "analysis"
    return None


def _describe(item: RateLimitItem) -> Message:
    unit = item.GRANULARITY.name + ("s" if item.multiples != 1 else "")
    return TEXTS("rate", amount=item.amount, multiples=item.multiples, unit=TEXTS(f"unit_{unit}"))


class TooManyRequests(RetryLater):
    """A client went over a limit: a 429 with the seconds until it may try again."""

    def __init__(self, message: Message, retry_after: float):
        super().__init__(429, message, retry_after)


class RateLimits:
    """Per-address limits, e.g. ``RateLimits("create=20/minute,200/hour;move=10/second")``.

    Kinds are separated by ``;``, several limits of one kind by ``,``. A kind the string does not
    name keeps its default; ``move=off`` lifts one kind's limits, ``off`` all of them. Meant to be
    used from the event loop (one thread); the counters live in this process's memory.
    """

    #: the kinds of limit and the limits a kind has unless the configuration says otherwise
    KINDS = KINDS
    DEFAULTS = DEFAULT_RATE_LIMITS

    def __init__(self, config: str | None = None):
        self.items: dict[str, list[RateLimitItem]] = {}
        config = self.DEFAULTS if config is None else config.strip()
        if config.lower() in ("off", "none", ""):
            self.limiter = None
            return
        chosen = {**self._parse(self.DEFAULTS), **self._parse(config)}
        self.items = {kind: items for kind, items in chosen.items() if items}
        self.limiter = FixedWindowRateLimiter(MemoryStorage()) if self.items else None

    @classmethod
    def _parse(cls, config: str) -> dict[str, list[RateLimitItem]]:
        parsed: dict[str, list[RateLimitItem]] = {}
        for part in filter(None, (p.strip() for p in config.split(";"))):
            kind, equals, spec = (s.strip() for s in part.partition("="))
            if not equals or kind not in cls.KINDS:
                raise ValueError(f"rate limits: expected KIND=LIMITS with KIND one of {', '.join(cls.KINDS)}, "
                                 f"not {part!r} (example: {cls.DEFAULTS!r}, or 'off')")
            try:
                parsed[kind] = [] if spec.lower() == "off" else parse_many(spec)
            except ValueError:
                raise ValueError(f"rate limits: cannot read {spec!r} for {kind} "
                                 "(write limits such as 10/second or 20/minute,200/hour)") from None
        return parsed

    def check(self, client: str, kind: str) -> float | None:
        """Count one request of ``kind`` from ``client``: None if allowed, else the seconds
        until the client may try again."""
        refused = self._hit(client, kind)
        return None if refused is None else refused[1]

    def enforce(self, client: str, kind: str) -> None:
        """Count one request; raise :class:`TooManyRequests` (a ``WebError``) if over a limit."""
        refused = self._hit(client, kind)
        if refused is not None:
            item, wait = refused
            raise TooManyRequests(TEXTS(f"too_many_{kind}", limit=_describe(item), wait=f"{wait:.1f}"), wait)

    def _hit(self, client: str, kind: str) -> tuple[RateLimitItem, float] | None:
        if self.limiter is None:
            return None
        for item in self.items.get(kind, ()):
            if not self.limiter.hit(item, kind, client):
                reset = self.limiter.get_window_stats(item, kind, client).reset_time
                return item, max(0.1, reset - time.time())
        return None

    def refuse_if_spent(self, client: str, kind: str) -> None:
        """Raise :class:`TooManyRequests` if ``client`` has used up a limit of ``kind``, without
        counting this request (for limits on failures, counted with :meth:`count`)."""
        if self.limiter is None:
            return
        for item in self.items.get(kind, ()):
            if not self.limiter.test(item, kind, client):
                reset = self.limiter.get_window_stats(item, kind, client).reset_time
                wait = max(0.1, reset - time.time())
                raise TooManyRequests(TEXTS(f"too_many_{kind}", limit=_describe(item), wait=f"{wait:.1f}"), wait)

    def count(self, client: str, kind: str) -> None:
        """Count one event of ``kind`` (a failed login) against every limit of that kind."""
        if self.limiter is None:
            return
        for item in self.items.get(kind, ()):
            self.limiter.hit(item, kind, client)


#: failed logins per client address, per account name and per account and address, and new
#: accounts per address
DEFAULT_LOGIN_LIMITS = "login=20/minute,100/hour;account=5/minute,20/hour;pair=5/minute,20/hour;signup=20/hour"


class LoginLimits(RateLimits):
    """The limits on logging in and signing up, e.g. ``LoginLimits("account=3/minute")``:
    ``login`` counts the failed logins of a client address, ``account`` those of one user name
    from devices that never logged in to it (a device with its device cookie is not held back
    by strangers' failures), ``pair`` those of one user name from one address (everyone's,
    the device cookie's too), ``signup`` the new accounts of an address; ``off`` lifts them."""

    KINDS: ClassVar[dict[str, str]] = {"login": "failed logins per address", "account": "failed logins per account",
                                       "pair": "failed logins per account and address",
                                       "signup": "new accounts per address"}
    DEFAULTS = DEFAULT_LOGIN_LIMITS


class RateLimitMiddleware:
    """ASGI middleware: answer an HTTP request over its limit with 429, a JSON error naming the
    limit (in the language of the request's ``Accept-Language``) and a Retry-After header;
    count everything else and pass it on."""

    def __init__(self, app: Any, limits: RateLimits):
        self.app = app
        self.limits = limits

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.limits.limiter is not None:
            kind = http_kind(scope["method"], scope["path"])
            if kind is not None:
                try:
                    self.limits.enforce(client_of(scope), kind)
                except TooManyRequests as exc:
                    lang = language_of(_header(scope, b"accept-language"))
                    body = orjson.dumps({"error": exc.text(lang), "key": exc.key})
                    await send({"type": "http.response.start", "status": 429, "headers": [
                        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                        (b"retry-after", str(math.ceil(exc.retry_after)).encode()),
                    ]})
                    await send({"type": "http.response.body", "body": body})
                    return
        await self.app(scope, receive, send)


# ---------------------------------------------------------------------------- sessions and CSRF
#: the session cookie (HttpOnly, SameSite=Lax, Secure over HTTPS), see :mod:`.accounts`
SESSION_COOKIE = "ludothek_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: the requests that make a session: no token is asked (there is none yet), but they must come
#: from a page of this site (no login CSRF)
SESSION_MAKERS = frozenset({"/api/login", "/api/signup"})


def csrf_for(secret: str) -> str:
    """The CSRF token of a session: derived from the cookie's secret, so checking it needs no
    database; the database holds another digest of the secret, which does not give this one."""
    return hashlib.sha256(b"ludothek-csrf\0" + secret.encode("utf-8", "replace")).hexdigest()


def session_secret(scope: dict) -> str | None:
    """The session cookie's value in a request or a websocket handshake (None: no cookie)."""
    raw = _header(scope, b"cookie")
    if not raw:
        return None
    return cookie_parser(raw).get(SESSION_COOKIE) or None


def same_origin(scope: dict) -> bool:
    """Whether a request or handshake comes from a page of this site, as far as the browser
    tells: ``Sec-Fetch-Site`` where it is sent, else the ``Origin`` against the ``Host``. A client
    that sends neither (not a browser) counts as same-origin: it carries no victim's cookie."""
    site = _header(scope, b"sec-fetch-site")
    if site is not None:
        return site.strip().lower() in ("same-origin", "none")
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    host = (_header(scope, b"host") or "").strip().lower()
    return bool(host) and urlsplit(origin.strip()).netloc.lower() == host


class CsrfGuard:
    """ASGI middleware: a state-changing HTTP request (not GET, HEAD or OPTIONS) that carries the
    session cookie must send the session's CSRF token in ``X-CSRF-Token``; login and signup
    must come from this site's own pages. Refused with 403 and a keyed message in the
    request's language. Requests without the cookie (guests and API clients with seat tokens)
    pass unchanged."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refused = None
            secret = session_secret(scope)
            if scope["path"] in SESSION_MAKERS:
                if not same_origin(scope):
                    refused = TEXTS("cross_site")
            elif secret is not None:
                sent = (_header(scope, CSRF_HEADER.lower().encode()) or "").strip()
                if not hmac.compare_digest(sent.encode("utf-8", "replace"), csrf_for(secret).encode()):
                    refused = TEXTS("csrf")
            if refused is not None:
                lang = language_of(_header(scope, b"accept-language"))
                error = WebError(403, refused)
                body = orjson.dumps({"error": error.text(lang), "key": error.key})
                await send({"type": "http.response.start", "status": 403, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                ]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _header(scope: dict, name: bytes) -> str | None:
    """An HTTP header of an ASGI scope (the first, if it comes twice)."""
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return None


# ---------------------------------------------------------------------------- what clients send
MAX_DEPTH = 32


def parse_json_object(raw: bytes | str, what: Message | str | None = None) -> dict:
    """A JSON object from a client, or ``WebError(400)``: for invalid JSON or UTF-8, anything but
    an object, and nesting deeper than :data:`MAX_DEPTH` (checked without recursion). ``what``
    names the text in the message (default: the request body)."""
    what = TEXTS("request_body") if what is None else what
    try:
        data = orjson.loads(raw)  # it stops by itself at depth 1024, with an error
    except orjson.JSONDecodeError as exc:
        try:
            raw.decode("utf-8") if isinstance(raw, bytes) else raw.encode("utf-8")
        except UnicodeError:
            raise WebError(400, TEXTS("not_utf8", what=what)) from None
        if "depth" in str(exc) or "recursion" in str(exc):
            raise WebError(400, TEXTS("too_deep", what=what, limit=MAX_DEPTH)) from None
        raise WebError(400, TEXTS("not_json", what=what)) from None
    if not isinstance(data, dict):
        raise WebError(400, TEXTS("not_object", what=what))
    # fewer brackets than the limit cannot nest deeper: the walk is for unusual bodies only
    brackets = raw.count(b"[") + raw.count(b"{") if isinstance(raw, bytes) else raw.count("[") + raw.count("{")
    if brackets > MAX_DEPTH and _deeper_than(data, MAX_DEPTH):
        raise WebError(400, TEXTS("too_deep", what=what, limit=MAX_DEPTH))
    return data


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return False


def server_fields_only(spec: dict) -> dict:
    """A client's create request without the server's own fields (keys starting with "_")."""
    return {key: value for key, value in spec.items() if not key.startswith("_")}
