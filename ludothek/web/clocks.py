"""The time controls of online games, kept by the server.

A game's ``clock`` (stored as JSON with the game) is one of:

- a Fischer clock: ``{"initial": ms, "increment": ms, "remaining": [ms, ms], "since": t}``;
- correspondence: ``{"days": D, "since": t}``: D days for each move, counted from the last one.

``since`` is when the running period began (None: no clock runs). Every function takes the
time ``at`` as an argument, so the server's clock can be injected (tests move it on by days).
"""

from __future__ import annotations

from typing import Any

from .errors import WebError
from .texts import TEXTS

DAY = 24 * 3600
CORRESPONDENCE_DAYS = (1, 2, 3, 7, 14)
MAX_CLOCK_MINUTES = 180
MAX_INCREMENT_SECONDS = 180


def parse(spec: Any) -> dict[str, Any] | None:
    """A clock from a client's ``{"minutes": M, "increment": S}`` or ``{"days": D}`` (None or
    0 minutes: no clock); raises the server's 400 error for anything else."""
    if spec in (None, False, {}, ""):
        return None
    if not isinstance(spec, dict):
        raise WebError(400, TEXTS("clock_spec", example='{"minutes": M, "increment": S}, {"days": D}'))
    if "days" in spec:
        days = spec["days"]
        if isinstance(days, bool) or days not in CORRESPONDENCE_DAYS or set(spec) != {"days"}:
            raise WebError(400, TEXTS("clock_days", days=", ".join(map(str, CORRESPONDENCE_DAYS))))
        return {"days": int(days), "since": None}
    minutes, increment = spec.get("minutes", 0), spec.get("increment", 0)
    for name, value, top in (("minutes", minutes, MAX_CLOCK_MINUTES), ("increment", increment, MAX_INCREMENT_SECONDS)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top:
            raise WebError(400, TEXTS("clock_range", field=name, top=top))
    if minutes <= 0:
        return None
    initial = int(minutes * 60000)
    return {"initial": initial, "increment": int(increment * 1000), "remaining": [initial, initial], "since": None}


def setting(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    """The time control a clock was made from, as a client writes it (for lists and rematches)."""
    if not clock:
        return None
    if "days" in clock:
        return {"days": clock["days"]}
    return {"minutes": clock["initial"] / 60000, "increment": clock["increment"] / 1000}


def record_tag(clock: dict[str, Any]) -> str:
    """The record's TimeControl tag: ``300+5`` (seconds + increment), or ``1/259200`` for
    correspondence (one move per period of seconds, as PGN writes a period)."""
    if "days" in clock:
        return f"1/{clock['days'] * DAY}"
    return f"{clock['initial'] // 1000}+{clock['increment'] // 1000}"


def left(clock: dict[str, Any], player: int, at: float) -> float:
    """Seconds ``player`` has left at ``at`` if his period runs since ``clock["since"]``."""
    since = clock["since"] if clock.get("since") is not None else at
    if "days" in clock:
        return clock["days"] * DAY - (at - since)
    return clock["remaining"][player] / 1000 - (at - since)


def flag_fell(clock: dict[str, Any] | None, player: int, at: float) -> bool:
    """Whether ``player`` (to move; negative: nobody) has run out of time at ``at``."""
    if not clock or clock.get("since") is None or player < 0:
        return False
    return left(clock, player, at) <= 0


def flag(clock: dict[str, Any], loser: int) -> None:
    """Stop the clock of a player who ran out of time."""
    if "remaining" in clock:
        clock["remaining"][loser] = 0
    clock["since"] = None


def moved(clock: dict[str, Any], mover: int, at: float) -> None:
    """``mover`` moved at ``at``: his time is charged (plus the increment, unless he went berserk
    in an Arena, :mod:`.berserk`) and the other's runs."""
    if "remaining" in clock:
        increment = 0 if clock.get("berserk", (False, False))[mover] else clock["increment"]
        clock["remaining"][mover] += increment - int((at - clock["since"]) * 1000)
    clock["since"] = at


def deadline(clock: dict[str, Any] | None, player: int | None) -> float | None:
    """When ``player``'s time runs out if he does not move (None: no clock runs)."""
    if not clock or clock.get("since") is None or player is None or player < 0:
        return None
    if "days" in clock:
        return clock["since"] + clock["days"] * DAY
    return clock["since"] + clock["remaining"][player] / 1000


def view(clock: dict[str, Any], running: int | None, at: float) -> dict[str, Any]:
    """What a page shows. Fischer: ``initial``, ``increment``, ``remaining`` (ms, the running
    one counted down to ``at``) and ``running``; correspondence: ``days``, ``deadline`` (unix
    seconds) and ``running``."""
    if running is not None and clock.get("since") is None:
        running = None
    if "days" in clock:
        return {"days": clock["days"], "deadline": deadline(clock, running), "running": running}
    remaining = list(clock["remaining"])
    if running is not None:
        remaining[running] = max(0, int(left(clock, running, at) * 1000))
    shown = {"initial": clock["initial"], "increment": clock["increment"], "remaining": remaining, "running": running}
    if "berserk" in clock:  # an Arena game's berserk players (:mod:`.berserk`)
        shown["berserk"] = list(clock["berserk"])
    return shown
