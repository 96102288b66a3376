"""Compile and exercise every game's kernels before the server takes requests, so that no
request ever waits for numba."""

from __future__ import annotations

import random

from ..core.registry import game_class, games
from .boards import adapter, legal_move_infos


def warm_up(plies: int = 40) -> list[str]:
    """Play a short random game of each registered game through the paths a request uses
    (legal moves, notation, position, the web board). Returns the games warmed."""
    rng = random.Random(0)
    warmed = []
    for name in games():
        try:
            cls = game_class(name)
            ad = adapter(name)
        except Exception:  # noqa: BLE001, S112 - a game being written may not import yet
            continue
        state = cls()
        for _ in range(plies):
            if state.is_over():
                break
            legal_move_infos(state, ad)
            ad.board(state)
            if state.current_player() < 0:
                actions, weights = zip(*state.chance_outcomes())
                state.play(rng.choices(actions, weights)[0])
            else:
                state.play(rng.choice(state.legal_moves()))
        state.position()
        state.key()
        warmed.append(name)
    return warmed
