"""What an operator reads from a server: /healthz, /readyz, /metrics, request ids, JSON logs,
and `serve`'s checks of --workers and --metrics-from (in-process; the real processes are in
test_web_workers.py)."""

from __future__ import annotations

import io
import json
import logging
import sys
import time
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

pytest.importorskip("prometheus_client")
from starlette.testclient import TestClient

from ludothek.cli import main
from ludothek.web import create_app
from ludothek.web.logs import REQUEST_ID, JsonFormatter, request_id
from ludothek.web.metrics import parse_addresses


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value from a Prometheus text exposition (0 if absent)."""
    from prometheus_client.parser import text_string_to_metric_families

    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


@pytest.fixture()
def client(tmp_path):
    app = create_app(str(tmp_path / "ops.sqlite3"), bot_executor="thread", warm=False, rate_limits="off",
                     metrics_from="any")
    with TestClient(app) as c:
        yield c


def new_game(client) -> dict:
    response = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed"})
    assert response.status_code == 201, response.text
    return response.json()


# ---------------------------------------------------------------------------- health
def test_healthz_answers_without_the_database(client):
    client.app.state.store.engine.dispose()
    client.app.state.store.ping = lambda: (_ for _ in ()).throw(AssertionError("healthz touched the database"))
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"ok": True}


def test_readyz_lists_every_check_when_ready(client):
    response = client.get("/readyz")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ready"] is True and body["failing"] == []
    assert set(body["checks"]) == {"database", "kernels", "bots"}
    assert all(check["ok"] for check in body["checks"].values())


def test_readyz_is_503_naming_a_database_that_does_not_answer(client):
    def broken() -> None:
        raise ConnectionError("connection refused")

    client.app.state.store.ping = broken
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["ready"] is False and body["failing"] == ["database"]
    assert "connection refused" in body["checks"]["database"]["error"]


def test_readyz_is_503_while_the_kernels_warm_up(client):
    warming = client.app.state.warming
    client.app.state.warming = SimpleNamespace(done=False)
    body = client.get("/readyz").json()
    assert body["failing"] == ["kernels"] and body["checks"]["kernels"] == {"ok": False, "detail": "warming up"}
    client.app.state.warming = warming
    assert client.get("/readyz").status_code == 200


def test_readyz_is_503_once_the_bot_pool_is_closed(client):
    client.app.state.runner.pool.shutdown_now()
    response = client.get("/readyz")
    assert response.status_code == 503 and response.json()["failing"] == ["bots"]


# ---------------------------------------------------------------------------- metrics
def test_metrics_count_requests_by_route_template_and_status(client):
    before = client.get("/metrics").text
    game = new_game(client)
    move = game["game"]["moves"][0]["move"]
    assert client.post(f"/api/games/{game['id']}/move", json={"token": game["token"], "move": move}).status_code == 200
    assert client.post(f"/api/games/{game['id']}/move", json={"token": "wrong", "move": move}).status_code == 403
    assert client.get("/no/such/page/x1").status_code == 404
    assert client.get("/no/such/page/x2").status_code == 404
    after = client.get("/metrics").text
    route = "/api/games/{id}/move"

    def delta(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert delta("ludothek_http_requests_total", route=route, method="POST", status="200") == 1
    assert delta("ludothek_http_requests_total", route=route, method="POST", status="403") == 1
    assert delta("ludothek_http_requests_total", route="/api/games", method="POST", status="201") == 1
    assert delta("ludothek_http_requests_total", route="unmatched", method="GET", status="404") == 2
    assert game["id"] not in after  # a template, never a raw path
    assert delta("ludothek_move_seconds_count") == 1  # the refused move took no time of a move
    assert delta("ludothek_db_commit_seconds_count") >= 2
    assert sample(after, "ludothek_live_games") >= 1


def test_metrics_count_open_websockets_and_websocket_moves(client):
    game = new_game(client)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        assert json.loads(ws.receive_text())["type"] == "state"
        text = client.get("/metrics").text
        assert sample(text, "ludothek_websockets", route="/ws/games/{id}") == 1
        moves_before = sample(text, "ludothek_move_seconds_count")
        ws.send_text(json.dumps({"type": "move", "token": game["token"], "move": game["game"]["moves"][0]["move"],
                                 "ref": 1}))
        while (reply := json.loads(ws.receive_text()))["type"] != "ok":
            assert reply["type"] == "state", reply
    text = client.get("/metrics").text
    assert sample(text, "ludothek_websockets", route="/ws/games/{id}") == 0
    assert sample(text, "ludothek_move_seconds_count") == moves_before + 1


def test_metrics_count_bot_jobs_through_the_queue(client):
    before = client.get("/metrics").text
    created = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "start": "fixed",
                                              "opponent": "bot", "bot": "random", "seat": 1}).json()
    assert created["game"]["seats"][0]["kind"] == "bot", created
    for _ in range(1200):  # the bot's first move arrives (polled, with a generous bound)
        if client.get(f"/api/games/{created['id']}").json()["game"]["plies"] >= 1:
            break
        time.sleep(0.05)
    after = client.get("/metrics").text
    waited = sum(sample(after, "ludothek_bot_wait_seconds_count", lane=lane)
                 - sample(before, "ludothek_bot_wait_seconds_count", lane=lane) for lane in ("quick", "slow"))
    assert waited >= 1
    assert sample(after, "ludothek_bot_queue_depth", lane="quick") == 0


@pytest.mark.parametrize("spec", ["10.0.0.0/8", "127.0.0.1"])
def test_metrics_refuse_addresses_not_named(tmp_path, spec):
    def scrape(client: tuple[str, int], **headers: str):
        app = create_app(str(tmp_path / "m.sqlite3"), bot_executor="thread", warm=False, metrics_from=spec)
        with TestClient(app, client=client) as c:
            return c.get("/metrics", headers=headers)

    refused = scrape(("192.0.2.7", 1234), **{"Accept-Language": "de"})
    assert refused.status_code == 403 and "--metrics-from" in refused.text and "Adressen" in refused.text
    named = ("10.1.2.3", 1234) if spec.startswith("10.") else ("127.0.0.1", 1234)
    assert scrape(named).status_code == 200
    # relayed by a local proxy for an outsider: refused too
    assert scrape(named, **{"X-Forwarded-For": "198.51.100.9"}).status_code == 403


def test_metrics_from_names_a_bad_entry():
    assert parse_addresses("any") is None
    assert len(parse_addresses("127.0.0.1, ::1,10.0.0.0/8")) == 3
    with pytest.raises(ValueError, match="'example.org' is not an address"):
        parse_addresses("127.0.0.1,example.org")


# ---------------------------------------------------------------------------- request ids and logs
def test_a_sane_request_id_is_echoed_and_any_other_replaced(client):
    assert client.get("/healthz", headers={"X-Request-ID": "lb-1234.abc"}).headers["x-request-id"] == "lb-1234.abc"
    for bad in ("x" * 200, "a b", "<script>"):
        given = client.get("/healthz", headers={"X-Request-ID": bad}).headers["x-request-id"]
        assert given != bad and len(given) == 32
    first, second = (client.get("/api/catalog").headers["x-request-id"] for _ in range(2))
    assert first != second
    assert client.get("/no/such").headers["x-request-id"]  # a 404 has one too


def test_request_id_is_kept_or_made():
    assert request_id("abc") == "abc"
    assert request_id(None) != request_id(None)
    assert len(request_id("ä")) == 32


def test_json_log_lines_carry_the_request_id_route_status_and_duration(tmp_path):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    access = logging.getLogger("ludothek.access")
    old_level = access.level
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    try:
        app = create_app(str(tmp_path / "l.sqlite3"), bot_executor="thread", warm=False)
        with TestClient(app) as c:
            c.get("/api/games/nope/record", headers={"X-Request-ID": "req-42"})
    finally:
        access.removeHandler(handler)
        access.setLevel(old_level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    line = next(entry for entry in lines if entry.get("request_id") == "req-42")
    assert line["logger"] == "ludothek.access" and line["level"] == "info"
    assert line["route"] == "/api/games/{id}/record" and line["status"] == 404 and line["method"] == "GET"
    assert isinstance(line["duration_ms"], float) and line["time"].endswith("+00:00")
    assert "message" in line


def test_json_formatter_takes_the_request_id_of_the_context_and_the_exception():
    token = REQUEST_ID.set("ctx-7")
    try:
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            record = logging.getLogger("ludothek.web").makeRecord(
                "ludothek.web", logging.ERROR, __file__, 1, "failed %s", ("x",), exc_info=sys.exc_info())
        line = json.loads(JsonFormatter().format(record))
    finally:
        REQUEST_ID.reset(token)
    assert line["request_id"] == "ctx-7" and line["message"] == "failed x" and "RuntimeError: boom" in line["exception"]


# ---------------------------------------------------------------------------- serve's options
def test_serve_refuses_several_workers_on_sqlite_naming_postgresql(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite3"), "--workers", "2"])
    assert result.exit_code == 2
    assert "--workers 2 needs PostgreSQL" in result.output and "--workers 1" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_serve_names_a_bad_metrics_from(tmp_path):
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite3"), "--metrics-from", "nowhere"])
    assert result.exit_code == 2 and "--metrics-from" in result.output and "'nowhere'" in result.output


def test_serve_with_json_logs_writes_one_json_object_a_line(tmp_path):
    import httpx

    from .servers import Server

    server = Server(str(tmp_path / "j.sqlite3"), "--bots", "thread", "--log-format", "json")
    try:
        answer = httpx.get(f"{server.base}/api/games/unknown1", headers={"X-Request-ID": "json-test-1"}, timeout=30)
        assert answer.status_code == 404 and answer.headers["x-request-id"] == "json-test-1"
    finally:
        server.stop()
    logged = [line for line in server.output if line.startswith("{")]
    entries = [json.loads(line) for line in logged]  # each one parses on its own
    access = [e for e in entries if e.get("request_id") == "json-test-1"]
    assert access and access[0]["route"] == "/api/games/{id}" and access[0]["status"] == 404
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
