"""The websockets watching each game in this process, and what they are sent."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.websockets import WebSocket


def state_message(view: dict[str, Any], you: list[int], ref: Any = None) -> bytes:
    message: dict[str, Any] = {"type": "state", "game": view, "you": you}
    if ref is not None:
        message["ref"] = ref
    return orjson.dumps(message)


class Hub:
    def __init__(self) -> None:
        #: per game, each socket with the seats its token holds
        self.rooms: dict[str, dict[WebSocket, list[int]]] = {}
        #: per watched game, the newest version its sockets were sent
        self.shown: dict[str, int] = {}

    def join(self, game_id: str, ws: WebSocket) -> None:
        self.rooms.setdefault(game_id, {})[ws] = []

    def seat(self, game_id: str, ws: WebSocket, seats: list[int]) -> None:
        room = self.rooms.get(game_id)
        if room is not None and ws in room:
            room[ws] = seats

    def leave(self, game_id: str, ws: WebSocket) -> None:
        room = self.rooms.get(game_id)
        if room is not None:
            room.pop(ws, None)
            if not room:
                del self.rooms[game_id]
                self.shown.pop(game_id, None)

    def present(self, game_id: str, seat: int) -> bool:
        """Whether a socket holding ``seat`` watches the game here."""
        return any(seat in seats for seats in self.rooms.get(game_id, {}).values())

    async def publish(self, game_id: str, view: dict[str, Any], only_newer: bool = False) -> None:
        """Send the view to the game's sockets. ``only_newer``: not if they were sent this
        version or a newer one already (a change noticed from outside can be one this process
        made and showed meanwhile; a client would see it twice, or a step back)."""
        room = self.rooms.get(game_id)
        if not room or (only_newer and view["version"] <= self.shown.get(game_id, -1)):
            return
        self.shown[game_id] = max(view["version"], self.shown.get(game_id, -1))
        # the view is serialized once; only the seats differ between sockets (text frames: JSON)
        body = orjson.dumps(view).decode()
        for ws, seats in list(room.items()):
            try:
                await ws.send_text('{"type":"state","you":' + orjson.dumps(seats).decode() + ',"game":' + body + "}")
            except Exception:  # noqa: BLE001 - a closed socket; its handler removes it
                room.pop(ws, None)
