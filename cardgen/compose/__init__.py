"""Compose stage: presets, variants, options and the composition checker.

cards.py        card lists as written ("A1-A4, F*, K") → IDs, and back
declaration.py  composition.yaml: loading, and its checks against the pack
deck.py         Choice (what the user chose) and Deck (the result, its counts and report rows)
needs.py        the rules a deck keeps (needs, the pile) and the names of the checks that ran
engine.py       compose(): the choice resolved and checked
(the deck sheet is drawn by render/deck_sheet.py: compose decides the deck, render draws it)
"""

from .declaration import FILE_NAME, load_composition
from .deck import Choice, Deck
from .engine import compose

__all__ = ["Choice", "Deck", "FILE_NAME", "compose", "load_composition"]
