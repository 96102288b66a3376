"""The computer analysis of a finished game in the browser (issue 12, item 7): the Analyse
button, the queued/running state, the evaluation chart with one point per ply, the marks in the
move list, a click on a point that moves the replay there, "best was …", the end dialog's
Analyse button, and Bitis's exact values. Debian's Chromium driven by Playwright against
``ludothek serve``; screenshots, light and dark, go to tests/artifacts/ (``analysis-*.png``)."""

from __future__ import annotations

import random
import re

import pytest

from ludothek.ai.levels import level_agent
from ludothek.core.registry import game_class

from .browser import require_browser, shot

sync_api = require_browser()
httpx = pytest.importorskip("httpx")

#: Trike, Black to move: a1 wins at once, d4 lets White win with c3
TRIKE_CHOICE = "1/bW/ww1/bwb1/1bbw1/2wbw1/5b1 b"


def api(server, method, path, **body):
    return httpx.request(method, server + path, json=body or None, timeout=30)


def hotseat(server, game, moves, **spec):
    """A hot-seat game played through the API: (id, token, its final view)."""
    created = api(server, "POST", "/api/games", game=game, start="fixed", **spec)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    view = created.json()["game"]
    for move in moves:
        answer = api(server, "POST", f"/api/games/{game_id}/move", token=token, move=move)
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return game_id, token, view


def open_as(page, server, game_id, token):
    page.goto(server + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)", [game_id, token])
    page.goto(f"{server}/play/{game_id}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")


def wait(page, script, arg=None, name="wait", timeout=120000):
    try:
        page.wait_for_function(script, arg=arg, timeout=timeout)
    except sync_api.TimeoutError:
        shot(page, f"analysis-timeout-{name}")
        raise


def axe_problems(page) -> list[str]:
    """axe-core's serious findings on the page (none checked without axe-core installed)."""
    from .test_web_a11y_browser import AXE, serious_violations

    return serious_violations(page, AXE.read_text("utf-8")) if AXE.exists() else []


def random_trike(seed: int) -> list[str]:
    """The moves of a whole random game of Trike on the smallest board."""
    state, rng = game_class("trike")(size=7), random.Random(seed)
    while not state.is_over():
        state.play(rng.choice(state.legal_actions()))
    return state.move_texts


def test_an_analysed_game_chart_marks_and_replay(page, server):
    moves = random_trike(3)
    game_id, token, final = hotseat(server, "trike", moves, options={"size": 7})
    assert final["status"] == "over" and len(final["history"]) == len(moves)
    open_as(page, server, game_id, token)
    page.wait_for_selector("#analyse")
    assert page.locator("#analyse").inner_text() == "Analyse"
    assert page.locator("#eval-chart").count() == 0 and page.locator("#movelist .mark").count() == 0
    page.click("#analyse")
    # queued or running until the pool is done (the status may pass too fast to see)
    wait(page, "() => ['queued', 'running', 'done'].includes(window.ludothekGame.analysis.status)", name="asked")
    wait(page, "() => document.querySelector('#eval-chart')", name="chart")
    points = page.locator("#eval-chart circle.ply-point")
    assert points.count() == len(moves)  # one point per ply
    data = page.evaluate("() => window.ludothekGame.analysis.data")
    above = data["colours"][0].capitalize()  # seat 0's colour (Trike's pie rule may have changed it)
    assert page.locator("#eval-chart title").first.inner_html() == f"{above}'s winning chances after every ply"
    # the thresholds, stated on the page
    assert page.locator("#analysis-thresholds").inner_text() == (
        "Marks by the winning chances a move gave away against the best move: ?! inaccuracy from 10, "
        "? mistake from 20, ?? blunder from 30 percentage points.")
    assert f"plies; above the middle line {above} stands better" in page.locator("#eval-desc").inner_html()
    marked = [e for e in data["entries"] if e["mark"]]
    assert marked, "a random game has its blunders"
    assert page.locator("#eval-chart circle.mark-blunder, #eval-chart circle.mark-mistake, "
                        "#eval-chart circle.mark-inaccuracy").count() == len(marked)
    # the move list marks the same moves, with lichess's symbols
    symbols = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    listed = page.locator("#movelist .mark")
    assert listed.count() == len(marked)
    assert [listed.nth(i).inner_text() for i in range(listed.count())] == [symbols[e["mark"]] for e in marked]
    counts = page.locator("#analysis-counts li")
    assert counts.count() == 2 and "blunder" in counts.first.inner_text()
    shot(page, "analysis-trike-light")
    assert not axe_problems(page)
    # a click on a marked point shows that position, its mark and the better move
    target = next((e for e in marked if e["ply"] < len(moves)), marked[0])
    page.locator(f'#eval-chart circle.ply-point[data-ply="{target["ply"]}"]').click()
    if target["ply"] < len(moves):
        wait(page, "k => window.ludothekGame.replay !== null && window.ludothekGame.replayIndex === k",
             target["ply"] - 1, name="replay")
        assert page.evaluate("() => window.ludothekGame.replay.at") == target["ply"]
    assert page.locator("#eval-cursor").get_attribute("data-ply") == str(target["ply"])
    assert page.locator("#analysis-mark").inner_text() == (
        f"{target['mark'].capitalize()}: gave away {round(target['loss'])} percentage points of winning chances")
    assert page.locator("#analysis-best").inner_text().startswith(f"Best was {target['best']} (")
    current = page.locator("#movelist .mv.cur")
    assert current.get_attribute("data-index") == str(target["ply"] - 1)
    assert symbols[target["mark"]] in current.inner_text()
    # another point, then back to the start
    page.locator('#eval-chart circle.ply-point[data-ply="2"]').click()
    wait(page, "() => window.ludothekGame.replayIndex === 1", name="replay-2")
    page.click("#replay-start")
    wait(page, "() => window.ludothekGame.replayIndex === -1", name="start")
    assert page.locator("#eval-cursor").get_attribute("data-ply") == "0"
    # dark, and German: the stored analysis comes back with the page
    page.emulate_media(color_scheme="dark")
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
    page.reload()
    wait(page, "() => document.querySelector('#eval-chart')", name="stored")
    assert page.locator("#analysis h2").inner_text() == "Computeranalyse"
    assert "Ungenauigkeiten" in page.locator("#analysis-counts").inner_text()
    assert page.locator("#analysis-thresholds").inner_text() == (
        "Markiert nach den Gewinnchancen, die ein Zug gegenüber dem besten Zug verschenkt: ?! Ungenauigkeit ab 10, "
        "? Fehler ab 20, ?? grober Fehler ab 30 Prozentpunkten.")
    assert page.locator("#eval-chart circle.ply-point").count() == len(moves)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    page.locator(f'#eval-chart circle.ply-point[data-ply="{target["ply"]}"]').click()
    page.wait_for_selector("#analysis-best")
    assert page.locator("#analysis-best").inner_text().startswith("Besser war")
    shot(page, "analysis-trike-dark")
    assert not axe_problems(page)
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'en')")
    page.emulate_media(color_scheme="light")


def test_the_end_dialog_analyses_the_game(page, server):
    game_id, token, _ = hotseat(server, "trike", ["d4"], options={"size": 7}, position=TRIKE_CHOICE)
    open_as(page, server, game_id, token)
    assert page.locator("#analysis").count() == 0  # not while the game goes on
    page.locator('svg.board [data-cell="c3"]').first.click()
    page.wait_for_selector("#end-dialog")
    assert page.locator("#end-review").inner_text() == "Analyse"
    page.click("#end-review")
    page.wait_for_selector("#end-dialog", state="detached")
    wait(page, "() => window.ludothekGame.replayIndex === -1", name="from-start")
    page.wait_for_selector("#analysis-status, #eval-chart")
    wait(page, "() => document.querySelector('#eval-chart')", name="chart")
    assert page.locator("#eval-chart circle.ply-point").count() == 2
    assert page.locator("#eval-chart circle.mark-blunder").get_attribute("data-ply") == "1"
    assert page.locator("#movelist .mark-blunder").inner_text() == "??"
    page.locator('#eval-chart circle.ply-point[data-ply="1"]').click()
    wait(page, "() => window.ludothekGame.replayIndex === 0", name="replay-1")
    assert page.locator("#analysis-best").inner_text() == "Best was a1 (Black 100%)"
    assert page.locator("#analysis-mark").inner_text() == "Blunder: gave away 100 percentage points of winning chances"
    assert page.locator("#analysis-chances").inner_text() == "Winning chances: Black 0%, White 100%"
    shot(page, "analysis-end-dialog")
    # no second computation: the server answers with the stored analysis
    assert api(server, "POST", f"/api/games/{game_id}/analysis").json()["status"] == "done"


def test_a_bitis_game_shows_exact_values(page, server):
    from ludothek.ai.review import _table

    if _table("bitis") is None:
        pytest.skip("the solved Bitis table is not available here")
    state = game_class("bitis")()
    agents = [level_agent("bitis", 2, 7), level_agent("bitis", 3, 8)]
    while not state.is_over():
        state.play(agents[state.current_player()].choose(state))
    game_id, token, final = hotseat(server, "bitis", state.move_texts)
    assert final["status"] == "over"
    open_as(page, server, game_id, token)
    page.click("#analyse")
    wait(page, "() => document.querySelector('#eval-chart')", name="bitis-chart")
    assert page.locator("#eval-chart circle.ply-point").count() == state.ply
    assert page.locator("#analysis-method").inner_text() == "Exact values from the solved game."
    labels = page.locator("#movelist .exact-label")
    assert labels.count() == state.ply
    words = [labels.nth(i).inner_text() for i in range(labels.count())]
    natural = ("wins with this move", "loses with this move", "draw", "wins in 1 move", "loses in 1 move")
    assert all(w in natural or re.fullmatch(r"(wins|loses) in ([2-9]|[1-9][0-9]+) moves", w) for w in words), words
    assert words[-1] in ("wins with this move", "loses with this move", "draw")  # the last move ended the game
    assert not any(" in 0" in w for w in words)
    page.locator('#eval-chart circle.ply-point[data-ply="1"]').click()
    wait(page, "() => window.ludothekGame.replayIndex === 0", name="bitis-replay")
    exact = page.locator("#analysis-exact").inner_text()
    assert exact.startswith("A: ") and exact[3:] == words[0]
    shot(page, "analysis-bitis")
    # German, with its plurals: "gewinnt in 1 Zug", "verliert in 3 Zügen", "gewinnt mit diesem Zug"
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
    page.reload()
    wait(page, "() => document.querySelectorAll('#movelist .exact-label').length", name="bitis-de")
    german = [labels.nth(i).inner_text() for i in range(labels.count())]
    natural = ("gewinnt mit diesem Zug", "verliert mit diesem Zug", "remis", "gewinnt in 1 Zug", "verliert in 1 Zug")
    assert all(w in natural or re.fullmatch(r"(gewinnt|verliert) in ([2-9]|[1-9][0-9]+) Zügen", w) for w in german), german
    assert [w.split(" ")[0] for w in german] == [
        {"wins": "gewinnt", "loses": "verliert", "draw": "remis"}[w.split(" ")[0]] for w in words]
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'en')")
