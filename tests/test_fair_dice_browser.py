"""Fair dice in the browser: against a bot, once a roll was shown the page's Undo button is greyed
and says why (a shown roll is never taken back), and online the takeback button likewise; the
"verify the dice" element shows the commitment while the game goes on and the secret once it
is over. Games with dice are found by their
protocol, never by name.

This module runs in the desktop Chromium (/usr/bin/chromium), the others in its lighter
headless shell (tests/browser.py): so the browser players use stays checked, on the pages
where trust in the dice is at stake."""

from __future__ import annotations

import hashlib

import pytest

import ludothek
from ludothek.core.protocol import CHANCE
from ludothek.core.record import loads
from ludothek.core.registry import game_class

from .browser import CHROMIUM, require_browser, shot

sync_api = require_browser()
BROWSER = CHROMIUM
httpx = pytest.importorskip("httpx")


def _leads_to_chance(state, action) -> bool:
    probe = state.copy()
    probe.play(action)
    return probe.current_player() == CHANCE


def _played(state, action):
    child = state.copy()
    child.play(action)
    return child


def _ends_within_a_reply(state, action) -> bool:
    """Whether some outcome of ``action`` and some answer of the opponent (with any outcome of
    its own) can end the game: the bot plays at random, and a finished game has no undo."""
    rolled = _played(state, action)
    for outcome in rolled.legal_actions():
        after = _played(rolled, outcome)
        if after.is_over():
            return True
        for answer in after.legal_actions():
            reply = _played(after, answer)
            outcomes = reply.legal_actions() if reply.current_player() == CHANCE else []
            if reply.is_over() or any(_played(reply, o).is_over() for o in outcomes):
                return True
    return False


def _roll_to_repeat(state) -> int | None:
    """A move the server answers with a roll, after which the random bot cannot end the game
    (when the bot moved first, it may have left every roll open to a trap of the last 1:
    then None)."""
    rolls = [a for a in state.legal_actions() if _leads_to_chance(state, a)]
    return next((a for a in rolls if not _ends_within_a_reply(state, a)), None)


def _rolls_at_once(name: str) -> bool:
    """Whether a player of ``name`` can, at the start, make a move the server answers with a roll."""
    state = game_class(name)()
    return any(_leads_to_chance(state, a) for a in state.legal_actions())


GAMES = [name for name in ludothek.games() if _rolls_at_once(name)]


def view(page):
    return page.evaluate("() => ({view: window.ludothekGame.view, you: window.ludothekGame.you})")


def wait_until(page, condition: str, arg=None, name="timeout"):
    try:
        page.wait_for_function(condition, arg=arg, timeout=120000)
    except sync_api.TimeoutError:
        shot(page, f"fair-dice-{name}")
        raise


MY_TURN = ("() => { const g = window.ludothekGame; return g && g.view && g.view.status === 'ongoing' && "
           "g.view.to_seat !== null && g.you.includes(g.view.to_seat); }")


def record(server, game_id):
    response = httpx.get(f"{server}/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    return loads(response.text)


def rolls_of(rec) -> dict[int, int]:
    """The record's chance outcomes (as actions) by the ply they were rolled at."""
    state = game_class(rec.game)(rec.position, **rec.options)
    found = {}
    for action in rec.replay().history:
        if state.current_player() == CHANCE:
            found[state.ply] = action
        state.play(action)
    return found


def roll_at(server, game_id, ply):
    """The chance outcome the server rolled at ``ply`` (as its action)."""
    rolls = rolls_of(record(server, game_id))
    assert ply in rolls, f"no roll at ply {ply}"
    return rolls[ply]


def type_move(page, text):
    version = view(page)["view"]["version"]
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")
    wait_until(page, "v => window.ludothekGame.view.version !== v", version, "move")


@pytest.mark.skipif(not GAMES, reason="no installed game rolls dice at once")
@pytest.mark.parametrize("game", GAMES[:1])
def test_a_shown_roll_greys_undo_and_the_dice_element(page, server, game):
    for _ in range(5):  # a game in which a roll cannot be answered by the end (nearly always the first)
        page.goto(server + "/")
        page.click(f'.game-card[data-game="{game}"]')
        page.click('[data-opponent="bot"]')
        page.select_option("#bot-level", "random")
        page.select_option("#seat", "0")
        page.click("#start")
        page.wait_for_url("**/play/*")
        wait_until(page, MY_TURN, name="first-turn")
        game_id = page.evaluate("() => window.ludothekGame.id")
        state = record(server, game_id).replay()
        action = _roll_to_repeat(state)
        if action is not None:
            break
    assert action is not None, "five games in a row left no safe roll"

    # the verify element: the commitment while the game goes on
    first = view(page)["view"]
    commitment = first["dice"]["commitment"]
    assert first["dice"]["secret"] is None and len(commitment) == 64
    page.click("#fair-dice summary")
    assert page.locator("#dice-commitment").inner_text().strip() == commitment
    assert page.locator("#dice-secret").count() == 0
    shot(page, "fair-dice-commitment")

    text, ply = state.action_to_str(action), state.ply
    type_move(page, text)
    face = roll_at(server, game_id, ply + 1)
    wait_until(page, MY_TURN, name="turn-after-roll")
    # the roll was shown: Undo is greyed and says why; the face stays
    wait_until(page, "() => document.querySelector('#undo') !== null", name="undo-button")
    assert page.locator("#undo").is_disabled()
    why = page.locator("#undo-why").inner_text()
    assert "shown roll is never taken back" in why and page.locator("#undo").get_attribute("title") == why
    assert page.locator("#undo").get_attribute("aria-describedby") == "undo-why"
    assert view(page)["view"]["undo_blocked"] == "roll"
    shot(page, "fair-dice-undo-greyed")
    plies = view(page)["view"]["plies"]
    refused = httpx.post(f"{server}/api/games/{game_id}/undo", json={"token": page.evaluate(
        f"() => localStorage.getItem('ludothek.token.{game_id}')")})
    assert refused.status_code == 409 and view(page)["view"]["plies"] == plies
    assert roll_at(server, game_id, ply + 1) == face
    # a move after the roll: Undo takes back that move (and the bot's reply), never the roll
    state = record(server, game_id).replay()
    quiet = [a for a in state.legal_actions() if not _leads_to_chance(state, a)]
    if quiet:
        type_move(page, state.action_to_str(quiet[0]))
        wait_until(page, f"() => ({MY_TURN})() || window.ludothekGame.view.status !== 'ongoing'", name="reply")
        rolled_since = any(p >= plies for p in rolls_of(record(server, game_id)))  # the bot rolled in reply
        if view(page)["view"]["status"] == "ongoing" and not rolled_since:
            wait_until(page, "() => document.querySelector('#undo:not([disabled])') !== null", name="undo-enabled")
            page.click("#undo")
            wait_until(page, "p => window.ludothekGame.view.plies === p", plies, "undone")
            assert roll_at(server, game_id, ply + 1) == face
    assert page.locator("#fair-dice").get_attribute("open") is not None  # stays open across updates
    shot(page, "fair-dice-same-roll")

    # the end: the secret is revealed, with the record and the command to check it
    wait_until(page, "() => document.querySelector('#resign') !== null", name="resign-button")
    page.click("#resign")  # the page's confirm() is accepted by the fixture
    wait_until(page, "() => window.ludothekGame.view.status === 'over'", name="over")
    wait_until(page, "() => document.querySelector('#dice-secret') !== null", name="secret")
    secret = page.locator("#dice-secret").inner_text().strip()
    assert hashlib.sha256(secret.encode()).hexdigest() == commitment
    assert page.locator("#dice-record").get_attribute("href") == f"/api/games/{game_id}/record"
    assert "ludothek verify" in page.locator("#dice-command").inner_text()
    shot(page, "fair-dice-revealed")
    # in German, after a reload (the element is closed again)
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
    page.reload()
    wait_until(page, "() => document.querySelector('#fair-dice') !== null", name="reload")
    assert page.locator("#fair-dice summary").inner_text().strip() == "Würfel prüfen"
    page.click("#fair-dice summary")
    assert "Geheimnis" in page.locator("#fair-dice").inner_text()
    assert page.locator("#dice-secret").inner_text().strip() == secret
    shot(page, "fair-dice-revealed-de")


@pytest.mark.skipif(not GAMES, reason="no installed game rolls dice at once")
def test_online_the_takeback_button_is_greyed_after_a_shown_roll(page, server):
    game = GAMES[0]
    created = httpx.post(f"{server}/api/games", json={"game": game, "opponent": "friend", "start": "fixed",
                                                      "seat": 0}).json()
    game_id = created["id"]
    joined = httpx.post(f"{server}/api/games/{game_id}/join", json={"invite": created["invite"]})
    assert joined.status_code == 200, joined.text
    page.goto(server + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)", [game_id, created["token"]])
    page.goto(f"{server}/play/{game_id}")
    wait_until(page, MY_TURN, name="online-turn")
    state = record(server, game_id).replay()
    action = next(a for a in state.legal_actions() if _leads_to_chance(state, a))
    type_move(page, state.action_to_str(action))
    wait_until(page, "() => document.querySelector('#offer-takeback') !== null", name="takeback-button")
    assert page.locator("#offer-takeback").is_disabled()
    assert "never taken back" in page.locator("#offer-takeback-why").inner_text()
    shot(page, "fair-dice-takeback-greyed")
