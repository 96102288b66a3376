"""Accounts in the browser (issue 11, part A): a guest signs up and keeps his game, starts
another, logs in on a second device (another browser context) and plays on in the same game;
a name with HTML in it shows as text. Debian's Chromium driven by Playwright against a real
``ludothek serve``; screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .servers import Server

sync_api = require_browser()
argon2 = pytest.importorskip("argon2")

PASSWORD = "a long table top"
HTML_NAME = '<img src=x onerror="window.hacked=1">'


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server of its own: (base URL, its SQLite file)."""
    db = str(tmp_path_factory.mktemp("accounts") / "accounts.sqlite3")
    running = Server(db, "--rate-limits", "move=100/second", "--bots", "thread")
    yield running.base, db
    running.stop()


def wait(page, script, arg=None, name="wait"):
    try:
        page.wait_for_function(script, arg=arg, timeout=30000)
    except sync_api.TimeoutError:
        shot(page, f"accounts-timeout-{name}")
        raise


def start_bot_game(page, base):
    page.goto(base + "/")
    page.click('.game-card[data-game="trike"]')
    page.select_option("#opt-size", "7")
    page.click('[data-opponent="bot"]')
    page.select_option("#bot-level", "random")
    page.select_option("#seat", "0")
    page.click("#start")
    page.wait_for_url("**/play/*")
    wait(page, "() => window.ludothekGame && window.ludothekGame.view", name="game-page")
    return page.url.rsplit("/", 1)[-1]


def play_when_my_turn(page, name="move"):
    """Wait for the player's turn (the bot may start), then type a legal move; the new ply count."""
    wait(page, "() => { const g = window.ludothekGame; return g.view.status === 'ongoing' && g.view.to_seat !== null "
               "&& g.you.includes(g.view.to_seat) && g.view.moves.length > 0 }", name=f"{name}-turn")
    plies = page.evaluate("() => window.ludothekGame.view.plies")
    move = page.evaluate("() => window.ludothekGame.view.moves[0].move")
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    wait(page, "n => window.ludothekGame.view.plies > n", plies, name=f"{name}-played")
    return page.evaluate("() => window.ludothekGame.view.plies")


def log_in(page, base, name, password, signup=False):
    page.goto(base + "/")
    page.click("#login-link")
    page.wait_for_url("**/login*")
    if signup:
        page.click("#account-switch")
        page.wait_for_selector("#signup-form")
    page.fill("#account-user", name)
    page.fill("#account-password", password)
    page.click("#account-submit")
    page.wait_for_selector("#account-name")


def test_sign_up_then_continue_the_same_game_on_a_second_device(browser, site):
    base, _ = site
    with checked_page(browser) as desk, checked_page(browser, viewport={"width": 390, "height": 844},
                                                       is_mobile=True, has_touch=True) as phone:
        # a guest's game, from before the account
        guest_game = start_bot_game(desk, base)
        play_when_my_turn(desk, "guest")
        assert desk.evaluate("id => localStorage.getItem(`ludothek.token.${id}`)", guest_game)
        # sign up: a bad name is refused on the page, then the account is made
        desk.goto(base + "/login?mode=signup")
        desk.fill("#account-user", "no spaces")
        desk.fill("#account-password", PASSWORD)
        desk.click("#account-submit")
        desk.wait_for_function("() => document.getElementById('account-error').textContent.includes('3 to 20')")
        shot(desk, "accounts-signup-refused")
        desk.fill("#account-user", "alice")
        desk.fill("#account-password", PASSWORD)
        desk.click("#account-submit")
        desk.wait_for_selector("#account-name")
        assert desk.text_content("#account-name") == "alice"
        # a new game: the account holds its seat, the browser keeps no token for it
        game = start_bot_game(desk, base)
        plies = play_when_my_turn(desk, "desk")
        assert desk.evaluate("id => localStorage.getItem(`ludothek.token.${id}`)", game) is None
        assert "alice" in desk.text_content(".players")
        shot(desk, "accounts-desk-game")

        # the second device: log in, find the games, open the newest and play on
        phone.goto(base + "/")
        assert phone.text_content("#login-link")
        phone.click("#login-link")
        phone.wait_for_selector("#login-form")
        shot(phone, "accounts-phone-login")
        phone.fill("#account-user", "ALICE")  # names log in regardless of case
        phone.fill("#account-password", PASSWORD)
        phone.click("#account-submit")
        phone.wait_for_selector("#account-name")
        phone.goto(base + "/archive")
        phone.wait_for_selector("#archive")
        listed = phone.eval_on_selector_all("#archive a.btn[data-link]", "links => links.map((a) => a.getAttribute('href'))")
        assert listed[:2] == [f"/play/{game}", f"/play/{guest_game}"]  # the guest game came along
        shot(phone, "accounts-phone-my-games")
        phone.click(f'#archive a[href="/play/{game}"]')
        wait(phone, "() => window.ludothekGame && window.ludothekGame.view && window.ludothekGame.you.length === 1",
             name="phone-seated")
        assert phone.evaluate("() => window.ludothekGame.view.plies") >= plies
        # its websocket authenticates with the session alone (an error would show under the actions)
        wait(phone, "() => window.ludothekGame.connected === true", name="phone-socket")
        phone.wait_for_timeout(800)
        assert phone.text_content("#error") == ""
        phone_plies = play_when_my_turn(phone, "phone")
        shot(phone, "accounts-phone-game")
        # the first device sees the move live
        wait(desk, "n => window.ludothekGame.view.plies >= n", phone_plies, name="desk-sees-phone")
        # the guest game plays on from the phone too
        phone.goto(f"{base}/play/{guest_game}")
        wait(phone, "() => window.ludothekGame && window.ludothekGame.you.length === 1", name="phone-guest-game")
        play_when_my_turn(phone, "phone-guest")
        # logging out ends the account's seats on that device (the phone's header menu holds the button)
        phone.click("#menu-button")
        phone.click("#logout")
        phone.wait_for_selector("#login-link")
        phone.goto(f"{base}/play/{game}")
        wait(phone, "() => window.ludothekGame && window.ludothekGame.view", name="phone-logged-out")
        assert phone.evaluate("() => window.ludothekGame.you") == []
        assert "alice" in phone.text_content(".players")  # the name stays on the board for everyone


def test_a_name_with_html_shows_as_text(browser, site):
    base, db = site
    from ludothek.web.accounts import Accounts
    from ludothek.web.store import Store

    store = Store(db)  # a name from before the rules, or an operator's: never through signing up
    try:
        Accounts(store)._insert_user(HTML_NAME, argon2.PasswordHasher().hash(PASSWORD))
    finally:
        store.close()
    with checked_page(browser) as page:
        log_in(page, base, HTML_NAME, PASSWORD)
        assert page.text_content("#account-name") == HTML_NAME
        game = start_bot_game(page, base)
        assert HTML_NAME in page.text_content(".players")
        page.goto(base + "/archive")
        page.click('[data-filter="mine"]')
        page.wait_for_selector(f'#archive a[href="/play/{game}"]')
        assert HTML_NAME in page.text_content("#archive")
        page.goto(f"{base}/play/{game}")
        wait(page, "() => window.ludothekGame && window.ludothekGame.view", name="html-game")
        assert page.evaluate("() => document.querySelectorAll('img').length") == 0
        assert page.evaluate("() => window.hacked") is None
        shot(page, "accounts-html-name")
        # signing up with such a name is refused
        page.click("#logout")
        page.wait_for_selector("#login-link")
        page.goto(base + "/login?mode=signup")
        page.fill("#account-user", "<b>bold</b>")
        page.fill("#account-password", PASSWORD)
        page.click("#account-submit")
        page.wait_for_function("() => document.getElementById('account-error').textContent.length > 0")
        assert page.locator("#account-name").count() == 0


def test_the_seat_tokens_go_at_handover_and_at_logout(browser, site):
    """Issue 30, item 5: a guest's token stops acting for a seat handed to the account (the page
    forgets it), and logging out leaves no token or invite code in the browser."""
    base, _ = site
    httpx = pytest.importorskip("httpx")
    tokens = "() => Object.keys(localStorage).filter((k) => k.startsWith('ludothek.token.') || k.startsWith('ludothek.invite.'))"
    with checked_page(browser) as page:
        game = start_bot_game(page, base)
        play_when_my_turn(page, "handover")
        old = page.evaluate("id => localStorage.getItem(`ludothek.token.${id}`)", game)
        assert old
        log_in(page, base, "handy", PASSWORD, signup=True)
        wait(page, "id => localStorage.getItem(`ludothek.token.${id}`) === null", game, name="token-dropped")
        # the copy of the token someone kept acts for nothing any more
        assert httpx.get(f"{base}/api/games/{game}", headers={"X-Ludothek-Token": old}).json()["you"] == []
        # what a logged-in page may still hold: a token the handover could not take, an invite code
        page.evaluate("() => { localStorage.setItem('ludothek.token.elsewhere', 'x');"
                      " localStorage.setItem('ludothek.invite.elsewhere', 'y'); localStorage.setItem('ludothek.dice', 'dots'); }")
        assert len(page.evaluate(tokens)) == 2
        page.click("#logout")
        page.wait_for_selector("#login-link")
        assert page.evaluate(tokens) == []
        assert page.evaluate("() => localStorage.getItem('ludothek.dice')") == "dots"  # other settings stay
