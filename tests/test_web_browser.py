"""Browser tests: Debian's Chromium driven by Playwright against ``ludothek serve``.

Never downloads a browser: they use Debian's Chromium (``scripts/install-browser.sh``) and skip
with a reason when it is missing. Screenshots go to tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

import random
import time

import pytest

import ludothek

from .browser import require_browser, shot

sync_api = require_browser()

httpx = pytest.importorskip("httpx")
GAMES = ludothek.games()


def game_state(page):
    return page.evaluate("() => { const g = window.ludothekGame; return g && g.view ? "
                         "{view: g.view, you: g.you, selected: g.selected} : null; }")


def wait_version_change(page, version, timeout=20000):
    try:
        page.wait_for_function(
            "v => window.ludothekGame && window.ludothekGame.view && window.ludothekGame.view.version !== v",
            arg=version, timeout=timeout)
    except sync_api.TimeoutError:
        shot(page, "timeout-waiting-for-a-new-version")
        raise


def start_from_home(page, base, game, opponent="hotseat", size=None, first=None):
    page.goto(base + "/")
    page.click(f'.game-card[data-game="{game}"]')
    if size is not None:
        page.select_option("#opt-size", str(size))
    if first is not None:
        page.select_option("#opt-first", first)
    page.click(f'[data-opponent="{opponent}"]')
    if opponent == "bot":
        page.select_option("#bot-level", "random")
        page.select_option("#seat", "0")
    page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")


def close_end_dialog(page):
    """The end-of-game dialog opens when a game ends before the page's eyes: close it."""
    page.wait_for_selector("#end-dialog")
    page.click("#end-close")
    page.wait_for_selector("#end-dialog", state="detached")


def click_cell(page, name):
    page.locator(f'svg.board [data-cell="{name}"]').first.click()


def my_turn(state):
    view = state["view"]
    return view["status"] == "ongoing" and view["to_seat"] is not None and view["to_seat"] in state["you"]


def play_one_by_clicks(page, rng, prefer_captures=False):
    """Pick a legal move (from the list the server sent) and make it the way a person does."""
    state = game_state(page)
    moves = state["view"]["moves"]
    version = state["view"]["version"]
    if prefer_captures:
        captures = [m for m in moves if m["kind"] == "capture"]
        moves = captures or moves
    choice = rng.choice(moves)
    if choice["from"] is None and choice["to"] is None:
        page.click(f'[data-move="{choice["move"]}"]') if choice["kind"] != "swap" else page.click("#swap")
    elif choice["from"] is None:
        click_cell(page, choice["to"])
    else:
        click_cell(page, choice["from"])
        page.wait_for_function("c => window.ludothekGame.selected === c", arg=choice["from"])
        if choice["to"] is None:  # a roll
            page.click("#roll")
        else:
            click_cell(page, choice["to"])
            if page.locator(".modal .choices").count():
                page.click(f'.modal .choices button[data-move="{choice["move"]}"]')
    wait_version_change(page, version)
    return choice["move"]


def test_trike_full_game_hot_seat_by_clicks(page, server):
    start_from_home(page, server, "trike", size=7)
    shot(page, "trike-start")
    rng = random.Random(5)
    version = game_state(page)["view"]["version"]
    click_cell(page, "d2")
    wait_version_change(page, version)
    version = game_state(page)["view"]["version"]
    page.click("#swap")  # the pie rule, offered as a button
    wait_version_change(page, version)
    assert game_state(page)["view"]["colours"] == ["white", "black"]
    for _ in range(40):
        state = game_state(page)
        if state["view"]["status"] == "over":
            break
        play_one_by_clicks(page, rng)
    state = game_state(page)
    assert state["view"]["status"] == "over" and state["view"]["termination"] == "rules"
    banner = page.locator("#result").inner_text()
    assert "wins" in banner
    assert page.locator("#movelist .mv").count() == len(state["view"]["history"])
    shot(page, "trike-over")
    close_end_dialog(page)
    # replay: step back to the first move
    page.locator("#movelist .mv").first.click()
    page.wait_for_function("() => window.ludothekGame.replay !== null")
    assert game_state(page)["view"]["status"] == "over"
    shot(page, "trike-replay")


@pytest.mark.parametrize("game", [g for g in ("trigeo", "hexalit", "bitis") if g in GAMES])
def test_dice_games_against_the_random_bot_by_clicks(page, server, game):
    start_from_home(page, server, game, opponent="bot", first="fixed:" + ludothek.game_class(game).colours[0]
                    if any(o.name == "first" for o in ludothek.game_class(game).OPTIONS) else None)
    rng = random.Random(11)
    shot(page, f"{game}-start")
    made = 0
    deadline = time.time() + 150
    while made < 80 and time.time() < deadline:
        page.wait_for_function("() => { const g = window.ludothekGame; const v = g.view; "
                               "return v.status !== 'ongoing' || g.you.includes(v.to_seat); }", timeout=30000)
        state = game_state(page)
        if state["view"]["status"] != "ongoing":
            break
        play_one_by_clicks(page, rng, prefer_captures=True)
        made += 1
        if made == 6:
            shot(page, f"{game}-middle")
    state = game_state(page)
    if state["view"]["status"] == "ongoing":
        page.click("#resign")
        page.wait_for_selector("#result")
    state = game_state(page)
    assert state["view"]["status"] == "over"
    assert made > 0
    shot(page, f"{game}-over")
    close_end_dialog(page)
    if game != "bitis":
        page.click("#dice-style")
        shot(page, f"{game}-chess-style")


def test_online_game_between_two_browsers(browser, server):
    host_ctx = browser.new_context(viewport={"width": 1200, "height": 860})
    guest_ctx = browser.new_context(viewport={"width": 1200, "height": 860})
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        host.on("dialog", lambda d: d.accept())
        start_from_home(host, server, "trike", opponent="friend", size=7)
        invite = host.locator("#invite-link").input_value()
        assert "invite=" in invite
        guest.goto(invite)
        guest.wait_for_function("() => window.ludothekGame && window.ludothekGame.you.length === 1")
        host.wait_for_function("() => window.ludothekGame.view.status === 'ongoing'")
        rng = random.Random(2)
        for turn in range(6):
            mover, other = (host, guest) if turn % 2 == 0 else (guest, host)
            mover.wait_for_function("() => { const g = window.ludothekGame; return g.you.includes(g.view.to_seat); }")
            version = game_state(other)["view"]["version"]
            move = play_one_by_clicks(mover, rng)
            wait_version_change(other, version)  # pushed over the websocket
            assert game_state(other)["view"]["history"][-1]["text"] == move
        shot(host, "online-host")
        # a spectator sees the game read-only
        spectator = guest_ctx.browser.new_context().new_page()
        spectator.goto(server + "/play/" + game_state(host)["view"]["id"])
        spectator.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
        assert spectator.locator("#resign").count() == 0
        spectator.context.close()
        host.click("#resign")
        guest.wait_for_selector("#result")
        assert "wins" in guest.locator("#result").inner_text()
        shot(guest, "online-guest-result")
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_german_ui_and_rules(page, server):
    page.goto(server + "/")
    page.click('[data-lang="de"]')
    page.wait_for_selector("text=Partie beginnen")
    assert page.locator("header nav a").first.inner_text() == "Spielen"
    shot(page, "home-de")
    page.click("header nav >> text=Regeln")
    page.wait_for_selector("#rules figure svg")
    assert "Figur" in page.locator("#rules").inner_text()
    # the tabs are the catalogue's games with a rules page, in its order; the first is shown
    catalog = httpx.get(server + "/api/catalog").json()["games"]
    tabs = page.locator(".tabs a")
    assert [tabs.nth(i).get_attribute("href") for i in range(tabs.count())] == [
        f"/rules/{g['name']}" for g in catalog if g["rules"]]
    assert tabs.first.get_attribute("class") == "on"
    shot(page, "rules-de")
    start_from_home(page, server, "trike", size=9)
    page.wait_for_selector("text=Schwarz ist am Zug")
    assert page.locator("#resign").inner_text() == "Aufgeben"
    # a move typed in notation; a wrong one is refused with the server's message
    version = game_state(page)["view"]["version"]
    page.fill("#move-input", "e3")
    page.press("#move-input", "Enter")
    wait_version_change(page, version)
    page.fill("#move-input", "a1")
    page.press("#move-input", "Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('nicht erlaubt')")
    assert [h["text"] for h in game_state(page)["view"]["history"]] == ["e3"]
    page.click('[data-lang="en"]')
    page.wait_for_selector("text=White to move")


def test_archive_lists_games(page, server):
    page.goto(server + "/archive")
    page.wait_for_selector(".tabs")
    page.click('[data-filter="ongoing"]')
    page.wait_for_selector("#archive")
    shot(page, "archive")


@pytest.mark.skipif("hexalit" not in GAMES, reason="Hexalit is not registered yet")
def test_hexalit_roll_button_and_cube_dialog(page, server):
    page.goto(server + "/")
    page.click('.game-card[data-game="hexalit"]')
    page.check("#opt-cube")
    page.select_option("#opt-first", "fixed:white")
    page.click("#start")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
    state = game_state(page)
    roll = next(m for m in state["view"]["moves"] if m["kind"] == "roll")
    click_cell(page, roll["from"])
    version = state["view"]["version"]
    page.click("#roll")
    wait_version_change(page, version)
    assert page.locator("#last-roll").is_visible()
    shot(page, "hexalit-rolled")
    # Black answers with any move, then White offers the cube and Black takes it in the dialog
    play_one_by_clicks(page, random.Random(1))
    version = game_state(page)["view"]["version"]
    page.click('[data-move="double 2"]')
    wait_version_change(page, version)
    page.wait_for_selector("#cube-dialog")
    shot(page, "hexalit-cube-offer")
    version = game_state(page)["view"]["version"]
    page.click('#cube-dialog [data-move="take"]')
    wait_version_change(page, version)
    assert game_state(page)["view"]["board"]["cube"]["value"] == 2


CSP_WATCH = """document.addEventListener("securitypolicyviolation", (e) => window.reportCsp(
    `${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`));"""


def test_no_content_security_policy_violations(browser, server):
    """Every page runs under the server's strict policy (no inline script or style; see
    ludothek/web/guard.py) without a single violation: home, a game with its websocket, the
    invite link, the archive and the rules."""
    violations: list[str] = []
    contexts = [browser.new_context(viewport={"width": 1200, "height": 860}) for _ in range(2)]
    try:
        for context in contexts:
            context.expose_binding("reportCsp", lambda source, text: violations.append(text))
            context.add_init_script(CSP_WATCH)
        host, guest = contexts[0].new_page(), contexts[1].new_page()
        for page in (host, guest):
            page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
            page.on("dialog", lambda d: d.accept())
        response = host.goto(server + "/")
        assert "script-src 'self'" in response.headers.get("content-security-policy", "")
        assert response.headers.get("x-frame-options") == "DENY"
        start_from_home(host, server, "trike", size=7)
        host.wait_for_function("() => window.ludothekGame.connected === true")  # ws:// under connect-src 'self'
        version = game_state(host)["view"]["version"]
        click_cell(host, "d2")
        wait_version_change(host, version)
        start_from_home(host, server, "trike", opponent="friend", size=7)
        guest.goto(host.locator("#invite-link").input_value())
        guest.wait_for_function("() => window.ludothekGame && window.ludothekGame.you.length === 1")
        host.goto(server + "/archive")
        host.click('[data-filter="ongoing"]')
        host.wait_for_selector("#archive")
        for game in ("trike", "trigeo", "hexalit", "bitis"):
            host.goto(server + f"/rules/{game}")
            host.wait_for_selector("#rules")
            host.wait_for_load_state("networkidle")
        assert not violations, violations
    finally:
        for context in contexts:
            context.close()
