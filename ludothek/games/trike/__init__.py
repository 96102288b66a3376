"""Trike: a neutral pawn on a triangle of hexagons (Alek Erickson, 2020)."""

from .state import TrikeState

__all__ = ["TrikeState"]
