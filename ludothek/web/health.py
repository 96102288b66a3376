"""``GET /healthz`` (the process answers: 200 at once, touching nothing) and ``GET /readyz`` (the
server can do its work: the database answers, the kernels are compiled, the bot pool has a
worker ready in each lane) for load balancers and service managers. ``/readyz`` answers 200 or
503 with ``{"ready": bool, "failing": [names], "checks": {name: {"ok": bool, ...}}}``."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

#: a database that takes longer than this to answer ``SELECT 1`` is not ready
DATABASE_TIMEOUT = 5.0


def _json(data: Any, status: int) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


async def _database(store: Any) -> dict[str, Any]:
    try:
        await asyncio.wait_for(asyncio.to_thread(store.ping), DATABASE_TIMEOUT)
    except TimeoutError:
        return {"ok": False, "error": f"no answer within {DATABASE_TIMEOUT:g} s"}
    except Exception as exc:  # noqa: BLE001 - any failure means: not ready, and why
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    return {"ok": True}


def _kernels(warming: Any) -> dict[str, Any]:
    return {"ok": warming.done, "detail": "warm" if warming.done else "warming up"}


def _bots(pool: Any) -> dict[str, Any]:
    stats = pool.stats()
    lanes = {lane: {"workers": stats["workers"][lane], "ready": stats["ready"][lane]} for lane in stats["workers"]}
    ok = not stats["closed"] and all(lane["ready"] > 0 for lane in lanes.values() if lane["workers"])
    ok = ok and any(lane["workers"] for lane in lanes.values())
    return {"ok": ok, "lanes": lanes, **({"error": "the bot pool is closed"} if stats["closed"] else {})}


def health_routes(store: Any, pool: Any) -> list[Route]:
    """The two routes; "kernels warm" is read from ``app.state.warming`` (its ``done``), the one
    place the app's background warm-up reports to."""

    async def healthz(request: Request) -> Response:
        return _json({"ok": True}, 200)

    async def readyz(request: Request) -> Response:
        checks = {
            "database": await _database(store),
            "kernels": _kernels(request.app.state.warming),
            "bots": _bots(pool),
        }
        failing = [name for name, check in checks.items() if not check["ok"]]
        return _json({"ready": not failing, "failing": failing, "checks": checks}, 503 if failing else 200)

    return [Route("/healthz", healthz, methods=["GET"]), Route("/readyz", readyz, methods=["GET"])]
