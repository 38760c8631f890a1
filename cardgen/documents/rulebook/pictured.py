"""Which cards the rulebook pictures (its cover's fan, components, anatomy and set-up figures):
what the book's content key holds of the cards, so a stat changed on any other card leaves the
book as it is.

Why apart from rulebook_figures: every build works out the rulebook's content key, also when
the book is up to date or the pack has no rules; this needs only the pack's data, not
reportlab's platypus and the figures' drawing (60-100 ms to import).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import rules as m

if TYPE_CHECKING:
    from ...model.packdata import PackData

FAN = 5  # cards in the cover's fan


def fan_cards(kinds: list[list], count: int = FAN) -> list:
    """The cover's cards: spread over each kind, taken from the kinds in turn."""
    kinds = [spread(cards, count) for cards in kinds if cards]
    chosen = []
    while len(chosen) < count and any(kinds):
        for cards in kinds:
            if cards and len(chosen) < count:
                chosen.append(cards.pop(0))
    return chosen


def components_cards(block: m.Components, cards: list) -> list:
    """The cards a components figure shows of one kind: those named, else `show` spread."""
    named = [lc for lc in cards if lc.card.id in block.cards]
    return named or spread(cards, block.show)


def pictured_cards(data: PackData) -> set[str]:
    """IDs of the cards whose faces the whole rulebook shows (cover, figures): a change to any
    other card's stats or picture leaves the book as it is."""
    kinds = {k.id: data.cards_of(k.id) for k in data.pack.kinds}
    shown = [lc for lc in fan_cards(list(kinds.values()))]
    for _, chapter in data.chapters:
        for block in chapter.blocks:
            if isinstance(block, m.Components):
                for kind_id in block.kinds or list(kinds):
                    shown += components_cards(block, kinds.get(kind_id, []))
            elif isinstance(block, m.Anatomy):
                shown += [lc for lc in data.cards if lc.card.id == block.card]
            elif isinstance(block, m.Setup) and block.grid and block.grid.face == "front":
                cards = kinds.get(block.grid.kind, [])
                shown += cards[:block.grid.rows * block.grid.cols]
    return {lc.card.id for lc in shown}


def spread(cards: list, count: int) -> list:
    """`count` cards spread evenly over the list, first and last included."""
    if len(cards) <= count:
        return list(cards)
    if count == 1:
        return [cards[0]]
    return [cards[round(i * (len(cards) - 1) / (count - 1))] for i in range(count)]
