"""Hexalit's compiled expectiminimax: the state as the search kernels see it
(:mod:`ludothek.games.dice.search`, :mod:`ludothek.games.dice.search_kernels`)."""

from __future__ import annotations

import numpy as np

from ...ai.budget import Budget
from ...boards import triangle66 as T
from ..dice import search
from ..dice.kernels import NO_JUMPS
from ..dice.search_kernels import HEXALIT
from . import kernels


def applicable(state) -> bool:
    """At a turn start of a game without the doubling cube: there the kernels know every
    action the Python search would try (with the cube it also searches the cube's actions)."""
    return not state.options["cube"] and not state.offer and state.roll_cell < 0 and not state.is_over()


def root(state) -> search.Root:
    keys = []
    for (board, temp, side), count in state._reps.items():  # turn starts so far, the root included
        # (writable copies, as the state's arrays: one compiled signature)
        h = kernels.position_hash(np.frombuffer(board, np.int8).copy(), np.frombuffer(temp, np.bool_).copy(), side)
        keys.extend([int(h)] * count)
    return search.Root(
        game=HEXALIT, board=state.board.copy(), temp=state.temp.copy(), side=int(state.side),
        key=int(kernels.position_hash(state.board, state.temp, state.side)),
        check=bool(kernels.gebot_cell(state.board, T.GEO, state.side) >= 0),
        plies_left=int(state.options["max_plies"] - state.turns), history=np.array(keys, np.uint64), jumps=NO_JUMPS)


def compiled_alphabeta(agent, state, clock, order):
    """The agent's iterative deepening over the compiled search; ``None`` (the Python
    search) where it does not apply (:func:`applicable`). ``order``: the knowledge's move
    ordering (the root's first order, as in Python)."""
    if not applicable(state):
        return None
    return search.analyse(agent, state, clock, root(state), order)


def warm_up(order) -> None:
    """Load the compiled search (a short search of the start position)."""
    from ...ai.alphabeta import AlphaBetaAgent
    from .state import HexalitState

    state = HexalitState()
    agent = AlphaBetaAgent("hexalit", 0, Budget(iterations=300))
    compiled_alphabeta(agent, state, agent.budget.clock(), order)


def warm_part(part: str) -> None:
    """Compile one part of the search (:func:`ludothek.games.dice.search.warm_part`)."""
    from .state import HexalitState

    search.warm_part(root(HexalitState()), part)
