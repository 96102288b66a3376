"""Batched Trigeo for research (:mod:`ludothek.vector`): N games stepped in one compiled call.

::

    from ludothek.vector import TrigeoVector
    games = TrigeoVector(1024, max_plies=400, seed=1)
    observations, legal = games.reset()
    for _ in range(1000):
        observations, rewards, terminations, truncations, legal = games.step(games.sample_actions())

Everything is a numpy array with the games along the first axis:

* **Actions** — ``int (n,)``, the plain API's encoding (:class:`TrigeoState`): ``from * 66 +
  to`` for a move or capture, ``4356 + from * 66 + to`` for a 2 stepping onto its last row
  and becoming a 6; ``num_actions = 8712``. An illegal action raises ``ValueError`` and
  changes nothing.
* **Observations** — ``float32 (n, 22, 6, 13)``: the planes of
  :mod:`ludothek.games.trigeo.observe` (the dice layout of :mod:`ludothek.games.dice.observe`,
  the PettingZoo / OpenSpiel tensors), seen by the seat to move
  (:attr:`TrigeoVector.current_player`).
* **Legal masks** — ``int8 (n, 8712)``, as PettingZoo's ``action_mask`` for the seat to move.
* **Rewards** — ``float32 (n, 2)`` per seat (seat 0 is White, seat 1 Black): +1 / -1 on the
  step that wins a game (the side then to move has no legal move: its 1 was captured, is
  threatened without escape, or it cannot move), 0 for a draw and on every other step.
* **Terminations** — ``bool (n,)``: the game ended on this step by its rules — a win, or a
  draw by threefold repetition (the same dice with the same side to move a third time).
* **Truncations** — ``bool (n,)``: the game was cut on this step by the ``max_plies``
  limit (plies from the start position), Gymnasium's convention for a time limit; its
  rewards are 0 (the plain API calls it a draw, ``ending() == "move_limit"``; the PettingZoo
  environment reports it as a termination with rewards 0). A win on the last allowed ply is
  a win and a repetition there a termination: the plain API's order (win, repetition,
  limit). A game never has both flags.

:meth:`TrigeoVector.step` returns ``Step(observations, rewards, terminations, truncations,
legal)`` in this order (Trike's ``Step`` has no ``truncations``).

**Auto-reset** follows Gymnasium's ``AutoresetMode.SAME_STEP``: a game that ends or is cut in
a step starts again within that same step. Its row of ``observations`` and ``legal`` is the
new game's start; its ``rewards``, ``terminations`` and ``truncations`` are the finished
game's; the finished game's last observation (seen by the seat that made the last move,
``observer_to_act`` zero) is in :attr:`TrigeoVector.final_observations` and its winning seat
(``-1`` for a draw, also a truncated one) in :attr:`TrigeoVector.final_winners` — read them
where ``terminations | truncations`` is true (Gymnasium returns the same in
``infos["final_obs"]``).

The rules are the plain API's own kernels (:mod:`ludothek.games.trigeo.kernels`:
``legal_moves`` and the repetition helpers; :mod:`ludothek.games.dice.kernels`:
``apply_move``, ``move_hash_delta``, ``zobrist_hash``), combined as in ``perft``: each game
keeps the Zobrist hashes of its positions (``max_plies + 1`` of them, 8 bytes each) and the
index of the first position after its last irreversible move (``irreversible``: a capture,
or a 2's move other than between two jump fields); repetitions are counted from there, which
is the plain API's count over the whole game.
``parallel=True`` spreads the games over the cores with numba's ``prange``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ...boards import triangle66 as T
from ...core.batched import BatchedGames
from ..dice.kernels import CELLS, JUMP_FIELDS_TRIGEO, MAX_MOVES, WHITE, ZOBRIST, apply_move, move_hash_delta, zobrist_hash
from ..dice.observe import COLUMN, ROW
from ...core.random_kernels import random_below
from .kernels import _repeats, irreversible, legal_moves
from .observe import TrigeoEncoder
from .state import TrigeoState

__all__ = ["TrigeoVector"]

#: plane order written by :func:`_observe`; checked against the encoder's
PLANES = (
    *(f"white_{f}" for f in range(1, 7)),
    *(f"black_{f}" for f in range(1, 7)),
    "temporary", "rolling", "cell", "up", "jump", "white_to_move", "observer_white", "cube_offer", "stake",
    "observer_to_act",
)
CELL, WHITE_TO_MOVE, OBSERVER_WHITE, OBSERVER_TO_ACT = (
    PLANES.index(name) for name in ("cell", "white_to_move", "observer_white", "observer_to_act")
)
# columns of the per-game integers; COUNT: how many legal moves the game's move list holds
SIDE, PLY, SINCE, COUNT = 0, 1, 2, 3


class Step(NamedTuple):
    observations: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray
    legal: np.ndarray


class TrigeoVector(BatchedGames):
    """``n`` games of Trigeo from the start position, stepped together.

    ``max_plies`` and ``first`` are :class:`TrigeoState`'s options (checked by it)."""

    def __init__(self, n: int, max_plies: int = 400, first: str = "white", seed: int | None = None,
                 parallel: bool = False, copy: bool = True):
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        probe = TrigeoState(max_plies=max_plies, first=first)  # checks the options
        encoder = TrigeoEncoder(probe.options)
        assert encoder.planes == PLANES, "the vector writes the encoder's planes"
        self.n, self.copy, self.parallel = n, copy, parallel
        self.options = dict(probe.options)
        self.max_plies = int(probe.options["max_plies"])
        self.num_actions = probe.num_actions
        self.observation_shape = encoder.shape
        self._rows, self._columns = ROW.astype(np.int64), COLUMN.astype(np.int64)
        self._geo, self._jumps, self._zobrist = T.GEO, JUMP_FIELDS_TRIGEO, ZOBRIST
        # the start position and the planes that are the same in every position (cell, up, jump)
        self._start_board = probe.board.copy()
        self._start = np.array([probe.side, zobrist_hash(probe.board, probe.side, ZOBRIST)], np.uint64)
        self._board_planes = encoder.encode(probe, 0)[CELL: CELL + 3].copy()
        self._seed(seed)
        self.boards = np.zeros((n, CELLS), np.int8)
        self.games = np.zeros((n, 4), np.int64)  # SIDE, PLY, SINCE, COUNT
        self.history = np.zeros((n, self.max_plies + 1), np.uint64)  # Zobrist hash per ply
        self._moves = np.zeros((n, MAX_MOVES), np.int32)
        self.observations = np.zeros((n, *encoder.shape), np.float32)
        self.final_observations = np.zeros_like(self.observations)
        self.legal = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros((n, 2), np.float32)
        self.terminations = np.zeros(n, np.bool_)
        self.truncations = np.zeros(n, np.bool_)
        self.final_winners = np.full(n, -1, np.int8)
        self.current_player = np.zeros(n, np.int8)
        self._started = False

    @property
    def plies(self) -> np.ndarray:
        """Plies played in each game since its start."""
        return self.games[:, PLY].copy()

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start every game afresh; returns (observations, legal masks)."""
        if seed is not None:
            self._seed(seed)
        _reset_all(*self._arrays())
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.truncations[:] = False
        self.final_winners[:] = -1
        self._started = True
        return self._out(self.observations), self._out(self.legal)

    def step(self, actions: np.ndarray) -> Step:
        """Play one action in every game (see the module's doc for what comes back)."""
        actions = self._checked(actions)
        stepper = _step_all_parallel if self.parallel else _step_all
        stepper(actions, *self._arrays(), self.rewards, self.terminations, self.truncations,
                self.final_observations, self.final_winners)
        return Step(self._out(self.observations), self._out(self.rewards), self._out(self.terminations),
                    self._out(self.truncations), self._out(self.legal))

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, from the vector's seeded generator."""
        actions = np.empty(self.n, np.int64)
        _sample(self.games, self._moves, self._random, actions)
        return actions

    def _arrays(self) -> tuple:
        return (self.boards, self.games, self.history, self._moves, self._geo, self._jumps, self._zobrist,
                self._start_board, self._start, self._board_planes, self._rows, self._columns,
                self.observations, self.legal, self.current_player)


# ------------------------------------------------------------------ compiled part
@njit(cache=True)
def _observe(board, side, observer, to_act, board_planes, rows, columns, out):
    """The encoder's planes (:mod:`ludothek.games.dice.observe`) seen by the seat playing
    ``observer``, ``side`` to move; the planes of rolls, temporary faces and the cube stay zero."""
    out[:] = 0.0
    for cell in range(board.shape[0]):
        v = np.int64(board[cell])
        if v > 0:  # White's face f is plane f - 1, Black's plane 6 + f - 1
            out[v - 1, rows[cell], columns[cell]] = 1.0
        elif v < 0:
            out[5 - v, rows[cell], columns[cell]] = 1.0
    out[CELL: CELL + 3] = board_planes
    if side == WHITE:
        out[WHITE_TO_MOVE] = 1.0
    if observer == WHITE:
        out[OBSERVER_WHITE] = 1.0
    if to_act:
        out[OBSERVER_TO_ACT] = 1.0


@njit(cache=True)
def _legal(board, geo, jumps, game, moves, mask):
    """List the legal moves of the side to move, clear the mask's old moves and set the new
    ones; return how many there are."""
    for j in range(game[COUNT]):
        mask[moves[j]] = 0
    count = legal_moves(board, geo, game[SIDE], jumps, moves)
    for j in range(count):
        mask[moves[j]] = 1
    game[COUNT] = count
    return count


@njit(cache=True)
def _sample(games, moves, random, out):
    """Uniform legal actions from the moves :func:`_legal` listed."""
    state = random[0]
    for i in range(games.shape[0]):
        state, k = random_below(state, games[i, COUNT])
        out[i] = moves[i, k]
    random[0] = state


@njit(cache=True)
def _start_game(board, game, hist, start_board, start):
    board[:] = start_board
    game[SIDE] = np.int64(start[0])
    game[PLY] = 0
    game[SINCE] = 0
    hist[0] = start[1]


@njit(cache=True)
def _reset_all(boards, games, history, moves, geo, jumps, zobrist, start_board, start, board_planes, rows, columns,
               observations, legal, current_player):
    for i in range(boards.shape[0]):
        _start_game(boards[i], games[i], history[i], start_board, start)
        legal[i, :] = 0
        games[i, COUNT] = 0
        _legal(boards[i], geo, jumps, games[i], moves[i], legal[i])
        side = games[i, SIDE]
        current_player[i] = side  # seat 0 plays White, seat 1 Black
        _observe(boards[i], side, side, True, board_planes, rows, columns, observations[i])


@njit(cache=True)
def _step_game(i, action, boards, games, history, moves, geo, jumps, zobrist, start_board, start, board_planes,
               rows, columns, observations, legal, current_player, rewards, terminations, truncations,
               final_observations, final_winners):
    board, game, hist = boards[i], games[i], history[i]
    mover = game[SIDE]
    ply = game[PLY]
    # the hash of every position (as TrigeoState and perft keep them); an irreversible move
    # starts the repetition window afresh
    hist[ply + 1] = hist[ply] ^ move_hash_delta(board, action, zobrist)
    if irreversible(board, action):
        game[SINCE] = ply + 1
    apply_move(board, action)
    side = 1 - mover
    ply += 1
    game[SIDE] = side
    game[PLY] = ply
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminations[i] = False
    truncations[i] = False
    final_winners[i] = -1
    # the plain API's order (TrigeoState.is_over): no legal move, threefold repetition, max_plies
    if _legal(board, geo, jumps, game, moves[i], legal[i]) == 0:
        terminations[i] = True  # the side to move has lost
        final_winners[i] = mover
        rewards[i, mover] = 1.0
        rewards[i, side] = -1.0
    elif _repeats(hist, ply, game[SINCE]) >= 3:
        terminations[i] = True
    elif ply >= hist.shape[0] - 1:  # max_plies
        truncations[i] = True
    if terminations[i] or truncations[i]:
        _observe(board, side, mover, False, board_planes, rows, columns, final_observations[i])
        _start_game(board, game, hist, start_board, start)
        _legal(board, geo, jumps, game, moves[i], legal[i])
    side = game[SIDE]
    current_player[i] = side
    _observe(board, side, side, True, board_planes, rows, columns, observations[i])


@njit(cache=True)
def _step_all(actions, boards, games, history, moves, geo, jumps, zobrist, start_board, start, board_planes, rows,
              columns, observations, legal, current_player, rewards, terminations, truncations, final_observations,
              final_winners):
    for i in range(actions.shape[0]):
        _step_game(i, actions[i], boards, games, history, moves, geo, jumps, zobrist, start_board, start,
                   board_planes, rows, columns, observations, legal, current_player, rewards, terminations,
                   truncations, final_observations, final_winners)


@njit(cache=True, parallel=True)
def _step_all_parallel(actions, boards, games, history, moves, geo, jumps, zobrist, start_board, start,
                       board_planes, rows, columns, observations, legal, current_player, rewards, terminations,
                       truncations, final_observations, final_winners):
    for i in prange(actions.shape[0]):
        _step_game(i, actions[i], boards, games, history, moves, geo, jumps, zobrist, start_board, start,
                   board_planes, rows, columns, observations, legal, current_player, rewards, terminations,
                   truncations, final_observations, final_winners)
