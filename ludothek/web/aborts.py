"""Games nobody started do not count (as on lichess): an online game is *aborted* — no result,
no rating change, no win, draw or loss on a profile — when a player does not make his first
move in time, or when a player aborts it before his own first move.

- Each player has a window for his own first move, counted from when it became his turn:
  30 seconds with a clock, a day by correspondence. While it runs his clock stands still (his
  first move costs no time); when it passes, the server aborts the game (a request or its
  periodic sweep, whichever comes first, on any server sharing the database).
- Either player may abort an online game — with a clock or without — as long as he has not
  moved in it himself.
- Online games without a clock have no window (nobody is bound to a time there), games
  against a bot and hot-seat games are never aborted: nothing in them is counted.
"""

from __future__ import annotations

from .clocks import DAY
from .store import GameRow

#: the time a player has for his first move with a Fischer clock, and by correspondence
LIVE_WINDOW = 30.0
CORRESPONDENCE_WINDOW = float(DAY)

#: ``termination`` of an aborted game; its ``reason`` says how
TERMINATION = "aborted"
LATE, BY_PLAYER = "first_move_late", "by_player"

Moves = list[tuple[int, str, int, float]]


def has_moved(moves: Moves, seat: int) -> bool:
    return any(m[2] == seat for m in moves)


def window(row: GameRow) -> float | None:
    """Seconds a player of this game has for his first move (None: no window)."""
    if row.mode != "online" or not row.clock:
        return None
    return CORRESPONDENCE_WINDOW if "days" in row.clock else LIVE_WINDOW


def awaits_first_move(row: GameRow, seat: int | None, moves: Moves | None = None) -> bool:
    """Whether ``seat`` (to move) is still in his first-move window: his clock stands still."""
    if seat is None or seat < 0 or row.status != "ongoing" or window(row) is None:
        return False
    return not has_moved(row.moves if moves is None else moves, seat)


def deadline(row: GameRow, seat: int | None, moves: Moves | None = None) -> float | None:
    """When the game is aborted unless ``seat`` (to move) makes his first move; None if no
    window runs for him."""
    if not awaits_first_move(row, seat, moves) or row.clock.get("since") is None:
        return None
    return row.clock["since"] + window(row)


def overdue(row: GameRow, seat: int | None, at: float) -> bool:
    """Whether ``seat`` (to move) let his first-move window pass by ``at``."""
    due = deadline(row, seat)
    return due is not None and at >= due


def may_abort(row: GameRow, seat: int) -> bool:
    """Whether the player of ``seat`` may abort the game now: online, in play, before his own
    first move."""
    return (row.mode == "online" and row.status == "ongoing" and row.seats[seat]["kind"] == "human"
            and not has_moved(row.moves, seat))
