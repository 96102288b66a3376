"""Batched Bitis for research (:mod:`ludothek.vector`): N games stepped in one compiled call.

::

    from ludothek.vector import BitisVector
    games = BitisVector(1024, max_plies=200, seed=1)
    observations, legal = games.reset()
    for _ in range(1000):
        observations, rewards, terminations, truncations, legal = games.step(games.sample_actions())

Everything is a numpy array with the games along the first axis:

* **Actions** — ``int (n,)``, the plain API's encoding (:class:`BitisState`): ``die * 576 +
  cell * 24 + orientation``; ``num_actions = 1728``. An illegal action raises ``ValueError``
  and changes nothing.
* **Observations** — ``float32 (n, 115, 6, 4)``: the planes of
  :mod:`ludothek.games.bitis.observe` (the PettingZoo / OpenSpiel tensors), seen by the seat
  to move (:attr:`BitisVector.current_player`).
* **Legal masks** — ``int8 (n, 1728)``, as PettingZoo's ``action_mask`` for the seat to move.
* **Rewards** — ``float32 (n, 2)`` per seat (seat 0 is A, seat 1 B): +1 / -1 on the step that
  wins a game (a die placed on a base line, or the player to move has no placement), 0 for a
  draw and on every other step.
* **Terminations** — ``bool (n,)``: the game ended on this step by its rules — a win, or a
  draw by threefold repetition (the same dice, die placed last and player to move).
* **Truncations** — ``bool (n,)``: the game was cut by ``max_plies``. Bitis's rules set no
  bound on a game's length (only a repetition ends a long one), so the vector sets one, as the
  PettingZoo environment's ``max_moves`` does; random games last 8.6 plies on average.

:meth:`BitisVector.step` returns ``Step(observations, rewards, terminations, truncations,
legal)``. **Auto-reset** is Gymnasium's ``AutoresetMode.SAME_STEP``, as for the other vectors:
read :attr:`BitisVector.final_observations` and :attr:`BitisVector.final_winners` (``-1`` for a
draw) where ``terminations | truncations`` is true.

The rules are the plain API's own kernels (:mod:`ludothek.games.bitis.kernels`: ``gen_moves``,
``ended_by_placement``, ``key_of``). Each game keeps the key of every position since its start
(``max_plies + 1`` of them) and counts repetitions over all of them, as the plain API does (a
Bitis position can come back at any time). ``parallel=True`` spreads the games over the cores
with numba's ``prange``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...core.batched import CUT, DRAWN, GOES_ON, WON, LimitedGames, occurrences, record_outcome
from ...core.njit import njit
from .dice import FACES
from .kernels import MAX_MOVES, ROW, ended_by_placement, gen_moves, key_of
from .observe import A_TO_MOVE, LAST, OBSERVER_A, PER_DIE, BitisEncoder
from .state import GRID, BitisState

__all__ = ["BitisVector"]

# columns of the per-game integers; COUNT: how many legal placements the game's list holds
LAST_DIE, MOVER, PLY, COUNT = 0, 1, 2, 3
COLUMNS_OF_THE_GRID = GRID.columns


class BitisVector(LimitedGames):
    """``n`` games of Bitis from the start (no die on the board), stepped together; a game is
    cut after ``max_plies`` placements."""

    PLY, COUNT = PLY, COUNT
    MOVE_DTYPE, HISTORY_DTYPE = np.int16, np.int64  # gen_moves's actions, key_of's keys

    def __init__(self, n: int, max_plies: int = 200, seed: int | None = None, parallel: bool = False,
                 copy: bool = True):
        if isinstance(max_plies, bool) or not isinstance(max_plies, int) or not 1 <= max_plies <= 100_000:
            raise ValueError(f"max_plies must be a whole number from 1 to 100000, not {max_plies!r}")
        probe = BitisState()
        encoder = BitisEncoder(probe.options)
        assert encoder.planes[-1] == "observer_to_act" and encoder.shape[0] == OBSERVER_TO_ACT + 1
        self.options: dict = {}
        self._allocate(n, seed, parallel, copy, max_plies, probe.num_actions, encoder.shape, MAX_MOVES)
        self.cells = np.full((n, 3), -1, np.int8)
        self.ors = np.zeros((n, 3), np.int8)

    def _arrays(self) -> tuple:
        return (self.cells, self.ors, self.games, self.history, self._moves, self.observations, self.legal,
                self.current_player)


# ------------------------------------------------------------------ compiled part
OBSERVER_TO_ACT = OBSERVER_A + 1


@njit(cache=True)
def _observe(cells, ors, last, mover, observer, to_act, out):
    """The encoder's planes (:mod:`ludothek.games.bitis.observe`) seen by seat ``observer``."""
    out[:] = 0.0
    for die in range(3):
        cell = cells[die]
        if cell < 0:
            continue
        row, column = cell // COLUMNS_OF_THE_GRID, cell % COLUMNS_OF_THE_GRID
        base = die * PER_DIE
        out[base, row, column] = 1.0
        for side in range(4):
            out[base + 1 + side * 9 + FACES[die, ors[die], side] - 1, row, column] = 1.0
        if die == last:
            out[LAST, row, column] = 1.0
    if mover == 0:
        out[A_TO_MOVE] = 1.0
    if observer == 0:
        out[OBSERVER_A] = 1.0
    if to_act:
        out[OBSERVER_TO_ACT] = 1.0


@njit(cache=True)
def _legal(cells, ors, game, moves, mask):
    """List the legal placements, clear the mask's old ones and set the new ones; return how
    many there are."""
    for j in range(game[COUNT]):
        mask[moves[j]] = 0
    count = gen_moves(cells, ors, game[LAST_DIE], moves)
    for j in range(count):
        mask[moves[j]] = 1
    game[COUNT] = count
    return count


@njit(cache=True)
def _start_game(cells, ors, game, hist):
    for die in range(3):
        cells[die] = -1
        ors[die] = 0
    game[LAST_DIE] = -1
    game[MOVER] = 0
    game[PLY] = 0
    hist[0] = key_of(cells, ors, -1, 0)


@njit(cache=True)
def _reset_all(cells, ors, games, history, moves, observations, legal, current_player):
    for i in range(cells.shape[0]):
        _start_game(cells[i], ors[i], games[i], history[i])
        legal[i, :] = 0
        games[i, COUNT] = 0
        _legal(cells[i], ors[i], games[i], moves[i], legal[i])
        current_player[i] = 0  # A places first
        _observe(cells[i], ors[i], -1, 0, 0, True, observations[i])


@njit(cache=True)
def _step_game(i, action, cells_of, ors_of, games, history, moves, observations, legal, current_player, rewards,
               terminations, truncations, final_observations, final_winners):
    cells, ors, game, hist = cells_of[i], ors_of[i], games[i], history[i]
    mover = game[MOVER]
    die = action // 576
    cells[die] = (action // 24) % 24
    ors[die] = action % 24
    game[LAST_DIE] = die
    side = 1 - mover
    game[MOVER] = side
    ply = game[PLY] + 1
    game[PLY] = ply
    hist[ply] = key_of(cells, ors, die, side)
    # the plain API's order (BitisState.is_over, winner): a die on a base line (row 1 wins for
    # A, row 6 for B, whoever placed it), no placement, threefold repetition; then max_plies
    winner = -1
    if ended_by_placement(cells, die):
        outcome, winner = WON, 0 if ROW[cells[die]] == 1 else 1
    elif _legal(cells, ors, game, moves[i], legal[i]) == 0:
        outcome, winner = WON, mover  # the player to move has no placement
    elif occurrences(hist, ply, 0, 1) >= 3:  # since the start: any position can come back
        outcome = DRAWN
    elif ply >= hist.shape[0] - 1:
        outcome = CUT
    else:
        outcome = GOES_ON
    if record_outcome(i, outcome, winner, rewards, terminations, truncations, final_winners):
        _observe(cells, ors, die, side, mover, False, final_observations[i])
        _start_game(cells, ors, game, hist)
        _legal(cells, ors, game, moves[i], legal[i])
    current_player[i] = game[MOVER]
    _observe(cells, ors, game[LAST_DIE], game[MOVER], game[MOVER], True, observations[i])


@njit(cache=True)
def _step_all(actions, cells, ors, games, history, moves, observations, legal, current_player, rewards, terminations,
              truncations, final_observations, final_winners):
    for i in range(actions.shape[0]):
        _step_game(i, actions[i], cells, ors, games, history, moves, observations, legal, current_player, rewards,
                   terminations, truncations, final_observations, final_winners)


@njit(cache=True, parallel=True)
def _step_all_parallel(actions, cells, ors, games, history, moves, observations, legal, current_player, rewards,
                       terminations, truncations, final_observations, final_winners):
    for i in prange(actions.shape[0]):
        _step_game(i, actions[i], cells, ors, games, history, moves, observations, legal, current_player, rewards,
                   terminations, truncations, final_observations, final_winners)


BitisVector._reset_kernel = staticmethod(_reset_all)
BitisVector._step_kernel = staticmethod(_step_all)
BitisVector._step_kernel_parallel = staticmethod(_step_all_parallel)
