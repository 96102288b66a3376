"""Puzzles: positions where exactly one move wins or saves the game (docs/PUZZLES.md).

A puzzle is a decision position (never a chance node: a roll is already known), its one
solution move and how that was proven. :func:`judge` decides whether a position is a puzzle
by an exhaustive search of a few plies (:func:`forced`), or by the game's own judge when its
spec names one (``puzzle_judge``, e.g. a solved game's table). :func:`mine` plays games
between strong bots and keeps the positions :func:`judge` accepts.

The search is exact, not a heuristic: :func:`forced` looks at every move and every chance
outcome up to its depth, so "wins within 3 plies" is a proof.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..core.protocol import CHANCE, TERMINAL, GameState
from ..core.registry import game_class, game_spec
from ..core.spec import load_target

#: the plies the search looks beyond the solution to show that no other move is as good
MARGIN = 2
#: a first guess at a puzzle's rating by its kind, before people have tried it
START_RATING = {("win", 1): 1200.0, ("save", 2): 1500.0, ("win", 3): 1700.0}


def forced(state: GameState, seat: int, plies: int, cache: dict | None = None) -> bool:
    """Whether ``seat`` wins by force within ``plies`` decision plies (moves of either side;
    chance outcomes do not count as plies but every outcome must lose for the other side too)."""
    if cache is None:
        cache = {}
    player = state.current_player()
    if player == TERMINAL:
        return state.returns()[seat] > 0
    if player == CHANCE:
        for action, p in state.chance_outcomes():
            if p <= 0:
                continue
            state.apply_action(action)
            ok = forced(state, seat, plies, cache)
            state.undo()
            if not ok:
                return False
        return True
    if plies <= 0:
        return False
    key = (state.key(), seat, plies)
    known = cache.get(key)
    if known is not None:
        return known
    mine = player == seat
    result = not mine  # a search over no moves: the mover cannot escape / cannot win
    for action in state.legal_actions():
        state.apply_action(action)
        ok = forced(state, seat, plies - 1, cache)
        state.undo()
        if mine and ok:
            result = True
            break
        if not mine and not ok:
            result = False
            break
    cache[key] = result
    return result


def _after(state: GameState, action: int, test: Callable[[GameState], bool]) -> bool:
    state.apply_action(action)
    try:
        return test(state)
    finally:
        state.undo()


def search_judge(state: GameState) -> dict[str, Any] | None:
    """The puzzle in ``state`` by exhaustive search, or ``None``. Tried in this order:

    * ``win`` in 1: exactly one move wins at once, and no other move forces a win within
      1 + MARGIN plies;
    * ``save`` in 2: every move but one lets the opponent win at once, and after that one the
      opponent cannot force a win within 2 + MARGIN plies;
    * ``win`` in 3: exactly one move forces a win within 3 plies (and none wins at once).
    """
    seat = state.current_player()
    if seat < 0:
        return None
    actions = state.legal_actions()
    if len(actions) < 2:
        return None
    cache: dict = {}
    other = 1 - seat
    at_once = [a for a in actions if _after(state, a, lambda s: forced(s, seat, 0, cache))]
    if len(at_once) > 1:
        return None
    if len(at_once) == 1:
        solution = at_once[0]
        if any(_after(state, a, lambda s: forced(s, seat, MARGIN, cache)) for a in actions if a != solution):
            return None
        return _found(state, solution, "win", 1)
    losing = [a for a in actions if _after(state, a, lambda s: forced(s, other, 1, cache))]
    if len(losing) == len(actions) - 1:
        solution = next(a for a in actions if a not in losing)
        if _after(state, solution, lambda s: forced(s, other, 1 + MARGIN, cache)):
            return None
        return _found(state, solution, "save", 2)
    in_three = []
    for a in actions:
        if _after(state, a, lambda s: forced(s, seat, 2, cache)):
            in_three.append(a)
            if len(in_three) > 1:
                return None
    if len(in_three) == 1:
        return _found(state, in_three[0], "win", 3)
    return None


def _found(state: GameState, action: int, kind: str, depth: int) -> dict[str, Any]:
    move = state.action_to_str(action)
    return {"solution": move, "accepted": [move], "kind": kind, "depth": depth}


def judge(state: GameState) -> dict[str, Any] | None:
    """The puzzle in ``state`` by the game's own judge if its spec names one, else by
    :func:`search_judge`: ``{"solution": move, "accepted": [moves], "kind": "win"|"save"|"draw",
    "depth": plies}`` (``accepted``: every answer counted right, the solution first)."""
    spec = game_spec(state.name)
    if spec.puzzle_judge:
        return load_target(spec.puzzle_judge)(state)
    return search_judge(state)


def puzzle_id(position: str) -> str:
    return hashlib.sha1(position.encode("utf-8")).hexdigest()[:10]


def make_puzzle(state: GameState, found: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    position = state.position()
    rating = START_RATING.get((found["kind"], min(found["depth"], 3)), 1500.0)
    return {"id": puzzle_id(position), "position": position, **found, "rating": rating, "source": source}


# ---------------------------------------------------------------------------- the miner
def _agent(game: str, spec: str, seed: int):
    from .base import make_agent

    return make_agent(spec, game, seed)


def play_out(game: str, agents: tuple[str, str], seed: int, random_plies: int) -> GameState:
    """One game between ``agents`` (the first ``random_plies`` moves random, for variety;
    chance outcomes drawn by the seed), played to its end."""
    cls = game_class(game)
    rng = random.Random(seed)
    players = [_agent(game, agents[0], seed), _agent(game, agents[1], seed + 1)]
    state = cls()
    while not state.is_over():
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        elif state.ply < random_plies:
            action = rng.choice(state.legal_actions())
        else:
            action = players[player].choose(state)
        state.play(action)
    return state


def candidates(game: str, played: GameState, window: int, branch: bool) -> Iterator[GameState]:
    """The decision positions of the last ``window`` plies of a played game, latest first, each
    set up afresh from its position string (as a puzzle will be: no history); with ``branch``
    also the positions one other move away from each of them."""
    cls = game_class(game)
    replay = cls()
    positions = []
    for action in played.history:
        positions.append(replay.position())
        replay.apply_action(action)
    states = []
    for position in reversed(positions[-window:]):
        state = cls(position)
        if state.current_player() >= 0:
            states.append(state)
    seen = set()
    for state in states:  # the game's own positions first
        seen.add(state.position())
        yield state
    if not branch:
        return
    for state in states:
        for action in state.legal_actions():
            child = state.copy()
            child.apply_action(action)
            if child.current_player() >= 0 and child.position() not in seen:
                seen.add(child.position())
                yield cls(child.position())


def mine_game(game: str, agents: tuple[str, str], seed: int, random_plies: int, window: int = 30,
              branch: bool = False) -> Iterator[dict[str, Any]]:
    """Play one game (:func:`play_out`) and yield the puzzles among its :func:`candidates`."""
    played = play_out(game, agents, seed, random_plies)
    for state in candidates(game, played, window, branch):
        found = judge(state)
        if found:
            yield make_puzzle(state, found, {"seed": seed, "agents": list(agents)})


def load_set(path: Path) -> dict[str, Any]:
    """A puzzle file to extend ({} if there is none); ValueError if it is not one."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text("utf-8"))
    mined = data.get("mined") if isinstance(data, dict) else None
    if (not isinstance(mined, dict) or not isinstance(data.get("puzzles"), list)
            or not isinstance(mined.get("games"), int) or not isinstance(mined.get("next_seed"), int)):
        raise ValueError("not a puzzle file (a JSON object with \"game\", \"puzzles\" and \"mined\")")  # noqa: TRY004 - a bad file
    return data


def save_set(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
    tmp.replace(path)


def mine(game: str, out: Path, count: int, games: int, seed: int, agents: tuple[str, str], random_plies: int,
         per_game: int = 3, window: int = 30, branch: bool = False, progress: Callable[[int, int, int], None] | None = None) -> dict[str, Any]:
    """Mine puzzles into ``out`` (kept after every game, so a stopped run resumes where it
    stopped): until the file holds ``count`` puzzles or ``games`` more games were played.
    At most ``per_game`` puzzles are kept from one game (so a set is not one game's ending)."""
    data = load_set(out)
    if data and data.get("game") != game:
        raise ValueError(f"{out} holds puzzles of {data.get('game')!r}, not {game!r}")
    data.setdefault("game", game)
    data.setdefault("puzzles", [])
    data.setdefault("mined", {"games": 0, "next_seed": seed})
    data["mined"]["agents"] = list(agents)
    data["mined"].update(random_plies=random_plies, window=window, branch=branch, per_game=per_game)
    known = {p["id"] for p in data["puzzles"]}
    played = 0
    while len(data["puzzles"]) < count and played < games:
        game_seed = data["mined"]["next_seed"]
        kept = 0
        for puzzle in mine_game(game, agents, game_seed, random_plies, window, branch):
            if puzzle["id"] in known:
                continue
            known.add(puzzle["id"])
            data["puzzles"].append(puzzle)
            kept += 1
            if kept >= per_game or len(data["puzzles"]) >= count:
                break
        played += 1
        data["mined"]["games"] += 1
        data["mined"]["next_seed"] = game_seed + 1
        save_set(out, data)
        if progress:
            progress(len(data["puzzles"]), played, kept)
    return data


def verify(puzzle: dict[str, Any], game: str) -> str | None:
    """What is wrong with a puzzle of ``game`` (``None`` if nothing): its position must parse,
    its solution be legal, and the judge must find the same solution in it today."""
    cls = game_class(game)
    try:
        state = cls(puzzle["position"])
    except Exception as exc:  # noqa: BLE001 - said, not raised
        return f"position does not parse: {exc}"
    if state.position() != puzzle["position"]:
        return "position is not canonical"
    if state.current_player() < 0:
        return "not a decision position"
    try:
        for move in puzzle["accepted"]:
            state.copy().play(move)
    except Exception as exc:  # noqa: BLE001
        return f"solution is not legal: {exc}"
    found = judge(state)
    if not found:
        return "no unique solution"
    if sorted(found["accepted"]) != sorted(puzzle["accepted"]) or found["kind"] != puzzle["kind"]:
        return f"the judge finds {found}"
    return None
