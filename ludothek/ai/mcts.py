"""Monte Carlo tree search (UCT) over the game protocol, aware of chance.

* The tree walks the game state with its own apply/undo (:mod:`.walk`).
* Leaves are valued by a playout — normally the game's compiled kernel (:mod:`.knowledge`).
* Chance nodes (dice rolls) hold one child per outcome; the search visits outcomes in
  proportion to their probabilities (deterministically, by the largest deficit), so a
  chance node's value is the probability-weighted average. The real dice are never seen:
  the agent only decides at the player's own nodes.
* Values are stored for seat 0; a player picks children by his own sign.
* Optional *solver*: terminal wins and losses are propagated as proven values, so a forced
  win is played and a proven loss is avoided while any other move exists.
* Optional *tree reuse*: the subtree of the position actually reached is kept between moves.
"""

from __future__ import annotations

import math
from typing import Callable

from ..core.protocol import CHANCE, TERMINAL, GameState
from .base import Agent, Analysis
from .budget import Budget
from .knowledge import decided, knowledge, warm_up
from .walk import search_copy

Rollout = Callable[[GameState, object], float]


class Node:
    __slots__ = ("player", "actions", "probs", "untried", "children", "n", "w", "proven")

    def __init__(self, state: GameState, rng) -> None:
        self.player = state.current_player()
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0  # sum of simulation values for seat 0
        self.proven: float | None = None  # a proven value for seat 0
        self.probs: dict[int, float] | None = None
        if self.player == TERMINAL:
            self.actions = []
            self.untried = []
            self.proven = state.returns()[0]
        elif self.player == CHANCE:
            self.probs = dict(state.chance_outcomes())
            self.actions = list(self.probs)
            self.untried = []
        else:
            self.actions = state.legal_actions()
            self.untried = list(self.actions)
            rng.shuffle(self.untried)


class MCTSAgent(Agent):
    name = "mcts"

    def __init__(self, game: str, seed: int | None = None, budget: Budget | None = None, *,
                 exploration: float = 1.0, rollout: Rollout | None = None, solver: bool = True,
                 reuse: bool = True, compiled: bool = True, label: str | None = None):
        super().__init__(seed, budget or Budget(iterations=2000))
        self.game = game
        self.exploration = exploration
        self.rollout = rollout or knowledge(game).rollout
        self.solver = solver
        self.reuse = reuse
        #: an analysis for a person (not a move in a game): a time budget is spent in full
        self.analysing = False
        #: run the whole search in the game's kernel where it has one (same algorithm)
        self.compiled = compiled and rollout is None
        if label:
            self.name = label
        self._root: Node | None = None
        self._root_history: list[int] = []
        self._root_setup: object = None

    def reset(self) -> None:
        self._root = None
        self._root_history = []

    # ------------------------------------------------------------------ the search
    def analyse(self, state: GameState) -> Analysis:
        self.check_turn(state)
        found = decided(state, self)  # the game's own decision (e.g. the doubling cube)
        if found is not None:
            return found
        warm_up(state, self.rollout)
        clock = self.budget.clock(self.now)
        if self.compiled:
            found = knowledge(self.game).compiled_search(self, state, clock)
            if found is not None:
                self._root = None
                return found
        work = search_copy(state)
        root = self._reused_root(state) or Node(work, self.rng)
        stopped = None
        while not clock.done():
            if root.proven is not None and root.children:
                # decided: a proven win needs no more search, a proven loss gets a few
                # visits so the least bad move stands out
                if self._side(root) * root.proven > 0 or clock.count > 200:
                    stopped = "proven"
                    break
            self._simulate(root, work)
            clock.tick()
        self._keep(state, root)
        report = self._report(root, clock)
        report.stopped = stopped
        return report

    def _simulate(self, root: Node, state: GameState) -> None:
        path = [root]
        node = root
        depth = 0
        value: float
        while True:
            if node.proven is not None and (node.player == TERMINAL or node is not root):
                value = node.proven
                break
            if node.player == CHANCE:
                action = self._pick_outcome(node)
                state.apply_action(action)
                depth += 1
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node(state, self.rng)
                    path.append(child)
                    value = child.proven if child.proven is not None else self.rollout(state, self.rng)
                    break
                node = child
                path.append(node)
                continue
            if node.untried:
                action = node.untried.pop()
                state.apply_action(action)
                depth += 1
                child = node.children[action] = Node(state, self.rng)
                path.append(child)
                value = child.proven if child.proven is not None else self.rollout(state, self.rng)
                break
            action = self._pick_child(node)
            state.apply_action(action)
            depth += 1
            node = node.children[action]
            path.append(node)
        for _ in range(depth):
            state.undo()
        for visited in path:
            visited.n += 1
            visited.w += value
        if self.solver and path[-1].proven is not None:
            self._prove(path)

    def _side(self, node: Node) -> float:
        return 1.0 if node.player == 0 else -1.0

    def _pick_child(self, node: Node) -> int:
        side = self._side(node)
        log_n = math.log(node.n)
        c = self.exploration
        best_action, best_score = -1, -math.inf
        for action, child in node.children.items():
            if child.proven is not None:
                if self.solver:
                    mine = side * child.proven
                    if mine > 0:
                        return action
                    if mine < 0:
                        score = -10.0 + child.n * 1e-9  # a proven loss: only if nothing else
                        if score > best_score:
                            best_action, best_score = action, score
                        continue
            score = side * child.w / child.n + c * math.sqrt(log_n / child.n)
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    @staticmethod
    def _pick_outcome(node: Node) -> int:
        total = node.n + 1
        best_action, best_deficit = -1, -math.inf
        for action, p in node.probs.items():  # type: ignore[union-attr]
            child = node.children.get(action)
            deficit = p * total - (child.n if child is not None else 0)
            if deficit > best_deficit:
                best_action, best_deficit = action, deficit
        return best_action

    def _prove(self, path: list[Node]) -> None:
        """Propagate a newly proven leaf towards the root while parents become proven."""
        for parent in reversed(path[:-1]):
            if parent.proven is not None:
                return
            if parent.player == CHANCE:
                if len(parent.children) < len(parent.actions):
                    return
                values = {child.proven for child in parent.children.values()}
                if None in values or len(values) != 1:
                    return
                parent.proven = values.pop()
                continue
            side = self._side(parent)
            best = None
            for child in parent.children.values():
                if child.proven is not None and side * child.proven > 0:
                    best = child.proven
                    break
            if best is None:
                if parent.untried:
                    return
                values = [child.proven for child in parent.children.values()]
                if any(v is None for v in values):
                    return
                best = max(values, key=lambda v: side * v)  # type: ignore[arg-type]
            parent.proven = best

    # ------------------------------------------------------------------ results
    def _best_action(self, node: Node) -> int:
        side = self._side(node)
        if self.solver:
            for action, child in node.children.items():
                if child.proven is not None and side * child.proven > 0:
                    return action

        def rank(item):
            action, child = item
            lost = self.solver and child.proven is not None and side * child.proven < 0
            return (not lost, child.n, side * child.w / max(child.n, 1))

        return max(node.children.items(), key=rank)[0]

    def _report(self, root: Node, clock) -> Analysis:
        if not root.children:  # no simulation at all (tiny budget): any legal move
            best = root.untried[-1] if root.untried else root.actions[0]
            return Analysis(best=best, iterations=clock.count, seconds=clock.elapsed())
        side = self._side(root)
        scores, visits = {}, {}
        for action, child in root.children.items():
            if child.proven is not None:
                scores[action] = side * child.proven
            else:
                scores[action] = side * child.w / max(child.n, 1)
            visits[action] = child.n
        best = self._best_action(root)
        line = [best]
        node = root.children[best]
        while node.children and len(line) < 30:
            if node.player == CHANCE:
                break  # the line cannot know the roll
            action = self._best_action(node)
            line.append(action)
            node = node.children[action]
        return Analysis(best=best, scores=scores, line=line, value=scores[best], iterations=clock.count,
                        seconds=clock.elapsed(), depth=len(line), visits=visits)

    # ------------------------------------------------------------------ tree reuse
    def _setup_of(self, state: GameState) -> object:
        return (type(state), state.setup_position, tuple(sorted(state.options.items())))

    def _keep(self, state: GameState, root: Node) -> None:
        if self.reuse:
            self._root, self._root_history, self._root_setup = root, list(state.history), self._setup_of(state)

    def _reused_root(self, state: GameState) -> Node | None:
        if not self.reuse or self._root is None or self._setup_of(state) != self._root_setup:
            return None
        history = state.history
        known = self._root_history
        if len(history) < len(known) or history[: len(known)] != known:
            return None
        node = self._root
        for action in history[len(known):]:
            node = node.children.get(action)
            if node is None:
                return None
        self._root = None  # the rest of the old tree can go
        return node


def plain_uct(game: str, seed: int | None = None, budget: Budget | None = None) -> MCTSAgent:
    """The textbook reference: UCT with c = √2 (on a [0, 1] reward scale), one uniformly
    random playout per leaf (the game's compiled one), no solver, no tree reuse."""
    return MCTSAgent(game, seed, budget, exploration=2 * math.sqrt(2), rollout=knowledge(game).random_rollout,
                     solver=False, reuse=False, compiled=False, label="uct")
