"""The web app's game logic, independent of HTTP: create, join, move, undo, resign, claim,
rematch, clocks, bots and dice. Generic over the game protocol: every move is parsed and
checked by the game's own ``GameState.play``; the server rolls every die.

The methods are coroutines run on the server's event loop. A game in play lives in memory
(:class:`Live`: its row and replayed state, whose own history is the move list), so a move
costs no database read; the database stays the truth: each change is committed (group
commit, see :mod:`.store`) before anyone sees it, and a compare-and-set on the game's version
makes a stale copy (another server process moved first) fail cleanly, reload and try again.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections import OrderedDict
from contextlib import asynccontextmanager
from functools import cache
from typing import Any, AsyncIterator, Awaitable, Callable

from .. import i18n
from ..core import fairdice
from ..core.errors import IllegalMove, LudothekError
from ..core.messages import Message, colour
from ..core.options import checked
from ..core.protocol import CHANCE, GameState, RecordEntry
from ..core.record import Record, dumps
from ..core.registry import game_class, game_spec, games
from . import aborts, berserk, clocks
from .boards import Adapter, adapter, legal_move_infos
from .errors import WebError
from .store import PROVISIONAL_DEVIATION, Account, Conflict, GameRow, Store, Write, hash_token
from .texts import TEXTS

MAX_MOVE_TEXT = 80
#: changes retried when another server process wrote first
RETRIES = 3
#: the private tag that holds a game's dice scheme (see :func:`dice_scheme`)
DICE_SCHEME_TAG = "_dice"
_system_random = random.SystemRandom()


class Live:
    """A game in memory. ``lock`` orders the changes to it and keeps readers from seeing a
    change before it is committed; ``stale`` asks for a reload from the database."""

    __slots__ = ("row", "state", "lock", "stale", "_base", "_base_version")

    def __init__(self, row: GameRow, state: GameState):
        self.row, self.state = row, state
        self.lock = asyncio.Lock()
        self.stale = False
        self._base: dict[str, Any] | None = None
        self._base_version = -1


@cache
def game_catalog() -> list[dict[str, Any]]:
    """Every registered game with its options, in display order, for the home and rules
    pages: ``board`` is its board kind, ``rules`` whether it has a rules page. The installed
    games do not change while a process runs: built once (the warm-up does it), then shared."""
    result = []
    for name in games():
        try:
            cls = game_class(name)
            board = adapter(name).kind
        except Exception:  # noqa: BLE001, S112 - a game being written may not import yet
            continue
        result.append({
            "name": name,
            "title": dict(cls.title),
            "colours": list(cls.colours),
            "board": board,
            "rules": game_spec(name).rules is not None,
            "summary": game_summary(name),
            "options": [
                {
                    "name": o.name, "type": o.type.__name__, "default": o.default, "help": o.help,
                    "choices": list(o.choices) if o.choices is not None else None, "min": o.min, "max": o.max,
                }
                for o in cls.OPTIONS
            ],
            "has_first": any(o.name == "first" for o in cls.OPTIONS),
            "bots": bot_levels(name),
            "bot_thinking": bot_thinking(name),
        })
    return result


def game_summary(name: str) -> dict[str, str] | None:
    """The game's one-line description ({lang: text}) from its rules page, for the home page."""
    page = game_spec(name).rules_page()
    return dict(page["summary"]) if page and isinstance(page.get("summary"), dict) else None


def bot_levels(game: str | None = None) -> list[str]:
    """Agent specs the home page offers: ``random``, the levels ``bot:1`` … ``bot:8`` and
    ``perfect`` where the game has a stored solution; only those that can play ``game``."""
    from ..ai.base import agent_names
    from ..ai.levels import LEVELS

    names = agent_names()
    specs = ["random"] if "random" in names else []
    if "bot" in names:
        specs += [f"bot:{level}" for level in LEVELS]
    if "perfect" in names:
        specs.append("perfect")
    if game is None:
        return specs
    return [spec for spec in specs if _agent_plays(spec, game)]


def bot_thinking(game: str) -> dict[str, dict]:
    """How long the levels of ``game`` that think for a time do, for the opponent choice:
    ``{"bot:7": {"seconds": 2.0, "most": 4.0}}`` (``most``: on a critical turn), and
    ``{"perfect": True}`` for a level that plays from a solved table (it answers at once)."""
    from ..ai.levels import LEVELS, level_of

    found: dict[str, dict] = {}
    for level in LEVELS:
        spec = level_of(game, level)
        if spec.algorithm == "perfect":
            found[f"bot:{level}"] = {"perfect": True}
        elif spec.budget.seconds is not None:
            found[f"bot:{level}"] = {"seconds": spec.budget.seconds, "most": spec.budget.most_seconds}
    return found


@cache
def _agent_plays(spec: str, game: str) -> bool:
    from ..ai.base import make_agent

    try:
        make_agent(spec, game, seed=1)
    except Exception:  # noqa: BLE001 - any failure means: not offered for this game
        return False
    return True


class GameService:
    def __init__(self, store: Store, cache_size: int = 4096, claim_after: float = 3 * 24 * 3600,
                 bot_cap: int = 8, clock: Callable[[], float] = time.time):
        """``claim_after``: seconds an online game without a clock waits for the player to
        move before the other may claim the win; ``bot_cap``: live games against bots per
        client address; ``clock``: the time now (tests inject one that jumps days)."""
        self.now = clock
        self.store = store
        self.cache_size = cache_size
        self.claim_after = claim_after
        self.bot_cap = bot_cap
        self.games: OrderedDict[str, Live] = OrderedDict()
        #: told of each game that a request, the sweep or a timer found out of time and ended
        #: (with its view): whoever finds it, every page watching must see the end
        self.on_time_up: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None

    # ------------------------------------------------------------------ loading
    @staticmethod
    def replay(row: GameRow, upto: int | None = None) -> GameState:
        state = game_class(row.game)(row.position, **row.options)
        for action, _text, _seat, _at in row.moves[: upto if upto is not None else len(row.moves)]:
            state.play(int(action))
        return state

    async def _read(self, game_id: str) -> GameRow:
        row = await asyncio.to_thread(self.store.load, game_id)
        if row is None:
            raise WebError(404, TEXTS("no_game_id", game_id=game_id))
        return row

    async def live(self, game_id: Any, check: bool = False) -> Live:
        """The game in memory (loaded on first use). ``check`` asks the database whether
        another process changed it since (one cheap query)."""
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 24:
            raise WebError(404, TEXTS("no_such_game"))
        live = self.games.get(game_id)
        if live is None:
            row = await self._read(game_id)
            live = self.games.get(game_id)  # loaded meanwhile by another request
            if live is None:
                live = Live(row, self.replay(row))
                self.games[game_id] = live
                while len(self.games) > self.cache_size:
                    self.games.popitem(last=False)
        elif check and not live.stale:
            version = await asyncio.to_thread(self.store.version, game_id)
            if version != live.row.version:
                live.stale = True
        self.games.move_to_end(game_id)
        return live

    async def _refresh(self, live: Live) -> None:
        """Reload a stale game (call with its lock held)."""
        if live.stale:
            row = await self._read(live.row.id)
            live.row = row
            live.state = self.replay(row)
            live.stale = False

    def seats_of(self, game_id: str, token: str | None, user: Account | None = None) -> list[int]:
        """The seats ``token`` holds, or the account ``user`` owns, in a game this process has
        in memory."""
        live = self.games.get(game_id)
        if live is None or not (token or user):
            return []
        return live.row.seats_of(token, user.id if user is not None else None)

    def changed_elsewhere(self, game_id: str, version: int | None = None) -> bool:
        """Another process changed a game to ``version``: reload it before its next use (an
        unknown version is left to the next checked read, one cheap query). Returns whether
        this process has it in memory."""
        live = self.games.get(game_id)
        if live is not None and version is not None and version != live.row.version:
            live.stale = True
        return live is not None

    @asynccontextmanager
    async def _locked(self, game_id: Any, check: bool = False) -> AsyncIterator[Live]:
        """The game, current and locked; a clock that ran out ends the game here first (the
        server keeps time)."""
        live = await self.live(game_id, check)
        ended: dict[str, Any] | None = None
        try:
            async with live.lock:
                for _ in range(RETRIES):
                    await self._refresh(live)
                    if not self._time_up(live.row, live.state):
                        break
                    try:
                        await self._commit(live)
                        ended = self.view(live)
                        break
                    except Conflict:
                        continue
                yield live
        finally:  # told once the lock is free, also when what the caller wanted failed
            if ended is not None and self.on_time_up is not None:
                await self.on_time_up(live.row.id, ended)

    def _time_up(self, row: GameRow, state: GameState) -> bool:
        """End the game in memory if time ran out for the player to move by the server's
        clock: a first move not made in its window aborts the game (:mod:`.aborts`), a fallen
        flag loses it. Whether it ended."""
        if row.status != "ongoing":
            return False
        player, now = state.current_player(), self.now()
        if aborts.overdue(row, player, now):
            self._abort(row, state, aborts.LATE)
            return True
        if aborts.awaits_first_move(row, player) or not clocks.flag_fell(row.clock, player, now):
            return False
        clocks.flag(row.clock, player)
        self._finish(row, state, winner_seat=1 - player, termination="time")
        return True

    async def _changing(self, game_id: Any, change: Callable[[Live], Awaitable[Any]]) -> Any:
        """Run ``change`` on the locked game (it edits the game in memory and commits);
        when another process wrote first, reload and run it again."""
        for attempt in range(RETRIES):
            try:
                async with self._locked(game_id, check=attempt > 0) as live:
                    try:
                        return await change(live)
                    except WebError:
                        raise
                    except BaseException:
                        live.stale = True  # whatever it changed in memory is not in the database
                        raise
            except Conflict:
                continue
        raise WebError(409, TEXTS("changed_meanwhile"))

    async def _commit(self, live: Live, appended: list[tuple[int, str, int, float]] = (),
                      truncate_to: int | None = None) -> None:
        """Make the in-memory change durable. If it fails, the copy in memory is wrong:
        reload it next time."""
        row, state = live.row, live.state
        row.ply = state.ply
        kept = row.moves[: truncate_to if truncate_to is not None else len(row.moves)]
        row.turns = sum(1 for m in kept if m[2] != -1) + sum(1 for m in appended if m[2] != -1)
        _bookkeeping(row, state, kept + list(appended))
        try:
            await self.store.commit(Write(row, row.version, list(appended), truncate_to,
                                          rate=_rating_due(row, state, kept + list(appended))))
        except BaseException:
            live.stale = True
            raise
        row.moves = kept + list(appended)

    # ------------------------------------------------------------------ creating
    async def create(self, spec: Any, client: str | None = None, rematch_of: str | None = None,
                     user: Account | None = None, owners: list[Account | None] | None = None,
                     paired: tuple[str, str] | None = None, record_tags: dict[str, str] | None = None,
                     agents: tuple[str | None, str | None] | None = None) -> dict[str, Any]:
        """A new game; ``user``, if logged in, owns the seats the new token holds (``owners``:
        the owner of each seat instead, for a rematch or a pairing). ``paired``: (game id, the
        token hash of the other seat) for a game the lobby paired: it starts at once, with no
        invite. ``record_tags``: tags for its record (a tournament's Event and Round). ``agents``:
        for a paired game, the bot level that plays each seat (None: a person), as a tournament
        pairs bots; their moves are made as in a game against a bot."""
        cls, options = game_and_options(spec)
        opponent = spec.get("opponent", "hotseat")
        if opponent not in ("hotseat", "bot", "friend"):
            raise WebError(400, TEXTS("choice", field="opponent", a="hotseat", b="bot", c="friend",
                                      value=str(opponent)[:30]))
        start = spec.get("start", "high")
        if start not in ("high", "low", "fixed"):
            raise WebError(400, TEXTS("choice", field="start", a="high", b="low", c="fixed", value=str(start)[:30]))
        seat = spec.get("seat", 0)
        if seat == "random":
            seat = secrets.randbelow(2)
        seat = seat_arg(seat, TEXTS("seat_rule_random"))
        position = spec.get("position")
        if position is not None and (not isinstance(position, str) or len(position) > 2000):
            raise WebError(400, TEXTS("position_text"))
        tags: dict[str, str] = {**(record_tags or {}), "_start": start, DICE_SCHEME_TAG: str(fairdice.SCHEME)}
        # every roll of the game, the one for the first move included, follows from this secret
        game_id = paired[0] if paired else secrets.token_urlsafe(9)
        dice_secret = fairdice.new_secret()
        has_first = any(o.name == "first" for o in cls.OPTIONS)
        if has_first and start != "fixed" and position is None and "first" not in options:
            first, rolls = fairdice.roll_first(cls.colours, start, dice_secret, game_id)
            options["first"] = first
            tags[fairdice.TAG_START_ROLL] = f"{start}: {rolls}"
        state = new_state(cls, position, options)
        clock = clocks.parse(spec.get("clock"))
        rated = rated_arg(spec)
        if rated:
            _check_rated(opponent, position, [user] if owners is None else owners)
        agent = None
        if opponent == "bot":
            agent = spec.get("bot", "random")
            offered = bot_levels(cls.name)
            if agent not in offered:  # an open-ended agent spec could hold a worker for minutes
                raise WebError(400, TEXTS("bad_bot", bots=", ".join(offered), game=cls.name, value=str(agent)[:40]))
            if client is not None and self.bot_cap:
                live_games = await asyncio.to_thread(self.store.live_bot_games, client, self.now() - 3600)
                if live_games >= self.bot_cap:
                    raise WebError(429, TEXTS("bot_cap", count=live_games, cap=self.bot_cap))
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
            if paired:
                token_hashes[1 - seat] = paired[1]
            else:
                invite = secrets.token_urlsafe(18)
            for s, bot in enumerate(agents if paired and agents else ()):
                if bot is not None:
                    if bot not in bot_levels(cls.name):
                        raise WebError(400, TEXTS("bad_bot", bots=", ".join(bot_levels(cls.name)), game=cls.name,
                                                  value=str(bot)[:40]))
                    seats[s], token_hashes[s] = {"kind": "bot", "agent": bot}, None
        created = self.now()
        row = GameRow(
            id=game_id, game=cls.name, options=dict(state.options), position=state.setup_position,
            mode=mode, seats=seats, token0=token_hashes[0], token1=token_hashes[1],
            invite=hash_token(invite) if invite else None,
            status="waiting" if invite else "ongoing", result="*", termination=None, tags=tags,
            clock=clock, version=0, ply=0, turns=0, rematch_of=rematch_of, rematch=None,
            created=created, updated=created, creator=client, dice_secret=dice_secret, rated=rated,
        )
        if row.clock and row.status == "ongoing":
            row.clock["since"] = created
        if owners is None:
            owners = [user if token_hashes[s] == digest else None for s in (0, 1)]
        for s in (0, 1):
            _own(row, s, owners[s])
        appended: list[tuple[int, str, int, float]] = []
        self._settle(row, state, appended)
        row.ply, row.moves = state.ply, appended
        _bookkeeping(row, state)
        await self.store.commit(Write(row, None, list(appended)))
        self.games[row.id] = Live(row, state)
        answer = {"id": row.id, "token": token, "seats": [s for s in (0, 1) if token_hashes[s] == digest]}
        if invite:
            answer["invite"] = invite
        return answer

    async def join(self, game_id: str, invite: Any, user: Account | None = None) -> dict[str, Any]:
        """Take the open seat of an online game with its invite code (``user``: its owner)."""
        if not isinstance(invite, str) or not invite or len(invite) > 100:
            raise WebError(401, TEXTS("invite_needed"))

        async def change(live: Live) -> dict[str, Any]:
            row = live.row
            if row.invite is None:
                raise WebError(409, TEXTS("no_open_seat"))
            if hash_token(invite) != row.invite:
                raise WebError(403, TEXTS("invite_wrong"))
            if row.rated and user is None:
                raise WebError(401, TEXTS("rated_join_login"))
            seat = 0 if row.token0 is None else 1
            token = secrets.token_urlsafe(24)
            if seat == 0:
                row.token0 = hash_token(token)
            else:
                row.token1 = hash_token(token)
            row.invite = None
            row.status = "ongoing"
            _own(row, seat, user)
            if row.clock:
                row.clock["since"] = self.now()
            await self._commit(live)
            return {"id": row.id, "token": token, "seats": [seat]}

        return await self._changing(game_id, change)

    async def attach(self, game_id: Any, token: Any, user: Account) -> list[int]:
        """A guest signed up or logged in: the seats his token holds in a game become his
        account's (not those another account owns), and the token no longer acts for them, so
        a copy of it left in a browser cannot play them. Returns the seats attached now."""
        if not isinstance(token, str) or not token or len(token) > 100:
            return []

        async def change(live: Live) -> list[int]:
            row = live.row
            seats = [s for s in row.seats_of(token) if row.user_of(s) is None]
            if not seats:
                return []
            retired = hash_token(secrets.token_urlsafe(24))  # a token no one holds
            for seat in seats:
                _own(row, seat, user)
                if seat == 0:
                    row.token0 = retired
                else:
                    row.token1 = retired
            await self._commit(live)
            return seats

        return await self._changing(game_id, change)

    # ------------------------------------------------------------------ playing
    async def play(self, game_id: str, token: Any, move: Any, seat: Any = None, user: Account | None = None,
                   ply: Any = None) -> Live:
        """A person's move. ``ply``, if given, is the number of actions the client saw: the move
        answers that position, and is refused (409, with the game as it is now) if the game
        has moved on since, so a repeated or late request is never applied to a later position."""
        if not isinstance(move, str) or not move.strip():
            raise WebError(400, TEXTS("move_text"))
        if len(move) > MAX_MOVE_TEXT:
            raise WebError(400, TEXTS("move_long", limit=MAX_MOVE_TEXT))
        seat = seat_arg(seat)
        ply = ply_arg(ply)

        async def change(live: Live) -> Live:
            self._check_ply(live, ply)
            mover = self._seat_for(live.row, token, live.state, seat, user)
            if live.row.seats[mover]["kind"] != "human":
                raise WebError(403, TEXTS("bot_seat"))
            await self._play(live, mover, move.strip())
            return live

        return await self._changing(game_id, change)

    def _check_ply(self, live: Live, ply: int | None) -> None:
        if ply is not None and ply != len(live.row.moves):
            raise WebError(409, TEXTS("stale_ply", sent=ply, now=len(live.row.moves)), {"game": self.view(live)})

    async def _play(self, live: Live, mover: int, move: str | int) -> None:
        row, state = live.row, live.state
        if row.status == "waiting":
            raise WebError(409, TEXTS("not_started_waiting"))
        if row.status == "over":
            raise WebError(409, TEXTS("over"))
        if state.current_player() != mover:
            raise WebError(409, TEXTS("not_your_turn", colour=colour(str(state.to_move))))
        start = state.ply
        at = self.now()
        clock = row.clock if row.clock and row.clock.get("since") is not None else None
        if clock is not None and aborts.awaits_first_move(row, mover):
            clock["since"] = at  # a first move costs no time: the abort window ran instead
        if clock is not None and clocks.flag_fell(clock, mover, at):
            clocks.flag(clock, mover)
            self._finish(row, state, winner_seat=1 - mover, termination="time")
            await self._commit(live)
            raise WebError(409, TEXTS("time_ran_out"))
        try:
            actions = [move] if isinstance(move, int) else state.parse_token(move)
            for action in actions:
                if state.current_player() == CHANCE:
                    raise IllegalMove(TEXTS("server_rolls", move=move))
                state.play(int(action))
        except LudothekError as exc:
            _rewind(state, start)
            raise WebError(400, exc) from None
        if clock is not None:
            clocks.moved(clock, mover, at)
        appended = [(*state.played(ply), mover, at) for ply in range(start, state.ply)]
        row.offer = None  # a move answers any pending takeback or draw offer
        self._settle(row, state, appended)
        await self._commit(live, appended)

    def _settle(self, row: GameRow, state: GameState, appended: list[tuple[int, str, int, float]]) -> None:
        """Roll every pending die (the server's dice) and record a rules ending. A die shows
        what the game's secret gives at its ply (:mod:`ludothek.core.fairdice`), so undoing a
        roll and rolling again gives the same face; a game created before the secrets (none
        stored) keeps rolling from the system's random source."""
        while not state.is_over() and state.current_player() == CHANCE:
            if row.dice_secret:
                action = fairdice.roll(state, row.dice_secret, row.id, dice_scheme(row))
            else:
                actions, weights = zip(*state.chance_outcomes())
                action = _system_random.choices(actions, weights)[0]
            ply = state.ply
            state.play(int(action))
            appended.append((*state.played(ply), -1, self.now()))
        if state.is_over() and row.status != "over":
            self._finish(row, state, winner_seat=None, termination="rules")

    @staticmethod
    def _finish(row: GameRow, state: GameState, winner_seat: int | None, termination: str) -> None:
        """End the game: ``termination`` is ``rules`` (the rule is ``state.ending()``, kept in
        ``row.reason``), ``resign``, ``time``, ``abandon``, ``agreement`` (a draw) or
        ``aborted`` (no result: see :meth:`_abort`)."""
        row.status = "over"
        row.termination = termination
        if termination == "agreement":
            row.result = "draw"
        elif termination == aborts.TERMINATION:
            row.result = "*"
        else:
            row.result = state.result() if winner_seat is None else state.seat_colour(winner_seat)
        row.reason = (state.ending() or "over") if termination == "rules" else None
        row.offer = None  # nothing is left to answer
        if row.clock:
            row.clock["since"] = None
        row.invite = None

    def _abort(self, row: GameRow, state: GameState, reason: str) -> None:
        """End a game nobody started (:mod:`.aborts`): no result, no rating change."""
        self._finish(row, state, winner_seat=None, termination=aborts.TERMINATION)
        row.reason = reason

    @staticmethod
    def _seat_for(row: GameRow, token: Any, state: GameState, seat: int | None, user: Account | None = None) -> int:
        """The seat a player acts for: one his token holds or his account owns (``seat``
        chooses in a hot-seat game; by default the seat to move)."""
        token = token if isinstance(token, str) and token else None
        if token is None and user is None:
            raise WebError(401, TEXTS("token_needed"))
        if token is not None and len(token) > 100:
            raise WebError(403, TEXTS("token_wrong"))
        mine = row.seats_of(token, user.id if user is not None else None)
        if not mine:
            raise WebError(403, TEXTS("token_no_seat") if user is None else TEXTS("no_seat_yours"))
        if seat is not None:
            if seat not in mine:
                raise WebError(403, TEXTS("token_not_seat", seat=seat))
            return seat
        if len(mine) == 1:
            return mine[0]
        player = state.current_player()
        return player if player in mine else mine[0]

    # ------------------------------------------------------------------ bots
    async def bot_job(self, game_id: str) -> tuple[int, dict[str, Any]] | None:
        """What a bot must compute now, if a bot is to move: (version, arguments)."""
        async with self._locked(game_id) as live:
            row, state = live.row, live.state
            if row.status != "ongoing":
                return None
            player = state.current_player()
            if player < 0 or row.seats[player]["kind"] != "bot":
                return None
            return row.version, {
                "game": row.game, "options": row.options, "position": row.position,
                "actions": list(state.history), "agent": row.seats[player]["agent"],
                "seed": secrets.randbits(31), "seat": player, "client": row.creator or row.id,
            }

    async def bot_move(self, game_id: str, version: int, seat: int, action: int) -> Live | None:
        async def change(live: Live) -> Live | None:
            row = live.row
            if row.version != version or row.status != "ongoing" or live.state.current_player() != seat:
                return None  # the game moved on (undo, resignation): drop the bot's answer
            await self._play(live, seat, int(action))
            return live

        return await self._changing(game_id, change)

    # ------------------------------------------------------------------ undo, resign, claim, rematch
    async def undo(self, game_id: str, token: Any, user: Account | None = None, ply: Any = None) -> Live:
        """Take back in a local game: the last action of a person and everything after it
        (against a bot: the player's last move and the bot's reply). Never once the game is
        over, never past a roll the server has shown (:func:`roll_floor`); online, a takeback
        is an offer the opponent answers (:meth:`offer`). ``ply`` as for :meth:`play`."""
        ply = ply_arg(ply)

        async def change(live: Live) -> Live:
            row, state = live.row, live.state
            self._check_ply(live, ply)
            self._seat_for(row, token, state, None, user)
            if row.status == "over":
                raise WebError(409, TEXTS("undo_over"))
            if row.mode == "online":
                raise WebError(403, TEXTS("undo_online"))
            humans = [s for s in (0, 1) if row.seats[s]["kind"] == "human"]
            cut = _last_action_of(row, humans)
            if cut is None:
                raise WebError(409, TEXTS("nothing_to_undo"))
            if cut < roll_floor(row):
                raise WebError(409, TEXTS("undo_past_roll"))
            await self._take_back(live, cut)
            return live

        return await self._changing(game_id, change)

    async def _take_back(self, live: Live, cut: int) -> None:
        """Cut the game back to ``cut`` actions (before a person's action, so a person is to
        move there) and commit."""
        row, state = live.row, live.state
        _rewind(state, cut)
        row.offer = None
        if row.clock:
            row.clock["since"] = self.now()
        appended: list[tuple[int, str, int, float]] = []
        if state.current_player() == CHANCE:  # never expected: a person acted here
            self._settle(row, state, appended)
        await self._commit(live, appended, truncate_to=cut)

    # ------------------------------------------------------------------ offers (online games)
    async def offer(self, game_id: str, token: Any, kind: Any, user: Account | None = None) -> Live:
        """A player of an online game proposes a takeback of his last move (and everything
        after it) or offers a draw; the opponent answers (:meth:`answer`). One offer waits at
        a time; any move, answer, withdrawal or the game's end clears it."""
        if kind not in ("takeback", "draw"):
            raise WebError(400, TEXTS("offer_kind", value=str(kind)[:30]))

        async def change(live: Live) -> Live:
            row, state = live.row, live.state
            mine = self._seat_for(row, token, state, None, user)
            _check_offer_game(row)
            if row.offer is not None:
                whose = "own" if row.offer.get("by") == mine else "other"
                raise WebError(409, TEXTS(f"pending_{whose}_{_offer_word(row.offer)}"))
            if kind == "draw" and not game_spec(row.game).draws:
                raise WebError(409, TEXTS("no_draws", game=_title(row.game)))
            if kind == "takeback":
                cut = _last_action_of(row, [mine])
                if cut is None:
                    raise WebError(409, TEXTS("nothing_to_take_back"))
                if cut < roll_floor(row):
                    raise WebError(409, TEXTS("takeback_past_roll"))
            row.offer = {"kind": kind, "by": mine, "ply": len(row.moves)}
            await self._commit(live)
            return live

        return await self._changing(game_id, change)

    async def answer(self, game_id: str, token: Any, accept: Any, user: Account | None = None) -> Live:
        """The opponent accepts or declines the pending offer. An accepted takeback cuts the
        game back to before the offerer's last move; an accepted draw ends the game."""
        if not isinstance(accept, bool):
            raise WebError(400, TEXTS("accept_bool"))

        async def change(live: Live) -> Live:
            row, state = live.row, live.state
            mine = self._seat_for(row, token, state, None, user)
            _check_offer_game(row)
            offer = row.offer
            if offer is None:
                raise WebError(409, TEXTS("no_offer_to_answer"))
            if offer.get("by") == mine:
                raise WebError(409, TEXTS(f"answer_own_{_offer_word(offer)}"))
            if not accept:
                row.offer = None
                await self._commit(live)
                return live
            if offer.get("kind") == "draw":
                self._finish(row, state, winner_seat=None, termination="agreement")
                await self._commit(live)
                return live
            cut = _last_action_of(row, [offer.get("by")])
            if cut is None or cut < roll_floor(row):  # cannot happen while moves clear offers; say so cleanly anyway
                row.offer = None
                await self._commit(live)
                raise WebError(409, TEXTS("takeback_gone"))
            await self._take_back(live, cut)
            return live

        return await self._changing(game_id, change)

    async def withdraw(self, game_id: str, token: Any, user: Account | None = None) -> Live:
        """The offerer takes his pending offer back."""
        async def change(live: Live) -> Live:
            row, state = live.row, live.state
            mine = self._seat_for(row, token, state, None, user)
            _check_offer_game(row)
            if row.offer is None:
                raise WebError(409, TEXTS("no_offer_to_withdraw"))
            if row.offer.get("by") != mine:
                raise WebError(409, TEXTS("withdraw_others"))
            row.offer = None
            await self._commit(live)
            return live

        return await self._changing(game_id, change)

    async def resign(self, game_id: str, token: Any, seat: Any = None, user: Account | None = None) -> Live:
        seat = seat_arg(seat)

        async def change(live: Live) -> Live:
            resigner = self._seat_for(live.row, token, live.state, seat, user)
            if live.row.status == "over":
                raise WebError(409, TEXTS("over"))
            if live.row.status == "waiting":
                raise WebError(409, TEXTS("not_started"))
            self._finish(live.row, live.state, winner_seat=1 - resigner, termination="resign")
            await self._commit(live)
            return live

        return await self._changing(game_id, change)

    async def abort(self, game_id: str, token: Any, user: Account | None = None) -> Live:
        """A player aborts an online game before his own first move (:mod:`.aborts`)."""
        async def change(live: Live) -> Live:
            row, state = live.row, live.state
            mine = self._seat_for(row, token, state, None, user)
            if row.mode != "online":
                raise WebError(403, TEXTS("abort_online"))
            if row.status == "waiting":
                raise WebError(409, TEXTS("not_started_waiting"))
            if row.status == "over":
                raise WebError(409, TEXTS("over"))
            if not aborts.may_abort(row, mine):
                raise WebError(409, TEXTS("abort_moved"))
            self._abort(row, state, aborts.BY_PLAYER)
            await self._commit(live)
            return live

        return await self._changing(game_id, change)

    def _claim_in(self, row: GameRow) -> float | None:
        """Seconds until the player not to move may claim the win (0 = now), or None when
        this game has no such claim (not online, a clock, or not ongoing)."""
        if row.mode != "online" or row.clock or row.status != "ongoing":
            return None
        return round(max(0.0, row.updated + self.claim_after - self.now()), 1)

    async def claim(self, game_id: str, token: Any, present: Callable[[str, int], bool] | None = None,
                    user: Account | None = None) -> Live:
        """The player not to move claims the win: his opponent, in an online game without a
        clock, has let ``claim_after`` pass without moving and is not connected."""
        async def change(live: Live) -> Live:
            row, state = live.row, live.state
            mine = self._seat_for(row, token, state, None, user)
            wait = self._claim_in(row)
            if wait is None or state.current_player() < 0:
                raise WebError(409, TEXTS("claim_which"))
            away = state.current_player()
            if away == mine:
                raise WebError(409, TEXTS("claim_own_turn"))
            if wait > 0:
                raise WebError(409, TEXTS("claim_wait", duration=_duration(wait)))
            if present is not None and present(row.id, away):
                raise WebError(409, TEXTS("claim_present"))
            self._finish(row, state, winner_seat=mine, termination="abandon")
            await self._commit(live)
            return live

        return await self._changing(game_id, change)

    async def rematch(self, game_id: str, token: Any, user: Account | None = None) -> dict[str, Any]:
        """A new game with the seats exchanged. The first caller creates it; each player
        claims his seat there with his token from this game. The owners of this game's seats
        own their seats there; one who comes back on another device is sent to it."""
        async def change(live: Live) -> tuple[dict[str, Any] | None, str, int, GameRow]:
            row = live.row
            mine = self._seat_for(row, token, live.state, None, user)
            if row.status != "over":
                raise WebError(409, TEXTS("rematch_unfinished"))
            if _event(row) is not None:
                raise WebError(409, TEXTS("rematch_tournament"))
            if row.rematch is not None:
                return None, row.rematch, mine, row
            options = dict(row.options)
            if fairdice.TAG_START_ROLL in row.tags:
                options.pop("first", None)
            seat_of_creator = 1 - mine
            spec = {
                "game": row.game, "options": options, "position": row.position,
                "start": row.tags.get("_start", "fixed"),
                "opponent": {"local": "hotseat", "bot": "bot", "online": "friend"}[row.mode],
                "seat": seat_of_creator,
            }
            if row.mode == "bot":
                spec["bot"] = row.seats[1 - mine]["agent"]
            spec["clock"] = clocks.setting(row.clock)
            spec["rated"] = row.rated
            owners: list[Account | None] = [None, None]
            owners[seat_of_creator] = _owner(row, mine)
            if row.mode != "bot":  # online: the seat reserved for the other player is his account's
                owners[1 - seat_of_creator] = _owner(row, 1 - mine)
            created = await self.create(spec, rematch_of=row.id, owners=owners)
            row.rematch = created["id"]
            await self._commit(live)
            answer = {"id": created["id"], "token": created["token"], "seats": created["seats"]}
            if row.mode == "online":
                # the other seat of the new game is reserved for this game's other player
                partner = "reserved:" + (row.token_hash(1 - mine) or "")[:55]

                async def reserve(new: Live) -> None:
                    new.row.invite = None
                    if seat_of_creator == 1:
                        new.row.token0 = partner
                    else:
                        new.row.token1 = partner
                    await self._commit(new)

                await self._changing(created["id"], reserve)
            return answer, created["id"], mine, row

        answer, new_id, mine, old = await self._changing(game_id, change)
        if answer is not None:
            return answer
        # the second player claims the reserved seat
        reserved = "reserved:" + (old.token_hash(mine) or "")[:55]

        async def take(new: Live) -> dict[str, Any]:
            for seat in (0, 1):
                if new.row.token_hash(seat) == reserved:
                    fresh_token = secrets.token_urlsafe(24)
                    if seat == 0:
                        new.row.token0 = hash_token(fresh_token)
                    else:
                        new.row.token1 = hash_token(fresh_token)
                    new.row.status = "ongoing"
                    if new.row.clock:
                        new.row.clock["since"] = self.now()
                    await self._commit(new)
                    return {"id": new.row.id, "token": fresh_token, "seats": [seat]}
            owned = new.row.seats_of(None, user.id) if user is not None else []
            if owned:  # his seat there is his account's: no token needed
                return {"id": new.row.id, "seats": owned}
            raise WebError(409, TEXTS("rematch_taken"))

        return await self._changing(new_id, take)

    async def expire_waiting(self, older_than: float = 24 * 3600) -> int:
        """End the online games nobody joined within ``older_than`` seconds."""
        ids = await asyncio.to_thread(self.store.waiting_since, self.now() - older_than)
        ended = 0
        for game_id in ids:
            async def change(live: Live) -> bool:
                if live.row.status != "waiting":
                    return False
                live.row.status, live.row.termination, live.row.invite = "over", "expired", None
                await self._commit(live)
                return True

            try:
                ended += bool(await self._changing(game_id, change))
            except WebError:
                continue
        return ended

    async def flag_overdue(self) -> list[str]:
        """End the games whose player to move ran out of time by the server's clock (a
        correspondence game whose deadline passed while nobody looked); their ids."""
        ended = []
        for game_id in await asyncio.to_thread(self.store.past_deadline, self.now()):
            try:
                async with self._locked(game_id, check=True) as live:  # it adjudicates the flag
                    if live.row.status == "over":
                        ended.append(game_id)
            except WebError:
                continue
        return ended

    async def backfill(self) -> int:
        """Fill in the seat to move, the deadline and the winner of games made before the
        database had them (schema 0006): replayed once, when a server starts."""
        ids = await asyncio.to_thread(self.store.needs_bookkeeping)
        for game_id in ids:
            async with self._locked(game_id) as live:
                _bookkeeping(live.row, live.state)
                await asyncio.to_thread(self.store.set_bookkeeping, live.row)
        return len(ids)

    # ------------------------------------------------------------------ views
    async def get_view(self, game_id: str, at: int | None = None, check: bool = True) -> dict[str, Any]:
        async with self._locked(game_id, check) as live:
            return self.view(live, at)

    async def get_record(self, game_id: str) -> tuple[GameRow, str]:
        async with self._locked(game_id, check=True) as live:
            return live.row, self.record_text(live.row, live.state)

    def view(self, live: Live, at: int | None = None) -> dict[str, Any]:
        """Everything a client shows; ``at`` shows the position after that many actions.
        The parts that only change with the game's version are built once per version."""
        row = live.row
        if at is not None and at < len(row.moves):
            return self._build_view(row, self.replay(row, max(0, int(at))), live_view=False)
        if live._base_version != row.version or live._base is None:
            live._base = self._build_view(row, live.state, live_view=True)
            live._base_version = row.version
        view = live._base
        if row.clock or view["claim_in"] is not None:  # the parts that change with time
            view = dict(view)
            view["clock"] = self._clock_view(row, live.state) if row.clock else None
            view["claim_in"] = self._claim_in(row)
            view["abort"] = self._abort_view(row)
        return view

    def _abort_view(self, row: GameRow) -> dict[str, Any] | None:
        """The first-move window running now: ``{"seat", "deadline", "in"}`` (unix seconds,
        seconds left), or None."""
        due = aborts.deadline(row, row.to_move)
        if due is None:
            return None
        return {"seat": row.to_move, "deadline": due, "in": round(max(0.0, due - self.now()), 1)}

    @staticmethod
    def _table_view(row: GameRow, state: GameState | None) -> dict[str, Any]:
        """The fair-play parts of a view: how the game ended (``ending``), the pending
        ``offer`` ({"kind", "by", "ply"} or None), whether ``undo`` is allowed now, whether
        the game ``draws``, which seats have ``moved`` (a takeback needs a move), which may
        ``takeback`` now (not past ``roll_floor``, :func:`roll_floor`; ``undo_blocked`` is
        ``"roll"`` when that alone stops an undo) and which ``may_abort`` it now (before their
        own first move, :mod:`.aborts`)."""
        movers = {m[2] for m in row.moves}
        humans = [s for s in (0, 1) if row.seats[s]["kind"] == "human"]
        floor = roll_floor(row)
        undoable = state is not None and row.status == "ongoing" and row.mode != "online" and any(
            s in movers for s in humans)
        last_human = _last_action_of(row, humans)
        kept_roll = undoable and last_human is not None and last_human < floor

        def can_take_back(seat: int) -> bool:
            last = _last_action_of(row, [seat])
            return last is not None and last >= floor

        return {
            "ending": ending_view(row, state),
            "offer": row.offer,
            "undo": undoable and not kept_roll,
            "undo_blocked": "roll" if kept_roll else None,
            "draws": game_spec(row.game).draws,
            "moved": [0 in movers, 1 in movers],
            "takeback": [can_take_back(0), can_take_back(1)],
            "roll_floor": floor,
            "may_abort": [state is not None and aborts.may_abort(row, seat) for seat in (0, 1)],
            "berserk": berserk.view(row),
        }

    def _build_view(self, row: GameRow, state: GameState, live_view: bool) -> dict[str, Any]:
        ad = adapter(row.game)
        board = ad.board(state)
        player = state.current_player()
        moves = legal_move_infos(state, ad) if row.status == "ongoing" and live_view else []
        history = state.record_entries()
        last = _last_move(row, state, ad, history[-1]) if history else None
        last_mark = history[-1].text if history else ""
        shown_to_move = row.status == "ongoing" or not live_view
        return {
            "id": row.id,
            "game": row.game,
            "title": dict(game_class(row.game).title),
            "options": row.options,
            "mode": row.mode,
            "status": row.status if live_view else "replay",
            "result": row.result,
            "termination": row.termination,
            "seats": row.seats,
            "colours": [state.seat_colour(0), state.seat_colour(1)],
            "to_move": state.to_move if shown_to_move else None,
            "to_seat": player if player >= 0 and shown_to_move else None,
            "position": state.position(),
            "board": board,
            "moves": moves,
            "history": [{"text": h.text, "ply": h.end, "colour": h.colour} for h in history],
            "plies": len(row.moves),
            "at": state.ply,
            "last": {"move": last["move"], "cells": ad.last_cells(last), "kind": last["kind"]} if last else None,
            "threat": state.ply > 0 and ("^" in last_mark or "+" in last_mark),
            "threatened": ad.threatened(state, board),
            "score": state.score() if state.ply else None,
            "clock": self._clock_view(row, state) if row.clock else None,
            "tags": {k: v for k, v in row.tags.items() if not k.startswith("_")},
            "start_roll": start_roll_view(row.tags),
            "event": _event(row),
            "version": row.version,
            "rematch": row.rematch,
            "rematch_of": row.rematch_of,
            "open_seat": row.invite is not None,
            "claim_in": self._claim_in(row) if live_view else None,
            "abort": self._abort_view(row) if live_view else None,
            "dice": _dice_view(row),
            "rated": row.rated,
            "ratings": _ratings_view(row.ratings),
            **self._table_view(row, state if live_view else None),
            "created": row.created,
            "updated": row.updated,
        }

    def _clock_view(self, row: GameRow, state: GameState) -> dict[str, Any]:
        player = state.current_player()
        running = player if row.status == "ongoing" and player >= 0 else None
        if aborts.awaits_first_move(row, running):
            running = None  # his first-move window runs instead (see "abort")
        return clocks.view(row.clock, running, self.now())

    @staticmethod
    def summary(row: GameRow, user: int | None = None) -> dict[str, Any]:
        """A game in a list; ``your_turn``: whether the account ``user`` is to move in it."""
        return {
            "id": row.id, "game": row.game, "mode": row.mode, "status": row.status, "result": row.result,
            "termination": row.termination, "plies": row.ply, "moves": row.turns, "seats": row.seats,
            "options": row.options, "rated": row.rated, "clock": clocks.setting(row.clock), "deadline": row.deadline,
            "your_turn": user is not None and row.mode == "online" and row.to_move is not None
                         and row.user_of(row.to_move) == user,
            "event": _event(row),
            "created": row.created, "updated": row.updated,
        }

    @staticmethod
    def record_text(row: GameRow, state: GameState) -> str:
        tags: dict[str, str] = {"Site": "Ludothek web", "Date": time.strftime("%Y.%m.%d", time.gmtime(row.created))}
        for seat in (0, 1):  # the players' names, as PGN's White and Black tags give them
            info = row.seats[seat]
            label = info.get("agent") if info["kind"] == "bot" else info.get("name") or f"Player {seat + 1}"
            tags[state.seat_colour(seat).capitalize()] = str(label)
        tags.update({k: v for k, v in row.tags.items() if not k.startswith("_")})
        if row.rated:  # as lichess writes them: the rating before the game and its change
            tags.setdefault("Event", "Rated game")  # a tournament's game keeps its own
            for seat, change in enumerate(row.ratings or []):
                side = state.seat_colour(seat).capitalize()
                tags[f"{side}Rating"] = str(round(change["before"]))
                tags[f"{side}RatingDiff"] = f"{round(change['delta']):+d}"
        if row.termination and row.termination != "rules":
            tags["Termination"] = row.termination
        if row.clock:
            tags["TimeControl"] = clocks.record_tag(row.clock)
        if row.dice_secret and _uses_dice(row):  # what `ludothek verify` checks the rolls with
            tags.update(fairdice.tags(row.id, row.dice_secret, reveal=row.status == "over", scheme=dice_scheme(row)))
        result = row.result if row.status == "over" else "*"
        return dumps(Record.from_state(state, result=result, **tags))


# ---------------------------------------------------------------------------- helpers
def game_and_options(spec: Any) -> tuple[type[GameState], dict[str, Any]]:
    """The game class and the options a client's ``{"game", "options"}`` names (empty
    options left out), checked and typed, or the server's 400 error."""
    if not isinstance(spec, dict):
        raise WebError(400, TEXTS("not_object", what=TEXTS("request_body")))
    name = spec.get("game")
    if not isinstance(name, str):
        raise WebError(400, TEXTS("name_game", example='{"game": "<name>", ...}', games=", ".join(games())))
    try:
        cls = game_class(name)
    except LudothekError as exc:
        raise WebError(400, exc) from None
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise WebError(400, TEXTS("options_object"))
    given = {str(k): v for k, v in options.items() if v is not None and v != ""}
    return cls, client_options(cls, given, from_text=False)


def client_options(cls: type[GameState], given: dict[str, Any], *, from_text: bool) -> dict[str, Any]:
    """The options a client named, each one the game declares and of its type, or the server's
    400 error naming the option. JSON bodies come typed (``from_text=False``: "9" is no number
    there); a query string is text by nature and is read as the command line reads ``-o``.
    Checking the names first also keeps a name like ``position`` from reaching the constructor."""
    try:
        return checked(cls.name, cls.OPTIONS, given, from_text=from_text)
    except LudothekError as exc:
        raise WebError(400, exc) from None


def new_state(cls: type[GameState], position: str | None, options: dict[str, Any]) -> GameState:
    """A game's state from a position and options, or the server's 400 error saying what is wrong."""
    try:
        return cls(position, **options)
    except LudothekError as exc:
        raise WebError(400, exc) from None
    except (TypeError, ValueError) as exc:
        raise WebError(400, TEXTS("bad_options", game=cls.name, error=str(exc))) from None


def rated_arg(spec: dict[str, Any]) -> bool:
    rated = spec.get("rated", False)
    if not isinstance(rated, bool):
        raise WebError(400, TEXTS("rated_bool"))
    return rated


def _bookkeeping(row: GameRow, state: GameState, moves: list[tuple[int, str, int, float]] | None = None) -> None:
    """The columns that let the database answer without replaying: the seat to move (for
    "your turn"), when its time runs out (for the flag sweep: the end of his first-move
    window until he has moved) and the winning seat (for a player's wins and losses).
    ``moves``: the game's moves once this change is stored (default: ``row.moves``)."""
    player = state.current_player()
    row.to_move = player if row.status == "ongoing" and player >= 0 else None
    row.deadline = None
    if row.status == "ongoing":
        if aborts.awaits_first_move(row, row.to_move, moves):
            row.deadline = aborts.deadline(row, row.to_move, moves)
        else:
            row.deadline = clocks.deadline(row.clock, row.to_move)
    row.winner = None
    if row.status == "over":
        winners = [seat for seat in (0, 1) if state.seat_colour(seat) == row.result]
        row.winner = winners[0] if winners else -1 if row.result == "draw" else -2


def _check_rated(opponent: str, position: Any, owners: list[Account | None]) -> None:
    """A rated game is one between two accounts online from the game's start."""
    if opponent != "friend":
        raise WebError(400, TEXTS("rated_online"))
    if position is not None:
        raise WebError(400, TEXTS("rated_position"))
    if not any(owners):
        raise WebError(401, TEXTS("rated_login"))


def _rating_due(row: GameRow, state: GameState, moves: list[tuple[int, str, int, float]]) -> tuple[int, int, float] | None:
    """(account of seat 0, account of seat 1, seat 0's score) when this change ends a rated
    game that both players have moved in (before that, as on lichess, a game ends unrated:
    an opponent who never came is no result); None otherwise."""
    if not row.rated or row.status != "over" or row.ratings is not None or row.user0 is None or row.user1 is None:
        return None
    if row.termination == aborts.TERMINATION:
        return None
    if not {0, 1} <= {m[2] for m in moves}:
        return None
    if row.result == "draw":
        score = 0.5
    else:
        score = 1.0 if row.result == state.seat_colour(0) else 0.0
    return row.user0, row.user1, score


def _own(row: GameRow, seat: int, account: Account | None) -> None:
    """Make ``account`` the owner of a seat (None: leave it a guest's seat). Its name goes on the
    seat (views, archive, records), except in a hot-seat game: two people share one screen
    and one account there, so the seats keep their numbers."""
    if account is None:
        return
    if seat == 0:
        row.user0 = account.id
    else:
        row.user1 = account.id
    if row.mode != "local":
        row.seats[seat] = {**row.seats[seat], "name": account.name}


def _owner(row: GameRow, seat: int) -> Account | None:
    """The account that owns a seat (for a rematch), or None."""
    user = row.user_of(seat)
    return Account(user, str(row.seats[seat].get("name", ""))) if user is not None else None


def seat_arg(value: Any, rule: Message | None = None) -> int | None:
    """A seat from a client: absent, or exactly the integer 0 or 1 (not 0.0, not true).
    ``rule`` says what a seat may be (default: 0 or 1)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        rule = rule if rule is not None else TEXTS("seat_rule")
        raise WebError(400, TEXTS("seat_not", rule=rule, value=str(value)[:20]) if not isinstance(value, str)
                       else TEXTS("seat_not_text", rule=rule, value=value[:20]))
    return value


def start_roll_view(tags: dict[str, str]) -> dict[str, Any] | None:
    """The roll for the first move in parts, for the page to word in its reader's language:
    ``{"rule": "high" | "low", "rolls": [[{"colour": "white", "face": 3}, {"colour": "black",
    "face": 3}], ...]}``, one pair per round (they roll again on a tie); None without the
    ``StartRoll`` tag (or one that does not read so: the tag stays in ``tags`` as it is)."""
    text = tags.get(fairdice.TAG_START_ROLL)
    if not text:
        return None
    rule, _, rolls = text.partition(":")
    rule = rule.strip()
    if rule not in ("high", "low"):
        return None
    rounds = []
    for part in rolls.split(";"):
        pair = []
        for side in part.split(","):
            name, _, face = side.strip().rpartition(" ")
            if not name or not face.isdigit():
                return None
            pair.append({"colour": name, "face": int(face)})
        rounds.append(pair)
    return {"rule": rule, "rolls": rounds}


def _dice_view(row: GameRow) -> dict[str, Any] | None:
    """The fair dice of a game that uses dice: the commitment from the start, the secret
    once the game is over (``None`` for a game without dice or from before the secrets)."""
    if not row.dice_secret or not _uses_dice(row):
        return None
    return {
        "commitment": fairdice.commitment(row.dice_secret),
        "secret": row.dice_secret if row.status == "over" else None,
        "game_id": row.id,
    }


def _uses_dice(row: GameRow) -> bool:
    """Whether a game's dice matter: it rolled for the first move, the server has rolled,
    or its game has chance nodes."""
    return fairdice.TAG_START_ROLL in row.tags or any(m[2] == -1 for m in row.moves) or fairdice.has_chance(row.game)


def roll_floor(row: GameRow) -> int:
    """How far back an undo or a takeback may cut the game's actions: not past the last roll
    the server has shown, so that nobody learns a face and then chooses anew (the roll and
    everything before it stay). A hot-seat game has one player on both sides: no floor."""
    if row.mode == "local":
        return 0
    for index in range(len(row.moves) - 1, -1, -1):
        if row.moves[index][2] == -1:
            return index + 1
    return 0


def dice_scheme(row: GameRow) -> int:
    """How the game's rolls bind their message (:mod:`ludothek.core.fairdice`): games created
    before the chosen action was bound have no tag and stay on scheme 1."""
    return int(row.tags.get(DICE_SCHEME_TAG, "1"))


def ply_arg(value: Any) -> int | None:
    """A client's ``ply`` (the number of actions it saw), or None if it sent none."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise WebError(400, TEXTS("ply_number", value=str(value)[:30]))
    return value


def _event(row: GameRow) -> dict[str, Any] | None:
    """A tournament game's tournament: {"name", "round" ("-" in an Arena), "tournament": id}."""
    if "_tournament" not in row.tags:
        return None
    return {"name": row.tags.get("Event"), "round": row.tags.get("Round"), "tournament": row.tags["_tournament"]}


def _rewind(state: GameState, ply: int) -> None:
    while state.ply > ply:
        state.undo()


def _offer_word(offer: dict[str, Any]) -> str:
    """What an offer is, for the names of its messages: ``takeback``, ``draw`` or ``offer``."""
    kind = offer.get("kind")
    return kind if kind in ("takeback", "draw") else "offer"


def _title(game: str) -> Message:
    """A game's title in every language it has, as a value of a message."""
    return Message(f"{game}.title", dict(game_class(game).title), {})


def _last_action_of(row: GameRow, seats: list[int]) -> int | None:
    """The index in ``row.moves`` of the last action made by one of ``seats`` (None if none)."""
    for index in range(len(row.moves) - 1, -1, -1):
        if row.moves[index][2] in seats:
            return index
    return None


def _check_offer_game(row: GameRow) -> None:
    """Offers and answers need an online game in play."""
    if row.mode != "online":
        raise WebError(403, TEXTS("offers_online"))
    if row.status == "waiting":
        raise WebError(409, TEXTS("not_started_waiting"))
    if row.status == "over":
        raise WebError(409, TEXTS("offers_over"))


def ending_view(row: GameRow, state: GameState | None) -> dict[str, Any] | None:
    """How a finished game ended, for people: ``termination`` (rules, resign, time, abandon,
    expired, agreement, aborted), ``reason`` (the rule's key in the spec's ``endings``; for an
    aborted game ``first_move_late`` or ``by_player``; else the termination), ``text`` ({"en", "de"}), and the ``score`` and ``stake`` where the game
    has them. ``state`` is the final position (None: not at hand)."""
    if row.status != "over":
        return None
    termination = row.termination or "rules"
    if termination == "rules":
        reason = row.reason or (state.ending() if state is not None else None) or "over"
        words = game_spec(row.game).endings.get(reason) or i18n.WEB["ending_over"]
    elif termination == aborts.TERMINATION:  # the reason says how: late, or by a player
        reason = row.reason or aborts.BY_PLAYER
        words = i18n.WEB[f"ending_aborted_{reason}"]
    else:
        reason = termination
        words = i18n.WEB.get(f"ending_{termination}") or i18n.WEB["ending_over"]
    ending: dict[str, Any] = {"termination": termination, "reason": reason,
                              "text": {lang: words.get(lang) or words["en"] for lang in ("en", "de")}}
    if state is not None and state.ply:
        score = state.score()
        if score is not None and termination == "rules":  # the count decided it (or the stake won)
            ending["score"] = score
        stake = getattr(state, "stake", None)  # a game played for stakes (a doubling cube)
        if isinstance(stake, int) and not isinstance(stake, bool) and score is not None:
            ending["stake"] = stake
    return ending


def _last_move(row: GameRow, state: GameState, ad: Adapter, entry: RecordEntry) -> dict[str, Any]:
    """How the adapter reads the last record token: its last action played by a person (a
    token may hold cube actions before the move and the server's dice after it)."""
    ply = next((p for p in range(entry.end - 1, entry.start, -1) if row.moves[p][2] != -1), entry.start)
    text = entry.parts[ply - entry.start]
    return ad.move_info(_before(state, ply) if ad.move_info_needs_state else state, text)


def _before(state: GameState, ply: int) -> GameState:
    """The position before ply ``ply`` (for reading a move's cells)."""
    probe = state.copy()
    while probe.ply > ply:
        probe.undo()
    return probe


def _duration(seconds: float) -> Message:
    if seconds >= 7200:
        return TEXTS("duration_hours", n=f"{seconds / 3600:.0f}")
    if seconds >= 120:
        return TEXTS("duration_minutes", n=f"{seconds / 60:.0f}")
    n = f"{seconds:.0f}"
    return TEXTS("duration_second" if n == "1" else "duration_seconds", n=n)


def _ratings_view(changes: list[dict[str, float]] | None) -> list[dict[str, Any]] | None:
    """A rated game's rating changes, each marked provisional ("?") before and after as the
    deviation says (a game rated before the deviation before it was kept: the one after)."""
    if changes is None:
        return None
    return [{**change, "provisional_before": change.get("deviation_before", change["deviation"]) > PROVISIONAL_DEVIATION,
             "provisional": change["deviation"] > PROVISIONAL_DEVIATION} for change in changes]
