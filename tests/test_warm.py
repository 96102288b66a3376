"""A cold start (issue 33, item 1): the warm-up shared by processes through the kernel cache
(``jit_cache.compile_once``), ``ludothek warm``, the gate that holds game requests during the
server's background warm-up, and ``ludothek serve`` on an empty kernel cache: its address
answers once printed, and Ctrl-C stops it while it still compiles."""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import subprocess
import sys
import threading

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from ludothek.cli import main
from ludothek.core.jit_cache import compile_once
from ludothek.web.warm import Warming, WarmGate

from .servers import free_port


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("LUDOTHEK_NO_KERNEL_CACHE_WARNED", raising=False)
    return tmp_path


def test_a_task_another_process_holds_is_put_off_then_done(cache):
    """The task held elsewhere comes last, once its holder lets go (it loads from the cache)."""
    held = open(cache / "warming-a.lock", "a")
    fcntl.flock(held, fcntl.LOCK_EX)
    ran = []

    def run(task):
        ran.append(task)
        if task == "c":  # the other process finishes "a" meanwhile
            held.close()

    compile_once(["a", "b", "c"], run)
    assert ran == ["b", "c", "a"]
    assert sorted(p.name for p in cache.glob("warmed-*")) == ["warmed-a", "warmed-b", "warmed-c"]


def test_jobs_answered_between_tasks_hold_no_lock(cache):
    """A worker answers its jobs between the games it warms; a job may warm its own game (in
    turn with the others), so no lock may be held then: it would wait for itself."""
    held = []

    def between():
        for path in cache.glob("warming-*.lock"):
            with open(path, "a") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    held.append(path.name)

    compile_once(["a", "b", "c"], lambda task: None, between=between)
    assert held == []


def test_without_compiling_only_the_tasks_done_elsewhere_are_loaded(cache):
    (cache / "warmed-b").touch()
    ran = []
    compile_once(["a", "b", "c"], ran.append, compile=False)
    assert ran == ["b"]
    assert not (cache / "warmed-a").exists()


def test_without_a_cache_every_task_runs_here(monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    ran = []
    compile_once(["a", "b"], ran.append, compile=False)
    assert ran == ["a", "b"]


def test_warm_compiles_everything_and_says_so():
    result = CliRunner().invoke(main, ["warm", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "every game's kernels are ready" in result.output


def test_game_requests_wait_for_the_warm_up_and_the_others_do_not():
    async def scenario():
        warming = Warming()

        async def hello(request):
            return PlainTextResponse(request.url.path)

        app = Starlette(routes=[Route("/api/games", hello), Route("/api/catalog", hello), Route("/", hello)])
        gated = WarmGate(app, warming)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=gated), base_url="http://test") as client:
            game = asyncio.create_task(client.get("/api/games"))
            assert (await client.get("/api/catalog")).text == "/api/catalog"
            assert (await client.get("/")).text == "/"
            assert not game.done()
            warming.skip()  # the warm-up ends
            assert (await game).text == "/api/games"

    asyncio.run(scenario())


def _serve_cold(tmp_path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "empty-cache"))
    process = subprocess.Popen(
        [sys.executable, "-m", "ludothek.cli", "serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite3")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return process, f"http://127.0.0.1:{port}"


def test_a_cold_server_answers_as_soon_as_it_shows_its_address_and_stops_on_ctrl_c(tmp_path):
    process, base = _serve_cold(tmp_path)
    output = []
    try:
        for line in process.stdout:
            output.append(line)
            if line.startswith("Ludothek is serving on"):
                break
        else:
            pytest.fail("serve ended before it served:\n" + "".join(output))
        # the kernel cache is empty: the server is compiling now, and yet it answers
        assert httpx.get(base + "/", timeout=60).status_code == 200
        assert httpx.get(base + "/api/catalog", timeout=60).status_code == 200
        process.send_signal(signal.SIGINT)
        rest = []
        drained = threading.Thread(target=lambda: rest.extend(process.stdout))
        drained.start()
        assert process.wait(120) == 130, "".join(output + rest)  # a bound, not a time: it stops at once
        drained.join(10)
        text = "".join(output + rest)
        assert "Traceback" not in text and "Aborted" not in text and "Ludothek is ready" not in text, text
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
