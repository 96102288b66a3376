"""What a walk through the site found (issue 31, item 5), each fixed and checked in Debian's
Chromium (Playwright) against a real ``ludothek serve``:

* a rated game's provisional ratings carry their "?" in the game's strip and its end dialog;
* numbers read as the page's language writes them ("+162,3" in German), and counts take the
  right form ("1 rated game", "1 gewertete Partie");
* Sign up, Log out, Log in shows the log-in form (not the sign-up form again);
* the lobby shows the rating of a seek's author, and a player's own game says Open, not Watch;
* the home cards say in a line what each game is, in English and German, from the game's
  package;
* the profile's chart starts at the starting rating (two points after one game);
* a lobby websocket that closes at once leaves no traceback in the server's log (an in-process
  server, whose log records the test reads).

Screenshots go to tests/artifacts/ (``walk-*.png``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading

import pytest

from .browser import checked_page, require_browser, shot
from .servers import InProcessServer, Server
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_lobby_browser import both_move, in_game, offer, open_lobby, sign_up, wait

sync_api = require_browser()
pytest.importorskip("argon2")
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

PASSWORD = "a long table top"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("walk") / "walk.sqlite3")
    running = Server(db, "--rate-limits", "move=100/second", "--bots", "thread")
    yield running.base
    running.stop()


def log_out(page):
    """Log out from the header (on a phone the button is in the header's menu)."""
    if page.is_visible("#menu-button"):
        page.click("#menu-button")
    page.click("#logout")
    page.wait_for_selector("#login-link")


def test_log_in_after_sign_up_and_log_out_shows_the_log_in_form(browser, site):
    with checked_page(browser) as page:
        sign_up(page, site, "gus")
        log_out(page)
        page.click("#login-link")
        page.wait_for_selector("#login-form")
        assert page.locator("#signup-form").count() == 0
        page.fill("#account-user", "gus")
        page.fill("#account-password", PASSWORD)
        page.click("#account-submit")
        page.wait_for_selector("#account-name")
        # the switch between the forms is the address's: a reload keeps the form shown
        log_out(page)
        page.click("#login-link")
        page.click("#account-switch")
        page.wait_for_selector("#signup-form")
        assert "mode=signup" in page.url
        page.reload()
        page.wait_for_selector("#signup-form")
        page.click("#account-switch")
        page.wait_for_selector("#login-form")
        assert "mode=signup" not in page.url


def test_a_rated_game_shows_provisional_ratings_numbers_and_plurals_as_written(browser, site):
    with checked_page(browser) as cleo, checked_page(browser) as dan, checked_page(browser) as guest:
        sign_up(cleo, site, "hanna")
        sign_up(dan, site, "ivo")
        open_lobby(cleo, site)
        open_lobby(dan, site)
        seek = offer(cleo, rated=True, colour="0")
        # the author's rating beside her name: a newcomer's, provisional
        row = f'#seeks tr[data-row="{seek}"]'
        dan.wait_for_selector(f"{row} .seek-rating", timeout=15000)
        assert dan.text_content(f"{row} .seek-rating") == "(1500?)"
        shot(dan, "walk-lobby-seek-rating")
        dan.click(f'#seeks button[data-seek="{seek}"]')
        game = in_game(dan, "dan-game")
        assert in_game(cleo, "cleo-game") == game
        both_move(cleo, dan)

        # in the lobby the players' own game says Open (and opens their seat); a guest's says Watch
        open_lobby(dan, site)
        dan.wait_for_selector(f'#live a[href="/play/{game}"]')
        assert dan.text_content(f'#live a[href="/play/{game}"]') == "Open"
        open_lobby(guest, site)
        guest.wait_for_selector(f'#live a[href="/play/{game}"]')
        assert guest.text_content(f'#live a[href="/play/{game}"]') == "Watch"
        shot(dan, "walk-lobby-own-game")
        dan.click(f'#live a[href="/play/{game}"]')
        in_game(dan, "dan-back")
        assert dan.evaluate("() => window.ludothekGame.you") == [1]

        dan.click("#resign")
        for page in (cleo, dan):
            wait(page, "() => window.ludothekGame.view.status === 'over' && window.ludothekGame.view.ratings", name="rated-end")
            page.wait_for_selector("#end-ratings")
        after = cleo.evaluate("() => window.ludothekGame.view.ratings.map((r) => Math.round(r.after))")
        delta = cleo.evaluate("() => window.ludothekGame.view.ratings[0].delta")
        # both were newcomers (provisional before) and stay provisional after one game
        for page in (cleo, dan):
            text = page.text_content("#end-ratings")
            assert f"1500? \u2192 {after[0]}?" in text and f"1500? \u2192 {after[1]}?" in text, text
            assert f"+{delta:.1f}" in text
        cleo.click("#end-close")
        assert cleo.text_content("#rating-change-0").startswith(f"1500? \u2192 {after[0]}?")
        # in German: a decimal comma, and the same "?"
        cleo.click('[data-lang="de"]')
        wait(cleo, "() => window.ludothekGame && window.ludothekGame.view && document.getElementById('rating-change-0')",
             name="german-game")
        strip = cleo.text_content("#rating-change-0")
        assert f"+{delta:.1f}".replace(".", ",") in strip and f"{delta:.1f}" not in strip, strip
        shot(cleo, "walk-game-german")
        cleo.click("#end-details")
        end = cleo.text_content("#end-ratings")
        assert f"1500? \u2192 {after[0]}?" in end and f"{delta:.1f}".replace(".", ",") in end, end
        shot(cleo, "walk-end-dialog-german")
        cleo.click("#end-close")

        # the profile: "1 gewertete Partie", the chart from 1500 to the new rating
        cleo.goto(site + "/players/hanna")
        cleo.wait_for_selector(".rating-card[data-game=trike] svg.rating-chart")
        assert "1 gewertete Partie" in cleo.text_content(".rating-card[data-game=trike] .rating-line")
        assert cleo.get_attribute("svg.rating-chart", "data-points") == "2"
        first = cleo.evaluate("() => document.querySelector('svg.rating-chart .chart-point').textContent")
        assert first.endswith("1500"), first
        description = cleo.text_content("svg.rating-chart desc")
        assert "1500" in description and str(after[0]) in description, description
        shot(cleo, "walk-profile-german")
        cleo.click('[data-lang="en"]')
        cleo.wait_for_selector(".rating-card[data-game=trike] svg.rating-chart")
        line = cleo.text_content(".rating-card[data-game=trike] .rating-line")
        assert "1 rated game" in line and "1 rated games" not in line, line
        shot(cleo, "walk-profile")
        for scheme in ("light", "dark"):
            cleo.emulate_media(color_scheme=scheme)
            assert serious_violations(cleo, axe_source()) == [], scheme
        cleo.emulate_media(color_scheme="light")
        # the profile's rating and the leaderboard: no decimal point anywhere in German
        cleo.click('[data-lang="de"]')
        cleo.goto(site + "/leaderboard/trike")
        cleo.wait_for_selector("#leaderboard")
        assert not re.search(r"\d\.\d", cleo.text_content("#leaderboard"))
        for page in (cleo, dan, guest):
            page.evaluate("() => localStorage.setItem('ludothek.lang', 'en')")


def test_the_home_cards_describe_each_game_in_english_and_german(browser, site):
    games = httpx.get(site + "/api/catalog").json()["games"]
    with checked_page(browser) as page:
        page.goto(site + "/")
        for lang in ("en", "de"):
            page.click(f'[data-lang="{lang}"]')
            page.wait_for_selector(".game-card .summary")
            for game in games:
                assert game["summary"] and game["summary"][lang], game["name"]
                shown = page.text_content(f'.game-card[data-game="{game["name"]}"] .summary')
                assert shown == game["summary"][lang]
            shot(page, f"walk-home-{lang}")
            assert serious_violations(page, axe_source()) == []
        page.click('[data-lang="en"]')


def test_the_lobby_is_axe_clean(browser, site):
    source = axe_source()
    with checked_page(browser) as page:
        sign_up(page, site, "jola")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            open_lobby(page, site)
            seek = offer(page)
            page.wait_for_selector(f'#seeks tr[data-row="{seek}"] .seek-rating')
            assert serious_violations(page, source) == [], scheme
            page.click(f'#seeks button[data-seek="{seek}"][data-action="cancel"]')
            page.wait_for_selector(f'#seeks tr[data-row="{seek}"]', state="detached")


# ---------------------------------------------------------------------------- the lobby's socket
class Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


def test_a_lobby_socket_closed_at_once_logs_no_traceback(tmp_path):
    from prometheus_client import REGISTRY

    records = Records()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "uvicorn", "ludothek.web")]
    for logger in loggers:
        logger.addHandler(records)
    running = InProcessServer(str(tmp_path / "socket.sqlite3"))
    url = f"ws://127.0.0.1:{running.port}/ws/lobby"
    lobby = running.server.config.app.state.lobby if hasattr(running.server.config.app, "state") else None
    try:
        async def hang_up_at_once():
            for _ in range(5):
                ws = await websockets.connect(url)
                ws.transport.abort()  # gone before the server sends the lobby's first list
            # a page that stays until its list arrives, then leaves properly
            async with websockets.connect(url) as ws:
                assert '"type":"lobby"' in (await ws.recv()).replace(" ", "")

        # in a thread of its own: Playwright's sync API may hold this thread's event loop
        outcome: list[str] = []
        worker = threading.Thread(target=lambda: outcome.append(asyncio.run(hang_up_at_once()) or "done"))
        worker.start()
        worker.join(120)
        assert outcome == ["done"]

        # every socket's handler has ended when the gauge of open lobby sockets is back at 0
        def still_open():
            return REGISTRY.get_sample_value("ludothek_websockets", {"route": "/ws/lobby"}) or 0

        deadline = 600
        while still_open() and deadline:  # each look waits on the server, not on a clock
            httpx.get(f"{running.base}/api/lobby")
            deadline -= 1
        assert still_open() == 0
        tracebacks = [r.getMessage() for r in records.records if r.exc_info or r.levelno >= logging.ERROR]
        assert tracebacks == []
        if lobby is not None:
            assert lobby.watchers == {}  # every watcher that left is forgotten
    finally:
        running.stop()
        for logger in loggers:
            logger.removeHandler(records)


def test_a_move_being_typed_survives_a_redraw(browser, site):
    """The side panel is drawn anew on every change a live page sees (a clock, a watcher, a
    chat line): what the player has typed into the move field stays, and so does the focus."""
    created = httpx.post(site + "/api/games", json={"game": "trike", "opponent": "hotseat"}).json()
    with checked_page(browser) as page:
        page.goto(site + "/")
        page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)",
                      [created["id"], created["token"]])
        page.goto(f"{site}/play/{created['id']}")
        page.wait_for_selector("#move-input")
        page.fill("#move-input", "c")
        page.evaluate("() => window.ludothekGame.draw()")  # what any pushed change does
        assert page.input_value("#move-input") == "c"
        assert page.evaluate("() => document.activeElement.id") == "move-input"
        page.keyboard.type("3")  # the player goes on typing where he was
        assert page.input_value("#move-input") == "c3"
