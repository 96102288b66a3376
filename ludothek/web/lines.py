"""What the analysis page draws on the board (issue 31, item 4): the best move of every
analysed position as an arrow, and the expected line played out on the board.

The review (:mod:`ludothek.ai.review`) keeps, for the start and after every ply, the search's
best move there (``next_best``) and its expected line (``line``), in the game's notation. Here
the game's board adapter reads them: :func:`add_arrows` gives each an ``arrow`` (the cells the
best move goes from and to), and :func:`line_steps` plays a line from its position, one board
per ply, for ``GET /api/games/{id}/analysis/line?ply=N``. Every move goes through the game's
own ``play``: a line that is no longer legal (it never should be) stops where it breaks.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import LudothekError
from ..core.messages import Catalog
from ..core.protocol import GameState
from .boards import Adapter, adapter
from .service import GameService, WebError

TEXTS = Catalog("lines", {
    "bad_ply": ("'ply' must be a whole number from {first} to {last}, not {given!r}",
                "'ply' muss eine ganze Zahl von {first} bis {last} sein, nicht {given!r}"),
    "no_analysis": ("the game has no analysis yet: start it first",
                    "die Partie hat noch keine Analyse: Starte sie zuerst"),
})


def _arrow(ad: Adapter, state: GameState, move: str | None) -> list[str] | None:
    """The cells the move ``move`` goes from and to in ``state`` (None: no move, or one the
    board cannot show, such as a roll)."""
    if not move or state.current_player() < 0:
        return None
    try:
        cells = ad.last_cells(ad.move_info(state, move))
    except (LudothekError, ValueError, KeyError):
        return None
    return cells or None


def add_arrows(game: str, position: str | None, options: dict[str, Any], actions: list[int],
               analysis: dict[str, Any]) -> dict[str, Any]:
    """``analysis`` with an ``arrow`` for the start and for every entry: the best move of the
    position there, as cells. The game is replayed from ``position`` with ``actions``."""
    from ..core.registry import game_class

    ad = adapter(game)
    state = game_class(game)(position, **options)
    first = analysis["start"]["ply"] - state.ply
    for action in actions[:first]:
        state.play(int(action))
    analysis["start"]["arrow"] = _arrow(ad, state, analysis["start"].get("next_best"))
    by_ply = {entry["ply"]: entry for entry in analysis["entries"]}
    for action in actions[first:]:
        state.play(int(action))
        entry = by_ply.get(state.ply)
        if entry is not None:
            entry["arrow"] = _arrow(ad, state, entry.get("next_best"))
    return analysis


def line_steps(game: str, state: GameState, line: list[str]) -> list[dict[str, Any]]:
    """The expected ``line`` played from ``state`` (changed): one step per ply, each with the
    move, the board after it, the cells it used and the next move's arrow."""
    ad = adapter(game)
    steps: list[dict[str, Any]] = []
    for k, move in enumerate(line):
        before = state.copy() if ad.move_info_needs_state else state
        try:
            info = ad.move_info(before, move)
            state.play(move)
        except LudothekError:
            break
        board = ad.board(state)
        steps.append({
            "move": state.move_texts[-1], "board": board, "last": {"move": move, "cells": ad.last_cells(info),
                                                                     "kind": info.get("kind")},
            "threatened": ad.threatened(state, board),
            "arrow": _arrow(ad, state, line[k + 1]) if k + 1 < len(line) else None,
        })
    return steps


def position_line(service: GameService, row: Any, analysis: dict[str, Any], given: str | None) -> dict[str, Any]:
    """The answer to ``…/analysis/line?ply=N``: the expected line of the position after ply N
    (the analysis's start when N is its first ply), played on the board."""
    start = analysis["start"]
    lines = {start["ply"]: start.get("line") or []}
    lines.update({entry["ply"]: entry.get("line") or [] for entry in analysis["entries"]})
    first, last = min(lines), max(lines)
    try:
        ply = int(str(given))
    except ValueError:
        ply = None
    if ply is None or ply not in lines:
        raise WebError(400, TEXTS("bad_ply", first=first, last=last, given=given))
    base = service.replay(row, 0).ply  # a game set up from a position may count from there
    state = service.replay(row, ply - base)
    return {"ply": ply, "line": lines[ply], "steps": line_steps(row.game, state, lines[ply])}
