"""The compose stage: the user's choice (preset, variant, options ...) → the deck, checked.

Why a stage of its own: what may be combined is game data (composition.yaml), and the same check
serves `cardgen check` and `cardgen build`. Problems in composition.yaml point at its lines
(declaration.py); problems of the choice point at the command line (resolve.py reads the choice,
deck_checks.py checks the deck it gives).
"""

from __future__ import annotations

from typing import Optional

from ..diagnostics import Report, display_path
from ..load.pack import CARD_SUFFIXES, data_files
from ..model.packdata import LoadedCard, PackData
from ..validate.catalogue import Catalogue
from .declaration import Declared, check_declaration, load_composition
from .deck import Choice, Deck
from .deck_checks import DeckChecks
from .needs import checks_that_ran
from .resolve import ChoiceResolver


def compose(data: PackData, choice: Choice, report: Report) -> Optional[Deck]:
    """The deck the choice describes, with every composition problem in `report`.

    Returns None when no deck can be formed (a broken composition.yaml, a card that did not load,
    an unknown preset or card, a contradictory choice); the report then holds an error. Otherwise
    returns the deck even when a rule is broken: the caller decides with report.failed() — a
    build must not go on then; `check --report` still shows the deck.
    """
    declared = load_composition(data, report)
    if declared is None or _cards_missing(data):
        return None  # the load stage has said why; checking a partial pack only adds noise
    catalogue = Catalogue.of([(lc.card.id, lc.kind) for lc in _in_kind_order(data)])
    errors = len(report.errors)
    if declared.raw is not None:
        check_declaration(data, declared, catalogue, report)
    if len(report.errors) > errors:
        return None
    return _Composer(data, declared, catalogue, choice, report).run()


def _cards_missing(data: PackData) -> bool:
    """True when a card (or a whole card file) could not be loaded: its ID is unknown, and
    every set, preset and rule naming it would report a follow-on error."""
    loaded = {lc.file for lc in data.cards}
    files = data_files(data.folder / "cards", CARD_SUFFIXES)  # the files the loader read
    if any(display_path(path) not in loaded for path in files):
        return True
    ids = {lc.card.id for lc in data.cards}
    return any(i and i not in ids for i in getattr(data, "written_ids", ()))


def _in_kind_order(data: PackData) -> list[LoadedCard]:
    """The pack's cards, kind by kind as pack.yaml lists the kinds, each in file order."""
    rank = {k.id: i for i, k in enumerate(data.pack.kinds)}
    return sorted(data.cards, key=lambda lc: rank.get(lc.kind, len(rank)))


class _Composer:
    """Resolves one choice into a deck (resolve.py) and checks it (deck_checks.py)."""

    def __init__(self, data: PackData, declared: Declared, catalogue: Catalogue, choice: Choice,
                 report: Report):
        self.data, self.declared, self.cat = data, declared, catalogue
        self.choice, self.report = choice, report
        self.checks = DeckChecks(data, declared, catalogue, choice, report)
        self.resolver = ChoiceResolver(data, declared, catalogue, choice, self.checks.error)

    def run(self) -> Optional[Deck]:
        resolver = self.resolver
        errors = len(self.report.errors)
        resolver.check_ways()
        if len(self.report.errors) > errors:
            return None
        variant, variant_default = resolver.variant()
        preset = resolver.preset()
        options = resolver.options()
        teams = resolver.teams()
        if len(self.report.errors) > errors:
            return None
        deck_ids = resolver.deck_ids(preset)
        special_ids, special_explicit = resolver.special_ids(preset, variant)
        if deck_ids is None or special_ids is None:
            return None
        deck = self._deck(set(deck_ids) | set(special_ids), variant, variant_default, options,
                          teams)
        self.checks.check(deck, special_explicit)
        for name in checks_that_ran(deck, self.declared.raw is not None):
            self.report.ran_check(name)
        return deck

    def _deck(self, chosen: set[str], variant: Optional[str], variant_default: bool,
              options: tuple[str, ...], teams: tuple[int, ...]) -> Deck:
        """The deck of the chosen cards (in kind order, each once), with a note on the seed."""
        choice, seed = self.choice, self.resolver.seed
        cards = [lc for lc in _in_kind_order(self.data) if lc.card.id in chosen]
        cards = list({lc.card.id: lc for lc in cards}.values())
        deck = Deck(
            pack_id=self.data.pack.id, title=self.data.pack.title, cards=cards,
            catalogue=self.cat, composition=self.declared.composition,
            declared=self.declared.raw is not None,
            choice=choice, kind_labels={k.id: k.plural or k.label for k in self.data.pack.kinds},
            group_labels={g.id: g.label for g in self.data.pack.groups},
            preset=choice.preset, variant=variant, variant_default=variant_default,
            options=options, players=choice.players, teams=teams, seed=seed,
            seed_chosen=self.resolver.seed_chosen,
            whole_pack=len(cards) == len(self.cat.order))
        if self.resolver.drawn and self.resolver.seed_chosen:
            deck.notes.append(f"drawn at random with seed {seed}; add --seed {seed} "
                              "to get this deck again")
        elif choice.seed is not None and not self.resolver.drawn:
            deck.notes.append(f"--seed {choice.seed} changes nothing: nothing is drawn at random")
        return deck
