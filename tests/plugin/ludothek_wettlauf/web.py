"""How the web app draws Race: the U of squares (:mod:`.track`) with the tokens as discs."""

from __future__ import annotations

import re
from typing import Any

from ludothek.core.protocol import GameState
from ludothek.web.boards import CellsAdapter

from .track import HOME, LAYOUT, NAMES, START, SQUARES

TRACK_FILL = "#e8d5a9"
OFF_TRACK_FILL = "#f4ead3"  # the start and home, off the track
PIECES = ({"fill": "#ffffff", "stroke": "#222222"}, {"fill": "#222222", "stroke": "#000000"})
_MOVE = re.compile(r"^([sh]|\d{1,2})-([sh]|\d{1,2})(\*?)$")


class RaceBoard(CellsAdapter):
    def cells(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        cells = []
        for square in SQUARES:
            column, row = LAYOUT[square]
            cells.append({
                "name": NAMES[square],
                "x": column + 0.5,
                "y": row + 0.5,
                "points": [[column, row], [column + 1, row], [column + 1, row + 1], [column, row + 1]],
                "fill": OFF_TRACK_FILL if square in (START, HOME) else TRACK_FILL,
                "label": NAMES[square],
            })
        return cells

    def pieces(self, state: GameState) -> dict[str, list[dict[str, Any]]]:
        stacks: dict[str, list[dict[str, Any]]] = {}
        for side, mine in enumerate(state.tokens):
            for square in mine:
                stacks.setdefault(NAMES[square], []).append(dict(PIECES[side]))
        return stacks

    def move_info(self, state: GameState, text: str) -> dict[str, Any]:
        match = _MOVE.match(text.strip().lower())
        if not match:  # a roll's outcome
            return {"move": text, "kind": "other", "from": None, "to": None}
        return {"move": text, "kind": "move", "from": match.group(1), "to": match.group(2)}
