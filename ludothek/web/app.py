"""The ASGI app: JSON API, websockets for live games, and the static UI.

``create_app(db_url)`` returns a Starlette app. Every change goes through
:class:`~ludothek.web.service.GameService` (in a worker thread, as it talks to the database);
only after the database transaction has committed is the new state broadcast to the game's
websockets. Bots think in a process pool; clocks are kept by the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..core.errors import LudothekError
from ..core.registry import game_class
from .boards import adapter
from .bots import compute_bot_action, warm_up
from .service import GameService, WebError, bot_levels, game_catalog
from .store import Store

log = logging.getLogger("ludothek.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
MAX_WS_MESSAGE = 4 * 1024


class Hub:
    """The websockets watching each game (in this process)."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict[WebSocket, list[int]]] = {}
        #: the last version published per game (to notice changes made by other processes)
        self.seen: dict[str, int] = {}

    def join(self, game_id: str, ws: WebSocket) -> None:
        self.rooms.setdefault(game_id, {})[ws] = []
        self.seen.setdefault(game_id, -1)

    def leave(self, game_id: str, ws: WebSocket) -> None:
        room = self.rooms.get(game_id)
        if room is not None:
            room.pop(ws, None)
            if not room:
                del self.rooms[game_id]
                self.seen.pop(game_id, None)

    async def publish(self, game_id: str, view: dict[str, Any]) -> None:
        if game_id in self.seen:
            self.seen[game_id] = max(self.seen[game_id], view["version"])
        room = self.rooms.get(game_id, {})
        for ws, seats in list(room.items()):
            try:
                await ws.send_json({"type": "state", "game": view, "you": seats})
            except Exception:  # noqa: BLE001 - a closed socket; its handler removes it
                room.pop(ws, None)


class Runner:
    """Bots and clocks: work that happens without a request."""

    def __init__(self, service: GameService, hub: Hub, bot_executor: str = "process"):
        self.service = service
        self.hub = hub
        self.kind = bot_executor
        self.executor: Executor | None = None
        self.busy: set[str] = set()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task] = set()

    def _executor(self) -> Executor:
        if self.executor is None:
            if self.kind == "process":
                self.executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                    initializer=warm_up)
            else:
                self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ludothek-bot")
        return self.executor

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def after_change(self, game_id: str, view: dict[str, Any]) -> None:
        """Start the bot if one is to move; arm the clock's flag timer."""
        if view["status"] == "ongoing":
            seat = view.get("to_seat")
            if seat is not None and view["seats"][seat]["kind"] == "bot" and game_id not in self.busy:
                self.busy.add(game_id)
                self._spawn(self._bot(game_id))
        self._arm(game_id, view)

    def _arm(self, game_id: str, view: dict[str, Any]) -> None:
        old = self.timers.pop(game_id, None)
        if old is not None:
            old.cancel()
        clock = view.get("clock")
        if not clock or clock.get("running") is None or view["status"] != "ongoing":
            return
        delay = clock["remaining"][clock["running"]] / 1000 + 0.05
        loop = asyncio.get_running_loop()
        self.timers[game_id] = loop.call_later(delay, lambda: self._spawn(self._flag(game_id)))

    async def _flag(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        try:
            view = await run_in_threadpool(self.service.get_view, game_id)
        except WebError:
            return
        await self.hub.publish(game_id, view)
        self._arm(game_id, view)

    async def _bot(self, game_id: str) -> None:
        try:
            while True:
                job = await run_in_threadpool(self.service.bot_job, game_id)
                if job is None:
                    return
                version, args = job
                loop = asyncio.get_running_loop()
                try:
                    action = await loop.run_in_executor(self._executor(), compute_bot_action, args)
                except BrokenExecutor:
                    self.executor = None  # a worker died: start a fresh pool next time
                    raise
                view = await run_in_threadpool(self.service.bot_move, game_id, version, args["seat"], action)
                if view is not None:
                    await self.hub.publish(game_id, view)
                    self._arm(game_id, view)
        except Exception:
            log.exception("bot failed in game %s", game_id)
        finally:
            self.busy.discard(game_id)

    async def poll(self, interval: float = 1.5) -> None:
        """Several server processes may share one database: publish changes that another
        process made to the games watched here (one cheap version query per game)."""
        while True:
            await asyncio.sleep(interval)
            for game_id in list(self.hub.rooms):
                try:
                    version = await run_in_threadpool(self.service.store.version, game_id)
                    if version is not None and version > self.hub.seen.get(game_id, -1):
                        view = await run_in_threadpool(self.service.get_view, game_id)
                        await self.hub.publish(game_id, view)
                        self.after_change(game_id, view)
                except Exception:
                    log.exception("polling game %s failed", game_id)

    def close(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------------- helpers
def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(413, f"the request body is larger than {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise WebError(413, f"the request body is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise WebError(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise WebError(400, "the request body must be a JSON object")
    return data


def _token(request: Request, body: dict[str, Any] | None = None) -> str | None:
    if body and isinstance(body.get("token"), str):
        return body["token"]
    header = request.headers.get("x-ludothek-token") or ""
    if not header:
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            header = auth[7:].strip()
    return header or None


def _handler(function: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        try:
            return await function(request)
        except WebError as exc:
            return _error(exc.status, exc.message)
        except LudothekError as exc:
            return _error(400, str(exc))
    return wrapped


def _seats_for(service: GameService, game_id: str, token: str | None) -> list[int]:
    if not token:
        return []
    row = service.store.load(game_id, with_moves=False)
    return row.seats_of(token) if row else []


# ---------------------------------------------------------------------------- the app
def create_app(db: str | None = None, bot_executor: str = "process", sqlite_sync: str = "full") -> Starlette:
    store = Store(db, sqlite_sync=sqlite_sync)
    service = GameService(store)
    hub = Hub()
    runner = Runner(service, hub, bot_executor)

    async def changed(game_id: str, view: dict[str, Any]) -> None:
        await hub.publish(game_id, view)
        runner.after_change(game_id, view)

    # ------------------------------------------------------------------ pages
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "app.html", headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------------ catalog
    @_handler
    async def catalog(request: Request) -> Response:
        return JSONResponse({"games": game_catalog(), "bots": bot_levels()})

    async def messages(request: Request) -> Response:
        return JSONResponse(i18n.web_catalog())

    @_handler
    async def geometry(request: Request) -> Response:
        name = request.path_params["game"]
        options = {k: v for k, v in request.query_params.items() if k != "position"}
        cls = game_class(name)
        state = cls(request.query_params.get("position"), **options)
        return JSONResponse(adapter(cls.name).geometry(state.options))

    @_handler
    async def preview(request: Request) -> Response:
        """A position's board (for rules diagrams): ?game=&position=&moves=a|b&o.size=9"""
        params = request.query_params
        cls = game_class(params.get("game", ""))
        options = {k[2:]: v for k, v in params.items() if k.startswith("o.")}
        position = params.get("position") or None
        if position and len(position) > 2000:
            raise WebError(400, "position too long")
        state = cls(position, **options)
        moves = [m for m in params.get("moves", "").split("|") if m.strip()][:400]
        for move in moves:
            state.play(move.strip())
        ad = adapter(cls.name)
        board = ad.board(state)
        from .boards import legal_move_infos

        return JSONResponse({
            "game": cls.name, "geometry": ad.geometry(state.options), "board": board, "position": state.position(),
            "moves": legal_move_infos(state, ad) if params.get("legal") else [],
            "to_move": state.to_move, "threatened": ad.threatened(state, board),
        })

    # ------------------------------------------------------------------ games
    @_handler
    async def list_games(request: Request) -> Response:
        status = request.query_params.get("status") or None
        if status not in (None, "waiting", "ongoing", "over"):
            raise WebError(400, "status must be waiting, ongoing or over")
        try:
            limit = max(1, min(200, int(request.query_params.get("limit", 50))))
            offset = max(0, int(request.query_params.get("offset", 0)))
        except ValueError:
            raise WebError(400, "limit and offset must be whole numbers") from None
        rows = await run_in_threadpool(store.list_games, status, limit, offset)
        return JSONResponse({"games": [service.summary(r) for r in rows]})

    @_handler
    async def create_game(request: Request) -> Response:
        body = await _body(request)
        created = await run_in_threadpool(service.create, body)
        view = await run_in_threadpool(service.get_view, created["id"])
        runner.after_change(created["id"], view)
        return JSONResponse({**created, "game": view}, status_code=201)

    @_handler
    async def get_game(request: Request) -> Response:
        game_id = request.path_params["id"]
        at = request.query_params.get("at")
        try:
            at_ply = int(at) if at not in (None, "") else None
        except ValueError:
            raise WebError(400, "at must be a whole number") from None
        view = await run_in_threadpool(service.get_view, game_id, at_ply)
        if at_ply is None:
            runner.after_change(game_id, view)  # restart a bot or a clock after a server restart
        seats = await run_in_threadpool(_seats_for, service, game_id, _token(request))
        return JSONResponse({"game": view, "you": seats})

    def action(method: str) -> Any:
        @_handler
        async def endpoint(request: Request) -> Response:
            game_id = request.path_params["id"]
            body = await _body(request)
            token = _token(request, body)
            if method == "move":
                view = await run_in_threadpool(service.play, game_id, token, body.get("move"), body.get("seat"))
            elif method == "undo":
                view = await run_in_threadpool(service.undo, game_id, token)
            elif method == "resign":
                view = await run_in_threadpool(service.resign, game_id, token, body.get("seat"))
            elif method == "join":
                joined = await run_in_threadpool(service.join, game_id, body.get("invite"))
                view = await run_in_threadpool(service.get_view, game_id)
                await changed(game_id, view)
                return JSONResponse({**joined, "game": view})
            else:  # rematch
                created = await run_in_threadpool(service.rematch, game_id, token)
                old = await run_in_threadpool(service.get_view, game_id)
                await changed(game_id, old)
                view = await run_in_threadpool(service.get_view, created["id"])
                await changed(created["id"], view)
                return JSONResponse({**created, "game": view})
            await changed(game_id, view)
            seats = await run_in_threadpool(_seats_for, service, game_id, token)
            return JSONResponse({"game": view, "you": seats})
        return endpoint

    @_handler
    async def record(request: Request) -> Response:
        row, text = await run_in_threadpool(service.get_record, request.path_params["id"])
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{row.game}-{row.id}.ludo"'}
        )

    # ------------------------------------------------------------------ websocket
    async def live(ws: WebSocket) -> None:
        game_id = ws.path_params["id"]
        await ws.accept()
        try:
            view = await run_in_threadpool(service.get_view, game_id)
        except WebError as exc:
            await ws.send_json({"type": "error", "status": exc.status, "error": exc.message})
            await ws.close(code=4404)
            return
        hub.join(game_id, ws)
        token: str | None = None
        try:
            await ws.send_json({"type": "state", "game": view, "you": []})
            hub.seen[game_id] = max(hub.seen.get(game_id, -1), view["version"])
            runner.after_change(game_id, view)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None and message.get("bytes") is not None:
                    raw = message["bytes"].decode("utf-8", "replace")
                reply = await _ws_message(raw or "", game_id, ws, token)
                if isinstance(reply, tuple):  # a successful auth
                    token, reply = reply
                if reply is not None:
                    await ws.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(game_id, ws)

    async def _ws_message(raw: str, game_id: str, ws: WebSocket, token: str | None) -> Any:
        ref = None
        try:
            if len(raw) > MAX_WS_MESSAGE:
                raise WebError(413, f"message larger than {MAX_WS_MESSAGE} characters")
            try:
                data = json.loads(raw)
            except ValueError:
                raise WebError(400, "the message is not valid JSON") from None
            if not isinstance(data, dict):
                raise WebError(400, "a message must be a JSON object with a type")
            ref = data.get("ref") if isinstance(data.get("ref"), (int, str)) else None
            kind = data.get("type")
            if kind == "ping":
                return {"type": "pong", "ref": ref}
            if kind == "auth":
                given = data.get("token")
                if not isinstance(given, str) or not given:
                    raise WebError(401, "auth needs a token")
                seats = await run_in_threadpool(_seats_for, service, game_id, given)
                if not seats:
                    raise WebError(403, "the token does not hold a seat in this game")
                room = hub.rooms.get(game_id)
                if room is not None and ws in room:
                    room[ws] = seats
                view = await run_in_threadpool(service.get_view, game_id)
                return given, {"type": "state", "game": view, "you": seats, "ref": ref}
            use = data.get("token") if isinstance(data.get("token"), str) else token
            if kind == "move":
                view = await run_in_threadpool(service.play, game_id, use, data.get("move"), data.get("seat"))
            elif kind == "undo":
                view = await run_in_threadpool(service.undo, game_id, use)
            elif kind == "resign":
                view = await run_in_threadpool(service.resign, game_id, use, data.get("seat"))
            else:
                raise WebError(400, f"unknown message type {str(kind)[:30]!r} (auth, move, undo, resign, ping)")
            await changed(game_id, view)
            return {"type": "ok", "ref": ref}
        except WebError as exc:
            return {"type": "error", "status": exc.status, "error": exc.message, "ref": ref}
        except LudothekError as exc:
            return {"type": "error", "status": 400, "error": str(exc), "ref": ref}

    @asynccontextmanager
    async def lifespan(app: Starlette):
        poller = asyncio.get_running_loop().create_task(runner.poll())
        yield
        poller.cancel()
        runner.close()
        store.close()

    routes = [
        Route("/", page),
        Route("/play/{id}", page),
        Route("/archive", page),
        Route("/rules", page),
        Route("/rules/{game}", page),
        Route("/api/catalog", catalog),
        Route("/api/i18n", messages),
        Route("/api/geometry/{game}", geometry),
        Route("/api/preview", preview),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}/record", record, methods=["GET"]),
        Route("/api/games/{id}/move", action("move"), methods=["POST"]),
        Route("/api/games/{id}/undo", action("undo"), methods=["POST"]),
        Route("/api/games/{id}/resign", action("resign"), methods=["POST"]),
        Route("/api/games/{id}/join", action("join"), methods=["POST"]),
        Route("/api/games/{id}/rematch", action("rematch"), methods=["POST"]),
        WebSocketRoute("/ws/games/{id}", live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store = store
    app.state.service = service
    app.state.runner = runner
    return app
