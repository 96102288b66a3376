"""The lobby chat in the browser (issue 32, item 2): three browser contexts, Alice (English,
desktop), Bob (German, a 390x844 phone) and a guest. The two players talk; markup is shown as
text and nothing in it runs; the guest reads along but has no way to write (and the server
refuses him if he tries over the socket); Alice mutes Bob and no longer sees him, undoes it
from the chat and again from the list on her challenges page; Bob reports a message with a
reason in his own words, which ``ludothek users reports`` shows, and a hostile reason gets a
clean error. axe finds nothing serious in the lobby (guest and phone, the report box open) nor on
the challenges page; the phone's lobby is no wider than the phone. Debian's Chromium driven by
Playwright against a real ``ludothek serve``; screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ludothek.cli import main

from .browser import checked_page, require_browser, shot
from .servers import Server
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_chat_browser import HOSTILE, PHONE, chat_ready, has_text, say, texts
from .test_web_lobby_browser import open_lobby, sign_up, wait

sync_api = require_browser()
pytest.importorskip("argon2")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("lobbychat") / "lobbychat.sqlite3")
    # the three people share one address: the per-address limit is raised, the account's stays
    running = Server(db, "--chat-limits", "address=100/minute", "--bots", "thread")
    yield running.base, db
    running.stop()


def menu(page, text, act):
    """Open the menu of the chat line holding ``text`` and press its ``act`` button."""
    line = page.locator("#chat-log .chat-line", has_text=text)
    line.locator("summary").click()
    line.locator(f'button[data-act="{act}"]').click()


def no_overflow(page):
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the phone page is {overflow} px too wide"


def test_players_talk_in_the_lobby_a_guest_reads_a_mute_hides_and_is_undone(browser, site):
    base, db = site
    with checked_page(browser) as alice, checked_page(browser, **PHONE) as bob, checked_page(browser) as guest:
        sign_up(alice, base, "alice")
        sign_up(bob, base, "bob")
        for page in (alice, bob, guest):
            open_lobby(page, base)
            chat_ready(page, "lobby")
        assert alice.text_content("#chat-title") == "Lobby chat"
        assert bob.text_content("#chat-title") == "Chat im Spielsaal"

        # markup is text, a link is not clickable, nothing runs: on the other player's page and the guest's
        say(alice, HOSTILE)
        for page in (bob, guest):
            has_text(page, HOSTILE)
            assert page.evaluate("() => window.pwned") is None
            assert page.locator("#chat-log script, #chat-log img, #chat-log a").count() == 0
        say(bob, "Hallo Alice")
        has_text(alice, "Hallo Alice")
        has_text(guest, "Hallo Alice")

        # the guest reads but cannot write: no field, a note saying why, no moderation menus
        assert guest.locator("#chat-form").is_hidden() and guest.locator("#chat-input").is_hidden()
        assert guest.locator("#chat-login").is_visible()
        assert guest.text_content("#chat-login") == "Log in to write in this chat; guests can read it."
        assert guest.locator("#chat-log .chat-actions").count() == 0
        # and the server refuses him if he writes over the socket anyway
        guest.evaluate("() => window.ludothekLobby.ws.send(JSON.stringify({ type: 'chat', text: 'sneaky', ref: 'chat-guest' }))")
        wait(guest, "() => document.getElementById('chat-error').textContent.startsWith('log in to write here')",
             name="guest-refused")
        assert "sneaky" not in texts(guest) + texts(alice)

        # Alice mutes Bob: his messages are gone for her, not for the guest
        menu(alice, "Hallo Alice", "mute")
        wait(alice, "() => document.getElementById('chat-status').textContent.includes('bob is muted')", name="muted")
        assert "Hallo Alice" not in texts(alice)
        say(bob, "noch da?")
        has_text(guest, "noch da?")
        say(alice, "ping")  # pushed after Bob's: had his come through, it would be here now
        has_text(bob, "ping")
        assert "noch da?" not in texts(alice)
        # ... and undoes it at once from the chat: his messages come back
        alice.click("#chat-undo")
        has_text(alice, "noch da?")
        assert alice.text_content("#chat-status") == "bob is no longer muted: you see their messages again."

        # Bob reports Alice's message with a reason; a hostile reason first gets a clean (German) error
        menu(bob, "see https://example.org", "report")
        bob.wait_for_selector("#chat-report-form")
        assert bob.locator("#chat-report-title q").text_content().startswith("<script>")
        bob.evaluate("() => { document.getElementById('chat-report-reason').value = 'Glocke\\u0007' }")
        bob.click("#chat-report-send")
        wait(bob, "() => document.getElementById('chat-report-error').textContent.includes('Steuerzeichen U+0007')",
             name="reason-refused")
        bob.evaluate("() => { document.getElementById('chat-report-reason').value = 'x'.repeat(301) }")
        bob.click("#chat-report-send")
        wait(bob, "() => document.getElementById('chat-report-error').textContent"
             " === 'Die Begründung hat 301 Zeichen; erlaubt sind höchstens 300.'", name="reason-long")
        # the box outlives new messages pushed meanwhile
        say(alice, "still here")
        has_text(bob, "still here")
        bob.fill("#chat-report-reason", "<b>Werbung</b> mit Link")
        no_overflow(bob)
        box = bob.locator("#chat-report-reason").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shot(bob, "lobby-chat-report-phone")
        source = axe_source()
        problems = serious_violations(bob, source) + serious_violations(guest, source)
        assert not problems, "\n".join(problems)
        bob.click("#chat-report-send")
        wait(bob, "() => document.getElementById('chat-status').textContent.startsWith('Danke')", name="reported")
        assert bob.locator("#chat-report").is_hidden()
        listed = CliRunner().invoke(main, ["users", "reports", "--db", db])
        assert listed.exit_code == 0, listed.output
        assert "bob reported alice in lobby (<b>Werbung</b> mit Link):" in listed.output
        assert "see https://example.org" in listed.output

        # the phone's lobby with its chat fits the phone
        no_overflow(bob)
        box = bob.locator("#chat-input").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        bob.locator("#chat").scroll_into_view_if_needed()
        shot(bob, "lobby-chat-phone")
        shot(guest, "lobby-chat-guest")

        # a mute listed on the challenges page, and undone there
        menu(alice, "noch da?", "mute")
        wait(alice, "() => document.getElementById('chat-status').textContent.includes('bob is muted')", name="muted-again")
        alice.click('a[href="/challenges"]')
        alice.wait_for_selector('#chat-relations li[data-player="bob"][data-kind="mute"]')
        problems = serious_violations(alice, source)
        assert not problems, "\n".join(problems)
        shot(alice, "challenges-relations")
        alice.click('#chat-relations button[data-undo="mute"]')
        wait(alice, "() => document.getElementById('chat-relations-status').textContent.startsWith('bob is no longer muted')",
             name="unmuted-list")
        assert alice.locator("#chat-relations li").count() == 0
        assert "muted or blocked nobody" in alice.text_content("#chat-relations")
        open_lobby(alice, base)
        chat_ready(alice, "lobby")
        has_text(alice, "noch da?")

        # in German on the phone, dark: Bob blocks Alice and finds her on his challenges page
        menu(bob, "still here", "block")
        wait(bob, "() => document.getElementById('chat-status').textContent.includes('alice ist blockiert')", name="blocked")
        assert "still here" not in texts(bob)
        bob.evaluate("() => localStorage.setItem('ludothek.theme', 'dark')")  # the header's switch, remembered
        bob.goto(f"{base}/challenges")
        bob.wait_for_selector('#chat-relations li[data-player="alice"][data-kind="block"]')
        assert bob.text_content("#chat-relations-title") == "Stummgeschaltete und blockierte Spieler"
        assert bob.text_content('#chat-relations button[data-undo="block"]') == "Blockierung von alice aufheben"
        assert bob.evaluate("() => document.documentElement.dataset.theme") == "dark"
        no_overflow(bob)
        problems = serious_violations(bob, source)
        assert not problems, "\n".join(problems)
        shot(bob, "challenges-relations-phone-dark")
        bob.click('#chat-relations button[data-undo="block"]')
        wait(bob, "() => document.getElementById('chat-relations-status').textContent === 'alice ist nicht mehr blockiert.'",
             name="unblocked")
