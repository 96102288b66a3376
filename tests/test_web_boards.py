"""Board adapters: found through each game's spec, and the generic ``cells`` kind that lets
the browser draw a game it has never heard of."""

from __future__ import annotations

import json

import pytest

import ludothek
from ludothek.core.errors import LudothekError
from ludothek.core.registry import game_spec
from ludothek.core.spec import GameSpec, load_target
from ludothek.web import boards
from ludothek.web.boards import Adapter, CellsAdapter, adapter, legal_move_infos


class TwoCells(CellsAdapter):
    """Two squares side by side; the pieces are the position's letters, stacked."""

    def cells(self, options):
        return [
            {"name": "a1", "x": 0.5, "y": 0.5, "points": [[0, 0], [1, 0], [1, 1], [0, 1]], "fill": "#e8d5a9",
             "label": "1"},
            {"name": "a2", "x": 1.5, "y": 0.5, "points": [(1, 0), (2, 0), (2, 1), (1, 1)]},
        ]

    def pieces(self, state):
        return {"a1": [{"fill": "#ffffff", "stroke": "#222222", "label": "2"}, {"fill": "#000000"}]}

    def move_info(self, state, text):
        return {"move": text, "kind": "place", "from": None, "to": "a2"}


class FakeState:
    def position(self):
        return "two cells"


def test_cells_geometry_shape():
    geometry = TwoCells().geometry({})
    assert geometry == {
        "kind": "cells",
        "cells": [
            {"name": "a1", "x": 0.5, "y": 0.5, "points": [[0, 0], [1, 0], [1, 1], [0, 1]], "fill": "#e8d5a9",
             "label": "1"},
            {"name": "a2", "x": 1.5, "y": 0.5, "points": [[1, 0], [2, 0], [2, 1], [1, 1]]},
        ],
        "width": 2,
        "height": 1,
    }
    json.dumps(geometry)  # what the browser gets


def test_cells_board_shape():
    board = TwoCells().board(FakeState())
    assert board == {
        "position": "two cells",
        "pieces": {"a1": [{"fill": "#ffffff", "stroke": "#222222", "label": "2"}, {"fill": "#000000"}]},
    }
    assert TwoCells().move_info(FakeState(), "x") == {"move": "x", "kind": "place", "from": None, "to": "a2"}
    assert TwoCells.kind == "cells" and issubclass(TwoCells, Adapter)


@pytest.mark.parametrize("cell, words", [
    ({"x": 0, "y": 0, "points": [[0, 0], [1, 0], [1, 1]]}, "non-empty name"),
    ({"name": "a1", "y": 0, "points": [[0, 0], [1, 0], [1, 1]]}, "cell 'a1' needs a number 'x'"),
    ({"name": "a1", "x": 0, "y": 0, "points": [[0, 0], [1, 0]]}, "at least three"),
    ({"name": "a1", "x": 0, "y": 0, "points": [[0, 0], [1, 0], [1, "1"]]}, "at least three"),
    ({"name": "a1", "x": 0, "y": 0, "points": [[0, 0], [1, 0], [1, 1]], "fill": 3}, "fill that is not text"),
])
def test_bad_cells_are_named(cell, words):
    class Bad(CellsAdapter):
        def cells(self, options):
            return [cell]

    with pytest.raises(LudothekError, match=words):
        Bad().geometry({})


def test_bad_pieces_are_named():
    class Bad(TwoCells):
        def pieces(self, state):
            return {"a1": {"fill": "#fff"}}

    with pytest.raises(LudothekError, match="cell 'a1' must hold a list"):
        Bad().board(FakeState())


def test_a_cells_adapter_needs_its_cells():
    with pytest.raises(NotImplementedError, match="cells"):
        CellsAdapter().geometry({})


@pytest.mark.parametrize("name", ludothek.games())
def test_each_game_gets_the_adapter_its_spec_names(name):
    spec = game_spec(name)
    ad = adapter(name)
    assert type(ad) is (load_target(spec.board) if spec.board else Adapter)
    state = ludothek.new_game(name)
    json.dumps(ad.geometry(state.options))
    json.dumps(ad.board(state))
    assert all(info["move"] in state.legal_moves() for info in legal_move_infos(state, ad))


def test_a_game_without_a_board_gets_buttons(monkeypatch):
    spec = GameSpec(name="plain", state=game_spec("trike").state)
    monkeypatch.setattr(boards, "game_spec", lambda name: spec)
    ad = adapter("plain")
    assert type(ad) is Adapter
    state = ludothek.new_game("trike", size=7)
    assert ad.geometry(state.options) == {"kind": "text", "cells": []}
    assert ad.board(state) == {"position": state.position()}
    assert all(info["kind"] == "other" and info["from"] is None and info["to"] is None
               for info in legal_move_infos(state, ad))


def test_a_board_part_must_be_an_adapter(monkeypatch):
    spec = GameSpec(name="odd", state=game_spec("trike").state, board="ludothek.web.boards:grid_geometry")
    monkeypatch.setattr(boards, "game_spec", lambda name: spec)
    with pytest.raises(LudothekError, match="not an Adapter subclass"):
        adapter("odd")
