"""Deterministic vector placeholder portraits: draw_portrait draws one into a box on a reportlab
canvas, portrait_traits says who it shows (the same seed, the same person)."""

from __future__ import annotations

from .court import draw_court
from .draw import draw_portrait
from .traits import portrait_traits

__all__ = ["draw_court", "draw_portrait", "portrait_traits"]
