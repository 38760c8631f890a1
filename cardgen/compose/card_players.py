"""Cards that need more players than the game has (a card's `min_players`).

Why a module of its own: it is one rule about single cards, not about the composition, and it
runs for every pack, with or without composition.yaml. A card that only works with three or more
players (one that compares two opponents, say) declares `min_players: 3`. Chosen by name, the
check refuses it in a smaller game; taken in only because every special card plays by default,
it is left out with a note, so the table never meets a card it cannot play.
"""

from __future__ import annotations

from typing import Callable

from .deck import Deck


def check_card_players(deck: Deck, error: Callable[[str, str], None], chosen: bool) -> None:
    """An error per card whose `min_players` is above the player count, or, for a special card
    the user did not name (`chosen` false), the card dropped from the deck with a note."""
    if deck.players is None:
        return
    too_few = [lc for lc in deck.cards
               if lc.card.min_players is not None and deck.players < lc.card.min_players]
    special = {id(lc) for lc in deck.special_cards}
    for lc in too_few:
        if chosen or id(lc) not in special:
            error(lc.card.id, f"needs at least {lc.card.min_players} players (min_players in "
                  f"{lc.file}); the game has {deck.players}: leave the card out")
        else:
            deck.cards.remove(lc)
            deck.whole_pack = False
            deck.notes.append(f"{lc.card.id} left out: it needs at least "
                              f"{lc.card.min_players} players, the game has {deck.players}")
