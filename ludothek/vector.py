"""Batched games for research: N games of one game stepped in one compiled call.

A game offers this in a module ``vector`` of its own package, with a class named
``<Title>Vector`` (``reset()`` -> observations, legal masks; ``step(actions)`` ->
observations, rewards, terminations, legal masks, as numpy arrays; auto-reset as
Gymnasium's ``SAME_STEP``). Its module documents the arrays. Here they are found by name::

    from ludothek.vector import TrikeVector   # or: make("<game>", 1024, size=13)

All four games have it (see ``docs/VECTOR.md``); a game that can be cut by a move limit
also returns ``truncations`` (after ``terminations``), as its module documents.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from .core import compile_notice
from .core.registry import game_spec, games


def _vector_module(game: str) -> ModuleType | None:
    package = game_spec(game).state.partition(":")[0].rpartition(".")[0]
    try:
        return import_module(f"{package}.vector")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.vector":
            raise
        return None


def vector_class(game: str) -> type:
    """The batched class of ``game``; ``ValueError`` if the game has none."""
    module = _vector_module(game)
    classes = [getattr(module, name) for name in getattr(module, "__all__", ())]
    if not classes:
        offered = ", ".join(g for g in games() if _vector_module(g) is not None)
        raise ValueError(f"{game!r} has no batched API (offered by: {offered})")
    return classes[0]


def make(game: str, n: int, **options: Any) -> Any:
    """``n`` games of ``game`` with these options (``size``, ``seed``, ``parallel``, ...). In a
    terminal, a first use says when it compiles the game's kernels."""
    compile_notice.install(only_terminal=True)
    return vector_class(game)(n, **options)


def warm(game: str) -> None:
    """Compile (or load from the cache) ``game``'s batched kernels, stepped one game after the
    other and in parallel (``ludothek warm``); nothing for a game without a batched API."""
    if _vector_module(game) is None:
        return
    for parallel in (False, True):
        batch = make(game, 8, parallel=parallel)
        batch.reset(seed=0)
        for _ in range(3):
            batch.step(batch.sample_actions())


def __getattr__(name: str) -> Any:
    if name.endswith("Vector"):
        for game in games():
            module = _vector_module(game)
            if module is not None and name in getattr(module, "__all__", ()):
                return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
