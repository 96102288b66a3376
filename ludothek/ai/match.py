"""Tournaments: agent A against agent B over N games, on a local process pool.

Games come in pairs. Both games of a pair start from the same opening (a few uniformly
random plies drawn from the pair's seed — for Trike Black's opening stone, so the pie-rule
decision is the agents' own) and see the same dice stream; A takes seat 0 in the first game
and seat 1 in the second. So neither the first-player advantage nor a lucky opening skews
the result. Every game is reproducible from (match seed, game number).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ..core.orphans import die_with_parent
from ..core.protocol import CHANCE
from ..core.registry import new_game
from .base import make_agent
from .budget import Budget
from .stats import MatchStats

#: random plies that open each pair of games, per game (default 2). Bitis has its own
#: fixed opening procedure and is decided by a random one, so it starts from the start.
OPENING_PLIES = {"trike": 1, "bitis": 0}


@dataclass(frozen=True)
class GameSpec:
    game: str
    agent_a: str
    agent_b: str
    number: int  # 0-based; A sits in seat number % 2
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    position: str | None = None
    seconds_per_move: float | None = None
    opening_plies: int | None = None


@dataclass
class GameResult:
    number: int
    a_seat: int
    score_a: float  # 1, 0.5 or 0
    plies: int
    moves: list[str] = field(default_factory=list)
    seconds: tuple[float, float] = (0.0, 0.0)  # thinking time of A and B
    result: str = "*"


def play_game(spec: GameSpec) -> GameResult:
    pair = spec.number // 2
    a_seat = spec.number % 2
    state = new_game(spec.game, spec.position, **dict(spec.options))
    opening = random.Random(f"{spec.seed}/opening/{pair}")
    plies = OPENING_PLIES.get(spec.game, 2) if spec.opening_plies is None else spec.opening_plies
    dice = random.Random(f"{spec.seed}/dice/{pair}")
    for _ in range(plies):
        if state.is_over():
            break
        _step(state, None, opening, dice)
    agents = [None, None]
    for which, agent_spec in ((a_seat, spec.agent_a), (1 - a_seat, spec.agent_b)):
        agent = make_agent(agent_spec, spec.game, seed=hash((spec.seed, spec.number, which)) & 0x7FFFFFFF)
        if spec.seconds_per_move is not None and agent.budget is not None:
            agent.budget = Budget(seconds=spec.seconds_per_move)
        agents[which] = agent
    thinking = [0.0, 0.0]
    while not state.is_over():
        player = state.current_player()
        started = time.perf_counter()
        _step(state, agents[player] if player != CHANCE else None, opening, dice)
        if player != CHANCE:
            thinking[player] += time.perf_counter() - started
    returns = state.returns()
    score_a = (returns[a_seat] + 1) / 2
    return GameResult(spec.number, a_seat, score_a, state.ply, state.record_tokens(),
                      (thinking[a_seat], thinking[1 - a_seat]), state.result())


def _step(state, agent, opening: random.Random, dice: random.Random) -> None:
    if state.current_player() == CHANCE:
        actions, weights = zip(*state.chance_outcomes())
        state.play(dice.choices(actions, weights)[0])
    elif agent is None:
        state.play(opening.choice(state.legal_actions()))
    else:
        state.play(agent.choose(state))


def game_specs(game: str, agent_a: str, agent_b: str, n: int, seed: int, **extra: Any) -> list[GameSpec]:
    return [GameSpec(game, agent_a, agent_b, number, seed, **extra) for number in range(n)]


def run_games(specs: list[GameSpec], workers: int = 1, ray_address: str | None = None) -> Iterator[GameResult]:
    """Play the games, yielding results as they finish: in-process when ``workers`` is 1,
    on a local process pool, or on Ray when ``ray_address`` is given.

    Pool workers die with this process (even on SIGKILL) and ignore Ctrl-C: when the caller
    stops early (Ctrl-C, an error, ``close()``), the workers are killed at once rather than
    finishing every queued game."""
    if ray_address is not None:
        from .ray_pool import run_games_ray

        yield from run_games_ray(specs, ray_address)
        return
    if workers <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    # spawn, not fork: the caller may run threads (a progress display), and a spawned worker
    # is a direct child, which die_with_parent needs
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(os.getpid(),))
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


def run_match(specs: list[GameSpec], workers: int = 1,
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
