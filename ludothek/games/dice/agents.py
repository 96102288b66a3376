"""The dice games' own agent (``GameSpec.agents``):

* ``alphabeta_with:BUDGET[,NAME=VALUE]...`` — the compiled alpha-beta with some of the
  evaluation's weights set by hand (names: :data:`.eval_kernels.WEIGHT_NAMES`), for tuning
  the evaluation by self-play (``benchmarks/tune_eval.py``), e.g.
  ``alphabeta_with:3000,mobility=0.05,tempo=0.1``.
"""

from __future__ import annotations

import math

from ...ai.alphabeta import AlphaBetaAgent
from ...ai.budget import Budget
from ...core.errors import OptionError
from . import search_kernels as K
from .eval_kernels import WEIGHT_NAMES
from .search import weights_of
from .texts import TEXTS

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
