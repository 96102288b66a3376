"""Computer analysis of a finished game, ply by ply (``ludothek review``, the web's Analyse
button; issue 12, item 7).

Every position of the game is evaluated with the game's strongest search at a small, *fixed*
budget (MCTS simulations or alpha-beta nodes, never seconds), so a review is the same on every
machine and every run. For each ply it gives the move, who made it, the evaluation after it,
and for a player's decision whether it lost ground: the best move, its evaluation and a mark.

Scale
    Every evaluation is from the point of view of **seat 0** (the player who moves first; a
    pie rule may give him the other colour, he stays seat 0) on the scale [-1, 1]:
    +1 a certain win for seat 0, -1 a certain loss, 0 even. For an MCTS game this is the
    expected score; for an alpha-beta game the evaluation function's value (its wins count
    ``±(1 - 0.001 · plies)``); for a solved game the exact value, a quick win near 1 and a slow
    one nearer 0 (the table's ``Value.score()``).

Marks
    A move's *loss* is how much worse the position after it is for the mover than the position
    after the search's best move. Both positions are searched the same way, by the same side to
    move, so the bias a search has for the side to move cancels out. A loss of
    :data:`INACCURACY`, :data:`MISTAKE` or :data:`BLUNDER` or more marks the move ``?!``, ``?``
    or ``??`` (lichess's thresholds on its winning-chances scale, which is this one); from
    :data:`GROUND` on the best move is named. A chance ply (the outcome of a roll) is evaluated
    but never marked: luck is nobody's mistake; the roll itself is a decision and is judged by
    the expected value over its outcomes.

Solved games
    A game whose spec adds an agent that plays from a solved table, and whose module reads it
    (``value(state)``, ``get_solution()``, as the smallest game's ``perfect`` does), gets the
    exact value of every position, "win in N" / "loss in N" / "draw" with N the plies left
    under perfect play. A move is a mistake when it changes the game-theoretic result by
    one step (a win into a draw, a draw into a loss) and a blunder when it throws a win away
    into a loss; a slower win or a quicker loss only names the best move. Without the table
    the review falls back to an alpha-beta search and says so (:attr:`Review.note`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.errors import IllegalMove, LudothekError, OptionError
from ..core.messages import Catalog
from ..core.protocol import CHANCE, TERMINAL, GameState
from ..core.registry import game_spec
from .base import Agent
from .budget import Budget
from .levels import LEVELS, level_of

TEXTS = Catalog("review", {
    "over_none": ("the game has no moves to review", "die Partie hat keine Züge, die sich auswerten ließen"),
    "bad_span": ("plies {first} to {last} are outside the game's {plies} plies",
                 "die Halbzüge {first} bis {last} liegen außerhalb der {plies} Halbzüge der Partie"),
    "budget_small": ("a review budget must be at least {least} iterations, not {budget}",
                     "ein Budget für die Auswertung braucht mindestens {least} Iterationen, nicht {budget}"),
    "no_table": ("the solved table is not available: the values come from a search",
                 "die Lösungstabelle fehlt: die Werte stammen aus einer Suche"),
})

#: losses (on the [-1, 1] scale, for the mover) from which a move is marked
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
#: a smaller loss is the search's noise: the best move is named only from this loss on
GROUND = 0.05
#: a mark's symbol in a move list
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: the fixed work per searched position, by algorithm: a 60-ply game takes a few seconds
BUDGETS = {"mcts": 3000, "alphabeta": 1500}
#: the smallest budget accepted (below it the values are noise)
LEAST_BUDGET = 50
#: the version of what a review computes (stored reviews of another version are computed again)
FORMAT_VERSION = 1


@dataclass
class Entry:
    """One ply of the game: the action that led to position ``ply`` (1 = after the first)."""

    ply: int
    move: str  # the action's notation, as the game writes it
    colour: str | None  # who made it; None for a chance outcome
    seat: int | None
    chance: bool
    eval: float  # after the ply, for seat 0, in [-1, 1]
    loss: float = 0.0  # what the move gave away, for the mover (0 for chance)
    mark: str | None = None  # "inaccuracy", "mistake", "blunder"
    best: str | None = None  # the best move, when the played one lost ground
    best_eval: float | None = None  # the evaluation after the best move, for seat 0
    #: solved games: the exact value after the ply, {"winner": seat or None, "plies": N or None}
    exact: dict[str, Any] | None = None
    best_exact: dict[str, Any] | None = None

    @property
    def symbol(self) -> str:
        return SYMBOLS.get(self.mark or "", "")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["eval"] = round(self.eval, 4)
        data["loss"] = round(self.loss, 4)
        if self.best_eval is not None:
            data["best_eval"] = round(self.best_eval, 4)
        return data


@dataclass
class Review:
    """A game reviewed: ``entries`` has one :class:`Entry` per ply reviewed."""

    game: str
    method: str  # "search" or "solution"
    agent: str  # the search ("mcts", "alphabeta") or "perfect"
    budget: int | None  # simulations or nodes per position (None for the table)
    start: dict[str, Any]  # the position before the first ply reviewed: {"ply", "eval", "exact"}
    entries: list[Entry] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)  # seat 0's and seat 1's colour at the end
    note: str | None = None  # why the values are not what the game would give (no table)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "method": self.method, "agent": self.agent, "budget": self.budget,
            "view": "seat0", "scale": [-1, 1],
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "start": self.start, "colours": self.colours, "note": self.note,
            "entries": [e.to_json() for e in self.entries], "seconds": round(self.seconds, 3),
        }

    def counts(self, seat: int) -> dict[str, int]:
        """How many inaccuracies, mistakes and blunders seat ``seat`` made."""
        found = {mark: 0 for mark in SYMBOLS}
        for entry in self.entries:
            if entry.seat == seat and entry.mark:
                found[entry.mark] += 1
        return found


def mark_of(loss: float) -> str | None:
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def search_algorithm(game: str) -> str:
    """The search a review uses: the algorithm of the strongest level that searches (a level
    that plays from a solved table does not say how good the other moves are)."""
    for level in reversed(LEVELS):
        algorithm = level_of(game, level).algorithm
        if algorithm in ("mcts", "alphabeta"):
            return algorithm
    return "alphabeta"


def default_budget(game: str) -> int:
    return BUDGETS[search_algorithm(game)]


def _agent(game: str, algorithm: str, iterations: int, seed: int) -> Agent:
    budget = Budget(iterations=max(1, iterations))
    if algorithm == "mcts":
        from .mcts import MCTSAgent

        return MCTSAgent(game, seed, budget, reuse=False)
    from .alphabeta import AlphaBetaAgent

    return AlphaBetaAgent(game, seed, budget)


def _table_module(game: str) -> Any:
    """The module that reads a solved game's table: the module of an agent the game's spec
    adds that offers ``value(state)`` and ``get_solution()``; None for a game not solved."""
    import importlib

    for target in game_spec(game).agents.values():
        try:
            module = importlib.import_module(str(target).partition(":")[0])
        except Exception:  # noqa: BLE001, S112 - an agent that does not load is no table
            continue
        if callable(getattr(module, "value", None)) and callable(getattr(module, "get_solution", None)):
            return module
    return None


def _table(game: str) -> Any:
    """The solved game's table module with its table loaded, or None when the game is not
    solved or its table cannot be had."""
    module = _table_module(game)
    if module is None:
        return None
    try:
        module.get_solution()
    except Exception:  # noqa: BLE001 - missing, unreadable or not computable here: search instead
        return None
    return module


def review_game(start: GameState, moves: Sequence[int | str], budget: int | None = None, *,
                seed: int = 1, exact: bool = True, span: tuple[int, int] | None = None,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Review the game that ``moves`` (actions, or notation: a record's token may hold a roll
    and its outcome) play from ``start`` (left as it is). Plies count as ``start.ply`` does.

    ``budget``: simulations or nodes per searched position (default :data:`BUDGETS`);
    ``exact=False`` ignores a solved table; ``span=(first, last)`` reviews only the plies that
    lead to positions ``first + 1`` … ``last`` (the web server reviews a long game in parts, so
    that other jobs get their turn); ``progress(done, total)`` is called after each ply."""
    if budget is not None and budget < LEAST_BUDGET:
        raise OptionError(TEXTS("budget_small", least=LEAST_BUDGET, budget=budget))
    began = time.perf_counter()
    actions = _actions(start, moves)
    if not actions:
        raise IllegalMove(TEXTS("over_none"))
    first, last = span if span is not None else (0, len(actions))
    if not 0 <= first < last <= len(actions):
        raise OptionError(TEXTS("bad_span", first=first, last=last, plies=len(actions)))
    base = start.ply
    state = start.copy()
    for action in actions[:first]:
        state.play(action)
    table = _table(start.name) if exact else None
    before = None
    if table is not None:
        review = Review(start.name, "solution", "perfect", None, {})
        judge: _Judge = _Exact(table)
        try:
            before = judge.evaluate(state)
        except LudothekError:  # a set-up position the table does not hold: search instead
            table = None
    if table is None:
        algorithm = search_algorithm(start.name)
        iterations = budget or BUDGETS[algorithm]
        note = str(TEXTS("no_table")) if exact and _table_module(start.name) is not None else None
        review = Review(start.name, "search", algorithm, iterations, {}, note=note)
        judge = _Search(start.name, algorithm, iterations, seed)
        before = judge.evaluate(state)
    review.start = {"ply": base + first, "eval": before.eval, "exact": before.exact}
    total = last - first
    for index in range(first, last):
        action = actions[index]
        chance = state.current_player() == CHANCE
        seat = None if chance else state.current_player()
        colour = None if chance else state.seat_colour(seat)
        state.play(action)
        move = state.move_texts[-1]  # as the game writes it once played (with its marks)
        after = judge.evaluate(state)
        entry = Entry(base + index + 1, move, colour, seat, chance, after.eval, exact=after.exact)
        if not chance:
            state.undo()
            judge.judge(state, action, before, after, entry)
            state.play(action)
        review.entries.append(entry)
        before = after
        if progress is not None:
            progress(index + 1 - first, total)
    review.colours = [state.seat_colour(0), state.seat_colour(1)]
    review.seconds = time.perf_counter() - began
    return review


def merge(parts: Iterable[Review]) -> Review:
    """One review from the reviews of consecutive spans of a game."""
    parts = sorted(parts, key=lambda part: part.start["ply"])
    whole = parts[0]
    merged = Review(whole.game, whole.method, whole.agent, whole.budget, whole.start, [], parts[-1].colours,
                    whole.note, sum(part.seconds for part in parts))
    for part in parts:
        merged.entries.extend(part.entries)
    return merged


def spans(plies: int, size: int = 12) -> list[tuple[int, int]]:
    """A game of ``plies`` plies cut into spans of about ``size`` plies."""
    return [(start, min(plies, start + size)) for start in range(0, plies, size)]


def _actions(start: GameState, moves: Sequence[int | str]) -> list[int]:
    """The moves as actions, checked by replaying them."""
    work = start.copy()
    actions = []
    for move in moves:
        before = len(work.history)
        work.play(move)
        actions.extend(work.history[before:])
    return actions


# ---------------------------------------------------------------------------- judges
@dataclass
class _Value:
    eval: float  # for seat 0
    analysis: Any = None  # the search's Analysis of a decision position
    exact: dict[str, Any] | None = None
    value: Any = None  # the solved table's Value (for the player to move)


class _Judge:
    def evaluate(self, state: GameState) -> _Value:
        raise NotImplementedError

    def judge(self, state: GameState, action: int, before: _Value, after: _Value, entry: Entry) -> None:
        """Fill in ``entry``'s loss, mark and best move; ``state`` is before ``action``."""
        raise NotImplementedError


class _Search(_Judge):
    """Values from the game's search: a fresh, seeded agent per position, so that every
    position's value is the same whatever was searched before."""

    def __init__(self, game: str, algorithm: str, iterations: int, seed: int):
        self.game, self.algorithm, self.iterations, self.seed = game, algorithm, iterations, seed

    def evaluate(self, state: GameState, iterations: int | None = None) -> _Value:
        iterations = iterations or self.iterations
        player = state.current_player()
        if player == TERMINAL:
            return _Value(float(state.returns()[0]))
        if player == CHANCE:
            # the probability-weighted mean of the outcomes, each searched with a share of the budget
            outcomes = state.chance_outcomes()
            share = max(LEAST_BUDGET, iterations // max(1, len(outcomes)))
            total = 0.0
            for action, probability in outcomes:
                state.apply_action(action)
                total += probability * self.evaluate(state, share).eval
                state.undo()
            return _Value(total)
        analysis = _agent(self.game, self.algorithm, iterations, self.seed).analyse(state)
        return _Value(_clip(analysis.value if player == 0 else -analysis.value), analysis)

    def judge(self, state: GameState, action: int, before: _Value, after: _Value, entry: Entry) -> None:
        analysis = before.analysis
        if analysis is None or analysis.best == action or len(state.legal_actions()) < 2:
            return
        sign = 1.0 if state.current_player() == 0 else -1.0
        best = analysis.best
        best_notation = state.action_to_str(best)
        state.apply_action(best)
        alternative = self.evaluate(state).eval  # searched as the position after the played move was
        state.undo()
        loss = max(0.0, sign * (alternative - after.eval))
        entry.loss = loss
        if loss >= GROUND:
            entry.best, entry.best_eval = best_notation, alternative
            entry.mark = mark_of(loss)


class _Exact(_Judge):
    """Values from a solved game's table."""

    def __init__(self, table: Any):
        self.table = table
        self.solution = table.get_solution()

    def evaluate(self, state: GameState) -> _Value:
        value = self.table.value(state)
        seat = _seat_to_move(state)
        score = value.score()
        winner = None
        if value.outcome != 0:
            winner = seat if value.outcome > 0 else 1 - seat
        return _Value(score if seat == 0 else -score, exact={"winner": winner, "plies": value.distance}, value=value)

    def judge(self, state: GameState, action: int, before: _Value, after: _Value, entry: Entry) -> None:
        values = self.solution.move_values(state)
        if not values or action not in values:
            return
        top = max(v.rank for v in values.values())
        played = values[action]
        entry.loss = max(0.0, _mover(state) * (before.eval - after.eval))
        if played.rank >= top:
            entry.loss = 0.0
            return
        best_action = min((a for a, v in values.items() if v.rank == top), key=state.action_to_str)
        best = values[best_action]
        entry.mark = {0: None, 1: "mistake", 2: "blunder"}[best.outcome - played.outcome]
        entry.best = state.action_to_str(best_action)
        work = state.copy()
        work.play(best_action)
        alternative = self.evaluate(work)
        entry.best_eval, entry.best_exact = alternative.eval, alternative.exact
        entry.loss = max(0.0, _mover(state) * (alternative.eval - after.eval))


def _seat_to_move(state: GameState) -> int:
    """The seat the solved value speaks for: the player to move, or in a finished game the one
    who would have moved."""
    player = state.current_player()
    if player >= 0:
        return player
    return int(getattr(state, "mover", 0))


def _mover(state: GameState) -> float:
    return 1.0 if state.current_player() == 0 else -1.0


def _clip(value: float) -> float:
    return max(-1.0, min(1.0, float(value)))


# ---------------------------------------------------------------------------- for people
def exact_text(exact: dict[str, Any] | None, seat: int | None) -> str:
    """``win in 7`` / ``loss in 4`` / ``draw`` for ``seat`` (English, for the command line)."""
    if not exact:
        return ""
    if exact["winner"] is None:
        return "draw"
    word = "win" if exact["winner"] == seat else "loss"
    return f"{word} in {exact['plies']}"


def table(review: Review) -> Any:
    """The review as a rich table for the terminal: ply, who moved, move, evaluation after
    it (for seat 0), mark, and the best move where the played one lost ground."""
    from rich.table import Table
    from rich.text import Text

    solved = review.method == "solution"
    who = f"{review.colours[0]}'s view" if review.colours else "seat 0's view"
    grid = Table(title=f"{review.game}: evaluation after each ply ({who}, -1 … +1)", title_justify="left")
    grid.add_column("ply", justify="right", style="dim")
    grid.add_column("who")
    grid.add_column("move")
    grid.add_column("eval", justify="right")
    if solved:
        grid.add_column("exact (mover)")
    grid.add_column("mark")
    grid.add_column("best")
    styles = {"inaccuracy": "cyan", "mistake": "yellow", "blunder": "bold red"}
    for entry in review.entries:
        mark = Text(f"{entry.symbol} {entry.mark}" if entry.mark else "", style=styles.get(entry.mark or "", ""))
        best = ""
        if entry.best:
            best = f"{entry.best} ({entry.best_eval:+.2f})" if entry.best_eval is not None else entry.best
            if solved and entry.best_exact:
                best = f"{entry.best} ({exact_text(entry.best_exact, entry.seat)})"
        row = [str(entry.ply), entry.colour or "chance", entry.move + entry.symbol, f"{entry.eval:+.2f}"]
        if solved:
            row.append(exact_text(entry.exact, entry.seat) if entry.seat is not None else "")
        grid.add_row(*row, mark, best)
    return grid


def summary_lines(review: Review) -> list[str]:
    """How the review was made, and each side's marks."""
    if review.method == "solution":
        lines = ["exact values from the solved table"]
    else:
        lines = [f"{review.agent}, {review.budget} {'simulations' if review.agent == 'mcts' else 'nodes'} a position"
                 + (f" ({review.note})" if review.note else "")]
    for seat, colour in enumerate(review.colours):
        counts = review.counts(seat)
        plural = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
        lines.append(f"{colour}: " + ", ".join(f"{n} {mark if n == 1 else plural[mark]}" for mark, n in counts.items()))
    lines.append(f"{len(review.entries)} plies in {review.seconds:.1f}s")
    return lines
