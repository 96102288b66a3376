"""A line on stderr when numba starts compiling a part of Ludothek: a first run (or the first
after an update) waits for the compiler, up to minutes for the dice games' search, and should
say so rather than look stuck. Loads from the kernel cache are not compiles and stay silent."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from numba.core import event

_installed: list[Any] = []


def install(stream: TextIO | None = None, only_terminal: bool = False) -> None:
    """Say on ``stream`` (stderr) when each part (a game, or the shared dice code) starts to
    compile; ``only_terminal``: only if the stream is a terminal (for the library, whose
    caller's output should not change). Installing twice does nothing."""
    stream = stream or sys.stderr
    if _installed or (only_terminal and not stream.isatty()):
        return
    listener = _Notice(stream)
    event.register("numba:compile", listener)
    _installed.append(listener)


def part_of(module: str) -> str | None:
    """The part of Ludothek a kernel's module belongs to (a game, ``dice`` or ``core``)."""
    parts = module.split(".")
    if parts[0] != "ludothek":
        return None
    return parts[2] if parts[1] == "games" and len(parts) > 2 else parts[1]


class _Notice(event.Listener):
    def __init__(self, stream: TextIO):
        self.stream = stream
        self.told: set[str] = set()

    def on_end(self, ev: Any) -> None:
        pass

    def on_start(self, ev: Any) -> None:
        part = part_of(getattr(ev.data["dispatcher"].py_func, "__module__", "") or "")
        if part is not None and part not in self.told:
            self.told.add(part)
            self.stream.write(f"compiling Ludothek's {part} kernels (a first run only: later runs load "
                              "them from the cache) …\n")
            self.stream.flush()
