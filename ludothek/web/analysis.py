"""Computer analysis of finished games for the web (issue 12, item 7).

``POST /api/games/{id}/analysis`` starts it (409 while the game goes on; asking again is
harmless; 429 past the ``analysis`` rate limit or with :data:`PER_CLIENT` analyses of one
client waiting, 503 with Retry-After when :data:`MAX_WAITING` analyses wait in this process),
``GET`` tells how far it is: ``{"status": "none" | "queued" | "running" | "done" | "failed",
...}``, with the analysis (:meth:`ludothek.ai.review.Review.to_json`, with the best moves'
arrows of :mod:`.lines`) once done. ``GET …/analysis/line?ply=N`` plays the expected line of
the position after ply N on the board.

The work (:func:`ludothek.ai.review.review_game`) runs in the bot pool (:mod:`.botpool`), never
on the event loop: a game is cut into spans of :data:`SPAN` plies, each a job of its own in the
slow lane, so the fair queue serves other clients' bot moves between them and the page can show
the progress. The result is stored in the ``analyses`` table (migration 0004) and read from
there afterwards: no game is analysed twice (unless :data:`FORMAT` changes). A job in flight lives
in this process only; after a restart it is started again by the next request.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..ai.review import FORMAT_VERSION, spans
from ..core.messages import Catalog
from .botpool import BotPool, BotPoolError, PoolClosed, WorkerDied
from .errors import RetryLater
from .guard import RateLimits, client_of
from .lines import add_arrows, position_line
from .service import GameService, WebError
from .store import Account, Store, analyses_table

log = logging.getLogger("ludothek.web")

TEXTS = Catalog("analysis", {
    "not_over": ("the game is not over: only a finished game can be analysed",
                 "die Partie läuft noch: Nur eine beendete Partie lässt sich analysieren"),
    "no_plies": ("the game ended before its first ply: there is nothing to analyse",
                 "die Partie endete vor ihrem ersten Halbzug: Es gibt nichts zu analysieren"),
    "busy": ("you already wait for {count} analyses: ask again when one is done",
             "du wartest schon auf {count} Analysen: Frag erneut, sobald eine fertig ist"),
    "failed": ("the analysis failed; ask for it again", "die Analyse ist fehlgeschlagen; bitte erneut anfordern"),
    "queue_full": ("the server already has {count} analyses to compute: ask again in {wait} s",
                   "der Server hat schon {count} Analysen zu berechnen: Frag in {wait} s erneut"),
})

#: plies per pool job
SPAN = 12
#: analyses one client may have queued or running at once
PER_CLIENT = 3
#: analyses this server process keeps queued or running at once, for all clients together; one
#: more is refused with 503 and Retry-After (the server is busy, the client did nothing wrong)
MAX_WAITING = 24
#: the Retry-After of that 503, in seconds: about the time a worker needs for a short game
FULL_RETRY_AFTER = 30
#: the stored format: a stored analysis of another format is computed again
FORMAT = FORMAT_VERSION


class Analyses:
    """The analyses this server process computes, and the stored ones."""

    def __init__(self, service: GameService, pool: BotPool):
        self.service = service
        self.pool = pool
        self.store: Store = service.store
        #: game id -> {"status", "done", "total", "client", "task", "error"}
        self.jobs: dict[str, dict[str, Any]] = {}
        #: the number of analyses started here (the tests check that a second request starts none)
        self.started = 0

    # ------------------------------------------------------------------ requests
    async def start(self, game_id: Any, client: str) -> dict[str, Any]:
        row = await self._finished(game_id)
        # the job is asked before and after the stored result is read: a job ends by storing
        # its result and then leaving self.jobs, so one that ended during the read is stored
        job = self.jobs.get(row.id)
        if job is not None and job["status"] != "failed":
            return _progress(job)
        stored = await asyncio.to_thread(self._load, row.id)
        if stored is not None:
            return {"status": "done", "analysis": stored}
        job = self.jobs.get(row.id)
        if job is not None and job["status"] != "failed":
            return _progress(job)
        if not row.moves:
            raise WebError(409, TEXTS("no_plies"))
        waiting = [j for j in self.jobs.values() if j["status"] in ("queued", "running")]
        mine = sum(1 for j in waiting if j["client"] == client)
        if mine >= PER_CLIENT:
            raise WebError(429, TEXTS("busy", count=mine))
        if len(waiting) >= MAX_WAITING:
            raise RetryLater(503, TEXTS("queue_full", count=len(waiting), wait=FULL_RETRY_AFTER), FULL_RETRY_AFTER)
        args = {
            "job": "review", "agent": "review", "game": row.game, "position": row.position,
            "options": row.options, "actions": [int(m[0]) for m in row.moves], "seed": 1,
        }
        job = {"status": "queued", "done": 0, "total": len(row.moves), "client": client, "error": None}
        self.jobs[row.id] = job
        self.started += 1
        job["task"] = asyncio.get_running_loop().create_task(self._run(row.id, args, job))
        return _progress(job)

    async def status(self, game_id: Any) -> dict[str, Any]:
        live = await self.service.live(game_id, check=True)
        job = self.jobs.get(live.row.id)
        if job is not None and job["status"] != "done":
            return _progress(job)
        stored = await asyncio.to_thread(self._load, live.row.id)
        if stored is not None:
            return {"status": "done", "analysis": stored}
        return {"status": "none", "over": live.row.status == "over"}

    async def line(self, game_id: Any, ply: str | None) -> dict[str, Any]:
        """The expected line of the position after ``ply``, played on the board (:mod:`.lines`)."""
        from .lines import TEXTS as LINE_TEXTS

        row = await self._finished(game_id)
        stored = await asyncio.to_thread(self._load, row.id)
        if stored is None:
            raise WebError(404, LINE_TEXTS("no_analysis"))
        return await asyncio.to_thread(position_line, self.service, row, stored, ply)

    async def _finished(self, game_id: Any) -> Any:
        live = await self.service.live(game_id, check=True)
        if live.row.status != "over":
            raise WebError(409, TEXTS("not_over"))
        return live.row

    # ------------------------------------------------------------------ the work
    async def _run(self, game_id: str, args: dict[str, Any], job: dict[str, Any]) -> None:
        parts: list[dict[str, Any]] = []

        def started() -> None:
            if job["status"] == "queued":
                job["status"] = "running"

        try:
            for first, last in spans(job["total"], SPAN):
                for attempt in range(2):
                    try:
                        part = await self.pool.compute({**args, "span": [first, last]}, job["client"],
                                                       on_start=started)
                        break
                    except WorkerDied:
                        if attempt:
                            raise
                parts.append(part)
                job["done"] = last
            result = await asyncio.to_thread(add_arrows, args["game"], args["position"], args["options"],
                                             args["actions"], merge_parts(parts))
            await asyncio.to_thread(self._save, game_id, job["total"], result)
            job["status"] = "done"
        except PoolClosed:
            job["status"], job["error"] = "failed", TEXTS("failed")
        except BotPoolError as exc:
            log.error("the analysis of game %s failed: %s\n%s", game_id, exc, getattr(exc, "details", ""))
            job["status"], job["error"] = "failed", TEXTS("failed")
        except Exception:
            log.exception("the analysis of game %s failed", game_id)
            job["status"], job["error"] = "failed", TEXTS("failed")
        finally:
            if job["status"] == "done":
                self.jobs.pop(game_id, None)  # the database has it now

    # ------------------------------------------------------------------ storage
    def _load(self, game_id: str) -> dict[str, Any] | None:
        query = select(analyses_table.c.format, analyses_table.c.result).where(analyses_table.c.game_id == game_id)
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None or row[0] != FORMAT:
            return None
        return json.loads(row[1])

    def _save(self, game_id: str, plies: int, result: dict[str, Any]) -> None:
        values = {"game_id": game_id, "format": FORMAT, "plies": plies,
                  "result": json.dumps(result, ensure_ascii=False), "created": self.store.clock()}
        try:
            with self.store._taking_turns(), self.store.engine.begin() as conn:
                conn.execute(analyses_table.delete().where(analyses_table.c.game_id == game_id,
                                                           analyses_table.c.format != FORMAT))
                conn.execute(analyses_table.insert().values(**values))
        except IntegrityError:
            pass  # another server process stored it first: the same analysis


def _progress(job: dict[str, Any]) -> dict[str, Any]:
    answer = {"status": job["status"], "done": job["done"], "total": job["total"]}
    if job["status"] == "failed":
        answer["error"] = job["error"]
    return answer


def merge_parts(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One analysis from the JSON of consecutive spans."""
    parts = sorted(parts, key=lambda part: part["start"]["ply"])
    merged = dict(parts[0])
    merged["entries"] = [entry for part in parts for entry in part["entries"]]
    merged["colours"] = parts[-1]["colours"]
    merged["seconds"] = round(sum(part["seconds"] for part in parts), 3)
    return merged


# ---------------------------------------------------------------------------- routes
def analysis_routes(service: GameService, pool: BotPool, handler: Callable[[Any], Any], limits: RateLimits,
                    viewer: Callable[[Request], Awaitable[Account | None]]) -> list[Route]:
    """The two routes; ``handler`` wraps an endpoint as the app wraps its own (errors as JSON
    in the client's language). Asking for an analysis counts against the ``analysis`` rate
    limit of the client's address (:class:`~.guard.RateLimitMiddleware`) and, for a logged-in
    player, of his account too (``viewer``: the account of a request), wherever he asks from."""
    analyses = Analyses(service, pool)

    @handler
    async def start(request: Request) -> Response:
        account = await viewer(request)
        if account is not None:
            limits.enforce(f"account:{account.id}", "analysis")
        # whom the jobs are for, as the pool knows the players of bot games (fairness is per client)
        client = hashlib.sha256(client_of(request.scope).encode()).hexdigest()
        data = await analyses.start(request.path_params["id"], client)
        return _response(request, data, 202 if data["status"] in ("queued", "running") else 200)

    @handler
    async def status(request: Request) -> Response:
        return _response(request, await analyses.status(request.path_params["id"]))

    @handler
    async def line(request: Request) -> Response:
        return _response(request, await analyses.line(request.path_params["id"], request.query_params.get("ply")))

    service.analyses = analyses  # type: ignore[attr-defined] - what the tests look at
    return [
        Route("/api/games/{id}/analysis", start, methods=["POST"]),
        Route("/api/games/{id}/analysis", status, methods=["GET"]),
        Route("/api/games/{id}/analysis/line", line, methods=["GET"]),
    ]


def _response(request: Request, data: dict[str, Any], status: int = 200) -> Response:
    from ..core.messages import in_language, language_of

    if data.get("error") is not None:
        data = {**data, "error": in_language(data["error"], language_of(request.headers.get("accept-language")))}
    return Response(orjson.dumps(data), status_code=status, media_type="application/json")
