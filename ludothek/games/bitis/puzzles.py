"""Bitis puzzles from the solved table: positions where exactly one placement (a die on a
cell) keeps the win, or in a drawn position keeps the draw while every other placement loses.
Every orientation of that die that keeps the value is accepted as an answer; orientations of
it that do not are wrong answers."""

from __future__ import annotations

from typing import Any

from .solution import get_solution
from .solve import LOSS, WIN
from .state import BitisState


def judge(state: BitisState) -> dict[str, Any] | None:
    if state.current_player() < 0:
        return None
    try:
        values = get_solution().move_values(state)
    except Exception:  # noqa: BLE001 - a position the table does not know is no puzzle
        return None
    best = max((v.outcome for v in values.values()), default=LOSS)
    if best == LOSS:
        return None
    keeping = {state.action_to_str(a): v for a, v in values.items() if v.outcome == best}
    placements = {move.split(":")[0] for move in keeping}  # "III34:1792" -> die III on 3,4
    if len(placements) != 1 or len(keeping) == len(values):
        return None
    # the quickest win first: the move shown as the solution
    accepted = sorted(keeping, key=lambda m: -keeping[m].rank)
    first = keeping[accepted[0]]
    if best == WIN:
        return {"solution": accepted[0], "accepted": accepted, "kind": "win", "depth": first.distance}
    return {"solution": accepted[0], "accepted": accepted, "kind": "draw", "depth": 0}
