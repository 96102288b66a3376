"""The workers that compute bot moves for the web server, and the fair queue in front of them.

Three lanes (:func:`lane_of`): *quick* jobs (a move that costs milliseconds: ``random``,
``perfect``, small iteration budgets), *slow* jobs (searches with a fixed amount of work,
tens of milliseconds up to about a second) and *long* jobs (searches that think for a time:
levels 6-8, ``alphabeta:4s``; a level-8 move takes 8 s, up to 16 s on a critical turn).
One quick worker, ``cores - 1`` slow workers and ``cores - 1`` long workers: a random or
``bot:1`` reply never waits behind a ``bot:5`` search, and a ``bot:5`` move never waits
behind level-8 searches, however many of them think at once (they queue among themselves).
Within a lane the next job comes from the client served longest ago (round robin across
clients, FIFO within a client), and a worker holds at most one job: the rest wait here, where
fairness is decided, rather than in a pipe or an executor's queue. An idle worker helps the
lanes of shorter jobs (:data:`HELPS`: a long worker takes slow or quick jobs, a slow worker
quick ones), never those of longer jobs; without long workers the slow ones take the long
jobs last.

The pool lives on the event loop that first uses it; all its state is touched only there.
Process workers are started from that loop's thread: on Linux a worker is killed when the
thread that started it ends (``PR_SET_PDEATHSIG``), so that thread must live as long as the
server, as the event loop's does.
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import logging
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..core.orphans import die_with_parent as _die_with_parent
from . import metrics
from .bots import compute_bot_action

log = logging.getLogger("ludothek.web")

QUICK, SLOW, LONG = "quick", "slow", "long"
LANES = (QUICK, SLOW, LONG)
#: the lanes a worker of each lane takes jobs from, in order (only from its own until warm)
HELPS = {QUICK: (QUICK,), SLOW: (SLOW, QUICK), LONG: (LONG, SLOW, QUICK)}
#: an iteration-only budget up to this size is quick: ≤ 25 ms measured for every game (an
#: MCTS or plain-UCT playout costs ~80-330 µs on the largest boards)
QUICK_ITERATIONS = 300
#: alpha-beta nodes are cheaper: 1000 of them take 14-26 ms on every game
QUICK_NODES = 1000


class BotPoolError(RuntimeError):
    """A bot move could not be computed."""


class PoolClosed(BotPoolError):
    """The pool is closed, or closed before this job could finish."""


class WorkerDied(BotPoolError):
    """The worker computing this job died (it has been replaced: the job may be retried)."""


class BotFailed(BotPoolError):
    """The agent raised an exception; ``details`` holds the worker's traceback."""

    def __init__(self, message: str, details: str = ""):
        super().__init__(message)
        self.details = details


def lane_of(agent: str, game: str) -> str:
    """The lane of a move of ``agent``: :data:`QUICK` for the agents that need no search or
    whose budget is a small, fixed amount of work (at most a few tens of milliseconds),
    :data:`LONG` for a search with a time budget (it thinks as long as it is allowed),
    :data:`SLOW` for the rest (bigger fixed budgets, and specs that are not understood here:
    they fail in the worker, with their message)."""
    from ..ai.budget import Budget
    from ..ai.levels import level_of

    name, _, argument = str(agent).strip().lower().partition(":")
    if name in ("random", "perfect"):
        return QUICK
    try:
        if name == "bot":
            level = level_of(game, int(argument))
            algorithm, budget = level.algorithm, level.budget
        elif name in ("mcts", "uct", "alphabeta", "alphabeta-py") and argument:
            algorithm, budget = name, Budget.parse(argument)
        elif name in ("mcts", "uct", "alphabeta", "alphabeta-py"):
            return LONG  # their default budget is a second
        else:
            return SLOW
    except Exception:  # noqa: BLE001 - a bad spec fails in the worker, with its message
        return SLOW
    if algorithm == "perfect":
        return QUICK  # a table: its time budget is only a cap
    if budget.seconds is not None:
        return LONG
    if budget.iterations <= (QUICK_NODES if algorithm.startswith("alphabeta") else QUICK_ITERATIONS):
        return QUICK
    return SLOW


def is_quick(agent: str, game: str) -> bool:
    """Whether one move of ``agent`` costs at most a few tens of milliseconds (:func:`lane_of`)."""
    return lane_of(agent, game) == QUICK


def warm_up(done: Any = None, between: Any = None, compile: bool = True, starting: Any = None,
            helps: bool = False) -> None:
    """Load every game's kernels for every kind of agent (from numba's disk cache, or compile
    them), so that a worker's first move is as fast as the later ones. Without this the first
    ``bot:1`` move of a game compiles its random playout for 5-10 s. First every game's bots
    (the agents its levels use), then the other agents (analysis, explicit agent names).
    Workers warming at the same time share the compiling
    (:func:`~ludothek.core.jit_cache.compile_once`); without ``compile`` only what is compiled
    already is loaded (the quick workers: on a cold cache they compile what their first jobs
    need, not everything); with ``helps`` the parts of the games' warm-ups are compiled first
    (:class:`_Part`: a worker idle at start, the long lane's, shares the compiling of the longest
    warm-up with the slow worker running it). ``starting(game)`` is called as a game's bots start to warm,
    ``done(game)`` when they are as warm as they get, ``between()`` before each game (a worker
    answers the jobs that have come in meanwhile)."""
    from ..core.jit_cache import compile_once
    from ..core.registry import games

    def warm_bots(task: str | _Part) -> None:
        if isinstance(task, _Part):
            task.run()
            return
        if starting is not None and compile:
            starting(task)
        warm_game(task, others=False)
        if done is not None and compile:
            done(task)

    tasks = _bot_tasks(games())
    if helps:
        compile_once([task for task in tasks if isinstance(task, _Part)], warm_bots, True, between, kind="bots")
    compile_once(tasks, warm_bots, compile, between, kind="bots")
    if done is not None and not compile:
        for name in games():
            done(name)
    compile_once(games(), lambda name: warm_game(name, bots=False), compile, between)  # the other agents


@dataclass(frozen=True)
class _Part:
    """A part of a game's bots' warm-up that a second process may compile while the first runs
    the whole warm-up (:func:`ludothek.ai.knowledge.warm_parts`): the game's compiled search,
    the longest compile of a cold start, then takes two cores instead of one."""

    game: str
    name: str

    def __str__(self) -> str:  # (its lock file's name)
        return f"{self.game}.{self.name}"

    def run(self) -> None:
        from ..ai.knowledge import warm_parts

        try:
            warm_parts(self.game)[self.name]()
        except Exception:  # noqa: BLE001 - the game's warm-up then compiles it
            log.warning("warming %s failed", self, exc_info=True)


def _bot_tasks(names: list[str]) -> list[str | _Part]:
    """Each game, then its parts (a second process takes them while the first warms the game)."""
    from ..ai.knowledge import warm_parts

    tasks: list[str | _Part] = []
    for name in names:
        tasks.append(name)
        try:
            tasks += [_Part(name, part) for part in warm_parts(name)]
        except Exception:  # noqa: BLE001 - a game being written may not import yet
            log.warning("the parts of %s's warm-up are unknown", name, exc_info=True)
    return tasks


#: the games whose bots are warm in this process (a worker's)
_WARM_HERE: set[str] = set()


def warm_game(name: str, bots: bool = True, others: bool = True) -> None:
    """A move of each kind of agent in game ``name``: the agents of its bot levels (``bots``),
    then the other kinds (``others``)."""
    from ..ai.base import make_agent
    from ..ai.levels import LEVELS, level_of
    from ..core.errors import LudothekError
    from ..core.registry import game_class

    _WARM_HERE.add(name)  # even if it fails below: a job then compiles what it needs itself
    try:
        state = game_class(name)()
        while state.current_player() < 0 and not state.is_over():
            state.play(state.legal_actions()[0])
    except Exception:  # noqa: BLE001 - a game being written may not work yet
        return
    lowest = {level_of(name, level).algorithm: level for level in reversed(LEVELS)}  # a level of each algorithm
    specs = [f"bot:{level}" for level in sorted(lowest.values())] if bots else []
    if others:
        specs += ["random", "uct:8", "mcts:8", "alphabeta:64", "perfect"]
    for spec in specs:
        try:
            agent = make_agent(spec, name, seed=0)
        except LudothekError:  # "perfect" plays only the games that have a stored solution
            continue
        try:
            agent.choose(state)
        except Exception:
            log.warning("warming %s for %s failed", spec, name, exc_info=True)


def _answer(args: dict[str, Any], warm: bool = False) -> tuple:
    """The job's answer; with ``warm``, the job's game is warmed first if it is not yet (in turn
    with the other workers: while one compiles it, this one waits and then loads it)."""
    game = args.get("game")
    if warm and game not in _WARM_HERE:
        from ..core.jit_cache import compile_once

        compile_once([game], lambda name: warm_game(name, others=False), kind="bots")
    try:
        if args.get("job") == "review":  # a part of a finished game's analysis (.analysis)
            from .bots import compute_review

            return "ok", compute_review(args)
        return "ok", compute_bot_action(args)
    except Exception as exc:  # noqa: BLE001 - reported to the awaiting server
        return "error", f"{args.get('agent')} on {args.get('game')}: {type(exc).__name__}: {exc}", traceback.format_exc()


# ------------------------------------------------------------------ the worker process
def _worker_main(conn: Any, parent_pid: int, warm: bool, compile: bool, helps: bool) -> None:
    _die_with_parent(parent_pid)
    # Ctrl-C reaches the whole process group, and systemd sends SIGTERM to every process of
    # the service: the server alone decides when its workers stop, after draining them.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    conn.send(("ready", os.getpid()))  # jobs are answered between the games being warmed

    def answer_waiting_jobs() -> None:
        while conn.poll():
            if not _answer_one(conn, warm):
                sys.exit(0)

    if warm:
        warm_up(done=lambda game: conn.send(("warmed", game)), between=answer_waiting_jobs, compile=compile,
                starting=lambda game: conn.send(("warming", game)), helps=helps)
    conn.send(("warmed", None))
    while _answer_one(conn, warm):
        pass


def _answer_one(conn: Any, warm: bool) -> bool:
    """Answer the server's next job; False when the server is gone or asks to stop."""
    try:
        args = conn.recv()
        if args is None:
            return False
        conn.send(_answer(args, warm))
        return True
    except (EOFError, OSError):
        return False


# ------------------------------------------------------------------ the parent's side
@dataclass(eq=False)
class _Job:
    args: dict[str, Any]
    client: str
    lane: str
    future: asyncio.Future
    game_id: str | None = None
    on_start: Any = None  # called when a worker takes the job


class _FairQueue:
    """The next job comes from the client served longest ago, FIFO within a client. A client
    with nothing queued or running here is forgotten: it counts as never served."""

    def __init__(self) -> None:
        self.jobs: dict[str, deque[_Job]] = {}
        self.running: dict[str, int] = {}
        self.served: dict[str, int] = {}
        self.ticks = itertools.count()

    def __len__(self) -> int:
        return sum(len(jobs) for jobs in self.jobs.values())

    def push(self, job: _Job) -> None:
        self.jobs.setdefault(job.client, deque()).append(job)

    def pop(self, rank: Any = None) -> _Job | None:
        """The next job; within the client's, the first of the lowest ``rank(job)`` (while the
        workers warm up: a job that would wait for a compile goes after those that need not)."""
        if not self.jobs:
            return None
        client = min(self.jobs, key=lambda c: self.served.get(c, -1))  # ties: the first to queue
        jobs = self.jobs[client]
        job = min(jobs, key=rank) if rank is not None else jobs[0]
        jobs.remove(job)
        if not jobs:
            del self.jobs[client]
        self.served[client] = next(self.ticks)
        self.running[client] = self.running.get(client, 0) + 1
        return job

    def done(self, job: _Job) -> None:
        """A popped job has finished (or failed)."""
        self.running[job.client] -= 1
        if not self.running[job.client]:
            del self.running[job.client]
            self._forget(job.client)

    def remove(self, job: _Job) -> None:
        jobs = self.jobs.get(job.client)
        if jobs is not None and job in jobs:
            jobs.remove(job)
            if not jobs:
                del self.jobs[job.client]
                self._forget(job.client)

    def clear(self) -> list[_Job]:
        jobs = [job for queued in self.jobs.values() for job in queued]
        self.jobs.clear()
        self.served = {client: tick for client, tick in self.served.items() if client in self.running}
        return jobs

    def _forget(self, client: str) -> None:
        if client not in self.jobs and client not in self.running:
            self.served.pop(client, None)


class _ProcessWorker:
    def __init__(self, pool: BotPool, lane: str, index: int):
        self.lane = lane
        self.job: _Job | None = None
        self.ready = False  # takes jobs
        self.warmed: set[str | None] = set()  # the games warm in it (None: all)
        self.warming: str | None = None  # the game it is compiling now
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        # only the slow lane compiles everything at start: a quick reply on a cold cache never
        # waits behind the warm-up of another game, and a long worker (idle until someone plays
        # a top level) loads what is compiled and compiles only what its jobs need, after helping
        # the slow lane with the parts of its longest compiles
        compiles, helps = lane == SLOW, lane == LONG
        self.process = context.Process(target=_worker_main, args=(child, os.getpid(), pool.warm, compiles, helps),
                                       name=f"ludothek-bot-{lane}-{index}", daemon=True)
        self.process.start()
        child.close()  # so that the worker's death reads as end-of-file here
        self.pid = self.process.pid
        self.loop = pool.loop
        self.loop.add_reader(self.conn.fileno(), pool._readable, self)

    def receive(self) -> tuple | None:
        """The worker's message, or None if it died."""
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            return None

    def send(self, args: dict[str, Any] | None) -> bool:
        try:
            self.conn.send(args)
            return True
        except OSError:
            return False

    def alive(self) -> bool:
        return self.process.is_alive()  # also reaps it once it has exited

    def kill(self) -> None:
        if not self.conn.closed:
            try:
                self.loop.remove_reader(self.conn.fileno())
            except (RuntimeError, ValueError, OSError):  # the loop is already closed
                pass
            self.conn.close()
        if self.process.exitcode is None:
            self.process.kill()
        self.process.join(1)  # SIGKILL takes milliseconds; this reaps the process (no zombie)


class _ThreadWorker:
    """A worker thread for tests and single-process setups: it shares the server's GIL and
    cannot be killed, so ``close(drain=False)`` only abandons its job."""

    def __init__(self, pool: BotPool, lane: str, index: int):
        self.lane = lane
        self.job: _Job | None = None
        self.ready = False  # takes jobs
        self.warmed: set[str | None] = set()  # the games warm in it (None: all)
        self.warming: str | None = None  # the game it is compiling now
        self.pid = None
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, args=(pool.loop, pool._message, pool.warm),
                                       name=f"ludothek-bot-{lane}-{index}", daemon=True)
        self.thread.start()

    def _run(self, loop: asyncio.AbstractEventLoop, deliver: Any, warm: bool) -> None:
        def post(message: tuple) -> None:
            try:
                loop.call_soon_threadsafe(deliver, self, message)
            except RuntimeError:  # the loop is closed: nobody waits any more
                pass

        if warm:
            warm_up(done=lambda game: post(("warmed", game)))
        post(("ready", None))
        post(("warmed", None))
        while (args := self.inbox.get()) is not None:
            post(_answer(args))

    def send(self, args: dict[str, Any] | None) -> bool:
        self.inbox.put(args)
        return True

    def kill(self) -> None:
        self.inbox.put(None)


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class BotPool:
    """``await pool.compute(args, client)`` is the action that ``compute_bot_action(args)``
    returns, computed by a worker in turn with the other clients' jobs.

    ``kind`` is ``"process"`` (spawned worker processes) or ``"thread"``; ``workers`` is the
    number of slow workers (default ``cores - 1``, at least 1), ``quick_workers`` the quick
    lane's (0: the slow workers take quick jobs too), ``long_workers`` the long lane's
    (default: as many as slow workers; 0: the slow workers take long jobs, after the others); ``warm`` runs :func:`warm_up` in each
    worker, which answers the jobs that come in meanwhile between two games (default: for
    processes only); ``on_warm(game)`` is called when every worker has warmed ``game``, and
    ``on_warm(None)`` when they have warmed them all.
    """

    def __init__(self, kind: str = "process", workers: int | None = None, quick_workers: int = 1,
                 warm: bool | None = None, on_warm: Any = None, long_workers: int | None = None):
        if kind not in ("process", "thread"):
            raise ValueError(f"bot pool kind must be 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.workers = max(1, cores() - 1) if workers is None else workers
        self.quick_workers = quick_workers
        self.long_workers = self.workers if long_workers is None else long_workers
        self.warm = kind == "process" if warm is None else warm
        self.on_warm = on_warm  # on_warm(game): every worker has warmed that game (None: all games)
        self._announced: set[str | None] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._workers: list[Any] = []  # the quick ones first
        self._queues = {lane: _FairQueue() for lane in LANES}
        self._games: set[str] = set()
        self._closed = False
        self._spawned = 0

    # -------------------------------------------------------------- use
    def start(self) -> None:
        """Start the workers (call it on the event loop; ``compute`` does it when needed)."""
        if self._closed:
            raise PoolClosed("the bot pool is closed")
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            for _ in range(self.quick_workers):
                self._spawn(QUICK)
            for _ in range(self.workers):
                self._spawn(SLOW)
            for _ in range(self.long_workers):
                self._spawn(LONG)
            atexit.register(self.shutdown_now)

    async def ready(self, timeout: float | None = None) -> None:
        """Start the workers and wait until each has warmed up (they take jobs meanwhile)."""
        self.start()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not all(None in worker.warmed for worker in self._workers):
            if self._closed:
                raise PoolClosed("the bot pool closed while starting")
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"the bot workers were not ready after {timeout} s")
            await asyncio.sleep(0.05)

    async def compute(self, args: dict[str, Any], client: str, *, game_id: str | None = None,
                      on_start: Any = None) -> int:
        """The bot's action. ``client`` is whom the job is for (fairness is per client);
        ``game_id``, if given, is checked to have no other job in the pool; ``on_start()`` is
        called when a worker takes the job.

        Raises :class:`PoolClosed`, :class:`WorkerDied` (retry) or :class:`BotFailed`."""
        self.start()
        lane = lane_of(args["agent"], args["game"])
        if game_id is not None:
            if game_id in self._games:
                raise BotPoolError(f"game {game_id} already has a bot job in the pool")
            self._games.add(game_id)
        queued, depth = time.monotonic(), metrics.BOT_QUEUE.labels(lane)
        taken = False

        def started() -> None:
            nonlocal taken
            if not taken:
                taken = True
                depth.dec()
                metrics.BOT_WAIT.labels(lane).observe(time.monotonic() - queued)
            if on_start is not None:
                on_start()

        job = _Job(args, str(client), lane, self.loop.create_future(), game_id, started)
        depth.inc()
        self._queues[lane].push(job)
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            self._queues[lane].remove(job)  # if it has started, its answer is dropped
            raise
        finally:
            if not taken:  # it never started: it leaves the queue here
                depth.dec()
            self._games.discard(game_id)

    def stats(self) -> dict[str, Any]:
        lanes = LANES
        return {
            "kind": self.kind,
            "closed": self._closed,
            "queued": {lane: len(self._queues[lane]) for lane in lanes},
            "clients": {lane: len(self._queues[lane].jobs) for lane in lanes},
            "workers": {lane: sum(w.lane == lane for w in self._workers) for lane in lanes},
            "ready": {lane: sum(w.lane == lane and w.ready for w in self._workers) for lane in lanes},
            "warm": {lane: sum(w.lane == lane and None in w.warmed for w in self._workers) for lane in lanes},
            "busy": {lane: sum(w.lane == lane and w.job is not None for w in self._workers) for lane in lanes},
            "pids": {lane: [w.pid for w in self._workers if w.lane == lane and w.pid] for lane in lanes},
        }

    # -------------------------------------------------------------- stop
    async def close(self, drain: bool = True, timeout: float = 10) -> None:
        """Stop: queued jobs fail with :class:`PoolClosed` at once; with ``drain`` the jobs in
        flight may finish for up to ``timeout`` seconds, then the workers exit (or are killed)
        and are reaped."""
        self._closed = True
        for lane_queue in self._queues.values():
            for job in lane_queue.clear():
                _fail(job, PoolClosed("the bot pool closed before this job started"))
        running = [w.job.future for w in self._workers if w.job is not None]
        if drain and running:
            await asyncio.wait(running, timeout=timeout)
        for worker in self._workers:
            if worker.job is not None:
                _fail(self._take(worker), PoolClosed("the bot pool closed while this job was running"))
        if drain and self.kind == "process":
            for worker in self._workers:
                worker.send(None)
            deadline = time.monotonic() + 1
            while any(w.alive() for w in self._workers) and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        self.shutdown_now()

    def shutdown_now(self) -> None:
        """Kill the workers at once and fail every job (synchronous: for tests and atexit)."""
        self._closed = True
        for lane_queue in self._queues.values():
            for job in lane_queue.clear():
                _fail(job, PoolClosed("the bot pool closed before this job started"))
        workers, self._workers = self._workers, []
        for worker in workers:
            if worker.job is not None:
                _fail(self._take(worker), PoolClosed("the bot pool closed while this job was running"))
            worker.kill()
        atexit.unregister(self.shutdown_now)

    # -------------------------------------------------------------- inside
    def _spawn(self, lane: str) -> None:
        self._spawned += 1
        cls = _ProcessWorker if self.kind == "process" else _ThreadWorker
        self._workers.insert(0 if lane == QUICK else len(self._workers), cls(self, lane, self._spawned))

    def _dispatch(self) -> None:
        if self._closed:
            return
        for worker in list(self._workers):  # the quick workers come first
            if not worker.ready or worker.job is not None:
                continue
            rank = None if None in self._announced else self._warmth
            job = None
            for lane in self._lanes_for(worker):
                job = self._queues[lane].pop(rank)
                if job is not None:
                    break
            if job is None:
                continue
            worker.job = job
            if job.on_start is not None:
                job.on_start()
            if not worker.send(job.args):
                self._died(worker)

    def _lanes_for(self, worker: Any) -> tuple[str, ...]:
        """The lanes ``worker`` takes jobs from, in order: its own, and once it is warm (one
        warming up answers only between two games: the others are sooner) those of shorter jobs
        (:data:`HELPS`); slow workers take the long jobs too when there are no long workers."""
        if None not in worker.warmed:
            return (worker.lane,)
        lanes = HELPS[worker.lane]
        if worker.lane == SLOW and not self.long_workers:
            lanes += (LONG,)
        return lanes

    def _readable(self, worker: _ProcessWorker) -> None:
        message = worker.receive()
        if message is None:
            self._died(worker)
        else:
            self._message(worker, message)

    def _message(self, worker: Any, message: tuple) -> None:
        if worker not in self._workers:
            return  # a worker that was shut down
        kind = message[0]
        if kind == "ready":
            worker.ready = True
        elif kind == "warming":
            worker.warming = message[1]
        elif kind == "warmed":
            game = message[1]
            worker.warmed.add(game)
            worker.warming = None
            if game not in self._announced and all(game in w.warmed for w in self._workers):
                self._announced.add(game)  # once: a replaced worker warms up again
                if self.on_warm is not None:
                    self.on_warm(game)
        else:
            job = self._take(worker)
            if job is not None and not job.future.done():
                if kind == "ok":
                    job.future.set_result(message[1])
                else:
                    job.future.set_exception(BotFailed(message[1], message[2]))
        self._dispatch()

    def _warmth(self, job: _Job) -> int:
        """0: the job's game is warm; 1: nobody compiles it (the worker taking the job will, beside
        the others); 2: a worker is compiling it (the job would wait for that)."""
        game = job.args.get("game")
        if game in self._announced:
            return 0
        return 2 if any(w.warming == game for w in self._workers) else 1

    def _take(self, worker: Any) -> _Job | None:
        job, worker.job = worker.job, None
        if job is not None:
            self._queues[job.lane].done(job)
        return job

    def _died(self, worker: _ProcessWorker) -> None:
        worker.kill()
        self._workers.remove(worker)
        job = self._take(worker)
        if job is not None:
            _fail(job, WorkerDied(f"the bot worker (pid {worker.pid}) died while computing "
                                  f"{job.args.get('agent')} for {job.args.get('game')}; the job may be retried"))
        if self._closed:
            return  # it was asked to exit, or it does not matter any more
        log.error("bot worker %s (%s lane) died with exit code %s", worker.pid, worker.lane, worker.process.exitcode)
        if None in worker.warmed:
            self._spawn(worker.lane)
        else:  # it died while starting: try again later rather than in a tight loop
            self.loop.call_later(5, self._respawn, worker.lane)

    def _respawn(self, lane: str) -> None:
        if not self._closed:
            self._spawn(lane)


def _fail(job: _Job, error: Exception) -> None:
    if not job.future.done():
        try:
            job.future.set_exception(error)
        except RuntimeError:  # its event loop is closed (atexit)
            pass
