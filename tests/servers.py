"""Real ``ludothek serve`` processes for the tests: started, waited for until they say they are
ready (warming up compiles every game's kernels, which takes long on a cold numba cache), and
stopped. A thread drains each server's output, so a chatty server never blocks on a full pipe."""

from __future__ import annotations

import queue
import signal
import socket
import subprocess
import sys
import threading
import time

READY_TIMEOUT = 240.0
#: ``serve`` arguments for a server of one process. On PostgreSQL a server starts a worker
#: process per core by default (and a supervisor): where two servers on one database are what a
#: test checks, not the workers (tests/test_web_workers.py), that is two processes more apiece.
ONE_PROCESS = ("--workers", "1")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, what: str, bound: float = 60.0) -> None:
    """Wait until something accepts connections on ``port`` of 127.0.0.1 (within ``bound``
    seconds, while ``process`` runs). uvicorn listens only after the app's start-up, so a
    server's "Ludothek is ready" comes a moment before its port takes connections."""
    until = time.monotonic() + bound
    while True:
        assert process.poll() is None, f"{what} ended"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < until, f"{what} did not listen on port {port} within {bound:.0f} s"
            time.sleep(0.02)  # a poll with a bound: nothing says when the port is open


class Server:
    def __init__(self, db: str, *args: str, port: int | None = None, ready: str = "Ludothek is ready"):
        """``ready``: the start of the line that says the server answers (with ``--workers N``:
        ``"Ludothek's N workers are ready"``)."""
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ludothek.cli", "serve", "--port", str(self.port), "--db", db, *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.output: list[str] = []
        self.lines: queue.Queue[str | None] = queue.Queue()
        lines = self.lines
        threading.Thread(target=self._drain, args=(lines,), daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=READY_TIMEOUT)
            except queue.Empty:
                self.kill()
                raise AssertionError(f"ludothek serve was not ready after {READY_TIMEOUT:.0f} s") from None
            if line is None:
                raise AssertionError("ludothek serve ended before it was ready:\n" + "".join(self.output))
            if line.startswith(ready):
                break

    def _drain(self, lines: queue.Queue) -> None:
        for line in self.process.stdout:
            self.output.append(line)
            lines.put(line)
        lines.put(None)

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """SIGTERM, as a service manager stops it; SIGKILL if it does not end in time."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(20)


class InProcessServer:
    """The web app served by uvicorn in a thread of the test process, for what a separate
    process cannot be given: here, an injected ``clock`` that the test moves on by days
    (``create_app``'s keyword arguments pass through)."""

    def __init__(self, db: str, **app_options):
        import time

        import uvicorn

        from ludothek.web import create_app

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        app = create_app(db, **{"bot_executor": "thread", "warm": False, **app_options})
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        until = time.monotonic() + READY_TIMEOUT
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > until:
                raise AssertionError("the in-process server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)
