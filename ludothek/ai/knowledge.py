"""Per-game knowledge for the searches: evaluation, playouts, move ordering.

A game's spec may name a knowledge module (``GameSpec.knowledge``, in the game's own
package) offering some of

* ``evaluate(state) -> float`` — a heuristic value for seat 0 in (-1, 1) (alpha-beta leaves);
* ``rollout(state, rng) -> float`` — a compiled playout (possibly guided), its result for
  seat 0 in [-1, 1] (MCTS leaves);
* ``random_rollout(state, rng) -> float`` — a compiled *uniformly random* playout;
* ``order(state, actions) -> list`` — actions in a promising order (alpha-beta);
* ``noisy(state, actions) -> list`` — the tactical actions (captures) a quiescence search
  follows beyond the horizon, best first;
* ``compiled_search(agent, state, clock) -> Analysis | None`` — the agent's whole MCTS in a
  kernel where the game can (``None``: use the Python tree here);
* ``compiled_alphabeta(agent, state, clock) -> Analysis | None`` — the alpha-beta agent's
  whole iterative deepening over a compiled search where the game can (``None``: use the
  Python search here; the agent ``alphabeta-py`` never asks);
* ``decide(state, agent) -> action | Analysis | None`` — the game's own decision, consulted
  by every searching agent before it searches (e.g. a doubling cube's double, take or drop
  by a cube-equity rule); ``None``: search as usual (see :func:`decided`);
* ``warm_up()`` — compile whatever the functions above do not reach on a first call;
* ``warm_parts() -> {name: function}`` — parts of ``warm_up``'s compiling that another process
  may do at the same time (see :func:`warm_parts`).

Whatever a game lacks comes from :mod:`.eval_generic` (slow, protocol-only fallbacks), so
every registered game gets every agent.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from ..core.registry import game_spec
from . import eval_generic
from .base import Analysis

_NAMES = ("evaluate", "rollout", "random_rollout", "order", "noisy", "compiled_search", "compiled_alphabeta",
          "decide")


@lru_cache(maxsize=None)
def knowledge(game: str) -> SimpleNamespace:
    spec = game_spec(game)
    module = eval_generic
    if spec.knowledge:
        try:
            module = spec.load("knowledge")
        except ImportError as exc:  # the game's kernels changed under its knowledge module
            warnings.warn(f"{spec.knowledge} does not import ({exc}); using slow generic playouts",
                          RuntimeWarning, stacklevel=2)
    found = {name: getattr(module, name, None) or getattr(eval_generic, name) for name in _NAMES}
    if getattr(module, "random_rollout", None) is None and getattr(module, "rollout", None) is not None:
        found["random_rollout"] = eval_generic.random_rollout
    return SimpleNamespace(module=module.__name__, **found)


def decided(state, agent):
    """The game's own decision for ``state`` (its knowledge's ``decide``) as an
    :class:`~ludothek.ai.base.Analysis`, or ``None``: the agent searches."""
    found = knowledge(state.name).decide(state, agent)
    if found is None:
        return None
    return found if isinstance(found, Analysis) else Analysis(best=int(found), line=[int(found)])


def warm_parts(game: str) -> dict[str, Callable[[], None]]:
    """Pieces of ``game``'s warm-up, by name, each compiling kernels that its ``warm_up`` compiles
    too (through a large search that calls them). A process warming up beside the one that runs
    ``warm_up`` may run them meanwhile: the per-kernel compile lock (:mod:`ludothek.core.njit`)
    keeps the two from compiling a kernel twice, so the search's compile is shared between two
    cores. Empty for a game without them."""
    parts = getattr(importlib.import_module(knowledge(game).module), "warm_parts", None)
    return parts() if parts is not None else {}


_WARM: set[tuple[str, object]] = set()


def warm_up(state, rollout: Any = None, evaluate: bool = False) -> None:
    """Compile (or load from numba's cache) a game's kernels once per process, before an
    agent starts its clock: the first call can take seconds and must not eat the budget.
    The game's own ``warm_up`` (its compiled searches), the evaluation if ``evaluate`` (only a
    search in Python calls it), and the playout ``rollout`` if the agent plays them out (MCTS:
    its own kind only). On a cold start each of these costs seconds to compile."""
    wanted = ("search", "evaluate" if evaluate else None, rollout)
    parts = [part for part in wanted if part is not None and (state.name, part) not in _WARM]
    if not parts:
        return
    _WARM.update((state.name, part) for part in parts)
    import random

    info = knowledge(state.name)
    work = state.copy()
    if "search" in parts:
        module_warm_up = getattr(importlib.import_module(info.module), "warm_up", None)
        if module_warm_up is not None:
            module_warm_up()
    if "evaluate" in parts and not work.is_over():
        info.evaluate(work)
    if rollout in parts and not work.is_over():
        rollout(work, random.Random(0))
