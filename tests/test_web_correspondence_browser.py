"""A correspondence game in the browser (issue 11, item 5): three days per move once both
players have made their first moves, shown as a deadline; when the deadline passes, the server
flags the player to move and both pages show the game lost on time, pushed over their sockets.
The server runs in this process with an injected clock that jumps four days: no real wait.
Debian's Chromium driven by Playwright."""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .servers import InProcessServer

sync_api = require_browser()
argon2 = pytest.importorskip("argon2")
DAY = 24 * 3600


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def clocked_site(tmp_path_factory, name: str):
    """A server in this process on a fresh SQLite file, with a clock the test sets, a sweep
    every 0.3 s and cheap password hashes: (base URL, clock), stopped after the module."""
    clock = Clock()
    db = str(tmp_path_factory.mktemp(name) / "web.sqlite3")
    running = InProcessServer(db, clock=clock, sweep=0.3, rate_limits="off", login_limits="off",
                              password_hasher=argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
    yield running.base, clock
    running.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from clocked_site(tmp_path_factory, "correspondence")


def sign_up(page, base, name):
    """An account for this browser context (through the API, as the page itself does); its CSRF token."""
    answer = page.request.post(base + "/api/signup", data={"name": name, "password": "a long table top"},
                               headers={"Origin": base})
    assert answer.status == 201, answer.text()
    return answer.json()["csrf"]


def test_a_correspondence_game_is_lost_on_time_when_its_deadline_passes(browser, site):
    base, clock = site
    with checked_page(browser) as ann, checked_page(browser) as bob:
        ann_csrf, bob_csrf = sign_up(ann, base, "ann"), sign_up(bob, base, "bob")
        made = ann.request.post(base + "/api/games", headers={"X-CSRF-Token": ann_csrf}, data={
            "game": "trike", "options": {"size": 7}, "opponent": "friend", "seat": 0, "start": "fixed",
            "clock": {"days": 3}}).json()
        joined = bob.request.post(base + f"/api/games/{made['id']}/join", headers={"X-CSRF-Token": bob_csrf},
                                  data={"invite": made["invite"]})
        assert joined.ok, joined.text()
        # both make their first moves within a day (a late one would abort the game)
        for page, csrf in ((ann, ann_csrf), (bob, bob_csrf)):
            game = page.request.get(base + f"/api/games/{made['id']}").json()["game"]
            played = page.request.post(base + f"/api/games/{made['id']}/move", headers={"X-CSRF-Token": csrf},
                                       data={"move": game["moves"][0]["move"]})
            assert played.ok, played.text()
        for page in (ann, bob):
            page.goto(base + f"/play/{made['id']}")
            page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view.status === 'ongoing'")
        clock_view = ann.evaluate("() => window.ludothekGame.view.clock")
        assert clock_view == {"days": 3, "deadline": clock.now + 3 * DAY, "running": 0}
        shot(ann, "correspondence-running")
        clock.now += 3 * DAY + 60  # ann did not move again: her three days are over
        for page in (ann, bob):  # the sweep ends the game; the sockets bring it to both pages
            page.wait_for_function("() => window.ludothekGame.view.status === 'over'", timeout=15000)
        view = bob.evaluate("() => window.ludothekGame.view")
        assert (view["termination"], view["result"]) == ("time", view["colours"][1])
        assert view["ending"]["reason"] == "time"
        ending = view["ending"]["text"]["en"]
        bob.wait_for_selector(f"text={ending}", timeout=10000)
        shot(bob, "correspondence-flagged")
