"""Puzzles in the browser (issue 31, item 2): a logged-in player solves one puzzle and fails
another on the board and sees his puzzle rating move as Glicko-2 says (the expected ratings come
from ludothek.ratings, from the ratings the server showed before each answer); the daily puzzle
on the home page; axe finds nothing serious on /puzzles and a puzzle page, light and dark; the
phone layout at 390x844. Debian's Chromium driven by Playwright against ``ludothek serve``;
screenshots go to tests/artifacts/."""

from __future__ import annotations

import re

import pytest

from ludothek.core.registry import game_spec
from ludothek.ratings import Rating, rate_game

from .browser import checked_page, require_browser, shot
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_accounts_browser import log_in

sync_api = require_browser()
httpx = pytest.importorskip("httpx")
pytest.importorskip("argon2")

GAME = "trike"


def shipped(game):
    return {p["id"]: p for p in game_spec(game).puzzle_set()["puzzles"]}


def shown(page):
    page.wait_for_function("() => window.ludothekPuzzle && window.ludothekPuzzle.puzzle && "
                           "document.querySelector('#puzzle-board[data-state=open] svg.board')")
    return page.evaluate("() => window.ludothekPuzzle.puzzle")


def play_on_board(page, puzzle, move):
    """Click the cells of ``move`` (its from-cell, then its target) as a player would."""
    info = next(m for m in puzzle["moves"] if m["move"] == move)
    for cell in (info["from"], info["to"]):
        if cell:
            page.locator(f'#puzzle-board svg.board [data-cell="{cell}"]').first.click()
    page.wait_for_selector("#puzzle-result, #puzzle-status button[data-move]")
    if not page.locator("#puzzle-result").count():  # several moves to that cell: the player picks one
        page.click(f'#puzzle-status button[data-move="{move}"]')
    page.wait_for_selector("#puzzle-result")


def test_a_player_solves_one_puzzle_fails_another_and_his_rating_moves(browser, server):
    with checked_page(browser) as page:
        log_in(page, server, "puzzler", "a long table top", signup=True)
        page.goto(f"{server}/puzzles/{GAME}")
        first = shown(page)
        assert first["player"]["value"] == Rating().value
        solution = shipped(GAME)[first["id"]]["solution"]
        play_on_board(page, first, solution)
        assert page.get_attribute("#puzzle-board", "data-state") == "solved"
        expected, _ = rate_game(Rating(**first["player"]), Rating(**first["rating"]), 1.0)
        after = float(page.get_attribute("#rating-after", "data-value"))
        assert after == pytest.approx(expected.value, abs=0.01) and after > first["player"]["value"]
        assert page.inner_text("#rating-after") == str(round(expected.value))
        assert page.inner_text("#puzzle-solution") == solution
        shot(page, "puzzles-solved")

        page.click("#next-puzzle")
        second = shown(page)
        assert second["id"] != first["id"]
        assert second["player"]["value"] == pytest.approx(expected.value, abs=0.01)
        accepted = shipped(GAME)[second["id"]]["accepted"]
        wrong = next(m["move"] for m in second["moves"] if m["move"] not in accepted and m["to"])
        play_on_board(page, second, wrong)
        assert page.get_attribute("#puzzle-board", "data-state") == "failed"
        lower, _ = rate_game(Rating(**second["player"]), Rating(**second["rating"]), 0.0)
        after = float(page.get_attribute("#rating-after", "data-value"))
        assert after == pytest.approx(lower.value, abs=0.01) and after < second["player"]["value"]
        assert page.inner_text("#rating-diff").startswith(" (\u2212")
        shot(page, "puzzles-failed")
        # the overview shows the rating the server keeps
        page.goto(f"{server}/puzzles")
        page.wait_for_selector(f'#puzzle-games a[data-game="{GAME}"]')
        assert str(round(lower.value)) in page.inner_text("#puzzle-games")


def test_the_daily_puzzle_is_on_the_home_page_and_opens(page, server):
    daily = httpx.get(f"{server}/api/puzzles/daily").json()
    page.goto(server + "/")
    link = page.wait_for_selector("#daily-puzzle a[data-daily]")
    assert link.get_attribute("data-daily") == daily["id"]
    assert page.locator("#daily-puzzle svg").count() == 1
    link.click()
    page.wait_for_url(f"**/puzzles/{daily['game']}/{daily['id']}")
    assert shown(page)["id"] == daily["id"]


def test_a_guest_solves_but_is_not_rated_and_sees_it_in_german(page, server):
    page.goto(server + "/")
    page.click('[data-lang="de"]')
    page.goto(f"{server}/puzzles/{GAME}")
    puzzle = shown(page)
    assert "Als Gast" in page.inner_text("#your-rating")
    play_on_board(page, puzzle, shipped(GAME)[puzzle["id"]]["solution"])
    assert page.inner_text("#puzzle-result").startswith("Richtig")
    assert page.locator("#rating-after").count() == 0
    page.click('[data-lang="en"]')


def test_a_hexalit_puzzle_answered_by_rolling_a_die(page, server):
    """A roll has no target cell: selecting the die offers the roll as a button (as the game
    page does); without it these puzzles could not be answered at all."""
    rolls = [p for p in shipped("hexalit").values() if re.fullmatch(r"[A-Z]\d+[A-Z]", p["solution"])]
    assert rolls, "the shipped Hexalit puzzles have roll answers"
    page.goto(f"{server}/puzzles/hexalit/{rolls[0]['id']}")
    puzzle = shown(page)
    info = next(m for m in puzzle["moves"] if m["move"] == rolls[0]["solution"])
    assert (info["kind"], info["to"]) == ("roll", None)
    assert not page.locator(f'#puzzle-status button[data-move="{info["move"]}"]').count()  # not before the die is chosen
    play_on_board(page, puzzle, info["move"])
    assert page.get_attribute("#puzzle-board", "data-state") == "solved"


@pytest.mark.parametrize("game", ["trigeo", "hexalit", "bitis"])
def test_every_board_kind_takes_a_puzzle_answer_by_clicks(page, server, game):
    page.goto(f"{server}/puzzles/{game}")
    puzzle = shown(page)
    play_on_board(page, puzzle, shipped(game)[puzzle["id"]]["solution"])
    assert page.get_attribute("#puzzle-board", "data-state") == "solved"
    shot(page, f"puzzles-solved-{game}")


def test_axe_finds_nothing_serious_on_the_puzzle_pages(page, server):
    source = axe_source()
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{server}/puzzles")
        page.wait_for_selector("#puzzle-games a[data-game]")
        page.wait_for_selector("#daily-puzzle svg")
        problems += [f"{scheme} /puzzles: {p}" for p in serious_violations(page, source)]
        for game in ("trike", "trigeo", "bitis"):
            page.goto(f"{server}/puzzles/{game}")
            shown(page)
            problems += [f"{scheme} /puzzles/{game}: {p}" for p in serious_violations(page, source)]
        shot(page, f"puzzles-axe-{scheme}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", ["trike", "trigeo", "hexalit", "bitis"])
def test_the_puzzle_page_fits_a_phone(browser, server, game):
    with checked_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True) as phone:
        for scheme in ("light", "dark"):
            phone.emulate_media(color_scheme=scheme)
            phone.goto(f"{server}/puzzles/{game}")
            shown(phone)
            assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
            box = phone.locator("#puzzle-board svg.board").bounding_box()
            assert box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= 390
            assert phone.locator("#puzzle-task").is_visible()
            shot(phone, f"puzzles-phone-{game}-{scheme}")
        phone.goto(f"{server}/puzzles")
        phone.wait_for_selector("#daily-puzzle svg")
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(phone, f"puzzles-phone-overview-{game}")


def test_a_focused_cell_answers_the_puzzle_with_enter(page, server):
    page.goto(f"{server}/puzzles/{GAME}")
    puzzle = shown(page)
    target = next(m for m in puzzle["moves"] if m["move"] == shipped(GAME)[puzzle["id"]]["solution"])["to"]
    page.locator(f'#puzzle-board svg.board [data-cell="{target}"]').first.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#puzzle-result")
    assert page.get_attribute("#puzzle-board", "data-state") == "solved"
