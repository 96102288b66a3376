"""Trike's own agents (``GameSpec.agents``):

* ``mcts_old[:BUDGET]`` — the first compiled MCTS (:mod:`.mcts`), the swap decided by the
  generic tree. ``mcts_old:4s`` is the old ``bot:5``, so the ladder can be measured against it.
* ``mcts_v2[:BUDGET]`` — the MCTS the bots used until December 2026 (solver, tree reuse, the
  swap in the kernel): today's :mod:`.mcts3` with its additions off (:data:`.mcts3.V2`), kept
  so that every later search can be measured against it (issue 34: ``mcts:200ms`` against
  ``mcts_v2:800ms``).
* ``mcts_with:BUDGET[,NAME=VALUE]...`` — the current MCTS (:mod:`.mcts3`) with its constants
  set by hand, for tuning (``c`` exploration, ``rave`` RAVE bias or ``off``, ``policy``
  -1/0/1/2/3/4, ``swap`` 0/1, ``reuse`` 0/1, ``bias`` progressive bias, ``fpu`` first-play
  urgency, ``solve`` the region size solved exactly at a new leaf and ``limit`` the positions
  it may take, ``rollout`` the region size solved exactly inside a playout, ``mix`` the
  weight of the heuristic evaluation in a new leaf's value, ``puct`` and ``reduction`` the
  PUCT selection, ``prior`` a prior's weights file, ``resist`` 0/1 the move played in a
  proven loss, ``book`` 0/1 side 7's opening book, ``manage`` 0/1 the time kept from decided
  moves for unsettled ones, :mod:`.timekeeping`, ``lend`` the budgets a move before the
  endgame thinks longer on credit, ``expand`` the visits a leaf is played out
  from before its children are made, ``fill`` 0/1 that visit count raised under a time budget
  so that the tree grows until the time is up),
  e.g. ``mcts_with:200ms,rave=off,policy=0`` or ``mcts_with:200ms,solve=0`` (today's search).
"""

from __future__ import annotations

from dataclasses import replace

from ...ai.budget import Budget
from ...ai.mcts import MCTSAgent
from ...core.errors import OptionError
from .mcts3 import DEFAULT, V2, Settings, load_prior
from .texts import TEXTS


def _budget(text: str | None) -> Budget:
    return Budget(seconds=1.0) if not text else Budget.parse(text)


def mcts_old_factory(game: str, argument: str | None, seed: int | None) -> MCTSAgent:
    agent = MCTSAgent(game, seed, _budget(argument), label="mcts_old")
    agent.trike_search = "old"  # read by knowledge.compiled_search
    return agent


def mcts_v2_factory(game: str, argument: str | None, seed: int | None) -> MCTSAgent:
    agent = MCTSAgent(game, seed, _budget(argument), label="mcts_v2")
    agent.trike_settings = V2  # read by knowledge.compiled_search
    return agent


def mcts_with_factory(game: str, argument: str | None, seed: int | None) -> MCTSAgent:
    budget_text, *assignments = (argument or "").split(",")
    settings = settings_from(assignments)
    if settings.prior is not None:
        load_prior(settings.prior)  # a file that is missing or not a prior is an error now, not at the first move
    agent = MCTSAgent(game, seed, _budget(budget_text), label="mcts_with")
    agent.trike_settings = settings
    return agent


def _flag(text: str) -> bool:
    """A 0/1 setting."""
    return bool(int(text))


def settings_from(assignments: list[str], base: Settings = DEFAULT) -> Settings:
    fields = {"c": ("exploration", float), "rave": ("rave_bias", float), "policy": ("policy", int),
              "swap": ("swap", _flag), "reuse": ("reuse", _flag),
              "bias": ("bias", float), "fpu": ("fpu", float),
              "solve": ("solve_size", int), "limit": ("solve_limit", int),
              "rollout": ("rollout_size", int), "mix": ("mix", float),
              "puct": ("puct", float), "reduction": ("reduction", float), "prior": ("prior", str),
              "resist": ("resist", _flag), "book": ("book", _flag),
              "manage": ("manage", _flag), "lend": ("lend", float), "expand": ("expand", int),
              "fill": ("fill", _flag)}
    changes = {}
    for assignment in assignments:
        key, _, text = assignment.strip().partition("=")
        key = key.lower()
        if key not in fields:
            raise OptionError(TEXTS("mcts_with_setting", agent="mcts_with", key=repr(key), known=", ".join(fields)))
        name, kind = fields[key]
        try:
            changes[name] = -1.0 if (key == "rave" and text.lower() == "off") else kind(text)
        except ValueError:
            raise OptionError(TEXTS("mcts_with_value", agent="mcts_with", key=key, text=repr(text))) from None
        if name == "expand" and changes[name] < 1:  # 0 would make every child of every new node at once
            raise OptionError(TEXTS("mcts_with_expand", agent="mcts_with", text=repr(text)))
        if name == "lend" and not 0.0 <= changes[name] <= 1.0:  # a move never thinks past twice its budget
            raise OptionError(TEXTS("mcts_with_lend", agent="mcts_with", text=repr(text)))
    return replace(base, **changes)
