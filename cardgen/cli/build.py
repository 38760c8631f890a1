"""cardgen build: check, lay out and print packs into output/<pack>/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..model.outputs import ONLY_KINDS
from ..paths import output_name
from .choice import (CardsOption, OptionOption, PlayersOption, PresetOption, RandomOption,
                     SeedOption, SpecialOption, TeamsOption, VariantOption, choice_from,
                     one_pack_for)
from .common import (DataOption, LanguageOption, PacksArgument, StrictOption, data_dir, detail,
                     finish, info, print_report, use_edition, warn)


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


PaperOption = Annotated[Optional[str], typer.Option(help="a4, letter or a3 (default: the pack's)",
    show_default=False)]

OutOption = Annotated[Path, typer.Option(help="Output folder.")]

OnlyOption = Annotated[Optional[list[str]], typer.Option(
    help=f"Build only these: {', '.join(ONLY_KINDS)} (repeatable).",
    show_default=False)]

PngOption = Annotated[bool, typer.Option("--png", help="Also write png/<ID>.png per card.")]

DpiOption = Annotated[Optional[int], typer.Option(min=72, max=1200, help="PNG resolution "
    "(default 300).", show_default=False)]

NoBleedOption = Annotated[bool, typer.Option("--no-bleed", help="PNGs at trim size.")]

DuplexOption = Annotated[Optional[str], typer.Option(
    help="long, short, none or fold (default: the pack's, usually long)",
    show_default=False)]

BackOffsetOption = Annotated[Optional[str], typer.Option(
    help="Printer's back offset X,Y in mm (read it from --only calibration; or save it as "
    "back_offset: [X, Y] in ~/.config/cardgen/settings.yaml).",
    show_default=False)]

CardSizeOption = Annotated[Optional[str], typer.Option(
    help="Card size WxH in mm (63.5x88.9), a preset (skat, poker, bridge, tarot, mini) or a "
    "print shop's format, which sets size, bleed, safe zone, PNG resolution and page order "
    "(meinspiel, thegamecrafter, makeplayingcards, drivethrucards). Default: the pack's.",
    show_default=False)]

BleedOption = Annotated[Optional[float], typer.Option(min=0, max=10, help="Bleed in mm.",
    show_default=False)]

SafeOption = Annotated[Optional[float], typer.Option(
    min=0, max=15, help="Safe zone in mm: no text closer to the cut (default: the pack's, "
    "usually 4).", show_default=False)]

BookletOption = Annotated[bool, typer.Option("--booklet", help="Rulebook as an A5 saddle-stitch "
    "booklet imposed on A4 sheets.")]

ForceOption = Annotated[bool, typer.Option("--force", help="Rebuild even what is up to date.")]

JobsOption = Annotated[int, typer.Option(min=0, max=64, help="Processes to use (0 = the cores "
    "not busy with other work).")]

SheetOption = Annotated[Optional[str], typer.Option(
    help="bleed: every card keeps its bleed on the sheet (gutters between cards; the "
    "default); dense: the most cards per sheet, abutted with shared cut lines.",
    show_default=False)]

MarginOption = Annotated[Optional[float], typer.Option(
    min=0, max=30, help="Your printer's unprintable edge in mm (default 5; or margin: MM "
    "in the settings file).", show_default=False)]

StockOption = Annotated[Optional[float], typer.Option(
    min=0.05, max=2, help="One card's thickness in mm, for --only tuckbox (default 0.32: 300 "
    "g/m² card stock; 0.6 or more for sleeved cards).", show_default=False)]

CornerOption = Annotated[Optional[float], typer.Option(
    "--corner-radius", min=0, max=10, help="The corners --only cut cuts, in mm (0: square; "
    "default: the pack's print.corner_radius, 3).", show_default=False)]

NoBacksOption = Annotated[bool, typer.Option(
    "--no-backs", help="cards.pdf with the fronts alone, printed single-sided: to slide into "
    "sleeves in front of real cards.")]

InkSaverOption = Annotated[bool, typer.Option(
    "--ink-saver", help="Backs and large solid fills as outlines or light tints, as each "
    "layout declares.")]

ColourOption = Annotated[str, typer.Option(
    help="rgb, or cmyk: printshop.pdf in CMYK as PDF/X (X-1a:2003 where the shop asks for it) "
    "with an ICC output intent, black text in black ink alone, total ink within the shop's "
    "limit "
    "(needs Ghostscript).")]

ChangedSinceOption = Annotated[Optional[Path], typer.Option(
    "--changed-since", metavar="MANIFEST", help="Also write changed.pdf: sheets of only the "
    "cards whose printed face changed since the build of that manifest.json (copy it aside "
    "after printing), with their backs; lists them.", show_default=False)]


def build(
    packs: PacksArgument = None,
    paper: PaperOption = None,
    out: OutOption = Path("output"),
    only: OnlyOption = None,
    png: PngOption = False,
    dpi: DpiOption = None,
    no_bleed: NoBleedOption = False,
    duplex: DuplexOption = None,
    back_offset: BackOffsetOption = None,
    card_size: CardSizeOption = None,
    bleed: BleedOption = None,
    safe: SafeOption = None,
    booklet: BookletOption = False,
    force: ForceOption = False,
    jobs: JobsOption = 0,
    sheet: SheetOption = None,
    margin: MarginOption = None,
    no_backs: NoBacksOption = False,
    stock: StockOption = None,
    corner_radius: CornerOption = None,
    ink_saver: InkSaverOption = False,
    colour: ColourOption = "rgb",
    data: DataOption = None,
    strict: StrictOption = False,
    preset: PresetOption = None, cards: CardsOption = None, random: RandomOption = None,
    seed: SeedOption = None, special: SpecialOption = None, variant: VariantOption = None,
    option: OptionOption = None, players: PlayersOption = None, teams: TeamsOption = None,
    changed_since: ChangedSinceOption = None,
    language: LanguageOption = None,
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

      cardgen build my-game --changed-since printed/manifest.json   # reprint only what changed

      cardgen build quartett --language en           # the English edition → output/quartett-en/
    """
    started = time.perf_counter()
    use_edition(language)
    paper = choose("--paper", paper, ("a4", "letter", "a3"))
    duplex = choose("--duplex", duplex, ("long", "short", "none", "fold"))
    sheet = choose("--sheet", sheet, ("bleed", "dense"))
    colour = choose("--colour", colour, ("rgb", "cmyk"))
    only = check_only(only)
    no_effect(only, png, dpi, no_bleed, booklet)
    fronts_only(no_backs, duplex, back_offset)
    size, bleed, safe, print_shop = card_size_of(card_size, bleed, safe)
    chosen = (preset, cards, random, seed, special, variant, option, players, teams)
    choice = None
    if any(value not in (None, [], ()) for value in chosen):  # else the engine stays unloaded
        choice = choice_from(*chosen)
        one_pack_for(choice, packs)
    settings = _settings(
        choice=choice if choice is not None and choice.given() else None,
        paper=paper, duplex=duplex, back_offset=_pair(back_offset, "--back-offset"), card_size=size, bleed=bleed,
        safe=safe, only=tuple(sorted(set(only or ()))), png=png,
        dpi=300 if dpi is None else dpi, png_bleed=not no_bleed, booklet=booklet,
        sheet=sheet or "bleed", margin=margin, ink_saver=ink_saver, colour=colour,
        backs=not no_backs, stock=stock, corner_radius=corner_radius,
        print_shop=print_shop,
        out=str(out.resolve()) if "tts" in (only or ()) else None)  # TTS names its files
    if changed_since is not None:
        settings.changed_since = faces_of(changed_since, packs)
    _build_all(data, packs, out, settings, force, jobs, strict, started)


def _build_all(data, packs, out: Path, settings, force: bool, jobs: int,
               strict: bool, started: float) -> None:
    """The packs chosen, the output folder locked, every stale output built and written."""
    from ..diagnostics import Report
    from ..incremental.plan import select_packs
    from ..output import OutputError, output_lock
    from ..pipeline.parallel import default_jobs
    report = Report()
    with_user_settings(settings, report)
    folders = select_packs(data_dir(data), packs or [], report)
    finish_if_failed(report, strict)
    _out_apart(out, folders)
    jobs = jobs or default_jobs()
    try:
        with output_lock(out):  # from planning to writing: one build per output folder
            _build_locked(folders, out, settings, force, jobs, report, strict, started)
    except OutputError as exc:
        print_report(report)
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)


def card_size_of(card_size: Optional[str], bleed: Optional[float], safe: Optional[float]):
    """(size in mm or None, bleed, safe zone, print shop or None) from --card-size: a size, a
    preset name, or a print shop's format (its size, bleed and safe zone)."""
    if card_size is None:
        return None, bleed, safe, None
    from ..model.pack import CARD_SIZES, PRINT_SHOPS  # only when needed (start-up time)
    card_size = card_size.lower()
    print_shop = card_size if card_size in PRINT_SHOPS else None
    if print_shop:
        shop = PRINT_SHOPS[print_shop]
        card_size = "x".join(f"{v:g}" for v in shop.size)
        bleed = shop.bleed if bleed is None else bleed
        safe = shop.safe if safe is None else safe
    size = CARD_SIZES.get(card_size) or _pair(
        card_size, "--card-size", "63.5x88.9, or one of " + ", ".join([*CARD_SIZES, *PRINT_SHOPS]))
    if not all(10 <= v <= 400 for v in size):
        raise typer.BadParameter(f"{card_size!r}: width and height must be 10–400 mm",
                                 param_hint="--card-size")
    return size, bleed, safe, print_shop


def _settings(**values):
    from ..model.settings import BuildSettings
    return BuildSettings(**values)


def with_user_settings(settings, report) -> None:
    """The printer's paper, duplex, offset and margin from the settings file, where the
    command line says nothing."""
    from ..load.settings import load_user_settings
    user = load_user_settings(report)
    settings.paper = settings.paper or user.paper
    settings.duplex = settings.duplex or user.duplex
    settings.back_offset = settings.back_offset or user.back_offset
    settings.margin = user.margin if settings.margin is None else settings.margin


def _out_apart(out: Path, folders: list[Path]) -> None:
    """--out must not put a pack's output into a pack folder (or a pack folder into it): the
    build would swap the designer's own folder for a folder of PDFs."""
    for folder in folders:
        pack, target = folder.resolve(), (out / output_name(folder)).resolve()
        if target == pack or pack in target.parents or target in pack.parents:
            raise typer.BadParameter(f"{str(out)!r} would write {folder.name}'s files into "
                                     f"the pack folder {folder}; choose a folder outside your "
                                     "packs (the default is output/)", param_hint="--out")


def _build_locked(folders, out: Path, settings, force: bool, jobs: int, report,
                  strict: bool, started: float) -> None:
    """Plan, render and write, with the output folder locked (see build)."""
    from ..pipeline.parallel import run_packs
    outcomes = run_packs(folders, out, settings, force, jobs)
    results = []
    for folder, pack_report, result, state in outcomes:
        report.extend(pack_report)
        if result is not None:
            results.append(result)
            for note in result[0].notes:
                typer.echo(f"{folder.name} note: {note}")
    finish_if_failed(report, strict)
    if results:
        from ..incremental.manifest import write
        written = {p.name: p for p in write(out, results)}
    else:  # everything up to date: nothing of the pipeline is needed
        from ..output import write_packs
        write_packs(out, [])
        written = {}
    print_report(report)
    report_outcomes(outcomes, out, started, written)


def report_outcomes(outcomes, out: Path, started: float, written: dict) -> None:
    """A line per pack (what was made, where), the changed cards, then the total: cards,
    files and time (the last line of every build)."""
    report_done(report_packs(outcomes, out, written), started)


def report_packs(outcomes, out: Path, written: dict, quiet: frozenset = frozenset()
                 ) -> dict[Path, tuple[int, set[str]]]:
    """report_outcomes' line per pack (`quiet`: no line for these folders when they wrote no
    file but the manifest): {pack folder: (its cards, the files written besides
    manifest.json)}."""
    made_by = {}
    for folder, _, result, state in outcomes:
        if result is None:
            if folder not in quiet:
                info(f"{output_name(folder)}: up to date → {out / output_name(folder)}/")
            continue
        made = result[0]
        if folder in quiet and not made.files:
            continue
        names = sorted(n for n in made.files if not n.startswith(("png/", "tts/", "cut/")))
        pngs = sum(1 for n in made.files if n.startswith("png/"))
        tts = sum(1 for n in made.files if n.startswith("tts/"))  # sheets, backs, the JSON
        cuts = sum(1 for n in made.files if n.startswith("cut/"))  # SVG and DXF per sheet
        listing = " + ".join(part for part in (
            ", ".join(names), f"{pngs} PNGs" if pngs else "",
            f"tts/ ({tts} Tabletop Simulator files)" if tts else "",
            f"cut/ ({cuts} cut files, SVG and DXF)" if cuts else "") if part)
        info(f"{output_name(folder)}: {listing or 'manifest'} → {out / output_name(folder)}/")
        removed = written[output_name(folder)].removed if output_name(folder) in written else []
        if removed:  # files of an earlier build that this one does not make
            info(f"{folder.name}: removed {_listing(removed)} of an earlier build")
        detail(f"{folder.name}: made again: {', '.join(sorted(made.built))}")
        if "changed" in made.built:
            report_changed(folder.name, made.changed)
        made_by[folder] = (sum(lc.card.count for lc in made.data.cards), set(made.files))
    return made_by


def report_done(made_by: dict[Path, tuple[int, set[str]]], started: float) -> None:
    """The last line of every build: cards, files (manifest.json included) and time."""
    cards = sum(count for count, _ in made_by.values())
    files = sum(len(names) + 1 for _, names in made_by.values())
    seconds = time.perf_counter() - started
    info(f"done: {cards} cards, {files} file{'s' if files != 1 else ''} written in "
         f"{seconds:.1f} s" if files else
         f"done: nothing to do ({seconds:.1f} s)")


def _listing(names: list[str]) -> str:
    """deck.pdf, house-rules.pdf and 32 PNGs"""
    pngs = sum(1 for n in names if n.startswith("png/"))
    shown = sorted(n for n in names if not n.startswith("png/"))
    return ", ".join(shown + ([f"{pngs} PNG{'s' if pngs > 1 else ''}"] if pngs else []))


def finish_if_failed(report, strict: bool) -> None:
    if report.failed(strict):
        finish(report, strict)


# --- i17: CLI conventions and --changed-since ---------------------------------------------------

def choose(option: str, value: Optional[str], choices: tuple[str, ...]) -> Optional[str]:
    """A choice in any case (--paper A4 is a4); anything else a usage error."""
    if value is None:
        return None
    if value.lower() not in choices:
        raise typer.BadParameter(f"{value!r}; choose one of {', '.join(choices)}",
                                 param_hint=option)
    return value.lower()


def check_only(only: Optional[list[str]]) -> list[str]:
    """--only's output kinds, in any case."""
    return [choose("--only", kind, ONLY_KINDS) for kind in only or []]


def no_effect(only: list[str], png: bool, dpi: Optional[int], no_bleed: bool,
              booklet: bool) -> None:
    """A warning for each option that changes nothing in this combination."""
    pngs = png or "png" in only
    for given, useless, text in (
            (dpi is not None, not pngs, "--dpi has no effect without --png"),
            (no_bleed, not pngs, "--no-bleed has no effect without --png"),
            (booklet, bool(only) and "rulebook" not in only,
             "--booklet has no effect: --only leaves out the rulebook")):
        if given and useless:
            warn(text)


def fronts_only(no_backs: bool, duplex: Optional[str], back_offset: Optional[str]) -> None:
    """--no-backs with a fold (fronts and backs on one sheet) is a contradiction; duplex and
    back offset place backs, so with --no-backs they change nothing."""
    if not no_backs:
        return
    if duplex == "fold":
        raise typer.BadParameter("--duplex fold puts fronts and backs on one sheet; --no-backs "
                                 "prints fronts alone: choose one", param_hint="--no-backs")
    for given, option in ((duplex, "--duplex"), (back_offset, "--back-offset")):
        if given is not None:
            warn(f"{option} has no effect with --no-backs: there are no backs to place")


def faces_of(manifest: Path, packs: Optional[list[str]]) -> dict:
    """The card faces an earlier build recorded (usage error when the file cannot serve)."""
    from ..incremental.manifest import ManifestError, faces_since
    if len(packs or []) != 1:
        raise typer.BadParameter("a manifest belongs to one pack: name exactly one PACK",
                                 param_hint="--changed-since")
    try:
        return faces_since(manifest, packs[0])
    except ManifestError as exc:
        raise typer.BadParameter(str(exc), param_hint="--changed-since") from None


def report_changed(pack: str, changed: list[tuple[str, str]]) -> None:
    """The cards in changed.pdf, one a line, saying which side changed."""
    if not changed:
        info(f"{pack}: no printed card changed since that manifest (no changed.pdf)")
        return
    info(f"{pack}: {len(changed)} changed card{'s' if len(changed) != 1 else ''} in "
         "changed.pdf:")
    for card_id, what in changed:
        info(f"  {card_id}  {what}")
