"""Lessons in a real Chromium (issue 31, item 1): a newcomer goes through every game's lessons
by clicks (Trike in English and in German, Trigeo and Bitis in German, Hexalit in English),
makes a wrong try on the way and reads the engine's reason; the progress survives a reload and
goes to the account at sign-up; axe finds nothing serious on /learn; a phone (390x844) shows a
step whole. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest

from .browser import checked_page, require_browser, shot
from .servers import Server
from .test_web_a11y_browser import axe_source, serious_violations

sync_api = require_browser()

# one game's path: per step the clicks ("cell", name) / ("button", css) / ("choice", move or None for
# the first), and a wrong try before it: (its clicks, a piece of the engine's reason)
PATHS = {
    "trike": [
        ([("cell", "d2")], None),
        ([("button", '[data-move="swap"]')], None),
        ([("cell", "g5")], ([("cell", "f3")], {"en": "cannot reach it in a straight line", "de": "nicht geradlinig"})),
        ([("cell", "d3")], ([("cell", "e5")], {"en": "is a legal move, but not", "de": "ist ein erlaubter Zug, aber nicht"})),
    ],
    "trigeo": [
        ([("cell", "B5"), ("cell", "C4")], None),
        ([("cell", "C5"), ("cell", "D4")], ([("cell", "C5"), ("cell", "D5")], {"de": "schlägt nur schräg nach vorn"})),
        ([("cell", "C9"), ("cell", "D12")], None),
        ([("cell", "C6"), ("cell", "D8")], None),
        ([("cell", "B7"), ("cell", "B8")], ([("cell", "D6"), ("cell", "E7")], {"de": "(Eins-Gebot)"})),
        ([("cell", "D12"), ("cell", "D13")], None),
        ([("cell", "E5"), ("cell", "F5"), ("choice", "E5XF5=6")], None),
    ],
    "hexalit": [
        ([("cell", "B5"), ("button", "#lesson-roll")], ([("cell", "A7"), ("button", "#lesson-roll")], {"en": "A7 shows white's only 1"})),
        ([("cell", "C5"), ("cell", "F5")], None),
        ([("cell", "B7"), ("cell", "B8")], ([("cell", "B5"), ("button", "#lesson-roll")], {"en": "no die may be rolled"})),
        ([("cell", "A4"), ("cell", "C4")], None),
        ([("cell", "D12"), ("cell", "D13")], None),
        ([("button", '[data-move="double 2"]')], None),
        ([("button", '[data-move="take"]')], ([("button", '[data-move="drop"]')], {"en": "is a legal move, but not"})),
    ],
    "bitis": [
        ([("cell", "tray:IV"), ("cell", "4,3"), ("choice", "IV43:9318")], ([("cell", "tray:IV"), ("cell", "3,3")], {"de": "auf Reihe 4"})),
        ([("cell", "tray:III"), ("cell", "3,3"), ("choice", None)], None),
        ([("cell", "tray:V"), ("cell", "4,4"), ("choice", None)], ([("cell", "tray:V"), ("cell", "5,3")], {"de": "Kettenregel"})),
        ([("cell", "4,2"), ("cell", "4,3"), ("choice", None)], ([("cell", "5,4"), ("cell", "6,4")], {"de": "zuletzt gesetzt"})),
        ([("cell", "5,2"), ("cell", "6,1"), ("choice", None)], None),
    ],
}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    running = Server(str(tmp_path_factory.mktemp("lessons") / "lessons.sqlite3"), "--rate-limits", "move=100/second", "--bots", "thread")
    yield running.base
    running.stop()


def set_language(page, base, lang):
    page.goto(base + "/")
    page.wait_for_selector("#home-learn")
    page.click(f'[data-lang="{lang}"]')


def click(page, action):
    kind, what = action
    if kind == "cell":
        page.click(f'svg.board [data-cell="{what}"].cell')
    elif kind == "button":
        page.click(what)
    else:
        page.wait_for_selector("#lesson-controls .choices button")
        page.click(f'#lesson-controls .choices [data-move="{what}"]' if what else "#lesson-controls .choices button")


def go_through(page, base, game, lang, steps=None):
    """Every step of a game's path by clicks, the wrong tries included; then the first game."""
    page.click(f"#learn-{game}")
    page.wait_for_url(f"**/learn/{game}")
    path = PATHS[game] if steps is None else PATHS[game][:steps]
    for k, (clicks, wrong) in enumerate(path):
        page.wait_for_selector('.lesson-step.on >> nth=0')
        assert page.locator(".lesson-step.on").get_attribute("data-step") == page.locator(".lesson-step").nth(k).get_attribute("data-step")
        if wrong:
            for action in wrong[0]:
                click(page, action)
            reason = page.wait_for_selector("#lesson-reason")
            assert wrong[1][lang] in reason.inner_text(), reason.inner_text()
            assert page.locator("#lesson-hint").inner_text().strip()
            shot(page, f"lessons-{game}-{lang}-wrong-{k + 1}")
        for action in clicks:
            click(page, action)
        page.wait_for_selector("#lesson-right")
        page.click("#lesson-next")
    return path


def test_trike_in_english_then_german_with_progress_across_reload_and_login(browser, base):
    with checked_page(browser) as page:
        set_language(page, base, "en")
        page.click("#home-learn")
        page.wait_for_url("**/learn")
        go_through(page, base, "trike", "en")
        assert page.locator("#lesson-title").inner_text().endswith("Your first game")
        # the progress survives a reload
        page.reload()
        page.wait_for_selector("#lesson-play")
        assert page.locator(".lesson-step.done").count() == 4
        # sign up: this browser's progress becomes the account's
        page.click("#login-link")
        page.click("#account-switch")
        page.wait_for_selector("#signup-form")
        page.fill("#account-user", "newcomer")
        page.fill("#account-password", "a long table top")
        page.click("#account-submit")
        # back where the player came from once the seats and the steps are handed over
        page.wait_for_url("**/learn/trike")
        page.wait_for_selector("#account-name")
        progress = page.evaluate("async () => (await (await fetch('/api/lessons')).json()).progress")
        assert progress == {"trike": ["first-stone", "pie-rule", "straight-lines", "score"]}
        # the last step starts a game against bot:1, and counts as done for the account
        page.goto(base + "/learn/trike")
        page.click("#lesson-play")
        page.wait_for_url("**/play/*")
        page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view", timeout=60000)
        assert page.evaluate("() => window.ludothekGame.view.seats[1].agent") == "bot:1"
        progress = page.evaluate("async () => (await (await fetch('/api/lessons')).json()).progress")
        assert progress["trike"][-1] == "first-game"
        # a logout forgets this browser's copy: the next person at this computer starts afresh
        assert page.evaluate("() => localStorage.getItem('ludothek.lessons')")
        page.click("#logout")
        page.wait_for_selector("#login-link")
        assert page.evaluate("() => localStorage.getItem('ludothek.lessons')") is None
    # another browser of the same account sees the steps done; in German, from the start again
    with checked_page(browser) as page:
        page.goto(base + "/login")
        page.fill("#account-user", "newcomer")
        page.fill("#account-password", "a long table top")
        page.click("#account-submit")
        page.wait_for_selector("#account-name")
        page.click('[data-lang="de"]')
        page.goto(base + "/learn")
        page.wait_for_selector("#learn-trike")
        assert "5 von 5 Schritten erledigt" in page.locator(".lesson-game").first.inner_text()
        go_through_from_start(page, "trike", "de")
        assert "Deine erste Partie" in page.locator("#lesson-title").inner_text()


def go_through_from_start(page, game, lang):
    """A path done before, again from its first step."""
    page.goto(page.url.split("/learn")[0] + f"/learn/{game}?step={PATHS_IDS[game][0]}")
    page.wait_for_selector("#lesson-text")
    for k, (clicks, wrong) in enumerate(PATHS[game]):
        page.wait_for_selector(f'.lesson-step.on[data-step="{PATHS_IDS[game][k]}"]')
        if wrong:
            for action in wrong[0]:
                click(page, action)
            assert wrong[1][lang] in page.wait_for_selector("#lesson-reason").inner_text()
        for action in clicks:
            click(page, action)
        page.wait_for_selector("#lesson-right")
        page.click("#lesson-next")


PATHS_IDS = {
    "trike": ["first-stone", "pie-rule", "straight-lines", "score", "first-game"],
}


@pytest.mark.parametrize("game, lang", [("trigeo", "de"), ("hexalit", "en"), ("bitis", "de")])
def test_a_newcomer_goes_through_the_lessons(browser, base, game, lang):
    with checked_page(browser) as page:
        set_language(page, base, lang)
        page.goto(base + "/learn")
        go_through(page, base, game, lang)
        page.wait_for_selector("#lesson-play")
        shot(page, f"lessons-{game}-{lang}-last")
        assert page.locator(".lesson-step.done").count() == len(PATHS[game])
        page.click("#lesson-play")
        page.wait_for_url("**/play/*")


def test_axe_finds_nothing_serious_on_the_lessons(browser, base):
    source = axe_source()
    with checked_page(browser) as page:
        found = {}
        for theme in ("light", "dark"):
            page.goto(base + "/")
            page.evaluate(f"() => localStorage.setItem('ludothek.theme', '{theme}')")
            for path in ("/learn", "/learn/trike", "/learn/trigeo", "/learn/hexalit", "/learn/bitis"):
                page.goto(base + path)
                page.wait_for_selector(".lesson-games, .lesson-step")
                found[f"{theme} {path}"] = serious_violations(page, source)
            # with a wrong try's feedback shown
            page.goto(base + "/learn/trigeo?step=the-two")
            click(page, ("cell", "C5"))
            click(page, ("cell", "D5"))
            page.wait_for_selector("#lesson-reason")
            found[f"{theme} wrong try"] = serious_violations(page, source)
        assert all(not v for v in found.values()), found


def test_a_step_fits_a_phone(browser, base):
    with checked_page(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                      has_touch=True) as page:
        for game, step in (("trigeo", "the-two"), ("bitis", "which-die"), ("trike", "straight-lines")):
            page.goto(base + f"/learn/{game}?step={step}")
            page.wait_for_selector("svg.board")
            assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
            box = page.locator("svg.board").bounding_box()
            assert box["width"] >= 330
            for button in page.locator(".lesson-step").all():
                assert button.bounding_box()["height"] >= 40
            shot(page, f"lessons-phone-{game}")
        page.evaluate("() => localStorage.setItem('ludothek.theme', 'dark')")
        page.goto(base + "/learn/hexalit?step=temporary-face")
        page.wait_for_selector("svg.board")
        click(page, ("cell", "C5"))
        click(page, ("cell", "E6"))
        page.wait_for_selector("#lesson-reason")
        shot(page, "lessons-phone-hexalit-dark-wrong")
