"""ludothek.web.timeouts on a tiny app served by uvicorn in this process: the read deadlines'
finer rules and the connection cap. tests/test_web_exposed.py shows the same against a real
``ludothek serve`` with hundreds of half-sent requests."""

from __future__ import annotations

import json
import pickle
import re
import selectors
import socket
import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn")

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from ludothek.web.timeouts import ReadLimits, TimedHttpProtocol, default_max_connections, uvicorn_options

BOUND = 60.0  # seconds any wait here may take at most on a busy machine


async def echo(request):
    body = await request.body()
    return JSONResponse({"bytes": len(body)})


class ToyServer:
    def __init__(self, **options):
        app = Starlette(routes=[Route("/", echo, methods=["GET", "POST"])])
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", **uvicorn_options(**options)))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True)
        self.thread.start()
        until = time.monotonic() + BOUND
        while not self.server.started:  # uvicorn offers no event for this
            assert self.thread.is_alive() and time.monotonic() < until, "the toy server did not start"
            time.sleep(0.02)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=BOUND)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(BOUND)


@pytest.fixture()
def toy(request):
    servers = []

    def start(**options):
        servers.append(ToyServer(**options))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (within :data:`BOUND`)."""
    sock.settimeout(BOUND)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def answers(data: bytes) -> list[int]:
    """The status codes of the HTTP answers in ``data``, in order."""
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", data)]


def drip_until_answered(sock: socket.socket, began: float, piece, what: str) -> list[float]:
    """Send ``piece(n)`` (n = 1, 2, ...) every 0.1 s until the server answers; the gaps between
    the sends, the first counted from now."""
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    sent_at = [time.monotonic()]
    while not selector.select(timeout=0.1):  # the server has not answered yet
        assert time.monotonic() - began < BOUND, f"the {what} was never cut off"
        sock.sendall(piece(len(sent_at)))
        sent_at.append(time.monotonic())
    return [b - a for a, b in zip(sent_at, sent_at[1:])]


def test_a_request_in_several_pieces_within_the_deadlines_is_served(toy):
    server = toy(header_timeout=BOUND, body_timeout=BOUND)
    with server.connect() as sock:
        for piece in (b"POST / HTTP/1.1\r\nHost: x\r\n", b"Content-Length: 5\r\n\r\nab", b"cde"):
            sock.sendall(piece)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = read_until_closed(sock)
    assert answers(data) == [200, 200]
    assert b'{"bytes":5}' in data


def test_headers_have_a_deadline_not_an_idle_time(toy):
    """A byte every 0.1 s does not keep a connection open past the header deadline."""
    server = toy(header_timeout=1.0, body_timeout=BOUND)
    began = time.monotonic()  # before connecting: the server's deadline runs from its accept
    with server.connect() as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        gaps = drip_until_answered(sock, began, lambda n: b"X-Slow-%d: 1\r\n" % n, "slow client")
        data = read_until_closed(sock)
        elapsed = time.monotonic() - began
    assert answers(data) == [408]
    assert json.loads(data.split(b"\r\n\r\n", 1)[1])["key"] == "web.timeout_headers"
    assert elapsed >= 1.0
    assert len(gaps) >= 2 and max(gaps) < 1.0, gaps  # it kept sending, never idle for the 1 s


def test_a_body_that_keeps_coming_is_read_past_the_idle_time(toy):
    """Pieces of 100 bytes 0.3 s apart for 1.8 s pass a 1 s idle time at 100 bytes/s at least."""
    server = toy(header_timeout=BOUND, body_timeout=1.0, min_body_rate=100)
    with server.connect() as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 600\r\n\r\n")
        began = time.monotonic()
        for _ in range(6):
            time.sleep(0.3)  # the slow client under test
            sock.sendall(b"x" * 100)
        data = read_until_closed(sock)
    assert time.monotonic() - began > 1.0
    assert answers(data) == [200]
    assert b'{"bytes":600}' in data


def test_a_body_dripped_slower_than_the_minimum_rate_is_cut_though_it_never_pauses(toy):
    """A byte every 0.1 s (10 bytes/s, never idle for the 1 s) against 20 bytes/s: each byte
    moves the deadline on by 0.05 s, so it passes about 2 s after the headers."""
    server = toy(header_timeout=BOUND, body_timeout=1.0, min_body_rate=20)
    with server.connect() as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n")
        gaps = drip_until_answered(sock, time.monotonic(), lambda n: b"x", "dripping body")
        data = read_until_closed(sock)
    assert answers(data) == [408]
    assert json.loads(data.split(b"\r\n\r\n", 1)[1])["key"] == "web.timeout_body"
    # it never paused for the 1 s, so the pace cut it, not the idle time (on a busy machine it
    # sends fewer bytes than planned, and the pace cuts it sooner)
    assert len(gaps) >= 2 and max(gaps) < 1.0, gaps


def test_a_stalled_body_is_answered_408_in_the_clients_language(toy):
    server = toy(header_timeout=BOUND, body_timeout=1.0)
    with server.connect() as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nAccept-Language: de\r\nContent-Length: 100\r\n\r\nabc")
        data = read_until_closed(sock)
    assert answers(data) == [408]
    error = json.loads(data.split(b"\r\n\r\n", 1)[1])
    assert error == {"error": "der Inhalt der Anfrage kam zu langsam: er stockte 1 s lang oder kam nach den ersten "
                              "1 s mit weniger als 500 Bytes pro Sekunde", "key": "web.timeout_body"}


def test_an_idle_keep_alive_connection_then_a_slow_second_request(toy):
    """After an answer, the next request's headers get their own deadline from its first byte."""
    server = toy(header_timeout=1.0, body_timeout=BOUND)
    with server.connect() as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        first = sock.recv(65536)
        assert answers(first) == [200]
        sock.sendall(b"GET / HTTP/1.1\r\n")  # and no more
        data = read_until_closed(sock)
    assert answers(data) == [408]


def test_a_connection_that_sends_nothing_is_closed(toy):
    server = toy(header_timeout=1.0, body_timeout=BOUND)
    with server.connect() as sock:
        assert answers(read_until_closed(sock)) == [408]


def test_connections_over_the_cap_are_refused_at_once(toy):
    server = toy(header_timeout=BOUND, body_timeout=BOUND, max_connections=5)
    held = [server.connect() for _ in range(5)]
    try:
        with server.connect() as sock:
            data = read_until_closed(sock)
        assert answers(data) == [503]
        assert json.loads(data.split(b"\r\n\r\n", 1)[1])["key"] == "web.too_many_connections"
        held.pop().close()
        until = time.monotonic() + BOUND
        while True:  # the server notices the close soon; then there is room again
            with server.connect() as sock:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if answers(read_until_closed(sock)) == [200]:
                    break
            assert time.monotonic() < until, "no room after a connection closed"
    finally:
        for sock in held:
            sock.close()


def test_options_are_checked_and_the_default_cap_follows_the_file_limit():
    import resource

    with pytest.raises(ValueError, match="header_timeout must be a positive number"):
        uvicorn_options(header_timeout=0)
    with pytest.raises(ValueError, match="min_body_rate must be a positive number"):
        uvicorn_options(min_body_rate=float("nan"))
    options = uvicorn_options(2, 3, 0)
    assert options["http"].func is TimedHttpProtocol
    assert options["http"].keywords["limits"] == ReadLimits(2.0, 3.0, 0, 500.0)
    assert pickle.loads(pickle.dumps(options))["http"].keywords == options["http"].keywords  # for worker processes
    cap = default_max_connections()
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert 0 < cap < soft
