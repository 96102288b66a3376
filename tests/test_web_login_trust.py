"""Trust in accounts (issue 30, items 3-5): the password-hashing queue is fair and bounded (a
flood of failed logins from many addresses cannot stall a login from elsewhere: the flood gets
503 with Retry-After at once, the other login goes first); strangers' failed logins do not
lock out a device that logged in before (its device cookie); a guest seat handed to an account
no longer answers to its guest token."""

from __future__ import annotations

import asyncio
import threading
import time
import warnings

import pytest

httpx = pytest.importorskip("httpx")
argon2 = pytest.importorskip("argon2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ludothek.web import create_app  # noqa: E402
from ludothek.web.devices import DEVICE_COOKIE, DEVICE_PATH, device_cookie, knows_device  # noqa: E402
from ludothek.web.hashqueue import HashQueue, QueueFull  # noqa: E402

from .servers import InProcessServer  # noqa: E402
from .test_web_accounts import FAST, PASSWORD, Device, new_game  # noqa: E402

BOUND = 60.0  # seconds any wait in these tests may take at most (a generous bound, not a timing)


# ---------------------------------------------------------------------------- the queue itself
class Gate:
    """A blocking job for the queue: it records that it began and waits until opened."""

    def __init__(self):
        self.opened = threading.Event()
        self.began: list[str] = []

    def job(self, name: str) -> str:
        self.began.append(name)
        assert self.opened.wait(BOUND), "the gate was never opened"
        return name


async def until(condition, what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, f"waited {BOUND:.0f} s for {what}"
        await asyncio.sleep(0.01)


def test_shares_and_capacity_refuse_at_once_with_a_time_to_retry():
    async def scenario():
        queue, gate = HashQueue(workers=1, capacity=2, address_share=2, account_share=2), Gate()
        first = asyncio.create_task(queue.run("10.0.0.1", "ann", gate.job, "first"))
        second = asyncio.create_task(queue.run("10.0.0.1", "bob", gate.job, "second"))
        await until(lambda: len(gate.began) == 1 and len(queue.waiting) == 1, "one running, one waiting")
        with pytest.raises(QueueFull) as over_address:  # the address's share is two
            await queue.run("10.0.0.1", "cid", gate.job, "third")
        assert over_address.value.status == 503 and over_address.value.retry_after >= 1
        assert over_address.value.key == "web.login_busy"
        third = asyncio.create_task(queue.run("10.0.0.2", "ann", gate.job, "third"))
        await until(lambda: len(queue.waiting) == 2, "the queue full")
        with pytest.raises(QueueFull):  # the account's share is two
            await queue.run("10.0.0.3", "ann", gate.job, "fourth")
        gate.opened.set()
        assert await asyncio.gather(first, second, third) == ["first", "second", "third"]
        assert not queue.waiting and not queue.running

    asyncio.run(scenario())


def test_a_full_queue_keeps_the_least_demanding_address_and_runs_it_first():
    async def scenario():
        queue, gate = HashQueue(workers=1, capacity=3, address_share=3, account_share=9), Gate()
        flood = [asyncio.create_task(queue.run(f"10.0.0.{n % 2}", None, gate.job, f"flood{n}")) for n in range(6)]
        await until(lambda: len(queue.running) == 1 and len(queue.waiting) == 3, "a full queue")
        refused = [task for task in flood if task.done()]
        assert len(refused) == 2 and all(isinstance(task.exception(), QueueFull) for task in refused)
        alone = asyncio.create_task(queue.run("10.9.9.9", None, gate.job, "alone"))
        await until(lambda: len(queue.waiting) == 3 and any(task.done() for task in flood if task not in refused),
                    "a flood job pushed out")
        assert queue.holds(address="10.9.9.9") == 1
        # a newcomer from a flood address asks no less than those waiting: refused at once
        with pytest.raises(QueueFull):
            await queue.run("10.0.0.1", None, gate.job, "again")
        gate.opened.set()
        assert await alone == "alone"
        assert gate.began[1] == "alone"  # next after the job that was running
        await asyncio.gather(*flood, return_exceptions=True)
        assert not queue.waiting and not queue.running

    asyncio.run(scenario())


def test_a_client_that_goes_away_while_waiting_leaves_no_hole():
    async def scenario():
        queue, gate = HashQueue(workers=1, capacity=4), Gate()
        running = asyncio.create_task(queue.run("10.0.0.1", None, gate.job, "running"))
        waiting = asyncio.create_task(queue.run("10.0.0.2", None, gate.job, "gone"))
        later = asyncio.create_task(queue.run("10.0.0.3", None, gate.job, "later"))
        await until(lambda: len(queue.waiting) == 2, "two waiting")
        waiting.cancel()
        gate.opened.set()
        assert await running == "running" and await later == "later"
        assert "gone" not in gate.began and not queue.waiting and not queue.running

    asyncio.run(scenario())


# ---------------------------------------------------------------------------- a flood against a real server
class GatedHasher(argon2.PasswordHasher):
    """Cheap argon2 whose password checks wait at a gate: the test decides when hashing moves
    on, so what it sees of the queue does not depend on the machine's speed."""

    def __init__(self):
        super().__init__(time_cost=1, memory_cost=1024, parallelism=1)
        self.gate = threading.Event()
        self.checked: list[str] = []  # the passwords, in the order their checks began

    def verify(self, hash, password):
        self.checked.append(password)
        assert self.gate.wait(BOUND), "the gate was never opened"
        return super().verify(hash, password)


def test_a_login_flood_from_40_addresses_gets_503_and_an_unrelated_login_goes_first(tmp_path):
    hasher = GatedHasher()
    server = InProcessServer(str(tmp_path / "flood.sqlite3"), rate_limits="off", password_hasher=hasher)
    queue = server.server.config.app.state.accounts.hashing
    try:
        with httpx.Client(base_url=server.base) as setup:
            assert setup.post("/api/signup", json={"name": "alice", "password": PASSWORD}).status_code == 201

        async def login(address: str, name: str, password: str) -> httpx.Response:
            transport = httpx.AsyncHTTPTransport(local_address=address)
            async with httpx.AsyncClient(base_url=server.base, transport=transport, timeout=BOUND) as client:
                return await client.post("/api/login", json={"name": name, "password": password})

        async def scenario():
            # 40 addresses, 3 wrong logins each (unknown names: under every limit)
            flood = [asyncio.create_task(login(f"127.0.0.{10 + a}", f"nobody{a}x{k}", "wrong password"))
                     for a in range(40) for k in range(3)]
            await until(lambda: sum(t.done() for t in flood) + len(queue.waiting) + len(queue.running) == 120,
                        "every flood login answered or in the queue")
            assert len(queue.running) == queue.workers and len(queue.waiting) == queue.capacity
            refused = [t.result() for t in flood if t.done()]
            assert len(refused) == 120 - queue.workers - queue.capacity
            for response in refused:
                assert response.status_code == 503 and response.json()["key"] == "web.login_busy"
                assert int(response.headers["retry-after"]) >= 1
            alice = asyncio.create_task(login("127.0.0.200", "alice", PASSWORD))
            await until(lambda: queue.holds(address="127.0.0.200") == 1, "alice's login in the queue")
            hasher.gate.set()
            answer = await alice
            assert answer.status_code == 200 and answer.json()["user"] == {"name": "alice"}
            others = await asyncio.gather(*flood)
            assert {r.status_code for r in others} <= {401, 503}
            # checked right after the two that were running, before every flood login that waited
            # (the order of the checks, not how fast they came: the test holds no timing assumption)
            assert hasher.checked.index(PASSWORD) == queue.workers
            assert len(hasher.checked) == queue.workers + queue.capacity  # alice took the last waiting place

        asyncio.run(scenario())
    finally:
        hasher.gate.set()
        server.stop()


# ---------------------------------------------------------------------------- lockouts and the device cookie
@pytest.fixture()
def limited(db_url):
    app = create_app(db_url, bot_executor="thread", rate_limits="off", warm=False, password_hasher=FAST,
                     login_limits="account=3/minute;pair=2/minute;login=50/minute")
    with TestClient(app) as client:
        yield app, client


def device_of(response) -> str | None:
    for raw in response.headers.get_list("set-cookie"):
        if raw.startswith(DEVICE_COOKIE + "="):
            return raw.split(";")[0].split("=", 1)[1].strip('"')
    return None


def login_with(client, name, password, device=None):
    client.cookies.clear()
    headers = {"Cookie": f"{DEVICE_COOKIE}={device}".encode()} if device else {}
    return client.post("/api/login", json={"name": name, "password": password}, headers=headers)


def test_the_device_cookie_is_sent_to_the_login_only_and_not_to_scripts(limited):
    _, client = limited
    raw = [c for c in Device(client).signup("ida").headers.get_list("set-cookie") if c.startswith(DEVICE_COOKIE)]
    assert len(raw) == 1
    attributes = raw[0].lower()
    assert f"path={DEVICE_PATH}" in attributes and "httponly" in attributes and "samesite=strict" in attributes
    assert "max-age=15552000" in attributes  # 180 days


def test_strangers_failures_lock_fresh_addresses_but_not_a_known_device(limited):
    app, client = limited
    first = Device(client)
    first.signup("jane")
    known = device_of(Device(client).login("jane"))
    assert known and knows_device(known, 1, app.state.accounts.user("jane")["password"])
    for n in range(3):  # three strangers, one failure each
        stranger = TestClient(app, client=(f"10.1.0.{n}", 4000))
        assert login_with(stranger, "jane", "wrong password").status_code == 401
    fresh = TestClient(app, client=("10.2.0.1", 4000))
    locked = login_with(fresh, "jane", PASSWORD)
    assert locked.status_code == 429 and locked.json()["key"] == "web.too_many_account"
    assert int(locked.headers["retry-after"]) >= 1
    # the device that logged in before gets in, from wherever it is now
    assert login_with(fresh, "jane", PASSWORD, known).status_code == 200
    # a forged, expired or another account's cookie does not help
    Device(client).signup("kate")
    kates = device_of(Device(client).login("kate"))
    jane_hash = app.state.accounts.user("jane")["password"]
    for bad in (kates, known[:-1] + ("0" if known[-1] != "0" else "1"), device_cookie(1, jane_hash, now=0),
                "1.99999999999.x", "x" * 500, "1.٣٣٣.abc", "..", ""):
        assert login_with(fresh, "jane", PASSWORD, bad).status_code == 429, bad
        assert not knows_device(bad, 1, jane_hash)


def test_failures_count_per_account_and_address_even_with_the_device_cookie(limited):
    app, client = limited
    Device(client).signup("lena")
    known = device_of(Device(client).login("lena"))
    home = TestClient(app, client=("10.3.0.1", 4000))
    for _ in range(2):
        assert login_with(home, "lena", "wrong password", known).status_code == 401
    refused = login_with(home, "lena", PASSWORD, known)
    assert refused.status_code == 429 and refused.json()["key"] == "web.too_many_pair"
    assert "from your address" in refused.json()["error"]
    # the device's own failures did not lock the account for others
    assert login_with(TestClient(app, client=("10.3.0.2", 4000)), "lena", PASSWORD).status_code == 200


def test_a_new_password_voids_the_device_cookies(limited):
    app, client = limited
    Device(client).signup("mona")
    known = device_of(Device(client).login("mona"))
    app.state.accounts.reset_password("mona", "another long secret")
    for n in range(3):
        login_with(TestClient(app, client=(f"10.4.0.{n}", 4000)), "mona", "wrong password")
    fresh = TestClient(app, client=("10.4.1.1", 4000))
    assert login_with(fresh, "mona", "another long secret", known).status_code == 429


# ---------------------------------------------------------------------------- the seat handed over
def test_a_seat_handed_to_an_account_no_longer_answers_to_its_guest_token(limited):
    _, client = limited
    guest = Device(client)
    game = new_game(guest, opponent="friend", seat=0)
    friend = Device(client)
    joined = friend.post(f"/api/games/{game['id']}/join", {"invite": game["invite"]}).json()
    guest.signup("nina")
    assert guest.post("/api/me/games", {"games": [game]}).json()["claimed"] == [{"id": game["id"], "seats": [0]}]
    view = guest.get(f"/api/games/{game['id']}").json()
    move = view["game"]["moves"][0]["move"]
    old_token = Device(client)  # the guest's token, left behind in a browser
    refused = old_token.post(f"/api/games/{game['id']}/move", {"token": game["token"], "move": move})
    assert refused.status_code == 403 and refused.json()["key"] == "web.token_no_seat"
    assert old_token.get(f"/api/games/{game['id']}", headers={"X-Ludothek-Token": game["token"]}).json()["you"] == []
    # the account plays the seat; the other player's token still holds his
    assert guest.post(f"/api/games/{game['id']}/move", {"move": move}).status_code == 200
    assert friend.get(f"/api/games/{game['id']}", headers={"X-Ludothek-Token": joined["token"]}).json()["you"] == [1]
    # and the handover cannot be done again with the old token
    other = Device(client)
    other.signup("olga")
    assert other.post("/api/me/games", {"games": [game]}).json()["claimed"] == []
