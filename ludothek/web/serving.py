"""Running the web app: one process, or ``--workers N`` processes behind one port.

With several workers, this process is a small supervisor: it binds the listening socket once,
hands it to N spawned worker processes (each accepts from the same socket and runs its own app:
event loop, database pool, bot pool), starts a new worker when one dies, and on Ctrl-C or
SIGTERM asks every worker to stop and waits for them. The workers share nothing but the
database (PostgreSQL: LISTEN/NOTIFY carries moves between them, as between servers) and the
metrics folder that the supervisor makes and removes (:mod:`.metrics`).

Every server stops gracefully on SIGTERM or Ctrl-C: it stops accepting, lets the requests in
flight finish (a move being committed is committed and answered), closes its websockets with
code 1012 ("service restart": the page reconnects at once, to another worker or the restarted
server), drains its bot workers, and exits within ``shutdown_timeout`` seconds whatever happens.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

import uvicorn

from . import logs, metrics

log = logging.getLogger("ludothek.web")

#: a worker that dies sooner than this after its start is restarted only after a pause, so a
#: worker that cannot start (a broken database) does not spin the machine
QUICK_DEATH = 10.0
RESTART_PAUSE = 2.0


@dataclass
class Serving:
    """How to run the app; picklable, so that spawned workers get it."""

    app_options: dict[str, Any]
    log_format: str = "text"
    shutdown_timeout: float = 10.0
    trusted_proxy: str | None = None
    uvicorn_extra: dict[str, Any] = field(default_factory=dict)  # the read timeouts' protocol (.timeouts)

    def config(self, app: Any) -> uvicorn.Config:
        return uvicorn.Config(
            app, log_level="info" if self.log_format == "json" else "warning", access_log=False,
            log_config=logs.uvicorn_log_config(self.log_format), ws_max_size=64 * 1024, lifespan="on",
            backlog=4096, proxy_headers=self.trusted_proxy is not None, forwarded_allow_ips=self.trusted_proxy,
            timeout_graceful_shutdown=self.shutdown_timeout, **self.uvicorn_extra,
        )


class BoundedServer(uvicorn.Server):
    """uvicorn's server, which on the first stop signal also starts a clock: whatever still runs
    ``shutdown_timeout`` seconds later (a request that never completes, a bot that will not
    stop) is cut short by ending the process. ``on_started`` is called once it accepts."""

    def __init__(self, config: uvicorn.Config, shutdown_timeout: float, on_started: Any = None):
        super().__init__(config)
        self.shutdown_timeout = shutdown_timeout
        self.on_started = on_started
        self._bound: threading.Timer | None = None

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if not self.should_exit and self.on_started is not None:
            self.on_started()

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if self._bound is None:
            self._bound = threading.Timer(self.shutdown_timeout, self._cut_short)
            self._bound.daemon = True
            self._bound.start()

    def _cut_short(self) -> None:
        log.error("still stopping after %g s: exiting now", self.shutdown_timeout)
        logging.shutdown()
        os._exit(1)


def serve_one(app: Any, listener: socket.socket, serving: Serving, on_started: Any = None) -> None:
    """Run ``app`` in this process on ``listener`` until a stop signal; ``on_started()`` once it answers."""
    BoundedServer(serving.config(app), serving.shutdown_timeout, on_started).run(sockets=[listener])


# ------------------------------------------------------------------ several workers
def _worker_main(serving: Serving, listener: socket.socket, parent_pid: int, ready: Any, index: int) -> None:
    from ..core.orphans import die_with_parent
    from .app import create_app

    die_with_parent(parent_pid)
    logs.setup(serving.log_format)
    app = create_app(**serving.app_options)

    def started() -> None:
        app.state.listening.set()
        try:
            ready.send(("ready", index, os.getpid()))
        except OSError:  # the supervisor is gone; die_with_parent ends this process
            pass

    BoundedServer(serving.config(app), serving.shutdown_timeout, started).run(sockets=[listener])


class Supervisor:
    """Keeps ``workers`` worker processes serving ``listener`` until a stop signal."""

    def __init__(self, serving: Serving, listener: socket.socket, workers: int, out: Any = None,
                 address: str | None = None):
        """``address``: the line that shows where the server answers, said when the first worker does."""
        self.serving = serving
        self.address = address
        self.listener = listener
        self.count = workers
        self.out = out or sys.stdout
        self.context = multiprocessing.get_context("spawn")
        self.procs: dict[int, Any] = {}  # index -> process
        self.born: dict[int, float] = {}
        self.pending: dict[int, float] = {}  # index -> when to start it again
        self.ready: set[int] = set()
        self.announced = False
        self.stopping: int | None = None
        self.reader, self.writer = self.context.Pipe(duplex=False)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        folder = tempfile.mkdtemp(prefix="ludothek-metrics-")
        os.environ[metrics.MULTIPROC_ENV] = folder  # inherited by every worker (spawn copies the environment)
        wake_r, wake_w = socket.socketpair()
        wake_w.setblocking(False)
        old_wakeup = signal.set_wakeup_fd(wake_w.fileno())
        old_handlers = {sig: signal.signal(sig, self._signalled) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            for index in range(self.count):
                self._start(index)
            while self.stopping is None:
                self._step(wake_r)
            return self._stop()
        finally:
            for sig, handler in old_handlers.items():
                signal.signal(sig, handler)
            signal.set_wakeup_fd(old_wakeup)
            wake_r.close()
            wake_w.close()
            os.environ.pop(metrics.MULTIPROC_ENV, None)
            shutil.rmtree(folder, ignore_errors=True)

    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs.values()]

    def _signalled(self, sig: int, frame: Any) -> None:
        if self.stopping is None:
            self.stopping = sig

    def _start(self, index: int) -> None:
        proc = self.context.Process(target=_worker_main, name=f"ludothek-web-{index}", daemon=False,
                                    args=(self.serving, self.listener, os.getpid(), self.writer, index))
        proc.start()
        self.procs[index] = proc
        self.born[index] = time.monotonic()

    def _step(self, wake: socket.socket) -> None:
        now = time.monotonic()
        timeout = min([max(0.0, at - now) for at in self.pending.values()] + [5.0])
        waiting = [proc.sentinel for proc in self.procs.values()] + [self.reader, wake]
        for ready in wait(waiting, timeout):
            if ready is wake:
                try:
                    wake.recv(512)
                except BlockingIOError:
                    pass
            elif ready is self.reader:
                self._message(self.reader.recv())
        for index, proc in list(self.procs.items()):
            if proc.exitcode is not None:
                self._died(index, proc)
        for index, at in list(self.pending.items()):
            if at <= time.monotonic() and self.stopping is None:
                del self.pending[index]
                self._start(index)

    def _message(self, message: tuple) -> None:
        _, index, pid = message
        if not self.ready and not self.announced and self.address:
            self.say(self.address)
        self.ready.add(index)
        if not self.announced and len(self.ready) == self.count:
            self.announced = True
            self.say(f"Ludothek's {self.count} workers are ready (pids {', '.join(map(str, self.pids()))})")
        elif self.announced:
            self.say(f"Ludothek worker {index} is ready again (pid {pid})")

    def _died(self, index: int, proc: Any) -> None:
        del self.procs[index]
        self.ready.discard(index)
        metrics.worker_died(proc.pid)
        proc.join()
        lived = time.monotonic() - self.born.pop(index)
        pause = RESTART_PAUSE if lived < QUICK_DEATH else 0.0
        self.say(f"Ludothek worker {index} (pid {proc.pid}) died with exit code {proc.exitcode}; starting a new one")
        self.pending[index] = time.monotonic() + pause

    def _stop(self) -> int:
        """Ask every worker to stop (SIGTERM: graceful) and wait for them; the workers keep
        their own bound, this one is only the backstop."""
        for proc in self.procs.values():
            if proc.exitcode is None:
                try:
                    os.kill(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + self.serving.shutdown_timeout + 5
        for proc in self.procs.values():
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in self.procs.values():
            if proc.exitcode is None:
                proc.kill()
                proc.join(5)
        return 0
