"""The rules a deck must keep: needs (of the pack, a variant or an option), the pile, and the
names of the checks that applied, for `cardgen check --report`.

Why a module of its own: a need is a small rule on a composed Deck, whoever declares it; the
engine decides where a broken one is reported (the command line or composition.yaml).
"""

from __future__ import annotations

from typing import Optional

from ..model.compose import (NeedCards, NeedCount, NeedDeckSize, NeedKind, NeedNoCards,
                             NeedPlayers, NeedSet, NeedSpecialCards)
from ..validate.catalogue import and_list, compress, expand
from .counts import copies, deal_rule
from .deck import Deck
from .phrases import range_text, set_noun, structure_text


def need_problem(deck: Deck, need) -> Optional[str]:
    """None when the need is met, else what is wrong ('needs … ; the chosen deck has …').
    A need `when_players` holds only for a game of that many players."""
    if need.when_players is not None:
        low, high = need.when_players
        if deck.players is None or not low <= deck.players <= high:
            return None
        problem = _PROBLEMS[type(need)](deck, need)
        return problem and f"with {range_text(need.when_players)} players {problem}"
    return _PROBLEMS[type(need)](deck, need)


def _ids(deck: Deck, items: list[str]) -> list[str]:
    return [i for item in items for i in expand(item, deck.catalogue)]


def _deck_size(deck: Deck, need: NeedDeckSize) -> Optional[str]:
    have = copies(deck.deck_cards)
    if have in need.sizes():
        return None
    sizes = and_list([str(n) for n in need.sizes()], "or")
    word = " / ".join(deck.composition.deck_kinds) + " cards"
    return f"needs {sizes} {word}; the chosen deck has {have}"


def _without(deck: Deck, need: NeedNoCards) -> Optional[str]:
    named = _ids(deck, need.without)
    present = [lc.card.id for lc in deck.cards if lc.card.id in set(named)]
    return (f"is played without {compress(named, deck.catalogue)}; "
            f"{_these(deck, present)} in the deck") if present else None


def _count(deck: Deck, need: NeedCount) -> Optional[str]:
    named = set(_ids(deck, need.of))
    have = copies([lc for lc in deck.cards if lc.card.id in named])
    shown = compress(sorted(named), deck.catalogue)
    if need.at_most is not None and have > need.at_most:
        return f"allows at most {need.at_most} of {shown}; the deck has {have}"
    if need.at_least is not None and have < need.at_least:
        return f"needs at least {need.at_least} of {shown}; the deck has {have}"
    return None


def _cards(deck: Deck, need: NeedCards) -> Optional[str]:
    wanted = _ids(deck, need.cards)
    have = {lc.card.id for lc in deck.cards}
    missing = [i for i in wanted if i not in have]
    return (f"needs {compress(wanted, deck.catalogue)} in play; "
            f"{_these(deck, missing)} missing") if missing else None


def _these(deck: Deck, ids: list[str]) -> str:
    """'A1 is' / 'A1–A3 are': the cards a message is about, with their verb."""
    return f"{compress(ids, deck.catalogue)} {'is' if len(ids) == 1 else 'are'}"


def _special(deck: Deck, need: NeedSpecialCards) -> Optional[str]:
    have = copies(deck.special_cards)
    if have >= need.special_cards:
        return None
    what = "special cards" if need.special_cards == 1 else \
        f"at least {need.special_cards} special cards"
    return f"needs {what}; the chosen deck has {have or 'none'}"


def _set(deck: Deck, need: NeedSet) -> Optional[str]:
    names = [need.set] if isinstance(need.set, str) else need.set
    have = copies([lc for lc in deck.deck_cards if lc.card.set in names])
    if have >= need.at_least:
        return None
    sets = and_list(names, "or")
    what = f"cards of set {sets}" if need.at_least == 1 else \
        f"at least {need.at_least} cards of set {sets}"
    return f"needs {what}; the chosen deck has {have or 'none'}"


def _kind(deck: Deck, need: NeedKind) -> Optional[str]:
    have = copies([lc for lc in deck.cards if lc.kind == need.kind])
    if have >= need.at_least:
        return None
    what = f"{need.kind} cards" if need.at_least == 1 else \
        f"at least {need.at_least} {need.kind} cards"
    return f"needs {what}; the chosen deck has {have or 'none'}"


def _players(deck: Deck, need: NeedPlayers) -> Optional[str]:
    low, high = need.players
    if deck.players is None or low <= deck.players <= high:
        return None
    return f"is meant for {range_text(need.players)} players; the game has {deck.players}"


_PROBLEMS = {NeedDeckSize: _deck_size, NeedNoCards: _without, NeedCount: _count,
             NeedCards: _cards, NeedSpecialCards: _special, NeedSet: _set, NeedKind: _kind,
             NeedPlayers: _players}


def pile_problems(deck: Deck, counts: list[int]) -> list[tuple[int, str]]:
    """(index of the deal rule, what is wrong) for each player count whose pile, what stays
    undealt, does not last the first round of draws (deal rules with `draw`)."""
    comp = deck.composition
    dealt = deck.size if comp.deal_special else copies(deck.deck_cards)
    out = []
    for players in counts:
        rule = deal_rule(comp.deal, players)
        if rule is None or not rule.draw or rule.hand == "all":
            continue
        left = dealt - rule.hand * players
        if left < rule.draw * players:
            out.append((comp.deal.index(rule), f"the pile runs dry in the first round: with "
                        f"{players} players {rule.hand * players} of {dealt} cards are dealt, "
                        f"{max(left, 0)} stay in the pile, and one round draws "
                        f"{rule.draw * players}"))
    return out


def checks_that_ran(deck: Deck, declared: bool) -> list[str]:
    """The composition checks that applied to this deck, by name."""
    comp, out = deck.composition, []
    if declared:
        out.append("composition.yaml names and numbers")
    if comp.sets_of:
        out.append(f"complete {set_noun(comp.sets_of)}s")
    if comp.structure:
        counts = " with cards per set" if any(p.counts for p in comp.structure) else ""
        out.append(f"structure {structure_text(comp)}{counts}")
    rules = [n.rule for n in comp.needs]
    if deck.variant is not None:
        variant = comp.variants[deck.variant]
        out.append(f"variant {deck.variant}: players" +
                   ("" if variant.special_cards else ", special cards"))
        rules += [n.rule or deck.variant for n in variant.needs]
    out += [f"rule {r}" if r else "rules of composition.yaml" for r in dict.fromkeys(rules)]
    if comp.deal:
        out.append("deal by players" + (", pile lasts a round" if any(r.draw for r in comp.deal)
                                        else ""))
    if comp.rounds is not None:
        out.append("rounds by players" + (", every player starts equally often"
                                          if comp.rounds.each_starts else ""))
    if deck.options:
        out.append("options: variants, exclusions, needs")
    if deck.octets_on:
        out.append("octets reachable")
    return out
