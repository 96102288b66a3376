"""Moves you can see (issue 31, item 3): the bot's reply is played out on the board (the piece
grows in or slides, 150–300 ms) and the page draws nothing else meanwhile; under
prefers-reduced-motion nothing moves. No timing assertions on a busy machine: the test waits on
the attributes the page sets (``data-animating`` while a move is played out, ``data-animated``
counting the moves played out) and reads what a MutationObserver saw in the page."""

from __future__ import annotations

import random

import pytest

from ludothek.core.registry import game_class

from .browser import checked_page, require_browser, shot

sync_api = require_browser()
httpx = pytest.importorskip("httpx")

#: records, in the page, every change of the board's wrapper: its attributes and its drawings
WATCH = """() => {
  const wrap = document.querySelector('.board-wrap');
  window.seen = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const board = wrap.querySelector('svg.board');
      window.seen.push({
        type: r.type, name: r.attributeName || null, animating: wrap.dataset.animating === '1',
        version: wrap.dataset.version, running: board ? board.getAnimations({ subtree: true }).length : 0,
        at: performance.now(),
      });
      // a next position arrives while a move is played out (as a quick next reply would): the
      // page must keep it until the animation is over
      if (wrap.dataset.animating === '1' && !window.pokedDuring) {
        const game = window.ludothekGame;
        window.pokedDuring = game.view.version;
        game.view = { ...game.view, version: game.view.version + 1000, plies: game.view.plies + 1 };
        game.draw();
      }
    }
  }).observe(wrap, { attributes: true, childList: true });
}"""


def trike_after_the_pie(seed: int = 3) -> str:
    """A Trike position (size 7) some plies in, past the pie rule, not over."""
    state, rng = game_class("trike")(size=7), random.Random(seed)
    while state.ply < 4:
        state.play(rng.choice([a for a in state.legal_actions() if state.action_to_str(a) != "swap"]))
    assert not state.is_over()
    return state.position()


def bot_game(page, server, watch=True):
    created = httpx.post(server + "/api/games", json={
        "game": "trike", "options": {"size": 7}, "opponent": "bot", "bot": "bot:1", "seat": 0,
        "start": "fixed", "position": trike_after_the_pie()}, timeout=30)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    page.goto(server + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`ludothek.token.${id}`, token)", [game_id, token])
    page.goto(f"{server}/play/{game_id}")
    page.wait_for_function("() => window.ludothekGame && window.ludothekGame.view && window.ludothekGame.view.moves.length"
                           " && window.ludothekGame.view.to_seat === 0")
    if watch:
        page.evaluate(WATCH)


def play_a_move(page):
    target = page.evaluate("() => window.ludothekGame.view.moves.find((m) => m.to).to")
    version = page.evaluate("() => window.ludothekGame.view.version")
    page.locator(f'svg.board [data-cell="{target}"]').first.click()
    return version


def test_the_bots_reply_is_played_out_before_anything_else_is_drawn(browser, server):
    with checked_page(browser) as page:
        bot_game(page, server)
        play_a_move(page)
        # the bot's reply (the server answers within about 0.1 s) is played out on the board
        page.wait_for_function("() => Number(document.querySelector('.board-wrap').dataset.animated || 0) >= 1",
                               timeout=60000)
        page.wait_for_function("() => window.pokedDuring")
        page.wait_for_function("() => !document.querySelector('.board-wrap').dataset.animating")
        seen = page.evaluate("() => window.seen")
        started = next(k for k, s in enumerate(seen) if s["name"] == "data-animating" and s["animating"])
        ended = next(k for k, s in enumerate(seen) if k > started and s["name"] == "data-animating" and not s["animating"])
        # while it ran, the new board's pieces were moving, and nothing else was drawn
        assert seen[started]["running"] > 0
        replied = page.evaluate("() => window.pokedDuring")
        assert not any(s["type"] == "childList" for s in seen[started:ended]), seen[started:ended]
        # the position that came meanwhile was drawn after it
        page.wait_for_function("v => document.querySelector('.board-wrap').dataset.version === String(v + 1000)",
                               arg=replied)
        # the reply is the bot's: the board played out was the bot's position
        view = page.evaluate("() => window.ludothekGame.view")
        assert view["history"][-1]["colour"] != view["colours"][0] and view["to_seat"] == 0
        assert seen[ended]["version"] == str(replied) == str(view["version"] - 1000)
        # at least the animation's length (a busy machine can only make it longer)
        assert seen[ended]["at"] - seen[started]["at"] >= 150
        # and the stone the bot put down stands on the cell its move names
        cell = view["last"]["cells"][-1]
        assert page.locator(f'svg.board polygon[data-cell="{cell}"]').count() == 1
        assert page.evaluate("() => document.querySelector('svg.board').getAnimations({ subtree: true }).length") == 0
        shot(page, "animate-bot-reply")


def test_reduced_motion_shows_the_reply_without_moving_anything(browser, server):
    with checked_page(browser, reduced_motion="reduce") as page:
        bot_game(page, server)
        version = play_a_move(page)
        # the bot answered: its move is on the board, and nothing was animated
        page.wait_for_function("v => { const g = window.ludothekGame.view; return g.version > v + 1 && g.to_seat === 0 && "
                               "document.querySelector('.board-wrap').dataset.version === String(g.version); }",
                               arg=version, timeout=60000)
        assert page.evaluate("() => document.querySelector('.board-wrap').dataset.animated") is None
        assert not any(s["animating"] for s in page.evaluate("() => window.seen"))
        assert page.evaluate("() => document.querySelector('svg.board').getAnimations({ subtree: true }).length") == 0


def test_what_the_player_does_meanwhile_finishes_the_animation_at_once(browser, server):
    with checked_page(browser) as page:
        bot_game(page, server, watch=False)
        page.evaluate("""() => {
          const wrap = document.querySelector('.board-wrap');
          new MutationObserver(() => {
            if (wrap.dataset.animating === '1' && !window.clicked) {
              window.clicked = true;
              document.querySelector('#sound').click();
            }
          }).observe(wrap, { attributes: true });
        }""")
        pressed = page.get_attribute("#sound", "aria-pressed")
        play_a_move(page)
        page.wait_for_function("() => window.clicked")
        # the switch answered at once: the move is shown finished, nothing waits
        assert page.get_attribute("#sound", "aria-pressed") != pressed
        assert page.evaluate("() => document.querySelector('.board-wrap').dataset.animating") is None
        assert page.evaluate("() => document.querySelector('svg.board').getAnimations({ subtree: true }).length") == 0


#: a Trigeo board drawn twice with a threatened piece, as a live board and as a picture: the
#: ring's animation on each (name and iterations, as computed), and the animations still running
#: on the live board after the player's action finished those of a move
THREAT_RINGS = """async () => {
  const { drawBoard, boardPicture } = await import("/static/js/board.js");
  const { finishAnimation } = await import("/static/js/animate.js");
  const preview = await (await fetch("/api/preview?game=trigeo")).json();
  const cell = preview.geometry.cells.find((c) => preview.board.dice && preview.board.dice[c.name]).name;
  const wrap = document.createElement("div");
  const live = drawBoard(preview.geometry, preview.board, { threatened: [cell], onCell: () => {} });
  const picture = boardPicture({ ...preview, threatened: [cell] });
  wrap.append(live);
  document.body.append(wrap, picture);
  const ring = (svg) => {
    const style = getComputedStyle(svg.querySelector("circle.threat"));
    return `${style.animationName} ${style.animationIterationCount}`;
  };
  const found = { live: ring(live), picture: ring(picture), smil: document.querySelectorAll("animate").length };
  finishAnimation(wrap);
  return { ...found, running: live.getAnimations({ subtree: true }).filter((a) => a.playState === "running").length };
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_threat_ring_pulses_only_on_a_live_board_and_never_under_reduced_motion(browser, server, motion):
    """A picture (the home page's cards, the daily puzzle) keeps still: an idle page must not
    redraw itself every frame. The pulse is a CSS animation, which prefers-reduced-motion stops."""
    with checked_page(browser, reduced_motion=motion) as page:
        page.goto(server + "/")
        page.wait_for_selector(".game-card .pic svg")
        found = page.evaluate(THREAT_RINGS)
        assert found["picture"] == "none 1" and found["smil"] == 0
        if motion == "reduce":
            assert found["live"] == "threat-pulse 1" and found["running"] == 0
        else:
            assert found["live"] == "threat-pulse infinite" and found["running"] == 1
