"""Berserk in Arena tournaments (issue 32), as on lichess: before his own first move, a player
of an Arena game may halve his clock and give up his increment; a win then brings him one
extra tournament point (:func:`ludothek.tournament.arena.game_points`).

The game keeps it in its clock (``berserk``: a flag per seat, stored with the game), so the
game page, the Arena's points and every server reading the database agree. Only games with a
Fischer clock that an Arena made (the tag :data:`ARENA_TAG`) allow it.
"""

from __future__ import annotations

from typing import Any

from ..core.messages import Catalog
from . import aborts
from .errors import WebError
from .store import GameRow

#: a game tag (hidden from records): the id of the Arena that made the game
ARENA_TAG = "_arena"

TEXTS = Catalog("berserk", {
    "arena_only": ("berserk is only possible in an Arena tournament game with a clock",
                   "Berserk gibt es nur in einer Partie eines Arena-Turniers mit Uhr"),
    "over": ("the game is over", "die Partie ist vorbei"),
    "already": ("you have already gone berserk in this game", "du bist in dieser Partie schon auf Berserk gegangen"),
    "moved": ("berserk is only possible before your first move", "Berserk geht nur vor deinem ersten Zug"),
})


def flags(clock: dict[str, Any] | None) -> list[bool]:
    """Which seats went berserk."""
    return [bool(b) for b in (clock or {}).get("berserk", (False, False))]


def refusal(row: GameRow, seat: int) -> str | None:
    """Why ``seat`` may not go berserk now (a text key), or None if he may."""
    if ARENA_TAG not in row.tags or not row.clock or "remaining" not in row.clock \
            or row.seats[seat]["kind"] != "human":
        return "arena_only"
    if row.status != "ongoing":
        return "over"
    if flags(row.clock)[seat]:
        return "already"
    if aborts.has_moved(row.moves, seat):
        return "moved"
    return None


def view(row: GameRow) -> dict[str, Any] | None:
    """For the game page: who went berserk (``done``) and who may now (``may``); None in a game
    that allows no berserk."""
    if ARENA_TAG not in row.tags or not row.clock or "remaining" not in row.clock:
        return None
    return {"done": flags(row.clock), "may": [refusal(row, seat) is None for seat in (0, 1)]}


def go(row: GameRow, seat: int) -> None:
    """``seat`` goes berserk: half his starting time, no increment (refused with a 409 if he may not)."""
    reason = refusal(row, seat)
    if reason is not None:
        raise WebError(403 if reason == "arena_only" else 409, TEXTS(reason))
    clock = row.clock
    clock["berserk"] = [seat == s or b for s, b in enumerate(flags(clock))]
    clock["remaining"][seat] = min(clock["remaining"][seat], clock["initial"] // 2)


async def berserk(service: Any, game_id: str, token: Any, user: Any = None) -> Any:
    """A player of an Arena game goes berserk (by his seat token or his account): the live game."""
    async def change(live: Any) -> Any:
        go(live.row, service._seat_for(live.row, token, live.state, None, user))
        await service._commit(live)
        return live

    return await service._changing(game_id, change)
