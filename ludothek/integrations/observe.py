"""Observation tensors shared by the research adapters (OpenSpiel, PettingZoo).

A game with an ``observation`` part in its spec (:class:`~ludothek.core.spec.GameSpec`)
names an :class:`Encoder` subclass that turns a state, seen by one seat, into a float32
tensor of 0/1 planes over the game's board grid. The encoder lives in the game's package,
reads the state's own attributes and needs only numpy; its module docstring documents the
game's layout (which plane means what).

The contract every encoder keeps:

* :attr:`Encoder.grid` — ``(rows, columns)`` of every plane.
* :attr:`Encoder.game_planes` — the game's plane names, in order. :attr:`Encoder.planes`
  appends the shared last plane ``observer_to_act``: the observing seat is the one to act
  now (zero at chance nodes and at the end).
* :meth:`Encoder.encode` / :meth:`Encoder.encode_into` — the tensor of shape
  :attr:`Encoder.shape` for a state and a seat (all zero for ``None``, before a game starts).
* A subclass implements :meth:`Encoder.fill`, writing its planes into a zeroed tensor.

Planes that describe the side to move or the observer are constant (all ones or zeros).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.protocol import GameState
from ..core.registry import game_spec


class Encoder:
    """Turns states of one game into tensors of shape :attr:`shape`."""

    #: the game's plane names, in order (:attr:`planes` adds the shared last plane)
    game_planes: tuple[str, ...] = ()
    #: (rows, columns) of every plane
    grid: tuple[int, int] = (1, 1)

    def __init__(self, options: dict[str, Any]):
        self.options = dict(options)

    @property
    def planes(self) -> tuple[str, ...]:
        return (*self.game_planes, "observer_to_act")

    @property
    def shape(self) -> tuple[int, int, int]:
        return (len(self.planes), *self.grid)

    def encode(self, state: GameState | None, seat: int) -> np.ndarray:
        """A new tensor for ``state`` seen by ``seat`` (``None``: before the game starts)."""
        out = np.zeros(self.shape, np.float32)
        self.encode_into(out, state, seat)
        return out

    def encode_into(self, out: np.ndarray, state: GameState | None, seat: int) -> None:
        """Write the tensor into ``out`` (shape :attr:`shape`)."""
        if out.shape != self.shape:
            raise ValueError(f"observation buffer has shape {out.shape}, the encoder writes {self.shape}")
        out.fill(0.0)
        if state is not None:
            self.fill(out, state, state.seat_colour(seat) if seat >= 0 else None)
            out[-1] = state.current_player() == seat

    def fill(self, out: np.ndarray, state: GameState, observer: str | None) -> None:
        """Write the game's planes into the zeroed ``out``; ``observer`` is the colour the
        observing seat plays (``None`` for no seat)."""
        raise NotImplementedError(f"{type(self).__name__} must implement fill()")


def encoder_for(game: str, options: dict[str, Any]) -> Encoder | None:
    """The encoder of ``game`` for these options, or ``None`` if the game has none."""
    spec = game_spec(game)
    if not spec.has("observation"):
        return None
    return spec.load("observation")(options)
