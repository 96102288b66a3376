"""RGB pictures (ludothek.integrations.raster and each game's picture.py): the shared
fallback, and the exact pixels of named positions (their SHA-256, taken when the pictures
moved into the game packages; a deliberate change of a picture updates its digest here)."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from ludothek.core.registry import game_spec, games, new_game
from ludothek.core.spec import GameSpec
from ludothek.integrations import raster
from ludothek.integrations.raster import Canvas, draw

NAMED = [
    # game, options, moves from the start, (height, width), digest of the pixels
    ("trike", {"size": 7}, ("d2", "swap", "d1", "a1"), (200, 216), "27ad8f750b987468"),
    ("trigeo", {}, (), (316, 396), "32d3b956e7e9ae54"),
    ("hexalit", {"cube": True}, ("B5W", "3", "E5W"), (316, 396), "b4741fdc53db21cf"),
    ("bitis", {}, ("IV43:9318", "III33:1297", "V42:2873"), (280, 200), "b2420672511eed2b"),
]


@pytest.mark.parametrize("name,options,moves,size,digest", NAMED, ids=[n[0] for n in NAMED])
def test_named_positions_keep_their_pixels(name, options, moves, size, digest):
    state = new_game(name, **options)
    for move in moves:
        state.play(move)
    picture = draw(name, state)
    assert picture.dtype == np.uint8 and picture.shape == (*size, 3)
    assert hashlib.sha256(picture.tobytes()).hexdigest()[:16] == digest


@pytest.mark.parametrize("name", [n for n in games() if game_spec(n).has("picture")])
def test_every_picture_draws_the_start(name):
    picture = draw(name, new_game(name))
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 3  # more than a plain card


def test_a_game_without_a_picture_gets_a_plain_card(monkeypatch):
    plain = GameSpec(name="plain", state=game_spec(games()[0]).state)
    monkeypatch.setattr(raster, "game_spec", lambda game: plain)
    card = draw("plain", None)
    assert card.shape == (64, 64, 3) and (card == raster.PLAIN).all()


def test_canvas_primitives():
    canvas = Canvas(20, 10, (0, 0, 0))
    canvas.rect(2, 2, 6, 6, (255, 0, 0))
    assert (canvas.pixels[2:6, 2:6] == (255, 0, 0)).all() and (canvas.pixels[0, :] == 0).all()
    canvas.disc(15, 5, 2, (0, 255, 0))
    assert (canvas.pixels[5, 15] == (0, 255, 0)).all() and (canvas.pixels[0, 19] == 0).all()
    canvas.text(10, 5, "1", (0, 0, 255), scale=1)
    assert (canvas.pixels == (0, 0, 255)).all(axis=2).sum() == 8  # the 3x5 digit 1 has 8 pixels
