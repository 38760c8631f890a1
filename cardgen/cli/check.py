"""cardgen check: validate packs (stats, references, composition) without writing anything."""

from __future__ import annotations

from typing import Annotated

import typer

from .choice import (CardsOption, OptionOption, PlayersOption, PresetOption, RandomOption,
                     SeedOption, SpecialOption, TeamsOption, VariantOption, choice_from,
                     one_pack_for)
from .common import (DataOption, LanguageOption, PacksArgument, StrictOption, data_dir, finish,
                     info, use_edition)

ReportOption = Annotated[bool, typer.Option(
    "--report", help="Print a table of the chosen deck: cards per kind, set and group, "
    "quartets, octets, special cards, options, and the checks that ran for the pack.",
    rich_help_panel="Deck choice")]


def check(packs: PacksArgument = None, data: DataOption = None,
          strict: StrictOption = False,
          preset: PresetOption = None, cards: CardsOption = None, random: RandomOption = None,
          seed: SeedOption = None, special: SpecialOption = None, variant: VariantOption = None,
          option: OptionOption = None, players: PlayersOption = None, teams: TeamsOption = None,
          report_table: ReportOption = False, language: LanguageOption = None) -> None:
    """Check packs: every card, stat and rule, and the deck you choose; all problems at once.

    Examples:

      cardgen check                      # every pack

      cardgen check crazy-hospital --strict

      cardgen check crazy-hospital --preset balanced-32 --seed 7 --option challenge-1 --report

      cardgen check crazy-hospital --cards A1-A4,C1-C4,D1-D8 --special S2-S4 --players 4

      cardgen check quartett --language en --strict   # the English edition, every text
    """
    from ..diagnostics import Report
    from ..incremental.plan import select_packs
    from ..pipeline.chain import check_pack

    from ..model.settings import BuildSettings
    from .build import with_user_settings

    use_edition(language)
    choice = choice_from(preset, cards, random, seed, special, variant, option, players, teams)
    one_pack_for(choice, packs)
    report = Report()
    settings = BuildSettings()
    with_user_settings(settings, report)  # the printer's settings file, as build reads it
    for folder in select_packs(data_dir(data), packs or [], report):
        ran_before = len(report.ran)
        checked = check_pack(folder, report, settings, choice=choice)
        if checked is None:
            continue
        loaded, deck = checked.data, checked.deck
        counts = ", ".join(f"{sum(c.card.count for c in loaded.cards_of(k.id))} {k.id}"
                           for k in loaded.pack.kinds)
        info(f"{loaded.pack.id}: {counts}")
        if deck is None:
            continue
        if choice.given():
            typer.echo(f"{loaded.pack.id} deck: {deck.describe()}")
        if report_table:
            print_deck(deck, report.ran[ran_before:])
        else:
            for note in deck.notes:
                typer.echo(f"{loaded.pack.id} note: {note}")
    finish(report, strict)
    if not report.items:
        info("ok")


def print_deck(deck, checks: list[str] = ()) -> None:
    """The --report table: one row per aspect of the deck, labels aligned; then the checks
    that ran for the pack."""
    rows = deck.report_rows() + [("checks", name) for name in dict.fromkeys(checks)]
    wide = max(len(label) for label, _ in rows)
    for label, value in rows:
        typer.echo(f"  {label.ljust(wide)}  {value}")
