"""Compose stage: presets, variants, options and the composition checker.

declaration.py  composition.yaml: loading, and its checks against the pack
deck.py         Choice (what the user chose) and Deck (the result, its counts and report rows)
counts.py       copies of cards, the deal rule for a player count, player ranges and runs
phrases.py      the small phrases of messages: player ranges, set nouns, the set structure
needs.py        the rules a deck keeps (needs, the pile) and the names of the checks that ran
card_players.py cards that need more players than the game has (min_players)
resolve.py      the choice resolved: variant, preset, options, teams, deck and special card IDs
deck_checks.py  the checks of the composed deck (sets, structure, players, options, rules ...)
engine.py       compose(): the choice resolved and checked
(the deck sheet is drawn by render/deck_sheet.py: compose decides the deck, render draws it)
"""

from .declaration import FILE_NAME, load_composition
from .deck import Choice, Deck
from .engine import compose

__all__ = ["Choice", "Deck", "FILE_NAME", "compose", "load_composition"]
