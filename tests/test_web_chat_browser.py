"""Chat in the browser (issue 32, item 2): three browser contexts, two players (English, desktop)
and a spectator (German, a 390x844 phone). The players talk in their room, the spectator in his;
markup is shown as text and links are not clickable; a player mutes the other for himself and
reports a message; ``ludothek users reports`` lists it and ``ludothek users mute NAME --hours 1``
hides that player's messages from the others; hostile input (100 kB, control characters, a
flood) gets clean errors; axe finds nothing serious. Debian's Chromium driven by Playwright
against a real ``ludothek serve``; screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ludothek.cli import main

from .browser import checked_page, require_browser, shot
from .servers import Server
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_lobby_browser import in_game, offer, open_lobby, sign_up, wait

sync_api = require_browser()
pytest.importorskip("argon2")

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "de-DE"}
HOSTILE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> see https://example.org'


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("chat") / "chat.sqlite3")
    # the three people share one address: the per-address limit is raised, the account's stays
    running = Server(db, "--rate-limits", "move=100/second", "--bots", "thread", "--chat-limits", "address=100/minute")
    yield running.base, db
    running.stop()


def say(page, text):
    count = page.evaluate("() => window.ludothekChat.messages.length")
    page.fill("#chat-input", text)
    page.click("#chat-send")
    wait(page, "n => window.ludothekChat.messages.length > n", count, name="said")


def texts(page):
    return page.eval_on_selector_all("#chat-log .chat-text", "nodes => nodes.map((n) => n.textContent)")


def has_text(page, text):
    wait(page, "t => [...document.querySelectorAll('#chat-log .chat-text')].some((n) => n.textContent === t)", text,
         name="has-text")


def chat_ready(page, room):
    wait(page, "r => window.ludothekChat && window.ludothekChat.room === r && window.ludothekChat.askedRoom === r "
         "&& !document.querySelector('#chat-log:empty')", room, name=f"chat-{room}")


def chat_violations(page, source):
    """axe's serious and critical findings in the chat card."""
    serious_violations(page, source)  # loads axe (and waits for the page to settle)
    return page.evaluate("""async () => {
        const result = await axe.run("#chat", { resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.html.slice(0, 120)).join(" | ")}`);
    }""")


def test_players_and_a_spectator_chat_mute_report_and_the_operator_mutes(browser, site):
    base, db = site
    with checked_page(browser) as alice, checked_page(browser) as bob, checked_page(browser, **PHONE) as carol:
        for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            sign_up(page, base, name)
        open_lobby(alice, base)
        open_lobby(bob, base)
        seek = offer(alice, clock="none")
        bob.click(f'#seeks button[data-seek="{seek}"][data-action="accept"]', timeout=15000)
        game_id = in_game(bob, "bob-game")
        assert in_game(alice, "alice-game") == game_id
        carol.goto(f"{base}/play/{game_id}")
        wait(carol, "() => window.ludothekGame && window.ludothekGame.connected === true", name="carol-game")
        chat_ready(alice, "players")
        chat_ready(bob, "players")
        chat_ready(carol, "spectators")
        assert carol.text_content("#chat-title") == "Chat der Zuschauer"
        assert alice.text_content("#chat-title") == "Chat with your opponent"

        # markup is text, a link is not clickable, nothing runs
        say(alice, HOSTILE)
        has_text(bob, HOSTILE)
        assert bob.evaluate("() => window.pwned") is None
        assert bob.locator("#chat-log script, #chat-log img, #chat-log a").count() == 0
        say(bob, "good luck")
        has_text(alice, "good luck")
        # the spectator's room is his own
        say(carol, "Zuschauer hier")
        assert texts(carol) == ["Zuschauer hier"]
        assert "Zuschauer hier" not in texts(alice) + texts(bob)
        assert HOSTILE not in texts(carol)
        shot(carol, "chat-spectator-phone")
        overflow = carol.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the phone page is {overflow} px too wide"
        box = carol.locator("#chat-input").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390

        # a mute for yourself: Alice no longer sees Bob; Bob still sees his own
        line = alice.locator("#chat-log .chat-line", has_text="good luck")
        line.locator("summary").click()
        line.locator('button[data-act="mute"]').click()
        wait(alice, "() => document.getElementById('chat-status').textContent.includes('bob')", name="muted")
        assert "good luck" not in texts(alice)
        say(bob, "are you there?")
        say(alice, "still here")  # pushed after Bob's: had his come through, it would be here now
        has_text(bob, "still here")
        assert "are you there?" not in texts(alice) and "are you there?" in texts(bob)

        # a report: Bob reports Alice's message
        line = bob.locator("#chat-log .chat-line", has_text="see https://example.org")
        line.locator("summary").click()
        line.locator('button[data-act="report"]').click()
        bob.fill("#chat-report-reason", "spam link")
        bob.click("#chat-report-send")
        wait(bob, "() => document.getElementById('chat-status').textContent.startsWith('Thank you')", name="reported")
        shot(bob, "chat-players")

        # axe: the players' and the spectator's chat
        source = axe_source()
        problems = chat_violations(bob, source) + chat_violations(carol, source)
        assert not problems, "\n".join(problems)

        runner = CliRunner()
        listed = runner.invoke(main, ["users", "reports", "--db", db])
        assert listed.exit_code == 0, listed.output
        assert f"bob reported alice in {game_id}/p (spam link):" in listed.output and "see https://example.org" in listed.output
        muted = runner.invoke(main, ["users", "mute", "alice", "--hours", "1", "--db", db])
        assert muted.exit_code == 0 and "alice: muted until" in muted.output, muted.output
        bob.reload()
        chat_ready(bob, "players")
        has_text(bob, "good luck")
        assert not any("example.org" in t or t == "still here" for t in texts(bob))
        alice.reload()
        chat_ready(alice, "players")
        has_text(alice, "still here")  # her own, still
        alice.fill("#chat-input", "hello?")
        alice.click("#chat-send")
        wait(alice, "() => document.getElementById('chat-error').textContent.includes('muted')", name="mute-error")
        runner.invoke(main, ["users", "mute", "alice", "--hours", "0", "--db", db])

        # hostile input on the spectator's (German) page: clean errors, nothing sent
        def refused(value, expected):
            carol.evaluate("v => { document.getElementById('chat-error').textContent = ''; "
                           "document.getElementById('chat-input').value = v }", value)
            carol.click("#chat-send")
            wait(carol, "t => document.getElementById('chat-error').textContent.includes(t)", expected, name="refused")

        refused("x" * 100_000, "Die Nachricht hat 100.000 Zeichen; erlaubt sind höchstens 500.")
        refused("x" * 600, "Die Nachricht hat 600 Zeichen; erlaubt sind höchstens 500.")
        refused("Glocke\u0007", "Steuerzeichen U+0007")
        before = len(texts(carol))
        carol.evaluate("""() => { for (let k = 0; k < 8; k++) {
            document.getElementById('chat-input').value = 'Flut ' + k; document.getElementById('chat-send').click(); } }""")
        wait(carol, "() => document.getElementById('chat-error').textContent.startsWith('du schreibst zu schnell')",
             name="flood")
        shot(carol, "chat-flood-phone")
        assert 1 <= len(texts(carol)) - before <= 5
