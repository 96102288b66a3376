"""The queue in front of password hashing: a fair, bounded share of a costly resource.

A password hash takes a tenth of a second and 64 MiB, so the server computes at most
:data:`WORKERS` at once, in threads. Logins that find them busy wait in a queue that is

* **bounded**: at most :data:`CAPACITY` jobs wait; a login that finds no room is answered at
  once with 503 and a ``Retry-After`` (:class:`QueueFull`) instead of waiting behind everyone;
* **shared out**: one client address holds at most :data:`ADDRESS_SHARE` jobs (waiting or
  running), one account name at most :data:`ACCOUNT_SHARE`; a job over its share is refused
  the same way;
* **fair**: the next job to run is the one whose address has asked least of late (its
  requests, refused ones too, counted with a half-life of :data:`HALF_LIFE` seconds), the
  earlier one among equals. Addresses that flood the login take turns among themselves
  behind a person who logs in once. When the queue is full, a job that would go before the
  last waiting one takes its place, and that one is refused.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import RetryLater
from .texts import TEXTS

#: hashes computed at once: each takes 64 MiB and a core
WORKERS = 2
#: jobs that may wait for a worker; with priority to new addresses one waits about one hash
CAPACITY = 16
#: jobs one client address may hold at once (a person logs in once at a time)
ADDRESS_SHARE = 2
#: jobs for one account name at once, whoever sends them (a login with the account's device
#: cookie does not count: a flood against the name cannot keep its owner out)
ACCOUNT_SHARE = 3
#: how fast an address's past requests stop counting against its place in the queue
HALF_LIFE = 60.0
#: addresses whose requests are remembered (the one asked least recently is forgotten first)
REMEMBERED = 10_000
#: what a hash is assumed to take before the first one has been timed
FIRST_GUESS_SECONDS = 0.2


class QueueFull(RetryLater):
    """No room for a hash now: a 503 with the seconds after which to try again."""

    def __init__(self, retry_after: float):
        super().__init__(503, TEXTS("login_busy", wait=math.ceil(retry_after)), retry_after)


@dataclass(eq=False)
class _Job:
    address: str
    account: str | None
    order: int
    turn: asyncio.Future = field(repr=False)
    started: bool = False


class HashQueue:
    """Run blocking hash functions in threads, :attr:`workers` at once, in a fair bounded queue."""

    def __init__(self, workers: int = WORKERS, capacity: int = CAPACITY, address_share: int = ADDRESS_SHARE,
                 account_share: int = ACCOUNT_SHARE, clock: Callable[[], float] = time.monotonic):
        self.workers, self.capacity = workers, capacity
        self.address_share, self.account_share = address_share, account_share
        self.waiting: list[_Job] = []
        self.running: list[_Job] = []
        self.clock = clock
        self._asked: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address -> (requests, when)
        self._arrivals = itertools.count()
        self._seconds = FIRST_GUESS_SECONDS  # a running mean of a hash's time

    async def run(self, address: str, account: str | None, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a thread once it is this job's turn; :class:`QueueFull` at once
        if the job gets no place. ``account``: the name the job is for (None: not counted)."""
        job = self._admit(address, account)
        try:
            await job.turn
            began = time.monotonic()
            result = await asyncio.to_thread(function, *args)
            self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - began)
            return result
        finally:
            self._leave(job)

    def holds(self, address: str | None = None, account: str | None = None) -> int:
        """How many jobs of an address, or for an account, wait or run."""
        return sum(job.address == address or (account is not None and job.account == account)
                   for job in (*self.waiting, *self.running))

    def demand(self, address: str, now: float | None = None) -> float:
        """An address's requests of late: each counts 1, halved every :data:`HALF_LIFE` seconds."""
        now = self.clock() if now is None else now
        asked, when = self._asked.get(address, (0.0, now))
        return asked * 0.5 ** ((now - when) / HALF_LIFE)

    # ------------------------------------------------------------------ inside
    def _admit(self, address: str, account: str | None) -> _Job:
        self._note(address)
        if self.holds(address=address) >= self.address_share or self.holds(account=account) >= self.account_share:
            raise self._full()
        job = _Job(address, account, next(self._arrivals), asyncio.get_running_loop().create_future())
        if len(self.running) < self.workers:
            self._start(job)
            return job
        if len(self.waiting) >= self.capacity:
            now = self.clock()
            last = max(self.waiting, key=lambda waiting: self._rank(waiting, now))
            if self._rank(job, now) >= self._rank(last, now):
                raise self._full()
            self.waiting.remove(last)
            if not last.turn.done():
                last.turn.set_exception(self._full())
        self.waiting.append(job)
        return job

    def _note(self, address: str) -> None:
        now = self.clock()
        self._asked[address] = (self.demand(address, now) + 1.0, now)
        self._asked.move_to_end(address)
        while len(self._asked) > REMEMBERED:
            self._asked.popitem(last=False)

    def _rank(self, job: _Job, now: float) -> tuple[float, int]:
        """Lower goes first: the demand of the job's address, then its arrival."""
        return self.demand(job.address, now), job.order

    def _start(self, job: _Job) -> None:
        job.started = True
        self.running.append(job)
        job.turn.set_result(None)

    def _leave(self, job: _Job) -> None:
        if not job.started:  # refused or given up while waiting (the client went away)
            if job in self.waiting:
                self.waiting.remove(job)
            return
        self.running.remove(job)
        now = self.clock()
        while self.waiting and len(self.running) < self.workers:
            following = min(self.waiting, key=lambda waiting: self._rank(waiting, now))
            self.waiting.remove(following)
            if not following.turn.cancelled():  # its client went away; its task has not yet left
                self._start(following)

    def _full(self) -> QueueFull:
        """Refusal, with a guess at when the queue will have room: the waiting jobs' hashes."""
        return QueueFull(max(1.0, len(self.waiting) / self.workers * self._seconds))
