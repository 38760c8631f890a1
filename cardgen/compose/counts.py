"""Counting for the compose stage: the copies of cards, the deal rule for a player count, and
player counts as ranges and runs.
"""

from __future__ import annotations

from typing import Optional

from ..model.packdata import LoadedCard
from ..model.compose import DealRule


def copies(cards: list[LoadedCard]) -> int:
    """The cards counted with their copies (a card's `count`)."""
    return sum(c.card.count for c in cards)


def deal_rule(rules: list[DealRule], players: int) -> Optional[DealRule]:
    """The deal rule for this many players, or None when no rule covers them."""
    return next((r for r in rules if r.players[0] <= players <= r.players[1]), None)


def merged_ranges(rules: list[DealRule]) -> list[tuple[int, int]]:
    """Player ranges of the deal rules, adjacent ones joined: 2–3 and 4–10 → 2–10."""
    out: list[list[int]] = []
    for low, high in sorted(r.players for r in rules):
        if out and low <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], high)
        else:
            out.append([low, high])
    return [tuple(r) for r in out]


def spans(numbers: list[int]) -> list[tuple[int, int]]:
    """Sorted whole numbers as runs: [2, 3, 4, 6] → [(2, 4), (6, 6)]."""
    out: list[list[int]] = []
    for n in numbers:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [tuple(r) for r in out]
