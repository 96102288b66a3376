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

Winning chances
    Every evaluation is also given as seat 0's winning chances in percent (``win``), through
    the game's calibration (:mod:`.winchance`: a logistic map fitted to bot-vs-bot games).

Marks
    A move's *loss* is how many percentage points of winning chances the mover gave away: the
    chances after the best alternative minus those after the played move. The alternatives are
    the search's two best candidates other than the played move (so a move the search liked
    at first sight but that the position after it shows to be bad is still judged), each
    searched the same way as the position after the played move, by the same side to move, so
    the bias a search has for the side to move cancels out. A loss of
    :data:`~.winchance.THRESHOLDS` (10, 20, 30 points) or more marks the move ``?!``, ``?`` or
    ``??``; from :data:`~.winchance.GROUND` on the best move is named. A chance ply (the outcome
    of a roll) is evaluated but never marked: luck is nobody's mistake; the roll itself is a
    decision and is judged by the expected value over its outcomes.

Best move and line
    For every position (``start`` and after every ply) the review keeps the search's best move
    there (``next_best``) and its expected line (``line``, at most :data:`LINE` plies, in the
    game's notation), which the web page draws as an arrow and lets one play through.

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
from .levels import LEVELS, agent_with_budget, level_of
from .winchance import GROUND, THRESHOLDS, exact_percent, mark_of, win_percent

TEXTS = Catalog("review", {
    "over_none": ("the game has no moves to review", "die Partie hat keine Züge, die sich auswerten ließen"),
    "bad_span": ("plies {first} to {last} are outside the game's {plies} plies",
                 "die Halbzüge {first} bis {last} liegen außerhalb der {plies} Halbzüge der Partie"),
    "budget_small": ("a review budget must be at least {least} iterations, not {budget}",
                     "ein Budget für die Auswertung braucht mindestens {least} Iterationen, nicht {budget}"),
    "no_table": ("the solved table is not available: the values come from a search",
                 "die Lösungstabelle fehlt: die Werte stammen aus einer Suche"),
})

#: percentage points of winning chances lost from which a move is marked, and below which
#: the best move is not named (the search's noise)
INACCURACY, MISTAKE, BLUNDER = (THRESHOLDS[m] for m in ("inaccuracy", "mistake", "blunder"))
#: the expected line kept per position, in plies
LINE = 8
#: the alternatives to a played move searched as it was: the search's best candidates
ALTERNATIVES = 2
#: a mark's symbol in a move list
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: the fixed work per searched position, by algorithm: a 60-ply game takes a few seconds
BUDGETS = {"mcts": 3000, "alphabeta": 1500, "alphabeta_net": 1500}
#: the smallest budget accepted (below it the values are noise)
LEAST_BUDGET = 50
#: the version of what a review computes (stored reviews of another version are computed again)
FORMAT_VERSION = 3  # 3: the dice games' reviews search with the learned evaluation


@dataclass
class Entry:
    """One ply of the game: the action that led to position ``ply`` (1 = after the first)."""

    ply: int
    move: str  # the action's notation, as the game writes it
    colour: str | None  # who made it; None for a chance outcome
    seat: int | None
    chance: bool
    eval: float  # after the ply, for seat 0, in [-1, 1]
    win: float = 50.0  # seat 0's winning chances after the ply, in percent
    loss: float = 0.0  # the winning chances (percentage points) the move gave away, for the mover
    mark: str | None = None  # "inaccuracy", "mistake", "blunder"
    best: str | None = None  # the best move, when the played one lost ground
    best_eval: float | None = None  # the evaluation after the best move, for seat 0
    best_win: float | None = None  # seat 0's winning chances after the best move
    next_best: str | None = None  # the search's best move in the position after the ply
    line: list[str] = field(default_factory=list)  # its expected line from there
    #: solved games: the exact value after the ply, {"winner": seat or None, "plies": N or None}
    exact: dict[str, Any] | None = None
    best_exact: dict[str, Any] | None = None

    @property
    def symbol(self) -> str:
        return SYMBOLS.get(self.mark or "", "")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["eval"] = round(self.eval, 4)
        data["win"] = round(self.win, 1)
        data["loss"] = round(self.loss, 1)
        if self.best_eval is not None:
            data["best_eval"] = round(self.best_eval, 4)
        if self.best_win is not None:
            data["best_win"] = round(self.best_win, 1)
        return data


@dataclass
class Review:
    """A game reviewed: ``entries`` has one :class:`Entry` per ply reviewed."""

    game: str
    method: str  # "search" or "solution"
    agent: str  # the search ("mcts", "alphabeta") or "perfect"
    budget: int | None  # simulations or nodes per position (None for the table)
    #: the position before the first ply reviewed: {"ply", "eval", "win", "exact", "next_best", "line"}
    start: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)  # seat 0's and seat 1's colour at the end
    note: str | None = None  # why the values are not what the game would give (no table)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "method": self.method, "agent": self.agent, "budget": self.budget,
            "view": "seat0", "scale": [-1, 1], "win": "percent for seat 0",
            "thresholds": dict(THRESHOLDS), "ground": GROUND,
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


def search_algorithm(game: str) -> str:
    """The search a review uses: the algorithm of the strongest level that searches (a level
    that plays from a solved table does not say how good the other moves are)."""
    for level in reversed(LEVELS):
        algorithm = level_of(game, level).algorithm
        if algorithm in BUDGETS:
            return algorithm
    return "alphabeta"


def default_budget(game: str) -> int:
    return BUDGETS[search_algorithm(game)]


def _agent(game: str, algorithm: str, iterations: int, seed: int) -> Agent:
    budget = Budget(iterations=max(1, iterations))
    if algorithm == "mcts":
        from .mcts import MCTSAgent

        return MCTSAgent(game, seed, budget, reuse=False)
    if algorithm != "alphabeta":  # the game's own alpha-beta (with its learned evaluation)
        return agent_with_budget(algorithm, game, seed, budget)
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
    review.start = {"ply": base + first, "eval": before.eval, "win": round(before.win, 1), "exact": before.exact,
                    "next_best": before.best, "line": before.line}
    total = last - first
    for index in range(first, last):
        action = actions[index]
        chance = state.current_player() == CHANCE
        seat = None if chance else state.current_player()
        colour = None if chance else state.seat_colour(seat)
        state.play(action)
        move = state.move_texts[-1]  # as the game writes it once played (with its marks)
        after = judge.evaluate(state)
        entry = Entry(base + index + 1, move, colour, seat, chance, after.eval, after.win, exact=after.exact,
                      next_best=after.best, line=after.line)
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
    win: float = 50.0  # seat 0's winning chances, percent
    best: str | None = None  # the best move here (a decision position), in notation
    line: list[str] = field(default_factory=list)  # the expected line from here, in notation


def line_texts(state: GameState, actions: Iterable[int], most: int = LINE) -> list[str]:
    """The notation of each ply of a line from ``state`` (left as it is), up to ``most`` plies;
    it stops at a roll's outcome (a line does not foresee dice) and at an action not legal."""
    work = state.copy()
    texts: list[str] = []
    for action in actions:
        if len(texts) >= most or work.current_player() < 0 or action not in work.legal_actions():
            break
        texts.append(work.action_to_str(action))
        work.apply_action(action)
    return texts


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
            value = float(state.returns()[0])
            return _Value(value, win=100.0 if value > 0 else 0.0 if value < 0 else 50.0)
        if player == CHANCE:
            # the probability-weighted mean of the outcomes, each searched with a share of the budget
            outcomes = state.chance_outcomes()
            share = max(LEAST_BUDGET, iterations // max(1, len(outcomes)))
            total = wins = 0.0
            for action, probability in outcomes:
                state.apply_action(action)
                outcome = self.evaluate(state, share)
                total += probability * outcome.eval
                wins += probability * outcome.win
                state.undo()
            return _Value(total, win=wins)
        analysis = _agent(self.game, self.algorithm, iterations, self.seed).analyse(state)
        value = _clip(analysis.value if player == 0 else -analysis.value)
        return _Value(value, analysis, win=win_percent(self.game, value), best=state.action_to_str(analysis.best),
                      line=line_texts(state, analysis.line or [analysis.best]))

    def judge(self, state: GameState, action: int, before: _Value, after: _Value, entry: Entry) -> None:
        analysis = before.analysis
        if analysis is None or len(state.legal_actions()) < 2:
            return
        sign = 1.0 if state.current_player() == 0 else -1.0
        found = None  # (winning chances for the mover, notation, eval, win) of the best alternative
        for candidate in _candidates(analysis, action):
            notation = state.action_to_str(candidate)
            state.apply_action(candidate)
            value = self.evaluate(state)  # searched as the position after the played move was
            state.undo()
            mover = value.win if sign > 0 else 100.0 - value.win
            if found is None or mover > found[0]:
                found = (mover, notation, value.eval, value.win)
        if found is None:
            return
        played = after.win if sign > 0 else 100.0 - after.win
        loss = max(0.0, found[0] - played)
        entry.loss = loss
        if loss >= GROUND:
            entry.best, entry.best_eval, entry.best_win = found[1], found[2], found[3]
            entry.mark = mark_of(loss)


def _candidates(analysis: Any, played: int) -> list[int]:
    """The search's :data:`ALTERNATIVES` best candidates other than the played move, best first
    (MCTS: by visits; alpha-beta: by score, its best move first)."""
    ranked = sorted(analysis.scores, key=lambda a: (a != analysis.best, -analysis.visits.get(a, 0),
                                                    -analysis.scores[a]))
    if analysis.best not in analysis.scores:
        ranked.insert(0, analysis.best)
    return [a for a in ranked if a != played][:ALTERNATIVES]


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
        exact = {"winner": winner, "plies": value.distance}
        best, line = self._line(state)
        return _Value(score if seat == 0 else -score, exact=exact, value=value, win=exact_percent(exact) or 50.0,
                      best=best, line=line)

    def _line(self, state: GameState) -> tuple[str | None, list[str]]:
        """The best move and a perfect line from a decision position (the first of the best
        moves in notation order, as :meth:`judge` names it)."""
        work = state.copy()
        texts: list[str] = []
        while len(texts) < LINE and work.current_player() >= 0:
            values = self.solution.move_values(work)
            if not values:
                break
            top = max(v.rank for v in values.values())
            action = min((a for a, v in values.items() if v.rank == top), key=work.action_to_str)
            texts.append(work.action_to_str(action))
            work.apply_action(action)
        return (texts[0] if texts else None), texts

    def judge(self, state: GameState, action: int, before: _Value, after: _Value, entry: Entry) -> None:
        values = self.solution.move_values(state)
        if not values or action not in values:
            return
        top = max(v.rank for v in values.values())
        played = values[action]
        entry.loss = max(0.0, _mover(state) * (before.win - after.win))
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
        entry.best_eval, entry.best_exact, entry.best_win = alternative.eval, alternative.exact, alternative.win
        entry.loss = max(0.0, _mover(state) * (alternative.win - after.win))


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
#: a solved value in words, for the player who made the move: (English, German); "{n}" is the
#: number of moves (own turns) the winner still needs
EXACT_WORDS = {
    "now_win": ("wins with this move", "gewinnt mit diesem Zug"),
    "now_loss": ("loses with this move", "verliert mit diesem Zug"),
    "best_now_win": ("wins at once", "gewinnt sofort"),
    "win_one": ("wins in 1 move", "gewinnt in 1 Zug"),
    "win_many": ("wins in {n} moves", "gewinnt in {n} Zügen"),
    "loss_one": ("loses in 1 move", "verliert in 1 Zug"),
    "loss_many": ("loses in {n} moves", "verliert in {n} Zügen"),
    "draw": ("draw", "remis"),
}


def exact_key(exact: dict[str, Any] | None, seat: int | None, best: bool = False) -> tuple[str, int] | None:
    """Which of :data:`EXACT_WORDS` says ``exact`` for ``seat``, and its number of moves:
    ``plies`` left under perfect play, counted as the winner's own moves still to make (a
    move that ends the game says so instead of "in 0"). ``best``: the value after the best
    move rather than the played one."""
    if not exact:
        return None
    if exact.get("winner") is None:
        return "draw", 0
    won = exact["winner"] == seat
    plies = int(exact.get("plies") or 0)
    if plies == 0:
        return ("best_now_win" if best else "now_win") if won else "now_loss", 0
    moves = (plies + 1) // 2
    return f"{'win' if won else 'loss'}_{'one' if moves == 1 else 'many'}", moves


def exact_text(exact: dict[str, Any] | None, seat: int | None, lang: str = "en", best: bool = False) -> str:
    """``wins in 2 moves`` / ``loses in 1 move`` / ``wins with this move`` / ``draw`` for the
    player in ``seat`` (``lang``: "en" or "de")."""
    found = exact_key(exact, seat, best)
    if found is None:
        return ""
    key, moves = found
    return EXACT_WORDS[key][1 if lang == "de" else 0].replace("{n}", str(moves))


def table(review: Review) -> Any:
    """The review as a rich table for the terminal: ply, who moved, move, evaluation after
    it (for seat 0), mark, and the best move where the played one lost ground."""
    from rich.table import Table
    from rich.text import Text

    solved = review.method == "solution"
    who = f"{review.colours[0]}'s view" if review.colours else "seat 0's view"
    grid = Table(title=f"{review.game}: evaluation after each ply ({who}, -1 … +1, and winning chances in %)",
                 title_justify="left")
    grid.add_column("ply", justify="right", style="dim")
    grid.add_column("who")
    grid.add_column("move")
    grid.add_column("eval", justify="right")
    grid.add_column("win %", justify="right")
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
                best = f"{entry.best} ({exact_text(entry.best_exact, entry.seat, best=True)})"
        row = [str(entry.ply), entry.colour or "chance", entry.move + entry.symbol, f"{entry.eval:+.2f}",
               f"{entry.win:.0f}"]
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
