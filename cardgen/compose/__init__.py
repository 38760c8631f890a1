"""Compose stage: presets, variants, options and the composition checker (see engine.py)."""

from .engine import Choice, Deck, FILE_NAME, compose, load_composition
from .sheet import deck_sheet_pdf

__all__ = ["Choice", "Deck", "FILE_NAME", "compose", "deck_sheet_pdf", "load_composition"]
