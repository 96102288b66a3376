"""Bot moves, computed in a worker process (or thread) so that the event loop never waits."""

from __future__ import annotations

from typing import Any


def compute_bot_action(args: dict[str, Any]) -> int:
    """Replay the game from its stored actions and ask the agent for an action."""
    from ..ai.base import make_agent
    from ..core.registry import game_class

    state = game_class(args["game"])(args["position"], **args["options"])
    for action in args["actions"]:
        state.play(int(action))
    agent = make_agent(args["agent"], args["game"], seed=args["seed"])
    return int(agent.choose(state))
