"""A real ``ludothek serve`` exposed to the internet's manners (issue 33, item 6): half-sent
requests are closed on their deadlines while others are served, one address holds at most
``--max-websockets`` websockets (the address ``--proxy`` makes it: X-Forwarded-For from the
proxy), and ``--allowed-hosts`` turns other Host headers away. tests/test_web_timeouts.py has
the deadlines' finer rules; tests/test_deploy_nginx.py the same server behind nginx."""

from __future__ import annotations

import asyncio
import json
import re
import selectors
import socket
import time

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

from click.testing import CliRunner

from ludothek.cli import main
from ludothek.web.admission import WS_CAP_CODE, AllowedHosts, HostListError

from .servers import Server, wait_for_port

TIMEOUT = 3.0  # the server's header and body timeouts
CAP = 3  # its websockets per address
BOUND = 60.0  # the longest any wait here may take on a busy machine


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("exposed") / "exposed.sqlite3"
    running = Server(str(db), "--bots", "thread", "--rate-limits", "off", "--proxy", "127.0.0.1",
                     "--header-timeout", str(TIMEOUT), "--body-timeout", str(TIMEOUT),
                     "--max-websockets", str(CAP), "--allowed-hosts", "localhost,127.0.0.1")
    wait_for_port(running.port, running.process, "ludothek serve")
    yield running
    running.stop()


def answers(data: bytes) -> list[int]:
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", data)]


# ---------------------------------------------------------------------------- read timeouts
def test_200_half_sent_requests_are_closed_while_a_normal_client_is_served(server):
    partial_headers = b"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Never-Ends: "
    partial_body = (b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 1000\r\n\r\n{\"name\": \"")
    selector = selectors.DefaultSelector()
    opened: dict[socket.socket, tuple[bytes, float, bytes]] = {}
    for k in range(200):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=BOUND)
        sent = partial_headers if k % 2 == 0 else partial_body
        sock.sendall(sent)
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        opened[sock] = (sent, time.monotonic(), b"")
    try:
        normal = httpx.get(f"{server.base}/api/catalog", timeout=BOUND)
        served = time.monotonic()
        assert normal.status_code == 200
        closed: list[tuple[bytes, float, bytes]] = []
        first_close = float("inf")
        until = time.monotonic() + BOUND
        while opened:
            assert time.monotonic() < until, f"{len(opened)} half-sent connections still open after {BOUND:.0f} s"
            for key, _ in selector.select(timeout=1.0):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                sent, began, data = opened[sock]
                if chunk:
                    opened[sock] = (sent, began, data + chunk)
                    continue
                del opened[sock]
                selector.unregister(sock)
                sock.close()
                closed.append((sent, time.monotonic() - began, data))
                first_close = min(first_close, time.monotonic())
    finally:
        for sock in opened:
            sock.close()
    assert len(closed) == 200
    for sent, seconds, data in closed:
        assert answers(data) == [408], data
        assert seconds >= TIMEOUT - 0.05  # never before its deadline
        key = "web.timeout_headers" if sent == partial_headers else "web.timeout_body"
        assert json.loads(data.split(b"\r\n\r\n", 1)[1])["key"] == key
    assert served < first_close, "the normal client was answered only after the half-sent connections closed"
    assert httpx.get(f"{server.base}/api/catalog", timeout=BOUND).status_code == 200


# ---------------------------------------------------------------------------- websockets per address
def lobby(server, address: str | None = None, lang: str = "en"):
    headers = {"X-Forwarded-For": address} if address else {}
    return websockets.connect(f"ws://127.0.0.1:{server.port}/ws/lobby?lang={lang}", additional_headers=headers,
                              open_timeout=BOUND)


async def alive(ws) -> bool:
    """Whether the server answers a ping on ``ws`` (the lobby's own news may come first)."""
    await ws.send(json.dumps({"type": "ping", "ref": 1}))
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), BOUND))
        if message.get("type") in ("pong", "error"):
            return message["type"] == "pong"


async def refused(ws) -> dict:
    """The error a websocket over the cap is sent before it is closed with WS_CAP_CODE."""
    error = json.loads(await asyncio.wait_for(ws.recv(), BOUND))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), BOUND)
    assert closed.value.rcvd.code == WS_CAP_CODE
    return error


def test_one_address_holds_at_most_max_websockets_counted_behind_the_proxy(server):
    async def scenario():
        held = [await lobby(server, "198.51.100.7") for _ in range(CAP)]
        try:
            for ws in held:
                assert await alive(ws)
            async with lobby(server, "198.51.100.7") as extra:
                error = await refused(extra)
            assert error["type"] == "error" and error["status"] == 429
            assert error["key"] == "web.too_many_websockets"
            assert error["error"] == (f"too many open connections to live games and the lobby from your address: "
                                      f"at most {CAP}; close another tab first")
            async with lobby(server, "198.51.100.7", lang="de") as extra:
                assert (await refused(extra))["error"].startswith("zu viele offene Verbindungen")
            # another address behind the same proxy, and the proxy's own address, are not held back
            async with lobby(server, "198.51.100.8") as other, lobby(server) as direct:
                assert await alive(other) and await alive(direct)
            # a closed websocket makes room (the server counts it down as soon as it notices)
            await held.pop().close()
            until = time.monotonic() + BOUND
            while True:
                async with lobby(server, "198.51.100.7") as again:
                    try:  # a refused socket may be closed before the ping goes out
                        if await alive(again):
                            break
                    except websockets.ConnectionClosed as closed:
                        assert closed.rcvd.code == WS_CAP_CODE
                assert time.monotonic() < until, "no room after a websocket closed"
        finally:
            for ws in held:
                await ws.close()

    asyncio.run(scenario())


# ---------------------------------------------------------------------------- allowed hosts
def test_a_request_for_another_host_gets_400_naming_it(server):
    answer = httpx.get(f"{server.base}/api/catalog", headers={"Host": "evil.example"}, timeout=BOUND)
    assert answer.status_code == 400
    assert answer.json() == {"error": "this server does not answer to the host name 'evil.example'",
                             "key": "web.bad_host"}
    assert answer.headers["x-frame-options"] == "DENY"  # a refusal is hardened like every answer
    german = httpx.get(f"{server.base}/", headers={"Host": "evil.example:8000", "Accept-Language": "de"},
                       timeout=BOUND)
    assert german.status_code == 400
    assert german.json()["error"] == "dieser Server antwortet nicht unter dem Namen 'evil.example:8000'"
    for host in (f"localhost:{server.port}", "LOCALHOST", f"127.0.0.1:{server.port}", "localhost."):
        assert httpx.get(f"{server.base}/api/catalog", headers={"Host": host}, timeout=BOUND).status_code == 200


def test_a_request_without_a_host_gets_400(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=BOUND) as sock:
        sock.sendall(b"GET /api/catalog HTTP/1.0\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    assert answers(data) == [400]
    assert json.loads(data.split(b"\r\n\r\n", 1)[1])["key"] == "web.no_host"


def test_a_websocket_for_another_host_is_refused_with_400(server):
    async def scenario():
        with pytest.raises(websockets.InvalidStatus) as refused:
            # the URI names the host, the socket goes to the server
            async with websockets.connect(f"ws://evil.example:{server.port}/ws/lobby", open_timeout=BOUND,
                                          host="127.0.0.1", port=server.port):
                pass
        response = refused.value.response
        assert response.status_code == 400
        assert json.loads(response.body)["key"] == "web.bad_host"

    asyncio.run(scenario())


def test_allowed_hosts_patterns():
    hosts = AllowedHosts("play.example.org, *.example.net,127.0.0.1,[::1]")
    for host in ("play.example.org", "Play.Example.Org:443", "play.example.org.", "a.example.net",
                 "b.a.example.net:8000", "127.0.0.1:8000", "[::1]:8000", "[0::1]"):
        assert hosts.allows(host), host
    for host in ("example.org", "example.net", "evil-example.net", "play.example.org.evil", "", None,
                 "127.0.0.2", "[::2]", "play.example.org:", "play.example.org:x", "[::1"):
        assert not hosts.allows(host), host
    assert AllowedHosts(None).allows("anything") and AllowedHosts("*").allows(None)
    assert AllowedHosts("localhost,*").any


@pytest.mark.parametrize("spec", ["http://play.example.org", "play.example.org:443", "a b", "play/x", ",", "-a.org",
                                  "*", "*.*.org"])
def test_allowed_hosts_refuses_what_is_not_a_host_name(spec):
    if spec == "*":  # the one wildcard alone is fine
        AllowedHosts(spec)
        return
    with pytest.raises(HostListError) as info:
        AllowedHosts(spec)
    assert "is not a host name" in str(info.value)
    assert "ist kein Hostname" in info.value.text("de")


def test_serve_names_the_bad_allowed_hosts_entry(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite3"),
                                       "--allowed-hosts", "play.example.org,http://x"])
    assert result.exit_code == 2
    assert result.output.strip() == ("error: --allowed-hosts: 'http://x' is not a host name: list names without "
                                     "scheme or port, such as play.example.org,*.example.org (or * for any)")
