"""The web app on a phone, in the dark, with sound, and while the server is away: Debian's
Chromium driven by Playwright against ``ludothek serve``.

* At 390×844 (and 360 and 430 wide) no page scrolls sideways: home, archive, every rules page, a
  game of each board kind; the board fills the screen's width. Screenshots of each board at phone
  size, light and dark, go to tests/artifacts/ (``phone-<kind>-<scheme>.png``).
* Dark mode follows the system until the header's switch is used, and the switch is remembered.
* Move sounds: on for players and off for spectators by default, each remembered.
* When the server goes away the page says it is reconnecting, and says nothing more once the
  server is back (a server of its own, stopped and started again on the same port).
"""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .servers import Server

sync_api = require_browser()
httpx = pytest.importorskip("httpx")

PHONE = {"width": 390, "height": 844}
OVERFLOW = """() => {
    const width = innerWidth, wide = [];
    for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.right > width + 0.5) wide.push(`${e.tagName.toLowerCase()}.${e.getAttribute('class') || ''}#${e.id}`);
    }
    return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
}"""


def one_game_per_board_kind(base: str) -> dict[str, str]:
    kinds: dict[str, str] = {}
    for game in httpx.get(base + "/api/catalog").json()["games"]:
        kinds.setdefault(game["board"], game["name"])
    return kinds


def new_game(base: str, game: str, **extra) -> dict:
    created = httpx.post(base + "/api/games", json={"game": game, "opponent": "hotseat", **extra})
    assert created.status_code == 201, created.text
    return created.json()


def as_player(page, base: str, created: dict) -> None:
    """Open a game in ``page`` with its player's token, as the browser that made it would."""
    if not page.url.startswith(base):
        page.goto(base + "/archive")
    page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)", [created["id"], created["token"]])
    page.goto(f"{base}/play/{created['id']}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")


@pytest.fixture()
def phone(browser):
    # not is_mobile: a mobile layout viewport would widen to fit a page that overflows, and hide it
    with checked_page(browser, viewport=PHONE, device_scale_factor=2) as page:
        yield page


def test_no_page_scrolls_sideways_on_a_phone(phone, server):
    kinds = one_game_per_board_kind(server)
    assert {"hextri", "tri66", "grid", "cells"} <= set(kinds), kinds
    games = {kind: new_game(server, game) for kind, game in kinds.items()}
    rules = [g["name"] for g in httpx.get(server + "/api/catalog").json()["games"] if g["rules"]]
    checked = []
    for width in (390, 360, 430):
        phone.set_viewport_size({"width": width, "height": 844})
        pages = [("home", "/", ".game-card svg"), ("archive", "/archive", ".tabs")]
        pages += [(f"rules-{name}", f"/rules/{name}", "#rules figure svg") for name in rules]
        for name, path, ready in pages:
            phone.goto(server + path)
            phone.wait_for_selector(ready)
            phone.wait_for_load_state("networkidle")
            found = phone.evaluate(OVERFLOW)
            assert found["scroll"] <= found["width"], (width, name, found)
            checked.append((width, name))
        for kind, created in games.items():
            as_player(phone, server, created)
            phone.wait_for_selector("svg.board")
            found = phone.evaluate(OVERFLOW)
            assert found["scroll"] <= found["width"], (width, kind, found)
            # the board as large as the screen allows: its width less a few pixels of margin
            board = phone.evaluate("() => document.querySelector('svg.board').getBoundingClientRect().width")
            assert board >= width - 24, (width, kind, board)
            checked.append((width, kind))
    assert len(checked) == 3 * (2 + len(rules) + len(games))
    # the header is one row: the brand, the account and the menu button; the menu holds the pages
    # and the switches, and keeps them inside the header and the screen
    phone.set_viewport_size(PHONE)
    phone.goto(server + "/")
    phone.wait_for_selector("#login-link")
    closed = phone.locator("header.top").bounding_box()
    assert closed["height"] <= 60, closed
    for selector in ('[data-lang="de"]', "#theme", 'header nav a[href="/rules"]'):
        assert phone.is_hidden(selector), selector
    phone.click("#menu-button")
    assert phone.get_attribute("#menu-button", "aria-expanded") == "true"
    header = phone.locator("header.top").bounding_box()
    for selector in ('[data-lang="de"]', "#theme", 'header nav a[href="/rules"]'):
        box = phone.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], selector
        assert box["y"] >= header["y"] and box["y"] + box["height"] <= header["y"] + header["height"], selector


def test_every_board_at_phone_size_light_and_dark(phone, server):
    for kind, game in one_game_per_board_kind(server).items():
        created = new_game(server, game)
        for scheme in ("light", "dark"):
            phone.emulate_media(color_scheme=scheme)
            as_player(phone, server, created)
            phone.wait_for_selector("svg.board")
            assert phone.evaluate("() => document.documentElement.dataset.theme") == scheme
            background = phone.evaluate("() => getComputedStyle(document.body).backgroundColor")
            channels = [int(c) for c in background[background.index("(") + 1:background.index(")")].split(",")[:3]]
            assert (sum(channels) < 200) == (scheme == "dark"), (scheme, background)
            shot(phone, f"phone-{kind}-{scheme}")


def test_the_dark_switch(phone, server):
    phone.emulate_media(color_scheme="light")
    phone.goto(server + "/")
    phone.wait_for_selector(".game-card")
    theme = "() => document.documentElement.dataset.theme"
    assert phone.evaluate(theme) == "light"
    assert phone.get_attribute("#theme", "aria-pressed") == "false"
    light = phone.evaluate("() => getComputedStyle(document.querySelector('.card')).backgroundColor")
    phone.click("#menu-button")  # on a phone the switch is in the header's menu
    phone.click("#theme")
    assert phone.evaluate(theme) == "dark"
    assert phone.get_attribute("#theme", "aria-pressed") == "true"
    assert phone.evaluate("() => getComputedStyle(document.querySelector('.card')).backgroundColor") != light
    shot(phone, "phone-home-dark-switch")
    phone.reload()  # remembered, although the system still asks for light
    phone.wait_for_selector(".game-card")
    assert phone.evaluate(theme) == "dark"
    phone.click("#menu-button")
    phone.click("#theme")
    phone.emulate_media(color_scheme="dark")  # the switch's light beats the system's dark too
    phone.reload()
    phone.wait_for_selector(".game-card")
    assert phone.evaluate(theme) == "light"
    phone.evaluate("() => localStorage.removeItem('ludothek.theme')")  # nothing chosen: the system's
    phone.reload()
    phone.wait_for_selector(".game-card")
    assert phone.evaluate(theme) == "dark"


def test_move_sounds_on_for_players_off_for_spectators(browser, server):
    kinds = one_game_per_board_kind(server)
    created = new_game(server, kinds["hextri"])
    player_ctx, watcher_ctx = browser.new_context(), browser.new_context()
    try:
        player, watcher = player_ctx.new_page(), watcher_ctx.new_page()
        as_player(player, server, created)
        watcher.goto(f"{server}/play/{created['id']}")
        watcher.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
        assert player.get_attribute("#sound", "aria-pressed") == "true"
        assert watcher.get_attribute("#sound", "aria-pressed") == "false"
        view = player.evaluate("() => window.ludothekGame.view")
        move = next(m for m in view["moves"] if m["to"] and not m["from"])
        player.locator(f'svg.board [data-cell="{move["to"]}"]').first.click()
        player.wait_for_function("v => window.ludothekGame.view.version !== v", arg=view["version"])
        player.wait_for_function("() => window.ludothekGame.sounds.length === 1")
        watcher.wait_for_function("v => window.ludothekGame.view.version !== v", arg=view["version"])
        assert watcher.evaluate("() => window.ludothekGame.sounds") == []  # the spectator's are off
        # switched on by the spectator, and remembered for the next game watched
        watcher.click("#sound")
        assert watcher.get_attribute("#sound", "aria-pressed") == "true"
        watcher.reload()
        watcher.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
        assert watcher.get_attribute("#sound", "aria-pressed") == "true"
        # the player's choice is kept apart: off now, still off after a reload
        player.click("#sound")
        player.reload()
        player.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
        assert player.get_attribute("#sound", "aria-pressed") == "false"
        assert watcher.evaluate("() => localStorage.getItem('ludothek.sound.spectator')") == "on"
    finally:
        player_ctx.close()
        watcher_ctx.close()


def test_reconnecting_while_the_server_is_away(phone, tmp_path):
    db = str(tmp_path / "away.sqlite3")
    first = Server(db, "--rate-limits", "off", "--bots", "thread")
    port, base = first.port, first.base
    second = None
    try:
        created = new_game(base, "trike", options={"size": 7})
        as_player(phone, base, created)
        phone.wait_for_function("() => window.ludothekGame.connected === true")
        assert phone.locator("#connection").is_hidden()
        first.stop()
        phone.wait_for_selector("#connection", state="visible", timeout=20000)
        assert "reconnecting" in phone.locator("#connection").inner_text()
        # a move made now finds no server: the page says so instead of a bare "Failed to fetch"
        move = phone.evaluate("() => window.ludothekGame.view.moves[0].move")
        phone.fill("#move-input", move)
        phone.press("#move-input", "Enter")
        phone.wait_for_function("() => document.getElementById('error').textContent.includes('reconnecting')")
        shot(phone, "phone-reconnecting")
        second = Server(db, "--rate-limits", "off", "--bots", "thread", port=port)
        phone.wait_for_selector("#connection", state="hidden", timeout=30000)
        phone.wait_for_function("() => window.ludothekGame.connected === true")
        # back to normal: the move goes through
        version = phone.evaluate("() => window.ludothekGame.view.version")
        phone.fill("#move-input", move)
        phone.press("#move-input", "Enter")
        phone.wait_for_function("v => window.ludothekGame.view.version !== v", arg=version)
        assert phone.locator("#connection").is_hidden()
        shot(phone, "phone-reconnected")
    finally:
        first.stop()
        if second is not None:
            second.stop()
