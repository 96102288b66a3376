"""Alpha-beta with iterative deepening, a transposition table and move ordering; at chance
nodes (dice rolls) it takes the probability-weighted average of the outcomes
(expectiminimax), so it never assumes a particular roll.

Values are for seat 0 (seat 0 maximises, seat 1 minimises). A won game is worth
``1 - 0.001 * plies`` to the winner, so a quicker win (and a later loss) is preferred;
the evaluation stays inside (-0.9, 0.9). An iteration budget counts nodes, so a seeded
search with such a budget is reproducible.
"""

from __future__ import annotations

import math

from ..core.protocol import CHANCE, TERMINAL, GameState
from .base import Agent, Analysis
from .budget import Budget
from .knowledge import decided, knowledge, warm_up
from .timing import next_depth_hopeless, watch
from .walk import search_copy

EXACT, LOWER, UPPER = 0, 1, 2
_TT_LIMIT = 2_000_000


class _OutOfBudget(Exception):
    pass


class AlphaBetaAgent(Agent):
    name = "alphabeta"

    def __init__(self, game: str, seed: int | None = None, budget: Budget | None = None, *,
                 max_depth: int = 64, exact_root: bool = False, quiescence: int = 4,
                 repetition_draws: bool = True, label: str | None = None, compiled: bool = True,
                 search_options: dict | None = None):
        super().__init__(seed, budget or Budget(iterations=20000))
        self.game = game
        info = knowledge(game)
        self.evaluate = info.evaluate
        self.order = info.order
        self.noisy = info.noisy
        #: plies of captures searched beyond the horizon (0: none)
        self.quiescence = quiescence
        #: a position repeated inside the search counts as a draw (stops aimless shuffling)
        self.repetition_draws = repetition_draws
        self.max_depth = max_depth
        #: search every root move with a full window (exact scores for analysis; slower)
        self.exact_root = exact_root
        if label:
            self.name = label
        #: search in the game's compiled kernel where its knowledge has one
        #: (``compiled_alphabeta``); ``False``: always this Python search (``alphabeta-py``)
        self.compiled = compiled
        #: settings of the compiled search (transpositions, reductions: see the game's kernel)
        self.search_options = dict(search_options or {})
        #: the compiled search's tables (transpositions), kept between moves
        self.compiled_tables = None
        self.tt: dict = {}

    def reset(self) -> None:
        self.tt = {}
        self.compiled_tables = None

    # ------------------------------------------------------------------ driver
    def analyse(self, state: GameState) -> Analysis:
        self.check_turn(state)
        found = decided(state, self)  # the game's own decision (e.g. the doubling cube)
        if found is not None:
            return found
        player = state.current_player()
        warm_up(state, evaluate=not self.compiled)
        self.clock = self.budget.clock(self.now)
        if self.compiled:
            found = knowledge(self.game).compiled_alphabeta(self, state, self.clock)
            if found is not None:
                return found
            warm_up(state, evaluate=True)  # the compiled search declined (e.g. a position with the cube): search in Python
            self.clock = self.budget.clock(self.now)
        if len(self.tt) > _TT_LIMIT:
            self.tt = {}
        self.killers: dict[int, list[int]] = {}
        self.history: dict[int, int] = {}
        side = 1.0 if player == 0 else -1.0
        actions = self.order(state, state.legal_actions())
        self.rng.shuffle(actions)  # ties between equal moves go different ways per seed
        actions = self.order(state, actions)
        scores: dict[int, float] = {}
        best = actions[0]
        completed = 0
        stopped = "max_depth"
        turn = watch(self.clock)  # a budget that allows more time on critical turns
        for depth in range(1, self.max_depth + 1):
            work = search_copy(state)
            partial: dict[int, float] = {}
            if turn is not None:
                first = actions[0]
                turn.running = lambda: side * partial[first] if first in partial else None
            try:
                self._root(work, depth, actions, side, partial)
            except _OutOfBudget:
                # keep a move of the unfinished depth only if it beat the previous best
                if partial and actions[0] in partial:
                    top = max(partial, key=lambda a: side * partial[a])
                    if side * partial[top] > side * partial[actions[0]]:
                        best = top
                        scores.update(partial)
                stopped = None  # the budget ran out
                break
            scores = partial
            completed = depth
            actions = sorted(actions, key=lambda a: -side * scores[a])
            best = actions[0]
            if turn is not None:
                turn.depth_done(best, side * scores[best])
            if abs(scores[best]) > 0.95:
                stopped = "decided"  # a forced win or loss
                break
            if next_depth_hopeless(self.clock):
                stopped = "next_depth"
                break
            if self._tree_exhausted:
                stopped = "exhausted"
                break
        mover_scores = {a: side * v for a, v in scores.items()}
        return Analysis(best=best, scores=mover_scores, line=self._line(state, best),
                        value=mover_scores.get(best, 0.0), iterations=self.clock.count,
                        seconds=self.clock.elapsed(), depth=completed, stopped=stopped,
                        critical=self.clock.extended)

    def _root(self, state: GameState, depth: int, actions: list[int], side: float,
              partial: dict[int, float]) -> None:
        self._tree_exhausted = True
        alpha, beta = -math.inf, math.inf
        for action in actions:
            state.apply_action(action)
            if self.exact_root or not partial:
                value = self._search(state, depth - 1, -math.inf, math.inf, 1)
            else:
                value = self._search(state, depth - 1, alpha, beta, 1)
            state.undo()
            partial[action] = value
            if side > 0:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)

    # ------------------------------------------------------------------ the search
    def _search(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        clock = self.clock
        clock.count += 1
        if clock.done():
            raise _OutOfBudget
        player = state.current_player()
        if player == TERMINAL:
            value = state.returns()[0]
            return value * (1.0 - 0.001 * ply)
        if player == CHANCE:
            total = 0.0
            for action, p in state.chance_outcomes():
                state.apply_action(action)
                total += p * self._search(state, depth, -math.inf, math.inf, ply + 1)
                state.undo()
            return total
        if depth <= 0:
            self._tree_exhausted = False
            if self.quiescence:
                return self._quiesce(state, alpha, beta, ply, self.quiescence)
            return self.evaluate(state)
        if self.repetition_draws and ply > 1 and state.repetitions() >= 2:
            return 0.0
        key = state.key()
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER:
                    alpha = max(alpha, e_value)
                else:
                    beta = min(beta, e_value)
                if alpha >= beta:
                    return e_value
        maximise = player == 0
        alpha0, beta0 = alpha, beta
        best_value = -math.inf if maximise else math.inf
        best_action = None
        for action in self._ordered(state, ply, tt_move):
            state.apply_action(action)
            value = self._search(state, depth - 1, alpha, beta, ply + 1)
            state.undo()
            if maximise:
                if value > best_value:
                    best_value, best_action = value, action
                    alpha = max(alpha, value)
            elif value < best_value:
                best_value, best_action = value, action
                beta = min(beta, value)
            if alpha >= beta:
                self._cutoff(action, ply, depth)
                break
        if best_value <= alpha0:
            flag = UPPER
        elif best_value >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        self.tt[key] = (depth, best_value, flag, best_action)
        return best_value

    def _quiesce(self, state: GameState, alpha: float, beta: float, ply: int, left: int) -> float:
        """Captures only, with the evaluation as a floor ("standing pat") for the mover."""
        clock = self.clock
        clock.count += 1
        if clock.done():
            raise _OutOfBudget
        player = state.current_player()
        if player == TERMINAL:
            return state.returns()[0] * (1.0 - 0.001 * ply)
        stand = self.evaluate(state)
        if player == CHANCE or left <= 0:
            return stand
        maximise = player == 0
        if maximise:
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
        else:
            if stand <= alpha:
                return stand
            beta = min(beta, stand)
        best = stand
        for action in self.noisy(state, state.legal_actions()):
            state.apply_action(action)
            value = self._quiesce(state, alpha, beta, ply + 1, left - 1)
            state.undo()
            if maximise:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def _ordered(self, state: GameState, ply: int, tt_move: int | None) -> list[int]:
        actions = self.order(state, state.legal_actions())
        history = self.history
        first = [a for a in self.killers.get(ply, ()) if a in actions]
        if tt_move is not None and tt_move in actions:
            first = [tt_move] + [a for a in first if a != tt_move]
        rest = [a for a in actions if a not in first]
        if history:
            rest.sort(key=lambda a: -history.get(a, 0))  # stable: keeps the game's order on ties
        return first + rest

    def _cutoff(self, action: int, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        self.history[action] = self.history.get(action, 0) + depth * depth

    def _line(self, state: GameState, best: int) -> list[int]:
        """The expected line: the best move, then the table's best replies."""
        work = search_copy(state)
        line = [best]
        work.apply_action(best)
        seen = {work.key()}
        while len(line) < 30:
            player = work.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                break  # the line cannot know the roll
            else:
                entry = self.tt.get(work.key())
                if entry is None or entry[3] is None:
                    break
                action = entry[3]
            line.append(action)
            work.apply_action(action)
            if work.key() in seen:
                break
            seen.add(work.key())
        return line
