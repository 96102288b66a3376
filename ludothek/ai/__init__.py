"""Bots for every game, on the generic protocol.

Map of the package (one job per module):

* :mod:`.base` — the :class:`Agent` interface (``choose``, ``analyse`` -> :class:`Analysis`)
  and the registry of agent specs (``random``, ``bot:1``..``bot:8``, ``mcts``, ``uct``,
  ``alphabeta``, plus the agents a game's spec adds) behind :func:`make_agent`;
  :mod:`.factories` builds them.
* :mod:`.budget` — time or iteration budgets (clocks read through an injectable ``now``);
  :mod:`.timing` — when a turn is critical (the dice games' levels 6–8 think up to twice as
  long then); :mod:`.walk` — fast play/undo for searches.
* :mod:`.mcts` — chance-aware UCT (solver, tree reuse); a game may run the whole search in
  its own compiled kernel (its knowledge's ``compiled_search``).
* :mod:`.alphabeta` — iterative deepening alpha-beta / expectiminimax with a
  transposition table, killer and history move ordering.
* :mod:`.knowledge` — a game's evaluation, playouts and ordering, from the knowledge module
  its spec names (in the game's own package); :mod:`.eval_generic` is the fallback.
* :mod:`.levels` — strength levels (a game's spec may change some); :mod:`.analysis` —
  ``ludothek analyse``.
* :mod:`.match`, :mod:`.stats`, :mod:`.ray_pool` — ``ludothek match``: paired games, score,
  95% interval, Elo; local process pool or Ray.
"""
