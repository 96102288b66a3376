"""Race in the terminal: one line per side under the squares, then whose turn it is.

::

           s  1  2  3  4  5  6  7  8  9 10 11 12  h
    white  1  .  .  .  1  .  .  .  .  .  .  .  .  .
    black  .  .  .  .  .  .  .  2  .  .  .  .  .  .
    white to move, the die shows 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .track import NAMES, SQUARES

if TYPE_CHECKING:
    from .state import RaceState


def render_state(state: RaceState) -> str:
    lines = ["      " + "".join(f"{name:>3}" for name in NAMES)]
    for colour, mine in zip(state.colours, state.tokens):
        counts = [mine.count(square) for square in SQUARES]
        lines.append(f"{colour:<6}" + "".join(f"{count or '.':>3}" for count in counts))
    lines.append(_status(state))
    return "\n".join(lines)


def _status(state: RaceState) -> str:
    if state.is_over():
        won = state.winner()
        return f"{won} wins" if won else f"drawn after {state.options['max_plies']} moves"
    mover = state.colours[state.side]
    if not state.roll:
        return f"{mover} to move, the die is to be rolled"
    return f"{mover} to move, the die shows {state.roll}"
