"""Dice pieces shared by Trigeo and Hexalit (board ``ludothek.boards.triangle66``).

* :mod:`.kernels` — the compiled rules of how dice move and capture, threats, move
  apply/undo, Zobrist hashing.  Board: ``int8[66]``, ``+face`` White, ``-face`` Black,
  ``0`` empty; sides ``WHITE = 0`` (home rows A/B, moves toward F) and ``BLACK = 1``.
  Moves: ``from * 66 + to``; ``PROMO + from * 66 + to`` = promote a 2 to a 6 (Trigeo).
  See the module docstring for each kernel's signature.
* :mod:`.position` — ``parse_position(text) -> (board, side, temporary bool[66])``,
  ``format_position(board, side, temporary=None)``, ``START``, ``LETTERS = "KPNBRQ"``.
* :mod:`.notation` — move text: ``B6XC6``, ``C7°D7``, ``E9°F10=6`` and the marks.
* :mod:`.render` — a rich rendering of the board, shared by both games.
"""

from .kernels import BLACK, CELLS, JUMP_FIELDS_TRIGEO, MAX_MOVES, NO_JUMPS, PROMO, WHITE, ZOBRIST
from .position import LETTERS, START, format_position, parse_position, start_board

__all__ = [
    "BLACK",
    "CELLS",
    "JUMP_FIELDS_TRIGEO",
    "LETTERS",
    "MAX_MOVES",
    "NO_JUMPS",
    "PROMO",
    "START",
    "WHITE",
    "ZOBRIST",
    "format_position",
    "parse_position",
    "start_board",
]
