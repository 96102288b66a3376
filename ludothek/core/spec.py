"""What a game package declares about itself: a :class:`GameSpec`.

A game is a package that publishes one ``GameSpec`` under the ``ludothek.games``
entry-point group (see :mod:`.registry`). The spec names the parts the package provides as
``"module:attribute"`` texts, imported only when a consumer asks for that part, so listing
the games stays cheap. Everything outside the game's package (the bots, the web app, the
research integrations, the command line) reaches a game only through its spec and its state
class (:class:`~ludothek.core.protocol.GameState`).

Parts (all optional except ``state``):

* ``state`` — the state class, a :class:`GameState` subclass.
* ``render`` — a function ``(state, lang) -> str or rich renderable``: the board in the terminal,
  its legend in ``lang`` (``en`` or ``de``) (:meth:`GameState.render`; without it, the position
  string).
* ``texts`` — the game's :class:`~ludothek.core.messages.Catalog` (its error messages in English
  and German).
* ``knowledge`` — a module with search hooks (``evaluate``, ``rollout``, ``random_rollout``,
  ``order``, ``noisy``, ``compiled_search``, ``compiled_alphabeta``, ``warm_up``; see
  :mod:`ludothek.ai.knowledge`).
* ``levels`` — the bot levels that differ from the default ladder:
  ``{level: (algorithm, {"iterations": n} or {"seconds": s})}``; a time budget may add
  ``"critical": f`` (up to ``f`` times as long on a critical turn, ``f`` ≤ 2, see
  :mod:`ludothek.ai.timing`).
* ``agents`` — extra agents of this game, ``{name: "module:factory"}`` (a factory takes the
  game name, the agent's argument or ``None``, and a seed).
* ``board`` — the web board adapter class (:class:`ludothek.web.boards.Adapter`).
* ``observation`` — the observation encoder class
  (:class:`ludothek.integrations.observe.Encoder`).
* ``picture`` — a function ``state -> uint8 array (height, width, 3)``.
* ``rules`` — the rules page, a JSON file in the game's package (``"package:file"``).
* ``lessons`` — the interactive lessons of ``/learn``, a JSON file in the game's package
  (``"package:file"``; its format: :mod:`ludothek.web.lessons`).
* ``solver`` — a function ``(console, output_path or None)`` for ``ludothek solve``: solves the
  game outright with a progress display on a rich console and writes the table if asked.
* ``hint`` — how to type a move, ``{"en": ..., "de": ...}``.
* ``endings`` — the words for each way the rules end a game: ``{key: {"en": ..., "de": ...}}``
  for every key :meth:`GameState.ending` returns (shown when a game ends).
* ``draws`` — whether the game can end in a draw (players may then agree to one online).
* ``opening_plies`` — random plies that open each pair of games in ``ludothek match``.
* ``order`` — the game's place in lists shown to people (smaller first).
* ``puzzles`` — the game's shipped puzzle set, a JSON file in its package (``"package:file"``),
  mined by ``ludothek puzzles mine`` (see docs/PUZZLES.md).
* ``puzzle_judge`` — a function ``state -> dict or None`` that decides whether a position is a
  puzzle (its one solution), replacing the generic search (e.g. a solved game's table).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Mapping

from .errors import LudothekError
from .texts import TEXTS

PARTS = ("state", "render", "texts", "knowledge", "board", "observation", "picture", "solver")


@dataclass(frozen=True)
class GameSpec:
    name: str
    state: str
    render: str | None = None
    texts: str | None = None
    knowledge: str | None = None
    levels: Mapping[int, tuple[str, Mapping[str, float]]] = field(default_factory=dict)
    agents: Mapping[str, str] = field(default_factory=dict)
    board: str | None = None
    observation: str | None = None
    picture: str | None = None
    rules: str | None = None
    lessons: str | None = None
    solver: str | None = None
    hint: Mapping[str, str] = field(default_factory=dict)
    endings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    draws: bool = True
    opening_plies: int = 2
    order: int = 100
    puzzles: str | None = None
    puzzle_judge: str | None = None
    #: ``ludothek train GAME``: a function ``(game, settings, progress) -> summary`` that
    #: trains the game's learned evaluation ("module:function"), if it has one
    trainer: str | None = None

    def __post_init__(self) -> None:
        if not self.name or not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"a game's name must be a lower-case identifier, not {self.name!r}")

    def has(self, part: str) -> bool:
        return bool(getattr(self, part))

    def load(self, part: str) -> Any:
        """The object a part names (``"module:attribute"``, or a module for ``knowledge``)."""
        if part not in PARTS:
            raise ValueError(f"unknown part {part!r} (parts: {', '.join(PARTS)})")
        target = getattr(self, part)
        if not target:
            raise LudothekError(TEXTS("no_part", game=repr(self.name), part=part))
        return load_target(target)

    def puzzle_set(self) -> dict[str, Any] | None:
        """The shipped puzzle set (``{"game": name, "puzzles": [...], "mined": {...}}``), if any."""
        return _json_part(self.puzzles)

    def rules_page(self) -> dict[str, Any] | None:
        """The rules page (``{"title": {lang: text}, "en": [...], "de": [...]}``), if any."""
        return _json_part(self.rules)

    def lessons_page(self) -> dict[str, Any] | None:
        """The lessons (``{"steps": [...]}``, see :mod:`ludothek.web.lessons`), if any."""
        return _json_part(self.lessons)


def _json_part(target: str | None) -> dict[str, Any] | None:
    """A JSON file in a game's package, named ``"package:file"``."""
    if not target:
        return None
    package, _, name = target.partition(":")
    return json.loads(resources.files(package).joinpath(name).read_text("utf-8"))


def load_target(target: str) -> Any:
    """``"module:attribute"`` -> the attribute; ``"module"`` -> the module."""
    module, _, attribute = target.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
