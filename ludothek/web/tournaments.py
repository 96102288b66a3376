"""Tournaments on the web (issue 32): Swiss and Arena between accounts, through the HTTP API.

The rules are :mod:`ludothek.tournament` (pairings, points, tie-breaks); this module keeps a
tournament's players and games in the database (migration 0011) and makes its games with the
game service, as the lobby does: both seats owned by the players' accounts, the record tagged
with ``Event`` (the tournament's name) and ``Round``. :meth:`Tournaments.tick` looks at the games
that ended and pairs again: an Arena's players as soon as their game ends, a Swiss's next round
when every game of the round has ended. It runs every few seconds and whenever a tournament is
read, so whatever server a player asks answers from the database.

An aborted game (nobody moved) counts as a draw.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import and_, select, update
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.messages import Catalog
from ..ratings import Rating
from ..tournament import arena as _arena
from ..tournament import swiss as _swiss
from . import berserk, clocks
from .errors import WebError
from .service import GameService, bot_levels, game_and_options
from .store import (
    Account,
    Store,
    games_table,
    hash_token,
    ratings_table,
    tournament_bots_table,
    tournament_games_table,
    tournament_players_table,
    tournaments_table,
    users_table,
)

TEXTS = Catalog("tournaments", {
    "login": ("only players with an account can create or join tournaments",
              "nur Spieler mit einem Konto können Turniere anlegen oder mitspielen"),
    "kind": ("a tournament is a swiss or an arena, not {value}", "ein Turnier ist swiss oder arena, nicht {value}"),
    "rounds": ("a Swiss has 1 to {most} rounds", "ein Schweizer System hat 1 bis {most} Runden"),
    "minutes": ("an Arena lasts 1 to {most} minutes", "eine Arena dauert 1 bis {most} Minuten"),
    "name": ("a tournament's name has 1 to {most} characters", "der Name eines Turniers hat 1 bis {most} Zeichen"),
    "unknown": ("there is no tournament {id}", "es gibt kein Turnier {id}"),
    "closed": ("this tournament takes no more players", "dieses Turnier nimmt keine Spieler mehr auf"),
    "not_in": ("you do not play in this tournament", "du spielst in diesem Turnier nicht mit"),
    "creator": ("only the tournament's creator can start it", "nur wer das Turnier angelegt hat, kann es starten"),
    "started": ("this tournament has already started", "dieses Turnier hat schon begonnen"),
    "players": ("a tournament needs two players or more (it has {count})",
                "ein Turnier braucht mindestens zwei Spieler (es hat {count})"),
    "rated_bots": ("a rated tournament takes no bots (bots have no rating); make the tournament casual to invite bots",
                   ("ein gewertetes Turnier nimmt keine Bots auf (Bots haben keine Wertung); lege es ungewertet an, "
                    "um Bots einzuladen")),
    "inviter": ("only the tournament's creator can invite bots", "nur wer das Turnier angelegt hat, kann Bots einladen"),
    "bot_level": ("there is no bot {value} for {game}; the bots are {bots}",
                  "für {game} gibt es keinen Bot {value}; die Bots sind {bots}"),
    "not_in_bot": ("there is no bot {value} in this tournament", "in diesem Turnier gibt es keinen Bot {value}"),
    "bots_full": ("a tournament takes {most} bots at most", "ein Turnier nimmt höchstens {most} Bots auf"),
    "too_many_rounds": ("{count} players can play {most} rounds at most without meeting twice",
                        "{count} Spieler können höchstens {most} Runden spielen, ohne sich zweimal zu treffen"),
})

log = logging.getLogger(__name__)

MAX_ROUNDS = 20
MAX_MINUTES = 600
MAX_NAME = 60
MAX_BOTS = 16
#: a game tag (hidden from records): the id of the tournament that made the game
TOURNAMENT_TAG = "_tournament"


def _score(row: Any) -> float | None:
    """Seat 0's score of a finished game row (None while it runs)."""
    if row.status != "over":
        return None
    if row.winner in (0, 1):
        return 1.0 - row.winner
    return 0.5  # a draw, or an aborted game


class Tournaments:
    def __init__(self, store: Store, service: GameService, now: Callable[[], float],
                 announce: Callable[[str], Any] | None = None):
        self.store, self.service, self.now = store, service, now
        self.announce = announce  # called with a new game's id (to start its clocks, tell watchers)
        self._lock = asyncio.Lock()
        self.push_interval = 1.0  # seconds between a live page's looks at the database

    # ------------------------------------------------------------------ database
    def _run(self, work: Callable[[Any], Any], write: bool = False) -> Any:
        with self.store._taking_turns(), (self.store.engine.begin() if write else self.store.engine.connect()) as conn:
            return work(conn)

    async def _db(self, work: Callable[[Any], Any], write: bool = False) -> Any:
        return await asyncio.to_thread(self._run, work, write)

    def _load(self, conn: Any, tid: str) -> dict[str, Any]:
        row = conn.execute(select(tournaments_table).where(tournaments_table.c.id == tid)).mappings().first()
        if row is None:
            raise WebError(404, TEXTS("unknown", id=repr(tid[:20])))
        t = dict(row)
        t["spec"] = json.loads(t["spec"])
        t["creator_name"] = conn.execute(select(users_table.c.name).where(users_table.c.id == t["creator"])).scalar()
        players = conn.execute(
            select(tournament_players_table, users_table.c.name)
            .join(users_table, users_table.c.id == tournament_players_table.c.user_id)
            .where(tournament_players_table.c.tournament_id == tid)
            .order_by(tournament_players_table.c.joined, tournament_players_table.c.user_id)).mappings().all()
        t["players"] = [{**dict(p), "agent": None} for p in players]
        bots = conn.execute(select(tournament_bots_table).where(tournament_bots_table.c.tournament_id == tid)
                            .order_by(tournament_bots_table.c.id.desc())).mappings().all()
        t["players"] += _bot_players(bots)
        t["players"].sort(key=lambda p: (p["joined"], p["agent"] is not None, abs(p["user_id"])))
        games = conn.execute(
            select(tournament_games_table, games_table.c.clock)
            .outerjoin(games_table, games_table.c.id == tournament_games_table.c.game_id)
            .where(tournament_games_table.c.tournament_id == tid)
            .order_by(tournament_games_table.c.seq)).mappings().all()
        t["games"] = []
        for g in games:
            g = dict(g)
            g["berserk"] = berserk.flags(json.loads(g.pop("clock")) if g["clock"] else None)
            t["games"].append(g)
        return t

    # ------------------------------------------------------------------ actions
    async def create(self, body: dict[str, Any], user: Account | None) -> dict[str, Any]:
        if user is None:
            raise WebError(401, TEXTS("login"))
        kind = body.get("kind")
        if kind not in ("swiss", "arena"):
            raise WebError(400, TEXTS("kind", value=repr(str(kind)[:20])))
        cls, options = game_and_options(body)
        clocks.parse(body.get("clock"))  # refused here if malformed; each game reads it again
        rated = body.get("rated", False) is True
        title = cls.title.get("en", cls.name) if isinstance(cls.title, dict) else str(cls.title)
        name = body.get("name") or f"{title} {'Swiss' if kind == 'swiss' else 'Arena'}"
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= MAX_NAME:
            raise WebError(400, TEXTS("name", most=MAX_NAME))
        spec: dict[str, Any] = {"name": name.strip(), "options": options, "clock": body.get("clock"), "rated": rated}
        if kind == "swiss":
            rounds = body.get("rounds")
            if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
                raise WebError(400, TEXTS("rounds", most=MAX_ROUNDS))
            spec["rounds"] = rounds
        else:
            minutes = body.get("minutes")
            if not isinstance(minutes, (int, float)) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES:
                raise WebError(400, TEXTS("minutes", most=MAX_MINUTES))
            spec["minutes"] = minutes
        tid = secrets.token_urlsafe(9)
        values = {"id": tid, "kind": kind, "game": cls.name, "spec": json.dumps(spec), "creator": user.id,
                  "status": "open", "created": self.now(), "started": None, "round": 0}
        await self._db(lambda conn: conn.execute(tournaments_table.insert().values(**values)), write=True)
        return await self.view(tid)

    async def join(self, tid: str, user: Account | None) -> dict[str, Any]:
        if user is None:
            raise WebError(401, TEXTS("login"))
        now = self.now()

        def work(conn: Any) -> None:
            t = self._load(conn, tid)
            open_arena = t["kind"] == "arena" and t["status"] == "running" and now < t["started"] + t["spec"]["minutes"] * 60
            if t["status"] != "open" and not open_arena:
                raise WebError(409, TEXTS("closed"))
            mine = [p for p in t["players"] if p["user_id"] == user.id]
            if mine:
                conn.execute(update(tournament_players_table).where(and_(
                    tournament_players_table.c.tournament_id == tid, tournament_players_table.c.user_id == user.id))
                    .values(active=True))
            else:
                conn.execute(tournament_players_table.insert().values(
                    tournament_id=tid, user_id=user.id, joined=now, active=True))

        await self._db(work, write=True)
        return await self.view(tid)

    async def withdraw(self, tid: str, user: Account | None) -> dict[str, Any]:
        if user is None:
            raise WebError(401, TEXTS("login"))

        def work(conn: Any) -> None:
            t = self._load(conn, tid)
            if not any(p["user_id"] == user.id for p in t["players"]):
                raise WebError(409, TEXTS("not_in"))
            if t["status"] == "open":  # before the start: simply gone
                conn.execute(tournament_players_table.delete().where(and_(
                    tournament_players_table.c.tournament_id == tid, tournament_players_table.c.user_id == user.id)))
            elif t["kind"] == "swiss":  # its rounds pair everybody who started
                raise WebError(409, TEXTS("started"))
            else:  # keeps the points; a game in progress is played out
                conn.execute(update(tournament_players_table).where(and_(
                    tournament_players_table.c.tournament_id == tid, tournament_players_table.c.user_id == user.id))
                    .values(active=False))

        await self._db(work, write=True)
        return await self.view(tid)

    async def invite(self, tid: str, user: Account | None, body: dict[str, Any]) -> dict[str, Any]:
        """The creator of a casual tournament invites a bot level before the start; it plays its
        games as bots play in the app (:class:`~.runner.Runner`)."""
        if user is None:
            raise WebError(401, TEXTS("login"))
        now = self.now()

        def work(conn: Any) -> None:
            t = self._load(conn, tid)
            if t["creator"] != user.id:
                raise WebError(403, TEXTS("inviter"))
            if t["spec"]["rated"]:
                raise WebError(409, TEXTS("rated_bots"))
            if t["status"] != "open":
                raise WebError(409, TEXTS("started"))
            agent, offered = body.get("bot"), bot_levels(t["game"])
            if agent not in offered:
                raise WebError(400, TEXTS("bot_level", value=repr(str(agent)[:20]), game=t["game"],
                                          bots=", ".join(offered)))
            taken = [p["user_id"] for p in t["players"] if p["agent"] is not None]
            if len(taken) >= MAX_BOTS:
                raise WebError(409, TEXTS("bots_full", most=MAX_BOTS))
            conn.execute(tournament_bots_table.insert().values(
                tournament_id=tid, id=min(taken, default=0) - 1, agent=agent, joined=now))

        await self._db(work, write=True)
        return await self.view(tid)

    async def uninvite(self, tid: str, user: Account | None, body: dict[str, Any]) -> dict[str, Any]:
        """The creator takes an invited bot (by its name in the tournament) out again before the start."""
        if user is None:
            raise WebError(401, TEXTS("login"))

        def work(conn: Any) -> None:
            t = self._load(conn, tid)
            if t["creator"] != user.id:
                raise WebError(403, TEXTS("inviter"))
            if t["status"] != "open":
                raise WebError(409, TEXTS("started"))
            bot = next((p for p in t["players"] if p["agent"] is not None and p["name"] == body.get("bot")), None)
            if bot is None:
                raise WebError(409, TEXTS("not_in_bot", value=repr(str(body.get("bot"))[:40])))
            conn.execute(tournament_bots_table.delete().where(and_(
                tournament_bots_table.c.tournament_id == tid, tournament_bots_table.c.id == bot["user_id"])))

        await self._db(work, write=True)
        return await self.view(tid)

    async def start(self, tid: str, user: Account | None) -> dict[str, Any]:
        if user is None:
            raise WebError(401, TEXTS("login"))
        t = await self._db(lambda conn: self._load(conn, tid))
        if t["creator"] != user.id:
            raise WebError(403, TEXTS("creator"))
        if t["status"] != "open":
            raise WebError(409, TEXTS("started"))
        count = len(t["players"])
        if count < 2:
            raise WebError(409, TEXTS("players", count=count))
        most = count - 1 + count % 2
        if t["kind"] == "swiss" and t["spec"]["rounds"] > most:
            raise WebError(409, TEXTS("too_many_rounds", count=count, most=most))
        now = self.now()

        def begin(conn: Any) -> None:
            spec = {**t["spec"], "seeding": _seeding(conn, t)} if t["kind"] == "swiss" else t["spec"]
            conn.execute(update(tournaments_table).where(and_(
                tournaments_table.c.id == tid, tournaments_table.c.status == "open"))
                .values(status="running", started=now, spec=json.dumps(spec)))

        await self._db(begin, write=True)
        await self.tick(tid)
        return await self.view(tid)

    # ------------------------------------------------------------------ pairing
    async def tick(self, tid: str | None = None) -> None:
        """Score the games that ended and pair again, for one running tournament or all."""
        async with self._lock:
            if tid is None:
                ids = await self._db(lambda conn: [r[0] for r in conn.execute(
                    select(tournaments_table.c.id).where(tournaments_table.c.status == "running"))])
            else:
                ids = [tid]
            for one in ids:
                await self._tick(one)

    async def _tick(self, tid: str) -> None:
        t = await self._db(lambda conn: self._load(conn, tid))
        if t["status"] != "running":
            return
        now = self.now()
        for g in t["games"]:
            if g["score"] is None and g["game_id"] is not None:
                row = await asyncio.to_thread(self.store.load, g["game_id"], False)
                score = _score(row) if row is not None else 0.5
                if score is not None:
                    g["score"], g["finished"] = score, row.updated if row is not None else now
                    await self._db(lambda conn, g=g: conn.execute(update(tournament_games_table).where(and_(
                        tournament_games_table.c.tournament_id == tid, tournament_games_table.c.seq == g["seq"]))
                        .values(score=g["score"], finished=g["finished"])), write=True)
        if t["kind"] == "swiss":
            await self._swiss(t, now)
        else:
            await self._arena(t, now)

    async def _swiss(self, t: dict[str, Any], now: float) -> None:
        if any(g["score"] is None for g in t["games"]):
            return  # the round is still being played
        if t["round"] >= t["spec"]["rounds"]:
            await self._set(t["id"], status="over")
            return
        ids = _seeded(t)
        number = t["round"] + 1
        try:
            pairings = _swiss.pair_round([str(i) for i in ids], _swiss_rounds(t))
        except _swiss.PairingError:
            await self._set(t["id"], status="over")  # no round left without a repeat game
            return
        await self._set(t["id"], round=number)
        for pairing in pairings:
            second = None if pairing.is_bye else int(pairing.black)
            await self._add_game(t, number, int(pairing.white), second, now, bye_score=pairing.score)

    async def _arena(self, t: dict[str, Any], now: float) -> None:
        arena = _arena_state(t)
        if now >= arena.end and not arena.playing:
            await self._set(t["id"], status="over")
            return
        for pairing in arena.pair(now):
            await self._add_game(t, 0, int(pairing.first), int(pairing.second), now)

    async def _set(self, tid: str, **values: Any) -> None:
        await self._db(lambda conn: conn.execute(update(tournaments_table).where(tournaments_table.c.id == tid)
                                                 .values(**values)), write=True)

    async def _add_game(self, t: dict[str, Any], number: int, first: int, second: int | None, now: float,
                        bye_score: float | None = None) -> None:
        seq = len(t["games"])
        game_id = None
        if second is not None:
            names = {p["user_id"]: p["name"] for p in t["players"]}
            agents = {p["user_id"]: p["agent"] for p in t["players"]}
            owners = [None if agents[u] else Account(u, names[u]) for u in (first, second)]
            spec = {"game": t["game"], "options": t["spec"]["options"], "clock": t["spec"]["clock"],
                    "rated": t["spec"]["rated"], "opponent": "friend", "seat": 0}
            tags = {"Event": t["spec"]["name"], "Round": str(number) if t["kind"] == "swiss" else "-"}
            tags[TOURNAMENT_TAG] = t["id"]  # the game page and the archive link to the tournament
            if t["kind"] == "arena":
                tags[berserk.ARENA_TAG] = t["id"]  # its players may go berserk
            game_id = secrets.token_urlsafe(9)
            # nobody holds the second seat's token: both players play by their accounts
            await self.service.create(spec, user=owners[0], owners=owners,
                                      paired=(game_id, hash_token(secrets.token_urlsafe(24))), record_tags=tags,
                                      agents=(agents[first], agents[second]))
            if self.announce is not None:
                await self.announce(game_id)
        row = {"tournament_id": t["id"], "seq": seq, "round": number, "first": first, "second": second,
               "game_id": game_id, "score": bye_score if second is None else None, "started": now,
               "finished": now if second is None else None}
        t["games"].append({**row, "berserk": [False, False]})
        await self._db(lambda conn: conn.execute(tournament_games_table.insert().values(**row)), write=True)

    # ------------------------------------------------------------------ reading
    async def view(self, tid: str) -> dict[str, Any]:
        if not isinstance(tid, str) or not 1 <= len(tid) <= 16:
            raise WebError(404, TEXTS("unknown", id=repr(str(tid)[:20])))
        await self.tick(tid)
        t = await self._db(lambda conn: self._load(conn, tid))
        names = {p["user_id"]: p["name"] for p in t["players"]}
        games = [{"round": g["round"], "first": names.get(g["first"]), "second": names.get(g["second"]),
                  "game": g["game_id"], "score": g["score"], "berserk": g["berserk"]} for g in t["games"]]
        if t["kind"] == "swiss":
            table = _swiss.standings([str(i) for i in _seeded(t)],
                                     [[g for g in r if g.score is not None] for r in _swiss_rounds(t, all_games=True)])
            standings = [{"rank": s.rank, "player": names[int(s.player)], "score": s.score, "buchholz": s.buchholz,
                          "sonneborn_berger": s.sonneborn_berger, "games": s.games, "bot": int(s.player) < 0}
                         for s in table]
        else:
            arena = _arena_state(t)
            standings = [{"rank": rank, "player": names[int(e.player)], "points": e.points, "games": e.games,
                          "wins": e.wins, "sheet": e.history, "fire": e.on_fire, "bot": int(e.player) < 0,
                          "berserk": sum(1 for g in t["games"] for seat, who in enumerate((g["first"], g["second"]))
                                         if str(who) == e.player and g["berserk"][seat])}
                         for rank, e in enumerate(arena.standings(), start=1)]
        spec = t["spec"]
        return {"id": t["id"], "kind": t["kind"], "game": t["game"], "name": spec["name"], "status": t["status"],
                "rated": spec["rated"], "clock": spec["clock"], "options": spec["options"],
                "rounds": spec.get("rounds"), "minutes": spec.get("minutes"), "round": t["round"],
                "started": t["started"], "creator": t["creator_name"],
                "players": [{"name": p["name"], "active": p["active"], "bot": p["agent"]} for p in t["players"]],
                "standings": standings, "games": games}

    async def results_of(self, name: str) -> list[dict[str, Any]]:
        """The tournaments a player (by account name) plays or played, newest first, with their
        place in the standings."""
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            return []

        def work(conn: Any) -> list[str]:
            return [r[0] for r in conn.execute(
                select(tournaments_table.c.id)
                .join(tournament_players_table, tournament_players_table.c.tournament_id == tournaments_table.c.id)
                .join(users_table, users_table.c.id == tournament_players_table.c.user_id)
                .where(users_table.c.name_key == name.lower())
                .order_by(tournaments_table.c.created.desc()).limit(20))]

        results = []
        for tid in await self._db(work):
            view = await self.view(tid)
            mine = next((s for s in view["standings"] if s["player"].lower() == name.lower()), None)
            if mine is None:
                continue
            results.append({"id": tid, "name": view["name"], "kind": view["kind"], "game": view["game"],
                            "status": view["status"], "rank": mine["rank"], "players": len(view["standings"]),
                            "points": mine.get("points", mine.get("score"))})
        return results

    async def listing(self) -> list[dict[str, Any]]:
        rows = await self._db(lambda conn: conn.execute(
            select(tournaments_table).order_by(tournaments_table.c.created.desc()).limit(50)).mappings().all())
        return [{"id": r["id"], "kind": r["kind"], "game": r["game"], "name": json.loads(r["spec"])["name"],
                 "status": r["status"]} for r in rows]

    async def run(self, interval: float = 2.0) -> None:
        while True:
            await asyncio.sleep(interval)
            try:
                await self.tick()
            except Exception:  # a bad tournament must not stop the pairings of the others
                log.exception("tournament pairing failed")


def _seeding(conn: Any, t: dict[str, Any]) -> list[int]:
    """A Swiss's starting order, fixed when it starts: by rating in its game, highest first (an
    account without a rating in it, and a bot, counts as a new player's rating), ties by who
    joined first."""
    humans = [p["user_id"] for p in t["players"] if p["agent"] is None]
    r = ratings_table.c
    rated = dict(conn.execute(select(r.user_id, r.value).where(r.game == t["game"], r.user_id.in_(humans))).all())
    default = Rating().value
    order = {p["user_id"]: n for n, p in enumerate(t["players"])}
    return sorted(order, key=lambda who: (-rated.get(who, default), order[who]))


def _seeded(t: dict[str, Any]) -> list[int]:
    """The players' ids in the tournament's starting order (join order before it starts)."""
    seeding = {who: n for n, who in enumerate(t["spec"].get("seeding", []))}
    ids = [p["user_id"] for p in t["players"]]
    return sorted(ids, key=lambda who: seeding.get(who, len(seeding) + ids.index(who)))


def _bot_players(bots: Any) -> list[dict[str, Any]]:
    """A tournament's invited bots as players: named by their level, a second of one level
    ``bot:2 (2)`` (as ``ludothek tournament`` names them)."""
    seen: dict[str, int] = {}
    players = []
    for b in sorted(bots, key=lambda b: -b["id"]):
        seen[b["agent"]] = seen.get(b["agent"], 0) + 1
        name = b["agent"] if seen[b["agent"]] == 1 else f"{b['agent']} ({seen[b['agent']]})"
        players.append({"user_id": b["id"], "name": name, "agent": b["agent"], "joined": b["joined"], "active": True})
    return players


def _swiss_rounds(t: dict[str, Any], all_games: bool = False) -> list[list[_swiss.Game]]:
    rounds: dict[int, list[_swiss.Game]] = {}
    for g in t["games"]:
        if g["score"] is None and not all_games:
            continue
        black = None if g["second"] is None else str(g["second"])
        rounds.setdefault(g["round"], []).append(_swiss.Game(str(g["first"]), black, g["score"]))
    return [rounds[n] for n in sorted(rounds)]


def _arena_state(t: dict[str, Any]) -> _arena.Arena:
    """The Arena rebuilt from the database: its players and their games in the order they
    ended (streaks depend on it), with those still running."""
    start = t["started"] or t["created"]
    arena = _arena.Arena(start, t["spec"]["minutes"])
    for order, p in enumerate(t["players"]):
        arena.entries[str(p["user_id"])] = _arena.Entry(str(p["user_id"]), joined=order, active=p["active"],
                                                        waiting_since=max(p["joined"], start) if p["active"] else None)
    running = [g for g in t["games"] if g["score"] is None]
    for g in t["games"]:  # who sat first how often: the next game evens it out
        arena.entries[str(g["first"])].seat0 += 1
        arena.entries[str(g["second"])].seat0 -= 1
    for g in sorted((g for g in t["games"] if g["score"] is not None), key=lambda g: (g["finished"], g["seq"])):
        pairing = _arena.Pairing(str(g["first"]), str(g["second"]))
        arena.playing[frozenset((pairing.first, pairing.second))] = pairing
        arena.finish(pairing, g["score"], g["finished"], berserk=tuple(g["berserk"]))
    for g in running:
        pairing = _arena.Pairing(str(g["first"]), str(g["second"]))
        arena.playing[frozenset((pairing.first, pairing.second))] = pairing
        for name in (pairing.first, pairing.second):
            arena.entries[name].waiting_since = None
    return arena


def tournament_routes(tournaments: Tournaments, handler: Callable[[Any], Any],
                      viewer: Callable[[Request], Awaitable[Account | None]], json_response: Callable[..., Response],
                      read_body: Callable[[Request], Awaitable[dict[str, Any]]]) -> list[Route]:
    @handler
    async def listing(request: Request) -> Response:
        return json_response({"tournaments": await tournaments.listing()})

    @handler
    async def create(request: Request) -> Response:
        return json_response(await tournaments.create(await read_body(request), await viewer(request)), 201)

    @handler
    async def one(request: Request) -> Response:
        return json_response(await tournaments.view(request.path_params["id"]))

    def action(name: str) -> Callable[[Request], Awaitable[Response]]:
        @handler
        async def act(request: Request) -> Response:
            return json_response(await getattr(tournaments, name)(request.path_params["id"], await viewer(request)))
        return act

    def bots(name: str) -> Callable[[Request], Awaitable[Response]]:
        @handler
        async def act(request: Request) -> Response:
            method = getattr(tournaments, name)
            return json_response(await method(request.path_params["id"], await viewer(request), await read_body(request)))
        return act

    async def live(ws: WebSocket) -> None:
        """The tournament's view, sent again whenever it changes (read from the database, so a
        change made through any server reaches every page)."""
        await ws.accept()
        last = None
        try:
            while True:
                try:
                    view = await tournaments.view(ws.path_params["id"])
                except WebError:
                    await ws.close(code=4404)
                    return
                text = json.dumps(view, sort_keys=True)
                if text != last:
                    await ws.send_text(text)
                    last = text
                if view["status"] == "over":
                    return
                try:
                    await asyncio.wait_for(ws.receive_text(), timeout=tournaments.push_interval)
                except TimeoutError:
                    pass
        except (WebSocketDisconnect, RuntimeError):
            pass

    @handler
    async def results(request: Request) -> Response:
        return json_response({"tournaments": await tournaments.results_of(request.path_params["name"])})

    return [
        WebSocketRoute("/ws/tournaments/{id}", live),
        Route("/api/users/{name}/tournaments", results, methods=["GET"]),
        Route("/api/tournaments", listing, methods=["GET"]),
        Route("/api/tournaments", create, methods=["POST"]),
        Route("/api/tournaments/{id}", one, methods=["GET"]),
        Route("/api/tournaments/{id}/join", action("join"), methods=["POST"]),
        Route("/api/tournaments/{id}/withdraw", action("withdraw"), methods=["POST"]),
        Route("/api/tournaments/{id}/start", action("start"), methods=["POST"]),
        Route("/api/tournaments/{id}/bots", bots("invite"), methods=["POST"]),
        Route("/api/tournaments/{id}/bots/remove", bots("uninvite"), methods=["POST"]),
    ]
