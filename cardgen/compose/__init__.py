"""Compose stage: presets, variants, options and the composition checker.

cards.py        card lists as written ("A1-A4, F*, K") → IDs, and back
declaration.py  composition.yaml: loading, and its checks against the pack
deck.py         Choice (what the user chose) and Deck (the result, its counts and report rows)
engine.py       compose(): the choice resolved and checked
sheet.py        deck_sheet_pdf(): the one-page deck sheet
"""

from .declaration import FILE_NAME, load_composition
from .deck import Choice, Deck
from .engine import compose
from .sheet import deck_sheet_pdf

__all__ = ["Choice", "Deck", "FILE_NAME", "compose", "deck_sheet_pdf", "load_composition"]
