"""Bots for every game, on the generic protocol.

Map of the package (one job per module):

* :mod:`.base` — the :class:`Agent` interface (``choose``, ``analyse`` -> :class:`Analysis`)
  and the registry of agent specs (``random``, ``bot:1``..``bot:5``, ``mcts``, ``uct``,
  ``alphabeta``, ``perfect``) behind :func:`make_agent`; :mod:`.factories` builds them.
* :mod:`.budget` — time or iteration budgets; :mod:`.walk` — fast play/undo for searches.
* :mod:`.mcts` — chance-aware UCT (solver, tree reuse); :mod:`.mcts_trike` with
  :mod:`.kernels_trike_mcts` — the same search compiled for Trike.
* :mod:`.alphabeta` — iterative deepening alpha-beta / expectiminimax with a
  transposition table, killer and history move ordering.
* :mod:`.knowledge` — per-game evaluation, playouts and ordering from ``eval_<game>``
  (:mod:`.eval_trike`, :mod:`.eval_trigeo`, :mod:`.eval_hexalit`, :mod:`.eval_bitis`, with
  compiled helpers in ``kernels_<game>`` / :mod:`.kernels_dice`; :mod:`.eval_generic` is
  the fallback).
* :mod:`.levels` — strength levels per game; :mod:`.analysis` — ``ludothek analyse``.
* :mod:`.match`, :mod:`.stats`, :mod:`.ray_pool` — ``ludothek match``: paired games, score,
  95% interval, Elo; local process pool or Ray.
"""
