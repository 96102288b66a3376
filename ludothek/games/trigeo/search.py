"""Trigeo's compiled alpha-beta: the state as the search kernels see it
(:mod:`ludothek.games.dice.search`, :mod:`ludothek.games.dice.search_kernels`)."""

from __future__ import annotations

import numpy as np

from ...ai.budget import Budget
from ...boards import triangle66 as T
from ..dice import search
from ..dice.kernels import CELLS, JUMP_FIELDS_TRIGEO
from ..dice.search_kernels import TRIGEO
from . import kernels


def root(state) -> search.Root:
    history, _ = state._history()  # every position so far (the state's repetitions count them all)
    return search.Root(
        game=TRIGEO, board=state.board.copy(), temp=np.zeros(CELLS, np.bool_), side=int(state.side),
        key=int(history[-1]), check=bool(kernels.one_threatened(state.board, T.GEO, state.side, JUMP_FIELDS_TRIGEO)),
        plies_left=int(state.options["max_plies"] - state.ply), history=history, jumps=JUMP_FIELDS_TRIGEO)


def compiled_alphabeta(agent, state, clock, order):
    """The agent's iterative deepening over the compiled search (every Trigeo position);
    ``order``: the knowledge's move ordering (the root's first order, as in Python)."""
    return search.analyse(agent, state, clock, root(state), order)


def warm_up(order) -> None:
    """Load the compiled search (a two-depth search of the start position)."""
    from ...ai.alphabeta import AlphaBetaAgent
    from .state import TrigeoState

    state = TrigeoState()
    agent = AlphaBetaAgent("trigeo", 0, Budget(iterations=300))
    compiled_alphabeta(agent, state, agent.budget.clock(), order)


def warm_part(part: str) -> None:
    """Compile one part of the search (:func:`ludothek.games.dice.search.warm_part`)."""
    from .state import TrigeoState

    search.warm_part(root(TrigeoState()), part)
