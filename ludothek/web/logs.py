"""The server's log lines: plain text (uvicorn's own format, warnings and errors only) or, with
``ludothek serve --log-format json``, one JSON object a line on stderr with ``time``, ``level``,
``logger``, ``message``, the ``request_id`` of the request being handled (if any) and, for the
access lines (logger ``ludothek.access``), ``method``, ``route``, ``status`` and ``duration_ms``."""

from __future__ import annotations

import contextvars
import logging
import re
import secrets
import sys
from datetime import UTC, datetime
from typing import Any

import orjson

ACCESS = logging.getLogger("ludothek.access")
#: the id of the request this task or thread works for (asyncio tasks and to_thread inherit it)
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("ludothek_request_id", default=None)
#: an incoming X-Request-ID is kept if it is this tame (a proxy's id, a UUID); else a new one is made
SANE_ID = re.compile(r"[A-Za-z0-9._:=+/-]{1,128}")
FIELDS = ("method", "route", "status", "duration_ms")


def request_id(incoming: str | None) -> str:
    if incoming is not None and SANE_ID.fullmatch(incoming):
        return incoming
    return secrets.token_hex(16)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or REQUEST_ID.get()
        if rid is not None:
            line["request_id"] = rid
        for field in FIELDS:
            if hasattr(record, field):
                line[field] = getattr(record, field)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line, default=str).decode()


def uvicorn_log_config(log_format: str) -> dict[str, Any] | None:
    """What ``uvicorn.Config(log_config=...)`` gets: None in JSON mode (:func:`setup` has set up
    the root logger, which uvicorn's loggers reach), uvicorn's own config otherwise."""
    if log_format == "json":
        return None
    from uvicorn.config import LOGGING_CONFIG

    return LOGGING_CONFIG


def setup(log_format: str) -> None:
    """In JSON mode: every logger's lines (uvicorn's, the app's, the access lines) as JSON on
    stderr, from INFO up. In text mode nothing changes (no access lines)."""
    if log_format != "json":
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)  # ours has the route and the request id
