"""Tournaments in the browser (issue 32): a Swiss of five shows its pairings (a bye) and, pushed
by its websocket, the next round when the games of the first have ended; a logged-in player
creates a tournament on /tournaments; axe finds nothing serious on the pages, light and dark;
the phone layout at 390x844, and the tournament on a player's profile. Players act through the HTTP API (httpx) to keep it fast."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from .browser import checked_page, require_browser, shot
from .servers import ONE_PROCESS, Server
from .test_web_a11y_browser import axe_source, serious_violations
from .test_web_accounts_browser import log_in

sync_api = require_browser()
httpx = pytest.importorskip("httpx")
pytest.importorskip("argon2")

GAME = "trike"
PASSWORD = "a long table top"


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    return tmp_path_factory.mktemp("web") / "tournaments.sqlite3"


@pytest.fixture(scope="module")
def server(database):
    """The browser tests' server, without the limit of new accounts per address: this module
    signs up more players from 127.0.0.1 than an hour allows one address."""
    running = Server(str(database), "--rate-limits", "move=100/second", "--login-limits", "off", "--bots", "thread")
    yield running.base
    running.stop()


def move_start_back(database, tid, seconds):
    """Time passes for tournament ``tid`` without waiting for it: its start moves back in the
    server's database, where the server reads it on each look at its tournaments."""
    with closing(sqlite3.connect(database, timeout=60)) as conn, conn:
        conn.execute("UPDATE tournaments SET started = started - ? WHERE id = ?", (seconds, tid))


class Player:
    def __init__(self, base, name):
        self.client = httpx.Client(base_url=base)
        answer = self.client.post("/api/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.csrf = answer.json()["csrf"]

    def post(self, path, body=None):
        answer = self.client.post(path, json=body or {}, headers={"X-CSRF-Token": self.csrf})
        assert answer.status_code in (200, 201), answer.text
        return answer.json()


def swiss_of_five(server, prefix):
    names = [f"{prefix}{n}" for n in ("ann", "bob", "cid", "dan", "eve")]
    players = {name: Player(server, name) for name in names}
    tid = players[names[0]].post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 2,
                                                      "name": f"Cup {prefix}"})["id"]
    for player in players.values():
        player.post(f"/api/tournaments/{tid}/join")
    view = players[names[0]].post(f"/api/tournaments/{tid}/start")
    return names, players, tid, view


def test_a_swiss_page_shows_pairings_and_the_next_round_live(page, server):
    names, players, tid, view = swiss_of_five(server, "s")
    ann, bob, cid, dan, eve = names
    page.goto(f"{server}/tournaments/{tid}")
    page.wait_for_selector("#tour-games li.tour-bye")
    games = page.locator('#tour-games ol[data-round="1"] li').all_inner_texts()
    assert games[0].startswith(f"{ann} – {cid}") and games[1].startswith(f"{dan} – {bob}")
    assert games[2].startswith(f"{eve} · ")  # the bye
    assert page.locator("#tour-standings tbody tr").count() == 5
    shot(page, "tournament-swiss-round1")
    # the games of round 1 end (the second-named resigns); the page shows round 2 by itself
    for g in view["games"]:
        if g["second"] is not None:
            players[g["second"]].post(f"/api/games/{g['game']}/resign")
    page.wait_for_selector('#tour-games ol[data-round="2"]')
    page.wait_for_function("() => window.ludothekTournament && window.ludothekTournament.round === 2")
    table = page.inner_text("#tour-standings")
    assert ann in table and eve in table
    shot(page, "tournament-swiss-round2")


def test_an_account_creates_an_arena_on_the_page(page, server):
    log_in(page, server, "arenamaker", PASSWORD, signup=True)
    page.goto(f"{server}/tournaments")
    page.wait_for_selector("#tour-form")
    page.fill("#tour-name", "Friday Arena")
    page.select_option("#tour-kind", "arena")
    page.fill("#tour-length", "20")
    page.click("#tour-form button[type=submit]")
    page.wait_for_url("**/tournaments/*")
    page.wait_for_selector("#tour-join")
    assert page.inner_text("#tour-name") == "Friday Arena"
    page.click("#tour-join")
    page.wait_for_selector("#tour-withdraw")
    assert "arenamaker" in page.inner_text("#tour-standings")
    # the creator of a casual tournament invites a bot level; it shows in the standings, without a profile link
    page.select_option("#tour-bot-level", "bot:2")
    # a player joining meanwhile draws the page again: the level chosen stays chosen
    tid = page.url.rsplit("/", 1)[-1]
    Player(server, "arenajoiner").post(f"/api/tournaments/{tid}/join")
    page.wait_for_function("() => window.ludothekTournament.players.some(p => p.name === 'arenajoiner')")
    page.click("#tour-invite-bot")
    page.wait_for_selector("#tour-standings .tour-bot")
    assert "bot:2" in page.inner_text("#tour-standings .tour-bot")
    assert serious_violations(page, axe_source()) == []  # the creator's bot section too
    page.click(".tour-remove-bot")
    page.wait_for_function("() => !window.ludothekTournament.players.some(p => p.bot)")


def test_axe_finds_nothing_serious_on_the_tournament_pages(page, server):
    _, _, tid, _ = swiss_of_five(server, "x")
    source = axe_source()
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{server}/tournaments")
        page.wait_for_selector("#tour-list")
        problems += [f"{scheme} /tournaments: {p}" for p in serious_violations(page, source)]
        page.goto(f"{server}/tournaments/{tid}")
        page.wait_for_selector("#tour-standings")
        problems += [f"{scheme} /tournaments/ID: {p}" for p in serious_violations(page, source)]
    assert problems == []


def test_the_tournament_page_fits_a_phone_in_german(browser, server):
    names, _, tid, _ = swiss_of_five(server, "p")
    with checked_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                      locale="de-DE") as phone:
        for path in ("/tournaments", f"/tournaments/{tid}"):
            phone.goto(f"{server}{path}")
            phone.wait_for_selector("#tour-list, #tour-standings")
            assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert "Paarungen" in phone.inner_text("body") and "spielfrei" in phone.inner_text("body")
        shot(phone, "tournament-phone-de")
        # the player's profile lists the tournament and his place
        phone.goto(f"{server}/players/{names[0]}")
        phone.wait_for_selector("#profile-tournaments")
        assert "Cup p" in phone.inner_text("#profile-tournaments") and "Platz" in phone.inner_text("#profile-tournaments")
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390


def lichess_points(games, player):
    """Arena points of ``player`` from the finished games in the order they ended, by the rules
    in docs/TOURNAMENTS.md (computed here independently of ludothek.tournament.arena)."""
    total, streak = 0, 0
    for g in games:
        if player not in (g["first"], g["second"]) or g["score"] is None:
            continue
        mine = g["score"] if g["first"] == player else 1 - g["score"]
        base = {1: 2, 0.5: 1, 0: 0}[mine]
        total += base * (2 if streak >= 2 else 1)
        streak = streak + 1 if mine == 1 else 0
    return total


def test_an_arena_of_four_runs_to_its_end_on_the_page(page, server, database):
    names = ["aann", "abob", "acid", "adan"]
    players = {name: Player(server, name) for name in names}
    tid = players["aann"].post("/api/tournaments", {"kind": "arena", "game": GAME, "minutes": 1})["id"]
    for player in players.values():
        player.post(f"/api/tournaments/{tid}/join")
    view = players["aann"].post(f"/api/tournaments/{tid}/start")
    page.goto(f"{server}/tournaments/{tid}")
    page.wait_for_selector("#tour-standings")
    resigned = 0
    for _ in range(2):  # two rounds of games: the second-named player resigns each
        running = [g for g in view["games"] if g["score"] is None]
        assert len(running) == 2
        for g in running:
            players[g["second"]].post(f"/api/games/{g['game']}/resign")
            resigned += 1
        page.wait_for_function(f"() => window.ludothekTournament.games.filter(g => g.score !== null).length === {resigned}"
                               " && window.ludothekTournament.games.filter(g => g.score === null).length === 2")
        view = page.evaluate("() => window.ludothekTournament")
    # the minute runs out with the third games still on; they count when they end
    move_start_back(database, tid, 60)
    page.wait_for_function(f"() => window.ludothekTournament.started < {view['started']} - 59")
    for g in [g for g in view["games"] if g["score"] is None]:
        players[g["second"]].post(f"/api/games/{g['game']}/resign")
    page.wait_for_function("() => window.ludothekTournament.status === 'over'", timeout=30_000)
    view = page.evaluate("() => window.ludothekTournament")
    assert len(view["games"]) == 6 and all(g["score"] == 1 for g in view["games"])
    table = {s["player"]: s["points"] for s in view["standings"]}
    assert table == {name: lichess_points(view["games"], name) for name in names}
    assert max(table.values()) >= 4 and sum(s["games"] for s in view["standings"]) == 12
    assert "over" in page.inner_text("#tour-status") or "beendet" in page.inner_text("#tour-status")
    shot(page, "tournament-arena-over")


def test_berserk_on_the_game_page_is_pushed_to_the_game_and_the_tournament_page(browser, server):
    bob = Player(server, "kbob")
    tid = bob.post("/api/tournaments", {"kind": "arena", "game": GAME, "minutes": 30,
                                        "clock": {"minutes": 3, "increment": 2}})["id"]
    bob.post(f"/api/tournaments/{tid}/join")
    with checked_page(browser) as ann, checked_page(browser) as watcher, checked_page(browser) as standings:
        log_in(ann, server, "kann", PASSWORD, signup=True)
        ann.goto(f"{server}/tournaments/{tid}")
        ann.click("#tour-join")
        ann.wait_for_selector("#tour-withdraw")
        (game,) = [g for g in bob.post(f"/api/tournaments/{tid}/start")["games"] if g["score"] is None]
        seat = [game["first"], game["second"]].index("kann")
        watcher.goto(f"{server}/play/{game['game']}")
        watcher.wait_for_selector("#status")
        assert watcher.locator("#berserk").count() == 0  # a spectator has no button
        standings.goto(f"{server}/tournaments/{tid}")
        standings.wait_for_selector("#tour-games li.tour-game")
        ann.goto(f"{server}/play/{game['game']}")
        ann.wait_for_selector("#berserk")
        assert ann.inner_text("#game-event a") == "Trike Arena"  # links to the tournament
        assert serious_violations(ann, axe_source()) == []
        ann.click("#berserk")  # the confirmation is accepted
        ann.wait_for_selector(f"#berserk-{seat}")
        assert ann.locator("#berserk").count() == 0  # once only
        # pushed: the spectator's game page and the tournament page show it without a reload
        watcher.wait_for_selector(f"#berserk-{seat}")
        assert "kann" in watcher.inner_text(f"#berserk-{seat}")
        standings.wait_for_function(f"() => window.ludothekTournament.games[0].berserk[{seat}] === true")
        assert "⚔" in standings.inner_text("#tour-games")
        shot(ann, "tournament-berserk")
        # the berserk player wins: 3 points in the standings
        bob.post(f"/api/games/{game['game']}/resign")
        standings.wait_for_function("() => window.ludothekTournament.standings[0].points === 3")
        assert standings.evaluate("() => window.ludothekTournament.standings[0].player") == "kann"
        # the end of a tournament game offers no rematch: the tournament pairs the next games
        ann.wait_for_selector("#end-actions")
        assert ann.locator("#end-rematch").count() == 0 and ann.locator("#rematch").count() == 0


@pytest.fixture()
def two_on_postgres(postgres_url):
    """Servers A and B on one PostgreSQL database (as behind a load balancer): their base URLs."""
    pytest.importorskip("psycopg")
    started = []
    try:
        for _ in range(2):
            started.append(Server(postgres_url, *ONE_PROCESS, "--bots", "thread", "--rate-limits", "off"))
        yield [s.base for s in started]
    finally:
        for s in started:
            s.stop()


def test_a_tournament_page_on_server_b_shows_what_players_do_on_server_a(page, two_on_postgres):
    a, b = two_on_postgres
    players = {name: Player(a, name) for name in ("pgann", "pgbob", "pgcid")}
    tid = players["pgann"].post("/api/tournaments", {"kind": "swiss", "game": GAME, "rounds": 1,
                                                     "name": "Two servers"})["id"]
    players["pgann"].post(f"/api/tournaments/{tid}/join")
    page.goto(f"{b}/tournaments/{tid}")
    page.wait_for_selector("#tour-standings")
    assert page.locator("#tour-standings tbody tr").count() == 1
    # a player joins on A: B's page shows him without a reload
    players["pgbob"].post(f"/api/tournaments/{tid}/join")
    page.wait_for_function("() => window.ludothekTournament.players.length === 2")
    assert "pgbob" in page.inner_text("#tour-standings")
    # the start and a result on A: B's page shows the game, then its result and the tournament over
    players["pgcid"].post(f"/api/tournaments/{tid}/join")
    view = players["pgann"].post(f"/api/tournaments/{tid}/start")
    page.wait_for_selector("#tour-games li.tour-game")
    (game,) = [g for g in view["games"] if g["second"] is not None]
    players[game["second"]].post(f"/api/games/{game['game']}/resign")
    page.wait_for_function("() => window.ludothekTournament.status === 'over'")
    assert "1–0" in page.inner_text("#tour-games")
    table = page.evaluate("() => window.ludothekTournament.standings")
    assert {s["player"]: s["score"] for s in table}[game["first"]] == 1
