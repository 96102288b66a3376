"""Two real `ludothek serve` processes on one PostgreSQL database (as behind a load balancer)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections import Counter

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
pytest.importorskip("psycopg")

import ludothek

from .servers import ONE_PROCESS, Server


@pytest.fixture(scope="module")
def servers(module_postgres_url):
    """Servers A and B, started one after the other: (base URL, port) of each. Every request
    here comes from 127.0.0.1 and the point is contention, so the rate limits are off. The
    module's tests share them (each starts a server in seconds of CPU): every test makes its
    own games, and what it leaves (finished games, accounts, no open seeks) is not what
    another test looks at."""
    started: list[Server] = []
    try:
        for _ in range(2):
            started.append(Server(module_postgres_url, *ONE_PROCESS, "--bots", "thread", "--rate-limits", "off"))
        yield [(server.base, server.port) for server in started]
    finally:
        for server in started:
            server.stop()


def test_a_move_on_one_server_is_pushed_to_a_watcher_on_the_other(servers):
    """Servers on PostgreSQL learn of each other's moves only by LISTEN/NOTIFY (they run no
    poll), so B's watcher seeing every move made on A is the push working. How fast it comes is
    measured by benchmarks/web_load.py, not asserted here: the CI machine is busy."""
    (a, _), (_, port_b) = servers
    created = httpx.post(f"{a}/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed"},
                         timeout=10).json()
    game_id, token = created["id"], created["token"]
    rng = random.Random(3)

    async def main() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port_b}/ws/games/{game_id}") as ws, \
                httpx.AsyncClient(base_url=a, timeout=60) as client:
            first = json.loads(await ws.recv())
            assert first["type"] == "state"
            state = first["game"]
            for _ in range(5):
                response = await client.post(f"/api/games/{game_id}/move",
                                             json={"token": token, "move": rng.choice(state["moves"])["move"]})
                assert response.status_code == 200, response.text
                state = response.json()["game"]
                while True:  # B's watcher gets the new state (earlier ones may come first)
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=120))
                    except TimeoutError:
                        pytest.fail(f"B's watcher never got version {state['version']}")
                    if message["type"] == "state" and message["game"]["version"] >= state["version"]:
                        break
                assert message["game"]["history"] == state["history"]

    asyncio.run(main())


def test_concurrent_moves_of_one_seat_on_both_servers(servers):
    """30 requests at once with one token: different moves, some twice, half through each
    server. Each accepted move is stored exactly once, in the order the answers say."""
    (a, _), (b, _) = servers
    created = httpx.post(f"{a}/api/games", json={"game": "trike", "options": {"size": 9}, "start": "fixed"},
                         timeout=10).json()
    game_id, token = created["id"], created["token"]
    rng = random.Random(5)
    moves = rng.sample([m["move"] for m in created["game"]["moves"]], 20)
    requests = moves + rng.sample(moves, 10)
    rng.shuffle(requests)
    answers: list[tuple[str, int, dict]] = []
    barrier = threading.Barrier(len(requests))

    def send(k: int, text: str) -> None:
        with httpx.Client(base_url=(a, b)[k % 2], timeout=30) as client:
            barrier.wait()
            response = client.post(f"/api/games/{game_id}/move", json={"token": token, "move": text})
            answers.append((text, response.status_code, response.json()))

    threads = [threading.Thread(target=send, args=(k, text)) for k, text in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == len(requests)
    assert all(status < 500 for _, status, _ in answers), answers

    final = httpx.get(f"{b}/api/games/{game_id}", timeout=10).json()["game"]
    history = [h["text"] for h in final["history"]]
    accepted = [(text, body["game"]) for text, status, body in answers if status == 200]
    assert accepted, answers
    assert len(accepted) == len(history)
    counts = Counter(history)
    plies = []
    for text, game in accepted:
        ply = len(game["history"]) - 1  # the answer's last move is this request's move
        assert game["history"][ply]["text"] == text
        assert history[ply] == text and counts[text] == 1
        plies.append(ply)
    assert sorted(plies) == list(range(len(history)))

    record = httpx.get(f"{a}/api/games/{game_id}/record", timeout=10).text
    replayed = ludothek.loads(record).replay()
    assert replayed.move_texts == history


def test_a_seek_posted_on_one_server_is_accepted_on_the_other_and_starts_for_both(servers):
    """The lobby is the database's: B's lobby page sees A's seek; when B's visitor accepts, the
    author's page on A hears ``started`` (A looks at the lobby every 1.5 s)."""
    (a, port_a), (b, port_b) = servers

    async def main() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port_a}/ws/lobby") as author, \
                websockets.connect(f"ws://127.0.0.1:{port_b}/ws/lobby") as watcher, \
                httpx.AsyncClient(timeout=10) as client:
            assert json.loads(await author.recv())["type"] == "lobby"
            assert json.loads(await watcher.recv())["seeks"] == []
            posted = (await client.post(f"{a}/api/seeks", json={"game": "trike", "options": {"size": 7}})).json()
            await author.send(json.dumps({"type": "own", "seek": posted["seek"]["id"], "token": posted["token"]}))
            while True:  # B's page gets the new list
                message = json.loads(await asyncio.wait_for(watcher.recv(), timeout=5))
                if message["type"] == "lobby" and message["seeks"]:
                    break
            assert [s["id"] for s in message["seeks"]] == [posted["seek"]["id"]]
            accepted = (await client.post(f"{b}/api/seeks/{posted['seek']['id']}/accept", json={})).json()
            while True:
                message = json.loads(await asyncio.wait_for(author.recv(), timeout=5))
                if message["type"] == "started":
                    break
            assert message == {"type": "started", "seek": posted["seek"]["id"], "game": accepted["id"]}
            seat = (await client.get(f"{a}/api/games/{accepted['id']}",
                                     headers={"X-Ludothek-Token": posted["token"]})).json()["you"]
            assert seat == [1 - accepted["seats"][0]]

    asyncio.run(main())


def test_a_challenge_and_a_quick_pairing_across_two_servers(servers):
    """Challenges and quick pairing are the database's too: Bob's page on B hears of Alice's
    challenge made on A, Alice's page on A hears that Bob accepted it on B; a quick pairing made
    on B reaches the waiting page on A (each server looks at the lobby every 1.5 s)."""
    (a, port_a), (b, port_b) = servers

    async def account(client: httpx.AsyncClient, base: str, name: str) -> str:
        answer = await client.post(f"{base}/api/signup", json={"name": name, "password": "a long table top"})
        assert answer.status_code == 201, answer.text
        client.headers["X-CSRF-Token"] = answer.json()["csrf"]
        return client.cookies["ludothek_session"]

    def socket(port: int, session: str):
        headers = {"Origin": f"http://127.0.0.1:{port}", "Cookie": f"ludothek_session={session}"}
        return websockets.connect(f"ws://127.0.0.1:{port}/ws/lobby", additional_headers=headers)

    async def next_of(ws, kind: str) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            if message["type"] == kind:
                return message

    async def main() -> None:
        async with httpx.AsyncClient(base_url=a, timeout=10) as alice, httpx.AsyncClient(base_url=b, timeout=10) as bob:
            alice_session = await account(alice, a, "alice")
            bob_session = await account(bob, b, "bob")
            async with socket(port_a, alice_session) as alice_ws, socket(port_b, bob_session) as bob_ws:
                made = await alice.post("/api/challenges", json={"to": "bob", "game": "trike", "options": {"size": 7}})
                assert made.status_code == 201, made.text
                pushed = await next_of(bob_ws, "challenges")
                assert [c["id"] for c in pushed["incoming"]] == [made.json()["id"]]
                accepted = await bob.post(f"/api/challenges/{made.json()['id']}/accept", json={})
                assert accepted.status_code == 200, accepted.text
                answer = await next_of(alice_ws, "challenge_answer")
                assert answer["challenge"]["game_id"] == accepted.json()["id"]
                waiting = await alice.post("/api/quick", json={"game": "trike", "clock": "5+3"})
                assert waiting.json() == {"waiting": "trike|5+3"}
                paired = (await bob.post("/api/quick", json={"game": "trike", "clock": "5+3"})).json()
                assert (await next_of(alice_ws, "paired"))["game"] == paired["game"]

    asyncio.run(main())
