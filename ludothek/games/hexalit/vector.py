"""Batched Hexalit for research (:mod:`ludothek.vector`): N games stepped in one compiled call.

::

    from ludothek.vector import HexalitVector
    games = HexalitVector(1024, max_plies=400, seed=1)
    observations, legal = games.reset()
    for _ in range(1000):
        observations, rewards, terminations, truncations, legal = games.step(games.sample_actions())

Everything is a numpy array with the games along the first axis:

* **Actions** — ``int (n,)``, the plain API's encoding (:class:`HexalitState`): ``from * 66 +
  to`` moves a die by its face, ``4356 + cell`` rolls the die on ``cell``; ``num_actions =
  4431`` (the outcomes 4422..4427 and the cube's actions are never legal here). An illegal
  action raises ``ValueError`` and changes nothing.
* **Rolls** — the vector rolls the die itself, from its seeded generator, within the step, as
  the PettingZoo environment resolves the chance node: a step is one turn.
  :attr:`HexalitVector.faces` holds the face each game rolled in the last step (1..6; 0 where
  it moved). To replay a game in the plain API, apply the roll and then the outcome
  ``4422 + face - 1``.
* **Observations** — ``float32 (n, 22, 6, 13)``: the planes of
  :mod:`ludothek.games.hexalit.observe` (the dice layout of :mod:`ludothek.games.dice.observe`,
  the PettingZoo / OpenSpiel tensors), seen by the seat to move
  (:attr:`HexalitVector.current_player`); ``temporary`` marks the rolled faces, ``rolling``
  and the cube's planes stay zero (no chance node is left open, the vector plays without the
  cube).
* **Legal masks** — ``int8 (n, 4431)``, as PettingZoo's ``action_mask`` for the seat to move.
* **Rewards** — ``float32 (n, 2)`` per seat (seat 0 is White, seat 1 Black): +1 / -1 on the
  step that wins a game (the side then to move has no legal action: its last 1 was captured or
  is caught by the Eins-Gebot, or it cannot move), 0 for a draw and on every other step.
* **Terminations** — ``bool (n,)``: the game ended on this step by its rules — a win, or a
  draw by threefold repetition (the same dice, temporary faces and side to move at the start
  of a turn for the third time).
* **Truncations** — ``bool (n,)``: the game was cut by the ``max_plies`` limit (turns from
  the start position), a draw with rewards 0 (the plain API's ``ending() == "move_limit"``),
  as for :class:`~ludothek.games.trigeo.vector.TrigeoVector`.

:meth:`HexalitVector.step` returns ``Step(observations, rewards, terminations, truncations,
legal)``. **Auto-reset** is Gymnasium's ``AutoresetMode.SAME_STEP``, as for the other vectors:
read :attr:`HexalitVector.final_observations` and :attr:`HexalitVector.final_winners` (``-1``
for a draw) where ``terminations | truncations`` is true.

The rules are the plain API's own kernels (:mod:`ludothek.games.hexalit.kernels`:
``masked_turn_actions``, ``masked_play_move``, ``masked_play_roll``, which keep each game's
masks with its board as the playouts do). Each game keeps a fingerprint of every turn start
(``max_plies + 1`` of them) and counts repetitions since its last capture (no position before a
capture can come again: a die lost is lost for good), which is the plain API's count over the
whole game. Each game rolls from a generator of its own, so ``parallel=True`` (numba's
``prange`` over the cores) gives the same games as a serial vector with the same seed.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...boards import triangle66 as T
from ...core.njit import njit
from ...core.random_kernels import random_below
from ..dice.kernels import CELLS
from ..dice.masks import ROWS, fingerprint
from ...core.batched import CUT, DRAWN, GOES_ON, WON, occurrences, record_outcome
from ..dice.batched import COUNT, PLY, SIDE, SINCE, DiceVector
from ..dice.vector_kernels import TEMPORARY, observe_dice
from .kernels import ROLL, masked_play_move, masked_play_roll, masked_turn_actions, position_masks
from .observe import HexalitEncoder
from .state import HexalitState

__all__ = ["HexalitVector"]

# the per-game integers: the dice vectors' SIDE, PLY (turns), SINCE, COUNT, then KEEP, whether
# the Eins-Gebot binds the side to move (the kernels' ``keep`` flag)
KEEP = 4


class HexalitVector(DiceVector):
    """``n`` games of Hexalit from the start position, stepped together, without the cube.

    ``max_plies`` and ``first`` are :class:`HexalitState`'s options (checked by it)."""

    STATE, ENCODER = HexalitState, HexalitEncoder
    COLUMNS = 5

    def __init__(self, n: int, max_plies: int = 400, first: str = "white", seed: int | None = None,
                 parallel: bool = False, copy: bool = True, cube: bool = False):
        if cube:
            raise ValueError("HexalitVector plays without the doubling cube (cube=False); "
                             "the PettingZoo environment offers cube=True")
        super().__init__(n, seed, parallel, copy, max_plies=max_plies, first=first)
        self._geo = T.GEO
        self.temps = np.zeros((n, CELLS), np.bool_)
        self._masks = np.zeros((n, ROWS, 2), np.uint64)
        self.faces = np.zeros(n, np.int8)

    def _seed(self, seed: int | None) -> None:
        super()._seed(seed)
        # one generator per game for the dice, so that games do not depend on each other
        # (and the parallel stepping rolls as the serial one)
        draws = np.random.default_rng(self._random[0]).integers(0, 2**63, size=self.n, dtype=np.int64)
        self._dice = draws.astype(np.uint64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start every game afresh; returns (observations, legal masks)."""
        self.faces[:] = 0
        return super().reset(seed)

    def _arrays(self) -> tuple:
        return (self.boards, self.temps, self._masks, self.games, self.history, self._moves, self._geo,
                self._start_board, self._start_side, self._board_planes, self._rows, self._columns,
                self.observations, self.legal, self.current_player)

    def _step_arrays(self) -> tuple:
        return self._dice, self.faces


# ------------------------------------------------------------------ compiled part
@njit(cache=True)
def _observe(board, temp, side, observer, to_act, board_planes, rows, columns, out):
    observe_dice(board, side, observer, to_act, board_planes, rows, columns, out)
    for cell in range(board.shape[0]):
        if temp[cell]:
            out[TEMPORARY, rows[cell], columns[cell]] = 1.0


@njit(cache=True)
def _legal(board, geo, d, game, moves, mask):
    """List the legal actions of the side to move, clear the mask's old ones and set the new
    ones; return how many there are."""
    for j in range(game[COUNT]):
        mask[moves[j]] = 0
    count, keep = masked_turn_actions(board, geo, d, game[SIDE], moves)
    for j in range(count):
        mask[moves[j]] = 1
    game[COUNT] = count
    game[KEEP] = keep
    return count


@njit(cache=True)
def _start_game(board, temp, d, game, hist, start_board, start_side):
    for cell in range(CELLS):
        board[cell] = start_board[cell]
        temp[cell] = False
    position_masks(board, temp, d)
    game[SIDE] = start_side
    game[PLY] = 0
    game[SINCE] = 0
    hist[0] = fingerprint(d, start_side)


@njit(cache=True)
def _reset_all(boards, temps, masks, games, history, moves, geo, start_board, start_side, board_planes, rows,
               columns, observations, legal, current_player):
    for i in range(boards.shape[0]):
        _start_game(boards[i], temps[i], masks[i], games[i], history[i], start_board, start_side)
        legal[i, :] = 0
        games[i, COUNT] = 0
        _legal(boards[i], geo, masks[i], games[i], moves[i], legal[i])
        current_player[i] = start_side  # seat 0 plays White, seat 1 Black
        _observe(boards[i], temps[i], start_side, start_side, True, board_planes, rows, columns, observations[i])


@njit(cache=True)
def _step_game(i, action, boards, temps, masks, games, history, moves, geo, start_board, start_side, board_planes,
               rows, columns, observations, legal, current_player, dice, faces, rewards, terminations, truncations,
               final_observations, final_winners):
    board, temp, d, game, hist = boards[i], temps[i], masks[i], games[i], history[i]
    mover = game[SIDE]
    ply = game[PLY]
    keep = game[KEEP] != 0  # the Eins-Gebot as it stood at the start of the turn
    if action < ROLL:
        if board[action % CELLS] != 0:
            game[SINCE] = ply + 1  # a capture: no earlier position can come again
        masked_play_move(board, temp, d, mover, action, keep)
        faces[i] = 0
    else:
        dice[i], face = random_below(dice[i], 6)
        masked_play_roll(board, temp, d, mover, action - ROLL, face + 1, keep)
        faces[i] = face + 1
    side = 1 - mover
    ply += 1
    game[SIDE] = side
    game[PLY] = ply
    hist[ply] = fingerprint(d, side)
    # the plain API's order (HexalitState._compute_outcome): no legal action, threefold
    # repetition, max_plies
    if _legal(board, geo, d, game, moves[i], legal[i]) == 0:
        outcome = WON  # by the mover: the side now to move has lost
    elif occurrences(hist, ply, game[SINCE], 2) >= 3:  # turn starts with the same side to move
        outcome = DRAWN
    elif ply >= hist.shape[0] - 1:  # max_plies
        outcome = CUT
    else:
        outcome = GOES_ON
    if record_outcome(i, outcome, mover, rewards, terminations, truncations, final_winners):
        _observe(board, temp, side, mover, False, board_planes, rows, columns, final_observations[i])
        _start_game(board, temp, d, game, hist, start_board, start_side)
        _legal(board, geo, d, game, moves[i], legal[i])
    side = game[SIDE]
    current_player[i] = side
    _observe(board, temp, side, side, True, board_planes, rows, columns, observations[i])


@njit(cache=True)
def _step_all(actions, boards, temps, masks, games, history, moves, geo, start_board, start_side, board_planes,
              rows, columns, observations, legal, current_player, dice, faces, rewards, terminations, truncations,
              final_observations, final_winners):
    for i in range(actions.shape[0]):
        _step_game(i, actions[i], boards, temps, masks, games, history, moves, geo, start_board, start_side,
                   board_planes, rows, columns, observations, legal, current_player, dice, faces, rewards,
                   terminations, truncations, final_observations, final_winners)


@njit(cache=True, parallel=True)
def _step_all_parallel(actions, boards, temps, masks, games, history, moves, geo, start_board, start_side,
                       board_planes, rows, columns, observations, legal, current_player, dice, faces, rewards,
                       terminations, truncations, final_observations, final_winners):
    for i in prange(actions.shape[0]):
        _step_game(i, actions[i], boards, temps, masks, games, history, moves, geo, start_board, start_side,
                   board_planes, rows, columns, observations, legal, current_player, dice, faces, rewards,
                   terminations, truncations, final_observations, final_winners)


HexalitVector._reset_kernel = staticmethod(_reset_all)
HexalitVector._step_kernel = staticmethod(_step_all)
HexalitVector._step_kernel_parallel = staticmethod(_step_all_parallel)
