"""What every command shares: options, printing diagnostics, turning results into exit codes."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..diagnostics import Report, paint

DEFAULT_DATA = Path("card_data")

DataOption = Annotated[Optional[Path], typer.Option(
    "--data", metavar="DIR", help="Folder holding the packs (default: ./card_data, else the one "
    "shipped with cardgen).", show_default=False)]
StrictOption = Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")]
LANGUAGES = ("de", "nl", "en", "fr", "it")
LanguageOption = Annotated[Optional[str], typer.Option(
    "--language", metavar="LANG", help="The edition to work on: de, en, fr, it or nl (default: "
    "each pack's own language; a translation lives in the pack's editions/LANG/).",
    show_default=False)]


def use_edition(language: Optional[str]) -> None:
    """--language chosen for this command (checked: a code cardgen knows)."""
    from ..paths import choose_edition
    if language is not None and language not in LANGUAGES:
        raise typer.BadParameter(f"{language!r} is not one of {', '.join(LANGUAGES)}",
                                 param_hint="--language")
    choose_edition(language)


def complete_packs(incomplete: str) -> list[str]:
    """Tab completion of PACK: the packs in ./card_data (or the shipped ones)."""
    from ..paths import find_packs
    return [p.name for p in find_packs(data_dir(None)) if p.name.startswith(incomplete)]


PacksArgument = Annotated[Optional[list[str]], typer.Argument(
    metavar="[PACK]...", help="Pack ids (folder names); none = every pack.", show_default=False,
    autocompletion=complete_packs)]


@dataclass
class Output:
    """How much to print (-q 0, normal 1, -v 2) and whether diagnostics may be coloured."""

    level: int = 1
    colour: bool = True


OUTPUT = Output()


def info(text: str) -> None:
    """A line of progress or summary on stdout; -q leaves it out."""
    if OUTPUT.level >= 1:
        typer.echo(text)


def detail(text: str) -> None:
    """A line only -v prints."""
    if OUTPUT.level >= 2:
        typer.echo(text)


def warn(text: str) -> None:
    """A warning about the command line itself (not about a file): on stderr, always."""
    paint(f"cardgen: warning: {text}", "warning", sys.stderr, OUTPUT.colour)


def data_dir(option: Optional[Path]) -> Path:
    """--data, else ./card_data when it exists, else the packs shipped next to the package."""
    if option is not None:
        return option
    if DEFAULT_DATA.is_dir():
        return DEFAULT_DATA
    from ..paths import ROOT
    return ROOT / "card_data"


def print_report(report: Report, strict: bool = False) -> None:
    """Every diagnostic, sorted, one a line, then the summary — on stderr."""
    for item in report.sorted():
        paint(item.format(), item.severity, sys.stderr, OUTPUT.colour)
    if report.items:
        typer.echo(report.summary(), err=True)


def finish(report: Report, strict: bool) -> None:
    """Print the report and exit 1 when it fails (errors, or warnings under --strict)."""
    print_report(report, strict)
    if report.failed(strict):
        if strict and not report.errors:
            typer.echo("failed: warnings are errors under --strict", err=True)
        raise typer.Exit(1)


def readable_help() -> None:
    """Help that reads like other tools: `--png` without `<bool>` after it, `--out PATH`
    instead of `--out <path>`. (Typer shows its internal type names; a flag followed by
    `<bool>` invites `--png true`, which is then read as a pack named "true".)"""
    from typer import core
    for cls in (core.TyperOption, core.TyperArgument):
        if not hasattr(cls, "display_type_rich"):
            continue  # an older Typer: Click's own metavars, already readable
        cls.display_type_rich = _shown_type


def _shown_type(self, ctx) -> Optional[str]:
    """The word after an option in --help: its metavar, else its name (--paper PAPER);
    nothing after a flag, nothing beside an argument (its name says it)."""
    from typer import core
    if isinstance(self, core.TyperArgument) or getattr(self, "is_flag", False):
        return None
    name = self.name or ""
    return self.metavar or _VALUES.get(name) or name.upper().replace("_", "-")


# What an option's value is, where its name does not say it (--out DIR, --bleed MM).
_VALUES = {"out": "DIR", "only": "KIND", "back_offset": "X,Y", "card_size": "WxH|NAME",
           "bleed": "MM", "safe": "MM", "jobs": "N", "random": "N", "seed": "N",
           "players": "N", "option": "SLUG", "preset": "NAME", "variant": "NAME",
           "cards": "IDS", "special": "IDS", "teams": "SIZES"}
