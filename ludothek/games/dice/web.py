"""How the web app draws the dice games on the 66-triangle hexagon: each die with its face and
colour, the temporary dice after a roll, the jump fields and the doubling cube where the game
has them. The adapter asks the state (its class's ``JUMP_FIELDS``, its threat queries, its
cube), so one adapter serves every game on this board."""

from __future__ import annotations

import re
from typing import Any

from ...boards import triangle66 as T
from ...core.protocol import GameState
from ...web.boards import Adapter, tri66_geometry
from .position import LETTERS

#: the face a position letter stands for (k = 1 … q = 6)
FACE_OF_LETTER = {letter.lower(): face for face, letter in enumerate(LETTERS, start=1)}


class TriangleAdapter(Adapter):
    kind = "tri66"
    _ITEM = re.compile(r"\d+|[A-Za-z]")
    _MOVE = re.compile(r"^([A-Fa-f]\d{1,2})\s*([Xx°*])\s*([A-Fa-f]\d{1,2})(?:=(\d))?([\^+#]*)$")
    _ROLL = re.compile(r"^([A-Fa-f]\d{1,2})W(\d?)([\^+#]*)$")

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return tri66_geometry()

    def board(self, state: GameState) -> dict[str, Any]:
        fields = state.position().split()
        dice: dict[str, dict[str, Any]] = {}
        for r, row in enumerate(fields[0].split("/"), start=1):
            cols = list(T.columns(r))
            k = 0
            for item in self._ITEM.findall(row):
                if item.isdigit():
                    k += int(item)
                    continue
                if k < len(cols):
                    dice[f"{T.ROWS[r - 1]}{cols[k]}"] = {
                        "face": FACE_OF_LETTER.get(item.lower(), 0),
                        "colour": "white" if item.isupper() else "black",
                    }
                k += 1
        if len(fields) > 2 and fields[2] != "-":
            for cell in fields[2].split(","):
                if cell.upper() in dice:
                    dice[cell.upper()]["temporary"] = True
        data: dict[str, Any] = {"dice": dice}
        marked = [T.NAMES[cell] for cell in getattr(type(state), "JUMP_FIELDS", ())]
        if marked:
            data["marked"] = marked
        cube = _cube(state)
        if cube is not None:
            data["cube"] = cube
        return data

    def move_info(self, state: GameState, text: str) -> dict[str, Any]:
        match = self._MOVE.match(text)
        if match:
            promo = match.group(4)
            return {
                "move": text,
                "kind": "capture" if match.group(2) != "X" else "move",
                "from": match.group(1).upper(),
                "to": match.group(3).upper(),
                "choice": promo or "",
            }
        match = self._ROLL.match(text)
        if match:
            return {"move": text, "kind": "roll", "from": match.group(1).upper(), "to": None}
        lowered = text.lower()
        if lowered.startswith("double") or lowered in ("take", "drop"):
            return {"move": text, "kind": "cube", "from": None, "to": None}
        return {"move": text, "kind": "other", "from": None, "to": None}

    def attempt(self, state: GameState, source: str | None, target: str | None) -> str | None:
        if not source:
            return None
        return f"{source.upper()}X{target.upper()}" if target else f"{source.upper()}W"

    def threatened(self, state: GameState, board: dict[str, Any]) -> list[str]:
        """The threatened 1s ("Eins!"), as the state tells them."""
        ask = getattr(state, "threatened_ones", None)
        if callable(ask):
            return [str(c).upper() for c in ask()]
        is_threatened, one_cell = getattr(state, "threatened", None), getattr(state, "one_cell", None)
        if callable(is_threatened) and callable(one_cell):
            cells = [(colour, int(one_cell(colour))) for colour in state.colours]
            return [T.NAMES[cell] for colour, cell in cells if cell >= 0 and is_threatened(colour)]
        return []


def _cube(state: GameState) -> dict[str, Any] | None:
    """The doubling cube, for games played for stakes."""
    if not state.options.get("cube"):
        return None
    value = getattr(state, "cube", None)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return {"value": value, "offer": bool(getattr(state, "offer", False))}
