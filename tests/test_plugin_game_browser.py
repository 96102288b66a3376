"""The plugin game Race (tests/plugin) in the browser: Debian's Chromium driven by Playwright
against ``ludothek serve``, as tests/test_web_browser.py does for the built-in games.

The web app knows Race only through its spec: the card on the home page, the board (the
generic ``cells`` kind), the server's rolls, moves by clicks and the rules page all come from
the package in tests/plugin. Screenshots go to tests/artifacts/ (ignored by git)."""

from __future__ import annotations

import random
import re

import pytest

import ludothek

from .browser import require_browser, shot

sync_api = require_browser()

GAME = "wettlauf"
SQUARES = {"s", *(str(n) for n in range(1, 13)), "h"}
if GAME not in ludothek.games():
    pytest.fail("the Race plugin is not registered (tests/conftest.py registers it for the tests)",
                pytrace=False)


def view(page) -> dict:
    return page.evaluate("() => window.ludothekGame.view")


def wait_version_change(page, version, timeout=20000) -> None:
    try:
        page.wait_for_function(
            "v => window.ludothekGame && window.ludothekGame.view && window.ludothekGame.view.version !== v",
            arg=version, timeout=timeout)
    except sync_api.TimeoutError:
        shot(page, "wettlauf-timeout")
        raise


def click_cell(page, name: str) -> None:
    page.locator(f'svg.board [data-cell="{name}"]').first.click()


def move_by_clicks(page, choice: dict) -> None:
    """A token's square, then its target: the way a person moves."""
    version = view(page)["version"]
    click_cell(page, choice["from"])
    page.wait_for_function("c => window.ludothekGame.selected === c", arg=choice["from"])
    click_cell(page, choice["to"])
    wait_version_change(page, version)


def test_race_hot_seat_from_the_home_page(page, server):
    page.goto(server + "/")
    card = page.locator(f'.game-card[data-game="{GAME}"]')
    card.wait_for()
    assert "Race" in card.inner_text()
    card.click()
    page.click('[data-opponent="hotseat"]')
    page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")

    # the board: the fourteen squares of the generic "cells" kind, four tokens on the start
    cells = set(page.eval_on_selector_all("svg.board [data-cell]", "els => els.map((e) => e.dataset.cell)"))
    assert cells == SQUARES
    assert page.locator("svg.board .piece").count() == 4
    state = view(page)
    assert state["board"]["pieces"]["s"] and len(state["board"]["pieces"]["s"]) == 4

    # the server rolled the opening die: White may bring a token onto that square
    opening = state["history"][0]
    assert opening["text"] in ("1", "2", "3") and state["status"] == "ongoing"
    assert [m["move"] for m in state["moves"]] == [f"s-{opening['text']}"]
    assert state["moves"][0]["from"] == "s" and state["moves"][0]["to"] == opening["text"]
    shot(page, "wettlauf-start")

    move_by_clicks(page, state["moves"][0])
    state = view(page)
    played = state["history"][-1]
    assert played["colour"] == "white" and re.fullmatch(rf"s-{opening['text']}/[123]", played["text"])
    assert page.locator("#movelist .mv").last.inner_text().strip().startswith(f"s-{opening['text']}")
    assert state["moves"] and all(m["kind"] == "move" for m in state["moves"])  # Black's roll is in
    assert len(state["board"]["pieces"][opening["text"]]) == 1

    # a few more moves, either colour, each by two clicks
    rng = random.Random(4)
    for _ in range(8):
        state = view(page)
        if state["status"] != "ongoing":
            break
        move_by_clicks(page, rng.choice(state["moves"]))
    state = view(page)
    assert page.locator("#movelist .mv").count() == len(state["history"])
    record = ludothek.loads(page.evaluate(
        "async (id) => (await fetch(`/api/games/${id}/record`)).text()", state["id"]))
    assert record.game == GAME and record.replay().position() == state["position"]
    shot(page, "wettlauf-middle")


def test_race_rules_page(page, server):
    page.goto(server + f"/rules/{GAME}")
    page.wait_for_selector("#rules figure svg")
    tab = page.locator(f'.tabs a[href="/rules/{GAME}"]')
    assert tab.inner_text() == "Race" and "on" in (tab.get_attribute("class") or "")
    text = page.locator("#rules").inner_text()
    assert "Sending back" in text and "7-9*" in text
    shot(page, "wettlauf-rules")
    page.click('[data-lang="de"]')
    page.wait_for_selector("text=Zurückschicken")
    assert page.locator(f'.tabs a[href="/rules/{GAME}"]').inner_text() == "Wettlauf"
    shot(page, "wettlauf-rules-de")
