"""Bitis: three shared Miwin dice chained across a 6x4 board (Michael Winkelmann).

:mod:`.state` holds the game (``BitisState``), :mod:`.kernels` the compiled rules,
:mod:`.solve` the retrograde solver and :mod:`.solution` the solved values, best moves and
the perfect-play agent.
"""

from .state import BitisState

__all__ = ["BitisState"]
