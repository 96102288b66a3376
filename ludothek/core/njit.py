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

Kernel modules import ``njit`` from here, never from numba (an architecture test checks).
"""

from __future__ import annotations

from numba import njit, types
from numba.core.dispatcher import Dispatcher

__all__ = ["njit"]


def _plain(argument: types.Type) -> types.Type:
    argument = types.unliteral(argument)
    if isinstance(argument, types.Integer) and argument.signed:
        return types.int64
    return argument


def _install() -> None:
    typed_by_call = Dispatcher.get_call_template
    if getattr(typed_by_call, "_ludothek", False):
        return

    def get_call_template(self, args, kws):
        return typed_by_call(self, tuple(_plain(a) for a in args), {k: _plain(v) for k, v in kws.items()})

    get_call_template._ludothek = True
    Dispatcher.get_call_template = get_call_template


_install()
