"""Aborting games nobody started, in the browser (issue 30, item 6): the Abort button shows only
while a player has not moved, aborts the game for both pages ("Game aborted"), and the archive
lists the game as aborted; a first move that does not come in time aborts the game by the
server's sweep. The server runs in this process with an injected clock: no real 30 s wait."""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .test_web_correspondence_browser import clocked_site, sign_up

sync_api = require_browser()
WAIT = 60000  # a bound for a busy machine, not an expected time


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from clocked_site(tmp_path_factory, "aborts")


def rated_game(base, host, host_csrf, guest, guest_csrf):
    """A rated 5+3 Trike game, host White; its id."""
    made = host.request.post(base + "/api/games", headers={"X-CSRF-Token": host_csrf}, data={
        "game": "trike", "options": {"size": 7}, "opponent": "friend", "seat": 0, "start": "fixed",
        "rated": True, "clock": {"minutes": 5, "increment": 3}}).json()
    joined = guest.request.post(base + f"/api/games/{made['id']}/join", headers={"X-CSRF-Token": guest_csrf},
                                data={"invite": made["invite"]})
    assert joined.ok, joined.text()
    return made["id"]


def open_game(page, base, game_id):
    page.goto(base + f"/play/{game_id}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view.status === 'ongoing'", timeout=WAIT)


def test_the_abort_button_and_the_aborted_game_in_the_archive(browser, site):
    base, clock = site
    with checked_page(browser) as ann, checked_page(browser) as bob:
        ann_csrf, bob_csrf = sign_up(ann, base, "ann"), sign_up(bob, base, "bob")
        game_id = rated_game(base, ann, ann_csrf, bob, bob_csrf)
        for page in (ann, bob):
            open_game(page, base, game_id)
            assert page.is_visible("#abort")
        assert "first move" in ann.text_content("#first-move")
        shot(ann, "abort-offered")
        view = ann.evaluate("() => window.ludothekGame.view")
        move = next(m["move"] for m in view["moves"])
        played = ann.request.post(base + f"/api/games/{game_id}/move", headers={"X-CSRF-Token": ann_csrf},
                                  data={"move": move})
        assert played.ok, played.text()
        # Ann has moved: no more Abort for her; Bob has not: his button stays
        ann.wait_for_function("() => window.ludothekGame.view.plies > 0", timeout=WAIT)
        ann.wait_for_selector("#abort", state="detached", timeout=WAIT)
        bob.wait_for_function("() => window.ludothekGame.view.plies > 0", timeout=WAIT)
        assert bob.is_visible("#abort")
        bob.click("#abort")  # the page's confirm() is accepted
        for page in (ann, bob):
            page.wait_for_function("() => window.ludothekGame.view.status === 'over'", timeout=WAIT)
            page.wait_for_selector("#end-dialog", timeout=WAIT)
            assert page.text_content("#end-result") == "Game aborted"
        view = ann.evaluate("() => window.ludothekGame.view")
        assert (view["termination"], view["result"], view["ratings"]) == ("aborted", "*", None)
        assert "aborted the game" in ann.text_content("#end-reason")
        assert " : " not in ann.text_content("#result")  # no score for a game without a result
        shot(ann, "abort-ended")
        bob.goto(base + "/archive")
        row = bob.locator("#archive tr", has=bob.locator(f'a[href="/play/{game_id}"]'))
        row.wait_for(timeout=WAIT)
        assert "Aborted" in row.text_content()
        shot(bob, "abort-archive")


def test_a_late_first_move_aborts_the_game_on_both_pages(browser, site):
    base, clock = site
    with checked_page(browser) as cleo, checked_page(browser) as dan:
        cleo_csrf, dan_csrf = sign_up(cleo, base, "cleo"), sign_up(dan, base, "dan")
        game_id = rated_game(base, cleo, cleo_csrf, dan, dan_csrf)
        for page in (cleo, dan):
            open_game(page, base, game_id)
        assert "Cleo" not in dan.text_content("#first-move") and "cleo" in dan.text_content("#first-move")
        clock.now += 31  # Cleo never moved: the sweep aborts the game, the sockets bring it to both pages
        for page in (cleo, dan):
            page.wait_for_function("() => window.ludothekGame.view.status === 'over'", timeout=WAIT)
        view = dan.evaluate("() => window.ludothekGame.view")
        assert (view["termination"], view["ending"]["reason"]) == ("aborted", "first_move_late")
        dan.wait_for_selector("#end-dialog", timeout=WAIT)
        assert dan.text_content("#end-result") == "Game aborted"
        assert "in time" in dan.text_content("#end-reason")
        assert dan.locator("#abort").count() == 0
        profile = dan.request.get(base + "/api/users/dan").json()
        assert profile["counts"] == {} and profile["ratings"] == []
        dan.goto(base + "/lobby")  # the lobby says the rule before anyone plays
        dan.wait_for_selector("#abort-rule", timeout=WAIT)
        assert "30 seconds" in dan.text_content("#abort-rule")
