"""What a game's first bot move compiles on an empty kernel cache, and how long it takes.

    NUMBA_CACHE_DIR=$(mktemp -d) taskset -c 1 python3 benchmarks/first_move_compile.py trigeo [bot:1]

Prints the CPU seconds to set up the game and to make the first move, then the kernels that
took longest to compile (their own time, without the kernels they call) and the kernels
compiled more than once (one line per signature).
"""

from __future__ import annotations

import argparse
import gc
import resource
import time

import numba.core.event as numba_events
from numba.core.registry import CPUDispatcher

from ludothek.ai.base import make_agent
from ludothek.core.registry import game_class


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class CompileTimes(numba_events.Listener):
    """Each kernel's own compile time (a kernel's compile includes those of its callees)."""

    def __init__(self) -> None:
        self.own: dict[str, float] = {}
        self.open: list[list[float]] = []

    def on_start(self, event) -> None:
        self.open.append([time.perf_counter(), 0.0])

    def on_end(self, event) -> None:
        function = event.data["dispatcher"].py_func
        name = f"{function.__module__.rsplit('.', 1)[-1]}.{function.__qualname__}"
        started, inner = self.open.pop()
        total = time.perf_counter() - started
        self.own[name] = self.own.get(name, 0.0) + total - inner
        if self.open:
            self.open[-1][1] += total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("agent", nargs="?", default="bot:1")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    times = CompileTimes()
    numba_events.register("numba:compile", times)
    start = cpu_seconds()
    state = game_class(args.game)()
    state.legal_actions()
    ready = cpu_seconds()
    make_agent(args.agent, args.game, seed=0).choose(state)
    moved = cpu_seconds()
    print(f"set-up {ready - start:.1f} CPU s, first {args.agent} move {moved - ready:.1f} CPU s")
    for name, seconds in sorted(times.own.items(), key=lambda item: -item[1])[:args.top]:
        print(f"{seconds:7.1f} s  {name}")
    for kernel in gc.get_objects():
        if isinstance(kernel, CPUDispatcher) and len(kernel.signatures) > 1:
            print(f"compiled {len(kernel.signatures)} times: {kernel.py_func.__qualname__}")
            for signature in kernel.signatures:
                print("    ", signature)


if __name__ == "__main__":
    main()
