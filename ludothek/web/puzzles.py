"""Puzzles on the web (issue 31, item 2): ``/puzzles`` and ``/puzzles/{game}``.

The shipped sets come from each game's spec (``GameSpec.puzzles``, see docs/PUZZLES.md). The
page asks for a puzzle matched to the player's puzzle rating, the player moves on the board,
and the SERVER checks the answer (``POST /api/puzzles/{game}/{id}/answer``); the browser never
learns the solution before it has answered.

Ratings: every account has a Glicko-2 puzzle rating per game (table ``puzzle_ratings``) and
every puzzle one of its own (table ``puzzle_stats``, starting from the set's first guess). An
account's first answer to a puzzle is one rated game between the two (:func:`ludothek.ratings.rate_game`:
solved is a win for the player); later answers to the same puzzle change nothing. Guests may
solve every puzzle but are not rated.

The daily puzzle is the same for everyone on a (UTC) day: the games take turns, and the day
picks one of the game's puzzles.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..core.errors import LudothekError, UnknownGame
from ..core.messages import Catalog
from ..core.registry import game_class, game_spec, games
from ..ratings import START_DEVIATION, START_VALUE, START_VOLATILITY, Rating, rate_game
from .boards import adapter, legal_move_infos
from .service import WebError
from .store import Account, Store, puzzle_attempts_table, puzzle_ratings_table, puzzle_stats_table

log = logging.getLogger("ludothek.web")

TEXTS = Catalog("puzzles", {
    "no_puzzles": ("{game} has no puzzles", "{game} hat keine Aufgaben"),
    "unknown": ("there is no puzzle {id!r} of {game}", "es gibt keine Aufgabe {id!r} zu {game}"),
    "move_missing": ("the answer needs {field!r}: a move in the game's notation, as text",
                     "die Antwort braucht {field!r}: einen Zug in der Notation des Spiels, als Text"),
    "move_too_long": ("the move is longer than {limit} characters", "der Zug ist länger als {limit} Zeichen"),
})

#: the puzzles nearest to the player's rating one is picked from
NEAREST = 12
MAX_MOVE = 80


@cache
def puzzle_set(game: str) -> tuple[dict[str, Any], ...]:
    try:
        data = game_spec(game).puzzle_set() or {}
    except (OSError, ValueError) as exc:  # a plugin's set missing or broken: the game has no puzzles
        log.warning("the puzzles of %s cannot be read: %s", game, exc)
        return ()
    return tuple(data.get("puzzles", ()))


@cache
def _index(game: str) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in puzzle_set(game)}


def puzzle_games() -> list[str]:
    return [g for g in games() if puzzle_set(g)]


def _game(name: Any) -> str:
    if not isinstance(name, str):
        raise WebError(404, TEXTS("no_puzzles", game="?"))
    try:
        game = game_spec(name).name
    except (UnknownGame, LudothekError):
        raise WebError(404, TEXTS("no_puzzles", game=repr(name[:40]))) from None
    if not puzzle_set(game):
        raise WebError(404, TEXTS("no_puzzles", game=repr(game)))
    return game


def _puzzle(game: str, puzzle_id: Any) -> dict[str, Any]:
    found = _index(game).get(puzzle_id) if isinstance(puzzle_id, str) else None
    if found is None:
        raise WebError(404, TEXTS("unknown", id=str(puzzle_id)[:40], game=game))
    return found


def daily(day: datetime.date) -> tuple[str, str]:
    """The puzzle of ``day``: (game, id)."""
    names = puzzle_games()
    number = day.toordinal()
    game = names[number % len(names)]
    digest = int(hashlib.sha256(day.isoformat().encode()).hexdigest(), 16)
    chosen = puzzle_set(game)[digest % len(puzzle_set(game))]
    return game, chosen["id"]


def view(game: str, puzzle: dict[str, Any], rating: Rating) -> dict[str, Any]:
    """What the page needs to show a puzzle (never its solution)."""
    state = game_class(game)(puzzle["position"])
    board = adapter(game)
    drawn = board.board(state)
    return {
        "game": game, "game_title": game_class(game).title, "id": puzzle["id"], "kind": puzzle["kind"], "depth": puzzle["depth"],
        "to_move": state.to_move, "geometry": board.geometry(state.options), "board": drawn,
        "threatened": board.threatened(state, drawn),
        "moves": legal_move_infos(state, board), "rating": _rating_json(rating),
    }


def _rating_json(rating: Rating) -> dict[str, float]:
    return rating.rounded()


def check(game: str, puzzle: dict[str, Any], move: Any) -> dict[str, Any]:
    """Whether ``move`` solves the puzzle: the position after it must be the position after
    one of the accepted answers (so any notation of the same move counts). A malformed or
    illegal move raises the game's own error."""
    if not isinstance(move, str) or not move.strip():
        raise WebError(400, TEXTS("move_missing", field="move"))
    if len(move) > MAX_MOVE:
        raise WebError(400, TEXTS("move_too_long", limit=MAX_MOVE))
    cls = game_class(game)
    state = cls(puzzle["position"])
    tried = state.copy()
    tried.play(move.strip())  # ParseError / IllegalMove: a clean 400 with the game's reason
    right = set()
    for answer in puzzle["accepted"]:
        after = state.copy()
        after.play(answer)
        right.add(after.position())
    solved = state.copy()
    solved.play(puzzle["solution"])
    board = adapter(game)
    info = board.move_info(state, puzzle["solution"])
    return {
        "correct": tried.position() in right,
        "solution": puzzle["solution"],
        "solution_cells": board.last_cells(info),
        "after": board.board(solved),
        "tried": tried.move_texts[0] if tried.move_texts else move.strip(),
    }


class PuzzleRatings:
    """The puzzle ratings in the database (tables of migration 0007)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time):
        self.store = store
        self.clock = clock

    def player(self, user_id: int, game: str) -> Rating:
        t = puzzle_ratings_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            row = conn.execute(select(puzzle_ratings_table).where(t.user_id == user_id, t.game == game)).mappings().first()
        return Rating(row["value"], row["deviation"], row["volatility"]) if row else Rating()

    def players(self, user_id: int) -> dict[str, dict[str, Any]]:
        t = puzzle_ratings_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = conn.execute(select(puzzle_ratings_table).where(t.user_id == user_id)).mappings().all()
        return {r["game"]: {**Rating(r["value"], r["deviation"], r["volatility"]).rounded(), "attempts": r["attempts"]}
                for r in rows}

    def puzzles(self, game: str) -> dict[str, Rating]:
        t = puzzle_stats_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            rows = conn.execute(select(puzzle_stats_table).where(t.game == game)).mappings().all()
        return {r["puzzle_id"]: Rating(r["value"], r["deviation"], r["volatility"]) for r in rows}

    def puzzle(self, game: str, puzzle: dict[str, Any]) -> Rating:
        return self.puzzles(game).get(puzzle["id"]) or _start(puzzle)

    def attempted(self, user_id: int, game: str) -> set[str]:
        t = puzzle_attempts_table.c
        with self.store._taking_turns(), self.store.engine.connect() as conn:
            return set(conn.execute(select(t.puzzle_id).where(t.user_id == user_id, t.game == game)).scalars())

    def record(self, user_id: int, game: str, puzzle: dict[str, Any], correct: bool) -> dict[str, Any] | None:
        """Rate an account's first answer to a puzzle; ``None`` if it answered it before. Two
        answers at once (two tabs; two players on one new puzzle) collide on a primary key: the
        loser reads again and tries once more (its own second answer is then not rated)."""
        for attempt in range(3):
            try:
                return self._record(user_id, game, puzzle, correct)
            except IntegrityError:
                if attempt == 2:
                    raise
        return None

    def _record(self, user_id: int, game: str, puzzle: dict[str, Any], correct: bool) -> dict[str, Any] | None:
        a, r, s = puzzle_attempts_table.c, puzzle_ratings_table.c, puzzle_stats_table.c
        now = self.clock()
        with self.store._taking_turns(), self.store.engine.begin() as conn:
            seen = conn.execute(select(a.user_id).where(a.user_id == user_id, a.game == game,
                                                        a.puzzle_id == puzzle["id"])).first()
            if seen is not None:
                return None
            conn.execute(insert(puzzle_attempts_table).values(user_id=user_id, game=game, puzzle_id=puzzle["id"],
                                                              at=now, correct=int(correct)))
            # FOR UPDATE (PostgreSQL): another player's answer to the same puzzle waits for this one
            mine = conn.execute(select(puzzle_ratings_table).where(r.user_id == user_id, r.game == game)
                                .with_for_update()).mappings().first()
            theirs = conn.execute(select(puzzle_stats_table).where(s.game == game, s.puzzle_id == puzzle["id"])
                                  .with_for_update()).mappings().first()
            before = Rating(mine["value"], mine["deviation"], mine["volatility"]) if mine else Rating()
            puzzle_before = Rating(theirs["value"], theirs["deviation"], theirs["volatility"]) if theirs else _start(puzzle)
            after, puzzle_after = rate_game(before, puzzle_before, 1.0 if correct else 0.0)
            values = {"value": after.value, "deviation": after.deviation, "volatility": after.volatility, "updated": now}
            if mine:
                conn.execute(update(puzzle_ratings_table).where(and_(r.user_id == user_id, r.game == game))
                             .values(**values, attempts=mine["attempts"] + 1))
            else:
                conn.execute(insert(puzzle_ratings_table).values(user_id=user_id, game=game, attempts=1, **values))
            stats = {"value": puzzle_after.value, "deviation": puzzle_after.deviation,
                     "volatility": puzzle_after.volatility}
            if theirs:
                conn.execute(update(puzzle_stats_table).where(and_(s.game == game, s.puzzle_id == puzzle["id"]))
                             .values(**stats, attempts=theirs["attempts"] + 1, solved=theirs["solved"] + int(correct)))
            else:
                conn.execute(insert(puzzle_stats_table).values(game=game, puzzle_id=puzzle["id"], attempts=1,
                                                               solved=int(correct), **stats))
        return {"before": _rating_json(before), "after": _rating_json(after), "puzzle": _rating_json(puzzle_after)}

    def pick(self, game: str, player: Rating, user_id: int | None, rng: random.Random) -> dict[str, Any]:
        """A puzzle near the player's rating that the account has not answered yet (all
        answered: any)."""
        rated = self.puzzles(game)
        done = self.attempted(user_id, game) if user_id is not None else set()
        pool = [p for p in puzzle_set(game) if p["id"] not in done] or list(puzzle_set(game))
        rng.shuffle(pool)  # many puzzles share a rating (the set's first guesses): any of them
        pool.sort(key=lambda p: abs((rated.get(p["id"]) or _start(p)).value - player.value))
        return rng.choice(pool[:NEAREST])


def _start(puzzle: dict[str, Any]) -> Rating:
    return Rating(float(puzzle.get("rating", START_VALUE)), START_DEVIATION, START_VOLATILITY)


def puzzle_routes(store: Store, handler: Callable[[Any], Any],
                  viewer: Callable[[Request], Awaitable[Account | None]], json: Callable[..., Response],
                  read_body: Callable[[Request], Awaitable[dict[str, Any]]],
                  clock: Callable[[], float] = time.time) -> list[Route]:
    ratings = PuzzleRatings(store, clock)
    rng = random.Random()

    def today() -> datetime.date:
        return datetime.datetime.fromtimestamp(clock(), datetime.UTC).date()

    @handler
    async def overview(request: Request) -> Response:
        account = await viewer(request)
        mine = await asyncio.to_thread(ratings.players, account.id) if account else {}
        game, puzzle_id = daily(today())
        return json({
            "games": [{"name": g, "title": game_class(g).title, "count": len(puzzle_set(g)), "rating": mine.get(g)}
                      for g in puzzle_games()],
            "daily": {"game": game, "id": puzzle_id, "date": today().isoformat()},
            "rated": account is not None,
        })

    @handler
    async def daily_puzzle(request: Request) -> Response:
        game, puzzle_id = daily(today())
        puzzle = _puzzle(game, puzzle_id)
        rating = await asyncio.to_thread(ratings.puzzle, game, puzzle)
        return json({**view(game, puzzle, rating), "date": today().isoformat()})

    @handler
    async def next_puzzle(request: Request) -> Response:
        game = _game(request.path_params["game"])
        account = await viewer(request)

        def work() -> tuple[dict[str, Any], Rating, Rating]:
            player = ratings.player(account.id, game) if account else Rating()
            chosen = ratings.pick(game, player, account.id if account else None, rng)
            return chosen, ratings.puzzle(game, chosen), player

        chosen, rating, player = await asyncio.to_thread(work)
        return json({**view(game, chosen, rating), "player": _rating_json(player) if account else None})

    @handler
    async def one_puzzle(request: Request) -> Response:
        game = _game(request.path_params["game"])
        puzzle = _puzzle(game, request.path_params["id"])
        account = await viewer(request)
        rating = await asyncio.to_thread(ratings.puzzle, game, puzzle)
        player = await asyncio.to_thread(ratings.player, account.id, game) if account else None
        return json({**view(game, puzzle, rating), "player": _rating_json(player) if player else None})

    @handler
    async def answer(request: Request) -> Response:
        game = _game(request.path_params["game"])
        puzzle = _puzzle(game, request.path_params["id"])
        body = await read_body(request)
        result = await asyncio.to_thread(check, game, puzzle, body.get("move"))
        account = await viewer(request)
        result["rated"] = None
        if account is not None:
            result["rated"] = await asyncio.to_thread(ratings.record, account.id, game, puzzle, result["correct"])
        return json(result)

    return [
        Route("/api/puzzles", overview, methods=["GET"]),
        Route("/api/puzzles/daily", daily_puzzle, methods=["GET"]),
        Route("/api/puzzles/{game}/next", next_puzzle, methods=["GET"]),
        Route("/api/puzzles/{game}/{id}", one_puzzle, methods=["GET"]),
        Route("/api/puzzles/{game}/{id}/answer", answer, methods=["POST"]),
    ]
