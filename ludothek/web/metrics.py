"""The server's Prometheus metrics (the official ``prometheus_client``) and ``GET /metrics``.

With several worker processes (``ludothek serve --workers N``) the supervisor gives every
worker the same ``PROMETHEUS_MULTIPROC_DIR`` before it starts; each process then keeps its
values in files there, and a scrape of any worker adds up all of them (the client's
multiprocess mode). One process alone keeps them in memory.

``/metrics`` answers only addresses that ``--metrics-from`` names (default: this machine's
loopback addresses): the counts tell an outsider how busy the server is and which routes it
has, which is nobody else's business. A request that came through a proxy is judged by every
address on its way (``X-Forwarded-For``), so a public request relayed by a local nginx is
refused too.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.requests import Request
from starlette.responses import Response

from ..core.messages import language_of
from .texts import TEXTS

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
DEFAULT_METRICS_FROM = "127.0.0.0/8,::1"

#: milliseconds to seconds: a move answers in a few ms, a commit syncs in a few ms, a bot waits up to minutes
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WAIT_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

REQUESTS = Counter("ludothek_http_requests", "HTTP requests answered, by route template, method and status",
                   ["route", "method", "status"])
MOVE_SECONDS = Histogram("ludothek_move_seconds",
                         "Accepted moves (HTTP or websocket): from the request to the move committed and shown",
                         buckets=FAST_BUCKETS)
LIVE_GAMES = Gauge("ludothek_live_games", "Games in the database that are being played (status ongoing)",
                   multiprocess_mode="mostrecent")
WEBSOCKETS = Gauge("ludothek_websockets", "Open websocket connections, by route template", ["route"],
                   multiprocess_mode="livesum")
BOT_QUEUE = Gauge("ludothek_bot_queue_depth", "Bot jobs waiting for a worker, by lane", ["lane"],
                  multiprocess_mode="livesum")
BOT_WAIT = Histogram("ludothek_bot_wait_seconds", "Time a bot job waited before a worker took it, by lane",
                     ["lane"], buckets=WAIT_BUCKETS)
DB_COMMIT = Histogram("ludothek_db_commit_seconds", "Time to write and commit one group of writes (group commit)",
                      buckets=FAST_BUCKETS)


def parse_addresses(text: str | None) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network] | None:
    """``--metrics-from``: comma-separated addresses or networks (``10.0.0.0/8``), or ``any``
    (None: every address). Raises ValueError naming the entry that is not an address."""
    text = DEFAULT_METRICS_FROM if text is None else text
    if text.strip().lower() == "any":
        return None
    networks = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(TEXTS("metrics_from_bad", value=part[:60])) from None
    if not networks:
        raise ValueError(TEXTS("metrics_from_bad", value=text[:60]))
    return networks


def _allowed(address: str, networks: list) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip().split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in networks)


def may_scrape(request: Request, networks: list | None) -> bool:
    if networks is None:
        return True
    hops = [request.client.host if request.client else ""]
    hops += [hop for hop in request.headers.get("x-forwarded-for", "").split(",") if hop.strip()]
    return all(_allowed(hop, networks) for hop in hops)


def registry() -> Any:
    """What a scrape reads: every worker's files in multiprocess mode, else this process."""
    if os.environ.get(MULTIPROC_ENV):
        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)
        return collected
    return REGISTRY


def metrics_route(store: Any, metrics_from: str | None) -> Any:
    """The ``/metrics`` endpoint; ``store`` answers how many games are live."""
    networks = parse_addresses(metrics_from)

    async def endpoint(request: Request) -> Response:
        if not may_scrape(request, networks):
            text = TEXTS("metrics_refused").text(language_of(request.headers.get("accept-language")))
            return Response(text + "\n", status_code=403, media_type="text/plain")
        LIVE_GAMES.set(await asyncio.to_thread(store.live_games))
        return Response(generate_latest(registry()), media_type=CONTENT_TYPE_LATEST)

    return endpoint


def worker_died(pid: int) -> None:
    """For the supervisor: forget a dead worker's live gauges (its counters stay counted)."""
    if os.environ.get(MULTIPROC_ENV):
        multiprocess.mark_process_dead(pid)
