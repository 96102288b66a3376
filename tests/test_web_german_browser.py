"""The web app in German has no English leftovers (issue 12, item 6).

A German browser (locale de-DE, the EN/DE switch on DE) goes through every page a player sees:
the home page with each game's options, every rules page, a game of each built-in game (with
the roll for the first move where there is one, a malformed and an illegal typed move, a legal
move, the resignation and the end-of-game dialog with its dice check), a game against the
computer, an online game waiting for a friend, and the archive. On each, the visible text, the
accessible names (aria-label, title, SVG titles) and the live region are searched for English
words from a list. Debian's Chromium driven by Playwright; screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest

from .browser import checked_page, require_browser, shot

sync_api = require_browser()
httpx = pytest.importorskip("httpx")

BUILT_IN = ("trike", "trigeo", "hexalit", "bitis")
#: words that only an English text would show a German reader (checked as whole words)
ENGLISH = {"the", "is", "are", "not", "must", "cannot", "move", "moves", "white", "black", "wins", "high", "low",
           "roll", "rolls", "your", "turn", "game", "games", "player", "waiting", "there", "and", "of", "to",
           "with", "illegal", "undo", "resign", "draw", "error", "failed", "fetch", "score", "stake", "takeback",
           "offer", "level", "random", "clock", "options", "board", "rules", "play", "new", "start", "first",
           "invite", "link", "watch", "copy", "legal", "cell", "empty", "dice", "secret", "verify", "ply",
           "plies", "expected", "unknown", "found", "where", "which", "only", "has", "have", "no", "yet"}

TEXT_OF_PAGE = """() => {
    const parts = [document.title, document.body.innerText];
    for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
        for (const name of ["aria-label", "title", "placeholder", "alt"]) {
            if (node.getAttribute(name)) parts.push(node.getAttribute(name));
        }
    }
    for (const node of document.querySelectorAll("svg title, svg desc")) parts.push(node.textContent);
    return parts.join("\\n");
}"""


def english_words(text: str) -> list[str]:
    return sorted({word for word in re.findall(r"[A-Za-z]+", text) if word.lower() in ENGLISH})


class Reader:
    """Collects what a German reader sees, page by page, and what in it is English."""

    def __init__(self, page):
        self.page = page
        self.leftovers: dict[str, list[str]] = {}
        self.checked = 0

    def read(self, where: str) -> str:
        text = self.page.evaluate(TEXT_OF_PAGE)
        found = english_words(text)
        if found:
            self.leftovers[where] = found
            shot(self.page, f"german-leftover-{where}")
        self.checked += 1
        return text


def create(server, game, **body):
    response = httpx.post(server + "/api/games", json={"game": game, **body}, headers={"Accept-Language": "de"})
    assert response.status_code == 201, response.text
    return response.json()


def open_game(page, server, created):
    page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)",
                  [created["id"], created["token"]])
    page.goto(f"{server}/play/{created['id']}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")
    page.wait_for_selector("svg.board")


def type_move(page, text):
    page.fill("#move-input", text)
    page.keyboard.press("Enter")


def test_a_german_player_meets_no_english(browser, server):
    with checked_page(browser, locale="de-DE") as page:
        reader = Reader(page)
        page.goto(server + "/")
        page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
        page.goto(server + "/")
        page.wait_for_selector(".game-card svg")
        assert page.evaluate("() => document.documentElement.lang") == "de"
        for game in BUILT_IN:
            page.click(f'.game-card[data-game="{game}"]')
            page.wait_for_function(f"() => document.querySelector('.game-card.chosen')?.dataset.game === {game!r}")
            for opponent in ("hotseat", "bot", "friend"):
                page.click(f'#opponent [data-opponent="{opponent}"]')
                page.wait_for_selector(f'#opponent [data-opponent="{opponent}"][aria-pressed="true"]')
                reader.read(f"home-{game}-{opponent}")
        for game in BUILT_IN:
            page.goto(f"{server}/rules/{game}")
            page.wait_for_selector("#rules h2")
            reader.read(f"rules-{game}")

        for game in BUILT_IN:
            start = {"start": "high"} if game in ("trigeo", "hexalit") else {}
            created = create(server, game, opponent="hotseat", **start)
            open_game(page, server, created)
            reader.read(f"{game}-start")
            type_move(page, "?!")  # malformed
            page.wait_for_function("() => document.querySelector('#error').textContent.length > 0")
            malformed = reader.read(f"{game}-malformed")
            assert "Fehler" in malformed or page.inner_text("#error"), malformed
            view = page.evaluate("() => window.ludothekGame.view")
            legal = {m["move"] for m in view["moves"]}
            type_move(page, view["moves"][0]["move"])
            page.wait_for_function("() => window.ludothekGame.view.history.length > 0")
            reader.read(f"{game}-moved")
            if game == "trike":  # a cell taken now: an illegal move, well-formed
                taken = page.evaluate("() => window.ludothekGame.view.history[0].text")
                type_move(page, taken)
                page.wait_for_function("() => document.querySelector('#error').textContent.length > 0")
                reader.read(f"{game}-illegal")
            assert legal
            page.click("#resign")
            page.wait_for_selector("#end-dialog")
            reader.read(f"{game}-end-dialog")
            shot(page, f"german-{game}-end")
            page.keyboard.press("Escape")
            if page.locator("#dice-verify, .dice-box").count():
                reader.read(f"{game}-dice")

        bot = create(server, "trike", opponent="bot", bot="bot:1", seat=0, options={"size": 7})
        open_game(page, server, bot)
        type_move(page, page.evaluate("() => window.ludothekGame.view.moves[0].move"))
        page.wait_for_function("() => window.ludothekGame.view.history.length >= 2", timeout=30000)
        reader.read("trike-vs-computer")

        friend = create(server, "bitis", opponent="friend", seat=0)
        open_game(page, server, friend)
        reader.read("bitis-waiting-for-friend")

        page.goto(server + "/archive")
        page.wait_for_selector("#archive")
        reader.read("archive")
        shot(page, "german-archive")

        assert reader.checked >= 25
        assert not reader.leftovers, "English in the German pages: " + "; ".join(
            f"{where}: {', '.join(words)}" for where, words in reader.leftovers.items())


def test_the_check_sees_english(browser, server):
    """The check above can fail: an English sentence put into the German page is found."""
    with checked_page(browser, locale="de-DE") as page:
        page.goto(server + "/")
        page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
        page.goto(server + "/archive")
        page.wait_for_selector(".tabs")
        assert not english_words(page.evaluate(TEXT_OF_PAGE))
        page.evaluate("() => document.querySelector('main').append('It is not your turn')")
        assert english_words(page.evaluate(TEXT_OF_PAGE)) == ["is", "not", "turn", "your"]
