"""What the server notes about every request: its id (``X-Request-ID``, kept from the client when
sane, else made here, and sent back), its route template, status and duration, counted in the
metrics (:mod:`.metrics`) and written as an access line (:mod:`.logs`), and the open websockets."""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.routing import Match, Mount

from . import metrics
from .guard import HardenedStarlette
from .logs import ACCESS, REQUEST_ID, request_id

UNMATCHED = "unmatched"  # every path no route takes shares one label: a scan of random paths adds no series


def route_of(routes: list[Any], scope: dict[str, Any]) -> str:
    """The template of the route that takes ``scope`` (``/api/games/{id}/move``), never the raw path:
    the one Starlette's router noted in the scope, or (for a request answered before routing,
    such as a 429) the one that would have taken it."""
    route = scope.get("route")
    if route is not None:
        return _template(route)
    partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return _template(route)
        if match is Match.PARTIAL and partial is None:  # the path, another method: a 405
            partial = _template(route)
    return partial or UNMATCHED


def _template(route: Any) -> str:
    return route.path + "/{path}" if isinstance(route, Mount) else route.path


class Observe:
    def __init__(self, app: Any, routes: list[Any]):
        self.app = app
        self.routes = routes

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        incoming = headers.get(b"x-request-id")
        rid = request_id(incoming.decode("latin-1") if incoming is not None else None)
        token = REQUEST_ID.set(rid)
        try:
            if kind == "websocket":
                await self._websocket(scope, receive, send)
            else:
                await self._http(scope, receive, send, rid)
        finally:
            REQUEST_ID.reset(token)

    async def _http(self, scope: dict[str, Any], receive: Any, send: Any, rid: str) -> None:
        started = time.perf_counter()
        status = 500  # an exception before the answer began: the server's 500 is what the client gets

        async def sending(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode())]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = route_of(self.routes, scope)
            method = scope.get("method", "")
            metrics.REQUESTS.labels(route, method, str(status)).inc()
            if ACCESS.isEnabledFor(logging.INFO):
                duration = round((time.perf_counter() - started) * 1000, 2)
                ACCESS.info("%s %s %s", method, route, status,
                            extra={"method": method, "route": route, "status": status, "duration_ms": duration})

    async def _websocket(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        gauge = None

        async def sending(message: dict[str, Any]) -> None:
            nonlocal gauge
            await send(message)
            if message["type"] == "websocket.accept" and gauge is None:
                gauge = metrics.WEBSOCKETS.labels(route_of(self.routes, scope))
                gauge.inc()

        try:
            await self.app(scope, receive, sending)
        finally:
            if gauge is not None:
                gauge.dec()


class ObservedStarlette(HardenedStarlette):
    """The app with :class:`Observe` outside everything, the 500s of unforeseen errors included."""

    def build_middleware_stack(self) -> Any:
        return Observe(super().build_middleware_stack(), self.routes)
