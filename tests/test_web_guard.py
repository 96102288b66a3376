"""ludothek.web.guard: security headers, per-address rate limits, checks of hostile input.

The middlewares are tested on a tiny Starlette app; the last tests check that ``create_app``
applies them (they fail until app.py wires the guard in).
"""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ludothek.web.guard import (
    CSP,
    DEFAULT_RATE_LIMITS,
    MAX_DEPTH,
    RateLimitMiddleware,
    RateLimits,
    SecurityHeaders,
    TooManyRequests,
    client_of,
    http_kind,
    parse_json_object,
    server_fields_only,
)
from ludothek.web.service import WebError, seat_arg

HARDENING = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "x-frame-options": "DENY",
             "referrer-policy": "same-origin"}


# ---------------------------------------------------------------------------- parse_json_object
def nested(depth: int) -> bytes:
    """An object whose innermost list sits ``depth`` levels deep (the object is level 1)."""
    return b'{"a":' + b"[" * (depth - 1) + b"]" * (depth - 1) + b"}"


def rejected(raw, what="the request body") -> str:
    with pytest.raises(WebError) as info:
        parse_json_object(raw, what)
    assert info.value.status == 400
    return info.value.message


def test_parse_accepts_an_ordinary_body():
    body = json.dumps({"token": "t" * 32, "move": "c1", "seat": 0, "options": {"size": 7}, "list": [1, [2]]})
    assert parse_json_object(body.encode()) == json.loads(body)
    assert parse_json_object(body) == json.loads(body)  # websocket text


def test_parse_nesting_limit():
    assert parse_json_object(nested(MAX_DEPTH))["a"] is not None
    assert rejected(nested(MAX_DEPTH + 1)) == f"the request body nests deeper than {MAX_DEPTH} levels"
    wide = b'{"a":[' + b",".join([b"[1,[2]]"] * 500) + b"]}"  # many brackets, shallow
    assert len(parse_json_object(wide)["a"]) == 500


def test_parse_8000_brackets_is_a_400_not_a_crash():
    assert "nests deeper" in rejected(b"[" * 8000)
    assert "nests deeper" in rejected(b'{"a":' + b"[" * 8000 + b"]" * 8000 + b"}")
    assert "nests deeper" in rejected("[" * 8000, "the message")
    assert "nests deeper" in rejected(b"{\"a\":" + b"[" * 8000)  # unbalanced, but the depth is found first


def test_parse_brackets_inside_strings_do_not_count():
    body = json.dumps({"move": "[" * 5000, "other": "{" * 5000}).encode()
    assert parse_json_object(body)["move"] == "[" * 5000


def test_parse_bad_utf8_and_surrogates():
    assert rejected(b'{"move": "\xff\xfe"}') == "the request body is not valid UTF-8"
    assert rejected(b'{"move": "\xed\xa0\x80"}') == "the request body is not valid UTF-8"  # an encoded surrogate
    assert "not valid" in rejected(b'{"move": "\\ud800"}')  # a lone escaped surrogate


@pytest.mark.parametrize("raw", [b"[1, 2]", b"[]", b"3", b"-0.5", b'"text"', b"null", b"true"])
def test_parse_wants_an_object(raw):
    assert rejected(raw, "the message") == "the message must be a JSON object"


@pytest.mark.parametrize("raw", [b"", b"   ", b"{", b'{"a":1}{"b":2}', b"{'a': 1}", b'{"a": NaN}', b'{"a": Infinity}',
                                 b'{"a": 1e400}', b'{"a": 01}', b"\x00"])
def test_parse_invalid_json(raw):
    assert rejected(raw) == "the request body is not valid JSON"


def test_parse_numbers():
    data = parse_json_object(b'{"i": 12, "f": 1.5, "neg": -3, "big": 18446744073709551615, "e": 2e3}')
    assert data == {"i": 12, "f": 1.5, "neg": -3, "big": 18446744073709551615, "e": 2000.0}
    assert type(data["i"]) is int and type(data["e"]) is float


# ---------------------------------------------------------------------------- seat_arg, server_fields_only
@pytest.mark.parametrize("value", [None, 0, 1])
def test_seat_arg_accepts(value):
    assert seat_arg(value) is value


@pytest.mark.parametrize("value", [0.0, 1.0, True, False, "0", "1", 2, -1, [0], {"seat": 0}, 1.5, float("nan")])
def test_seat_arg_rejects(value):
    with pytest.raises(WebError) as info:
        seat_arg(value)
    assert info.value.status == 400
    assert info.value.message.startswith("seat must be 0 or 1, not ")


def test_seat_arg_message_is_short():
    with pytest.raises(WebError) as info:
        seat_arg("x" * 10_000)
    assert len(info.value.message) < 80


def test_server_fields_only():
    spec = {"game": "trike", "options": {"size": 7, "_x": 1}, "_rematch_of": "abc", "_start": "high", "seat": 0}
    assert server_fields_only(spec) == {"game": "trike", "options": {"size": 7, "_x": 1}, "seat": 0}
    assert "_rematch_of" in spec  # the caller's dict is not changed


# ---------------------------------------------------------------------------- RateLimits
def test_rate_limit_configuration():
    default = RateLimits()
    assert {k: [str(i) for i in v] for k, v in default.items.items()} == {
        "create": ["20 per 1 minute", "200 per 1 hour"], "move": ["10 per 1 second"],
        "analysis": ["10 per 1 minute", "60 per 1 hour"]}
    assert RateLimits(DEFAULT_RATE_LIMITS).items.keys() == default.items.keys()
    changed = RateLimits("move=3/second,100/minute")
    assert [str(i) for i in changed.items["move"]] == ["3 per 1 second", "100 per 1 minute"]
    assert [str(i) for i in changed.items["create"]] == ["20 per 1 minute", "200 per 1 hour"]  # kept
    assert "move" not in RateLimits("move=off").items
    assert RateLimits("off").limiter is None
    for bad in ("move", "moves=1/second", "move=often", "create=20/fortnight"):
        with pytest.raises(ValueError, match="rate limits"):
            RateLimits(bad)


def test_rate_limit_check_and_enforce():
    limits = RateLimits("create=2/minute;move=off")
    assert limits.check("10.0.0.1", "create") is None
    assert limits.check("10.0.0.1", "create") is None
    wait = limits.check("10.0.0.1", "create")
    assert wait is not None and 0 < wait <= 60
    assert limits.check("10.0.0.2", "create") is None  # another address has its own count
    assert all(limits.check("10.0.0.1", "move") is None for _ in range(100))
    with pytest.raises(TooManyRequests) as info:
        limits.enforce("10.0.0.1", "create")
    assert info.value.status == 429 and isinstance(info.value, WebError)
    assert info.value.message.startswith("too many new games from your address: at most 2 per 1 minute; try again in ")
    off = RateLimits("off")
    assert all(off.check("10.0.0.1", "move") is None for _ in range(100))


@pytest.mark.parametrize(("method", "path", "kind"), [
    ("POST", "/api/games", "create"), ("POST", "/api/games/abc/rematch", "create"),
    ("POST", "/api/games/abc/move", "move"), ("POST", "/api/games/abc/undo", "move"),
    ("POST", "/api/games/abc/resign", "move"), ("POST", "/api/games/abc/claim", "move"),
    ("POST", "/api/games/abc/join", "move"), ("POST", "/api/games/abc/analysis", "analysis"),
    ("GET", "/api/games/abc/analysis", None),
    ("GET", "/api/games", None), ("GET", "/api/games/abc", None), ("POST", "/api/preview", None),
    ("GET", "/api/games/abc/move", None), ("POST", "/static/move", None),
])
def test_http_kind(method, path, kind):
    assert http_kind(method, path) == kind


@pytest.mark.parametrize(("client", "key"), [
    (("203.0.113.7", 5000), "203.0.113.7"), (None, "unknown"),
    (("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 5000), "2001:db8:1:2::/64"),
    (("2001:db8:1:2::1", 5000), "2001:db8:1:2::/64"), (("2001:db8:1:3::1", 5000), "2001:db8:1:3::/64"),
    (("::ffff:203.0.113.7", 5000), "203.0.113.7"), (("fe80::1%eth0", 5000), "fe80::/64"),
    (("testclient", 50000), "testclient"),
])
def test_client_of(client, key):
    assert client_of({"type": "http", "client": client}) == key


# ---------------------------------------------------------------------------- the middlewares on a tiny app
def tiny_app(tmp_path, limits: str):
    (tmp_path / "style.css").write_text("body { color: black }")

    async def created(request):
        return JSONResponse({"id": "abc"}, status_code=201)

    async def move(request):
        return JSONResponse({"moved": request.path_params["id"]})

    async def game(request):
        return JSONResponse({"game": request.path_params["id"]})

    async def failing(request):
        return JSONResponse({"error": "the move is not legal"}, status_code=400)

    async def framed(request):
        return PlainTextResponse("mine", headers={"Content-Security-Policy": "default-src 'none'"})

    async def echo(ws):
        await ws.accept()
        await ws.send_text(await ws.receive_text())
        await ws.close()

    app = Starlette(routes=[
        Route("/api/games", created, methods=["POST"]),
        Route("/api/games/{id}", game, methods=["GET"]),
        Route("/api/games/{id}/move", move, methods=["POST"]),
        Route("/api/games/{id}/resign", move, methods=["POST"]),
        Route("/bad", failing), Route("/own-csp", framed),
        WebSocketRoute("/ws", echo),
        Mount("/static", StaticFiles(directory=tmp_path)),
    ])
    return SecurityHeaders(RateLimitMiddleware(app, RateLimits(limits)))


def has_hardening(response) -> None:
    for name, value in HARDENING.items():
        assert response.headers[name] == value, name


def test_security_headers_everywhere(tmp_path):
    with TestClient(tiny_app(tmp_path, "off")) as client:
        static = client.get("/static/style.css")
        assert static.status_code == 200 and static.text.startswith("body")
        has_hardening(static)
        has_hardening(client.get("/api/games/abc"))
        has_hardening(client.get("/bad"))
        has_hardening(client.get("/no/such/page"))
        assert client.get("/no/such/page").status_code == 404
        own = client.get("/own-csp")  # a response's own policy is kept, the rest added
        assert own.headers["content-security-policy"] == "default-src 'none'"
        assert own.headers["x-frame-options"] == "DENY"
        with client.websocket_connect("/ws") as ws:  # websockets pass through
            ws.send_text("hello")
            assert ws.receive_text() == "hello"


def test_rate_limited_moves_get_429_with_message_and_retry_after(tmp_path):
    app = tiny_app(tmp_path, "create=2/minute;move=3/minute")
    with TestClient(app, client=("10.0.0.1", 5000)) as alice, TestClient(app, client=("10.0.0.2", 5000)) as bob:
        for _ in range(3):
            assert alice.post("/api/games/abc/move", json={"move": "c1"}).status_code == 200
        refused = alice.post("/api/games/abc/resign", json={})  # resign counts as a move
        assert refused.status_code == 429
        message = refused.json()["error"]
        assert message.startswith("too many moves from your address: at most 3 per 1 minute; try again in ")
        assert message.endswith(" s")
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        has_hardening(refused)
        assert alice.get("/api/games/abc").status_code == 200  # reading is not limited
        assert bob.post("/api/games/abc/move", json={"move": "c1"}).status_code == 200  # another address
        # creating games has its own limit
        assert [alice.post("/api/games", json={}).status_code for _ in range(3)] == [201, 201, 429]
        assert "too many new games" in alice.post("/api/games", json={}).json()["error"]


def test_rate_limits_off(tmp_path):
    with TestClient(tiny_app(tmp_path, "off")) as client:
        assert {client.post("/api/games/abc/move", json={}).status_code for _ in range(50)} == {200}


# ---------------------------------------------------------------------------- wired into create_app
@pytest.fixture()
def real_client(tmp_path):
    from ludothek.web import create_app

    with TestClient(create_app(str(tmp_path / "guard.sqlite3"), bot_executor="thread")) as client:
        yield client


def test_create_app_sends_the_security_headers(real_client):
    for path in ("/", "/static/js/app.js", "/api/catalog", "/api/games/no-such-game"):
        has_hardening(real_client.get(path))


def test_create_app_refuses_hostile_bodies_with_400(real_client):
    deep = real_client.post("/api/games", content=b"[" * 8000, headers={"content-type": "application/json"})
    assert deep.status_code == 400 and "nests deeper" in deep.json()["error"]
    created = real_client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "_rematch_of": "x"})
    assert created.status_code == 201
    game_id, token = created.json()["id"], created.json()["token"]
    assert real_client.app.state.store.load(game_id).rematch_of is None
    move = real_client.post(f"/api/games/{game_id}/move", json={"token": token, "move": "c1", "seat": 0.0})
    assert move.status_code == 400 and move.json()["error"].startswith("seat must be 0 or 1")
    resign = real_client.post(f"/api/games/{game_id}/resign", json={"token": token, "seat": 1.0})
    assert resign.status_code == 400 and resign.json()["error"].startswith("seat must be 0 or 1")
    bad_seat = real_client.post("/api/games", json={"game": "trike", "opponent": "bot", "seat": 1.0})
    assert bad_seat.status_code == 400
    with real_client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.receive_json()  # the state
        ws.send_text("[" * 3000)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "nests deeper" in reply["error"]
