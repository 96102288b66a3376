"""Race in the terminal: one line per side under the squares, then whose turn it is.

::

           s  1  2  3  4  5  6  7  8  9 10 11 12  h
    white  1  .  .  .  1  .  .  .  .  .  .  .  .  .
    black  .  .  .  .  .  .  .  2  .  .  .  .  .  .
    white to move, the die shows 2

In German (``lang="de"``) the sides are Weiß and Schwarz and the status line reads
``Weiß ist am Zug, der Würfel zeigt 2``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ludothek.core.messages import colour

from .texts import TEXTS
from .track import NAMES, SQUARES

if TYPE_CHECKING:
    from .state import RaceState


def render_state(state: RaceState, lang: str = "en") -> str:
    """The board as text, the side names and the status line in ``lang`` (``en`` or ``de``)."""
    names = [colour(side).text(lang) for side in state.colours]
    width = max(6, *(len(name) + 1 for name in names))  # "Schwarz" is longer than "white"
    lines = [" " * width + "".join(f"{name:>3}" for name in NAMES)]
    for name, mine in zip(names, state.tokens):
        counts = [mine.count(square) for square in SQUARES]
        lines.append(f"{name:<{width}}" + "".join(f"{count or '.':>3}" for count in counts))
    lines.append(_status(state).text(lang))
    return "\n".join(lines)


def _status(state: RaceState):
    if state.is_over():
        won = state.winner()
        return TEXTS("board_won", side=colour(won)) if won else TEXTS("board_drawn", moves=state.options["max_plies"])
    mover = colour(state.colours[state.side])
    if not state.roll:
        return TEXTS("board_to_roll", side=mover)
    return TEXTS("board_rolled", side=mover, roll=state.roll)
