"""Batched Trike for research (:mod:`ludothek.vector`): N games stepped in one compiled call.

::

    from ludothek.vector import TrikeVector
    games = TrikeVector(1024, size=13, seed=1)
    observations, legal = games.reset()
    for _ in range(1000):
        observations, rewards, terminations, legal = games.step(games.sample_actions())

Everything is a numpy array with the games along the first axis:

* **Actions** — ``int (n,)``, the plain API's encoding: a cell index moves the pawn there,
  ``num_cells`` is ``swap`` (``TrikeState.swap_action``). An illegal action raises
  ``ValueError`` and changes nothing.
* **Observations** — ``float32 (n, planes, size, size)``: the planes of
  :mod:`ludothek.games.trike.observe` (the PettingZoo / OpenSpiel tensors), seen by the
  seat to move (:attr:`TrikeVector.current_player`).
* **Legal masks** — ``int8 (n, num_actions)``, as PettingZoo's ``action_mask`` for the
  seat to move.
* **Rewards** — ``float32 (n, 2)`` per seat (seat 0 is the player who started as Black):
  +1 / -1 on the step that ends a game, else 0 (Trike has no draws).
* **Terminations** — ``bool (n,)``: the game ended on this step. Trike games always end
  (at most one move per cell plus the swap), so there is no truncation.

**Auto-reset** follows Gymnasium's ``AutoresetMode.SAME_STEP``: a game that ends in a step
starts again within that same step. Its row of ``observations`` and ``legal`` is the new
game's start; its ``rewards`` and ``terminations`` are the finished game's; the finished
game's last observation (seen by the seat that made the last move, ``observer_to_act``
zero) is in :attr:`TrikeVector.final_observations` and its winning seat in
:attr:`TrikeVector.final_winners` — read them where ``terminations`` is true (Gymnasium
returns the same in ``infos["final_obs"]``).

The rules are the plain API's own kernels (:mod:`ludothek.games.trike.kernels`:
``targets`` and ``points``); ``parallel=True`` spreads the games over the cores with
numba's ``prange``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from ...boards.hex_triangle import hex_triangle
from ...core.batched import BatchedGames
from ...core.njit import njit
from .kernels import BLACK, EMPTY, points, random_below, targets
from .observe import TrikeEncoder
from .state import TrikeState

__all__ = ["TrikeVector"]

#: plane order written by :func:`_observe`; checked against the encoder's
PLANES = ("black", "white", "pawn", "empty", "black_to_move", "swapped", "observer_black", "observer_to_act")
# columns of the per-game integers; TARGETS: how many cells the pawn can reach now
PAWN, COLOUR, SWAPPED, STONES, TARGETS = 0, 1, 2, 3, 4


class Step(NamedTuple):
    observations: np.ndarray
    rewards: np.ndarray
    terminations: np.ndarray
    legal: np.ndarray


class TrikeVector(BatchedGames):
    """``n`` games of Trike on the board of side ``size``, stepped together."""

    def __init__(self, n: int, size: int = 13, seed: int | None = None, parallel: bool = False, copy: bool = True):
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        probe = TrikeState(size=size)  # checks the size
        encoder = TrikeEncoder(probe.options)
        assert encoder.planes == PLANES, "the vector writes the encoder's planes"
        geometry = hex_triangle(size)
        self.n, self.size, self.copy = n, size, copy
        self.num_cells = geometry.size
        self.num_actions = probe.num_actions
        self.observation_shape = encoder.shape
        self.parallel = parallel
        self._neighbours = geometry.neighbours
        coords = np.array(geometry.coords, dtype=np.int64)
        self._rows, self._columns = coords[:, 0].copy(), coords[:, 1].copy()
        self._seed(seed)
        self.boards = np.zeros((n, self.num_cells), np.int8)
        self.games = np.zeros((n, 5), np.int64)  # PAWN, COLOUR, SWAPPED, STONES, TARGETS
        self._targets = np.empty((n, self.num_cells), np.int16)
        self.observations = np.zeros((n, *encoder.shape), np.float32)
        self.final_observations = np.zeros_like(self.observations)
        self.legal = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros((n, 2), np.float32)
        self.terminations = np.zeros(n, np.bool_)
        self.final_winners = np.full(n, -1, np.int8)
        self.current_player = np.zeros(n, np.int8)
        self._started = False

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start every game afresh; returns (observations, legal masks)."""
        if seed is not None:
            self._seed(seed)
        _reset_all(*self._arrays())
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.final_winners[:] = -1
        self._started = True
        return self._out(self.observations), self._out(self.legal)

    def step(self, actions: np.ndarray) -> Step:
        """Play one action in every game (see the module's doc for what comes back)."""
        actions = self._checked(actions)
        stepper = _step_all_parallel if self.parallel else _step_all
        stepper(actions, *self._arrays(), self.rewards, self.terminations, self.final_observations,
                self.final_winners)
        return Step(self._out(self.observations), self._out(self.rewards), self._out(self.terminations),
                    self._out(self.legal))

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, from the vector's seeded generator."""
        actions = np.empty(self.n, np.int64)
        _sample(self.games, self._targets, self.boards.shape[1], self._random, actions)
        return actions

    def _arrays(self) -> tuple:
        return (self.boards, self.games, self._neighbours, self._targets, self._rows, self._columns,
                self.observations, self.legal, self.current_player)


# ------------------------------------------------------------------ compiled part
@njit(cache=True)
def _observe(board, pawn, colour, swapped, observer, to_act, rows, columns, out):
    """The encoder's planes (:mod:`ludothek.games.trike.observe`) seen by the seat playing
    ``observer``."""
    out[:] = 0.0
    for cell in range(board.shape[0]):
        stone = board[cell]
        plane = 3 if stone == EMPTY else stone - 1  # black 0, white 1
        out[plane, rows[cell], columns[cell]] = 1.0
    if pawn >= 0:
        out[2, rows[pawn], columns[pawn]] = 1.0
    if colour == BLACK:
        out[4] = 1.0
    if swapped:
        out[5] = 1.0
    if observer == BLACK:
        out[6] = 1.0
    if to_act:
        out[7] = 1.0


@njit(cache=True)
def _swap_allowed(game):
    """The pie rule: White's first turn, after Black's opening stone."""
    return game[PAWN] >= 0 and not game[SWAPPED] and game[STONES] == 1


@njit(cache=True)
def _legal(board, neighbours, game, buffer, mask):
    """Write the legal mask of the game; return how many cells the pawn can reach."""
    mask[:] = 0
    count = targets(board, neighbours, game[PAWN], buffer)
    for j in range(count):
        mask[buffer[j]] = 1
    if _swap_allowed(game):
        mask[board.shape[0]] = 1
    game[TARGETS] = count
    return count


@njit(cache=True)
def _sample(games, buffers, swap, random, out):
    """Uniform legal actions from the targets :func:`_legal` left in ``buffers``."""
    state = random[0]
    for i in range(games.shape[0]):
        game = games[i]
        count = game[TARGETS]
        state, k = random_below(state, count + 1 if _swap_allowed(game) else count)
        out[i] = swap if k == count else buffers[i, k]
    random[0] = state


@njit(cache=True)
def _start(board, game):
    board[:] = EMPTY
    game[PAWN] = -1
    game[COLOUR] = BLACK
    game[SWAPPED] = 0
    game[STONES] = 0


@njit(cache=True)
def _show(i, boards, games, rows, columns, observations, current_player):
    """The observation of game ``i`` for its seat to move."""
    game = games[i]
    colour = game[COLOUR]
    current_player[i] = (colour - 1) ^ game[SWAPPED]
    # the seat to move always plays the colour to move
    _observe(boards[i], game[PAWN], colour, game[SWAPPED], colour, True, rows, columns, observations[i])


@njit(cache=True)
def _reset_all(boards, games, neighbours, buffers, rows, columns, observations, legal, current_player):
    for i in range(boards.shape[0]):
        _start(boards[i], games[i])
        _legal(boards[i], neighbours, games[i], buffers[i], legal[i])
        _show(i, boards, games, rows, columns, observations, current_player)


@njit(cache=True)
def _step_game(i, action, boards, games, neighbours, buffers, rows, columns, observations, legal, current_player,
               rewards, terminations, final_observations, final_winners):
    board, game = boards[i], games[i]
    if action == board.shape[0]:
        game[SWAPPED] = 1
    else:
        board[action] = game[COLOUR]
        game[PAWN] = action
        game[COLOUR] = 3 - game[COLOUR]
        game[STONES] += 1
    rewards[i, 0] = 0.0
    rewards[i, 1] = 0.0
    terminations[i] = False
    final_winners[i] = -1
    if _legal(board, neighbours, game, buffers[i], legal[i]) == 0:
        terminations[i] = True
        black, white = points(board, neighbours, game[PAWN])
        black_seat = game[SWAPPED]  # seat 0 plays Black unless the pie rule swapped them
        winner = black_seat if black > white else 1 - black_seat
        final_winners[i] = winner
        rewards[i, winner] = 1.0
        rewards[i, 1 - winner] = -1.0
        mover = 3 - game[COLOUR]  # a game never ends on a swap
        _observe(board, game[PAWN], game[COLOUR], game[SWAPPED], mover, False, rows, columns,
                 final_observations[i])
        _start(board, game)
        _legal(board, neighbours, game, buffers[i], legal[i])
    _show(i, boards, games, rows, columns, observations, current_player)


@njit(cache=True)
def _step_all(actions, boards, games, neighbours, buffers, rows, columns, observations, legal, current_player,
              rewards, terminations, final_observations, final_winners):
    for i in range(actions.shape[0]):
        _step_game(i, actions[i], boards, games, neighbours, buffers, rows, columns, observations, legal,
                   current_player, rewards, terminations, final_observations, final_winners)


@njit(cache=True, parallel=True)
def _step_all_parallel(actions, boards, games, neighbours, buffers, rows, columns, observations, legal,
                       current_player, rewards, terminations, final_observations, final_winners):
    for i in prange(actions.shape[0]):
        _step_game(i, actions[i], boards, games, neighbours, buffers, rows, columns, observations, legal,
                   current_player, rewards, terminations, final_observations, final_winners)
