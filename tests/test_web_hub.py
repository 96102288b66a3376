"""What the sockets watching a game are sent."""

from __future__ import annotations

import asyncio
import json

from ludothek.web.hub import Hub


class Socket:
    def __init__(self):
        self.sent: list[dict] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


def test_a_change_noticed_from_outside_is_not_shown_twice_nor_a_step_back():
    hub, ws = Hub(), Socket()
    hub.join("g", ws)
    hub.seat("g", ws, [0])

    async def run():
        await hub.publish("g", {"version": 3})
        await hub.publish("g", {"version": 3}, only_newer=True)  # the poll found what was shown
        await hub.publish("g", {"version": 2}, only_newer=True)  # a read from before the last change
        await hub.publish("g", {"version": 4}, only_newer=True)
        await hub.publish("g", {"version": 4})  # a change made here is always shown (e.g. a seat claimed)

    asyncio.run(run())
    assert [(m["game"]["version"], m["you"]) for m in ws.sent] == [(3, [0]), (4, [0]), (4, [0])]
    hub.leave("g", ws)
    assert hub.shown == {} and hub.rooms == {}
