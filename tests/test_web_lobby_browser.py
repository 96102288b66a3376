"""Players in the browser (issue 11, items 3-6): the lobby, rated games, profiles and the
leaderboard. Two browser contexts are two people: one offers a game in the lobby, the other
sees the offer appear without reloading and takes it, and both land in the same game; a rated
game ends and both pages show the ratings :func:`ludothek.ratings.rate_game` computes; a guest
cannot offer a rated game; the profile draws the rating history; axe finds nothing serious on
the new pages, light and dark; a German lobby shows no English. Debian's Chromium driven by
Playwright against a real ``ludothek serve``; screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest

from ludothek.ratings import Rating, rate_game

from .browser import checked_page, require_browser, shot
from .servers import Server
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_german_browser import TEXT_OF_PAGE, english_words

sync_api = require_browser()
pytest.importorskip("argon2")

PASSWORD = "a long table top"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
BADGE_ONE = "() => { const b = document.getElementById('turns-badge'); return b.textContent === '1' && !b.hidden }"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("lobby") / "lobby.sqlite3")
    running = Server(db, "--rate-limits", "move=100/second", "--bots", "thread")
    yield running.base
    running.stop()


def wait(page, script, arg=None, name="wait"):
    try:
        page.wait_for_function(script, arg=arg, timeout=30000)
    except sync_api.TimeoutError:
        shot(page, f"lobby-timeout-{name}")
        raise


def sign_up(page, base, name):
    page.goto(base + "/login?mode=signup")
    page.wait_for_selector("#signup-form")
    page.fill("#account-user", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-name")
    assert page.text_content("#account-name") == name


def open_lobby(page, base):
    page.goto(base + "/lobby")
    wait(page, "() => window.ludothekLobby && window.ludothekLobby.connected", name="lobby-open")


def offer(page, size=7, clock="none", rated=False, colour="random"):
    """Offer a Trike game in the lobby; the new seek's id."""
    page.select_option("#seek-game", "trike")
    page.select_option("#seek-opt-size", str(size))
    page.select_option("#seek-clock-kind", clock)
    page.select_option("#seek-colour", colour)
    if rated:
        page.check("#seek-rated")
    before = page.evaluate("() => JSON.parse(sessionStorage.getItem('ludothek.seeks') || '[]').length")
    page.click("#seek-create")
    wait(page, "n => JSON.parse(sessionStorage.getItem('ludothek.seeks') || '[]').length > n", before, name="offered")
    seek = page.evaluate("() => JSON.parse(sessionStorage.getItem('ludothek.seeks')).at(-1).id")
    page.wait_for_selector(f'#seeks button[data-seek="{seek}"][data-action="cancel"]')
    return seek


def in_game(page, name):
    page.wait_for_url("**/play/*")
    wait(page, "() => window.ludothekGame && window.ludothekGame.view && window.ludothekGame.connected === true", name=name)
    return page.url.rsplit("/", 1)[-1]


def play_if_my_turn(page):
    """A legal move when it is this page's turn: True if one was played."""
    mine = page.evaluate("() => { const g = window.ludothekGame; return g.view.status === 'ongoing' && g.view.to_seat !== null "
                         "&& g.you.includes(g.view.to_seat) && g.view.moves.length > 0 }")
    if not mine:
        return False
    plies = page.evaluate("() => window.ludothekGame.view.plies")
    page.fill("#move-input", page.evaluate("() => window.ludothekGame.view.moves[0].move"))
    page.press("#move-input", "Enter")
    wait(page, "n => window.ludothekGame.view.plies > n", plies, name="played")
    return True


def both_move(a, b):
    """Each page makes one move, in the order the game asks for."""
    for _ in range(2):
        wait(a, "() => { const g = window.ludothekGame; return g.view.status === 'ongoing' && g.view.to_seat !== null }",
             name="a-turn")
        plies = a.evaluate("() => window.ludothekGame.view.plies")
        if not play_if_my_turn(a):
            assert play_if_my_turn(b)
        wait(a, "n => window.ludothekGame.view.plies > n", plies, name="a-sees")
        wait(b, "n => window.ludothekGame.view.plies > n", plies, name="b-sees")


def test_an_offer_appears_live_and_both_land_in_the_same_game(browser, site):
    with checked_page(browser) as ann, checked_page(browser, **PHONE) as bob:
        sign_up(ann, site, "ann")
        sign_up(bob, site, "bob")
        open_lobby(ann, site)
        open_lobby(bob, site)
        assert bob.locator("#seeks-empty").count() == 1
        shot(bob, "lobby-empty-phone")
        seek = offer(ann, clock="live")
        assert "ann" in ann.text_content("#seeks")
        shot(ann, "lobby-offered")
        # the other page hears of it over its socket: no reload
        marker = bob.evaluate("() => (window.lobbyMarker = 1)")
        bob.wait_for_selector(f'#seeks button[data-seek="{seek}"][data-action="accept"]', timeout=15000)
        assert bob.evaluate("() => window.lobbyMarker") == marker
        assert "5 + 3" in bob.text_content("#seeks")
        shot(bob, "lobby-seek-phone")
        bob.click(f'#seeks button[data-seek="{seek}"]')
        game = in_game(bob, "bob-game")
        assert in_game(ann, "ann-game") == game  # the "started" push took the author there
        assert ann.evaluate("() => sessionStorage.getItem('ludothek.seeks')") == "[]"
        assert ann.evaluate("() => window.ludothekGame.you.length") == 1
        assert bob.evaluate("() => window.ludothekGame.you.length") == 1
        both_move(ann, bob)
        for page in (ann, bob):
            assert "Casual" in page.text_content(".game-title")
            assert page.locator('.players a.player-link[href="/players/ann"]').count() == 1
            assert page.locator('.players a.player-link[href="/players/bob"]').count() == 1
        shot(ann, "lobby-game-desk")
        shot(bob, "lobby-game-phone")
        # the game is listed as live in the lobby, with a link to open it (her own game)
        open_lobby(ann, site)
        ann.wait_for_selector(f'#live a[href="/play/{game}"]')
        assert ann.text_content(f'#live a[href="/play/{game}"]') == "Open"
        shot(ann, "lobby-live")


def test_a_rated_game_moves_both_ratings_as_glicko2_says(browser, site):
    with checked_page(browser) as cleo, checked_page(browser) as dan:
        sign_up(cleo, site, "cleo")
        sign_up(dan, site, "dan")
        open_lobby(cleo, site)
        open_lobby(dan, site)
        seek = offer(cleo, rated=True, colour="0")
        dan.wait_for_selector(f'#seeks button[data-seek="{seek}"]', timeout=15000)
        assert "Rated" in dan.text_content(f'#seeks tr[data-row="{seek}"]')
        dan.click(f'#seeks button[data-seek="{seek}"]')
        game = in_game(dan, "dan-game")
        assert in_game(cleo, "cleo-game") == game
        assert cleo.evaluate("() => window.ludothekGame.you") == [0]  # she asked for the first colour
        assert "Rated" in cleo.text_content(".game-title")
        both_move(cleo, dan)
        # dan resigns: cleo (seat 0) wins
        dan.click("#resign")
        for page in (cleo, dan):
            wait(page, "() => window.ludothekGame.view.status === 'over' && window.ludothekGame.view.ratings", name="rated-end")
            page.wait_for_selector("#end-ratings")
        first, second = rate_game(Rating(), Rating(), 1.0)
        expected = [round(first.value, 2), round(second.value, 2)]
        for page in (cleo, dan):
            shown = page.evaluate("() => [0, 1].map((s) => Number(document.getElementById(`end-rating-${s}`).dataset.after))")
            assert shown == expected
            assert page.evaluate("() => window.ludothekGame.view.ratings.map((r) => r.after)") == expected
            text = page.text_content("#end-ratings")
            # newcomers: provisional ("?") before the game and after it
            assert f"1500? \u2192 {round(first.value)}?" in text and f"+{first.value - 1500:.1f}" in text
            assert f"\u2212{1500 - second.value:.1f}" in text
        shot(cleo, "lobby-rated-end")
        for page in (cleo, dan):  # nobody's move any more
            wait(page, "() => document.getElementById('turns-badge').hidden", name="no-turns-after-end")
        cleo.click("#end-close")
        assert cleo.locator("#rating-change-0 .delta.up").count() == 1
        assert cleo.locator("#rating-change-1 .delta.down").count() == 1
        shot(cleo, "lobby-rated-strip")

        # the profile: the rating, the counts, the chart
        cleo.click('.players a.player-link[href="/players/cleo"]')
        cleo.wait_for_selector("#profile-ratings .rating-card[data-game=trike]")
        assert cleo.text_content("#profile-name") == "cleo"
        assert cleo.evaluate("() => document.querySelectorAll('#profile-name *').length") == 0  # text, not markup
        value = cleo.get_attribute(".rating-card[data-game=trike] .rating-value", "data-value")
        assert float(value) == expected[0]
        assert cleo.text_content(".rating-card[data-game=trike] .rating-value") == f"{round(first.value)}?"
        assert "1 won" in cleo.text_content(".rating-card[data-game=trike] .counts")
        chart = cleo.locator("svg.rating-chart")
        assert chart.count() == 1
        assert "Trike" in cleo.text_content("svg.rating-chart > title")
        assert cleo.get_attribute("svg.rating-chart", "data-points") == "2"  # the start (1500) and the game
        assert cleo.locator(f'#recent a[href="/play/{game}"]').count() == 1
        shot(cleo, "lobby-profile")
        cleo.set_viewport_size({"width": 390, "height": 844})
        shot(cleo, "lobby-profile-phone")
        cleo.set_viewport_size({"width": 1280, "height": 900})
        # the header's name leads to one's own profile
        dan.click("#end-close")
        dan.click("#account-name")
        dan.wait_for_selector("#profile-name")
        assert dan.text_content("#profile-name") == "dan"
        assert "1 lost" in dan.text_content(".rating-card[data-game=trike] .counts")

        # the leaderboard lists both, the winner first
        cleo.goto(site + "/leaderboard/trike")
        cleo.wait_for_selector("#leaderboard")
        names = cleo.eval_on_selector_all("#leaderboard tr[data-player]", "rows => rows.map((r) => r.dataset.player)")
        assert names.index("cleo") < names.index("dan")
        values = cleo.eval_on_selector_all("#leaderboard tr[data-player] td.rating-value",
                                           "cells => cells.map((c) => Number(c.dataset.value))")
        assert values[names.index("cleo")] == expected[0] and values[names.index("dan")] == expected[1]
        shot(cleo, "lobby-leaderboard")

        # the archive's filters: by player and by game
        cleo.goto(site + "/archive")
        cleo.wait_for_selector("#archive-player")
        cleo.click('[data-filter="over"]')
        cleo.wait_for_selector("#archive-player")
        cleo.fill("#archive-player", "dan")
        wait(cleo, "id => { const rows = document.querySelectorAll('#archive tr'); return rows.length === 2 "
                   "&& document.querySelector(`#archive a[href='/play/${id}']`) }", game, name="archive-player")
        cleo.fill("#archive-player", "nobody-here")
        cleo.wait_for_selector("#archive-empty")
        shot(cleo, "lobby-archive-filtered")


def test_guests_play_casual_games_from_the_lobby_but_cannot_offer_rated_ones(browser, site):
    with checked_page(browser) as guest, checked_page(browser) as visitor:
        open_lobby(guest, site)
        open_lobby(visitor, site)
        # two guests: the seats are tokens this browser keeps
        seek = offer(guest, clock="none")
        visitor.wait_for_selector(f'#seeks button[data-seek="{seek}"][data-action="accept"]', timeout=15000)
        assert "Guest" in visitor.text_content(f'#seeks tr[data-row="{seek}"]')
        visitor.click(f'#seeks button[data-seek="{seek}"]')
        game = in_game(visitor, "visitor-game")
        assert in_game(guest, "guest-game") == game
        for page in (guest, visitor):
            assert page.evaluate("id => localStorage.getItem(`ludothek.token.${id}`)", game)
            assert page.evaluate("() => window.ludothekGame.you.length") == 1
        both_move(guest, visitor)
        guest.goto(site + "/lobby")
        wait(guest, "() => window.ludothekLobby && window.ludothekLobby.connected", name="lobby-again")
        assert guest.is_disabled("#seek-rated")
        assert guest.text_content("#seek-rated-hint").startswith("Rated games need an account")
        # asked all the same (a script, an old page): the server refuses, in words
        answer = guest.evaluate("""async () => {
            const r = await fetch('/api/seeks', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ game: 'trike', options: { size: 7 }, clock: null, rated: true, seat: 'random' }) });
            return [r.status, await r.json()];
        }""")
        assert answer[0] == 401 and answer[1]["error"]
        shot(guest, "lobby-guest")


def test_your_turn_count_in_the_header_and_the_title(browser, site):
    with checked_page(browser) as eve, checked_page(browser) as fay:
        sign_up(eve, site, "eve")
        sign_up(fay, site, "fay")
        open_lobby(eve, site)
        open_lobby(fay, site)
        seek = offer(eve, clock="days")
        fay.wait_for_selector(f'#seeks button[data-seek="{seek}"]', timeout=15000)
        assert "3 days per move" in fay.text_content(f'#seeks tr[data-row="{seek}"]')
        fay.click(f'#seeks button[data-seek="{seek}"]')
        in_game(fay, "fay-game")
        in_game(eve, "eve-game")
        # correspondence: before the first move, a day for it (else the game is aborted), and whose it is
        for page in (eve, fay):
            page.wait_for_selector("#first-move")
            assert "3 days per move" in page.text_content(".game-title")
            assert "23 h" in page.text_content("#first-move")
        to_move = eve if eve.evaluate("() => window.ludothekGame.you.includes(window.ludothekGame.view.to_seat)") else fay
        other = fay if to_move is eve else eve
        assert to_move.text_content("#first-move").startswith("Make your first move within")
        assert other.text_content("#first-move").startswith(("Black", "White"))
        # the player to move sees his count everywhere, the other does not
        to_move.goto(site + "/rules")
        to_move.wait_for_selector("#my-games")
        wait(to_move, BADGE_ONE, name="badge")
        wait(to_move, "() => document.title.startsWith('(1) ')", name="title")
        other.goto(site + "/rules")
        other.wait_for_selector("#my-games")
        other.wait_for_timeout(500)
        assert other.is_hidden("#turns-badge")
        # the other's move: his badge rises live, on a page he did not reload
        to_move.goto(site + "/archive")
        to_move.wait_for_selector("#archive tr.your-turn .tag.turn")
        shot(to_move, "lobby-archive-your-turn")
        to_move.click("#archive tr.your-turn a.btn[data-link]")
        wait(to_move, "() => window.ludothekGame && window.ludothekGame.connected === true", name="back-to-game")
        assert play_if_my_turn(to_move)
        wait(other, BADGE_ONE, name="badge-live")
        wait(other, "() => document.title.startsWith('(1) ')", name="title-live")
        wait(to_move, "() => document.getElementById('turns-badge').hidden", name="badge-gone")
        shot(other, "lobby-your-turn-badge")


def test_a_rated_correspondence_game_for_a_friend_from_the_home_page(browser, site):
    with checked_page(browser, permissions=["notifications"]) as page:
        sign_up(page, site, "ida")
        page.goto(site + "/")
        page.click('.game-card[data-game="trike"]')
        page.select_option("#opt-size", "7")
        page.click('[data-opponent="bot"]')
        assert page.locator("#rated").count() == 0  # rated: only against a friend
        assert page.locator('#clock-kind option[value="days"]').count() == 0
        page.click('[data-opponent="friend"]')
        page.select_option("#clock-kind", "days")
        assert page.is_visible("#clock-days") and page.is_hidden("#clock-min")
        page.select_option("#clock-days", "7")
        page.check("#rated")
        shot(page, "lobby-home-friend")
        page.click("#start")
        page.wait_for_url("**/play/*")
        wait(page, "() => window.ludothekGame && window.ludothekGame.view", name="friend-game")
        view = page.evaluate("() => window.ludothekGame.view")
        assert view["rated"] is True and view["clock"]["days"] == 7
        assert "Rated" in page.text_content(".game-title") and "7 days per move" in page.text_content(".game-title")
        # the "notify me" switch asks the browser once and remembers the answer
        page.goto(site + "/archive")
        page.wait_for_selector("#notify-turns")
        assert page.get_attribute("#notify-turns", "aria-pressed") == "false"
        page.click("#notify-turns")
        wait(page, "() => document.getElementById('notify-turns').getAttribute('aria-pressed') === 'true'", name="notify")
        assert page.evaluate("() => localStorage.getItem('ludothek.notify')") == "on"


def test_the_german_lobby_has_no_english(browser, site):
    with checked_page(browser) as page:
        page.goto(site + "/rules")
        page.evaluate("() => localStorage.setItem('ludothek.lang', 'de')")
        sign_up(page, site, "gustav")
        open_lobby(page, site)
        offer(page, clock="days", rated=True)
        page.select_option("#seek-clock-kind", "live")
        page.wait_for_selector("#lobby-status:not(:empty)")
        text = page.evaluate(TEXT_OF_PAGE)
        assert "Treffpunkt" in text and "Gewertet" in text
        assert english_words(text) == [], english_words(text)
        shot(page, "lobby-german")
        page.goto(site + "/leaderboard")
        page.wait_for_selector("h1")
        page.wait_for_load_state("networkidle")
        assert english_words(page.evaluate(TEXT_OF_PAGE)) == []
        page.goto(site + "/players/gustav")
        page.wait_for_selector("#profile-name")
        assert english_words(page.evaluate(TEXT_OF_PAGE)) == []


def test_axe_finds_nothing_serious_on_the_players_pages(browser, site):
    source = axe_source()
    with checked_page(browser) as page, checked_page(browser) as other:
        sign_up(page, site, "hanna")
        open_lobby(other, site)
        open_lobby(page, site)
        offer(page, clock="days")  # a correspondence offer stays when its page leaves
        other.wait_for_selector("#seeks button[data-action=accept]")
        pages = {"lobby": "/lobby", "profile": "/players/cleo", "leaderboard": "/leaderboard/trike", "archive": "/archive"}
        problems: list[str] = []
        for scheme in ("light", "dark"):
            for p in (page, other):
                p.emulate_media(color_scheme=scheme)
            for name, path in pages.items():
                viewer = other if name == "lobby" else page  # a lobby with someone's offer in it
                if name != "lobby" or scheme == "dark":
                    viewer.goto(site + path)
                viewer.wait_for_selector("h1")
                if name == "lobby":
                    viewer.wait_for_selector("#seeks")
                problems += [f"{scheme} {name}: {p}" for p in serious_violations(viewer, source)]
                shot(viewer, f"lobby-axe-{name}-{scheme}")
        assert not problems, "\n".join(problems)
