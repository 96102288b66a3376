"""Trigeo: dice as chess pieces on the 66-triangle hexagon, with six jump fields."""

from .state import TrigeoState

__all__ = ["TrigeoState"]
