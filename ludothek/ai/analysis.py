"""Position analysis for people: the strongest search of the game for a given budget,
candidate moves in notation with scores, and the expected line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.protocol import GameState
from .base import Agent, Analysis
from .budget import Budget
from .levels import agent_with_budget, level_of


@dataclass
class Report:
    agent: str
    analysis: Analysis
    moves: list[tuple[str, float, int]]  # (move, score for the mover, visits or 0)
    line: list[str]

    def to_json(self, state: GameState) -> dict[str, Any]:
        return {
            "game": state.name,
            "position": state.position(),
            "to_move": state.to_move,
            "agent": self.agent,
            "best": self.moves[0][0] if self.moves else None,
            "value": round(self.analysis.value, 4),
            "moves": [{"move": m, "score": round(s, 4), "visits": v} for m, s, v in self.moves],
            "line": self.line,
            "iterations": self.analysis.iterations,
            "seconds": round(self.analysis.seconds, 3),
            "depth": self.analysis.depth,
            "stopped": self.analysis.stopped,
        }


def strongest_agent(game: str, budget: Budget, seed: int | None) -> Agent:
    """The algorithm of the game's top level, with the given budget."""
    algorithm = level_of(game, 5).algorithm
    if algorithm == "alphabeta":
        from .alphabeta import AlphaBetaAgent

        return AlphaBetaAgent(game, seed, budget, exact_root=True)
    if algorithm == "mcts":
        from .mcts import MCTSAgent

        return _for_analysis(MCTSAgent(game, seed, budget))
    return _analysing(algorithm, game, seed, budget)  # the game's own (a solved table, a learned evaluation)


def _analysing(spec: str, game: str, seed: int | None, budget: Budget) -> Agent:
    return _for_analysis(agent_with_budget(spec, game, seed, budget))


def _for_analysis(agent: Agent) -> Agent:
    """``agent`` searching exact scores for every candidate (not bounds) and spending its whole
    time budget (not stopping once its move is settled)."""
    if hasattr(agent, "exact_root"):
        agent.exact_root = True
    if hasattr(agent, "analysing"):
        agent.analysing = True
    return agent


def analyse_position(state: GameState, budget: Budget, agent_spec: str | None = None,
                     seed: int | None = 1) -> Report:
    if agent_spec:
        agent = _analysing(agent_spec, state.name, seed, budget)
    else:
        agent = strongest_agent(state.name, budget, seed)
    analysis = agent.analyse(state)
    ranked = sorted(analysis.scores.items(),
                    key=lambda item: (item[0] != analysis.best, -analysis.visits.get(item[0], 0), -item[1]))
    moves = [(state.action_to_str(a), s, analysis.visits.get(a, 0)) for a, s in ranked]
    if not moves:
        moves = [(state.action_to_str(analysis.best), analysis.value, 0)]
    return Report(agent.name, analysis, moves, line_notation(state, analysis.line))


def line_notation(state: GameState, line: list[int]) -> list[str]:
    """The line as record tokens (a roll and its outcome make one token, marks included)."""
    work = state.copy()
    before = len(work.record_tokens())
    for action in line:
        if work.is_over() or action not in work.legal_actions():
            break
        work.play(action)
    return work.record_tokens()[before:]
