"""What the browser needs to draw a game, derived on the server from the game's own API.

The browser knows no rules. For each game the server sends

* ``geometry`` — the cells (name, centre, polygon) of the board, computed from the board
  modules in :mod:`ludothek.boards`;
* ``board`` — what stands where, read from the game's canonical position string;
* ``moves`` — every legal move in the game's own notation (``state.legal_moves()``), each with
  the cells it starts from and goes to (read from that notation), so that a click on a piece
  and a click on a target can be mapped back to exactly one notation string, which the server
  then checks with ``state.play``.

An unknown game still works: it gets no geometry and its moves are offered as buttons.
"""

from __future__ import annotations

import math
import re
from functools import cache
from typing import Any

from ..core.protocol import CHANCE, GameState

SQRT3 = math.sqrt(3.0)


def _r(value: float) -> float:
    return round(float(value), 3)


class Adapter:
    kind = "text"
    #: whether :meth:`move_info` reads the position (else the state passed may be any)
    move_info_needs_state = False

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"kind": self.kind, "cells": []}

    def board(self, state: GameState) -> dict[str, Any]:
        return {"position": state.position()}

    def move_info(self, state: GameState, text: str) -> dict[str, Any]:
        return {"move": text, "kind": "other", "from": None, "to": None}

    def last_cells(self, info: dict[str, Any] | None) -> list[str]:
        if not info:
            return []
        return [c for c in (info.get("from"), info.get("to")) if c and not str(c).startswith("tray:")]

    def threatened(self, state: GameState, board: dict[str, Any]) -> list[str]:
        return []


# ---------------------------------------------------------------------------- Trike
class TrikeAdapter(Adapter):
    kind = "hextri"
    _ITEM = re.compile(r"\d+|[bwBW]")

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return _hextri_geometry(int(options.get("size", 13)))

    def board(self, state: GameState) -> dict[str, Any]:
        from ..games.trike.state import BLACK, WHITE

        names = state.geometry.names
        colour = {BLACK: "b", WHITE: "w"}
        stones = {names[cell]: colour[v] for cell, v in enumerate(state.board.tolist()) if v in colour}
        pawn = names[state.pawn] if state.pawn >= 0 else None
        data: dict[str, Any] = {"stones": stones, "pawn": pawn, "swapped": bool(state.swapped)}
        score = state.score()
        if score is not None and pawn is not None:
            data["score"] = score
        return data

    def move_info(self, state: GameState, text: str) -> dict[str, Any]:
        if text.lower() == "swap":
            return {"move": text, "kind": "swap", "from": None, "to": None}
        return {"move": text, "kind": "place", "from": None, "to": text.lower()}


@cache
def _hextri_geometry(side: int) -> dict[str, Any]:
    from ..boards.hex_triangle import hex_triangle

    geo = hex_triangle(side)
    cells = []
    for name, (r, c) in zip(geo.names, geo.coords):
        x, y = (c - r / 2) * SQRT3, r * 1.5
        points = [
            [_r(x + math.cos(math.radians(a)) * 1.0), _r(y + math.sin(math.radians(a)) * 1.0)]
            for a in (-90, -30, 30, 90, 150, 210)
        ]
        cells.append({"name": name, "x": _r(x), "y": _r(y), "points": points, "row": r, "col": c})
    return {"kind": "hextri", "side": side, "cells": cells}


# ---------------------------------------------------------------------------- Trigeo / Hexalit
FACE_OF_LETTER = {"k": 1, "p": 2, "n": 3, "b": 4, "r": 5, "q": 6}


class TriangleAdapter(Adapter):
    kind = "tri66"
    _ITEM = re.compile(r"\d+|[A-Za-z]")
    _MOVE = re.compile(r"^([A-Fa-f]\d{1,2})\s*([Xx°*])\s*([A-Fa-f]\d{1,2})(?:=(\d))?([\^+#]*)$")
    _ROLL = re.compile(r"^([A-Fa-f]\d{1,2})W(\d?)([\^+#]*)$")

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return _tri66_geometry()

    def board(self, state: GameState) -> dict[str, Any]:
        from ..boards import triangle66 as t

        fields = state.position().split()
        dice: dict[str, dict[str, Any]] = {}
        for r, row in enumerate(fields[0].split("/"), start=1):
            cols = list(t.columns(r))
            k = 0
            for item in self._ITEM.findall(row):
                if item.isdigit():
                    k += int(item)
                    continue
                if k < len(cols):
                    dice[f"{t.ROWS[r - 1]}{cols[k]}"] = {
                        "face": FACE_OF_LETTER.get(item.lower(), 0),
                        "colour": "white" if item.isupper() else "black",
                    }
                k += 1
        if len(fields) > 2 and fields[2] != "-":
            for cell in fields[2].split(","):
                if cell.upper() in dice:
                    dice[cell.upper()]["temporary"] = True
        data: dict[str, Any] = {"dice": dice}
        marked = _jump_fields(state)
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

    def threatened(self, state: GameState, board: dict[str, Any]) -> list[str]:
        """The 1s of the side to move, when the last move was marked "Eins!" (``^``)."""
        ask = getattr(state, "threatened_ones", None)
        if callable(ask):
            try:
                return [str(c).upper() for c in ask()]
            except Exception:  # noqa: BLE001, S110 - an optional hook; fall back to the marks
                pass
        is_threatened, one_cell = getattr(state, "threatened", None), getattr(state, "one_cell", None)
        if callable(is_threatened) and callable(one_cell):
            from ..boards import triangle66 as t

            try:
                cells = [(colour, int(one_cell(colour))) for colour in state.colours]
                return [t.NAMES[cell] for colour, cell in cells if cell >= 0 and is_threatened(colour)]
            except Exception:  # noqa: BLE001, S110 - an optional hook; fall back to the marks
                pass
        texts = state.move_texts
        if not texts or not any(mark in texts[-1] for mark in "^+"):
            return []
        player = state.current_player()
        colour = state.seat_colour(player) if player >= 0 else None
        if colour is None:
            mover = _last_mover_colour(state)
            colour = None if mover is None else ("black" if mover == "white" else "white")
        return [cell for cell, die in board["dice"].items() if die["face"] == 1 and die["colour"] == colour]


def _last_mover_colour(state: GameState) -> str | None:
    try:
        probe = state.copy()
        while probe.ply:
            probe.undo()
            player = probe.current_player()
            if player >= 0:
                return probe.seat_colour(player)
    except Exception:  # noqa: BLE001
        return None
    return None


def _jump_fields(state: GameState) -> list[str]:
    for holder in (type(state), __import__(type(state).__module__, fromlist=["_"])):
        for attr in ("JUMP_FIELDS", "JUMP_CELLS", "jump_fields"):
            value = getattr(holder, attr, None)
            if value is None or callable(value):
                continue
            try:
                from ..boards import triangle66 as t

                return [t.NAMES[v] if isinstance(v, (int,)) or hasattr(v, "__index__") else str(v).upper()
                        for v in value]
            except Exception:  # noqa: BLE001
                return []
    return []


def _cube(state: GameState) -> dict[str, Any] | None:
    """The doubling cube, for games played for stakes."""
    if not state.options.get("cube"):
        return None
    value = getattr(state, "cube", None)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return {"value": value, "offer": bool(getattr(state, "offer", False))}


@cache
def _tri66_geometry() -> dict[str, Any]:
    from ..boards import triangle66 as t

    cells = []
    for i, (r, c) in enumerate(t.COORDS):
        top, bottom = (r - 1) * SQRT3, r * SQRT3
        up = bool(t.UP[i])
        if up:
            points = [[c, top], [c + 1, bottom], [c - 1, bottom]]
        else:
            points = [[c - 1, top], [c + 1, top], [c, bottom]]
        cells.append({
            "name": t.NAMES[i], "x": _r(t.X[i]), "y": _r(t.Y[i]), "up": up, "row": r, "col": c,
            "points": [[_r(x), _r(y)] for x, y in points],
        })
    return {"kind": "tri66", "cells": cells, "rows": list(t.ROWS)}


# ---------------------------------------------------------------------------- Bitis
class BitisAdapter(Adapter):
    kind = "grid"
    move_info_needs_state = True
    DICE = ("III", "IV", "V")
    _MOVE = re.compile(r"^(III|IV|V)\s*(\d)\s*,?\s*(\d)\s*:?\s*(\d{4})([\^+#]*)$", re.IGNORECASE)

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return _grid_geometry()

    def board(self, state: GameState) -> dict[str, Any]:
        fields = state.position().split()
        dice: dict[str, Any] = {}
        tray = []
        for name, item in zip(self.DICE, fields[:3]):
            if item == "-":
                tray.append(name)
                continue
            cell, _, faces = item.partition(":")
            dice[f"{cell[0]},{cell[1]}"] = {"die": name, "faces": [int(f) for f in faces]}
        return {
            "dice": dice,
            "tray": tray,
            "last": fields[3] if len(fields) > 3 and fields[3] != "-" else None,
            "to_move": fields[4] if len(fields) > 4 else None,
        }

    def move_info(self, state: GameState, text: str) -> dict[str, Any]:
        match = self._MOVE.match(text.strip())
        if not match:
            return {"move": text, "kind": "other", "from": None, "to": None}
        die = match.group(1).upper()
        where = None
        for cell, info in self.board_cache(state)["dice"].items():
            if info["die"] == die:
                where = cell
        return {
            "move": text,
            "kind": "place",
            "die": die,
            "from": where or f"tray:{die}",
            "to": f"{match.group(2)},{match.group(3)}",
            "choice": match.group(4),
        }

    def board_cache(self, state: GameState) -> dict[str, Any]:
        key = state.position()
        if getattr(self, "_cached_key", None) != key:
            self._cached_key, self._cached = key, self.board(state)
        return self._cached


@cache
def _grid_geometry() -> dict[str, Any]:
    cells = []
    for r in range(1, 7):
        for c in range(1, 5):
            x, y = c - 0.5, r - 0.5
            cells.append({
                "name": f"{r},{c}", "x": x, "y": y, "row": r, "col": c,
                "points": [[c - 1, r - 1], [c, r - 1], [c, r], [c - 1, r]],
            })
    return {"kind": "grid", "rows": 6, "columns": 4, "cells": cells}


# ---------------------------------------------------------------------------- lookup
_ADAPTERS: dict[str, type[Adapter]] = {
    "trike": TrikeAdapter,
    "trigeo": TriangleAdapter,
    "hexalit": TriangleAdapter,
    "bitis": BitisAdapter,
}


def adapter(game: str) -> Adapter:
    return _ADAPTERS.get(game, Adapter)()


def legal_move_infos(state: GameState, ad: Adapter) -> list[dict[str, Any]]:
    if state.is_over() or state.current_player() == CHANCE:
        return []
    return [ad.move_info(state, text) for text in state.legal_moves()]
