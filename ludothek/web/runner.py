"""Work that happens without a request: bot moves, flag falls, games that other server
processes changed, and the hourly clean-up of games nobody joined."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .botpool import BotFailed, BotPool, PoolClosed, WorkerDied
from .hub import Hub
from .service import GameService, WebError

log = logging.getLogger("ludothek.web")


class Runner:
    def __init__(self, service: GameService, hub: Hub, bot_executor: str = "process", bot_workers: int | None = None):
        self.service = service
        self.hub = hub
        self.pool = BotPool(kind=bot_executor, workers=bot_workers)
        self.busy: set[str] = set()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task] = set()
        service.on_time_up = self.changed

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def changed(self, game_id: str, view: dict[str, Any]) -> None:
        """A committed change: show it, then start the bot or the clock that is due."""
        await self.hub.publish(game_id, view)
        self.after_change(game_id, view)

    def after_change(self, game_id: str, view: dict[str, Any]) -> None:
        if view["status"] == "ongoing":
            seat = view.get("to_seat")
            if seat is not None and view["seats"][seat]["kind"] == "bot" and game_id not in self.busy:
                self.busy.add(game_id)
                self.spawn(self._bot(game_id))
        self._arm(game_id, view)

    def _arm(self, game_id: str, view: dict[str, Any]) -> None:
        old = self.timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        clock = view.get("clock")
        if not clock or view["status"] != "ongoing" or "days" in clock:
            return  # correspondence deadlines are days away: the sweep (deadlines) ends those games
        if view.get("abort"):  # the player to move has not moved yet: his first-move window runs
            delay = view["abort"]["in"] + 0.05
        elif clock.get("running") is not None:
            delay = clock["remaining"][clock["running"]] / 1000 + 0.05
        else:
            return
        loop = asyncio.get_running_loop()
        self.timers[game_id] = loop.call_later(delay, lambda: self.spawn(self._flag(game_id)))

    async def _flag(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        try:
            view = await self.service.get_view(game_id)  # an end it finds is shown by on_time_up
        except WebError:
            return
        self._arm(game_id, view)  # not over yet (a move came, or the clock was set back): look again

    async def _bot(self, game_id: str) -> None:
        retries = 1
        try:
            while True:
                job = await self.service.bot_job(game_id)
                if job is None:
                    return
                version, args = job
                try:
                    action = await self.pool.compute(args, args.pop("client"), game_id=game_id)
                except WorkerDied:
                    if not retries:
                        raise
                    retries -= 1
                    continue  # the worker was replaced: ask again
                except PoolClosed:
                    return  # shutting down; the turn is resumed after the restart
                live = await self.service.bot_move(game_id, version, args["seat"], action)
                if live is not None:
                    view = self.service.view(live)
                    await self.hub.publish(game_id, view)
                    self._arm(game_id, view)
        except BotFailed as exc:
            log.error("bot failed in game %s: %s\n%s", game_id, exc, exc.details)
        except Exception:
            log.exception("bot failed in game %s", game_id)
        finally:
            self.busy.discard(game_id)

    async def resume(self) -> None:
        """After a restart: start the bots whose turn it is (their move was never made)."""
        for game_id in await asyncio.to_thread(self.service.store.bot_games):
            try:
                self.after_change(game_id, await self.service.get_view(game_id, check=False))
            except Exception:
                log.exception("resuming game %s failed", game_id)

    async def elsewhere(self, game_id: str, version: int | None = None) -> None:
        """Another process changed a game: show it to the watchers here."""
        live = self.service.games.get(game_id)
        before = live.row.version if live is not None else None
        if not self.service.changed_elsewhere(game_id, version) and game_id not in self.hub.rooms:
            return
        try:
            view = await self.service.get_view(game_id, check=version is None)
        except WebError:
            return
        if view["version"] == before:
            return
        await self.hub.publish(game_id, view, only_newer=True)
        self.after_change(game_id, view)

    async def poll(self, interval: float = 1.5) -> None:
        """Without notifications (SQLite shared by several processes): look for changes to the
        watched games, one cheap version query each."""
        while True:
            await asyncio.sleep(interval)
            for game_id in list(self.hub.rooms):
                try:
                    await self.elsewhere(game_id)
                except Exception:
                    log.exception("polling game %s failed", game_id)

    async def deadlines(self, interval: float = 30) -> None:
        """End the games whose time ran out where no timer of this process watched them
        (correspondence, games of other processes, games from before a restart)."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.service.flag_overdue()  # each game it ends is shown by on_time_up
            except Exception:
                log.exception("ending games out of time failed")

    async def housekeeping(self, interval: float = 3600) -> None:
        while True:
            try:
                ended = await self.service.expire_waiting()
                if ended:
                    log.info("ended %d games that nobody joined", ended)
            except Exception:
                log.exception("expiring waiting games failed")
            await asyncio.sleep(interval)

    async def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        await self.pool.close(drain=True, timeout=10)
        if self.tasks:  # let the moves the drain finished be stored and shown
            await asyncio.wait(list(self.tasks), timeout=5)
        for task in list(self.tasks):
            task.cancel()
