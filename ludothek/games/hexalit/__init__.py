"""Hexalit: dice as chess pieces on the 66-triangle hexagon, with rolls (Jeff & Rudi, 1997)."""

from .state import HexalitState

__all__ = ["HexalitState"]
