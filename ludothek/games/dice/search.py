"""The driver of the compiled alpha-beta (:mod:`.search_kernels`) for Trigeo and Hexalit.

Iterative deepening runs here, in Python, as :class:`ludothek.ai.alphabeta.AlphaBetaAgent`
does it (the same root order, the same rules for keeping a move of an unfinished depth and
for stopping early); each depth is one compiled search of the root move list, run in slices
of nodes so that the clock is read every few milliseconds (numba has no clock; the search
stops after any node and goes on where it stopped).  The transposition table and the
evaluation cache are numpy arrays kept in :class:`SearchTables` between depths and between
moves (the agent keeps them until :meth:`~ludothek.ai.base.Agent.reset`); killers and
history start afresh with every move, as in the Python search.

Settings (``agent.search_options``, every key optional):

* ``tt``: ``"full"`` (default: moves and cut-offs), ``"moves"`` (only the best move, for
  ordering: the values stay those of plain alpha-beta), ``"off"``;
* ``pvs`` (default ``True``): principal variation search, null windows after the first move;
* ``lmr``: plies a late quiet move is reduced by (0: none);
* ``null_move``: plies of the null-move reduction (0: none);
* ``eval_cache`` (default ``True``): keep static values by position key (values unchanged);
* ``weights``: the evaluation's weights by name (:data:`.eval_kernels.WEIGHT_NAMES`), those
  not named as the game plays them (:data:`WEIGHTS`); for tuning (the ``alphabeta_with`` agent);
* ``net``: a learned net's packed parameters (:func:`.net.pack`) that correct the evaluation
  (the ``alphabeta_net`` agent).

:data:`DEFAULTS` are those the measurements chose (``benchmarks/search_speed.py --options``
for nodes to a depth, paired games at equal node budgets for strength): in Trigeo a late
quiet move is reduced by one ply (2.2 times fewer nodes to depth 6, and it won 58.8% of 80
games at 10k nodes a move; two plies instead of one: 2.2 times fewer nodes again to depth 7,
but only 52.5% of 80 games against one ply); in Hexalit late-move reductions saved only 9% of the nodes to
depth 4 and won 48% of 60 games, so they are off; the null move won 50% in both games (80
and 60 games, with late-move reductions on both sides) and is off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from ...ai.base import Analysis
from ...ai.budget import Clock
from ...ai.timing import next_depth_hopeless, watch
from ...boards import triangle66 as T
from . import search_kernels as K
from .eval_kernels import HEXALIT_WEIGHTS, TRIGEO_WEIGHTS, WEIGHT_NAMES
from .kernels import CELLS, PROMO
from .masks import ROWS, dice_masks, jump_masks

#: the settings used unless an agent names others, by game (see the module docstring)
DEFAULTS = {
    K.TRIGEO: {"tt": "full", "pvs": True, "lmr": 1, "null_move": 0, "eval_cache": True},
    K.HEXALIT: {"tt": "full", "pvs": True, "lmr": 0, "null_move": 0, "eval_cache": True},
}
WEIGHTS = {K.TRIGEO: TRIGEO_WEIGHTS, K.HEXALIT: HEXALIT_WEIGHTS}
_TT_MODES = {"off": K.TT_OFF, "moves": K.TT_MOVES, "full": K.TT_FULL}
_LINE = 30
#: the evaluation cache's size, 2**14 entries (256 KB: it stays in the L2 cache)
EVAL_BITS = 14


@dataclass
class Root:
    """A position at the start of a turn, as the kernels see it."""

    game: int  # K.TRIGEO or K.HEXALIT
    board: np.ndarray  # int8[66]
    temp: np.ndarray  # bool[66]
    side: int
    key: int  # the position's Zobrist key (Hexalit: with its temporary faces)
    check: bool  # the Eins-Gebot binds the side to move
    plies_left: int  # plies (Hexalit: turns) before the move-limit draw
    history: np.ndarray  # uint64 keys of the positions so far, the root included (repetitions)
    jumps: np.ndarray  # the jump fields (Trigeo) or none


class SearchTables:
    """The arrays of one compiled search (see :mod:`.search_kernels`)."""

    def __init__(self, game: int, tt_bits: int = 20, eval_bits: int = EVAL_BITS):
        frames, width = K.MAX_FRAMES, K.MAX_LIST
        self.game = game
        self.par = np.zeros(K.N_PAR, np.int64)
        self.reg = np.zeros(K.N_REG, np.int64)
        self.freg = np.zeros(4, np.float64)
        self.ints = np.zeros((frames, K.N_INTS), np.int64)
        self.flts = np.zeros((frames, K.N_FLTS), np.float64)
        self.hashes = np.zeros(frames, np.uint64)
        self.boards = np.zeros((frames, CELLS), np.int8)
        self.temps = np.zeros((frames, CELLS), np.bool_)
        self.moves = np.zeros((frames, width), np.int32)
        self.scores = np.zeros((frames, width), np.int64)
        self.pv = np.zeros((frames, _LINE + 2), np.int32)
        self.killers = np.full((frames, 2), -1, np.int32)
        self.history = np.zeros((2, 2 * PROMO), np.int64)
        self.tt = _aligned_zeros(1 << tt_bits, K.TT_ENTRY)  # (an entry always has its move)
        self.ec = _aligned_zeros(1 << eval_bits, K.EC_ENTRY)
        self.buf = np.zeros(width, np.int32)
        self.masks = np.zeros((frames, ROWS, 2), np.uint64)  # Trigeo's, kept with the boards
        self.weights = WEIGHTS[game]  # read-only, as every evaluation's weights (one compiled signature)
        self._sums = np.zeros((frames, 1))
        self.generation = 0
        self.par[K.P_GAME] = game

    def clear(self) -> None:
        """Forget the transposition table and the evaluation cache."""
        self.tt[:] = 0
        self.ec[:] = 0

    @property
    def sums(self) -> np.ndarray:
        """Each frame's first-layer sums of the learned net the weights carry (one column if none)."""
        hidden = int(self.weights[K.NET_START]) if len(self.weights) > K.NET_START else 1
        if self._sums.shape[1] != hidden:
            self._sums = np.zeros((K.MAX_FRAMES, hidden))
        return self._sums

    def _run(self, g_keys, g_counts, root_moves, root_scores, jumps, limit: int) -> int:
        return K.run(self.par, self.reg, self.freg, self.ints, self.flts, self.hashes, self.boards, self.temps,
                     self.moves, self.scores, self.pv, self.killers, self.history, self.tt, self.ec,
                     g_keys, g_counts, root_moves, root_scores, T.GEO, jumps, self.buf, self.masks, self.sums,
                     self.weights, limit)


def _aligned_zeros(count: int, dtype: np.dtype, align: int = 64) -> np.ndarray:
    """``np.zeros(count, dtype)`` starting on an ``align``-byte boundary (a cache line)."""
    raw = np.zeros(count * dtype.itemsize + align, np.uint8)
    start = -raw.ctypes.data % align
    return raw[start:start + count * dtype.itemsize].view(dtype)


def options_of(agent, game: int) -> dict:
    found = dict(DEFAULTS[game])
    found.update(getattr(agent, "search_options", None) or {})
    return found


def weights_of(options: dict, game: int) -> np.ndarray:
    w = np.array(WEIGHTS[game])
    for name, value in (options.get("weights") or {}).items():
        w[WEIGHT_NAMES.index(name)] = value
    net = options.get("net")
    if net is not None:  # a learned net corrects the hand evaluation (:mod:`.net`)
        w = np.concatenate([w, net])
    w.setflags(write=False)
    return w


def analyse(agent, state, clock: Clock, root: Root, order) -> Analysis:
    """The agent's iterative deepening (:meth:`AlphaBetaAgent.analyse
    <ludothek.ai.alphabeta.AlphaBetaAgent.analyse>`) over the compiled search."""
    tables = getattr(agent, "compiled_tables", None)
    if not isinstance(tables, SearchTables) or tables.game != root.game:
        bits = _table_bits(clock)
        tables = SearchTables(root.game, tt_bits=bits, eval_bits=min(EVAL_BITS, bits))
        agent.compiled_tables = tables
    options = options_of(agent, root.game)
    tables.weights = weights_of(options, root.game)
    quiescence = max(0, int(agent.quiescence))
    # a roll and its face are two plies of one depth: keep every frame on the stack
    max_depth = max(1, min(int(agent.max_depth), (K.MAX_FRAMES - quiescence - 4) // 2))
    tables.generation = (tables.generation + 1) & ((1 << 20) - 1)
    par = tables.par
    par[K.P_PLIES_LEFT] = root.plies_left
    par[K.P_QUIESCENCE] = quiescence
    par[K.P_REPDRAW] = 1 if agent.repetition_draws else 0
    par[K.P_TT] = _TT_MODES[options["tt"]]
    par[K.P_PVS] = 1 if options["pvs"] else 0
    par[K.P_LMR] = int(options["lmr"])
    par[K.P_NULL] = int(options["null_move"])
    par[K.P_EXACT_ROOT] = 1 if agent.exact_root else 0
    par[K.P_EVAL_CACHE] = 1 if options["eval_cache"] else 0
    par[K.P_GENERATION] = tables.generation
    tables.killers[:] = -1
    tables.history[:] = 0
    tables.reg[:] = 0
    size = 1 << max(4, int(2 * len(root.history)).bit_length())
    g_keys, g_counts = K.game_table(np.ascontiguousarray(root.history, np.uint64), size)
    _first_frame(tables, root)

    actions = order(state, state.legal_actions())
    agent.rng.shuffle(actions)  # ties between equal moves go different ways per seed
    actions = order(state, actions)
    scores: dict[int, float] = {}
    best = actions[0]
    line = [best]
    completed = 0
    slice_nodes = 2000
    stopped: str | None = "max_depth"
    turn = watch(clock)  # a budget that allows more time on critical turns
    for depth in range(1, max_depth + 1):
        root_moves = np.array(actions, np.int32)
        root_scores = np.zeros(len(actions), np.float64)
        if turn is not None:  # the previous best is searched first
            turn.running = lambda s=root_scores: float(s[0]) if tables.reg[K.R_ROOT_DONE] >= 1 else None
        par[K.P_NROOT] = len(actions)
        K.start_iteration(par, tables.reg, tables.freg, tables.ints, tables.flts, tables.killers, depth)
        finished = False
        while True:
            limit = int(tables.reg[K.R_NODES]) + slice_nodes
            if clock.limit is not None:
                limit = min(limit, clock.limit)
            started = clock.now()
            before = int(tables.reg[K.R_NODES])
            status = tables._run(g_keys, g_counts, root_moves, root_scores, root.jumps, limit)
            clock.count = int(tables.reg[K.R_NODES])
            if status == K.DONE:
                finished = True
                break
            if (clock.limit is not None and clock.count >= clock.limit) or clock.out_of_time():
                break
            spent = clock.now() - started
            if spent > 0 and clock.deadline is not None:  # about 5 ms a slice
                rate = (clock.count - before) / spent
                slice_nodes = int(min(max(256, rate * 0.005), 1 << 22))
            elif clock.deadline is None:
                slice_nodes = 1 << 22
        done = int(tables.reg[K.R_ROOT_DONE])
        if not finished:
            # keep a move of the unfinished depth only if it beat the previous best
            partial = {actions[i]: float(root_scores[i]) for i in range(done)}
            if partial and actions[0] in partial:
                top = max(partial, key=lambda a: partial[a])
                if partial[top] > partial[actions[0]]:
                    best = top
                    scores.update(partial)
                    line = _line(tables, top)
            stopped = None  # the budget ran out
            break
        scores = {a: float(root_scores[i]) for i, a in enumerate(actions)}
        completed = depth
        actions = sorted(actions, key=lambda a: -scores[a])
        best = actions[0]
        line = _line(tables, best)
        if turn is not None:
            turn.depth_done(best, scores[best])
        if abs(scores[best]) > 0.95:
            stopped = "decided"  # a forced win or loss
            break
        if next_depth_hopeless(clock):
            stopped = "next_depth"
            break
        if not tables.reg[K.R_HORIZON]:
            stopped = "exhausted"  # the whole tree was searched
            break
    return Analysis(best=best, scores=scores, line=line, value=scores.get(best, 0.0), iterations=clock.count,
                    seconds=clock.elapsed(), depth=completed, stopped=stopped, critical=clock.extended)


def _first_frame(tables: SearchTables, root: Root) -> None:
    """The root as the search's first frame."""
    ints = tables.ints
    tables.boards[0] = root.board
    dice_masks(tables.boards[0], tables.masks[0])
    tables.temps[0] = root.temp
    tables.hashes[0] = np.uint64(root.key)
    ints[0, :] = 0
    ints[0, K.F_SIDE] = root.side
    ints[0, K.F_CHECK] = 1 if root.check else 0
    ints[0, K.F_NULLOK] = 1


#: the search's largest callees, about two thirds of its compile time (:func:`warm_part`)
PARTS = ("evaluation", "captures", "moves", "status", "move")


def parts_of(game_warm_part: Callable[[str], None]) -> dict[str, Callable[[], None]]:
    """A game's :data:`PARTS`, each a call of its ``warm_part`` (what its knowledge module's
    ``warm_parts`` hands out)."""
    return {part: partial(game_warm_part, part) for part in PARTS}


def warm_part(root: Root, part: str) -> None:
    """Compile one of :data:`PARTS` by a call from Python on ``root``, with the argument types
    the search passes it. A process warming up beside the one compiling the search compiles
    them meanwhile (:func:`ludothek.ai.knowledge.warm_parts`); the search then loads them from
    the kernel cache instead of compiling them itself."""
    if part not in PARTS:
        raise ValueError(f"no part {part!r} of the search (parts: {', '.join(PARTS)})")
    tables = SearchTables(root.game, tt_bits=4, eval_bits=4)
    tables.weights = weights_of(DEFAULTS[root.game], root.game)
    _first_frame(tables, root)
    lo, hi = (np.uint64(mask) for mask in jump_masks(root.jumps))  # numba hands back Python ints
    game, side = tables.par[K.P_GAME], tables.ints[0, K.F_SIDE]
    board, temp, masks, moves = tables.boards[0], tables.temps[0], tables.masks[0], tables.moves[0]
    if part == "evaluation":
        K.evaluate_frame(game, tables.boards, tables.temps, tables.sums, tables.ints, 0, masks, T.GEO, root.jumps,
                         lo, hi, tables.buf, tables.weights)
    elif part == "captures":
        K.free_captures(board, masks, T.GEO, side, root.jumps, lo, hi, moves)
        K.masked_captures(board, masks, T.GEO, side, root.jumps, lo, hi, moves)
    elif part == "moves":
        K.generate(game, board, temp, masks, side, T.GEO, root.jumps, lo, hi, moves)
    elif part == "status":
        K.masked_status(board, masks, T.GEO, side, root.jumps, lo, hi, moves, tables.buf)
    else:  # "move": the root's first move, played into the next frame
        if K.generate(game, board, temp, masks, side, T.GEO, root.jumps, lo, hi, moves)[0] > 0:
            K._push_move(game, tables.ints, tables.flts, tables.hashes, tables.boards, tables.temps, tables.masks, 0,
                         int(moves[0]), 1, -1.0, 1.0, K.K_DEC, 0)


def _table_bits(clock: Clock) -> int:
    """2**20 entries (24 MB), fewer for a small node budget (a quick bot level)."""
    if clock.limit is None:
        return 20
    return max(12, min(20, int(clock.limit).bit_length() + 1))


def _line(tables: SearchTables, best: int) -> list[int]:
    """The expected line: the root's principal variation (it ends at a roll)."""
    n = int(tables.ints[0, K.F_PVLEN])
    line = [int(a) for a in tables.pv[0, :n]]
    if not line or line[0] != best:
        return [best]
    return line[:_LINE]
