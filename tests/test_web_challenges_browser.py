"""Challenges, quick pairing and follows in the browser (issue 32, items 1 and 3). Three
browser contexts are three people: Alice challenges Bob from his profile, Bob (on a phone)
sees the badge and the notice live, declines with a reason and Alice is shown the reason; she
challenges again, Bob accepts and both land in the same game, while Carol sees nothing of it
and cannot accept it. Two players pressing the same quick-pairing button get a game; a
follower sees who is online and a link to watch. axe on the new pages, the phone layout, and a
German page without English. Debian's Chromium driven by Playwright against a real
``ludothek serve``; screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .servers import Server
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_german_browser import TEXT_OF_PAGE, english_words
from .test_web_lobby_browser import PHONE, in_game, open_lobby, sign_up

sync_api = require_browser()
pytest.importorskip("argon2")

BADGE = "n => { const b = document.getElementById('challenges-badge'); return b && b.textContent === String(n) && b.hidden === (n === 0) }"
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("challenges") / "challenges.sqlite3")
    running = Server(db, "--rate-limits", "move=100/second", "--bots", "thread")
    yield running.base
    running.stop()


def wait(page, script, arg=None, name="wait"):
    try:
        page.wait_for_function(script, arg=arg, timeout=30000)
    except sync_api.TimeoutError:
        shot(page, f"challenges-timeout-{name}")
        raise


def send_challenge(alice, name):
    alice.select_option("#challenge-game", "trike")
    alice.select_option("#challenge-clock-kind", "live")
    alice.select_option("#challenge-colour", "0")
    alice.click("#challenge-send")
    alice.wait_for_selector("#challenge-status:not(:empty)")
    assert name in alice.text_content("#challenge-status")


def fetch(page, method, path):
    return page.evaluate("""async ([method, path]) => {
        const me = await (await fetch('/api/me')).json();
        const r = await fetch(path, { method, headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf }, body: '{}' });
        return [r.status, (await r.json()).key];
    }""", [method, path])


def test_alice_challenges_bob_who_declines_then_accepts(browser, site):
    source = axe_source()
    with checked_page(browser) as alice, checked_page(browser, **PHONE) as bob, checked_page(browser) as carol:
        for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            sign_up(page, site, name)
        carol.goto(site + "/challenges")
        carol.wait_for_selector("#incoming")
        bob.goto(site + "/")
        wait(bob, BADGE, 0, "bob-badge-0")
        alice.goto(site + "/players/bob")
        alice.click("#challenge-open")
        assert not serious_violations(alice, source)
        send_challenge(alice, "bob")
        # Bob is told at once: the header's badge and a notice on the page he is on
        wait(bob, BADGE, 1, "bob-badge-1")
        notice = bob.wait_for_selector(".challenge-notice[data-challenge]")
        challenge_id = notice.get_attribute("data-challenge")
        assert "alice" in notice.text_content()
        wait(bob, NO_SIDEWAYS, name="bob-phone-home")
        shot(bob, "challenge-notice-phone")
        bob.click(".challenge-notice a[href='/challenges']")
        bob.wait_for_selector(f'#incoming [data-challenge="{challenge_id}"]')
        wait(bob, NO_SIDEWAYS, name="bob-phone-challenges")
        assert not serious_violations(bob, source)
        shot(bob, "challenges-page-phone")
        bob.select_option(f"#reason-{challenge_id}", "too_fast")
        bob.fill(f"#note-{challenge_id}", "<b>after dinner</b>")
        bob.click(f'[data-decline="{challenge_id}"]')
        wait(bob, BADGE, 0, "bob-badge-after-decline")
        # Alice sees why, the note as plain text
        reason = alice.wait_for_selector(f'.challenge-notice[data-declined="{challenge_id}"] .decline-reason')
        assert reason.text_content() == "Too fast for me: a longer clock, please. \u201c<b>after dinner</b>\u201d"
        assert alice.locator(".challenge-notice b").count() == 0
        # Carol saw nothing of it and cannot answer it
        assert carol.locator("#incoming [data-challenge]").count() == 0
        wait(carol, BADGE, 0, "carol-badge")
        send_challenge(alice, "bob")
        second = bob.wait_for_selector("#incoming [data-challenge]").get_attribute("data-challenge")
        assert second != challenge_id
        assert fetch(carol, "POST", f"/api/challenges/{second}/accept") == [403, "challenges.not_to_you"]
        assert fetch(carol, "DELETE", f"/api/challenges/{second}") == [403, "challenges.not_yours"]
        assert carol.locator(".challenge-notice").count() == 0
        bob.click(f'#incoming [data-accept="{second}"]')
        game_bob = in_game(bob, "bob-in-game")
        game_alice = in_game(alice, "alice-in-game")
        assert game_alice == game_bob
        wait(alice, "() => window.ludothekGame.view.seats[0].name === 'alice' && window.ludothekGame.view.seats[1].name === 'bob'",
             name="seats")
        assert alice.evaluate("() => window.ludothekGame.view.rated") is False
        assert carol.locator("#incoming [data-challenge]").count() == 0
        # the game ends (Bob gives up before a move): Alice's end dialog offers a new challenge
        bob.click("#resign, #abort")
        wait(alice, "() => window.ludothekGame.view.status === 'over'", name="over")
        alice.click("#end-challenge")
        alice.wait_for_selector("#challenge-form")
        assert alice.text_content("#challenge-form-title") == "Challenge bob"
        assert alice.input_value("#challenge-game") == "trike"


def test_quick_pairing_and_follows(browser, site):
    source = axe_source()
    with checked_page(browser) as dora, checked_page(browser, **PHONE) as eve:
        sign_up(dora, site, "dora")
        sign_up(eve, site, "eve")
        dora.goto(site + "/players/eve")
        dora.click("#follow")
        wait(dora, "() => document.getElementById('follow').getAttribute('aria-pressed') === 'true'", name="followed")
        open_lobby(dora, site)
        open_lobby(eve, site)
        wait(eve, NO_SIDEWAYS, name="eve-phone-lobby")
        shot(eve, "quick-pairing-phone")
        assert not serious_violations(dora, source)
        dora.click('#quick-pairing button[data-pool="trike|3+2"]')
        dora.wait_for_selector("#quick-status:not(:empty)")
        eve.wait_for_selector('#quick-pairing button[data-pool="trike|3+2"] .badge', timeout=20000)
        eve.click('#quick-pairing button[data-pool="trike|3+2"]')
        assert in_game(eve, "eve-paired") == in_game(dora, "dora-paired")
        assert dora.evaluate("() => window.ludothekGame.view.rated") is True
        # Dora follows Eve: online, playing, with a link to watch
        dora.goto(site + "/challenges")
        link = dora.wait_for_selector('#following li[data-player="eve"][data-online="yes"] a.watch-link', timeout=30000)
        assert link.get_attribute("href").startswith("/play/")
        assert not serious_violations(dora, source)
        dora.emulate_media(color_scheme="dark")
        assert not serious_violations(dora, source)
        shot(dora, "challenges-page-dark")
        dora.emulate_media(color_scheme="light")
        # a German page says it all in German
        dora.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
        dora.goto(site + "/challenges")
        dora.wait_for_selector('#following li[data-player="eve"]')
        assert "Spieler, denen du folgst" in dora.text_content("#following")
        assert not english_words(dora.evaluate(TEXT_OF_PAGE)), english_words(dora.evaluate(TEXT_OF_PAGE))
        shot(dora, "challenges-page-de")
