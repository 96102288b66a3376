"""Trike knowledge: compiled playouts and evaluation over the game's kernels."""

from __future__ import annotations

import random

from . import kernels
from . import search_kernels


def _black_sign(state) -> float:
    """+1 if seat 0 plays Black (the kernels count for Black), else -1."""
    return 1.0 if state.seat_colour(0) == "black" else -1.0


def _position(state):
    return state.geometry.neighbours, state.board, int(state.pawn), int(state.colour_to_move), state._swap_allowed()


def random_rollout(state, rng: random.Random) -> float:
    neighbours, board, pawn, colour, swap = _position(state)
    _, black_wins = kernels.random_playouts(neighbours, board, pawn, colour, swap, 1, rng.getrandbits(31))
    return _black_sign(state) * (1.0 if black_wins else -1.0)


def rollout(state, rng: random.Random) -> float:
    neighbours, board, pawn, colour, swap = _position(state)
    black_wins = search_kernels.guided_playout(neighbours, board, pawn, colour, swap, rng.getrandbits(31))
    return _black_sign(state) * (1.0 if black_wins else -1.0)


def evaluate(state) -> float:
    if state.is_over():
        return state.returns()[0]
    neighbours, board, pawn, colour, _ = _position(state)
    mover = search_kernels.evaluate_mover(neighbours, board, pawn, colour)
    # the colour to move, as a sign for seat 0
    sign = _black_sign(state) * (1.0 if colour == 1 else -1.0)
    return sign * mover


def compiled_search(agent, state, clock):
    """The whole MCTS in a kernel once the pawn is placed (:mod:`.mcts3`, the swap decision
    included); ``None`` for Black's opening stone. The agent's ``exploration`` scales the
    kernel's tuned constant (1 keeps it); an agent may carry its own ``trike_settings``
    (``mcts_with``; ``mcts_v2``: :data:`.mcts3.V2`) or ask for the first kernel
    (``trike_search = "old"``: ``mcts_old``)."""
    from dataclasses import replace

    from . import mcts, mcts3

    chosen = getattr(agent, "trike_search", None)
    if chosen == "old":
        if not mcts.applicable(state):
            return None
        return mcts.search(state, clock, agent.rng, agent.exploration)
    settings = getattr(agent, "trike_settings", None)
    if settings is None:
        settings = replace(mcts3.DEFAULT, exploration=mcts3.DEFAULT.exploration * agent.exploration)
    if not mcts3.applicable(state, settings):
        return None
    if agent.analysing:
        settings = replace(settings, manage=False)
    kept = None
    if agent.reuse and settings.reuse:
        kept = getattr(agent, "trike_kept", None)
        if kept is None:
            kept = agent.trike_kept = mcts3.Kept()
    return mcts3.search(state, clock, agent.rng, settings, kept)


def warm_up() -> None:
    """Load the bots' compiled search (:mod:`.mcts3`: a tiny search on a small board; the
    ``mcts_v2`` agent runs the same kernel). The first kernel, kept for comparison
    (``mcts_old``), compiles on its first use: on a cold start it would double the bots' wait."""
    from .state import TrikeState
    from ...ai.budget import Budget
    from . import mcts3

    state = TrikeState(size=7)
    state.play("d2")
    kept = mcts3.Kept()
    mcts3.search(state, Budget(iterations=40).clock(), random.Random(0), kept=kept)  # the swap decision
    state.play("d3")
    state.play("d4")
    mcts3.search(state, Budget(iterations=4).clock(), random.Random(0), kept=kept)  # the tree kept: reroot
