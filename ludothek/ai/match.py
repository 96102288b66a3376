"""Tournaments: agent A against agent B over N games, on a local process pool or Ray.

Games come in pairs (see :mod:`.pairing`): both games of a pair start from the same opening
and see the same dice stream, with the seats exchanged. So neither the first-player
advantage nor a lucky opening skews the result.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Callable, Iterator

from ..core.orphans import die_with_parent
from .pairing import GameResult, MatchGame, game_specs, play_game
from .ray_pool import run_games_ray
from .stats import MatchStats

__all__ = ["GameResult", "MatchGame", "MatchInterrupted", "game_specs", "play_game", "run_games", "run_match", "tally"]


def run_games(specs: list[MatchGame], workers: int = 1, ray_address: str | None = None) -> Iterator[GameResult]:
    """Play the games, yielding results as they finish: in-process when ``workers`` is 1,
    on a local process pool, or on Ray when ``ray_address`` is given.

    Pool workers die with this process (even on SIGKILL) and ignore Ctrl-C: when the caller
    stops early (Ctrl-C, an error, ``close()``), the workers are killed at once rather than
    finishing every queued game."""
    if ray_address is not None:
        yield from run_games_ray(specs, ray_address)
        return
    if workers <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    pool = worker_pool(workers)
    finished = False
    try:
        with _sigint_ignored():  # workers start with Ctrl-C ignored (kept across exec)
            futures = [pool.submit(play_game, spec) for spec in specs]
        for future in as_completed(futures):
            yield future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:
            _stop(pool)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that die with this one and leave Ctrl-C to it."""
    # spawn, not fork: the caller may run threads (a progress display), and a spawned worker
    # is a direct child, which die_with_parent needs
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))


def _worker_init(parent_pid: int) -> None:
    die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent to handle


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while worker processes are started (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, saved)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Drop the queued games and kill the workers now (a game in progress is lost)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        try:
            process.kill()
        except (OSError, ValueError):
            pass
    for process in processes:
        try:
            process.join(timeout=5)
        except (OSError, ValueError, AssertionError):
            pass


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_match`: ``results`` holds the games finished so far."""

    def __init__(self, results: list[GameResult]):
        super().__init__(f"interrupted after {len(results)} games")
        self.results = results


def tally(results: list[GameResult]) -> MatchStats:
    wins = sum(1 for r in results if r.score_a == 1.0)
    losses = sum(1 for r in results if r.score_a == 0.0)
    return MatchStats(wins, len(results) - wins - losses, losses)


def run_match(specs: list[MatchGame], workers: int = 1,
              progress: Callable[[GameResult, list[GameResult]], None] | None = None,
              ray_address: str | None = None) -> list[GameResult]:
    """Play every game; Ctrl-C stops at once and raises :class:`MatchInterrupted` with the
    games finished so far."""
    results: list[GameResult] = []
    games = run_games(specs, workers, ray_address)
    try:
        for result in games:
            results.append(result)
            if progress is not None:
                progress(result, results)
    except KeyboardInterrupt:
        games.close()  # kills the workers before anything else happens
        raise MatchInterrupted(sorted(results, key=lambda r: r.number)) from None
    finally:
        games.close()
    results.sort(key=lambda r: r.number)
    return results
