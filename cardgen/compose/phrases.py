"""The small phrases compose's messages and report rows are made of: a player range, a number
of cards, the noun of a set ('quartet', 'set of 5') and the declared set structure.
"""

from __future__ import annotations

from ..model.compose import Composition


def range_text(pair) -> str:
    """'3' / '2–5': a (low, high) range of players."""
    low, high = pair
    return f"{low}" if low == high else f"{low}–{high}"


def cards_text(n: int) -> str:
    """'1 card' / '3 cards'."""
    return f"{n} card" if n == 1 else f"{n} cards"


def set_noun(n: int) -> str:
    """The word for a set of n cards: 'pair', 'triple', 'quartet', 'set of 5'."""
    return {2: "pair", 3: "triple", 4: "quartet"}.get(n, f"set of {n}")


def set_nouns(k: int, n: int) -> str:
    """'a quartet' / '4 quartets' / '2 sets of 5'."""
    noun = set_noun(n)
    if k == 1:
        return f"a {noun}"
    return f"{k} {noun}s" if n in (2, 3, 4) else f"{k} sets of {n}"


def structure_text(comp: Composition) -> str:
    """'4×4 + 3×3 = 25 cards': the declared set structure and its total."""
    parts = " + ".join(f"{p.sets}×{p.size}" for p in comp.structure)
    return f"{parts} = {sum(p.sets * p.size for p in comp.structure)} cards"
