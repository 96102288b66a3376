"""Fair play at the table in the browser (issue 12): takebacks and draw offers between two
browsers in an online game, the end-of-game dialog with the reason, and no undo once a game
is over. Debian's Chromium driven by Playwright; screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest

import ludothek
from ludothek.core.registry import game_spec

from .browser import require_browser, shot

sync_api = require_browser()

httpx = pytest.importorskip("httpx")
GAMES = ludothek.games()
#: Trike, one move before its end: c1 walls the pawn in (Black 3 : White 2)
TRIKE_LAST_MOVE = ("1/bw/1ww/Wbb1/ww3/1bbwwb/wbbw1bb b", "c1")


def api(server, method, path, **body):
    response = httpx.request(method, server + path, json=body or None, timeout=30)
    return response


def new_game(server, game, **spec):
    spec.setdefault("start", "fixed")
    response = api(server, "POST", "/api/games", game=game, **spec)
    assert response.status_code == 201, response.text
    return response.json()


def move(server, game_id, token, text):
    response = api(server, "POST", f"/api/games/{game_id}/move", token=token, move=text)
    assert response.status_code == 200, response.text
    return response.json()["game"]


def open_as(page, server, game_id, token):
    """Open the game page holding ``token`` (as the browser that created or joined it would)."""
    page.goto(server + "/")
    if token:
        page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)", [game_id, token])
    page.goto(f"{server}/play/{game_id}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view")


def view(page):
    return page.evaluate("() => window.ludothekGame.view")


def wait(page, script, arg=None, name="wait"):
    try:
        page.wait_for_function(script, arg=arg, timeout=20000)
    except sync_api.TimeoutError:
        shot(page, f"table-timeout-{name}")
        raise


def online_game(browser, server, game, options):
    """An online game joined by a second browser: (id, host page, guest page, tokens, contexts)."""
    created = new_game(server, game, opponent="friend", seat=0, options=options)
    joined = api(server, "POST", f"/api/games/{created['id']}/join", invite=created["invite"])
    assert joined.status_code == 200, joined.text
    contexts = [browser.new_context(viewport={"width": 1200, "height": 860}) for _ in range(2)]
    errors: list[str] = []
    pages = []
    for context in contexts:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda dialog: dialog.accept())
        pages.append(page)
    open_as(pages[0], server, created["id"], created["token"])
    open_as(pages[1], server, created["id"], joined.json()["token"])
    for page in pages:
        wait(page, "() => window.ludothekGame.view.status === 'ongoing' && window.ludothekGame.you.length === 1",
             name="seated")
    return created["id"], pages, (created["token"], joined.json()["token"]), contexts, errors


def test_takebacks_proposed_accepted_declined_and_withdrawn(browser, server):
    game_id, (host, guest), (host_token, _), contexts, errors = online_game(browser, server, "trike", {"size": 7})
    try:
        assert host.locator("#offer-takeback").count() == 0  # no move of his yet
        assert host.locator("#undo").count() == 0  # online: no undo, only takebacks
        version = view(guest)["version"]
        move(server, game_id, host_token, "d2")
        wait(host, "() => window.ludothekGame.view.history.length === 1", name="host-moved")
        wait(guest, "v => window.ludothekGame.view.version !== v", version, "guest-sees-move")
        # proposed and accepted
        host.click("#offer-takeback")
        host.wait_for_selector("#offer-waiting")
        assert host.locator("#withdraw").count() == 1
        guest.wait_for_selector("#offer-asked")
        assert "take back" in guest.locator("#offer-asked").inner_text()
        shot(guest, "table-takeback-asked")
        guest.click("#accept-offer")
        for page in (host, guest):
            wait(page, "() => window.ludothekGame.view.history.length === 0 && !window.ludothekGame.view.offer",
                 name="taken-back")
        assert host.locator("#offer-waiting").count() == 0 and guest.locator("#offer-asked").count() == 0
        assert view(host)["to_seat"] == 0
        # proposed and declined: the move stays
        move(server, game_id, host_token, "d2")
        wait(host, "() => window.ludothekGame.view.history.length === 1", name="host-moved-again")
        host.click("#offer-takeback")
        guest.wait_for_selector("#decline-offer")
        guest.click("#decline-offer")
        wait(host, "() => window.ludothekGame.view.offer === null", name="declined")
        host.wait_for_selector("#offer-takeback")
        assert [h["text"] for h in view(host)["history"]] == ["d2"] and view(guest)["to_seat"] == 1
        # proposed and withdrawn
        host.click("#offer-takeback")
        guest.wait_for_selector("#offer-asked")
        host.click("#withdraw")
        wait(guest, "() => window.ludothekGame.view.offer === null", name="withdrawn")
        assert guest.locator("#offer-asked").count() == 0
        # Trike cannot end in a draw: nobody is offered one
        assert host.locator("#offer-draw").count() == 0 and guest.locator("#offer-draw").count() == 0
        shot(host, "table-takeback-host")
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


@pytest.mark.skipif("trigeo" not in GAMES, reason="needs a game with draws")
def test_a_draw_offer_accepted_ends_the_game_with_the_reason(browser, server):
    game_id, (host, guest), (host_token, _), contexts, errors = online_game(
        browser, server, "trigeo", {"first": "white"})
    try:
        move(server, game_id, host_token, "A4XA3")
        wait(guest, "() => window.ludothekGame.view.history.length === 1", name="guest-sees-move")
        guest.click("#offer-draw")
        guest.wait_for_selector("#offer-waiting")
        host.wait_for_selector("#offer-asked")
        assert "draw" in host.locator("#offer-asked").inner_text()
        host.click("#accept-offer")
        for page in (host, guest):
            page.wait_for_selector("#end-dialog")  # opens by itself when the game ends
            assert page.locator("#end-result").inner_text() == "Draw by agreement"
            assert page.locator("#end-reason").inner_text() == "The players agreed to a draw."
            assert page.locator("#end-rematch").count() == 1 and page.locator("#end-download").count() == 1
        assert view(host)["termination"] == "agreement" and view(host)["result"] == "draw"
        shot(host, "table-draw-agreed")
        # closable, and it does not come back by itself
        guest.click("#end-close")
        guest.wait_for_selector("#end-dialog", state="detached")
        assert "Draw by agreement" in guest.locator("#result").inner_text()
        assert guest.locator("#offer-draw").count() == 0 and guest.locator("#undo").count() == 0
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors


def test_a_finished_bot_game_offers_no_undo(page, server):
    created = new_game(server, "trike", opponent="bot", bot="random", seat=0, options={"size": 7})
    game_id, token = created["id"], created["token"]
    open_as(page, server, game_id, token)
    assert page.locator("#undo").count() == 0  # nothing to take back yet
    move(server, game_id, token, "d2")
    wait(page, "() => window.ludothekGame.view.history.length >= 2", name="bot-replied")
    page.wait_for_selector("#undo")  # the move and the bot's reply can be taken back
    page.click("#resign")  # the confirm() is accepted by the fixture
    page.wait_for_selector("#end-dialog")
    assert page.locator("#end-reason").inner_text() == "A player resigned."
    page.click("#end-close")
    wait(page, "() => window.ludothekGame.view.status === 'over'", name="over")
    assert page.locator("#undo").count() == 0
    refused = api(server, "POST", f"/api/games/{game_id}/undo", token=token)
    assert refused.status_code == 409 and "over" in refused.json()["error"]
    page.reload()
    page.wait_for_selector("#result")
    assert page.locator("#undo").count() == 0 and page.locator("#end-dialog").count() == 0
    shot(page, "table-bot-over-no-undo")


def test_the_end_dialog_gives_the_rule_and_the_score(page, server):
    position, last = TRIKE_LAST_MOVE
    created = new_game(server, "trike", position=position)
    game_id = created["id"]
    open_as(page, server, game_id, created["token"])
    page.locator(f'svg.board [data-cell="{last}"]').first.click()
    page.wait_for_selector("#end-dialog")
    words = game_spec("trike").endings["pawn_trapped"]
    assert page.locator("#end-result").inner_text() == "Black wins"
    assert page.locator("#end-reason").inner_text() == words["en"]
    assert page.locator("#end-score").inner_text() == "Score: Black 3 : 2 White"
    assert page.locator("#undo").count() == 0
    shot(page, "table-end-dialog-rules")
    # review: the replay from the start
    page.click("#end-review")
    wait(page, "() => window.ludothekGame.replay !== null && window.ludothekGame.replayIndex === -1", name="review")
    assert page.locator("#end-dialog").count() == 0
    page.click("#replay-live")
    # reopened from the banner, in German too
    assert words["en"] in page.locator("#result").inner_text()
    page.click("#end-details")
    page.wait_for_selector("#end-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("#end-dialog", state="detached")
    page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
    page.reload()
    page.wait_for_selector("#end-details")
    page.click("#end-details")
    assert page.locator("#end-reason").inner_text() == words["de"]
    assert page.locator("#end-result").inner_text() == "Schwarz gewinnt"
    shot(page, "table-end-dialog-de")
