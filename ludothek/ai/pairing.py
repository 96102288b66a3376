"""One game of a match: who plays it, from which opening, and how it ended.

Both games of a pair start from the same opening (``opening_plies`` uniformly random plies
drawn from the pair's seed; a game's spec says how many suit it) and see the same dice
stream; A takes seat 0 in the first game and seat 1 in the second. Every game is
reproducible from (match seed, game number).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.protocol import CHANCE
from ..core.registry import game_spec, new_game
from .base import make_agent
from .budget import Budget


@dataclass(frozen=True)
class MatchGame:
    game: str
    agent_a: str
    agent_b: str
    number: int  # 0-based; A sits in seat number % 2
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    position: str | None = None
    seconds_per_move: float | None = None
    opening_plies: int | None = None  # None: the game's own number


@dataclass
class GameResult:
    number: int
    a_seat: int
    score_a: float  # 1, 0.5 or 0
    plies: int
    moves: list[str] = field(default_factory=list)
    seconds: tuple[float, float] = (0.0, 0.0)  # thinking time of A and B
    result: str = "*"


def play_game(spec: MatchGame) -> GameResult:
    pair = spec.number // 2
    a_seat = spec.number % 2
    state = new_game(spec.game, spec.position, **dict(spec.options))
    opening = random.Random(f"{spec.seed}/opening/{pair}")
    plies = game_spec(spec.game).opening_plies if spec.opening_plies is None else spec.opening_plies
    dice = random.Random(f"{spec.seed}/dice/{pair}")
    for _ in range(plies):
        if state.is_over():
            break
        _step(state, None, opening, dice)
    agents = [None, None]
    for which, agent_spec in ((a_seat, spec.agent_a), (1 - a_seat, spec.agent_b)):
        agent = make_agent(agent_spec, spec.game, seed=hash((spec.seed, spec.number, which)) & 0x7FFFFFFF)
        if spec.seconds_per_move is not None and agent.budget is not None:
            agent.budget = Budget(seconds=spec.seconds_per_move)
        agents[which] = agent
    thinking = [0.0, 0.0]
    while not state.is_over():
        player = state.current_player()
        started = time.perf_counter()
        _step(state, agents[player] if player != CHANCE else None, opening, dice)
        if player != CHANCE:
            thinking[player] += time.perf_counter() - started
    returns = state.returns()
    score_a = (returns[a_seat] + 1) / 2
    return GameResult(spec.number, a_seat, score_a, state.ply, state.record_tokens(),
                      (thinking[a_seat], thinking[1 - a_seat]), state.result())


def _step(state, agent, opening: random.Random, dice: random.Random) -> None:
    if state.current_player() == CHANCE:
        actions, weights = zip(*state.chance_outcomes())
        state.play(dice.choices(actions, weights)[0])
    elif agent is None:
        state.play(opening.choice(state.legal_actions()))
    else:
        state.play(agent.choose(state))


def game_specs(game: str, agent_a: str, agent_b: str, n: int, seed: int, **extra: Any) -> list[MatchGame]:
    return [MatchGame(game, agent_a, agent_b, number, seed, **extra) for number in range(n)]
