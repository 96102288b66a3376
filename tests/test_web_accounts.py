"""Accounts (issue 11, part A): sign up, log in and out, the session cookie, CSRF, seats that
follow the account to another device, names in views and records, login throttling; on SQLite
and PostgreSQL. Security: another account cannot move your seat, read your session or forge
your CSRF token; a name with HTML stays text."""

from __future__ import annotations

import hashlib
import re
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
argon2 = pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sqlalchemy import select, update

from ludothek.web import create_app
from ludothek.web.accounts import PASSWORD_MIN, SESSION_SECONDS, common_passwords
from ludothek.web.guard import SESSION_COOKIE, csrf_for
from ludothek.web.store import sessions_table, users_table

#: cheap parameters: these tests check the logic, not the cost (one test checks the defaults)
FAST = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
DE = {"Accept-Language": "de-DE,de;q=0.9"}
PASSWORD = "correct horse battery"


@pytest.fixture()
def app(db_url):
    return create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off", warm=False,
                      password_hasher=FAST)


@pytest.fixture()
def client(app):
    with TestClient(app) as test_client:
        yield test_client


class Device:
    """One browser on the shared test client: its own session cookie and CSRF token (the
    client's cookie jar is emptied around every request, so devices never share one)."""

    def __init__(self, client):
        self.client = client
        self.session: str | None = None
        self.csrf: str | None = None
        self.cookie_headers: list[str] = []

    def request(self, method, path, csrf=True, headers=None, **kwargs):
        headers = dict(headers or {})
        if self.session:
            headers["Cookie"] = f"{SESSION_COOKIE}={self.session}"
        if csrf and self.csrf and method != "GET":
            headers.setdefault("X-CSRF-Token", self.csrf)
        self.client.cookies.clear()
        response = self.client.request(method, path, headers=headers, **kwargs)
        self.client.cookies.clear()
        self.cookie_headers = response.headers.get_list("set-cookie")
        for raw in self.cookie_headers:
            name, _, rest = raw.partition("=")
            if name == SESSION_COOKIE:
                value = rest.split(";")[0].strip('"')
                gone = "max-age=0" in raw.lower() or not value
                self.session = None if gone else value
        if response.headers.get("content-type", "").startswith("application/json"):
            data = response.json()
            if isinstance(data, dict) and "csrf" in data and response.status_code < 300:
                self.csrf = data["csrf"]
        return response

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request("POST", path, json=json if json is not None else {}, **kwargs)

    def signup(self, name, password=PASSWORD, status=201):
        response = self.post("/api/signup", {"name": name, "password": password})
        assert response.status_code == status, response.text
        return response

    def login(self, name, password=PASSWORD, status=200):
        response = self.post("/api/login", {"name": name, "password": password})
        assert response.status_code == status, response.text
        return response

    def me(self):
        return self.get("/api/me").json()


def new_game(device, **spec):
    spec = {"game": "trike", "options": {"size": 7}, "start": "fixed", **spec}
    response = device.post("/api/games", spec)
    assert response.status_code == 201, response.text
    return response.json()


def legal(view):
    return view["moves"][0]["move"]


# ---------------------------------------------------------------------------- signing up, in and out
def test_sign_up_log_out_and_in_again(client):
    alice = Device(client)
    assert alice.me() == {"user": None, "csrf": None, "your_turn": 0}
    answer = alice.signup("Alice").json()
    assert answer["user"] == {"name": "Alice"} and answer["csrf"] == csrf_for(alice.session)
    assert alice.me() == {"user": {"name": "Alice"}, "csrf": alice.csrf, "your_turn": 0}
    first = alice.session
    assert alice.post("/api/logout").status_code == 200
    assert alice.session is None and alice.me()["user"] is None
    # the ended session stays ended, even for a copy of the cookie
    stolen = Device(client)
    stolen.session = first
    assert stolen.me()["user"] is None and stolen.session is None  # and the browser is told to forget it
    # names are unique regardless of case, and log in regardless of case
    assert alice.login("alice").json()["user"] == {"name": "Alice"}
    assert alice.session != first  # every login is a new session


def test_the_cookie_is_httponly_samesite_lax_and_secure_only_over_https(app, client):
    alice = Device(client)
    alice.signup("alice")
    cookie = alice.cookie_headers[0]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "path", "max-age", "samesite"} <= flags
    assert "samesite=lax" in cookie.lower() and "secure" not in flags
    # a forged X-Forwarded-Proto from the client does not count: only a proxy trusted by uvicorn (--proxy)
    forged = Device(client).post("/api/login", {"name": "alice", "password": PASSWORD},
                                 headers={"X-Forwarded-Proto": "https"})
    assert "secure" not in forged.headers["set-cookie"].lower()
    secure = TestClient(app, base_url="https://testserver")  # the lifespan already runs in `client`
    response = secure.post("/api/login", json={"name": "alice", "password": PASSWORD})
    assert response.status_code == 200
    assert "; secure" in response.headers["set-cookie"].lower()


@pytest.mark.parametrize("name", ["ab", "a" * 21, "<b>bold</b>", "two words", "ünïcode", "semi;colon", "", "a/b"])
def test_bad_user_names_are_refused(client, name):
    response = Device(client).post("/api/signup", {"name": name, "password": PASSWORD})
    assert response.status_code == 400 and response.json()["key"] == "web.name_rule", response.text
    assert "3 to 20 characters" in response.json()["error"]


def test_the_rules_of_passwords(client):
    guest = Device(client)
    cases = [("short7!", "web.password_short"), ("password1", "web.password_common"),
             ("12345678", "web.password_common"), ("QWERTY123", "web.password_common"),
             ("Mallory-99", "web.password_name"), ("x" * 257, "web.password_long")]
    for password, key in cases:
        response = guest.post("/api/signup", {"name": "mallory-99", "password": password})
        assert response.status_code == 400 and response.json()["key"] == key, (password, response.text)
    german = guest.post("/api/signup", {"name": "mallory", "password": "password1"}, headers=DE)
    assert german.json()["error"] == "dieses Passwort gehört zu den häufigsten: wähle ein anderes"
    assert guest.post("/api/signup", {"name": "mallory", "password": 12345678}).json()["key"] == "web.account_fields"
    assert len(common_passwords()) >= 100 and PASSWORD_MIN == 8
    guest.signup("mallory", "x" * 8 + "yz")
    taken = Device(client).post("/api/signup", {"name": "MALLORY", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["key"] == "web.name_taken"


def test_a_wrong_password_or_an_unknown_name_is_one_answer(client):
    Device(client).signup("carol")
    wrong = Device(client).post("/api/login", {"name": "carol", "password": "not her password"})
    unknown = Device(client).post("/api/login", {"name": "nobody-here", "password": "not her password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong user name or password", "key": "web.login_wrong"}
    assert SESSION_COOKIE not in wrong.headers.get("set-cookie", "")


def test_passwords_are_argon2id_hashes_and_rehashed_when_the_parameters_change(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", warm=False)  # argon2-cffi's defaults
    with TestClient(app) as client:
        Device(client).signup("dave")
        store = app.state.store
        stored = _user(store, "dave")["password"]
        assert stored.startswith("$argon2id$") and PASSWORD not in stored
        assert not app.state.accounts.hasher.check_needs_rehash(stored)
        app.state.accounts.hasher = argon2.PasswordHasher(time_cost=1, memory_cost=2048, parallelism=1)
        Device(client).login("dave")
        rehashed = _user(store, "dave")["password"]
        assert rehashed != stored and "m=2048,t=1,p=1" in rehashed
        Device(client).login("dave")  # the new hash checks the same password


def _user(store, name):
    with store.engine.connect() as conn:
        return conn.execute(select(users_table).where(users_table.c.name_key == name.lower())).mappings().first()


# ---------------------------------------------------------------------------- CSRF
def test_csrf_is_needed_with_the_cookie_and_not_without(client):
    alice = Device(client)
    alice.signup("alice")
    spec = {"game": "trike", "options": {"size": 7}, "start": "fixed"}
    missing = alice.post("/api/games", spec, csrf=False)
    assert missing.status_code == 403 and missing.json()["key"] == "web.csrf"
    assert "X-CSRF-Token" in missing.json()["error"]
    assert alice.post("/api/games", spec, csrf=False, headers=DE).json()["error"].startswith("diese Anfrage braucht")
    forged = alice.post("/api/games", spec, headers={"X-CSRF-Token": "0" * 64})
    assert forged.status_code == 403
    assert alice.post("/api/logout", csrf=False).status_code == 403  # logging out is a change too
    created = new_game(alice)
    # the seat token alone, as an API client sends it (no cookie): no CSRF token asked
    guest = Device(client)
    game_id, token = created["id"], created["token"]
    moved = guest.post(f"/api/games/{game_id}/move", {"token": token, "move": legal(created["game"])})
    assert moved.status_code == 200, moved.text
    assert new_game(guest)["token"]
    # reading needs none either
    assert alice.get(f"/api/games/{game_id}").status_code == 200


def test_login_and_signup_only_from_pages_of_this_site(client):
    Device(client).signup("erin")
    body = {"name": "erin", "password": PASSWORD}
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "null"}, {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"}):
        refused = Device(client).post("/api/login", body, headers=headers)
        assert refused.status_code == 403 and refused.json()["key"] == "web.cross_site", headers
        assert Device(client).post("/api/signup", {"name": "eve", "password": PASSWORD},
                                   headers=headers).status_code == 403
    for headers in ({"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin", "Origin": "http://x"}, {}):
        assert Device(client).post("/api/login", body, headers=headers).status_code == 200, headers


# ---------------------------------------------------------------------------- seats follow the account
def test_a_second_device_continues_the_same_game(client):
    phone, laptop = Device(client), Device(client)
    phone.signup("alice")
    created = new_game(phone, opponent="friend", seat=0)
    game_id = created["id"]
    assert created["game"]["seats"][0] == {"kind": "human", "name": "alice"}
    friend = Device(client)
    joined = friend.post(f"/api/games/{game_id}/join", {"invite": created["invite"]}).json()
    moved = phone.post(f"/api/games/{game_id}/move", {"token": created["token"], "move": legal(joined["game"])})
    assert moved.status_code == 200
    friend_move = friend.post(f"/api/games/{game_id}/move", {"token": joined["token"],
                                                            "move": legal(moved.json()["game"])})
    assert friend_move.status_code == 200
    # the laptop holds no token: the account is enough
    laptop.login("alice")
    seen = laptop.get(f"/api/games/{game_id}").json()
    assert seen["you"] == [0] and seen["game"]["seats"][0]["name"] == "alice"
    answer = laptop.post(f"/api/games/{game_id}/move", {"move": legal(seen["game"])})
    assert answer.status_code == 200, answer.text
    assert answer.json()["you"] == [0] and answer.json()["game"]["plies"] == 3
    # the websocket of the laptop's page: auth without a token gets the account's seat
    laptop.client.cookies.clear()
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"Cookie": f"{SESSION_COOKIE}={laptop.session}"}) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "auth"})
        state = ws.receive_json()
        assert state["type"] == "state" and state["you"] == [0]
    # the account's games, for finding them on another device
    mine = laptop.get("/api/games?mine=1").json()["games"]
    assert [g["id"] for g in mine] == [game_id] and mine[0]["seats"][0]["name"] == "alice"
    assert Device(client).get("/api/games?mine=1").json()["key"] == "web.login_needed"


def test_another_account_cannot_move_your_seat_nor_use_your_session(client):
    alice, bob = Device(client), Device(client)
    alice.signup("alice")
    bob.signup("bob")
    created = new_game(alice, opponent="bot", seat=0, bot="random")
    game_id = created["id"]
    # bob: no seat there, whatever he sends
    assert bob.get(f"/api/games/{game_id}").json()["you"] == []
    refused = bob.post(f"/api/games/{game_id}/move", {"move": legal(created["game"])})
    assert refused.status_code == 403 and refused.json()["key"] == "web.no_seat_yours"
    assert bob.post(f"/api/games/{game_id}/resign", {"seat": 0}).status_code == 403
    own = new_game(bob)  # his own token does not open her game either
    assert bob.post(f"/api/games/{game_id}/move", {"token": own["token"], "move": "c1"}).status_code == 403
    # his page cannot take her seat by claiming it
    assert bob.post("/api/me/games", {"games": [{"id": game_id, "token": own["token"]}]}).json()["claimed"] == []
    # nothing he is answered holds her session or its token
    texts = [bob.get(path).text for path in (f"/api/games/{game_id}", "/api/games", "/api/me",
                                             f"/api/games/{game_id}/record")]
    assert not any(alice.session in text or alice.csrf in text for text in texts)
    assert bob.me()["user"] == {"name": "bob"} and bob.csrf != alice.csrf
    # her CSRF token with his cookie is refused
    forged = bob.post(f"/api/games/{game_id}/resign", {}, headers={"X-CSRF-Token": alice.csrf})
    assert forged.status_code == 403 and forged.json()["key"] == "web.csrf"
    # the database keeps a digest of the session, not the cookie's secret
    with client.app.state.store.engine.connect() as conn:
        ids = {r[0] for r in conn.execute(select(sessions_table.c.id))}
    assert hashlib.sha256(alice.session.encode()).hexdigest() in ids and alice.session not in ids
    # a websocket opened by another site's page gets no session (no cross-site websocket hijacking)
    client.cookies.clear()
    headers = {"Cookie": f"{SESSION_COOKIE}={alice.session}", "Origin": "https://evil.example"}
    with client.websocket_connect(f"/ws/games/{game_id}", headers=headers) as ws:
        ws.receive_json()
        ws.send_json({"type": "auth"})
        assert ws.receive_json()["key"] == "web.auth_token"
        ws.send_json({"type": "resign"})
        assert ws.receive_json()["status"] == 401
    assert alice.get(f"/api/games/{game_id}").json()["game"]["status"] == "ongoing"


def test_a_guest_keeps_the_games_of_his_browser_when_he_signs_up(client):
    browser = Device(client)
    local = new_game(browser)
    online = new_game(browser, opponent="friend", seat=1)
    other = Device(client)
    taken = new_game(other, opponent="friend", seat=0)
    other.signup("olga")
    other.post("/api/me/games", {"games": [{"id": taken["id"], "token": taken["token"]}]})
    browser.signup("gus")
    claims = [{"id": local["id"], "token": local["token"]}, {"id": online["id"], "token": online["token"]},
              {"id": taken["id"], "token": taken["token"]},  # olga's seat stays olga's
              {"id": "no-such-game", "token": "x"}, {"id": online["id"], "token": "wrong"}]
    claimed = browser.post("/api/me/games", {"games": claims}).json()["claimed"]
    assert claimed == [{"id": local["id"], "seats": [0, 1]}, {"id": online["id"], "seats": [1]}]
    assert browser.post("/api/me/games", {"games": claims}).json()["claimed"] == []  # once is enough
    elsewhere = Device(client)
    elsewhere.login("gus")
    assert elsewhere.get(f"/api/games/{local['id']}").json()["you"] == [0, 1]
    view = elsewhere.get(f"/api/games/{online['id']}").json()
    assert view["you"] == [1] and view["game"]["seats"][1] == {"kind": "human", "name": "gus"}
    # a hot-seat game is one screen's: the account owns both seats, which keep their numbers
    assert elsewhere.get(f"/api/games/{local['id']}").json()["game"]["seats"] == [{"kind": "human"}] * 2
    assert {g["id"] for g in elsewhere.get("/api/games?mine=1").json()["games"]} == {local["id"], online["id"]}
    assert Device(client).get(f"/api/games/{taken['id']}").json()["game"]["seats"][0]["name"] == "olga"
    for bad in ({"games": "x"}, {"games": [1]}, {"games": [{"id": "a", "token": "b"}] * 101}, {}):
        response = browser.post("/api/me/games", bad)
        assert response.status_code == 400 and response.json()["key"] == "web.claims_list", bad
    assert Device(client).post("/api/me/games", {"games": []}).status_code == 401


def test_names_in_the_view_the_archive_and_the_record(client):
    alice, bob = Device(client), Device(client)
    alice.signup("alice")
    bob.signup("bob")
    created = new_game(alice, opponent="friend", seat=0)
    game_id = created["id"]
    assert bob.post(f"/api/games/{game_id}/join", {"invite": created["invite"]}).status_code == 200
    assert alice.post(f"/api/games/{game_id}/resign", {}).status_code == 200
    view = alice.get(f"/api/games/{game_id}").json()["game"]
    assert [s.get("name") for s in view["seats"]] == ["alice", "bob"]
    listed = {g["id"]: g for g in Device(client).get("/api/games?status=over").json()["games"]}
    assert [s["name"] for s in listed[game_id]["seats"]] == ["alice", "bob"]
    record = Device(client).get(f"/api/games/{game_id}/record").text
    colours = view["colours"]
    assert f'[{colours[0].capitalize()} "alice"]' in record and f'[{colours[1].capitalize()} "bob"]' in record
    # the rematch: the seats change colours and stay with their accounts; bob on another device
    # is sent to it without a token
    rematch = alice.post(f"/api/games/{game_id}/rematch", {}).json()
    bob_laptop = Device(client)
    bob_laptop.login("bob")
    again = bob_laptop.post(f"/api/games/{game_id}/rematch", {})
    assert again.status_code == 200 and again.json()["id"] == rematch["id"]
    new_view = bob_laptop.get(f"/api/games/{rematch['id']}").json()
    assert [s.get("name") for s in new_view["game"]["seats"]] == ["bob", "alice"]
    assert new_view["you"] == [0] and new_view["game"]["status"] == "ongoing"


def test_a_name_with_html_is_data_in_json_and_text_in_records(client):
    """Signing up refuses such a name; one that got into the database another way (an older
    rule, an operator) reaches JSON clients as the string it is, and the pages show it as text
    (tests/test_web_accounts_browser.py)."""
    name = '<img src=x onerror="alert(1)">'
    accounts = client.app.state.accounts
    accounts._insert_user(name, FAST.hash(PASSWORD))
    sneaky = Device(client)
    sneaky.login(name)
    created = new_game(sneaky, opponent="bot", bot="random", seat=0)
    response = sneaky.get(f"/api/games/{created['id']}")
    assert response.headers["content-type"] == "application/json"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.json()["game"]["seats"][0]["name"] == name
    record = sneaky.get(f"/api/games/{created['id']}/record")
    assert record.headers["content-type"].startswith("text/plain")
    assert "attachment" in record.headers["content-disposition"]
    assert '"<img src=x onerror=\\"alert(1)\\">"' in record.text  # quoted the record's way
    assert sneaky.me()["user"]["name"] == name


# ---------------------------------------------------------------------------- throttling, disabled accounts, expiry
def test_failed_logins_are_throttled_per_account_and_per_address(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", warm=False, password_hasher=FAST,
                     login_limits="account=3/minute;login=5/minute")
    with TestClient(app) as client:
        Device(client).signup("frank")
        for _ in range(3):
            Device(client).login("frank", "wrong password", status=401)
        blocked = Device(client).post("/api/login", {"name": "frank", "password": PASSWORD})  # even the right one
        assert blocked.status_code == 429 and blocked.json()["key"] == "web.too_many_account"
        assert 1 <= int(blocked.headers["retry-after"]) <= 60
        assert "too many failed logins for this account: at most 3 per 1 minute" in blocked.json()["error"]
        german = Device(client).post("/api/login", {"name": "FRANK", "password": PASSWORD}, headers=DE)
        assert german.status_code == 429 and german.json()["error"].startswith("zu viele gescheiterte Anmeldungen")
        # from another address too: the limit is the account's
        elsewhere = Device(TestClient(app, client=("10.0.0.2", 5000)))
        assert elsewhere.post("/api/login", {"name": "frank", "password": PASSWORD}).status_code == 429
        # the address's own limit: two more failures with other names make five
        Device(client).signup("grace")
        for name in ("grace", "nobody"):
            Device(client).login(name, "wrong password", status=401)
        throttled = Device(client).post("/api/login", {"name": "grace", "password": PASSWORD})
        assert throttled.status_code == 429 and throttled.json()["key"] == "web.too_many_login"
        assert elsewhere.login("grace").status_code == 200  # another address may


def test_signups_per_address_are_limited(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", warm=False, password_hasher=FAST,
                     login_limits="signup=2/hour")
    with TestClient(app) as client:
        Device(client).signup("one")
        Device(client).signup("two")
        refused = Device(client).post("/api/signup", {"name": "three", "password": PASSWORD})
        assert refused.status_code == 429 and refused.json()["key"] == "web.too_many_signup"


def test_a_disabled_account_cannot_log_in_and_its_sessions_end(client):
    henry = Device(client)
    henry.signup("henry")
    accounts = client.app.state.accounts
    accounts.set_disabled("henry")
    accounts._cache.clear()  # what another server process would see within seconds
    assert henry.me()["user"] is None
    refused = Device(client).post("/api/login", {"name": "henry", "password": PASSWORD})
    assert refused.status_code == 403 and refused.json()["key"] == "web.account_disabled"
    Device(client).login("henry", "wrong password", status=401)  # no hint to a guesser
    accounts.set_disabled("henry", False)
    Device(client).login("henry")


def test_sessions_and_accounts_keep_the_apps_time(db_url):
    now = [2_000_000_000.0]  # 2033: far from the machine's clock
    app = create_app(db_url, bot_executor="thread", rate_limits="off", login_limits="off", warm=False,
                     password_hasher=FAST, clock=lambda: now[0])
    with TestClient(app) as client:
        jack = Device(client)
        jack.signup("jack")
        assert _user(app.state.store, "jack")["created"] == now[0]
        now[0] += SESSION_SECONDS - 60
        app.state.accounts._cache.clear()
        assert jack.me()["user"]["name"] == "jack"  # used a minute before its end: it lasts another 30 days
        now[0] += SESSION_SECONDS - 60
        app.state.accounts._cache.clear()
        assert jack.me()["user"]["name"] == "jack"
        now[0] += SESSION_SECONDS + 1
        app.state.accounts._cache.clear()
        assert jack.me()["user"] is None


def test_an_expired_session_ends(client):
    ivy = Device(client)
    ivy.signup("ivy")
    store = client.app.state.store
    with store.engine.begin() as conn:
        conn.execute(update(sessions_table).values(expires=1.0))
    client.app.state.accounts._cache.clear()
    assert ivy.me()["user"] is None
    assert ivy.session is None  # the browser was told to forget it
    assert re.search(r"max-age=0", ivy.cookie_headers[0], re.IGNORECASE)
