"""A cold start (issue 33, item 1): the warm-up shared by processes through the kernel cache
(``jit_cache.compile_once``), ``ludothek warm``, the gate that holds game requests during the
server's background warm-up, and ``ludothek serve`` on an empty kernel cache: its address
answers once printed, and Ctrl-C stops it while it still compiles."""

from __future__ import annotations

import asyncio
import fcntl
import json
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
from ludothek.web.warm import WarmGate, Warming

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


def test_a_helping_worker_compiles_the_parts_of_the_warm_ups_and_only_loads_the_rest(cache, monkeypatch):
    """The long lane's worker (``helps``, not ``compile``) compiles every game's parts first,
    which the slow worker's warm-up then loads; of the games it loads only what is done."""
    from ludothek.web import botpool

    ran = []
    monkeypatch.setattr("ludothek.core.registry.games", lambda: ["a", "b"])
    monkeypatch.setattr("ludothek.ai.knowledge.warm_parts",
                        lambda game: {"x": lambda: ran.append(f"{game}.x"), "y": lambda: ran.append(f"{game}.y")}
                        if game == "b" else {})
    monkeypatch.setattr(botpool, "warm_game", lambda game, others=True: ran.append(game))
    (cache / "warmed-bots-a").touch()  # the slow worker has warmed game a
    botpool.warm_up(compile=False, helps=True)
    assert ran == ["b.x", "b.y", "a", "b.x", "b.y"]  # the parts compiled, then what is done loaded
    assert not (cache / "warmed-bots-b").exists()


def test_a_part_of_the_search_not_known_is_named_with_the_parts():
    from ludothek.games.dice.search import PARTS, Root, warm_part

    with pytest.raises(ValueError, match="no part 'nothing' of the search.*" + PARTS[0]):
        warm_part(Root(0, None, None, 0, 0, False, 0, None, None), "nothing")


#: the scripts' count of the signatures of every kernel this process has, by kernel name (a
#: kernel has them alike whether it was compiled or loaded from the kernel cache)
_SIGNATURES = """
import gc
from numba.core.registry import CPUDispatcher

def signatures():
    return {f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}": len(kernel.signatures)
            for kernel in gc.get_objects() if isinstance(kernel, CPUDispatcher) and kernel.signatures}
"""

_PARTS_THEN_SEARCHES = """
import importlib, json
from ludothek import games  # first: it points numba at Ludothek's kernel cache
from ludothek.ai.knowledge import knowledge, warm_parts
""" + _SIGNATURES + """

parted = [game for game in games() if warm_parts(game)]
for game in parted:
    for part in warm_parts(game).values():
        part()
before = signatures()
for game in parted:
    importlib.import_module(knowledge(game).module).warm_up()
print(json.dumps({"games": parted, "before": before, "after": signatures()}))
"""


def test_the_parts_of_a_warm_up_are_compiled_as_its_search_calls_them():
    """A part (``warm_parts``) must call its kernels with the argument types the game's search
    gives them, or the search compiles them again for its own types and the part was for
    nothing: after the parts, the searches add no signature to any kernel the parts compiled,
    and bring in their search kernel themselves. A kernel gets its signature alike whether it is
    compiled or loaded from the kernel cache, so a fresh process on the warm cache shows the
    types as a cold compile would (which costs about 20 CPU s more)."""
    found = subprocess.run([sys.executable, "-c", _PARTS_THEN_SEARCHES], capture_output=True, text=True, check=True)
    result = json.loads(found.stdout.splitlines()[-1])
    before, after = result["before"], result["after"]
    assert result["games"], "no game has parts"
    assert len(before) >= 10, before
    assert {name: after[name] for name in before} == before
    assert set(after) - set(before), "the searches compiled nothing of their own"


_RESEARCH_THEN_USE = """
import json
import ludothek
from ludothek import games, vector
from ludothek.web.warm import warm_research
""" + _SIGNATURES + """

for game in games():
    warm_research(game)
before = signatures()
for game in games():
    ludothek.new_game(game).perft(3)
    try:
        vector.vector_class(game)
    except ValueError:  # a game without a batched API (the tests' fifth game)
        continue
    for parallel in (False, True):
        batch = vector.make(game, 64, parallel=parallel)
        batch.reset()
        for _ in range(20):
            batch.step(batch.sample_actions())
print(json.dumps({"before": before, "after": signatures()}))
"""


def test_the_research_warm_up_compiles_what_a_batch_and_perft_call():
    """``ludothek warm`` also readies the research API (``warm_research``): after it, batched
    games stepped as docs/VECTOR.md shows and perft add no signature to any kernel, so a
    researcher's first ``vector.make`` loads everything from the cache (checked on the warm
    cache, where a kernel gets its signatures on load as on compile)."""
    found = subprocess.run([sys.executable, "-c", _RESEARCH_THEN_USE], capture_output=True, text=True)
    assert found.returncode == 0, found.stderr
    result = json.loads(found.stdout.splitlines()[-1])
    before, after = result["before"], result["after"]
    assert sum(".vector." in name for name in before) >= 3 * 4, before  # reset, step, parallel step of each game
    assert after == before


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
