"""The deck-choice options shared by `cardgen check` and `cardgen build`.

Use them as parameters of a command and turn them into a Choice:

    def build(..., preset: PresetOption = None, cards: CardsOption = None, ...):
        choice = choice_from(preset, cards, random, seed, special, variant, option, players,
                             teams)
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

_PANEL = "Deck choice"

PresetOption = Annotated[Optional[str], typer.Option(
    "--preset", help="A deck preset declared in the pack's composition.yaml.",
    show_default=False, rich_help_panel=_PANEL)]
CardsOption = Annotated[Optional[str], typer.Option(
    "--cards", help="Your own deck: card IDs, ranges and patterns, e.g. 'A1-A4,C1-C4,F1-F12'.",
    show_default=False, rich_help_panel=_PANEL)]
RandomOption = Annotated[Optional[int], typer.Option(
    "--random", min=1, help="A random deck of N cards (drawn in whole quartets where the pack "
    "has them); repeat it with --seed.", show_default=False, rich_help_panel=_PANEL)]
SeedOption = Annotated[Optional[int], typer.Option(
    "--seed", min=0, help="Seed of every random draw; without it cardgen picks one and prints "
    "it.", show_default=False, rich_help_panel=_PANEL)]
SpecialOption = Annotated[Optional[str], typer.Option(
    "--special", help="Special cards: none, all, a list like 'S2-S4,L1-L8', a kind like K, "
    "random:N, or a mix ('S2-S4,random:3'). Default: all (none where the variant plays "
    "without).", show_default=False, rich_help_panel=_PANEL)]
VariantOption = Annotated[Optional[str], typer.Option(
    "--variant", help="The variant to play (default: the pack's default variant).",
    show_default=False, rich_help_panel=_PANEL)]
OptionOption = Annotated[Optional[list[str]], typer.Option(
    "--option", help="A game option (repeatable, or comma-separated).", show_default=False,
    rich_help_panel=_PANEL)]
PlayersOption = Annotated[Optional[int], typer.Option(
    "--players", min=1, max=99, help="Number of players (checks the variant's range, shows "
    "the hand size).", show_default=False, rich_help_panel=_PANEL)]
TeamsOption = Annotated[Optional[str], typer.Option(
    "--teams", help="Team sizes with a team option, e.g. 2,2,3.", show_default=False,
    rich_help_panel=_PANEL)]


def choice_from(preset: Optional[str] = None, cards: Optional[str] = None,
                random: Optional[int] = None, seed: Optional[int] = None,
                special: Optional[str] = None, variant: Optional[str] = None,
                option: Optional[list[str]] = None, players: Optional[int] = None,
                teams: Optional[str] = None):
    """The Choice the command-line options describe."""
    from ..compose import Choice  # here, so that `--help` does not load the engine
    return Choice(preset=preset, cards=cards, random=random, seed=seed, special=special,
                  variant=variant, options=tuple(option or ()), players=players, teams=teams)


def one_pack_for(choice, packs: Optional[list[str]]) -> None:
    """A deck choice describes one game: it needs exactly one PACK (usage error otherwise)."""
    if choice.given() and len(packs or []) != 1:
        raise typer.BadParameter("the deck options (--preset, --cards, --random, --seed, "
                                 "--special, --variant, --option, --players, --teams) describe "
                                 "one game: name exactly one PACK", param_hint="PACK")
