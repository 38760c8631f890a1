"""cardgen build: check, lay out and print packs into output/<pack>/."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import OUTPUT_KINDS
from .choice import (CardsOption, OptionOption, PlayersOption, PresetOption, RandomOption,
                     SeedOption, SpecialOption, TeamsOption, VariantOption, choice_from,
                     one_pack_for)
from .common import DataOption, PacksArgument, StrictOption, data_dir, finish, print_report


# Print shops' card formats (size WxH, bleed and safe zone in mm), usable as --card-size NAME.
PRINT_SHOPS = {"meinspiel": {"size": (59, 91), "bleed": 3, "safe": 4}}


def _pair(text: Optional[str], what: str,
          example: str = "1.5,-0.5") -> Optional[tuple[float, float]]:
    if text is None:
        return None
    try:
        x, y = (float(part) for part in text.lower().replace("x", ",").split(","))
    except ValueError:
        raise typer.BadParameter(f"{text!r} must be two numbers in mm, like {example}",
                                 param_hint=what) from None
    if not all(abs(v) < 2000 for v in (x, y)):
        raise typer.BadParameter(f"{text!r} is not a size in mm", param_hint=what)
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
        help="Printer's back offset X,Y in mm (read it from --only calibration; or save it as "
        "back_offset: [X, Y] in ~/.config/cardgen/settings.yaml).",
        show_default=False)] = None,
    card_size: Annotated[Optional[str], typer.Option(
        help="Card size WxH in mm (63.5x88.9), a preset (skat, poker, bridge, tarot, mini) or a "
        "print shop's format (meinspiel: 59x91, 3 mm bleed, 4 mm safe zone). Default: the "
        "pack's.",
        show_default=False)] = None,
    bleed: Annotated[Optional[float], typer.Option(min=0, max=10, help="Bleed in mm.",
                                                   show_default=False)] = None,
    safe: Annotated[Optional[float], typer.Option(
        min=0, max=15, help="Safe zone in mm: no text closer to the cut (default: the pack's, "
        "usually 4).", show_default=False)] = None,
    booklet: Annotated[bool, typer.Option("--booklet", help="Rulebook as an A5 saddle-stitch "
                                          "booklet imposed on A4 sheets.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even what is up to date.")
                     ] = False,
    jobs: Annotated[int, typer.Option(min=0, max=64, help="Packs built in parallel "
                                      "(0 = the number of cores).")] = 0,
    data: DataOption = None,
    strict: StrictOption = False,
    preset: PresetOption = None, cards: CardsOption = None, random: RandomOption = None,
    seed: SeedOption = None, special: SpecialOption = None, variant: VariantOption = None,
    option: OptionOption = None, players: PlayersOption = None, teams: TeamsOption = None,
) -> None:
    """Build print files: cards.pdf (fronts + duplex backs), printshop.pdf, boards, rulebook.

    Only outputs whose inputs changed since the last build are made again (see manifest.json);
    --force rebuilds everything.

    Examples:

      cardgen build                                  # every pack into output/

      cardgen build crazy-hospital --paper letter --png --dpi 150

      cardgen build quartett --only calibration      # find your printer's back offset

      cardgen build crazy-hospital --preset balanced-32 --seed 7 --special S2-S4 \\
          --option dreieck-des-boesen --players 4     # just that deck + deck sheet + house rules
    """
    from ..build import BuildSettings, select_packs
    from ..diagnostics import Report

    for name, value, choices in (("--paper", paper, ("a4", "letter", "a3")),
                                 ("--duplex", duplex, ("long", "short", "none", "fold"))):
        if value is not None and value not in choices:
            raise typer.BadParameter(f"{value!r}; choose one of {', '.join(choices)}",
                                     param_hint=name)
    for kind in only or []:
        if kind not in OUTPUT_KINDS:
            raise typer.BadParameter(f"{kind!r}; choose from {', '.join(OUTPUT_KINDS)}",
                                     param_hint="--only")
    from ..model.pack import CARD_SIZES
    if card_size in PRINT_SHOPS:  # a print shop's format: its size, bleed and safe zone
        shop = PRINT_SHOPS[card_size]
        card_size = "x".join(f"{v:g}" for v in shop["size"])
        bleed = shop["bleed"] if bleed is None else bleed
        safe = shop["safe"] if safe is None else safe
    size = CARD_SIZES.get(card_size or "") or _pair(
        card_size, "--card-size", "63.5x88.9, or one of " + ", ".join([*CARD_SIZES, *PRINT_SHOPS]))
    if size is not None and not all(10 <= v <= 400 for v in size):
        raise typer.BadParameter(f"{card_size!r}: width and height must be 10–400 mm",
                                 param_hint="--card-size")
    choice = choice_from(preset, cards, random, seed, special, variant, option, players, teams)
    one_pack_for(choice, packs)
    settings = BuildSettings(choice=choice if choice.given() else None, paper=paper, duplex=duplex, back_offset=_pair(back_offset,
                             "--back-offset"), card_size=size, bleed=bleed, safe=safe,
                             only=tuple(sorted(set(only or ()))), png=png, dpi=dpi,
                             png_bleed=not no_bleed, booklet=booklet)
    report = Report()
    from ..settings import load_user_settings
    user = load_user_settings(report)  # the printer's offset, paper and duplex, if saved
    settings.paper = settings.paper or user.paper
    settings.duplex = settings.duplex or user.duplex
    settings.back_offset = settings.back_offset or user.back_offset
    folders = select_packs(data_dir(data), packs or [], report)
    finish_if_failed(report, strict)
    jobs = jobs or os.cpu_count() or 1
    from ..output import OutputError, output_lock
    try:
        with output_lock(out):  # from planning to writing: one build per output folder
            _build_locked(folders, out, settings, force, jobs, report, strict)
    except OutputError as exc:
        print_report(report)
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)


def _build_locked(folders, out: Path, settings, force: bool, jobs: int, report,
                  strict: bool) -> None:
    """Plan, render and write, with the output folder locked (see build)."""
    outcomes = run_packs(folders, out, settings, force, jobs)
    results = []
    for folder, pack_report, result, state in outcomes:
        report.extend(pack_report)
        if result is not None:
            results.append(result)
            for note in result[0].notes:
                typer.echo(f"{folder.name} note: {note}")
    finish_if_failed(report, strict)
    from ..build import write
    written = {p.name: p for p in write(out, results)}
    print_report(report)
    for folder, _, result, state in outcomes:
        if result is None:
            typer.echo(f"{folder.name}: up to date → {out / folder.name}/")
            continue
        names = sorted(n for n in result[0].files if not n.startswith("png/"))
        pngs = sum(1 for n in result[0].files if n.startswith("png/"))
        made = ", ".join(names) + (f" + {pngs} PNGs" if pngs else "")
        typer.echo(f"{folder.name}: {made or 'manifest'} → {out / folder.name}/")
        removed = written[folder.name].removed
        if removed:  # files of an earlier build that this one does not make
            typer.echo(f"{folder.name}: removed {_listing(removed)} of an earlier build")


def _listing(names: list[str]) -> str:
    """deck.pdf, house-rules.pdf and 32 PNGs"""
    pngs = sum(1 for n in names if n.startswith("png/"))
    shown = sorted(n for n in names if not n.startswith("png/"))
    return ", ".join(shown + ([f"{pngs} PNG{'s' if pngs > 1 else ''}"] if pngs else []))


def finish_if_failed(report, strict: bool) -> None:
    if report.failed(strict):
        finish(report, strict)


def build_one(folder: Path, settings, kinds: set[str], previous: dict):
    """One task of the build (runs in a worker process when cores are shared out)."""
    from ..build import build_pack
    report, result = build_pack(folder, settings, kinds, previous)
    return folder, report, result


def plan_tasks(folders: list[Path], out: Path, settings, force: bool, jobs: int):
    """The work: per pack, its stale outputs — the slow rulebook apart from the rest when
    there are cores to spare, so one pack uses them too."""
    from ..build import stale_outputs, wanted_outputs
    tasks, plans = [], {}
    for folder in folders:
        stale, keys, previous = stale_outputs(folder, out, settings)
        if force:
            stale = wanted_outputs(settings)
        plans[folder] = (stale, keys, previous)
        if not stale:
            continue
        groups = [stale]
        if jobs > 1 and "rulebook" in stale and len(stale) > 1:
            groups = [{"rulebook"}, stale - {"rulebook"}]
        # --force: nothing of the last build is reused (PNGs, rulebook and boards included)
        reuse = {} if force else previous
        tasks.extend((folder, group, reuse) for group in groups)
    return tasks, plans


def run_packs(folders: list[Path], out: Path, settings, force: bool, jobs: int):
    """Every pack: [(folder, report, (result, keys, previous) | None, state)].

    Parallel processes give the same bytes as a serial build: each task renders whole files.
    """
    tasks, plans = plan_tasks(folders, out, settings, force, jobs)
    with _progress(len(tasks)) as advance:
        if jobs <= 1 or len(tasks) <= 1:
            done = []
            for task in tasks:
                done.append(build_one(task[0], settings, task[1], task[2]))
                advance(task[0].name)
        else:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)),
                                     initializer=_quiet_worker) as pool:
                futures = [pool.submit(build_one, folder, settings, kinds, previous)
                           for folder, kinds, previous in tasks]
                done = []
                for (folder, _, _), future in zip(tasks, futures):
                    done.append(future.result())
                    advance(folder.name)
    return [_merge(folder, plans[folder], [d for d in done if d[0] == folder])
            for folder in folders]


def _quiet_worker() -> None:
    """A worker stopped by Ctrl-C or SIGTERM ends at once and silently: the main process
    reports the interrupt once, and no worker prints a traceback of its own."""
    import signal
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: os._exit(130))


def _merge(folder: Path, plan, parts):
    """One pack's outcome from its tasks (each rendered a different set of outputs)."""
    from ..diagnostics import Report
    stale, keys, previous = plan
    if not stale:
        return folder, Report(), None, "fresh"
    report = Report()
    results = []
    for _, part_report, result in parts:
        report.extend(part_report)
        results.append(result)
    if any(r is None for r in results):
        return folder, report, None, "failed"
    merged = results[0]
    for other in results[1:]:
        merged.files.update(other.files)
        merged.built.update(other.built)
        merged.png_keys.update(other.png_keys)
        merged.content.update(other.content)
    return folder, report, (merged, keys, previous), "built"


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
