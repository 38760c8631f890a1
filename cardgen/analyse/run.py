"""The balance stage in one chain: table → static measures → simulations → suggestions.

Reads the checked pack, composition.yaml and balance.yaml; draws nothing and writes nothing
(the report painter and the CLI do that).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from ..model.packdata import PackData
from ..model.balance import Balance, PlayedVariant
from ..model.compose import Composition
from .duel import Rules
from .measures import Measures, beat_rate, measure
from .octets import OctetAdvice, advise
from .sets import SetRules
from .simulate import PlayStats, simulate
from .suggest import Suggestion, suggest
from .table import Table, build_table


@dataclass
class BalanceResult:
    pack_id: str
    title: str
    table: Table
    measures: Measures
    balance: Balance
    seed: int
    plays: list[PlayStats] = field(default_factory=list)
    suggestions: list[Suggestion] = field(default_factory=list)
    group_colours: dict[str, str] = field(default_factory=dict)
    group_labels: dict[str, str] = field(default_factory=dict)
    bonus_groups: set[str] = field(default_factory=set)      # octets that have a bonus
    language: str = "en"
    locale: str = "en-US"                                     # numbers the edition's way
    labels: dict[str, str] = field(default_factory=dict)      # the pack's own words
    kind_labels: dict[str, str] = field(default_factory=dict)  # kind → its plural label
    variant_labels: dict[str, str] = field(default_factory=dict)
    octet_scores: dict = field(default_factory=dict)          # group → OctetScore (declared)
    octet_advice: dict[str, OctetAdvice] = field(default_factory=dict)   # per sets variant
    octet_checked: dict[str, PlayStats] = field(default_factory=dict)    # played again with it
    sets_of: int = 4                                # composition.yaml's sets_of


def analyse(data: PackData, balance: Balance, composition: Composition, variants: list[str],
            games: Optional[int], seed: int) -> BalanceResult:
    specials = sorted({k for name in variants for k in balance.variants[name].specials}
                      | set(balance.specials))
    table = build_table(data, balance, balance.kinds, specials)
    measures = measure(table, data, balance.redundant_above)
    result = BalanceResult(data.pack.id, data.pack.title, table, measures, balance, seed,
                           group_colours={g.id: g.colour for g in data.pack.groups},
                           group_labels={g.id: g.short or g.label for g in data.pack.groups},
                           language=data.pack.language, locale=data.pack.locale,
                           labels=dict(data.pack.labels),
                           kind_labels={k.id: k.plural or k.label for k in data.pack.kinds},
                           variant_labels={n: v.label or n
                                           for n, v in composition.variants.items()})
    result.sets_of = composition.sets_of or 4
    if composition.octets:
        result.bonus_groups = {g for g, s in composition.octets.score.items() if s.bonus}
        result.octet_scores = dict(composition.octets.score)
    strength = _strength_of_all(table, measures)
    rules = Rules(table.outcome, _ranked(table), tuple(balance.tie_breaks), balance.duel_cap)
    for name in variants:
        played = balance.variants[name]
        declared = composition.variants.get(name)
        players = tuple(declared.players) if declared else (2, 8)
        cards = list(table.deck) + [i for i in table.specials
                                    if table.cards[i].kind in played.specials]
        sets = _set_rules(table, played, composition) if played.play == "sets" else None
        count = games if games is not None else played.games
        result.plays.append(simulate(name, played.play, rules, cards, strength, players, count,
                                     seed, sets))
        advice = advise(result.plays[-1].octets, sets.octet_score) \
            if sets is not None and sets.octet_score else None
        if advice is not None:
            result.octet_advice[name] = advice
        if advice is not None and advice.changes:      # the same games with the suggested values
            again = replace(sets, octet_score=advice.scores, member={})
            result.octet_checked[name] = simulate(name, played.play, rules, cards, strength,
                                                  players, count, seed, again)
    result.suggestions = suggest(table, measures, result.plays, balance.suggest)
    return result


def _strength_of_all(table: Table, measures: Measures) -> list[float]:
    """Strength per table row: the deck's from the measures, a special card's against the deck."""
    out = [0.0] * len(table.cards)
    for k, i in enumerate(table.deck):
        out[i] = measures.strength[k]
    for i in table.specials:
        out[i] = measures.specials.get("strength", {}).get(table.ids[i], 0.0)
    return out


def _ranked(table: Table) -> list[list[int]]:
    """Each card's columns, best first (by beat rate against every card it meets there);
    same-set values last, since the leader cannot know the other card's set."""
    everyone = list(range(len(table.cards)))
    out = []
    for i in everyone:
        own = [c for c in range(len(table.columns)) if table.values[i][c] is not None]
        rate = {c: beat_rate(table, c, i, everyone) or 0.0 for c in own}
        out.append(sorted(own, key=lambda c: (table.columns[c].same_set, -rate[c], c)))
    return out


def _set_rules(table: Table, played: PlayedVariant, composition: Composition) -> SetRules:
    cards = [lc.card for lc in table.cards]
    deck = set(table.deck)
    octets = composition.octets if played.octets else None
    return SetRules(
        set_of=[c.set if i in deck and c.set else None for i, c in enumerate(cards)],
        groups_of=[tuple(c.groups or ([c.group] if c.group else [])) if i in deck else ()
                   for i, c in enumerate(cards)],
        points=[c.points or 0 for c in cards],
        penalty=[c.penalty or 0 for c in cards],
        sets_of=composition.sets_of or 4,
        set_score=played.set_score,
        octet_size=octets.size if octets else 0,
        octet_score=dict(octets.score) if octets else None)
