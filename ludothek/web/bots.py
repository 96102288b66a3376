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


def compute_review(args: dict[str, Any]) -> dict[str, Any]:
    """A part of a finished game's computer analysis (:mod:`ludothek.ai.review`): the plies of
    ``args["span"]``, as JSON."""
    from ..ai.review import review_game
    from ..core.registry import game_class

    start = game_class(args["game"])(args["position"], **args["options"])
    first, last = args["span"]
    review = review_game(start, [int(a) for a in args["actions"]], args.get("budget"), seed=args.get("seed", 1),
                         span=(int(first), int(last)))
    return review.to_json()
