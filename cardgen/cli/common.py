"""What every command shares: options, printing diagnostics, turning results into exit codes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..diagnostics import Report

DEFAULT_DATA = Path("card_data")

DataOption = Annotated[Optional[Path], typer.Option(
    "--data", help="Folder holding the packs (default: ./card_data, else the one shipped with "
    "cardgen).", show_default=False)]
StrictOption = Annotated[bool, typer.Option("--strict", help="Treat warnings as errors.")]
PacksArgument = Annotated[Optional[list[str]], typer.Argument(
    help="Pack ids (folder names); none = every pack.", show_default=False)]


def data_dir(option: Optional[Path]) -> Path:
    """--data, else ./card_data when it exists, else the packs shipped next to the package."""
    if option is not None:
        return option
    if DEFAULT_DATA.is_dir():
        return DEFAULT_DATA
    from ..load import ROOT
    return ROOT / "card_data"


def print_report(report: Report, strict: bool = False) -> None:
    """Every diagnostic, sorted, one a line, then the summary — on stderr."""
    colour = sys.stderr.isatty()
    for item in report.sorted():
        line = item.format()
        if colour:
            code = "31" if item.severity == "error" else "33"
            line = line.replace(f": {item.severity}:", f": \033[{code}m{item.severity}\033[0m:", 1)
        typer.echo(line, err=True)
    if report.items:
        typer.echo(report.summary(), err=True)


def finish(report: Report, strict: bool) -> None:
    """Print the report and exit 1 when it fails (errors, or warnings under --strict)."""
    print_report(report, strict)
    if report.failed(strict):
        if strict and not report.errors:
            typer.echo("failed: warnings are errors under --strict", err=True)
        raise typer.Exit(1)
