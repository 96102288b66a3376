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

import numpy as np
from numba import prange

from ...boards import triangle66 as T
from ...core.njit import njit
from ..dice.kernels import JUMP_FIELDS_TRIGEO, ZOBRIST, apply_move, move_hash_delta, zobrist_hash
from ..dice.batched import COUNT, PLY, SIDE, SINCE, DiceVector
from ...core.batched import CUT, DRAWN, GOES_ON, WON, record_outcome
from ..dice.vector_kernels import observe_dice
from .kernels import _repeats, irreversible, legal_moves
from .observe import TrigeoEncoder
from .state import TrigeoState

__all__ = ["TrigeoVector"]


class TrigeoVector(DiceVector):
    """``n`` games of Trigeo from the start position, stepped together.

    ``max_plies`` and ``first`` are :class:`TrigeoState`'s options (checked by it)."""

    STATE, ENCODER = TrigeoState, TrigeoEncoder

    def __init__(self, n: int, max_plies: int = 400, first: str = "white", seed: int | None = None,
                 parallel: bool = False, copy: bool = True):
        super().__init__(n, seed, parallel, copy, max_plies=max_plies, first=first)
        self._geo, self._jumps, self._zobrist = T.GEO, JUMP_FIELDS_TRIGEO, ZOBRIST
        # the side to move and the Zobrist hash of the start position
        self._start = np.array([self._start_side, zobrist_hash(self._start_board, self._start_side, ZOBRIST)],
                               np.uint64)

    def _arrays(self) -> tuple:
        return (self.boards, self.games, self.history, self._moves, self._geo, self._jumps, self._zobrist,
                self._start_board, self._start, self._board_planes, self._rows, self._columns,
                self.observations, self.legal, self.current_player)


# ------------------------------------------------------------------ compiled part
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
        observe_dice(boards[i], side, side, True, board_planes, rows, columns, observations[i])


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
    # the plain API's order (TrigeoState.is_over): no legal move, threefold repetition, max_plies
    if _legal(board, geo, jumps, game, moves[i], legal[i]) == 0:
        outcome = WON  # by the mover: the side now to move has lost
    elif _repeats(hist, ply, game[SINCE]) >= 3:
        outcome = DRAWN
    elif ply >= hist.shape[0] - 1:  # max_plies
        outcome = CUT
    else:
        outcome = GOES_ON
    if record_outcome(i, outcome, mover, rewards, terminations, truncations, final_winners):
        observe_dice(board, side, mover, False, board_planes, rows, columns, final_observations[i])
        _start_game(board, game, hist, start_board, start)
        _legal(board, geo, jumps, game, moves[i], legal[i])
    side = game[SIDE]
    current_player[i] = side
    observe_dice(board, side, side, True, board_planes, rows, columns, observations[i])


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


TrigeoVector._reset_kernel = staticmethod(_reset_all)
TrigeoVector._step_kernel = staticmethod(_step_all)
TrigeoVector._step_kernel_parallel = staticmethod(_step_all_parallel)
