"""Hypothesis strategies shared by the tests: random legal games of any registered game."""

from __future__ import annotations

from hypothesis import strategies as st

import ludothek
from ludothek import CHANCE


@st.composite
def random_game(draw, game: str, max_plies: int = 60, **options):
    """A state reached by random legal actions (chance outcomes drawn too)."""
    state = ludothek.new_game(game, **options)
    plies = draw(st.integers(0, max_plies))
    for _ in range(plies):
        if state.is_over():
            break
        if state.current_player() == CHANCE:
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        state.play(draw(st.sampled_from(actions)))
    return state
