"""Research integrations: Ludothek's games for other frameworks.

* :mod:`.openspiel` — every game as an OpenSpiel Python game (extra ``ludothek[openspiel]``).
* :mod:`.pettingzoo` — every game as a PettingZoo AEC environment (extra ``ludothek[pettingzoo]``).
* :mod:`.observe` and :mod:`.raster` — observation tensors and RGB pictures shared by both
  (numpy only).

Nothing here is imported by ``import ludothek``; importing an adapter without its extra
raises an ImportError that names the extra to install.
"""
