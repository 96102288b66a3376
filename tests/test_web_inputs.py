"""Issue 30, items 7 and 8: option names and values from clients are checked against the game's
declared options everywhere (a 400 naming the option, never a 500), a 500 that still happens
carries the hardening headers, and asking for analyses is rate limited with a bounded queue."""

from __future__ import annotations

import threading
import time
import warnings

import argon2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.responses import PlainTextResponse
from starlette.routing import Route

import ludothek
from click.testing import CliRunner
from ludothek.cli import main
from ludothek.core.errors import OptionError, RecordError
from ludothek.core.options import checked
from ludothek.core.record import Record, dumps
from ludothek.core.registry import game_class
from ludothek.web import analysis, bots, create_app
from ludothek.web.guard import CSP, HardenedStarlette

HARDENING = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "x-frame-options": "DENY",
             "referrer-policy": "same-origin"}
#: names that collide with the parameters of the constructors an option reaches
COLLIDING = ("position", "self", "name", "options", "cls")
#: Trike, Black to move: a1 wins at once (two plies end the game: d4, c3)
TRIKE_CHOICE = "1/bW/ww1/bwb1/1bbw1/2wbw1/5b1 b"


def addressed(app):
    """``app`` as reached from the address in a request's ``X-Test-Address`` header (the test
    client has one address of its own), for limits per address."""
    async def wrapper(scope, receive, send):
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            if b"x-test-address" in headers:
                scope = {**scope, "client": (headers[b"x-test-address"].decode(), 5000)}
        await app(scope, receive, send)
    wrapper.state = app.state
    return wrapper


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("inputs") / "inputs.sqlite3")
    with TestClient(create_app(db, bot_executor="thread", rate_limits="off", warm=False)) as client:
        yield client


def refused(response, *fragments):
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    for fragment in fragments:
        assert fragment in message, message
    return response.json()


# ---------------------------------------------------------------------------- the core
def test_typed_values_refuse_text_but_text_is_read_from_text():
    hexalit = game_class("hexalit").OPTIONS
    trike = game_class("trike").OPTIONS
    with pytest.raises(OptionError, match="option 'cube' must be true or false given as a JSON boolean"):
        checked("hexalit", hexalit, {"cube": "yes"}, from_text=False)
    with pytest.raises(OptionError, match="option 'size' must be a whole number given as a JSON number"):
        checked("trike", trike, {"size": "9"}, from_text=False)
    assert checked("trike", trike, {"size": 9}, from_text=False) == {"size": 9}
    assert checked("hexalit", hexalit, {"cube": "yes", "first": "Black"}) == {"cube": True, "first": "black"}
    assert checked("trike", trike, {}) == {}  # only what was given: defaults are the state's business


@pytest.mark.parametrize("name", [n for n in COLLIDING if n != "position"])  # position is the API's own
def test_the_python_api_names_an_unknown_option_clearly(name):
    with pytest.raises(OptionError, match=f"trike has no option '{name}' \\(its options: size\\)"):
        ludothek.new_game("trike", **{name: 1})
    with pytest.raises(OptionError, match=f"trike has no option '{name}'"):
        game_class("trike")(None, **{name: 1})
    assert ludothek.new_game("trike", size=7).options == {"size": 7}
    assert ludothek.new_game("trike", size="9").options == {"size": 9}  # Python reads text as before


@pytest.mark.parametrize("name", COLLIDING)
def test_a_record_names_an_unknown_option_clearly(name):
    record = Record("trike", options={name: "x"}, moves=["c1"])
    with pytest.raises(OptionError, match=f"trike has no option '{name}'"):
        record.replay()
    with pytest.raises(RecordError, match=f"trike has no option '{name}'"):
        dumps(record)


def test_the_command_line_still_reads_options_as_text():
    result = CliRunner().invoke(main, ["moves", "trike", "-o", "size=9"], catch_exceptions=False)
    assert result.exit_code == 0 and result.output.split() == ludothek.new_game("trike", size=9).legal_moves()


# ---------------------------------------------------------------------------- the web
@pytest.mark.parametrize("name", COLLIDING)
def test_preview_and_geometry_refuse_undeclared_names(client, name):
    refused(client.get("/api/preview", params={"game": "trike", f"o.{name}": "1"}), f"no option '{name}'", "size")
    if name != "position":  # geometry's own parameter
        refused(client.get("/api/geometry/trike", params={name: "1"}), f"no option '{name}'")
    german = client.get("/api/preview", params={"game": "trike", f"o.{name}": "1"}, headers={"Accept-Language": "de"})
    assert german.status_code == 400 and "hat keine Option" in german.json()["error"]


def test_preview_and_geometry_read_their_text_options(client):
    preview = client.get("/api/preview", params={"game": "trike", "o.size": "9"})
    assert preview.status_code == 200 and preview.json()["geometry"] == client.get("/api/geometry/trike?size=9").json()
    assert client.get("/api/preview", params={"game": "hexalit", "o.cube": "yes"}).status_code == 200
    refused(client.get("/api/geometry/trike?size=nine"), "'size' must be a whole number")


@pytest.mark.parametrize(("game", "options", "fragments", "key"), [
    ("hexalit", {"cube": "yes"}, ("'cube'", "true or false"), "core.option_bool_typed"),
    ("trike", {"size": "9"}, ("'size'", "whole number"), "core.option_int_typed"),
    ("trigeo", {"max_plies": "100"}, ("'max_plies'", "whole number"), "core.option_int_typed"),
    ("trike", {"size": 9.0}, ("'size'", "whole number"), "core.option_int"),
    ("trike", {"size": True}, ("'size'", "whole number"), "core.option_int"),
    ("hexalit", {"cube": 1}, ("'cube'", "true or false"), "core.option_bool"),
    ("trigeo", {"first": ["white"]}, ("'first'", "text"), "core.option_text"),
    *[("trike", {name: 1}, (f"no option '{name}'",), "core.option_unknown") for name in COLLIDING],
])
def test_create_and_seek_refuse_loose_or_unknown_options(client, game, options, fragments, key):
    body = {"game": game, "options": options}
    assert refused(client.post("/api/games", json=body), *fragments)["key"] == key
    assert refused(client.post("/api/seeks", json={**body, "clock": None}), *fragments)["key"] == key


def test_the_typed_error_in_german(client):
    answer = client.post("/api/games", json={"game": "trike", "options": {"size": "9"}},
                         headers={"Accept-Language": "de"})
    assert answer.status_code == 400 and "als JSON-Zahl" in answer.json()["error"]


def test_typed_options_still_make_games_and_rematches(client):
    created = client.post("/api/games", json={"game": "hexalit", "options": {"cube": True, "max_plies": 50}})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    assert client.get(f"/api/games/{game_id}").json()["game"]["options"]["cube"] is True
    assert client.post(f"/api/games/{game_id}/resign", json={"token": token, "seat": 0}).status_code == 200
    rematch = client.post(f"/api/games/{game_id}/rematch", json={"token": token})
    assert rematch.status_code == 200, rematch.text
    assert client.get(f"/api/games/{rematch.json()['id']}").json()["game"]["options"]["max_plies"] == 50


NAMES = st.one_of(st.sampled_from(("size", "cube", "first", "max_plies", *COLLIDING, "__class__", "")),
                  st.text(max_size=12))
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                           max_leaves=6)
GAMES = st.sampled_from(("trike", "trigeo", "hexalit", "bitis"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=GAMES, options=st.dictionaries(NAMES, st.text(max_size=12), max_size=3))
def test_random_text_options_on_preview_and_geometry_never_500(client, game, options):
    preview = client.get("/api/preview", params={"game": game, **{f"o.{k}": v for k, v in options.items()}})
    geometry = client.get(f"/api/geometry/{game}", params=options)
    for answer in (preview, geometry):
        assert answer.status_code in (200, 400), answer.text
        assert answer.status_code == 200 or answer.json()["error"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=GAMES, options=st.dictionaries(NAMES, JSON_VALUES, max_size=3))
def test_random_json_options_on_create_never_500(client, game, options):
    answer = client.post("/api/games", json={"game": game, "options": options})
    assert answer.status_code in (201, 400), answer.text
    if answer.status_code == 400:
        assert answer.json()["error"]
    else:  # what was accepted was typed as the game declares it
        declared = {o.name: o.type for o in game_class(game).OPTIONS}
        stored = client.get(f"/api/games/{answer.json()['id']}").json()["game"]["options"]
        assert all(type(stored[name]) is declared[name] for name in declared)


# ---------------------------------------------------------------------------- a 500
def test_a_500_from_a_tiny_hardened_app_carries_the_headers():
    async def boom(request):
        raise RuntimeError("a bug")

    app = HardenedStarlette(routes=[Route("/boom", boom), Route("/ok", lambda r: PlainTextResponse("ok"))])
    with TestClient(app, raise_server_exceptions=False) as tiny:
        for path in ("/boom", "/ok"):
            answer = tiny.get(path)
            assert answer.status_code == (500 if path == "/boom" else 200)
            assert {name: answer.headers.get(name) for name in HARDENING} == HARDENING


def test_a_500_of_the_app_is_json_in_the_client_language_with_the_headers(tmp_path):
    async def boom(request):
        raise RuntimeError("a bug")

    app = create_app(str(tmp_path / "boom.sqlite3"), bot_executor="thread", rate_limits="off", warm=False)
    app.router.routes.insert(0, Route("/api/boom", boom))
    with TestClient(app, raise_server_exceptions=False) as broken:
        answer = broken.get("/api/boom")
        assert answer.status_code == 500 and answer.json()["key"] == "web.internal"
        assert {name: answer.headers.get(name) for name in HARDENING} == HARDENING
        german = broken.get("/api/boom", headers={"Accept-Language": "de"})
        assert german.status_code == 500 and "bitte versuche es erneut" in german.json()["error"]


# ---------------------------------------------------------------------------- analyses
@pytest.fixture()
def held(monkeypatch):
    """Analyses wait until the test sets this event (at the end at the latest)."""
    release = threading.Event()
    compute = bots.compute_review

    def waiting(args):
        release.wait(120)
        return compute(args)

    monkeypatch.setattr(bots, "compute_review", waiting)
    yield release
    release.set()


def finished_trike(client):
    created = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed",
                                              "position": TRIKE_CHOICE}).json()
    for move in ("d4", "c3"):
        client.post(f"/api/games/{created['id']}/move", json={"token": created["token"], "move": move})
    return created["id"]


def analysis_app(tmp_path, limits):
    hasher = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return create_app(str(tmp_path / "analysis.sqlite3"), bot_executor="thread", rate_limits=limits, warm=False,
                      login_limits="off", password_hasher=hasher)


def test_analysis_requests_are_limited_per_address_and_per_account(tmp_path, held):
    with TestClient(addressed(analysis_app(tmp_path, "analysis=2/minute"))) as client:
        game_id = finished_trike(client)
        url = f"/api/games/{game_id}/analysis"
        a = {"X-Test-Address": "10.0.0.1"}
        assert [client.post(url, headers=a).status_code for _ in range(2)] == [202, 202]
        over = client.post(url, headers=a)
        assert over.status_code == 429 and 1 <= int(over.headers["retry-after"]) <= 60
        assert over.json()["key"] == "web.too_many_analysis" and "at most 2 per 1 minute" in over.json()["error"]
        assert client.get(url, headers=a).status_code == 200  # looking at the progress is not limited
        # an account is counted wherever it asks from
        me = client.post("/api/signup", json={"name": "alice", "password": "a long enough secret"},
                         headers={"X-Test-Address": "10.0.0.2"})
        assert me.status_code == 201, me.text
        session = {"X-CSRF-Token": me.json()["csrf"]}
        for address, status in (("10.0.0.3", 202), ("10.0.0.4", 202), ("10.0.0.5", 429)):
            answer = client.post(url, headers={**session, "X-Test-Address": address})
            assert answer.status_code == status, answer.text
        assert "Konto" in client.post(url, headers={**session, "X-Test-Address": "10.0.0.6",
                                                    "Accept-Language": "de"}).json()["error"]
        client.cookies.clear()  # the same new address as a guest: its own count
        assert client.post(url, headers={"X-Test-Address": "10.0.0.5"}).status_code == 202


def test_a_full_analysis_queue_answers_503_with_retry_after(tmp_path, held, monkeypatch):
    monkeypatch.setattr(analysis, "MAX_WAITING", 2)
    with TestClient(addressed(analysis_app(tmp_path, "off"))) as client:
        games = [finished_trike(client) for _ in range(3)]
        for index, game_id in enumerate(games[:2]):  # two clients, one analysis each
            answer = client.post(f"/api/games/{game_id}/analysis", headers={"X-Test-Address": f"10.0.1.{index}"})
            assert answer.status_code == 202, answer.text
        full = client.post(f"/api/games/{games[2]}/analysis", headers={"X-Test-Address": "10.0.1.9"})
        assert full.status_code == 503 and full.headers["retry-after"] == str(analysis.FULL_RETRY_AFTER)
        assert full.json()["key"] == "analysis.queue_full" and "2 analyses" in full.json()["error"]
        assert client.get(f"/api/games/{games[2]}/analysis").json()["status"] == "none"  # nothing was queued
        assert client.post(f"/api/games/{games[0]}/analysis").status_code == 202  # a queued one: its progress
        held.set()
        deadline = time.monotonic() + 120
        while any(client.get(f"/api/games/{g}/analysis").json()["status"] != "done" for g in games[:2]):
            assert time.monotonic() < deadline, "the held analyses did not finish"
            time.sleep(0.05)
        assert client.post(f"/api/games/{games[2]}/analysis").status_code in (200, 202)
