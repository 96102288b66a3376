"""The ASGI app: JSON API, websockets for live games, and the static UI.

``create_app(db_url)`` returns a Starlette app. Every change goes through
:class:`~ludothek.web.service.GameService` on the event loop; only after the database has
committed it is the new state answered and broadcast to the game's websockets. Bots think in
a worker pool (:mod:`.botpool`), clocks are kept by the server, and changes made by other
server processes arrive through PostgreSQL's LISTEN/NOTIFY (or a poll on SQLite).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..core.errors import LudothekError, UnknownGame
from ..core.messages import Message, language_of
from ..core.registry import game_class, game_spec
from . import metrics, players
from .accounts import SESSION_SECONDS, Accounts
from .admission import DEFAULT_MAX_WEBSOCKETS, AllowedHosts, HostCheck, WebSocketCap
from .analysis import analysis_routes
from .berserk import berserk
from .boards import adapter
from .botpool import PoolClosed
from .challenges import Challenges, challenge_routes
from .chat import Chat, ChatLimits, chat_routes
from .devices import DEVICE_COOKIE, DEVICE_PATH, DEVICE_SECONDS
from .errors import RetryLater
from .follows import Follows, follow_routes
from .guard import (
    SESSION_COOKIE,
    CsrfGuard,
    LoginLimits,
    RateLimitMiddleware,
    RateLimits,
    client_of,
    csrf_for,
    parse_json_object,
    same_origin,
    server_fields_only,
    session_secret,
)
from .health import health_routes
from .hub import Hub, state_message
from .lessons import lesson_routes
from .lobby import Lobby
from .notify import PgListener
from .observe import ObservedStarlette
from .puzzles import puzzle_routes
from .quickpair import QuickPairing, quick_routes
from .runner import Runner
from .service import GameService, WebError, bot_levels, client_options, game_catalog
from .store import Account, Store
from .texts import TEXTS
from .tournaments import Tournaments, tournament_routes
from .warm import WarmGate, Warming, preview_json

log = logging.getLogger("ludothek.web")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
MAX_WS_MESSAGE = 4 * 1024
MAX_OFFSET = 10**9
#: guest seats a page may hand to a new account in one request (it sends more in several)
MAX_CLAIMS = 100
WS_ACTIONS = ("move", "undo", "resign", "claim", "offer", "answer", "withdraw", "abort", "berserk")


def _json(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json")


def _error(status: int, exc: WebError | LudothekError, lang: str) -> Response:
    response = _json(_error_fields(exc, lang), status)
    if isinstance(exc, RetryLater):  # a throttled request or a full queue: when to try again
        response.headers["Retry-After"] = str(math.ceil(exc.retry_after))
    return response


async def _server_error(request: Request, exc: Exception) -> Response:
    """The 500 for an exception no handler caught (uvicorn logs it after the answer): a JSON
    error like every other, in the client's language."""
    return _error(500, WebError(500, TEXTS("internal")), _lang(request))


def _error_fields(exc: WebError | LudothekError, lang: str) -> dict[str, Any]:
    """An error for a client: ``error``, the text in ``lang``, and ``key``, the message's key
    (``web.not_your_turn`` or a game's key; None for a plugin's plain string)."""
    if isinstance(exc, WebError):
        return {"error": exc.text(lang), "key": exc.key, **exc.fields}
    return {"error": exc.text(lang), "key": exc.message.key if isinstance(exc.message, Message) else None}


def _lang(request: Request) -> str:
    """The language a request asks for: the browser's page sends the language chosen on it
    (``Accept-Language``); a client that asks for none gets English."""
    return language_of(request.headers.get("accept-language"))


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise WebError(413, TEXTS("body_too_large", limit=MAX_BODY))
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise WebError(413, TEXTS("body_too_large", limit=MAX_BODY))
            chunks.append(chunk)
    except ClientDisconnect:  # nobody reads the answer; a WebError only spares the log a traceback
        raise WebError(400, TEXTS("body_cut")) from None
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    return parse_json_object(raw)


def _token(request: Request, body: dict[str, Any] | None = None) -> str | None:
    if body and isinstance(body.get("token"), str):
        return body["token"]
    header = request.headers.get("x-ludothek-token") or ""
    if not header:
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            header = auth[7:].strip()
    return header or None


def _set_session(response: Response, request: Request, secret: str) -> None:
    """The session cookie: HttpOnly (no script reads it), SameSite=Lax (no other site's form or
    script sends it), Secure when the page came over HTTPS (behind a proxy, ``--proxy`` makes
    uvicorn trust its X-Forwarded-Proto)."""
    response.set_cookie(SESSION_COOKIE, secret, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")


def _set_device(response: Response, request: Request, cookie: str) -> None:
    """The device cookie (:mod:`.devices`): sent to the login only, never read by a script."""
    response.set_cookie(DEVICE_COOKIE, cookie, max_age=DEVICE_SECONDS, path=DEVICE_PATH, httponly=True,
                        samesite="strict", secure=request.url.scheme == "https")


def _end_session(response: Response, request: Request) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def _me(account: Account | None, secret: str | None) -> dict[str, Any]:
    """What a page knows of its player: ``user`` ({"name"} or None) and the session's
    ``csrf`` token, which it sends as X-CSRF-Token with every change."""
    if account is None or not secret:
        return {"user": None, "csrf": None, "your_turn": 0}
    return {"user": {"name": account.name}, "csrf": csrf_for(secret), "your_turn": 0}


def _client_key(scope: Any) -> str:
    """Who made a game, for the cap on live bot games: a digest of the client's address."""
    return hashlib.sha256(client_of(scope).encode()).hexdigest()


def _handler(function: Any) -> Any:
    async def wrapped(request: Request) -> Response:
        try:
            return await function(request)
        except WebError as exc:
            return _error(exc.status, exc, _lang(request))
        except LudothekError as exc:
            return _error(400, exc, _lang(request))
    return wrapped


# ---------------------------------------------------------------------------- the app
def say(line: str) -> None:
    """A line of the server's progress on its standard output (``ludothek serve`` shows it)."""
    print(line, flush=True)


def create_app(db: str | None = None, bot_executor: str = "process", sqlite_sync: str = "full",
               rate_limits: str | None = None, claim_after: float = 72 * 3600, bot_cap: int = 8,
               warm: bool = True, login_limits: str | None = None, password_hasher: Any = None,
               clock: Any = time.time, sweep: float = 30.0, lobby_interval: float = 1.5,
               max_websockets: int = DEFAULT_MAX_WEBSOCKETS, allowed_hosts: str | None = None,
               bot_workers: int | None = None, metrics_from: str | None = None,
               chat_limits: str | None = None, chat_interval: float = 1.0) -> Starlette:
    """``rate_limits``: see :class:`~.guard.RateLimits` (``"off"`` lifts them);
    ``claim_after``: seconds before an absent player's game can be claimed; ``bot_cap``: live
    games against bots per client address (0: no cap); ``login_limits``: see
    :class:`~.guard.LoginLimits`; ``password_hasher``: an argon2 ``PasswordHasher`` (default:
    argon2-cffi's own parameters); ``clock``: the time now for the games' clocks and deadlines
    (tests inject one); ``sweep``: seconds between looks for games out of time;
    ``lobby_interval``: seconds between looks at the lobby for changes made elsewhere;
    ``max_websockets``: open websockets per client address (0: no cap); ``allowed_hosts``: the
    host names to answer to (see :class:`~.admission.AllowedHosts`; None: any);
    ``bot_workers``: slow-lane bot worker processes (default: one per core but one);
    ``metrics_from``: who may read ``/metrics`` (see :func:`.metrics.parse_addresses`);
    ``chat_limits``: see :class:`~.chat.ChatLimits`; ``chat_interval``: seconds between looks
    for chat messages written by other server processes."""
    limits = RateLimits(rate_limits)
    hosts = AllowedHosts(allowed_hosts)
    store = Store(db, sqlite_sync=sqlite_sync, clock=clock)
    service = GameService(store, claim_after=claim_after, bot_cap=bot_cap, clock=clock)
    accounts = Accounts(store, LoginLimits(login_limits), password_hasher)
    hub = Hub()
    runner = Runner(service, hub, bot_executor, bot_workers)
    lobby = Lobby(store, service, clock)

    async def started(game_id: str) -> dict[str, Any]:
        """A game made by a pairing (a challenge, quick pairing, a tournament): its view, its
        clock running, its watchers told."""
        view = await service.get_view(game_id, check=False)
        runner.after_change(game_id, view)
        return view

    follows = Follows(store, clock)
    challenges = Challenges(store, service, lobby, clock)
    quick = QuickPairing(store, service, started, lobby.refresh, clock)
    lobby.hooks += [follows.seen_hook, challenges.hook, quick.hook]
    chat = Chat(store, hub, lobby, ChatLimits(chat_limits), clock)
    tournaments = Tournaments(store, service, clock, started)
    warming = Warming(say)
    listening = asyncio.Event()  # set by whoever serves the app once it answers (ludothek serve)

    # ------------------------------------------------------------------ pages
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "app.html", headers={"Cache-Control": "no-cache"})

    async def viewer(request: Request) -> Account | None:
        """The logged-in player making a request (None: a guest)."""
        secret = request.cookies.get(SESSION_COOKIE)
        return await accounts.session(secret) if secret else None

    # ------------------------------------------------------------------ accounts
    @_handler
    async def me(request: Request) -> Response:
        secret = request.cookies.get(SESSION_COOKIE)
        account = await viewer(request)
        answer = _me(account, secret)
        if account is not None:
            answer["your_turn"] = len((await asyncio.to_thread(store.turns_of, [account.id]))[account.id])
        response = _json(answer)
        if secret and account is None:  # an ended session: the browser may forget it
            _end_session(response, request)
        return response

    @_handler
    async def signup(request: Request) -> Response:
        body = await _body(request)
        account, secret, device = await accounts.signup(body.get("name"), body.get("password"),
                                                        client_of(request.scope))
        await accounts.logout(request.cookies.get(SESSION_COOKIE))  # a new session, never the old one
        response = _json(_me(account, secret), 201)
        _set_session(response, request, secret)
        _set_device(response, request, device)
        return response

    @_handler
    async def login(request: Request) -> Response:
        body = await _body(request)
        account, secret, device = await accounts.login(body.get("name"), body.get("password"),
                                                       client_of(request.scope), request.cookies.get(DEVICE_COOKIE))
        await accounts.logout(request.cookies.get(SESSION_COOKIE))
        response = _json(_me(account, secret))
        _set_session(response, request, secret)
        _set_device(response, request, device)
        return response

    @_handler
    async def logout(request: Request) -> Response:
        await accounts.logout(request.cookies.get(SESSION_COOKIE))
        response = _json(_me(None, None))
        _end_session(response, request)
        return response

    @_handler
    async def claim_seats(request: Request) -> Response:
        """A page that just logged in hands over the guest seats it holds: ``{"games": [{"id",
        "token"}, ...]}``; the seats those tokens hold become the account's."""
        account = await viewer(request)
        if account is None:
            raise WebError(401, TEXTS("login_needed"))
        claims = (await _body(request)).get("games")
        example = '{"id": "...", "token": "..."}'
        if not isinstance(claims, list) or len(claims) > MAX_CLAIMS or not all(isinstance(c, dict) for c in claims):
            raise WebError(400, TEXTS("claims_list", limit=MAX_CLAIMS, example=example))
        claimed = []
        for claim in claims:
            game_id = claim.get("id")
            try:
                seats = await service.attach(game_id, claim.get("token"), account)
            except WebError:  # a game that is gone (or never was): nothing to claim
                continue
            if seats:
                claimed.append({"id": game_id, "seats": seats})
                await runner.changed(game_id, await service.get_view(game_id, check=False))
        return _json({"claimed": claimed})

    # ------------------------------------------------------------------ catalog
    @_handler
    async def catalog(request: Request) -> Response:
        return _json({"games": game_catalog(), "bots": bot_levels()})

    async def messages(request: Request) -> Response:
        return _json(i18n.web_catalog())

    @_handler
    async def rules(request: Request) -> Response:
        name = request.path_params["game"]
        try:
            page = game_spec(name).rules_page()
        except UnknownGame as exc:
            raise WebError(404, exc) from None
        if page is None:
            raise WebError(404, TEXTS("no_rules", game=name))
        return _json(page)

    @_handler
    async def geometry(request: Request) -> Response:
        name = request.path_params["game"]
        given = {k: v for k, v in request.query_params.items() if k != "position"}
        cls = game_class(name)
        state = cls(request.query_params.get("position"), **client_options(cls, given, from_text=True))
        return _json(adapter(cls.name).geometry(state.options))

    @_handler
    async def preview(request: Request) -> Response:
        """A position's board (rules diagrams, the home page's pictures):
        ?game=&position=&moves=a|b&o.size=9&legal=1. Starting positions are cached, and the
        warm-up computes the home page's (:func:`.warm.preview_json`)."""
        params = request.query_params
        options = tuple(sorted((k[2:], v) for k, v in params.items() if k.startswith("o.")))
        position = params.get("position") or None
        if position and len(position) > 2000:
            raise WebError(400, TEXTS("position_long"))
        moves = tuple(m.strip() for m in params.get("moves", "").split("|") if m.strip())[:400]
        body = preview_json(params.get("game", ""), options, position, moves, bool(params.get("legal")))
        return Response(body, media_type="application/json")

    # ------------------------------------------------------------------ games
    @_handler
    async def list_games(request: Request) -> Response:
        status = request.query_params.get("status") or None
        if status not in (None, "waiting", "ongoing", "over"):
            raise WebError(400, TEXTS("status_choice"))
        try:
            limit = max(1, min(200, int(request.query_params.get("limit", 50))))
            offset = int(request.query_params.get("offset", 0))
        except ValueError:
            raise WebError(400, TEXTS("limit_offset")) from None
        if not 0 <= offset <= MAX_OFFSET:
            raise WebError(400, TEXTS("offset_range", limit=MAX_OFFSET))
        user = me = None
        params = request.query_params
        if params.get("mine") not in (None, "", "0"):  # the games of the logged-in player, his turn first
            account = await viewer(request)
            if account is None:
                raise WebError(401, TEXTS("login_needed"))
            user = me = account.id
        elif params.get("player"):
            user = await asyncio.to_thread(players.user_id, store, params["player"])
            if user is None:
                return _json({"games": []})
        game = params.get("game") or None
        if game is not None:
            game_spec(game)  # an unknown game is a clear 400, not an empty list
        rows = await asyncio.to_thread(store.list_games, status, limit, offset, user, game, None, me is not None)
        return _json({"games": [service.summary(r, me) for r in rows]})

    async def make_game(request: Request, body: dict[str, Any]) -> dict[str, Any]:
        created = await service.create(body, client=_client_key(request.scope), user=await viewer(request))
        view = await service.get_view(created["id"], check=False)
        runner.after_change(created["id"], view)
        return {**created, "game": view}

    @_handler
    async def create_game(request: Request) -> Response:
        return _json(await make_game(request, server_fields_only(await _body(request))), 201)

    @_handler
    async def get_game(request: Request) -> Response:
        game_id = request.path_params["id"]
        at = request.query_params.get("at")
        try:
            at_ply = int(at) if at not in (None, "") else None
        except ValueError:
            raise WebError(400, TEXTS("at_number")) from None
        view = await service.get_view(game_id, at_ply)
        if at_ply is None:
            runner.after_change(game_id, view)  # restart a bot or a clock after a server restart
        you = service.seats_of(game_id, _token(request), await viewer(request))
        return _json({"game": view, "you": you})

    async def act(kind: str, game_id: str, token: str | None, data: dict[str, Any],
                  user: Account | None = None) -> tuple[dict[str, Any], list[int]]:
        """A player's move, undo, resignation, claim, offer, answer, withdrawal or abort (by his
        seat token or his account); the committed view and his seats."""
        started = time.perf_counter()
        if kind == "move":
            live = await service.play(game_id, token, data.get("move"), data.get("seat"), user=user,
                                      ply=data.get("ply"))
        elif kind == "undo":
            live = await service.undo(game_id, token, user=user, ply=data.get("ply"))
        elif kind == "resign":
            live = await service.resign(game_id, token, data.get("seat"), user=user)
        elif kind == "offer":
            live = await service.offer(game_id, token, data.get("kind"), user=user)
        elif kind == "answer":
            live = await service.answer(game_id, token, data.get("accept"), user=user)
        elif kind == "withdraw":
            live = await service.withdraw(game_id, token, user=user)
        elif kind == "abort":
            live = await service.abort(game_id, token, user=user)
        elif kind == "berserk":
            live = await berserk(service, game_id, token, user=user)
        else:
            live = await service.claim(game_id, token, hub.present, user=user)
        # no await between the change and reading it: the view is the committed state
        view = service.view(live)
        seats = live.row.seats_of(token if isinstance(token, str) else None, user.id if user is not None else None)
        await runner.changed(game_id, view)
        if kind == "move":
            metrics.MOVE_SECONDS.observe(time.perf_counter() - started)
        return view, seats

    def action(kind: str) -> Any:
        @_handler
        async def endpoint(request: Request) -> Response:
            body = await _body(request)
            user = await viewer(request)
            view, seats = await act(kind, request.path_params["id"], _token(request, body), body, user)
            return _json({"game": view, "you": seats})
        return endpoint

    @_handler
    async def join(request: Request) -> Response:
        game_id = request.path_params["id"]
        body = await _body(request)
        joined = await service.join(game_id, body.get("invite"), await viewer(request))
        view = await service.get_view(game_id, check=False)
        await runner.changed(game_id, view)
        return _json({**joined, "game": view})

    @_handler
    async def rematch(request: Request) -> Response:
        game_id = request.path_params["id"]
        body = await _body(request)
        created = await service.rematch(game_id, _token(request, body), await viewer(request))
        await runner.changed(game_id, await service.get_view(game_id, check=False))
        view = await service.get_view(created["id"], check=False)
        await runner.changed(created["id"], view)
        return _json({**created, "game": view})

    # ------------------------------------------------------------------ lobby and players
    @_handler
    async def lobby_list(request: Request) -> Response:
        return _json(await lobby.listing(await viewer(request)))

    @_handler
    async def post_seek(request: Request) -> Response:
        body = server_fields_only(await _body(request))
        return _json(await lobby.post(body, await viewer(request), _client_key(request.scope)), 201)

    @_handler
    async def cancel_seek(request: Request) -> Response:
        await lobby.cancel(request.path_params["id"], _token(request), await viewer(request))
        return _json({"ok": True})

    @_handler
    async def accept_seek(request: Request) -> Response:
        body = await _body(request)
        created = await lobby.accept(request.path_params["id"], _token(request, body), await viewer(request))
        view = await service.get_view(created["id"], check=False)
        runner.after_change(created["id"], view)
        return _json({**created, "game": view})

    @_handler
    async def player(request: Request) -> Response:
        name = request.path_params["name"]
        found = await asyncio.to_thread(players.profile, store, name) if len(name) <= 40 else None
        if found is None:
            raise WebError(404, TEXTS("user_unknown", user=name[:40]))
        return _json(found)

    @_handler
    async def leaderboard(request: Request) -> Response:
        game = game_spec(request.path_params["game"]).name
        return _json({"game": game, "players": await asyncio.to_thread(players.leaderboard, store, game)})

    async def lobby_socket(ws: WebSocket) -> None:
        lang = language_of(ws.query_params.get("lang") or ws.headers.get("accept-language"))
        await ws.accept()
        user = await accounts.session(session_secret(ws.scope)) if same_origin(ws.scope) else None
        try:
            # inside the try: a page that is gone before its first list arrives is no error
            await lobby.connect(ws, user)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = await _lobby_message(ws, message.get("text") or message.get("bytes") or "", lang)
                await ws.send_text(reply.decode())
        except WebSocketDisconnect:
            pass
        finally:
            await lobby.disconnect(ws)

    async def _lobby_message(ws: WebSocket, raw: str | bytes, lang: str) -> bytes:
        ref = None
        try:
            if len(raw) > MAX_WS_MESSAGE:
                raise WebError(413, TEXTS("message_too_large", limit=MAX_WS_MESSAGE))
            data = parse_json_object(raw, TEXTS("ws_message"))
            ref = data.get("ref") if isinstance(data.get("ref"), (int, str)) else None
            if data.get("type") == "ping":
                return orjson.dumps({"type": "pong", "ref": ref})
            if data.get("type") in ("chat", "chat_history"):
                watcher = lobby.watchers.get(ws)
                return await chat.handle(ws, data, None, watcher.user if watcher else None, ref)
            if data.get("type") != "own":
                raise WebError(400, TEXTS("unknown_type", value=str(data.get("type"))[:30],
                                          types="own, ping, chat, chat_history"))
            await lobby.own(ws, data.get("seek"), data.get("token"))
            return orjson.dumps({"type": "ok", "ref": ref})
        except WebError as exc:
            return orjson.dumps({"type": "error", "status": exc.status, **_error_fields(exc, lang), "ref": ref})
        except LudothekError as exc:
            return orjson.dumps({"type": "error", "status": 400, **_error_fields(exc, lang), "ref": ref})

    @_handler
    async def record(request: Request) -> Response:
        row, text = await service.get_record(request.path_params["id"])
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="{row.game}-{row.id}.ludo"'}
        )

    # ------------------------------------------------------------------ websocket
    async def live(ws: WebSocket) -> None:
        game_id = ws.path_params["id"]
        # the page connects with ?lang= (the language chosen on it); else the handshake's header
        lang = language_of(ws.query_params.get("lang") or ws.headers.get("accept-language"))
        await ws.accept()
        # in the room before the game is read: a change made while it is read is pushed to this
        # page (which drops a state older than its own), not lost between the read and the join
        hub.join(game_id, ws)
        try:
            view = await service.get_view(game_id)
        except BaseException as exc:
            hub.leave(game_id, ws)
            if not isinstance(exc, WebError):
                raise
            error = {"type": "error", "status": exc.status, **_error_fields(exc, lang)}
            try:
                await ws.send_text(orjson.dumps(error).decode())
                await ws.close(code=4404)
            except WebSocketDisconnect:
                pass  # the page left before the answer
            return
        client = client_of(ws.scope)
        token: str | None = None
        # the session counts only for a page of this site (no cross-site websocket hijacking)
        user = await accounts.session(session_secret(ws.scope)) if same_origin(ws.scope) else None
        chat.attach(ws, user)
        try:
            await ws.send_text(state_message(view, []).decode())
            runner.after_change(game_id, view)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None and message.get("bytes") is not None:
                    raw = message["bytes"]
                reply, token = await _ws_message(raw or "", game_id, ws, token, client, lang, user)
                if reply is not None:
                    await ws.send_text(reply.decode())
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(game_id, ws)
            chat.detach(ws)

    async def _ws_message(raw: str | bytes, game_id: str, ws: WebSocket, token: str | None,
                          client: str, lang: str = "en", user: Account | None = None) -> tuple[bytes | None, str | None]:
        """The reply to one message, and the socket's token after it. Every bad message gets an
        error reply (in ``lang``); none closes the socket. ``user``: the logged-in player whose
        page opened the socket: ``auth`` needs no token for the seats his account owns."""
        ref = None
        try:
            if len(raw) > MAX_WS_MESSAGE:
                raise WebError(413, TEXTS("message_too_large", limit=MAX_WS_MESSAGE))
            data = parse_json_object(raw, TEXTS("ws_message"))
            ref = data.get("ref") if isinstance(data.get("ref"), (int, str)) else None
            kind = data.get("type")
            if kind == "ping":
                return orjson.dumps({"type": "pong", "ref": ref}), token
            if kind == "auth":
                given = data.get("token")
                if (given is not None or user is None) and (not isinstance(given, str) or not given):
                    raise WebError(401, TEXTS("auth_token"))
                view = await service.get_view(game_id, check=False)
                seats = service.seats_of(game_id, given, user)
                if not seats:
                    raise WebError(403, TEXTS("token_no_seat") if user is None else TEXTS("no_seat_yours"))
                hub.seat(game_id, ws, seats)
                return state_message(view, seats, ref), given or token
            if kind in ("chat", "chat_history"):
                return await chat.handle(ws, data, game_id, user, ref), token
            if kind not in WS_ACTIONS:
                raise WebError(400, TEXTS("unknown_type", value=str(kind)[:30],
                                          types=", ".join(("auth", "ping", *WS_ACTIONS, "chat", "chat_history"))))
            limits.enforce(client, "move")
            use = data.get("token") if isinstance(data.get("token"), str) else token
            await act(kind, game_id, use, data, user)
            return orjson.dumps({"type": "ok", "ref": ref}), token
        except WebError as exc:
            return orjson.dumps({"type": "error", "status": exc.status, **_error_fields(exc, lang), "ref": ref}), token
        except LudothekError as exc:
            return orjson.dumps({"type": "error", "status": 400, **_error_fields(exc, lang), "ref": ref}), token

    # ------------------------------------------------------------------ start and stop
    @asynccontextmanager
    async def lifespan(app: Starlette):
        started = time.perf_counter()
        if warm:
            runner.pool.on_warm = lambda game: game and say(
                f"warming up: {game}'s bots are ready ({time.perf_counter() - started:.1f} s)")
        runner.pool.start()
        if warm:  # in the background: the server answers at once, games as soon as they are warm
            warming.start(started)
        else:
            warming.skip()
        filled = await service.backfill()
        if filled:
            log.info("filled in the turn, deadline and winner of %d older games", filled)
        background = [asyncio.create_task(task) for task in (
            runner.housekeeping(), runner.deadlines(sweep), lobby.run(lobby_interval), chat.run(chat_interval),
            tournaments.run(lobby_interval))]
        listener = None
        if store.is_postgres:
            listener = PgListener(store.url, runner.elsewhere, resync, on_sessions_ended=accounts.forget_user)
            await listener.start()
        else:
            background.append(asyncio.create_task(runner.poll()))
        await runner.resume()
        if warm:
            background.append(asyncio.create_task(announce_ready(started)))
        yield
        for task in background:
            task.cancel()
        if listener is not None:
            await listener.stop()
        await runner.close()
        await asyncio.to_thread(store.close)

    async def announce_ready(started: float) -> None:
        await warming.wait()
        await listening.wait()
        try:
            await runner.pool.ready()
        except PoolClosed:
            return
        say(f"Ludothek is ready ({time.perf_counter() - started:.1f} s to warm up)")

    async def resync() -> None:
        """Notifications may have been missed: look at every game watched here, and trust no
        cached session."""
        accounts.forget_all()
        for game_id in list(hub.rooms):
            await runner.elsewhere(game_id)

    routes = [
        Route("/", page),
        Route("/play/{id}", page),
        Route("/archive", page),
        Route("/rules", page),
        Route("/rules/{game}", page),
        Route("/learn", page),
        Route("/learn/{game}", page),
        Route("/login", page),
        Route("/lobby", page),
        Route("/players/{name}", page),
        Route("/leaderboard", page),
        Route("/leaderboard/{game}", page),
        Route("/puzzles", page),
        Route("/tournaments", page),
        Route("/tournaments/{id}", page),
        Route("/puzzles/{game}", page),
        Route("/puzzles/{game}/{id}", page),
        Route("/challenges", page),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me/games", claim_seats, methods=["POST"]),
        Route("/api/signup", signup, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/catalog", catalog),
        Route("/api/i18n", messages),
        Route("/api/rules/{game}", rules),
        Route("/api/lobby", lobby_list, methods=["GET"]),
        Route("/api/seeks", post_seek, methods=["POST"]),
        Route("/api/seeks/{id}", cancel_seek, methods=["DELETE"]),
        Route("/api/seeks/{id}/accept", accept_seek, methods=["POST"]),
        Route("/api/users/{name}", player, methods=["GET"]),
        Route("/api/leaderboard/{game}", leaderboard, methods=["GET"]),
        Route("/api/geometry/{game}", geometry),
        Route("/api/preview", preview),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{id}", get_game, methods=["GET"]),
        Route("/api/games/{id}/record", record, methods=["GET"]),
        Route("/api/games/{id}/move", action("move"), methods=["POST"]),
        Route("/api/games/{id}/undo", action("undo"), methods=["POST"]),
        Route("/api/games/{id}/resign", action("resign"), methods=["POST"]),
        Route("/api/games/{id}/claim", action("claim"), methods=["POST"]),
        Route("/api/games/{id}/offer", action("offer"), methods=["POST"]),
        Route("/api/games/{id}/answer", action("answer"), methods=["POST"]),
        Route("/api/games/{id}/withdraw", action("withdraw"), methods=["POST"]),
        Route("/api/games/{id}/abort", action("abort"), methods=["POST"]),
        Route("/api/games/{id}/berserk", action("berserk"), methods=["POST"]),
        Route("/api/games/{id}/join", join, methods=["POST"]),
        Route("/api/games/{id}/rematch", rematch, methods=["POST"]),
        *lesson_routes(store, _handler, viewer, _body, make_game),
        *analysis_routes(service, runner.pool, _handler, limits, viewer),
        *puzzle_routes(store, _handler, viewer, _json, _body, clock),
        *challenge_routes(challenges, _handler, viewer, _json, _body, started),
        *follow_routes(follows, _handler, viewer, _json),
        *quick_routes(quick, _handler, viewer, _json, _body),
        *chat_routes(chat, _handler, viewer, _json, _body),
        *tournament_routes(tournaments, _handler, viewer, _json, _body),
        *health_routes(store, runner.pool),
        Route("/metrics", metrics.metrics_route(store, metrics_from), methods=["GET"]),
        WebSocketRoute("/ws/games/{id}", live),
        WebSocketRoute("/ws/lobby", lobby_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(HostCheck, hosts=hosts), Middleware(WebSocketCap, cap=max_websockets),
                  Middleware(CsrfGuard), Middleware(RateLimitMiddleware, limits=limits),
                  Middleware(WarmGate, warming=warming)]
    app = ObservedStarlette(routes=routes, lifespan=lifespan, middleware=middleware,
                            exception_handlers={Exception: _server_error})
    app.state.store = store
    app.state.service = service
    app.state.accounts = accounts
    app.state.runner = runner
    app.state.lobby = lobby
    app.state.chat = chat
    app.state.quick = quick
    app.state.challenges = challenges
    app.state.tournaments = tournaments
    app.state.listening = listening
    app.state.warming = warming
    return app
