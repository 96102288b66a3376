"""What the browser needs to draw a game, derived on the server from the game's own API.

The browser knows no rules. For each game the server sends

* ``geometry`` — the cells (name, centre, polygon) of the board;
* ``board`` — what stands where, read from the game's state;
* ``moves`` — every legal move in the game's own notation (``state.legal_moves()``), each with
  the cells it starts from and goes to (read from that notation), so that a click on a piece
  and a click on a target can be mapped back to exactly one notation string, which the server
  then checks with ``state.play``.

A game brings its own :class:`Adapter` subclass, named by the ``board`` part of its
:class:`~ludothek.core.spec.GameSpec`; :func:`adapter` finds it. A game without one still works:
the plain :class:`Adapter` draws no board and offers the moves as buttons.

Board kinds
-----------
``geometry["kind"]`` tells ``static/js/board.js`` how to draw. Three kinds are board families
with their own drawing (``hextri``: a triangle of hexagons, ``tri66``: the 66-triangle hexagon,
``grid``: a 6x4 grid with a tray of dice beside it; their geometry comes from the helpers below).
Any game can use the generic kind ``cells`` by subclassing :class:`CellsAdapter`:

* ``geometry(options)`` -> ``{"kind": "cells", "cells": [cell, ...], "width": W, "height": H}``
  where a cell is ``{"name": "a1", "x": 0.5, "y": 0.5, "points": [[0, 0], [1, 0], [1, 1],
  [0, 1]], "fill": "#e8d5a9", "label": "1"}`` (``fill`` and ``label`` optional; ``label`` is
  small text drawn in the cell's corner). Board units, about one unit per cell, y down;
  ``width`` and ``height`` are the board's extent from the origin (0, 0).
* ``board(state)`` -> ``{"position": state.position(), "pieces": {"a1": [piece, ...]}}``,
  a list of pieces per cell (race games stack tokens), a piece being ``{"fill": "#ffffff",
  "stroke": "#222222", "label": "2"}`` (all optional). They are drawn as discs, several in one
  cell side by side, the label centred on the disc.
* ``move_info(state, text)`` -> ``{"move": text, "kind": "move" | "place" | "other" | …,
  "from": cell or None, "to": cell or None}``. The browser selects a from-cell, then a
  target; a move with only ``to`` is one click; a move with neither is a button.
* ``attempt(state, from, to)`` (optional) -> the notation those clicks try, legal or not, so
  that a lesson can show the engine's reason for refusing it.
"""

from __future__ import annotations

import math
import numbers
from functools import cache, lru_cache
from typing import Any

from ..core.errors import LudothekError
from ..core.protocol import CHANCE, GameState
from ..core.registry import game_spec
from ..core.spec import load_target
from .texts import TEXTS

SQRT3 = math.sqrt(3.0)


def _r(value: float) -> float:
    return round(float(value), 3)


class Adapter:
    """The plain adapter: no board, the moves as buttons. Games subclass it."""

    kind = "text"
    #: whether :meth:`move_info` reads the position (else the state passed may be any)
    move_info_needs_state = False

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"kind": self.kind, "cells": []}

    def board(self, state: GameState) -> dict[str, Any]:
        return {"position": state.position()}

    def move_info(self, state: GameState, text: str) -> dict[str, Any]:
        return {"move": text, "kind": "other", "from": None, "to": None}

    def attempt(self, state: GameState, source: str | None, target: str | None) -> str | None:
        """The move a click on ``source`` and then ``target`` tries, in the game's notation,
        whether legal or not (``target`` None: an action of ``source`` alone, e.g. a roll), so
        that the engine can say why a refused try is refused (the lessons, :mod:`.lessons`);
        None when such clicks name no move of this game."""
        return None

    def last_cells(self, info: dict[str, Any] | None) -> list[str]:
        if not info:
            return []
        return [c for c in (info.get("from"), info.get("to")) if c and not str(c).startswith("tray:")]

    def threatened(self, state: GameState, board: dict[str, Any]) -> list[str]:
        return []


# ---------------------------------------------------------------------------- the generic kind
class CellsAdapter(Adapter):
    """A board of arbitrary polygons with discs on them (the ``cells`` kind, see above).

    Subclasses provide :meth:`cells` and :meth:`pieces` and usually :meth:`move_info`."""

    kind = "cells"

    def cells(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        """The board's cells for these options: ``{"name", "x", "y", "points"}`` and
        optionally ``"fill"`` and ``"label"``."""
        raise NotImplementedError(f"{type(self).__name__} must define cells(options)")

    def pieces(self, state: GameState) -> dict[str, list[dict[str, Any]]]:
        """What stands on each occupied cell: a list of ``{"fill", "stroke", "label"}``."""
        return {}

    def geometry(self, options: dict[str, Any]) -> dict[str, Any]:
        cells = [_checked_cell(cell, type(self).__name__) for cell in self.cells(options)]
        corners = [point for cell in cells for point in cell["points"]]
        return {
            "kind": self.kind,
            "cells": cells,
            "width": _r(max((x for x, _ in corners), default=0.0)),
            "height": _r(max((y for _, y in corners), default=0.0)),
        }

    def board(self, state: GameState) -> dict[str, Any]:
        pieces = self.pieces(state)
        if not isinstance(pieces, dict):
            raise LudothekError(TEXTS("pieces_not_dict", adapter=type(self).__name__, type=type(pieces).__name__))
        for cell, stack in pieces.items():
            if not isinstance(stack, list) or not all(isinstance(piece, dict) for piece in stack):
                raise LudothekError(TEXTS("pieces_cell", adapter=type(self).__name__, cell=repr(cell)))
        return {"position": state.position(), "pieces": pieces}


def _checked_cell(cell: Any, owner: str) -> dict[str, Any]:
    """One cell of a ``cells`` geometry, checked and with its numbers rounded."""
    if not isinstance(cell, dict) or not isinstance(cell.get("name"), str) or not cell["name"]:
        raise LudothekError(TEXTS("cell_not_dict", owner=owner, cell=f"{cell!r:.80}"))
    name = cell["name"]
    for key in ("x", "y"):
        if not _is_number(cell.get(key)):
            raise LudothekError(TEXTS("cell_number", owner=owner, cell=name, field=key))
    points = cell.get("points")
    if (not isinstance(points, (list, tuple)) or len(points) < 3
            or not all(isinstance(p, (list, tuple)) and len(p) == 2 and all(map(_is_number, p)) for p in points)):
        raise LudothekError(TEXTS("cell_points", owner=owner, cell=name))
    checked = {**cell, "x": _r(cell["x"]), "y": _r(cell["y"]), "points": [[_r(x), _r(y)] for x, y in points]}
    for key in ("fill", "label"):
        if key in checked and not isinstance(checked[key], str):
            raise LudothekError(TEXTS("cell_text", owner=owner, cell=name, field=key))
    return checked


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


# ---------------------------------------------------------------------------- board families
@cache
def hextri_geometry(side: int) -> dict[str, Any]:
    """A triangle of hexagons with ``side`` cells along each edge (kind ``hextri``)."""
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


@cache
def tri66_geometry() -> dict[str, Any]:
    """The hexagon of 66 triangles (kind ``tri66``)."""
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


@cache
def grid_geometry(rows: int = 6, columns: int = 4) -> dict[str, Any]:
    """A grid of square cells named ``row,column`` from ``1,1`` at the top left (kind ``grid``)."""
    cells = []
    for r in range(1, rows + 1):
        for c in range(1, columns + 1):
            x, y = c - 0.5, r - 0.5
            cells.append({
                "name": f"{r},{c}", "x": x, "y": y, "row": r, "col": c,
                "points": [[c - 1, r - 1], [c, r - 1], [c, r], [c - 1, r]],
            })
    return {"kind": "grid", "rows": rows, "columns": columns, "cells": cells}


# ---------------------------------------------------------------------------- lookup
@lru_cache(maxsize=None)
def _adapter_class(target: str | None) -> type[Adapter]:
    if target is None:
        return Adapter
    found = load_target(target)
    if not (isinstance(found, type) and issubclass(found, Adapter)):
        raise LudothekError(TEXTS("not_adapter", target=target))
    return found


def adapter(game: str) -> Adapter:
    """A fresh board adapter for ``game``: its spec's ``board`` part, else the plain one."""
    return _adapter_class(game_spec(game).board)()


def legal_move_infos(state: GameState, ad: Adapter) -> list[dict[str, Any]]:
    if state.is_over() or state.current_player() == CHANCE:
        return []
    return [ad.move_info(state, text) for text in state.legal_moves()]
