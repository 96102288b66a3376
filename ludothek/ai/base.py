"""The agent interface shared by every bot, and the registry of agent names.

An agent gets a state and returns a legal action. Agents are deterministic under their seed
when their budget counts iterations (a time budget depends on the machine).

Agent specs: ``random``, ``bot:1`` .. ``bot:8`` (levels for people), ``mcts[:BUDGET]``
(chance-aware UCT with the game's compiled playouts), ``uct[:BUDGET]`` (plain UCT, random
playouts, the reference), ``alphabeta[:BUDGET]`` (iterative deepening alpha-beta or
expectiminimax with the game's evaluation, in the game's compiled kernel where it has one),
``alphabeta-py[:BUDGET]`` (the same search always in Python, the reference); BUDGET is
``2s``, ``500ms``, ``800`` or ``20k``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameOver, IllegalMove, OptionError, ParseError
from ..core.protocol import CHANCE, TERMINAL, GameState
from ..core.registry import game_spec, games
from ..core.spec import load_target
from ..core.texts import TEXTS, result_word
from .budget import Budget


@dataclass
class Analysis:
    """What an agent thinks of a position: the chosen action, a score per candidate action
    (from the mover's point of view, in [-1, 1]) and the expected line."""

    best: int
    scores: dict[int, float] = field(default_factory=dict)
    line: list[int] = field(default_factory=list)
    #: the score of ``best`` (mover's view, [-1, 1])
    value: float = 0.0
    #: MCTS simulations or alpha-beta nodes spent, and wall time
    iterations: int = 0
    seconds: float = 0.0
    #: alpha-beta: deepest completed depth; MCTS: visits per candidate action
    depth: int = 0
    visits: dict[int, int] = field(default_factory=dict)
    #: why a search stopped before its budget ran out: "decided" (a forced win or loss found),
    #: "proven" (MCTS proved the result), "next_depth" (alpha-beta: the next depth would not
    #: finish in the time left), "exhausted" (the whole tree searched), "max_depth", "settled"
    #: (an MCTS with time keeping: no other move could overtake the best in the time left); None:
    #: it spent its budget
    stopped: str | None = None
    #: why the move was given more than its time budget (a critical turn, :mod:`.timing`; an
    #: unsettled one, on time a game's own MCTS saved before)
    critical: str | None = None


class Agent:
    name = "agent"

    def __init__(self, seed: int | None = None, budget: Budget | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget
        #: the clock a time budget is read from (tests give the agent a fake one)
        self.now = time.perf_counter

    def reset(self) -> None:
        """Forget anything kept between moves (call before a new game)."""

    def choose(self, state: GameState) -> int:
        """A legal action for the player to move in ``state`` (not a chance node)."""
        self.check_turn(state)
        return self.analyse(state).best

    def check_turn(self, state: GameState) -> None:
        """Refuse a state where this agent cannot act: :class:`GameOver` when the game is
        over, :class:`IllegalMove` at a chance node, :class:`OptionError` for another game."""
        if not isinstance(state, GameState):
            raise ParseError(TEXTS("agent_state", agent=repr(self.name), kind=type(state).__name__))
        game = getattr(self, "game", None)
        if isinstance(game, str) and game.strip().lower() != state.name:
            raise OptionError(TEXTS("agent_game", agent=repr(self.name), made=game, game=state.name))
        player = state.current_player()
        if player == TERMINAL:
            raise GameOver(TEXTS("agent_over", agent=repr(self.name), result=result_word(state.result())))
        if player == CHANCE:
            raise IllegalMove(TEXTS("agent_chance", agent=repr(self.name)))

    def analyse(self, state: GameState) -> Analysis:
        raise NotImplementedError


class RandomAgent(Agent):
    """Plays uniformly at random among the legal actions."""

    name = "random"

    def analyse(self, state: GameState) -> Analysis:
        self.check_turn(state)
        return Analysis(best=self.rng.choice(state.legal_actions()))


# agent name -> "module:factory"; a factory takes (game name, argument or None, seed).
# A game's spec may add agents of its own (``GameSpec.agents``, e.g. a solved game's table).
_AGENTS: dict[str, str] = {
    "random": "ludothek.ai.base:_random_factory",
    "bot": "ludothek.ai.factories:bot_factory",
    "mcts": "ludothek.ai.factories:mcts_factory",
    "uct": "ludothek.ai.factories:uct_factory",
    "alphabeta": "ludothek.ai.factories:alphabeta_factory",
    "alphabeta-py": "ludothek.ai.factories:alphabeta_py_factory",
}


def _random_factory(game: str, argument: str | None, seed: int | None) -> Agent:
    if argument:
        raise OptionError(TEXTS("agent_random_argument", argument=repr(argument)))
    return RandomAgent(seed)


def agent_names(game: str | None = None, own: bool = True) -> list[str]:
    """Agents that play ``game`` (every game: ``None``); with ``own=False`` only the agents
    that play every game, without those a game's spec adds."""
    names = set(_AGENTS)
    if own:
        for name in [game] if game is not None else games():
            names.update(game_spec(name).agents)
    return sorted(names)


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """An agent from a spec such as ``random``, ``mcts:500`` or ``bot:3``."""
    name, _, argument = str(spec).strip().partition(":")
    name = name.lower()  # (the argument keeps its case: a file's path may need it)
    target = _AGENTS.get(name) or game_spec(game).agents.get(name)
    if target is None:
        if name in agent_names():
            players = [g for g in games() if name in game_spec(g).agents]
            raise OptionError(TEXTS("agent_only", agent=repr(name), games=", ".join(players), game=game))
        raise OptionError(TEXTS("agent_unknown", spec=repr(spec), known=", ".join(agent_names())))
    function: Any = load_target(target)
    return function(game, argument or None, seed)
