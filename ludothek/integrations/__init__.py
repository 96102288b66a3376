"""Research integrations: Ludothek's games for other frameworks.

* :mod:`.openspiel` — every game as an OpenSpiel Python game (extra ``ludothek[openspiel]``).
* :mod:`.pettingzoo` — every game as a PettingZoo AEC environment (extra ``ludothek[pettingzoo]``).
* :mod:`.observe` and :mod:`.raster` — the observation encoder contract and the drawing
  canvas shared by both (numpy only); each game's encoder and picture live in its package,
  named by its spec.

``import ludothek`` imports only :mod:`._pyspiel_hook`, which registers the games with OpenSpiel
once ``pyspiel`` is imported (it imports neither pyspiel nor numba itself); importing an adapter
without its extra raises an ImportError that names the extra to install.
"""
