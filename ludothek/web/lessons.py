"""Lessons (issue 31): ``/learn``, a short path of interactive steps per game.

A game's lessons are data in its package (the ``lessons`` part of its
:class:`~ludothek.core.spec.GameSpec`, a JSON file ``{"steps": [step, ...]}``). A step is

* ``id`` — a short name, unique in the game (progress is stored by it);
* ``title``, ``text`` (the instruction), ``hint`` (shown with a wrong try) and ``done`` (shown
  once it is solved) — each ``{"en": ..., "de": ...}``;
* ``position`` (the game's position string; absent: the start), ``options`` (rule options),
  ``moves`` (moves played from there before the step begins, e.g. a cube offer);
* ``goal`` — what solves it; every field given must hold for the move tried:
  ``moves`` (one of these moves), ``from`` (a move of the piece on this cell), ``kind``
  (``"capture"`` or ``"roll"``: the kind the board adapter gives the move; ``"any"``: any
  legal move) and ``wins`` (true: the move wins the game at once);
* ``wrong`` — tries the lesson expects (each must be refused by the engine or be legal but no
  answer; the tests check it);

or a final step of ``"kind": "play"`` with ``options`` and ``bot``: a button that starts a game
against that bot. The server decides every try with the game's own engine: a refused move's
answer is the engine's error message (in the page's language), with the step's hint.

Progress is kept per browser (the page's localStorage) and, for a logged-in player, in the
``lesson_progress`` table (migration 0008); the page hands a guest's progress over at login.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..core.errors import LudothekError, UnknownGame
from ..core.messages import Catalog, language_of
from ..core.protocol import CHANCE, GameState
from ..core.registry import game_class, game_spec, games
from .boards import Adapter, adapter, legal_move_infos
from .errors import WebError
from .store import Account, Store, lesson_progress_table

TEXTS = Catalog("lessons", {
    "none": ("{game} has no lessons", "{game} hat keine Lektionen"),
    "no_step": ("{game} has no lesson step {step!r}", "{game} hat keinen Lektionsschritt {step!r}"),
    "not_answer": ("{move} is a legal move, but not what this step asks for",
                   "{move} ist ein erlaubter Zug, aber nicht das, was dieser Schritt verlangt"),
    "no_move": ("there is no move from {source} to {target} in this game",
                "in diesem Spiel gibt es keinen Zug von {source} nach {target}"),
    "no_cell_move": ("{cell} has no move of its own in this game", "{cell} hat in diesem Spiel keinen eigenen Zug"),
    "try_fields": ("a try names a {move}, or the cells {source} and {target} that were clicked",
                   "ein Versuch nennt einen {move} oder die angeklickten Felder {source} und {target}"),
    "progress_list": ("progress is an object {example}", "der Fortschritt ist ein Objekt {example}"),
    "login_needed": ("log in to keep your progress in your account",
                     "melde dich an, um deinen Fortschritt im Konto zu speichern"),
    "play_step": ("this step is played against a bot: start the game",
                  "dieser Schritt wird gegen einen Bot gespielt: starte die Partie"),
    "not_play": ("this step is solved on its board, not by starting a game",
                 "dieser Schritt wird auf seinem Brett gelöst, nicht mit einer Partie"),
})

#: the fields of a goal
GOAL_FIELDS = ("moves", "from", "kind", "wins")
KINDS = ("any", "capture", "roll")


# ---------------------------------------------------------------------------- the data
@cache
def lessons_of(game: str) -> tuple[dict[str, Any], ...]:
    """The steps of a game's lessons (empty: it has none). Raises :class:`UnknownGame`."""
    page = game_spec(game).lessons_page()
    return tuple(page["steps"]) if page else ()


def games_with_lessons() -> list[str]:
    return [name for name in games() if lessons_of(name)]


def step_of(game: str, step_id: str) -> dict[str, Any]:
    try:
        steps = lessons_of(game)
    except UnknownGame as exc:
        raise WebError(404, exc) from None
    if not steps:
        raise WebError(404, TEXTS("none", game=game))
    for step in steps:
        if step["id"] == step_id:
            return step
    raise WebError(404, TEXTS("no_step", game=game, step=step_id[:40]))


def step_state(game: str, step: dict[str, Any]) -> GameState:
    """The position a step starts from."""
    state = game_class(game)(step.get("position"), **step.get("options", {}))
    for move in step.get("moves", ()):
        state.play(move)
    return state


def answers(state: GameState, step: dict[str, Any], ad: Adapter | None = None) -> list[str]:
    """Every legal move that solves the step."""
    ad = ad or adapter(state.name)
    return [move for move in state.legal_moves() if solves(state, step, move, ad)]


def solves(state: GameState, step: dict[str, Any], move: str, ad: Adapter) -> bool:
    """Whether the legal ``move`` solves the step."""
    goal = step["goal"]
    action = state.parse_move(move)
    if "moves" in goal and action not in _actions(state, goal["moves"]):
        return False
    info = ad.move_info(state, state.action_to_str(action))
    if "from" in goal and str(info.get("from") or "").lower() != goal["from"].lower():
        return False
    if goal.get("kind", "any") != "any" and info.get("kind") != goal["kind"]:
        return False
    if "wins" in goal:
        mover = state.to_move
        after = state.copy()
        after.play(move)
        if (after.is_over() and after.winner() == mover) != bool(goal["wins"]):
            return False
    return True


def _actions(state: GameState, moves: list[str]) -> set[int]:
    """The actions of those moves that are legal here (:func:`problems` reports the others)."""
    found = set()
    for move in moves:
        try:
            found.add(state.parse_move(move))
        except LudothekError:
            pass
    return found


def problems(game: str) -> list[str]:
    """What is wrong with a game's lessons, checked against its engine (empty: nothing)."""
    found: list[str] = []
    steps = lessons_of(game)
    ids = [step.get("id") for step in steps]
    if len(set(ids)) != len(ids):
        found.append(f"{game}: step ids repeat: {ids}")
    for k, step in enumerate(steps):
        where = f"{game} step {step.get('id', k)!r}"
        for field in ("title", "text") + (() if step.get("kind") == "play" else ("hint", "done")):
            texts = step.get(field)
            if not (isinstance(texts, dict) and all(isinstance(texts.get(lang), str) and texts[lang].strip()
                                                     for lang in ("en", "de"))):
                found.append(f"{where}: {field} needs an English and a German text")
        if step.get("kind") == "play":
            if k != len(steps) - 1:
                found.append(f"{where}: the game against a bot is the last step")
            try:
                game_class(game)(**step.get("options", {}))
            except (LudothekError, TypeError) as exc:
                found.append(f"{where}: options: {exc}")
            continue
        goal = step.get("goal")
        if (not isinstance(goal, dict) or not goal or set(goal) - set(GOAL_FIELDS)
                or goal.get("kind", "any") not in KINDS):
            found.append(f"{where}: goal must use {GOAL_FIELDS} (kind one of {KINDS})")
            continue
        try:
            state = step_state(game, step)
        except (LudothekError, TypeError) as exc:
            found.append(f"{where}: its position does not set up: {exc}")
            continue
        if state.is_over() or state.current_player() == CHANCE:
            found.append(f"{where}: nobody is to move in its position")
            continue
        for move in goal.get("moves", ()):
            try:
                state.parse_move(move)
            except LudothekError as exc:
                found.append(f"{where}: the answer {move!r} is refused: {exc}")
        solving = answers(state, step)
        if not solving:
            found.append(f"{where}: no legal move solves it")
        for move in step.get("wrong", ()):
            try:
                state.parse_move(move)
            except LudothekError:
                continue  # refused by the engine: its message says why
            if move in solving or solves(state, step, move, adapter(game)):
                found.append(f"{where}: the wrong try {move!r} solves it")
    return found


# ---------------------------------------------------------------------------- a step for the page
def step_view(game: str, step: dict[str, Any]) -> dict[str, Any]:
    view = {key: step[key] for key in ("id", "kind", "title", "text", "hint", "done", "bot") if key in step}
    view.setdefault("kind", "board")
    if view["kind"] == "play":
        return view
    state = step_state(game, step)
    ad = adapter(game)
    view.update(_board_fields(state, ad))
    view["geometry"] = ad.geometry(state.options)
    # whether the game has actions of a single die (a roll): the page then offers them for any
    # selected die, so that the engine can say why one may not be rolled
    view["cell_actions"] = any(m["from"] and not m["to"] for m in view["moves"] + _start_moves(game))
    return view


@cache
def _start_moves(game: str) -> list[dict[str, Any]]:
    return legal_move_infos(game_class(game)(), adapter(game))


@cache
def _step_views(game: str) -> list[dict[str, Any]]:
    """Every step of a game for the page (the same for the life of the server)."""
    return [step_view(game, step) for step in lessons_of(game)]


def _board_fields(state: GameState, ad: Adapter) -> dict[str, Any]:
    board = ad.board(state)
    return {"board": board, "moves": legal_move_infos(state, ad), "threatened": ad.threatened(state, board),
            "to_move": state.to_move}


def judge(game: str, step: dict[str, Any], data: dict[str, Any], lang: str) -> dict[str, Any]:
    """The answer to a try: ``{"ok": True, "move", "board", "last"}`` when it solves the step;
    ``{"ok": False, "legal", "error", "hint"}`` when not (``error``: the engine's reason for a
    refused move, or that a legal move is not the answer); ``{"choices": [...]}`` when the
    clicks fit several legal moves (a promotion, an orientation): the page asks which."""
    if step.get("kind") == "play":
        raise WebError(400, TEXTS("play_step"))
    state = step_state(game, step)
    ad = adapter(game)
    move = data.get("move")
    source, target = data.get("from"), data.get("to")
    if move is None:
        texts = all(isinstance(cell, (str, type(None))) for cell in (source, target))
        if not texts or not (source or target):
            raise WebError(400, TEXTS("try_fields", move='"move"', source='"from"', target='"to"'))
        source, target = (source or "")[:20] or None, (target or "")[:20] or None
        fitting = [info for info in legal_move_infos(state, ad)
                   if _same(info.get("from"), source) and _same(info.get("to"), target)]
        if len(fitting) > 1:
            return {"choices": fitting}
        move = fitting[0]["move"] if fitting else ad.attempt(state, source, target)
        if move is None:
            reason = TEXTS("no_move", source=source, target=target) if target else TEXTS("no_cell_move", cell=source)
            return _wrong(step, False, reason.text(lang), lang)
    if not isinstance(move, str) or not move.strip() or len(move) > 80:
        raise WebError(400, TEXTS("try_fields", move='"move"', source='"from"', target='"to"'))
    try:
        action = state.parse_move(move)
    except LudothekError as exc:
        return _wrong(step, False, exc.text(lang), lang)
    text = state.action_to_str(action)
    if not solves(state, step, text, ad):
        return _wrong(step, True, TEXTS("not_answer", move=text).text(lang), lang)
    info = ad.move_info(state, text)
    state.play(text)
    while state.current_player() == CHANCE:  # a roll: the server rolls, fairly
        outcomes = state.chance_outcomes()
        pick = secrets.randbelow(10**9) / 10**9
        for outcome, probability in outcomes:
            pick -= probability
            if pick < 0:
                break
        state.apply_action(outcome)
    return {"ok": True, "move": text, "last": ad.last_cells(info), **_board_fields(state, ad),
            "done_text": step["done"].get(lang, step["done"]["en"])}


def _same(cell: Any, clicked: str | None) -> bool:
    if cell is None or clicked is None:
        return (cell or None) == clicked
    return str(cell).lower() == clicked.lower()


def _wrong(step: dict[str, Any], legal: bool, reason: str, lang: str) -> dict[str, Any]:
    return {"ok": False, "legal": legal, "error": reason, "hint": step["hint"].get(lang, step["hint"]["en"])}


# ---------------------------------------------------------------------------- progress
class Progress:
    """The steps each account has done (``{game: [step id, ...]}``)."""

    def __init__(self, store: Store):
        self.store = store

    def of(self, user_id: int) -> dict[str, list[str]]:
        query = select(lesson_progress_table.c.game, lesson_progress_table.c.step).where(
            lesson_progress_table.c.user_id == user_id)
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
        done: dict[str, list[str]] = {}
        for game, step in rows:
            done.setdefault(game, []).append(step)
        return {game: [s["id"] for s in _steps(game) if s["id"] in ids] for game, ids in done.items()}

    def add(self, user_id: int, items: list[tuple[str, str]]) -> None:
        have = {(g, s) for g, steps in self.of(user_id).items() for s in steps}
        now = self.store.clock()
        for game, step in items:
            if (game, step) in have:
                continue
            try:
                with self.store._taking_turns(), self.store.engine.begin() as conn:
                    conn.execute(lesson_progress_table.insert().values(user_id=user_id, game=game, step=step, done=now))
            except IntegrityError:
                pass  # another request stored it first
            have.add((game, step))


def _steps(game: str) -> tuple[dict[str, Any], ...]:
    try:
        return lessons_of(game)
    except UnknownGame:
        return ()


def known_steps(given: Any) -> list[tuple[str, str]]:
    """The (game, step) pairs of a page's ``{"game": ["step", ...]}`` that exist; 400 for
    anything that is not of that shape. Unknown games and steps are left out."""
    if not isinstance(given, dict) or len(given) > 50 or not all(
            isinstance(steps, list) and len(steps) <= 100 and all(isinstance(s, str) for s in steps)
            for steps in given.values()):
        raise WebError(400, TEXTS("progress_list", example='{"game": ["step", ...], ...}'))
    pairs = []
    for game, steps in given.items():
        ids = {s["id"] for s in _steps(str(game)[:32])}
        pairs.extend((game, step) for step in dict.fromkeys(steps) if step in ids)
    return pairs


# ---------------------------------------------------------------------------- routes
def lesson_routes(store: Store, handler: Callable[[Any], Any], viewer: Callable[[Request], Awaitable[Account | None]],
                  body: Callable[[Request], Awaitable[dict[str, Any]]],
                  create_game: Callable[[Request, dict[str, Any]], Awaitable[dict[str, Any]]]) -> list[Route]:
    """``GET /api/lessons`` (the games with lessons, and the account's progress),
    ``GET /api/lessons/{game}`` (its steps), ``POST /api/lessons/{game}/{step}`` (a try),
    ``POST /api/lessons/{game}/{step}/play`` (the final step: a game against its bot),
    ``POST /api/lessons/progress`` (a guest's progress handed to his account after login).
    ``create_game(request, spec)``: how the app makes a game (``POST /api/games``'s answer)."""
    progress = Progress(store)

    async def account_progress(request: Request) -> tuple[Account | None, dict[str, list[str]] | None]:
        account = await viewer(request)
        if account is None:
            return None, None
        return account, await asyncio.to_thread(progress.of, account.id)

    async def record(request: Request, game: str, step: dict[str, Any]) -> dict[str, list[str]] | None:
        account = await viewer(request)
        if account is None:
            return None
        await asyncio.to_thread(progress.add, account.id, [(game, step["id"])])
        return await asyncio.to_thread(progress.of, account.id)

    @handler
    async def index(request: Request) -> Response:
        listing = []
        for name in games_with_lessons():
            cls = game_class(name)
            listing.append({"name": name, "title": cls.title, "steps": [s["id"] for s in lessons_of(name)],
                            "order": game_spec(name).order})
        listing.sort(key=lambda g: (g.pop("order"), g["name"]))
        _, done = await account_progress(request)
        return _json({"games": listing, "progress": done})

    @handler
    async def lesson(request: Request) -> Response:
        game = request.path_params["game"]
        try:
            steps = lessons_of(game)
        except UnknownGame as exc:
            raise WebError(404, exc) from None
        if not steps:
            raise WebError(404, TEXTS("none", game=game))
        _, done = await account_progress(request)
        return _json({"game": game, "title": game_class(game).title, "steps": _step_views(game), "progress": done})

    @handler
    async def attempt(request: Request) -> Response:
        game, step = request.path_params["game"], step_of(request.path_params["game"], request.path_params["step"])
        lang = language_of(request.headers.get("accept-language"))
        answer = judge(game, step, await body(request), lang)
        if answer.get("ok"):
            answer["progress"] = await record(request, game, step)
        return _json(answer)

    @handler
    async def play(request: Request) -> Response:
        game, step = request.path_params["game"], step_of(request.path_params["game"], request.path_params["step"])
        if step.get("kind") != "play":
            raise WebError(400, TEXTS("not_play"))
        created = await create_game(request, {"game": game, "options": step.get("options", {}), "opponent": "bot",
                                              "bot": step.get("bot", "bot:1"), "seat": 0, "start": "fixed"})
        created["progress"] = await record(request, game, step)
        return _json(created, 201)

    @handler
    async def hand_over(request: Request) -> Response:
        account = await viewer(request)
        if account is None:
            raise WebError(401, TEXTS("login_needed"))
        pairs = known_steps((await body(request)).get("progress"))
        await asyncio.to_thread(progress.add, account.id, pairs)
        return _json({"progress": await asyncio.to_thread(progress.of, account.id)})

    return [
        Route("/api/lessons", index, methods=["GET"]),
        Route("/api/lessons/progress", hand_over, methods=["POST"]),
        Route("/api/lessons/{game}", lesson, methods=["GET"]),
        Route("/api/lessons/{game}/{step}", attempt, methods=["POST"]),
        Route("/api/lessons/{game}/{step}/play", play, methods=["POST"]),
    ]


def _json(data: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type="application/json")
