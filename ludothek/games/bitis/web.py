"""How the web app draws Bitis: the three Miwin dice on the 6x4 grid, the unplaced ones in a
tray beside it."""

from __future__ import annotations

import re
from typing import Any

from ...core.protocol import GameState
from ...web.boards import Adapter, grid_geometry
from .dice import ORIENTATIONS


class BitisAdapter(Adapter):
    kind = "grid"
    move_info_needs_state = True
    DICE = ("III", "IV", "V")
    _MOVE = re.compile(r"^(III|IV|V)\s*(\d)\s*,?\s*(\d)\s*:?\s*(\d{4})([\^+#]*)$", re.IGNORECASE)

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return grid_geometry(6, 4)

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
        for cell, info in self._board_of(state)["dice"].items():
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

    def attempt(self, state: GameState, source: str | None, target: str | None) -> str | None:
        """A die moved to ``target`` as it stands (from the tray: in its first orientation)."""
        if not source or not target or not re.fullmatch(r"\d,\d", target):
            return None
        board = self._board_of(state)
        if source.startswith("tray:"):
            die = source[5:]
            if die not in self.DICE:
                return None
            faces = "".join(map(str, ORIENTATIONS[self.DICE.index(die)][0]))
        elif source in board["dice"]:
            die, faces = board["dice"][source]["die"], "".join(map(str, board["dice"][source]["faces"]))
        else:
            return None
        return f"{die} {target} {faces}"

    def _board_of(self, state: GameState) -> dict[str, Any]:
        """:meth:`board`, kept for the last position asked (all legal moves read one board)."""
        key = state.position()
        if getattr(self, "_cached_key", None) != key:
            self._cached_key, self._cached = key, self.board(state)
        return self._cached
