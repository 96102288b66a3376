"""How the web app draws Trike: stones and the pawn on the triangle of hexagons."""

from __future__ import annotations

from typing import Any

from ...core.protocol import GameState
from ...web.boards import Adapter, hextri_geometry
from .state import BLACK, WHITE

_COLOUR = {BLACK: "b", WHITE: "w"}


class TrikeAdapter(Adapter):
    kind = "hextri"

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return hextri_geometry(int(options.get("size", 13)))

    def board(self, state: GameState) -> dict[str, Any]:
        names = state.geometry.names
        stones = {names[cell]: _COLOUR[v] for cell, v in enumerate(state.board.tolist()) if v in _COLOUR}
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

    def attempt(self, state: GameState, source: str | None, target: str | None) -> str | None:
        return target.lower() if target else None
