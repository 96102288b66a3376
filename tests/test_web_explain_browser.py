"""Analysis that explains (issue 31, item 4) in the browser: winning chances in %, the marks'
thresholds on the page, the best move as an arrow on the board for any ply, the expected line
played on the board step by step, English and German, axe-clean. Debian's Chromium driven by
Playwright against ``ludothek serve``; screenshots go to tests/artifacts/ (``explain-*.png``)."""

from __future__ import annotations

import random

import pytest

from ludothek.core.registry import game_class

from .browser import require_browser, shot
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_analysis_browser import TRIKE_CHOICE, api, hotseat, open_as, wait

sync_api = require_browser()
httpx = pytest.importorskip("httpx")


def axe_problems(page) -> list[str]:
    """axe-core's serious findings on the page (the test is skipped without axe-core)."""
    return serious_violations(page, axe_source())


def analysed(page, server, game_id, token):
    open_as(page, server, game_id, token)
    page.click("#analyse")
    wait(page, "() => document.querySelector('#eval-chart')", name="explain-chart")
    return page.evaluate("() => window.ludothekGame.analysis.data")


def test_winning_chances_the_best_move_arrow_and_the_line_on_the_board(page, server):
    # Black (seat 0) could win with a1 and played d4 (a blunder); White took the win with c3
    game_id, token, final = hotseat(server, "trike", ["d4", "c3"], options={"size": 7}, position=TRIKE_CHOICE)
    assert final["status"] == "over"
    data = analysed(page, server, game_id, token)
    assert data["entries"][0]["mark"] == "blunder"
    # the start: Black wins for sure, and the arrow (a ring: a placement is one cell) shows a1
    page.locator('#movelist .mv[data-index="0"]').click()
    wait(page, "() => window.ludothekGame.replayIndex === 0", name="explain-replay")
    page.click("#replay-start")
    wait(page, "() => window.ludothekGame.replayIndex === -1", name="explain-start")
    page.wait_for_selector("#best-arrow")
    assert page.locator("#best-arrow").get_attribute("data-cells") == "a1"
    assert page.locator("#best-arrow circle.best-ring").count() == 1
    assert page.locator("#analysis-chances").inner_text() == "Winning chances: Black 100%, White 0%"
    assert page.locator("#analysis-next").inner_text() == "Best move here: a1"
    # the chart is in winning chances: the blunder's point is at the bottom (Black 0%)
    point = page.locator('#eval-chart circle.ply-point[data-ply="1"]')
    assert point.get_attribute("data-win") == "0" and "mark-blunder" in point.get_attribute("class")
    assert "Black 0%" in point.locator("title").inner_html()
    # after the blunder: marked by the chances lost, and White's winning move as the arrow
    point.click()
    wait(page, "() => window.ludothekGame.replayIndex === 0", name="explain-ply-1")
    page.wait_for_selector('#best-arrow[data-cells="c3"]')
    assert page.locator("#analysis-mark").inner_text() == "Blunder: gave away 100 percentage points of winning chances"
    assert page.locator("#analysis-chances").inner_text() == "Winning chances: Black 0%, White 100%"
    shot(page, "explain-trike-arrow")
    assert not axe_problems(page)
    # the expected line, played on the board: c3, then the board shows it
    board_before = page.evaluate("() => JSON.stringify(window.ludothekGame.replay.board)")
    line = page.locator("#analysis-line .line-move")
    assert line.count() >= 1 and line.first.inner_text() == "c3"
    line.first.click()
    wait(page, "() => window.ludothekGame.line && window.ludothekGame.line.at === 0", name="explain-line")
    page.wait_for_selector('#analysis-line .line-move[aria-pressed="true"]')
    assert page.locator("svg.board").get_attribute("aria-label") is not None
    shown_last = page.evaluate("() => window.ludothekGame.line.steps[0].last.cells")
    assert shown_last == ["c3"]
    # the drawn board is the line's: its last move is marked on c3
    assert page.evaluate("() => JSON.stringify(window.ludothekGame.line.steps[0].board)") != board_before
    assert page.locator("#line-back").inner_text() == "Back to the game"
    page.click("#line-back")
    wait(page, "() => window.ludothekGame.line === null", name="explain-line-back")
    assert page.locator("#analysis-line .line-move[aria-pressed='true']").count() == 0
    # German: the same in German words and numbers
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
    page.reload()
    wait(page, "() => document.querySelector('#eval-chart')", name="explain-de")
    page.locator('#eval-chart circle.ply-point[data-ply="1"]').click()
    wait(page, "() => window.ludothekGame.replayIndex === 0", name="explain-de-ply")
    assert page.locator("#analysis-chances").inner_text() == "Gewinnchancen: Schwarz 0\u00a0%, Weiß 100\u00a0%"
    assert page.locator("#analysis-mark").inner_text() == "Grober Fehler: verschenkte 100 Prozentpunkte Gewinnchance"
    assert page.locator("#analysis-best").inner_text() == "Besser war a1 (Schwarz 100\u00a0%)"
    assert page.locator("#analysis-next").inner_text() == "Bester Zug hier: c3"
    assert not axe_problems(page)
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'en')")


def test_a_dice_game_draws_its_best_move_as_an_arrow_from_cell_to_cell(page, server):
    """Trigeo: the best move of a position where a die moves goes from one cell to another."""
    state, rng = game_class("trigeo")(), random.Random(4)
    while state.ply < 14 and not state.is_over():
        state.play(rng.choice(state.legal_actions()))
    game_id, token, view = hotseat(server, "trigeo", state.move_texts)
    if view["status"] != "over":
        resigned = api(server, "POST", f"/api/games/{game_id}/resign", token=token)
        assert resigned.status_code == 200, resigned.text
    data = analysed(page, server, game_id, token)
    arrows = [e for e in data["entries"] if e.get("arrow") and len(e["arrow"]) == 2]
    assert arrows, "some position of the game has a die to move"
    target = arrows[0]
    page.locator(f'#eval-chart circle.ply-point[data-ply="{target["ply"]}"]').click()
    wait(page, "ply => window.ludothekGame.replay && window.ludothekGame.replay.at === ply", target["ply"],
         name="explain-trigeo")
    arrow = page.locator("#best-arrow")
    arrow.wait_for()
    assert arrow.get_attribute("data-cells") == " ".join(target["arrow"])
    assert arrow.locator("line.best-shaft").count() == 1 and arrow.locator("polygon.best-head").count() == 1
    # winning chances, never the bare evaluation
    text = page.locator("#analysis-chances").inner_text()
    assert text.startswith("Winning chances: White ") and text.endswith("%")
    shot(page, "explain-trigeo-arrow")
    assert not axe_problems(page)


def test_the_analysis_on_a_phone_in_the_dark(browser, server):
    from .browser import checked_page

    game_id, token, _ = hotseat(server, "trike", ["d4", "c3"], options={"size": 7}, position=TRIKE_CHOICE)
    with checked_page(browser, viewport={"width": 390, "height": 844}, color_scheme="dark") as page:
        analysed(page, server, game_id, token)
        page.locator('#eval-chart circle.ply-point[data-ply="1"]').click()
        wait(page, "() => window.ludothekGame.replayIndex === 0", name="explain-phone")
        page.wait_for_selector('#best-arrow[data-cells="c3"]')
        page.locator("#analysis-line .line-move").first.click()
        wait(page, "() => window.ludothekGame.line && window.ludothekGame.line.at === 0", name="explain-phone-line")
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        page.locator("#analysis").scroll_into_view_if_needed()
        shot(page, "explain-phone-dark")
        assert not axe_problems(page)
