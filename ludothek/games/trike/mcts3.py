"""Trike's compiled MCTS driver (:mod:`.mcts3_kernels`, the bots' ``mcts``): runs the kernel
in chunks against the clock and turns the tree's root into an :class:`Analysis`.

Used by :class:`ludothek.ai.mcts.MCTSAgent` (through :func:`.knowledge.compiled_search`) once
the pawn is placed, the swap decision included: right after Black's opening stone, White
moving or swapping is one question, who wins the position with White to move. Swapping
leaves that very position to the other player (now White), so White searches it once and
swaps when his best move there is expected to lose. Only Black's opening stone stays with
the generic tree. (:mod:`.mcts` is the first compiled driver, the ``mcts_old`` agent.)

Also: the tree is kept between an agent's moves (the subtree of the position reached), the
clock is aimed at (chunks sized by the rate so far, not doubled past the deadline), and a
search allocates no arrays. Measured at equal time on side 13 against the first driver
(``ludothek match trike mcts mcts_old --seconds-per-move 0.1 -n 200 --workers 2``, before the
leaf solve): 0.765 (0.706-0.824), +205 Elo, in 24 % less thinking time.

The kernel's additions are :class:`Settings`; the one turned on is the exact solve of a new
leaf once the pawn's region is small (see :mod:`.mcts3_kernels`). With all of them off
(:data:`V2`) this is the search the bots used until December 2026, the ``mcts_v2`` agent.

Before searching, the driver looks the position up in side 7's opening book (:mod:`.book`,
:func:`_known`). Under a time budget, an agent that keeps its tree stops a settled move early
and spends the time saved on unsettled ones (:mod:`.timekeeping`), and a leaf needs more visits
before its children are made as the tree fills, so that it grows until the time is up
(:func:`_expand_to_fit`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ...ai.base import Analysis
from ...core.errors import OptionError
from . import book, timekeeping
from .kernels import line_tables
from .mcts import _report
from .mcts3_kernels import ACTION, COUNT, FIRST, LINES, Tree, free_counts, reroot, resisting, simulate
from .prior_kernels import FEATURES, factors_of, second_ring
from .texts import TEXTS

MAX_NODES = 3_000_000


@dataclass(frozen=True)
class Settings:
    """The search's constants. The first five, measured before the additions (:data:`V2`) at
    0.1 s a move on side 13, 100 games each: exploration 0.6 and 1.6 both lost (0.41, 0.40);
    RAVE (bias 0.001) lost 0.22; the anti-decisive playout (policy 1: twice as slow a playout)
    lost 0.28 and the uniform one (-1) 0.47; without the swap decision in the kernel 0.43,
    without tree reuse 0.47. The search gains about 180 Elo for each doubling of the
    simulations there.

    The additions, each against ``mcts_v2`` at 0.05 s a move on side 13, 40 games (seed 7;
    a shared, busy machine, so about +-0.15): the leaf solve (``solve_size``/``solve_limit``)
    15/1000 0.80 (and 0.575 with seed 21: 0.69 in 80 games), 20/2000 0.675, 15/300 0.65,
    10/500 0.425, 25/3000 0.475, 35/10000 0.35 (too slow); with 15/1000: exploration 0.8
    0.725 (seed 21), solving inside the playouts (``rollout_size``) 8: 0.475, 12: 0.50. Without
    the solve: progressive bias 0.5 0.475, first-play urgency 0.8 with bias 0.3 0.425, the
    playout policies 2 (the better of two moves by local balance) 0.275 and 3 (draw again a
    move that hands over a win) 0.40.

    A heuristic evaluation in the leaves (``mix``: the old alpha-beta's ``evaluate_mover``,
    the best local balance a move reaches and whether it hands over a win), against today's
    search at 0.05 s a move on side 13, 40 games (seed 7) on two quiet cores: mix 0.5 0.075,
    mix 1 (no playout) 0.0. The evaluation costs more than a playout (165,000 simulations a
    second with mix 1, 265,000 with playouts, side 13 after 3 plies) and tells far less.
    MAST in the playouts (with probability 0.3 or 0.6 the safe move whose cell did best for
    its colour in this search's simulations, else a uniform one; not kept) scored 0.50 and
    0.50 in the same match: no gain to keep it for.

    PUCT with the learned move prior (``puct``, ``reduction``; :mod:`.prior_kernels`), against
    the search before it (the same settings with ``puct=0``) at 0.05 s a move, 40 games each,
    two quiet cores. The shipped prior at puct 5, reduction 0.3: side 13 0.625 and 0.725 (seeds
    31, 41), side 19 0.725 (seed 31). Tuned on side 13 (seed 7) with a first prior (neighbour
    counts instead of their ring, plus slide length and the opponent's replies): puct 3 0.60,
    5 0.65, 8 0.625; puct 5 with reduction 0.3 0.70 (0.70 with seed 21), with 0.5 0.60. In the
    quarter-time match (0.2 s against ``mcts_v2``'s 0.8 s a move, side 13, seeds 1-4, two quiet
    cores) puct 8 scored 0.45 in 160 games, puct 5 0.46 in 200. The prior costs 10-25% of the
    simulations a second (0.5 s searches from random positions: side 13 after 13 plies
    360,000 -> 311,000; side 19 after 19 plies 192,000 -> 170,000).

    Resisting in a proven loss (``resist``), in the quarter-time match against ``mcts_v2`` (0.2 s
    against 0.8 s a move, two quiet cores, the same openings with it on and off): side 7 0.48
    against 0.49 (100 games, seed 11); side 13 0.4875 against 0.4875 (80 games, seeds 1 and 2).
    ``mcts_v2`` at four times the time rarely misses a win this late, so it gains nothing there;
    it is kept because a human opponent does miss them. A refit of the prior on the PUCT
    search's own self-play (the policy-improvement step) scored 0.625 on side 19 (40 games) but
    0.325 and 0.425 on side 13 (seeds 31, 41) at 0.05 s a move against the shipped prior: not
    taken.

    Side 7's opening book (``book``), in the quarter-time match on side 7 (seed 11, 100 games,
    two quiet cores): 0.63 against 0.48 without it. Tried with it and not kept: solving the
    position exactly before searching once the pawn's region had at most 24 empty cells (with
    about half the move's time): 0.62 with the book, 0.48 without it; the leaf solve already
    finds those wins. On side 13 (at most 26 cells, 100,000 positions a move, a win found played
    at once; seeds 1-2): 34-46, where the search without it scored 40-40 on the same openings;
    ``benchmarks/trike_flips.py`` found that neither bot gives a won position away that late.

    The time keeping (``manage``, :mod:`.timekeeping`), in the quarter-time match against
    ``mcts_v2`` (two quiet cores): side 13 0.48 (100 games, seeds 1-3), side 19 0.52 (50 games,
    seeds 1-3), side 7 0.63 (100 games, seed 11; 0.63 without it), thinking a fifth of the
    opponent's time in all (about 0.11-0.15 s a move of its 0.2 s). Tried and not kept: every
    move adding a quarter of the bank to its budget (the time saved spent ahead, not only on
    unsettled moves), on the same openings (seeds 1-2): side 13 41-39 against 40-40 without it,
    side 19 16-24 against 22-18, using 0.21-0.23 of the opponent's time instead of 0.20-0.22; most
    of the time saved comes after the game is proven, too late to spend. Lending that time ahead
    (``lend``: a move while the pawn's region has more than 30 cells thinks 0.25 or 0.5 budgets
    longer on credit, at most 10 budgets a game, which the endgame's quick moves pay back; not
    kept), on the same openings (side 13, seeds 1-2): 38-42 and 40-40 against 40-40 without it,
    using 0.22 and 0.25 of the opponent's time (0.13 and 0.15 s a move of its 0.2 s).

    The line-word playout (``policy`` 4, :mod:`.line_playout`; policy 0's choices) with the
    selection's children taken in turn without a division each and the prior from precomputed
    exponentials: 1.4-1.6x the simulations a second on sides 13 and 19
    (``benchmarks/trike_simulations.py``). In the quarter-time match against ``mcts_v2`` (two
    quiet cores): side 13 0.46 (200 games, seeds 1-5; 0.49 on seeds 1-3, 0.48 before), side 19
    0.62 (50 games, seeds 1-3; 0.52 before), side 7 0.64 (100 games, seed 11; 0.63 before). The
    playout alone (1.2-1.35x the simulations) scored 0.38 on seeds 1-3 of side 13.

    The tree grown until the time is up (``fill``): on side 13 a simulation makes about 7 nodes,
    so at 290,000 simulations a second the :data:`MAX_NODES` were used up after about 1.5 s and
    the rest of a longer move only played out from the leaves there were. Level 8 (8 s a move)
    searched that frozen tree for most of its time, and scored 0.495 against level 7 (2 s) in 200
    games. The driver now raises ``expand`` between runs of the kernel as the tree fills
    (:func:`_expand_to_fit`); at 0.2 s a move it stays 1. The rung played again on the same
    openings (``benchmarks/ladder.py --parts 10``, 200 games, two quiet cores): level 8 against
    level 7 129-71, 0.645 (0.579-0.711), +104 Elo, against 99-101 before, thinking 2.67 times as
    long as level 7; level 7 against level 6 139-61, 0.695 (0.700 before)."""

    exploration: float = 1.0
    #: RAVE's bias b in beta = an / (an + n + b * an * n); negative: RAVE off
    rave_bias: float = -1.0
    #: playout policy (:func:`.mcts3_kernels.roll`; :data:`.mcts3_kernels.LINES`: policy 0 read from
    #: the line words, :mod:`.line_playout`)
    policy: int = LINES
    #: decide the swap with this search (else the generic tree decides it)
    swap: bool = True
    #: keep the subtree of the position reached between moves (if the agent reuses trees)
    reuse: bool = True
    #: progressive bias: weight of the local balance of a move's cell (``/ (visits + 1)``)
    bias: float = 0.0
    #: first-play urgency: the score of an unvisited child (negative: every child first)
    fpu: float = -1.0
    #: solve a new leaf exactly when at most this many empty cells are connected to the pawn
    #: (0: never), giving up after ``solve_limit`` positions
    solve_size: int = 15
    solve_limit: int = 1000
    #: in a playout, solve the rest exactly once the pawn's region has at most this many
    #: empty cells (0: never)
    rollout_size: int = 0
    #: weight of the heuristic evaluation in a new leaf's value (the playout's weight is 1 - mix)
    mix: float = 0.0
    #: PUCT selection with the learned move prior (:mod:`.prior_kernels`) at this constant (0: UCT)
    puct: float = 5.0
    #: under PUCT, an unvisited child's value: its parent's less this
    reduction: float = 0.3
    #: the prior's weights file (None: the shipped one)
    prior: str | None = None
    #: once the position is proven lost, play the move that leaves the fewest winning replies
    #: (:func:`.mcts3_kernels.resisting`) rather than the most visited
    resist: bool = True
    #: on side 7, answer from the opening book (:mod:`.book`) while it holds the position
    book: bool = True
    #: under a time budget, an agent that keeps its tree stops a settled move early and spends
    #: the time saved on later unsettled ones (:mod:`.timekeeping`)
    manage: bool = True
    #: with ``manage``, a move before the endgame thinks this many budgets longer on credit,
    #: paid back by the endgame's quick moves (:mod:`.timekeeping`; 0: no lending)
    lend: float = 0.0
    #: a leaf is played out from on its first ``expand`` visits before its children are made
    expand: int = 1
    #: under a time budget, raise ``expand`` as the tree fills, so that it goes on growing until
    #: the move's time is up rather than stopping once :data:`MAX_NODES` are used (:func:`_expand_to_fit`)
    fill: bool = True


DEFAULT = Settings()
#: the search the bots used until December 2026 (the ``mcts_v2`` agent): every addition off
V2 = Settings(policy=0, bias=0.0, fpu=-1.0, solve_size=0, solve_limit=0, rollout_size=0, puct=0.0, resist=False,
              book=False, manage=False, fill=False)
#: the most visits :func:`_expand_to_fit` asks of a leaf before its children are made
MOST_EXPAND = 1 << 20


def applicable(state, settings: Settings = DEFAULT) -> bool:
    if state.pawn < 0 or state.is_over():
        return False
    return settings.swap or not state._swap_allowed()


class Kept:
    """An agent's tree between its moves (tree reuse): the next search starts from the
    subtree of the position reached, when the game went on from the one searched."""

    def __init__(self) -> None:
        self.tree: Tree | None = None
        self.history: list[int] = []
        self.setup: object = None
        #: the time saved by the agent's earlier moves of this game, and the position it last
        #: searched or looked up (setup, history)
        self.bank = timekeeping.Bank()
        self.banked: tuple[object, list[int]] = (None, [])


def search(state, clock, rng, settings: Settings = DEFAULT, kept: Kept | None = None) -> Analysis:
    budget = clock.budget
    bank = None
    if kept is not None and settings.manage and budget.seconds is not None and budget.iterations is None:
        if not _continues(*kept.banked, state):
            kept.bank = timekeeping.Bank()
        kept.banked = (_setup_of(state), list(state.history))
        bank = kept.bank
    known = _known(state, clock, settings)
    if known is not None:
        if bank is not None:
            bank.settle(clock)
        return known
    capacity = MAX_NODES if budget.iterations is None else min(MAX_NODES, 64 * budget.iterations + 256)
    tree = _tree(capacity) if kept is None else _reused(kept, state, capacity)
    neighbours, board = state.geometry.neighbours, state.board.copy()
    pawn, colour = int(state.pawn), int(state.colour_to_move)
    sign = 1 if colour == 1 else -1
    if tree.proven[0] != 0 and tree.ints[0, COUNT] == 0:
        tree.proven[0] = 0  # a leaf solved exactly has no children yet: the search makes them
    if bank is not None:
        bank.allow(clock, lambda: timekeeping.unsettled(tree.ints, tree.value, sign), settings.lend,
                   settings.lend > 0.0 and timekeeping.endgame(state))
    chunk = 64
    stopped_early = False
    expand, made = settings.expand, 0  # made: the nodes made so far, times the expand they were made at
    while True:
        want = chunk if budget.iterations is None else min(chunk, budget.iterations - clock.count)
        if want <= 0:
            break
        before = int(tree.used[0])
        ran = run_kernel(tree, neighbours, board, pawn, colour, want, settings, rng.getrandbits(31), expand)
        made += (int(tree.used[0]) - before) * expand
        clock.tick(ran)
        if ran < want or tree.proven[0] != 0 or clock.out_of_time():
            break
        if bank is not None and timekeeping.settled(tree.ints, tree.value, sign, clock):
            stopped_early = True
            break
        chunk = _next_chunk(clock, chunk)
        if settings.fill and clock.deadline is not None:
            expand = _expand_to_fit(settings.expand, tree.ints.shape[0] - int(tree.used[0]), made / clock.count,
                                    _simulations_left(clock))
    analysis = _report(state, tree, colour, clock)
    if stopped_early or clock.extended:
        analysis = replace(analysis, stopped="settled" if stopped_early else None, critical=clock.extended)
    if settings.resist and tree.proven[0] == -sign:
        analysis = _resisting(state, analysis, settings)
    if kept is not None:
        kept.history, kept.setup = list(state.history), _setup_of(state)
    if state._swap_allowed():
        analysis = _with_swap(state, analysis)
    if bank is not None:
        bank.settle(clock)
    return analysis


def _known(state, clock, settings: Settings) -> Analysis | None:
    """The answer without a search when side 7's opening book has one: a winning move, or in
    a lost position right after Black's first stone the swap. None: search (a lost book
    position is left to the search, which cannot prove it in time but plays a move that is
    hard to refute)."""
    found = book.answer(state.board, int(state.pawn), int(state.colour_to_move)) if settings.book else None
    if found is None or (found[0] < 0 and not state._swap_allowed()):
        return None
    value, move = found
    if value < 0:
        move = state.legal_actions()[0]  # any: the swap is worth more
    analysis = Analysis(best=move, scores={move: float(value)}, line=[move], value=float(value),
                        seconds=clock.elapsed(), depth=1, visits={move: 0}, stopped="decided")
    return _with_swap(state, analysis) if state._swap_allowed() else analysis


def _resisting(state, analysis: Analysis, settings: Settings) -> Analysis:
    """A proven loss: the move that makes the opponent's win hardest to find."""
    board, neighbours = state.board.copy(), state.geometry.neighbours
    free = np.empty(board.shape[0], np.int8)
    free_counts(board, neighbours, free)
    cells = board.shape[0]
    move = resisting(board, neighbours, free, int(state.pawn), int(state.colour_to_move),
                     max(settings.solve_limit, 1), np.empty(cells, np.int16), np.empty((cells + 1, cells), np.int16),
                     np.empty(cells + 1, np.int32), np.empty(cells + 1, np.int32), np.empty(cells + 2, np.int32))
    if move < 0 or move == analysis.best:
        return analysis
    return replace(analysis, best=move, line=[move], value=analysis.scores.get(move, analysis.value))


def run_kernel(tree: Tree, neighbours, board, pawn: int, colour: int, iterations: int, settings: Settings,
               seed: int, expand: int | None = None) -> int:
    """:func:`.mcts3_kernels.simulate` on ``tree`` with ``settings`` (``expand`` in place of
    theirs if given): how many simulations ran."""
    return simulate(tree.ints, tree.value, tree.proven, tree.amaf, tree.prior, tree.used, neighbours, board, pawn,
                    colour, iterations, settings.exploration, settings.rave_bias, settings.policy, seed, settings.bias,
                    settings.fpu, settings.solve_size, settings.solve_limit, settings.rollout_size, settings.mix,
                    settings.puct, settings.reduction, _prior_factors(settings), *_tables(neighbours),
                    settings.expand if expand is None else expand)


_TREES = threading.local()
#: the learned move prior's weights (``benchmarks/trike_prior.py``, docs/LEVELS.md)
SHIPPED_PRIOR = Path(__file__).with_name("prior.npz")
_TABLES: dict[int, tuple[np.ndarray, ...]] = {}
_PRIORS: dict[str, np.ndarray] = {}


def _tables(neighbours: np.ndarray) -> tuple[np.ndarray, ...]:
    """A board's tables for the kernel: the cells two steps from each cell, and the line words'."""
    cells = neighbours.shape[0]  # one board per side, so the cell count names it
    if cells not in _TABLES:
        _TABLES[cells] = (second_ring(neighbours), *line_tables(neighbours))
    return _TABLES[cells]


def load_prior(path: str | Path) -> np.ndarray:
    """A prior's weights (cached), or :class:`OptionError` naming the file and what is wrong."""
    key = str(path)
    if key not in _PRIORS:
        try:
            weights = np.load(key)["weights"].astype(np.float64)
        except (OSError, KeyError, ValueError) as exc:
            raise OptionError(TEXTS("prior_unreadable", path=key, reason=str(exc) or type(exc).__name__)) from None
        if weights.shape != (FEATURES,):
            raise OptionError(TEXTS("prior_shape", path=key, count=weights.size, features=FEATURES))
        _PRIORS[key] = weights
    return _PRIORS[key]


def shipped_prior() -> np.ndarray:
    return load_prior(SHIPPED_PRIOR)


_NO_PRIOR = np.ones(FEATURES)
_FACTORS: dict[str, np.ndarray] = {}


def _prior_factors(settings: Settings) -> np.ndarray:
    """What the kernel's prior reads (:func:`.prior_kernels.factors_of` of the weights)."""
    if settings.puct <= 0.0:
        return _NO_PRIOR
    key = str(settings.prior or SHIPPED_PRIOR)
    if key not in _FACTORS:
        _FACTORS[key] = factors_of(load_prior(key))
    return _FACTORS[key]


def _tree(capacity: int) -> Tree:
    """An empty tree of ``capacity`` nodes for an agent that keeps none: views into this
    thread's arrays, kept between searches (even allocating 100 MB for every move costs
    more than a short search). The kernel writes every node it makes: only the root is cleared."""
    kept = getattr(_TREES, "tree", None)
    if kept is None or kept.ints.shape[0] < capacity:
        kept = _TREES.tree = Tree.unfilled(capacity)
    tree = Tree.__new__(Tree)
    tree.ints, tree.value, tree.proven, tree.amaf, tree.prior = (
        kept.ints[:capacity], kept.value[:capacity], kept.proven[:capacity], kept.amaf[:capacity],
        kept.prior[:capacity])
    tree.used = np.ones(1, np.int64)
    _clear(tree)
    return tree


def _setup_of(state) -> object:
    return state.setup_position, tuple(sorted(state.options.items()))


def _reused(kept: Kept, state, capacity: int) -> Tree:
    """The kept tree, cut down to the subtree of ``state`` (or emptied when ``state`` does
    not follow the position searched last)."""
    tree = kept.tree
    if tree is None or tree.ints.shape[0] != capacity:
        tree = kept.tree = Tree.unfilled(capacity)
        _clear(tree)
        return tree
    node = _follow(kept, state, tree)
    if node is None:
        _clear(tree)
    elif node > 0:
        reroot(tree.ints, tree.value, tree.proven, tree.amaf, tree.prior, tree.used, node)
    return tree


def _continues(setup: object, history: list[int], state) -> bool:
    """Whether ``state`` follows the position of ``setup`` after ``history`` (the same game)."""
    return bool(history) and setup == _setup_of(state) and state.history[: len(history)] == history


def _follow(kept: Kept, state, tree: Tree) -> int | None:
    if not _continues(kept.setup, kept.history, state):
        return None
    node = 0
    for action in state.history[len(kept.history):]:
        if action == state.swap_action:
            continue  # the board stays as it is
        first, count = int(tree.ints[node, FIRST]), int(tree.ints[node, COUNT])
        found = [child for child in range(first, first + count) if tree.ints[child, ACTION] == action]
        if not found:
            return None
        node = found[0]
    return node


def _clear(tree: Tree) -> None:
    tree.ints[0] = 0
    tree.value[0] = 0.0
    tree.proven[0] = 0
    tree.amaf[0] = 0
    tree.used[0] = 1


def _next_chunk(clock, chunk: int) -> int:
    """Double the chunk, but with a time budget aim at the deadline (at the rate so far) so
    the search stops close to it."""
    if clock.deadline is None:
        return min(chunk * 2, 4096)
    return max(16, min(chunk * 2, 4096, int(_simulations_left(clock) * 0.9) + 1))


def _simulations_left(clock) -> float:
    """How many simulations the move's time left holds, at this search's rate so far."""
    elapsed = clock.elapsed()
    return clock.count / max(elapsed, 1e-6) * max(clock.allowed() - elapsed, 0.0)


def _expand_to_fit(least: int, free: int, nodes_per_simulation: float, simulations_left: float) -> int:
    """The visits a leaf needs before its children are made (at least ``least``) so that the
    simulations left fill at most half the ``free`` nodes, recomputed after each run of the
    kernel: the tree grows until the end and fills up only then. ``nodes_per_simulation`` is
    what a simulation makes at ``expand`` 1; at ``expand`` k a leaf gets its children on one
    visit in k, so a simulation makes about a k-th of it.

    Without it a long search fills :data:`MAX_NODES` in its first second or two (side 13: about
    7 nodes a simulation, 290,000 simulations a second) and then only plays out from the leaves
    it has: level 8's extra time bought nothing over level 7's."""
    needed, room = nodes_per_simulation * simulations_left, free // 2
    if needed <= room:
        return least
    return max(least, min(MOST_EXPAND, -(-int(needed) // max(room, 1))))


def _with_swap(state, analysis: Analysis) -> Analysis:
    """White's first reply: swap when the best move's value (for White) is below zero, i.e.
    when the position after Black's stone is better for the one who then plays Black."""
    swap = state.swap_action
    scores = dict(analysis.scores)
    scores[swap] = -analysis.value
    visits = dict(analysis.visits)
    visits[swap] = 0
    if scores[swap] > analysis.value:
        return replace(analysis, best=swap, scores=scores, line=[swap] + analysis.line, value=scores[swap],
                       depth=analysis.depth + 1, visits=visits)
    return replace(analysis, scores=scores, visits=visits)
