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

This module itself stays light (the games' specs import it).
"""


#: the fewest nodes a move at which the learned evaluation was measured against the formula
#: (and won: docs/LEARNED_EVAL.md); levels below it keep the formula
NET_FROM_NODES = 3000


def alphabeta_levels(*nodes: int) -> dict[int, tuple[str, dict]]:
    """Levels 1..5 as alpha-beta (the stronger search at both dice games) with these node
    budgets, chosen by the ladder (``docs/LADDER.md``); levels 6..8 as alpha-beta with the
    time budgets of :data:`ludothek.ai.levels.THINKING`, twice that on critical turns. From
    :data:`NET_FROM_NODES` nodes on, and at every time budget, the search evaluates with the
    game's learned net (the agent ``alphabeta_net``)."""
    from ...ai.levels import timed_levels

    levels = {level: ("alphabeta_net" if n >= NET_FROM_NODES else "alphabeta", {"iterations": n})
              for level, n in enumerate(nodes, start=1)}
    return {**levels, **timed_levels("alphabeta_net")}


#: the draws both dice games share (the words of their spec's ``endings``)
DRAW_ENDINGS = {
    "repetition": {
        "en": "The same position came up for the third time: a draw.",
        "de": "Dieselbe Stellung kam zum dritten Mal vor: remis.",
    },
    "move_limit": {
        "en": "The game reached its move limit: a draw.",
        "de": "Die Partie hat ihre Zuggrenze erreicht: remis.",
    },
}
