"""A server that stops gracefully closes its websockets with 1012 ("service restart"); the page
reconnects at once (not after its backoff) and shows what happens after the restart."""

from __future__ import annotations

import httpx

from .browser import checked_page, require_browser
from .servers import Server

require_browser()
BOUND_MS = 120_000  # a generous bound for a busy machine: a server restart warms up first


def test_the_page_reconnects_after_a_graceful_restart(browser, tmp_path):
    db = str(tmp_path / "restart.sqlite3")
    server = Server(db, "--bots", "thread")
    port = server.port
    try:
        created = httpx.post(f"{server.base}/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed"},
                             timeout=30).json()
        with checked_page(browser) as page:
            frames: list[tuple[int, str]] = []  # (which websocket of the page, what it was sent)
            sockets: list = []

            def opened(ws) -> None:
                if "/ws/games/" in ws.url:
                    sockets.append(ws)
                    number = len(sockets)
                    ws.on("framereceived", lambda payload: frames.append((number, str(payload))))

            def wait_for(predicate, what: str) -> None:
                for _ in range(BOUND_MS // 100):  # polled (events arrive while Playwright waits)
                    if predicate():
                        return
                    page.wait_for_timeout(100)
                raise AssertionError(f"not within {BOUND_MS // 1000} s: {what}")

            page.on("websocket", opened)
            page.goto(f"{server.base}/play/{created['id']}")
            wait_for(lambda: frames, "the page's websocket got the game")
            # the delay the page takes for each close: at once for a restart, its backoff otherwise
            delays = page.evaluate("""async () => {
                const { restartDelay } = await import('/static/js/app.js');
                return [restartDelay({ code: 1012 }), restartDelay({ code: 1006 }), restartDelay({ code: 1000 })];
            }""")
            assert 0 < delays[0] <= 500 and delays[1] is None and delays[2] is None
            server.stop()
            assert server.process.returncode is not None
            wait_for(lambda: sockets[0].is_closed(), "the stopping server closed the page's websocket")
            server = Server(db, "--bots", "thread", port=port)
            move = created["game"]["moves"][0]["move"]
            reply = httpx.post(f"{server.base}/api/games/{created['id']}/move",
                               json={"token": created["token"], "move": move}, timeout=30)
            assert reply.status_code == 200
            # the page, connected again, holds the game after the move (sent it, or read it on connecting)
            wait_for(lambda: any(n > 1 and '"plies":1' in text for n, text in frames),
                     "the page reconnected to the restarted server and got the move")
    finally:
        server.stop()
