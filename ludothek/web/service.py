"""The web app's game logic, independent of HTTP: create, join, move, undo, resign, rematch,
clocks, bots and dice. Generic over the game protocol: every move is parsed and checked by the
game's own ``GameState.play``; the server rolls every die.

All functions here are synchronous (they talk to the database) and are run off the event loop.
Game state lives in the database only; :class:`StateCache` keeps replayed states keyed by the
game's version number, so a stale entry is never used.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from functools import cache
from typing import Any

from ..core.errors import IllegalMove, LudothekError
from ..core.protocol import CHANCE, TERMINAL, GameState
from ..core.record import Record, dumps
from ..core.registry import game_class, games
from .boards import adapter, legal_move_infos
from .store import Conflict, GameRow, Store, hash_token

MAX_MOVE_TEXT = 80
MAX_CLOCK_MINUTES = 180
MAX_INCREMENT_SECONDS = 180
_system_random = random.SystemRandom()


class WebError(Exception):
    """A clean error for the client: an HTTP status and a message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def now() -> float:
    return time.time()


class StateCache:
    """Replayed states, keyed by (game id, version); purely derived from the database."""

    def __init__(self, size: int = 512):
        self.size = size
        self._items: OrderedDict[str, tuple[int, GameState, list[dict[str, Any]], list]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> tuple[GameState, list[dict[str, Any]], list] | None:
        with self._lock:
            item = self._items.get(game_id)
            if item is None or item[0] != version:
                return None
            self._items.move_to_end(game_id)
            return item[1], item[2], item[3]

    def put(self, game_id: str, version: int, state: GameState, history: list[dict[str, Any]], moves: list) -> None:
        with self._lock:
            self._items[game_id] = (version, state, history, moves)
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)


def game_catalog() -> list[dict[str, Any]]:
    """Every registered game with its options, for the home page."""
    result = []
    for name in games():
        try:
            cls = game_class(name)
        except Exception:  # noqa: BLE001, S112 - a game being written may not import yet
            continue
        result.append({
            "name": name,
            "title": dict(cls.title),
            "colours": list(cls.colours),
            "board": adapter(name).kind,
            "options": [
                {
                    "name": o.name, "type": o.type.__name__, "default": o.default, "help": o.help,
                    "choices": list(o.choices) if o.choices is not None else None, "min": o.min, "max": o.max,
                }
                for o in cls.OPTIONS
            ],
            "has_first": any(o.name == "first" for o in cls.OPTIONS),
            "bots": bot_levels(name),
        })
    return result


def bot_levels(game: str | None = None) -> list[str]:
    """Agent specs the home page offers: ``random``, the levels ``bot:1`` … ``bot:5`` and
    ``perfect`` where the game has a stored solution; only those that can play ``game``."""
    from ..ai.base import agent_names

    names = agent_names()
    specs = ["random"] if "random" in names else []
    if "bot" in names:
        specs += [f"bot:{level}" for level in range(1, 6)]
    if "perfect" in names:
        specs.append("perfect")
    if game is None:
        return specs
    return [spec for spec in specs if _agent_plays(spec, game)]


@cache
def _agent_plays(spec: str, game: str) -> bool:
    from ..ai.base import make_agent

    try:
        make_agent(spec, game, seed=1)
    except Exception:  # noqa: BLE001 - any failure means: not offered for this game
        return False
    return True


class GameService:
    def __init__(self, store: Store):
        self.store = store
        self.cache = StateCache()
        self._locks: dict[str, Any] = {}
        self._locks_guard = threading.Lock()

    def lock(self, game_id: str) -> Any:
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.RLock()
            return lock

    # ------------------------------------------------------------------ loading
    def row(self, game_id: str) -> GameRow:
        """The game's row with its moves (from the cache when its version is current)."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 24:
            raise WebError(404, "no such game")
        row = self.store.load(game_id, with_moves=False)
        if row is None:
            raise WebError(404, f"no game with id {game_id!r}")
        cached = self.cache.get(row.id, row.version)
        if cached is not None:
            row.moves = list(cached[2])
        else:
            row.moves = self.store.load_moves(game_id)
        return row

    def state_of(self, row: GameRow) -> tuple[GameState, list[dict[str, Any]]]:
        cached = self.cache.get(row.id, row.version)
        if cached is not None:
            return cached[0], cached[1]
        state, history = self.replay(row)
        self.cache.put(row.id, row.version, state, history, list(row.moves))
        return state, history

    @staticmethod
    def replay(row: GameRow, upto: int | None = None) -> tuple[GameState, list[dict[str, Any]]]:
        state = game_class(row.game)(row.position, **row.options)
        history: list[dict[str, Any]] = []
        for action, _text, _seat, _at in row.moves[: upto if upto is not None else len(row.moves)]:
            _apply_logged(state, action, history)
        return state, history

    def fresh(self, game_id: str) -> tuple[GameRow, GameState, list[dict[str, Any]]]:
        """Row and state; a clock that ran out ends the game here (the server keeps time)."""
        row = self.row(game_id)
        state, history = self.state_of(row)
        if row.status == "ongoing" and row.clock and _flag_fell(row, state):
            with self.lock(game_id):
                row = self.row(game_id)
                state, history = self.state_of(row)
                if row.status == "ongoing" and row.clock and _flag_fell(row, state):
                    loser = state.current_player()
                    row.clock["remaining"][loser] = 0
                    row.clock["since"] = None
                    self._finish(row, state, winner_seat=1 - loser, termination="time")
                    self._save(row, state, history)
        return row, state, history

    # ------------------------------------------------------------------ creating
    def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(spec, dict):
            raise WebError(400, "the request body must be a JSON object")
        name = spec.get("game")
        if not isinstance(name, str):
            raise WebError(400, "name the game: {\"game\": \"trike\", ...}")
        try:
            cls = game_class(name)
        except LudothekError as exc:
            raise WebError(400, str(exc)) from None
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise WebError(400, "options must be a JSON object")
        options = {str(k): v for k, v in options.items() if v is not None and v != ""}
        opponent = spec.get("opponent", "hotseat")
        if opponent not in ("hotseat", "bot", "friend"):
            raise WebError(400, f"opponent must be hotseat, bot or friend, not {opponent!r}")
        start = spec.get("start", "high")
        if start not in ("high", "low", "fixed"):
            raise WebError(400, f"start must be high, low or fixed, not {start!r}")
        seat = spec.get("seat", 0)
        if seat == "random":
            seat = secrets.randbelow(2)
        if seat not in (0, 1):
            raise WebError(400, "seat must be 0, 1 or \"random\"")
        position = spec.get("position")
        if position is not None and (not isinstance(position, str) or len(position) > 2000):
            raise WebError(400, "position must be a position string")
        tags: dict[str, str] = {"_start": start}
        has_first = any(o.name == "first" for o in cls.OPTIONS)
        if has_first and start != "fixed" and position is None and "first" not in options:
            from ..cli import roll_for_first

            first, rolls = roll_for_first(cls.colours, start, _system_random)
            options["first"] = first
            tags["StartRoll"] = f"{start}: {rolls}"
        try:
            state = cls(position, **options)
        except LudothekError as exc:
            raise WebError(400, str(exc)) from None
        clock = _clock_spec(spec.get("clock"))
        agent = None
        if opponent == "bot":
            agent = spec.get("bot", "random")
            if not isinstance(agent, str) or len(agent) > 40:
                raise WebError(400, "bot must be an agent name such as random or bot:3")
            from ..ai.base import make_agent

            try:
                make_agent(agent, cls.name, seed=1)
            except LudothekError as exc:
                raise WebError(400, str(exc)) from None
            except Exception as exc:  # noqa: BLE001 - an agent that cannot play this game
                raise WebError(400, f"agent {agent!r} cannot play {cls.name}: {exc}") from None
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}]
        token_hashes: list[str | None] = [None, None]
        invite = None
        mode = {"hotseat": "local", "bot": "bot", "friend": "online"}[opponent]
        if mode == "local":
            token_hashes = [digest, digest]
        elif mode == "bot":
            token_hashes[seat] = digest
            seats[1 - seat] = {"kind": "bot", "agent": agent}
        else:
            token_hashes[seat] = digest
            invite = secrets.token_urlsafe(18)
        created = now()
        row = GameRow(
            id=secrets.token_urlsafe(9), game=cls.name, options=dict(state.options), position=state.setup_position,
            mode=mode, seats=seats, token0=token_hashes[0], token1=token_hashes[1],
            invite=hash_token(invite) if invite else None,
            status="waiting" if mode == "online" else "ongoing", result="*", termination=None, tags=tags,
            clock=clock, version=0, ply=0, turns=0, rematch_of=spec.get("_rematch_of"), rematch=None,
            created=created, updated=created,
        )
        if row.clock and row.status == "ongoing":
            row.clock["since"] = created
        self._settle(row, state, [], [])
        self.store.create(row, [])
        answer = {"id": row.id, "token": token, "seats": [s for s in (0, 1) if token_hashes[s] == digest]}
        if invite:
            answer["invite"] = invite
        return answer

    def join(self, game_id: str, invite: Any) -> dict[str, Any]:
        if not isinstance(invite, str) or not invite or len(invite) > 100:
            raise WebError(401, "an invite code is needed to take the open seat")
        with self.lock(game_id):
            row = self.row(game_id)
            if row.invite is None:
                raise WebError(409, "this game has no open seat")
            if hash_token(invite) != row.invite:
                raise WebError(403, "the invite code is wrong")
            seat = 0 if row.token0 is None else 1
            token = secrets.token_urlsafe(24)
            if seat == 0:
                row.token0 = hash_token(token)
            else:
                row.token1 = hash_token(token)
            row.invite = None
            row.status = "ongoing"
            if row.clock:
                row.clock["since"] = now()
            state, history = self.state_of(row)
            self._save(row, state, history)
        return {"id": row.id, "token": token, "seats": [seat]}

    # ------------------------------------------------------------------ playing
    def play(self, game_id: str, token: Any, move: Any, seat: Any = None) -> dict[str, Any]:
        if not isinstance(move, str) or not move.strip():
            raise WebError(400, "a move must be a non-empty notation string")
        if len(move) > MAX_MOVE_TEXT:
            raise WebError(400, f"a move is at most {MAX_MOVE_TEXT} characters")
        with self.lock(game_id):
            row, state, history = self.fresh(game_id)
            mover = self._seat_for(row, token, state, seat)
            if row.seats[mover]["kind"] != "human":
                raise WebError(403, "that seat is played by a bot")
            self._play(row, state, history, mover, move.strip())
            return self.view(row, state, history)

    def _play(self, row: GameRow, state: GameState, history: list[dict[str, Any]], mover: int,
              move: str | int) -> GameRow:
        if row.status == "waiting":
            raise WebError(409, "the game has not started: waiting for the second player")
        if row.status == "over":
            raise WebError(409, "the game is over")
        if state.current_player() != mover:
            raise WebError(409, f"it is not your turn: {state.to_move} is to move")
        start = state.ply
        at = now()
        if row.clock and row.clock.get("since") is not None:
            used = int((at - row.clock["since"]) * 1000)
            row.clock["remaining"][mover] -= used
            if row.clock["remaining"][mover] <= 0:
                row.clock["remaining"][mover] = 0
                row.clock["since"] = None
                self.cache.drop(row.id)
                self._finish(row, state, winner_seat=1 - mover, termination="time")
                self._save(row, state, history)
                raise WebError(409, "your time ran out: the game is over")
        try:
            actions = [move] if isinstance(move, int) else state.parse_token(move)
            for action in actions:
                if state.current_player() == CHANCE:
                    raise IllegalMove(f"{move!r}: the server rolls the dice; send the roll without its outcome")
                state.play(int(action))
        except LudothekError as exc:
            self._rewind(state, history, start)
            if row.clock and row.clock.get("since") is not None:
                row.clock["remaining"][mover] += int((at - row.clock["since"]) * 1000)
            raise WebError(400, str(exc)) from None
        if row.clock and row.clock.get("since") is not None:
            row.clock["remaining"][mover] += row.clock["increment"]
            row.clock["since"] = at
        # keep the history in step (play(text) may apply several actions)
        new_actions = state.history[start:]
        self._rewind(state, history, start)
        for action in new_actions:
            _apply_logged(state, action, history)
        appended = [(a, state.move_texts[start + k], mover, at) for k, a in enumerate(new_actions)]
        self._settle(row, state, history, appended)
        self._save(row, state, history, appended)
        return row

    def _settle(self, row: GameRow, state: GameState, history: list[dict[str, Any]],
                appended: list[tuple[int, str, int, float]]) -> None:
        """Roll every pending die (the server's dice) and record a rules ending."""
        while not state.is_over() and state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            actions, weights = zip(*outcomes)
            action = _system_random.choices(actions, weights)[0]
            ply = state.ply
            _apply_logged(state, action, history)
            appended.append((action, state.move_texts[ply], -1, now()))
        if state.is_over() and row.status != "over":
            self._finish(row, state, winner_seat=None, termination="rules")

    def _finish(self, row: GameRow, state: GameState, winner_seat: int | None, termination: str) -> None:
        row.status = "over"
        row.termination = termination
        if winner_seat is None:
            row.result = state.result()
        else:
            row.result = state.seat_colour(winner_seat)
        if row.clock:
            row.clock["since"] = None
        row.invite = None

    def _save(self, row: GameRow, state: GameState, history: list[dict[str, Any]],
              appended: list[tuple[int, str, int, float]] = (), truncate_to: int | None = None) -> None:
        seen = row.version
        row.ply = state.ply
        kept = row.moves[: truncate_to if truncate_to is not None else len(row.moves)]
        row.turns = sum(1 for m in kept if m[2] != -1) + sum(1 for m in appended if m[2] != -1)
        try:
            self.store.save(row, seen, list(appended), truncate_to=truncate_to)
        except Conflict:
            self.cache.drop(row.id)
            raise WebError(409, "the game changed meanwhile; reload and try again") from None
        row.moves = row.moves[: truncate_to if truncate_to is not None else len(row.moves)] + list(appended)
        self.cache.put(row.id, row.version, state, history, list(row.moves))

    @staticmethod
    def _rewind(state: GameState, history: list[dict[str, Any]], ply: int) -> None:
        while state.ply > ply:
            state.undo()
        while history and history[-1]["ply"] > ply:
            last = history[-1]
            if last["start"] >= ply:
                history.pop()
            else:  # a token whose chance outcome was taken back
                last["text"] = last["texts"][0]
                last["ply"] = ply
                break

    def _seat_for(self, row: GameRow, token: Any, state: GameState, seat: Any) -> int:
        if not isinstance(token, str) or not token:
            raise WebError(401, "this action needs your seat token")
        if len(token) > 100:
            raise WebError(403, "the token is wrong")
        mine = row.seats_of(token)
        if not mine:
            raise WebError(403, "the token does not hold a seat in this game")
        if seat is not None:
            if seat not in mine:
                raise WebError(403, f"the token does not hold seat {seat}")
            return seat
        if len(mine) == 1:
            return mine[0]
        player = state.current_player()
        return player if player in mine else mine[0]

    # ------------------------------------------------------------------ bots
    def bot_job(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        """What a bot must compute now, if a bot is to move: (version, arguments)."""
        row, state, _ = self.fresh(game_id)
        if row.status != "ongoing":
            return None
        player = state.current_player()
        if player < 0 or row.seats[player]["kind"] != "bot":
            return None
        return row.version, {
            "game": row.game, "options": row.options, "position": row.position,
            "actions": [m[0] for m in row.moves], "agent": row.seats[player]["agent"],
            "seed": secrets.randbits(31), "seat": player,
        }

    def bot_move(self, game_id: str, version: int, seat: int, action: int) -> dict[str, Any] | None:
        with self.lock(game_id):
            row, state, history = self.fresh(game_id)
            if row.version != version or row.status != "ongoing" or state.current_player() != seat:
                return None  # the game moved on (undo, resignation): drop the bot's answer
            self._play(row, state, history, seat, int(action))
            return self.view(row, state, history)

    # ------------------------------------------------------------------ undo, resign, rematch
    def undo(self, game_id: str, token: Any) -> dict[str, Any]:
        with self.lock(game_id):
            row, state, history = self.fresh(game_id)
            mine = self._seat_for(row, token, state, None)
            if row.mode == "online":
                raise WebError(403, "undo is only for local games (hot-seat or against a bot)")
            if row.termination in ("resign", "time"):
                raise WebError(409, "the game ended by resignation or time: nothing to undo")
            del mine
            humans = [s for s in (0, 1) if row.seats[s]["kind"] == "human"]
            # take back the last action of a person and everything after it (bot moves, rolls)
            cut = len(row.moves)
            while cut > 0 and row.moves[cut - 1][2] not in humans:
                cut -= 1
            if cut == 0:
                raise WebError(409, "nothing to undo")
            cut -= 1
            self._rewind(state, history, cut)
            row.status = "ongoing"
            row.result = "*"
            row.termination = None
            if row.clock:
                row.clock["since"] = now()
            self._save(row, state, history, truncate_to=cut)
            return self.view(row, state, history)

    def resign(self, game_id: str, token: Any, seat: Any = None) -> dict[str, Any]:
        with self.lock(game_id):
            row, state, history = self.fresh(game_id)
            resigner = self._seat_for(row, token, state, seat)
            if row.status == "over":
                raise WebError(409, "the game is over")
            if row.status == "waiting":
                raise WebError(409, "the game has not started")
            self._finish(row, state, winner_seat=1 - resigner, termination="resign")
            self._save(row, state, history)
            return self.view(row, state, history)

    def rematch(self, game_id: str, token: Any) -> dict[str, Any]:
        """A new game with the seats exchanged. The first caller creates it; each player
        claims his seat there with his token from this game."""
        with self.lock(game_id):
            row, state, history = self.fresh(game_id)
            mine = self._seat_for(row, token, state, None)
            if row.status != "over":
                raise WebError(409, "a rematch needs a finished game")
            if row.rematch is None:
                options = dict(row.options)
                start = row.tags.get("_start", "fixed")
                if "StartRoll" in row.tags:
                    options.pop("first", None)
                seat_of_creator = 1 - mine
                spec = {
                    "game": row.game, "options": options, "position": row.position, "start": start,
                    "opponent": {"local": "hotseat", "bot": "bot", "online": "friend"}[row.mode],
                    "seat": seat_of_creator, "_rematch_of": row.id,
                }
                if row.mode == "bot":
                    spec["bot"] = row.seats[1 - mine]["agent"]
                if row.clock:
                    spec["clock"] = {"minutes": row.clock["initial"] / 60000, "increment": row.clock["increment"] / 1000}
                created = self.create(spec)
                row.rematch = created["id"]
                self._save(row, state, history)
                if row.mode != "online":
                    return {"id": created["id"], "token": created["token"], "seats": created["seats"]}
                # the other seat of the new game is reserved for this game's other player
                new = self.row(created["id"])
                new.invite = None
                other_new = 1 - seat_of_creator
                partner = row.token_hash(1 - mine)
                if other_new == 0:
                    new.token0 = "reserved:" + (partner or "")[:55]
                else:
                    new.token1 = "reserved:" + (partner or "")[:55]
                new_state, new_history = self.state_of(new)
                self._save(new, new_state, new_history)
                return {"id": created["id"], "token": created["token"], "seats": created["seats"]}
        # the second player claims the reserved seat
        with self.lock(row.rematch):
            new = self.row(row.rematch)
            partner = row.token_hash(mine) or ""
            for seat in (0, 1):
                if new.token_hash(seat) == "reserved:" + partner[:55]:
                    fresh_token = secrets.token_urlsafe(24)
                    if seat == 0:
                        new.token0 = hash_token(fresh_token)
                    else:
                        new.token1 = hash_token(fresh_token)
                    new.status = "ongoing"
                    if new.clock:
                        new.clock["since"] = now()
                    new_state, new_history = self.state_of(new)
                    self._save(new, new_state, new_history)
                    return {"id": new.id, "token": fresh_token, "seats": [seat]}
            raise WebError(409, "the rematch seat was already taken; open the new game from your own browser")

    # ------------------------------------------------------------------ views
    def get_view(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        with self.lock(game_id):
            row, state, history = self.fresh(game_id)
            return self.view(row, state, history, at)

    def get_record(self, game_id: str) -> tuple[GameRow, str]:
        with self.lock(game_id):
            row, state, _ = self.fresh(game_id)
            return row, self.record_text(row, state)

    def view(self, row: GameRow, state: GameState, history: list[dict[str, Any]],
             at: int | None = None) -> dict[str, Any]:
        """Everything a client shows; ``at`` shows the position after that many actions."""
        live = at is None or at >= len(row.moves)
        if not live:
            at = max(0, int(at))
            state, history = self.replay(row, at)
        ad = adapter(row.game)
        board = ad.board(state)
        player = state.current_player()
        ongoing = row.status == "ongoing" and live
        moves = legal_move_infos(state, ad) if ongoing else []
        last = None
        if history and state.ply:
            last_text = history[-1]["texts"][0]
            last = ad.move_info(_before(state, history[-1]) if ad.move_info_needs_state else state, last_text)
        threat_cells = ad.threatened(state, board)
        texts = state.move_texts
        last_mark = history[-1]["text"] if history else ""
        score = state.score() if state.ply else None
        clock = None
        if row.clock:
            remaining = list(row.clock["remaining"])
            running = None
            if row.status == "ongoing" and row.clock.get("since") is not None and player >= 0:
                running = player
                remaining[player] = max(0, remaining[player] - int((now() - row.clock["since"]) * 1000))
            clock = {"initial": row.clock["initial"], "increment": row.clock["increment"],
                     "remaining": remaining, "running": running}
        return {
            "id": row.id,
            "game": row.game,
            "title": dict(game_class(row.game).title),
            "options": row.options,
            "mode": row.mode,
            "status": row.status if live else "replay",
            "result": row.result,
            "termination": row.termination,
            "seats": row.seats,
            "colours": [state.seat_colour(0), state.seat_colour(1)],
            "to_move": state.to_move if row.status == "ongoing" or not live else None,
            "to_seat": player if player >= 0 and (row.status == "ongoing" or not live) else None,
            "position": state.position(),
            "board": board,
            "moves": moves,
            "history": [{"text": h["text"], "ply": h["ply"], "colour": h["colour"]} for h in history],
            "plies": len(row.moves),
            "at": state.ply,
            "last": {"move": last["move"], "cells": ad.last_cells(last), "kind": last["kind"]} if last else None,
            "threat": bool(texts) and ("^" in last_mark or "+" in last_mark),
            "threatened": threat_cells,
            "score": score,
            "clock": clock,
            "tags": {k: v for k, v in row.tags.items() if not k.startswith("_")},
            "version": row.version,
            "rematch": row.rematch,
            "rematch_of": row.rematch_of,
            "open_seat": row.invite is not None,
            "created": row.created,
            "updated": row.updated,
        }

    def summary(self, row: GameRow) -> dict[str, Any]:
        return {
            "id": row.id, "game": row.game, "mode": row.mode, "status": row.status, "result": row.result,
            "termination": row.termination, "plies": row.ply, "moves": row.turns, "seats": row.seats,
            "options": row.options,
            "created": row.created, "updated": row.updated,
        }

    def record_text(self, row: GameRow, state: GameState) -> str:
        tags: dict[str, str] = {"Site": "Ludothek web", "Date": time.strftime("%Y.%m.%d", time.gmtime(row.created))}
        for seat in (0, 1):
            info = row.seats[seat]
            label = info.get("agent") if info["kind"] == "bot" else f"Player {seat + 1}"
            tags[state.seat_colour(seat).capitalize()] = str(label)
        tags.update({k: v for k, v in row.tags.items() if not k.startswith("_")})
        if row.termination and row.termination != "rules":
            tags["Termination"] = row.termination
        if row.clock:
            tags["TimeControl"] = f"{row.clock['initial'] // 1000}+{row.clock['increment'] // 1000}"
        result = row.result if row.status == "over" else "*"
        return dumps(Record.from_state(state, result=result, **tags))


# ---------------------------------------------------------------------------- helpers
def _apply_logged(state: GameState, action: int, history: list[dict[str, Any]]) -> None:
    """Play ``action`` and keep ``history``: one entry per record token (a die's outcome joins
    the roll before it), with the mover's colour and the ply after it."""
    player = state.current_player()
    colour = state.to_move
    ply = state.ply
    state.play(int(action))
    text = state.move_texts[-1]
    if player == CHANCE and history:
        history[-1]["text"] += text
        history[-1]["texts"].append(text)
        history[-1]["ply"] = state.ply
    else:
        history.append({"text": text, "texts": [text], "ply": state.ply, "start": ply, "colour": colour})


def _before(state: GameState, entry: dict[str, Any]) -> GameState:
    """The position before ``entry``'s move (for reading its cells)."""
    probe = state.copy()
    while probe.ply > entry["start"]:
        probe.undo()
    return probe


def _flag_fell(row: GameRow, state: GameState) -> bool:
    clock = row.clock or {}
    since = clock.get("since")
    player = state.current_player()
    if since is None or player < 0 or player == TERMINAL:
        return False
    return clock["remaining"][player] - (now() - since) * 1000 <= 0


def _clock_spec(spec: Any) -> dict[str, Any] | None:
    if spec in (None, False, {}, ""):
        return None
    if not isinstance(spec, dict):
        raise WebError(400, "clock must be {\"minutes\": M, \"increment\": S} or null")
    minutes, increment = spec.get("minutes", 0), spec.get("increment", 0)
    for name, value, top in (("minutes", minutes, MAX_CLOCK_MINUTES), ("increment", increment, MAX_INCREMENT_SECONDS)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top:
            raise WebError(400, f"clock {name} must be a number from 0 to {top}")
    if minutes <= 0:
        return None
    initial = int(minutes * 60000)
    return {"initial": initial, "increment": int(increment * 1000), "remaining": [initial, initial], "since": None}
