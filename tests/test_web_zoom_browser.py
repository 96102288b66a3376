"""Phone ergonomics (issue 31, item 6) at 390×844 in Debian's Chromium (Playwright) against a
real ``ludothek serve``:

* a board whose cells are smaller than a finger (Trike 13 and 19, Trigeo, Hexalit) offers zoom
  buttons; zoomed all the way every cell is at least 40 px, the labels shown are readable (8 px or
  more; smaller ones are hidden), two fingers pinch, one finger drags the zoomed board without
  playing, and a tap on a cell still plays; a board with cells large enough (Bitis) offers none;
* screenshots of every board kind zoomed in, light and dark (``tests/artifacts/zoom-*.png``);
* Bitis's board stands in the middle once its tray is empty;
* the German header is one row with a menu button;
* the takeback and draw buttons of an online game do not touch.
"""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .test_web_a11y_browser import axe_source, serious_violations

sync_api = require_browser()
httpx = pytest.importorskip("httpx")

PHONE = {"width": 390, "height": 844}
TARGET = 40

SMALLEST_CELL = """() => Math.min(...[...document.querySelectorAll('svg.board polygon.cell[data-cell]')]
    .map((c) => { const r = c.getBoundingClientRect(); return Math.min(r.width, r.height); }))"""
# the labels on show and their height on the screen
LABELS = """() => [...document.querySelectorAll('svg.board text.cell-label, svg.board text.coord')]
    .filter((t) => getComputedStyle(t).display !== 'none')
    .map((t) => Number(t.getAttribute('font-size')) * t.getScreenCTM().a)"""
VIEWBOX = "() => document.querySelector('svg.board').getAttribute('viewBox')"


@pytest.fixture()
def phone(browser):
    with checked_page(browser, viewport=PHONE, device_scale_factor=2, has_touch=True) as page:
        yield page


def create(base: str, game: str, **extra) -> dict:
    created = httpx.post(base + "/api/games", json={"game": game, "opponent": "hotseat", **extra})
    assert created.status_code == 201, created.text
    return created.json()


def open_as_player(page, base: str, created: dict) -> None:
    if not page.url.startswith(base):
        page.goto(base + "/archive")
    page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)", [created["id"], created["token"]])
    page.goto(f"{base}/play/{created['id']}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
    page.wait_for_selector("svg.board")


def play_api(base: str, created: dict, token: str | None = None) -> None:
    """One legal move (the first the server lists) for whoever is to move."""
    view = httpx.get(f"{base}/api/games/{created['id']}").json()["game"]
    move = view["moves"][0]["move"]
    answer = httpx.post(f"{base}/api/games/{created['id']}/move", json={"move": move, "token": token or created["token"]})
    assert answer.status_code == 200, answer.text


def zoom_all_the_way(page) -> None:
    while page.is_enabled("#zoom-in"):
        before = page.get_attribute(".board-wrap", "data-zoom")
        page.click("#zoom-in")
        page.wait_for_function("z => document.querySelector('.board-wrap').dataset.zoom !== z", arg=before)


def pointer(page, kind: str, pointer_id: int, x: float, y: float) -> None:
    page.evaluate("""([kind, id, x, y]) => {
        const target = document.elementFromPoint(x, y) || document.querySelector('svg.board');
        target.dispatchEvent(new PointerEvent(kind, { pointerId: id, clientX: x, clientY: y, bubbles: true,
            pointerType: 'touch', isPrimary: id === 1 }));
    }""", [kind, pointer_id, x, y])


@pytest.mark.parametrize("game, options", [("trike", {"size": 13}), ("trike", {"size": 19}), ("trigeo", {}), ("hexalit", {})])
def test_a_fine_board_zooms_until_every_cell_takes_a_finger(phone, server, game, options):
    created = create(server, game, options=options)
    open_as_player(phone, server, created)
    before = phone.evaluate(SMALLEST_CELL)
    assert before < TARGET  # the reason for zooming
    assert phone.is_visible("#zoom-in") and phone.is_disabled("#zoom-out")
    whole = phone.evaluate(VIEWBOX)
    zoom_all_the_way(phone)
    assert phone.evaluate(SMALLEST_CELL) >= TARGET
    assert min(phone.evaluate(LABELS) or [99]) >= 8
    shot(phone, f"zoom-most-{game}{options.get('size', '')}")
    assert phone.evaluate(VIEWBOX) != whole
    # redrawn (a new board after any change) it stays zoomed
    assert float(phone.get_attribute(".board-wrap", "data-zoom")) > 1
    # one finger drags the zoomed board: it moves, and nothing is played or chosen
    box = phone.locator("svg.board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    plies = phone.evaluate("() => window.ludothekGame.view.plies")
    shown = phone.evaluate(VIEWBOX)
    pointer(phone, "pointerdown", 1, x, y)
    pointer(phone, "pointermove", 1, x + 60, y + 40)
    pointer(phone, "pointerup", 1, x + 60, y + 40)
    phone.evaluate("""([x, y]) => document.elementFromPoint(x, y).dispatchEvent(
        new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }))""", [x + 60, y + 40])  # after the drag: swallowed
    assert phone.evaluate(VIEWBOX) != shown
    assert phone.evaluate("() => window.ludothekGame.view.plies") == plies
    assert phone.evaluate("() => window.ludothekGame.selected ?? null") in (None, "")
    # zoomed out by a button, two fingers spread it again
    while phone.is_enabled("#zoom-out"):
        phone.click("#zoom-out")
    assert phone.get_attribute(".board-wrap", "data-zoom") == "1.00"
    pointer(phone, "pointerdown", 1, x - 20, y)
    pointer(phone, "pointerdown", 2, x + 20, y)
    pointer(phone, "pointermove", 2, x + 90, y)
    pointer(phone, "pointerup", 2, x + 90, y)
    pointer(phone, "pointerup", 1, x - 20, y)
    assert float(phone.get_attribute(".board-wrap", "data-zoom")) > 1.5


def test_a_tap_on_a_zoomed_board_plays(phone, server):
    created = create(server, "trike", options={"size": 13})
    open_as_player(phone, server, created)
    zoom_all_the_way(phone)
    # the first move may go anywhere: a cell in view, tapped
    cell = phone.evaluate("""() => {
        const box = document.querySelector('svg.board').getBoundingClientRect();
        for (const c of document.querySelectorAll('svg.board polygon.cell.tgt')) {
            const r = c.getBoundingClientRect();
            const x = r.x + r.width / 2, y = r.y + r.height / 2;
            if (x > box.x + 60 && x < box.right - 60 && y > box.y + 60 && y < box.bottom - 10) return [c.dataset.cell, x, y];
        }
        return null;
    }""")
    assert cell is not None
    phone.mouse.click(cell[1], cell[2])
    phone.wait_for_function("() => window.ludothekGame.view.plies === 1")
    assert phone.evaluate("() => window.ludothekGame.view.history[0].text").startswith(cell[0])
    # the keyboard: a cell out of view that takes the focus comes into view
    inside = """name => {
        const box = document.querySelector('svg.board').getBoundingClientRect();
        const r = document.querySelector(`svg.board polygon.cell[data-cell="${name}"]`).getBoundingClientRect();
        return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
    }"""
    far = phone.evaluate("""() => [...document.querySelectorAll('svg.board polygon.cell[data-cell][tabindex]')]
        .map((c) => c.dataset.cell).find((name) => name === 'm1' || name === 'a1')""")
    assert far and not phone.evaluate(inside, far)
    phone.focus(f'svg.board polygon.cell[data-cell="{far}"]')
    assert phone.evaluate(inside, far)


def test_every_board_kind_zoomed_in_light_and_dark(phone, server):
    kinds: dict[str, str] = {}
    for game in httpx.get(server + "/api/catalog").json()["games"]:
        kinds.setdefault(game["board"], game["name"])
    source = axe_source()
    for kind, game in kinds.items():
        created = create(server, game)
        for scheme in ("light", "dark"):
            phone.emulate_media(color_scheme=scheme)
            open_as_player(phone, server, created)
            if phone.is_visible("#zoom-in"):
                phone.click("#zoom-in")
                phone.wait_for_function("() => Number(document.querySelector('.board-wrap').dataset.zoom) > 1")
            else:  # no zoom offered: the cells are large enough as they are
                assert phone.evaluate(SMALLEST_CELL) >= TARGET, kind
            assert min(phone.evaluate(LABELS) or [99]) >= 8, kind
            shot(phone, f"zoom-{kind}-{scheme}")
            assert serious_violations(phone, source) == [], (kind, scheme)


def test_bitis_stands_in_the_middle_once_its_tray_is_empty(phone, server):
    created = create(server, "bitis")
    for _ in range(3):  # A, B, A: the three dice are placed
        play_api(server, created)
    open_as_player(phone, server, created)
    assert phone.evaluate("() => (window.ludothekGame.view.board.tray || []).length") == 0
    off = phone.evaluate("""() => {
        const svg = document.querySelector('svg.board').getBoundingClientRect();
        const cells = [...document.querySelectorAll('svg.board polygon.cell')].map((c) => c.getBoundingClientRect());
        const left = Math.min(...cells.map((r) => r.left)), right = Math.max(...cells.map((r) => r.right));
        return (left - svg.left) - (svg.right - right);
    }""")
    assert abs(off) <= 2, off
    shot(phone, "zoom-bitis-empty-tray")


def test_the_german_header_is_one_row_with_a_menu(phone, server):
    phone.goto(server + "/")
    phone.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
    name = "Wanderer_mit_Namen"
    answer = phone.evaluate("""async (name) => {
        const r = await fetch('/api/signup', { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ name, password: 'a long table top' }) });
        return r.status;
    }""", name)
    assert answer in (200, 201)
    phone.goto(server + "/lobby")
    phone.wait_for_selector("#account-name")
    assert phone.text_content("#my-games").startswith("Meine Partien")
    header = phone.locator("header.top").bounding_box()
    assert header["height"] <= 60, header
    for selector in ("#account-name", "#my-games", "#menu-button"):
        box = phone.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], selector
        assert box["height"] >= 40, selector
    shot(phone, "zoom-header-de-closed")
    phone.click("#menu-button")
    for selector in ('header nav a[href="/leaderboard"]', "#logout", '[data-lang="en"]', "#theme"):
        box = phone.locator(selector).bounding_box()
        assert box["height"] >= 40 and box["x"] + box["width"] <= PHONE["width"], selector
    shot(phone, "zoom-header-de-open")
    assert serious_violations(phone, axe_source()) == []
    phone.keyboard.press("Escape")
    assert phone.get_attribute("#menu-button", "aria-expanded") == "false"
    assert phone.is_hidden("#logout")
    phone.click("#menu-button")
    phone.click('header nav a[href="/archive"]')  # a choice closes the menu
    phone.wait_for_selector("#archive, .tabs")
    assert phone.get_attribute("#menu-button", "aria-expanded") == "false"
    phone.evaluate("() => localStorage.setItem('ludothek.lang', 'en')")


def test_the_offer_buttons_do_not_touch(phone, server):
    created = httpx.post(server + "/api/games", json={"game": "trigeo", "opponent": "friend", "seat": 0}).json()
    joined = httpx.post(f"{server}/api/games/{created['id']}/join", json={"invite": created["invite"]}).json()
    tokens = {0: created["token"], 1: joined["token"]}
    mover = httpx.get(f"{server}/api/games/{created['id']}").json()["game"]["to_seat"]
    play_api(server, created, tokens[mover])
    open_as_player(phone, server, {"id": created["id"], "token": tokens[mover]})
    # both boxes read in one go once both buttons are shown (a redraw may replace them in between)
    a, b = phone.wait_for_function("""() => {
        const shown = [...document.querySelectorAll('#offer-takeback, #offer-draw')].filter(e => e.offsetParent);
        if (shown.length < 2) return null;
        return shown.map(e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; });
    }""").json_value()
    apart = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]),
                b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
    assert apart >= 6, (a, b)
    # found and scrolled to in one go (a redraw may replace the card in between)
    phone.evaluate("() => document.querySelector('#table-offer').scrollIntoView({block: 'nearest'})")
    shot(phone, "zoom-offer-buttons")
