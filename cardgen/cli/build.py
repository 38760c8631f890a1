"""cardgen build: check, lay out and print packs into output/<pack>/."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..build import OUTPUT_KINDS, BuildSettings, check, render_pack, select_packs, write
from ..diagnostics import Report
from ..output import OutputError
from .common import DataOption, PacksArgument, StrictOption, data_dir, finish, print_report


def _pair(text: Optional[str], what: str) -> Optional[tuple[float, float]]:
    if text is None:
        return None
    try:
        x, y = (float(part) for part in text.lower().replace("x", ",").split(","))
    except ValueError:
        raise typer.BadParameter(f"{what} must be two numbers in mm, like 1.5,-0.5") from None
    return (x, y)


def build(
    packs: PacksArgument = None,
    paper: Annotated[Optional[str], typer.Option(help="a4, letter or a3 (default: the pack's)",
                                                 show_default=False)] = None,
    out: Annotated[Path, typer.Option(help="Output folder.")] = Path("output"),
    only: Annotated[Optional[list[str]], typer.Option(
        help=f"Build only these: {', '.join(OUTPUT_KINDS)} (repeatable).",
        show_default=False)] = None,
    png: Annotated[bool, typer.Option("--png", help="Also write png/<ID>.png per card.")] = False,
    dpi: Annotated[int, typer.Option(min=72, max=1200, help="PNG resolution.")] = 300,
    no_bleed: Annotated[bool, typer.Option("--no-bleed", help="PNGs at trim size.")] = False,
    duplex: Annotated[Optional[str], typer.Option(
        help="long, short, none or fold (default: the pack's, usually long)",
        show_default=False)] = None,
    back_offset: Annotated[Optional[str], typer.Option(
        help="Printer's back offset X,Y in mm (read it from --only calibration).",
        show_default=False)] = None,
    card_size: Annotated[Optional[str], typer.Option(
        help="Card size WxH in mm, e.g. 63.5x88.9 (default: the pack's)",
        show_default=False)] = None,
    bleed: Annotated[Optional[float], typer.Option(min=0, max=10, help="Bleed in mm.",
                                                   show_default=False)] = None,
    data: DataOption = None,
    strict: StrictOption = False,
) -> None:
    """Build print files: cards.pdf (fronts + duplex backs), printshop.pdf, boards, rulebook.

    Examples:

      cardgen build                                  # every pack into output/

      cardgen build crazy-hospital --paper letter --png --dpi 150

      cardgen build quartett --only calibration      # find your printer's back offset
    """
    for name, allowed in (("--paper", (paper, ("a4", "letter", "a3"))),
                          ("--duplex", (duplex, ("long", "short", "none", "fold")))):
        value, choices = allowed
        if value is not None and value not in choices:
            raise typer.BadParameter(f"{value!r}; choose one of {', '.join(choices)}",
                                     param_hint=name)
    for kind in only or []:
        if kind not in OUTPUT_KINDS:
            raise typer.BadParameter(f"{kind!r}; choose from {', '.join(OUTPUT_KINDS)}",
                                     param_hint="--only")
    settings = BuildSettings(paper=paper, duplex=duplex, back_offset=_pair(back_offset,
                             "--back-offset"), card_size=_pair(card_size, "--card-size"),
                             bleed=bleed, only=tuple(only or ()), png=png, dpi=dpi,
                             png_bleed=not no_bleed)
    report = Report()
    folders = select_packs(data_dir(data), packs or [], report)
    loaded = [d for d in (check(f, report) for f in folders) if d is not None]
    if report.failed(strict):
        finish(report, strict)
    results = []
    with _progress(len(loaded)) as advance:
        for pack_data in loaded:
            result = render_pack(pack_data, report, settings)
            if result is not None:
                results.append(result)
            advance(pack_data.pack.id)
    if report.failed(strict):
        finish(report, strict)
    try:
        written = write(out, results)
    except OutputError as exc:
        print_report(report)
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    print_report(report)
    for result in results:
        folder = out / result.data.pack.id
        names = ", ".join(sorted(n for n in result.files if not n.startswith("png/")))
        pngs = sum(1 for n in result.files if n.startswith("png/"))
        extra = f" + {pngs} PNGs" if pngs else ""
        typer.echo(f"{result.data.pack.id}: {names}{extra} → {folder}/")
    del written


class _progress:
    """A rich progress bar on a terminal; nothing when output goes to a file or a test."""

    def __init__(self, total: int):
        self.total = total
        self.bar = None

    def __enter__(self):
        if sys.stderr.isatty() and self.total > 1:
            from rich.progress import Progress
            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task("building", total=self.total)
        return self.advance

    def advance(self, name: str) -> None:
        if self.bar:
            self.bar.update(self.task, advance=1, description=name)

    def __exit__(self, *exc):
        if self.bar:
            self.bar.stop()
        return False
