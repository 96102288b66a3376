"""Where numba keeps compiled kernels.

numba's disk cache checks only the source file of the function it loads, so a cached kernel
that calls kernels in another module keeps their old machine code after that module changes.
We therefore key one cache folder by the contents of Ludothek's source: any edit gives a fresh
folder, and unchanged code loads from disk. The web app, the command line and the terminal
front end hold no kernel and no table a kernel reads, so their edits keep the folder (a web
change does not recompile every game). Must run before numba is imported.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_KEEP_OLD_SECONDS = 24 * 3600  # another process may still be using an older folder

_PACKAGE = Path(__file__).resolve().parent.parent
#: the parts of the package no kernel can depend on (the architecture test keeps games and
#: core from importing them)
_NO_KERNELS = ("web/", "cli.py", "terminal.py", "i18n.py")


def source_digest() -> str:
    digest = hashlib.sha1()
    for path in sorted(_PACKAGE.rglob("*.py")):
        if path.relative_to(_PACKAGE).as_posix().startswith(_NO_KERNELS):
            continue
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def configure() -> None:
    """Point numba at ``~/.cache/ludothek/numba-<digest>`` unless the user chose a folder.

    When the folder cannot be written (a read-only home, or ``NUMBA_CACHE_DIR`` pointing at
    a read-only place), Ludothek's kernels compile without a disk cache and one warning line
    goes to stderr: numba's own fallbacks (``__pycache__`` next to the source, which keeps
    stale code across modules as said above) would either fail at import or be unsafe."""
    chosen = os.environ.get("NUMBA_CACHE_DIR", "")
    if chosen:
        folder = Path(chosen)
    else:
        try:
            root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludothek"
        except RuntimeError:  # no home folder at all
            root = Path("~/.cache/ludothek")
        folder = root / f"numba-{source_digest()}"
    problem = _unwritable(folder) if folder.is_absolute() else "no home folder"
    if problem is not None:
        _compile_without_cache(folder, problem)
        return
    if not chosen:
        for old in folder.parent.glob("numba-*"):
            try:
                if old != folder and time.time() - old.stat().st_mtime > _KEEP_OLD_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
            except OSError:
                pass
        os.environ["NUMBA_CACHE_DIR"] = str(folder)


def _unwritable(folder: Path) -> str | None:
    """Why numba could not keep its cache in ``folder`` (None: it can)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()  # numba's own test of a cache folder
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


_WARNED = "LUDOTHEK_NO_KERNEL_CACHE_WARNED"  # child processes inherit it and stay quiet


def _compile_without_cache(folder: Path, problem: str) -> None:
    """Make ``cache=True`` a no-op for Ludothek's kernels (other packages keep numba's rules)."""
    from numba.core.dispatcher import Dispatcher

    enable_caching = Dispatcher.enable_caching
    if not getattr(enable_caching, "_ludothek", False):

        def ludothek_enable_caching(self: Any) -> None:
            if not str(getattr(self.py_func, "__module__", "")).startswith("ludothek."):
                enable_caching(self)

        ludothek_enable_caching._ludothek = True  # type: ignore[attr-defined]
        Dispatcher.enable_caching = ludothek_enable_caching
    if not os.environ.get(_WARNED):
        os.environ[_WARNED] = "1"
        sys.stderr.write(f"warning: cannot cache compiled kernels in {folder} ({problem}); "
                         "compiling them in every run (set NUMBA_CACHE_DIR to a writable folder)\n")
        sys.stderr.flush()


def compile_once(tasks: list[Any], run: Any, compile: bool = True, between: Any = None, kind: str = "") -> None:
    """``run(task)`` for every task, in order, where several processes warm up at once (a
    server and its bot workers) and would otherwise each compile the same kernels: a lock file
    per task in the kernel cache lets one process compile it while the others go on to the
    next task, and come back to it (to load it from the cache) when they have done the rest.
    A task done is marked in the cache; with ``compile=False`` only the marked tasks are run
    (a process that must stay free for requests loads what is compiled and no more).
    ``between()`` is called before each task, holding no lock (a worker answers its jobs
    there). ``kind`` names the tasks' files apart from other kinds of the same names. Without a
    cache folder every process runs everything itself."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or os.environ.get(_WARNED):
        for task in tasks:
            if between is not None:
                between()
            run(task)
        return
    import fcntl

    pending, wait = list(tasks), False
    while pending:
        put_off = []
        for task in pending:
            if between is not None:
                between()
            name = f"{kind}-{task}" if kind else str(task)
            done = Path(folder) / f"warmed-{name}"
            if not compile:
                if done.exists():
                    run(task)
                continue
            with open(Path(folder) / f"warming-{name}.lock", "a") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
                except BlockingIOError:
                    put_off.append(task)
                    continue
                run(task)  # closing the file releases the lock
                done.touch()
        pending, wait = put_off, True
