"""The dice games' own agents (``GameSpec.agents``):

* ``alphabeta_net[:BUDGET][,file=PATH]`` — the compiled alpha-beta with the learned
  evaluation (:mod:`.net`): the game's shipped net, or one from a file ``ludothek train``
  wrote (for comparing before shipping); docs/LEARNED_EVAL.md.
* ``alphabeta_hand[:BUDGET]`` — the compiled alpha-beta with the hand-written evaluation
  alone (what ``alphabeta`` and the levels play today), named for the comparison.

* ``alphabeta_with:BUDGET[,NAME=VALUE]...`` — the compiled alpha-beta with some of the
  evaluation's weights set by hand (names: :data:`.eval_kernels.WEIGHT_NAMES`), for tuning
  the evaluation by self-play (``benchmarks/tune_eval.py``), e.g.
  ``alphabeta_with:3000,mobility=0.05,tempo=0.1``.
"""

from __future__ import annotations

import math

import numpy as np

from ...ai.alphabeta import AlphaBetaAgent
from ...ai.budget import Budget
from ...core.errors import OptionError
from . import search_kernels as K
from .eval_kernels import WEIGHT_NAMES
from .search import weights_of
from .texts import TEXTS
from . import net as N

_KERNEL_GAME = {"trigeo": K.TRIGEO, "hexalit": K.HEXALIT}


def alphabeta_with_factory(game: str, argument: str | None, seed: int | None) -> AlphaBetaAgent:
    budget_text, *assignments = (argument or "").split(",")
    budget = Budget(seconds=1.0) if not budget_text else Budget.parse(budget_text)
    named = weights_from(assignments)
    agent = AlphaBetaAgent(game, seed, budget, label="alphabeta_with", search_options={"weights": named})
    # the Python search too (Hexalit for stakes searches there): the same weights
    evaluate, w = agent.evaluate, weights_of({"weights": named}, _KERNEL_GAME[game])
    agent.evaluate = lambda state: evaluate(state, w)
    return agent


def weights_from(assignments: list[str]) -> dict[str, float]:
    found = {}
    for assignment in assignments:
        name, _, text = assignment.strip().partition("=")
        name = name.lower()
        if name not in WEIGHT_NAMES:
            raise OptionError(TEXTS("weight_name", agent="alphabeta_with", weight=repr(name),
                                    known=", ".join(WEIGHT_NAMES)))
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise OptionError(TEXTS("weight_value", agent="alphabeta_with", weight=name, text=repr(text)))
        found[name] = value
    return found


def alphabeta_hand_factory(game: str, argument: str | None, seed: int | None) -> AlphaBetaAgent:
    budget = Budget(seconds=1.0) if not argument else Budget.parse(argument)
    return AlphaBetaAgent(game, seed, budget, label="alphabeta_hand")


def alphabeta_net_factory(game: str, argument: str | None, seed: int | None) -> AlphaBetaAgent:
    budget_text, *rest = (argument or "").split(",")
    budget = Budget(seconds=1.0) if not budget_text else Budget.parse(budget_text)
    flat = None
    for part in rest:
        name, _, path = part.strip().partition("=")
        if name.lower() != "file" or not path:
            raise OptionError(TEXTS("net_option", agent="alphabeta_net", text=repr(part)))
        try:
            flat = N.pack(N.load(path))
        except (OSError, KeyError, ValueError) as exc:
            raise OptionError(TEXTS("net_file", path=path, error=exc)) from None
    if flat is None:
        flat = N.shipped_flat(game)
    agent = AlphaBetaAgent(game, seed, budget, label="alphabeta_net", search_options={"net": flat})
    agent.evaluate = net_evaluate(_KERNEL_GAME[game], weights_of({"net": flat}, _KERNEL_GAME[game]))
    return agent


def net_evaluate(kernel_game: int, w):
    """The Python search's evaluation (Hexalit's stakes) with the net: value for seat 0."""
    from ...boards import triangle66 as T
    from .kernels import JUMP_FIELDS_TRIGEO, NO_JUMPS

    jumps = JUMP_FIELDS_TRIGEO if kernel_game == K.TRIGEO else NO_JUMPS

    def evaluate(state) -> float:
        if state.is_over():
            return state.returns()[0]
        temp = getattr(state, "temp", None)
        if temp is None:
            temp = np.zeros(T.SIZE, np.bool_)
        v = float(K.static_value(kernel_game, state.board, temp, state.side, T.GEO, jumps, w))
        white = v if state.side == 0 else -v
        return white if state.seat_colour(0) == "white" else -white

    return evaluate
