"""Independent tasks (e.g. the self-play games that make training data) run in this
process, on a local process pool or on a Ray cluster, as ``ludothek match`` runs its games
(:mod:`.match`, :mod:`.ray_pool`): results stream back as tasks finish.

Tasks are taken from an iterator only as workers free up (a few queued per worker), so the
caller can stop asking (``close()`` the generator) once it has enough; pool workers then die
at once."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, wait
from typing import Any, Callable, Iterable, Iterator

from .match import _sigint_ignored, _stop, worker_pool
from .ray_pool import cancel, connect


def run_tasks(function: Callable[..., Any], tasks: Iterable[tuple], workers: int = 1,
              ray_address: str | None = None) -> Iterator[tuple[tuple, Any]]:
    """Yield ``(arguments, function(*arguments))`` for each task, in the order they finish."""
    if ray_address is not None:
        yield from _ray(function, tasks, workers, ray_address)
        return
    if workers <= 1:
        for arguments in tasks:
            yield arguments, function(*arguments)
        return
    pool = worker_pool(workers)
    pending: dict = {}
    source = iter(tasks)
    finished = False
    try:
        with _sigint_ignored():
            for arguments in _take(source, 2 * workers):
                pending[pool.submit(function, *arguments)] = arguments
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                arguments = pending.pop(future)
                for more in _take(source, 1):
                    pending[pool.submit(function, *more)] = more
                yield arguments, future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:
            _stop(pool)


def _take(source: Iterator, count: int) -> list:
    taken = []
    for arguments in source:
        taken.append(arguments)
        if len(taken) == count:
            break
    return taken


def _ray(function, tasks, workers: int, address: str) -> Iterator[tuple[tuple, Any]]:
    ray = connect(address)
    remote = ray.remote(function)
    # keep the whole cluster busy: a few tasks queued per CPU it has (at least per local worker)
    width = max(2 * workers, 2 * int(ray.cluster_resources().get("CPU", 1)))
    source = iter(tasks)
    pending = {remote.remote(*arguments): arguments for arguments in _take(source, width)}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                arguments = pending.pop(ref)
                for more in _take(source, 1):
                    pending[remote.remote(*more)] = more
                yield arguments, ray.get(ref)
    finally:
        cancel(ray, pending)
