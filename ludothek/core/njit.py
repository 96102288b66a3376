"""numba's ``njit``, with kernels calling kernels by their arguments' plain types.

When a kernel calls another, numba compiles the callee for the exact types of that call,
literal values included: ``f(a, 0)``, ``f(a, 1)``, ``f(a, n)`` and ``f(a, m)`` with ``n``
an int64 and ``m`` an int32 are four compilations of ``f``, each as slow as the first. Our
kernels pass constants (a side, a ply kind, ``True``) and integers read from arrays of
every width all the time, so a cold start compiled many kernels three to five times (the
dice games' search ``_push_move`` five times). Typing every such call by its value's plain
type — literal values dropped, signed integers widened to int64 — compiles each kernel
once per distinct array argument instead, and changes no result: the widening keeps every
value, and a kernel's arithmetic on narrower integers is done in int64 by numba anyway.
Measured on the first ``bot:1`` move of a dice game on an empty cache: 67 → 44 CPU s (docs/KERNEL_SPEED.md).

Kernel modules import ``njit`` from here, never from numba (a test checks); numba's own jitted
helpers keep their literal calls.

Processes sharing the kernel cache (a server and its bot workers, the test workers, ``ludothek
warm``) also take turns per kernel: a process about to compile one of our kernels holds a lock
file for it in the cache folder, so a second process wanting the same kernel waits and then
loads it from the cache instead of compiling it again at the same time (on a cold start two bot
workers warming two dice games, which share their search, both compiled it: 20 CPU s twice).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import Any

import numba
from numba import types
from numba.core import sigutils
from numba.core.caching import NullCache
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher

__all__ = ["njit"]

_OURS = "_ludothek_plain_calls"  # set on the dispatchers this njit makes


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit``, the kernel marked to be called by plain types. Only our kernels are:
    numba's own jitted helpers (e.g. ``hasattr``'s) need the literal values they are given."""
    made = numba.njit(*args, **options)
    if isinstance(made, Dispatcher):  # @njit without parentheses
        setattr(made, _OURS, True)
        return made

    def decorate(function: Any) -> Dispatcher:
        kernel = made(function)
        setattr(kernel, _OURS, True)
        return kernel

    return decorate


def _plain(argument: types.Type) -> types.Type:
    argument = types.unliteral(argument)
    if isinstance(argument, types.Integer) and argument.signed:
        return types.int64
    return argument


def _install() -> None:
    typed_by_call = Dispatcher.get_call_template
    if getattr(typed_by_call, _OURS, False):
        return

    def get_call_template(self, args, kws):
        if getattr(self, _OURS, False):
            args, kws = tuple(_plain(a) for a in args), {k: _plain(v) for k, v in kws.items()}
        return typed_by_call(self, args, kws)

    setattr(get_call_template, _OURS, True)
    Dispatcher.get_call_template = get_call_template

    compile_alone = Dispatcher.compile

    def compile(self, sig):
        folder = _lock_folder(self)
        if folder is None or tuple(sigutils.normalize_signature(sig)[0]) in self.overloads:
            return compile_alone(self, sig)
        # numba's lock first: a thread holding a kernel's file must never wait for numba's lock
        # (another thread compiling a caller of that kernel holds it and waits for the file)
        with global_compiler_lock, open(folder / f"{self.py_func.__module__}.{self.py_func.__qualname__}.lock",
                                        "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
            return compile_alone(self, sig)  # from the cache if another process has just compiled it

    setattr(compile, _OURS, True)
    Dispatcher.compile = compile


def _lock_folder(kernel: Dispatcher) -> Path | None:
    """Where ``kernel``'s compile lock lives, or None: not our kernel, or no disk cache."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder or not getattr(kernel, _OURS, False) or isinstance(kernel._cache, NullCache):
        return None
    locks = Path(folder) / "compiling"
    try:
        locks.mkdir(exist_ok=True)
    except OSError:
        return None
    return locks


_install()
