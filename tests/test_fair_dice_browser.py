"""Fair dice in the browser: against a bot, a roll taken back with the page's Undo button and
rolled again shows the same face every time; the "verify the dice" element shows the commitment
while the game goes on and the secret once it is over. Games with dice are found by their
protocol, never by name."""

from __future__ import annotations

import hashlib

import pytest

import ludothek
from ludothek.core.protocol import CHANCE
from ludothek.core.record import loads
from ludothek.core.registry import game_class

from .browser import require_browser, shot

sync_api = require_browser()
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
        page.wait_for_function(condition, arg=arg, timeout=30000)
    except sync_api.TimeoutError:
        shot(page, f"fair-dice-{name}")
        raise


MY_TURN = ("() => { const g = window.ludothekGame; return g && g.view && g.view.status === 'ongoing' && "
           "g.view.to_seat !== null && g.you.includes(g.view.to_seat); }")


def record(server, game_id):
    response = httpx.get(f"{server}/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    return loads(response.text)


def roll_at(server, game_id, ply):
    """The chance outcome the server rolled at ``ply`` (as its action)."""
    rec = record(server, game_id)
    state = game_class(rec.game)(rec.position, **rec.options)
    for action in rec.replay().history:
        if state.ply == ply:
            assert state.current_player() == CHANCE
            return action
        state.play(action)
    raise AssertionError(f"no roll at ply {ply}")


def type_move(page, text):
    version = view(page)["view"]["version"]
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")
    wait_until(page, "v => window.ludothekGame.view.version !== v", version, "move")


@pytest.mark.skipif(not GAMES, reason="no installed game rolls dice at once")
@pytest.mark.parametrize("game", GAMES[:1])
def test_the_same_roll_after_eight_undos_and_the_dice_element(page, server, game):
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
    faces = [roll_at(server, game_id, ply + 1)]
    for _ in range(8):
        wait_until(page, "() => document.querySelector('#undo') !== null", name="undo-button")
        version = view(page)["view"]["version"]
        page.click("#undo")
        wait_until(page, "v => window.ludothekGame.view.version !== v", version, "undo")
        wait_until(page, "p => window.ludothekGame.view.plies === p", ply, "undone")
        wait_until(page, MY_TURN, name="turn-after-undo")
        type_move(page, text)
        faces.append(roll_at(server, game_id, ply + 1))
    assert len(faces) == 9 and len(set(faces)) == 1, faces
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
