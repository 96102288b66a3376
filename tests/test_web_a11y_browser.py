"""Keyboard and screen readers: Debian's Chromium driven by Playwright against ``ludothek serve``.

* axe-core (npm, ``npm ci --prefix tests/axe``) finds no serious or critical violation on any
  page — home, a game of each board kind, every rules page, the archive — light and dark. The
  server's strict CSP refuses an inline <script>, so axe's source is evaluated through the
  DevTools protocol (``page.evaluate``), which the page's policy does not govern.
* A whole game of Trike (size 7, hot-seat) played with the keyboard alone, from the home page to
  the result: Tab, the arrow keys and Enter; the live region announces the moves.
* The home page's games are buttons that Tab reaches and Enter chooses.

Without axe-core the axe test is skipped, except under CI=true, where it fails with the command
that installs it. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import ludothek

from .browser import require_browser, shot

sync_api = require_browser()
httpx = pytest.importorskip("httpx")

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
GAMES = ludothek.games()


def axe_source() -> str:
    if not AXE.exists():
        message = f"axe-core is not installed ({AXE} is missing): run npm ci --prefix tests/axe"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return AXE.read_text("utf-8")


def serious_violations(page, source: str) -> list[str]:
    """axe's serious and critical findings on the page as it stands, one line each."""
    page.wait_for_load_state("networkidle")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] });
        return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.help} -- ${v.nodes.slice(0, 3).map((n) => n.html.slice(0, 120)).join(" | ")}`);
    }""")
    return found


def one_game_per_board_kind(base: str) -> dict[str, str]:
    """{board kind: the first game in the catalogue drawn with it}."""
    kinds: dict[str, str] = {}
    for game in httpx.get(base + "/api/catalog").json()["games"]:
        kinds.setdefault(game["board"], game["name"])
    return kinds


def open_game(page, base: str, game: str, **options) -> dict:
    """A new hot-seat game, opened in the page with its player's token (as the home page does)."""
    body = {"game": game, "opponent": "hotseat"}
    if options:
        body["options"] = options
    created = httpx.post(base + "/api/games", json=body).json()
    if page.url.startswith(base):
        page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)",
                      [created["id"], created["token"]])
    else:
        page.goto(base + "/rules")
        page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)",
                      [created["id"], created["token"]])
    page.goto(f"{base}/play/{created['id']}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
    return created


def test_axe_finds_nothing_serious_on_any_page_light_and_dark(page, server):
    source = axe_source()
    kinds = one_game_per_board_kind(server)
    assert {"hextri", "tri66", "grid", "cells"} <= set(kinds), kinds
    games = {kind: open_game(page, server, game)["id"] for kind, game in kinds.items()}
    # a stone on the triangle of hexagons, so that the pieces and the last move are drawn too
    page.goto(f"{server}/play/{games['hextri']}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
    first = page.evaluate("() => window.ludothekGame.view.moves[0].move")
    token = page.evaluate("(id) => localStorage.getItem(`ludothek.token.${id}`)", games["hextri"])
    httpx.post(f"{server}/api/games/{games['hextri']}/move", json={"token": token, "move": first})
    rules = [g["name"] for g in httpx.get(server + "/api/catalog").json()["games"] if g["rules"]]
    pages = {"home": "/", "archive": "/archive"}
    pages.update({f"rules-{name}": f"/rules/{name}" for name in rules})
    pages.update({f"game-{kind}": f"/play/{game_id}" for kind, game_id in games.items()})
    problems: list[str] = []
    checked = 0
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for name, path in pages.items():
            page.goto(server + path)
            if name.startswith("game-"):
                page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
                page.wait_for_selector("svg.board [role=button]")
            elif name == "home":
                page.wait_for_function("() => [...document.querySelectorAll('.game-card')].every((c) => c.querySelector('svg'))")
            elif name == "archive":
                page.click('[data-filter="ongoing"]')
                page.wait_for_selector("#archive")
            else:
                page.wait_for_selector("#rules figure svg")
            assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
            problems += [f"{scheme} {name}: {p}" for p in serious_violations(page, source)]
            checked += 1
        shot(page, f"a11y-axe-{scheme}")
    assert checked == 2 * len(pages)
    assert not problems, "\n".join(problems)


def test_axe_sees_a_page_with_a_known_problem(page, server):
    """The check above can fail: an image without a name is a serious violation to axe."""
    source = axe_source()
    page.goto(server + "/archive")
    page.wait_for_selector(".tabs")
    page.evaluate("() => { const i = document.createElement('img'); i.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';"
                  " document.querySelector('main').append(i); }")
    assert any(v.startswith("image-alt") for v in serious_violations(page, source))


# ---------------------------------------------------------------------------- the keyboard
def focused_cell(page) -> str | None:
    return page.evaluate("() => { const e = document.activeElement; return e && e.closest && e.closest('svg.board') ? e.dataset.cell || null : null; }")


def centre(page, cell: str) -> tuple[float, float]:
    box = page.evaluate("""(name) => { const e = [...document.querySelectorAll('svg.board [role=button]')].find((n) => n.dataset.cell === name);
        const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }""", cell)
    return box[0], box[1]


def walk_to(page, cell: str) -> int:
    """Arrow keys from the focused cell to ``cell``: first up or down to its row, then along it.
    Returns the keys pressed."""
    for pressed in range(80):
        here = focused_cell(page)
        assert here is not None, "the keyboard focus left the board"
        if here == cell:
            return pressed
        (x, y), (tx, ty) = centre(page, here), centre(page, cell)
        if abs(ty - y) > 3:
            page.keyboard.press("ArrowDown" if ty > y else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if tx > x else "ArrowLeft")
    raise AssertionError(f"the arrow keys did not lead from {focused_cell(page)} to {cell}")


def tab_until(page, predicate_js: str, limit: int = 80) -> int:
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate(predicate_js):
            return presses
    raise AssertionError(f"Tab did not reach {predicate_js} in {limit} presses")


def game_view(page) -> dict:
    return page.evaluate("() => window.ludothekGame.view")


def test_home_cards_are_reached_by_tab_and_chosen_by_enter(page, server):
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    names = page.eval_on_selector_all(".game-card", "cards => cards.map((c) => c.dataset.game)")
    assert len(names) == len(GAMES) and all(page.eval_on_selector_all(".game-card", "cards => cards.map((c) => c.tagName === 'BUTTON')"))
    last = names[-1]
    assert page.locator(f'.game-card[data-game="{last}"]').get_attribute("aria-pressed") == "false"
    tab_until(page, f"() => document.activeElement.dataset.game === {last!r}")
    # a visible focus ring: the focused card has an outline
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), outline
    shot(page, "a11y-home-card-focus")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('.game-card.chosen')?.dataset.game === {last!r}")
    assert page.locator(f'.game-card[data-game="{last}"]').get_attribute("aria-pressed") == "true"
    # the focus stays on the chosen card across the page's redraw, and Tab goes on from there
    assert page.evaluate("() => document.activeElement.dataset.game") == last
    title = page.locator(".setup h2").first.inner_text()
    assert page.locator(f'.game-card[data-game="{last}"] .name').inner_text() in title


def test_every_control_of_a_game_page_is_reached_by_tab(page, server):
    open_game(page, server, "trike", size=7)
    order = []
    for _ in range(40):
        page.keyboard.press("Tab")
        order.append(page.evaluate("""() => { const e = document.activeElement;
            return e.closest('svg.board') ? 'board' : e.id || e.dataset.lang || `${e.getAttribute('href')} ${e.textContent.trim()}`; }"""))
    seen = set(order)
    for control in ("board", "resign", "flip", "sound", "move-input", "theme", "en", "de"):
        assert control in seen, (control, order)


def test_a_whole_game_of_trike_by_keyboard(page, server):
    if "trike" not in GAMES:
        pytest.skip("Trike is not registered")
    # the home page: Tab to Trike, Enter; the size by typing on the select; Tab to start, Enter
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    tab_until(page, "() => document.activeElement.dataset.game === 'trike'")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.game-card.chosen')?.dataset.game === 'trike'")
    tab_until(page, "() => document.activeElement.id === 'opt-size'")
    page.keyboard.type("7")
    assert page.evaluate("() => document.getElementById('opt-size').value") == "7"
    tab_until(page, "() => document.activeElement.id === 'start'")
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
    assert game_view(page)["options"]["size"] == 7 and game_view(page)["mode"] == "local"

    tab_until(page, "() => !!document.activeElement.closest('svg.board')")
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label and label.split(",")[0] == focused_cell(page)
    assert page.locator("svg.board [tabindex='0']").count() == 1  # a roving tabindex
    shot(page, "a11y-trike-keyboard-start")

    rng = random.Random(7)
    pressed = 0
    for turn in range(60):
        view = game_view(page)
        if view["status"] == "over":
            break
        moves = [m for m in view["moves"] if m["to"]]  # not the swap, which is a button
        choice = rng.choice(moves)
        version = view["version"]
        if choice["from"]:
            pressed += walk_to(page, choice["from"])
            page.keyboard.press("Enter")
            page.wait_for_function("c => window.ludothekGame.selected === c", arg=choice["from"])
            assert "selected" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        pressed += walk_to(page, choice["to"])
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')").startswith(choice["to"])
        page.keyboard.press("Enter")
        page.wait_for_function("v => window.ludothekGame.view.version !== v", arg=version)
        assert game_view(page)["history"][-1]["text"].startswith(choice["move"])
        if turn == 0:
            # the live region says the move, with the mover's colour
            page.wait_for_function("() => document.getElementById('announce').textContent.includes('plays')")
            said = page.locator("#announce").inner_text()
            assert choice["move"] in said and "Black" in said
            assert page.locator("#announce").get_attribute("aria-live") == "polite"
        if turn == 3:
            shot(page, "a11y-trike-keyboard-middle")
        if game_view(page)["status"] != "over":  # at the end a dialog may take the focus
            assert focused_cell(page) is not None, f"the focus left the board after move {turn + 1}"
    view = game_view(page)
    assert view["status"] == "over" and view["termination"] == "rules", view["status"]
    assert pressed > 0
    page.wait_for_selector("#result")
    page.wait_for_function("() => document.getElementById('announce').textContent.includes('wins')")
    shot(page, "a11y-trike-keyboard-over")


def test_arrow_keys_reach_every_cell_of_every_board_kind(page, server):
    """From the first cell, the arrow keys lead everywhere on each kind of board (none is cut off)."""
    for kind, game in one_game_per_board_kind(server).items():
        open_game(page, server, game)
        cells = page.eval_on_selector_all("svg.board [role=button]", "els => els.map((e) => e.dataset.cell)")
        assert len(cells) == len(set(cells)) > 3, (kind, cells)
        page.locator("svg.board [tabindex='0']").focus()
        seen = {focused_cell(page)}
        frontier = [focused_cell(page)]
        while frontier:  # a search over the key graph: focus a cell, press each arrow
            cell = frontier.pop()
            for key in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"):
                page.evaluate("(name) => [...document.querySelectorAll('svg.board [role=button]')].find((n) => n.dataset.cell === name).focus()", cell)
                page.keyboard.press(key)
                reached = focused_cell(page)
                if reached not in seen:
                    seen.add(reached)
                    frontier.append(reached)
        assert seen == set(cells), (kind, set(cells) - seen)
        labels = page.eval_on_selector_all("svg.board [role=button]", "els => els.map((e) => e.getAttribute('aria-label'))")
        assert all(label for label in labels), kind


# ---------------------------------------------------------------------------- dialogs and headings
def test_a_dialog_keeps_tab_inside_and_gives_the_focus_back(page, server):
    created = open_game(page, server, "trike", size=7)
    page.focus("#flip")
    httpx.post(f"{server}/api/games/{created['id']}/resign", json={"token": created["token"]})
    page.wait_for_selector("#end-dialog")
    inside = "() => !!document.activeElement.closest('.modal')"
    assert page.evaluate(inside), "the dialog did not take the focus"
    stops = set()
    for _ in range(12):  # more presses than the dialog has controls: Tab wraps around inside it
        page.keyboard.press("Tab")
        assert page.evaluate(inside), "Tab left the open dialog"
        stops.add(page.evaluate("() => document.activeElement.id || document.activeElement.textContent"))
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(inside), "Shift+Tab left the open dialog"
    assert len(stops) >= 2, stops
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.modal')")
    assert page.evaluate("() => document.activeElement.id") == "flip", "the focus did not return to the opener"


def test_headings_go_down_one_level_at_a_time(page, server):
    """axe's heading-order rule (a moderate finding, so not in the check above) on the game page
    with its end dialog open, the home page and the archive."""
    source = axe_source()
    created = open_game(page, server, "trike", size=7)
    httpx.post(f"{server}/api/games/{created['id']}/resign", json={"token": created["token"]})
    page.wait_for_selector("#end-dialog")
    problems = []
    for path in (None, "/", "/archive", "/rules/trike"):
        if path:
            page.goto(server + path)
            page.wait_for_load_state("networkidle")
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(source)
        problems += page.evaluate("""async () => {
            const result = await axe.run(document, { runOnly: ["heading-order"], resultTypes: ["violations"] });
            return result.violations.flatMap((v) => v.nodes.map((n) => n.html.slice(0, 100)));
        }""")
    assert not problems, problems
