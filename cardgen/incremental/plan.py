"""What a build will do, decided before any of the pipeline is imported: the settings, the
packs, and which of their outputs are out of date.

Why a module of its own: a build with nothing changed must return at once; it needs only file
hashes and the last manifest (cardgen.incremental.fingerprint), not the models, fonts, templates, reportlab
and Pillow that cardgen.build brings along.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Report
from .fingerprint import listing, output_keys, read_manifest, still_valid
from ..paths import find_packs


@dataclass
class BuildSettings:
    paper: str | None = None
    duplex: str | None = None
    back_offset: tuple[float, float] | None = None
    card_size: tuple[float, float] | None = None
    bleed: float | None = None
    safe: float | None = None  # the safe zone in mm (text must stay this far inside the trim)
    only: tuple[str, ...] = ()
    png: bool = False
    dpi: int = 300
    png_bleed: bool = True
    booklet: bool = False
    sheet: str = "bleed"  # "bleed": every card keeps its bleed on the sheet; "dense": most cards
    margin: float | None = None  # the printer's unprintable edge in mm (default 5)
    ink_saver: bool = False  # backs and large fills as each layout's region declares
    colour: str = "rgb"      # "cmyk": printshop.pdf converted to PDF/X-3 (Ghostscript)
    print_shop: str | None = None  # a PRINT_SHOPS name: page order and PNG resolution
    out: str | None = None   # the output folder (Tabletop Simulator files name their paths)
    choice: object = None  # compose.Choice when the user chose a deck; part of every output key
    # --changed-since: {card id: face hashes} of an earlier manifest. Not part of the output
    # keys (repr=False): comparing with an old build does not make today's outputs stale.
    changed_since: dict | None = field(default=None, repr=False, compare=False)
    # outputs made besides the default ones (watch adds the contact sheet); not in the keys,
    # so that watch and build share their outputs
    also: tuple[str, ...] = field(default=(), repr=False, compare=False)
    # processes for preparing pictures (the CLI's --jobs for one pack); not in the keys
    jobs: int = field(default=1, repr=False, compare=False)


def select_packs(data_dir: Path, names: list[str], report: Report) -> list[Path]:
    """Pack folders to work on: the named ones, or all of them."""
    if not data_dir.is_dir():
        report.error(str(data_dir), 0, 0, "", "no such folder (give the folder that holds your "
                     "pack folders with --data)")
        return []
    available = find_packs(data_dir)
    if not available and (data_dir / "pack.yaml").is_file():  # --data named the pack itself
        report.error(str(data_dir), 0, 0, "", f"this is a pack folder; --data takes the folder "
                     f"that holds the packs: --data {data_dir.parent} {data_dir.name}")
        return []
    if not names:
        if not available:
            report.error(str(data_dir), 0, 0, "", "no packs found (a pack is a folder with a "
                         "pack.yaml)")
        return available
    by_name = {p.name: p for p in available}
    chosen = []
    for name in names:
        if name in by_name:
            chosen.append(by_name[name])
        else:
            from ..load.errors import did_you_mean
            report.error(str(data_dir), 0, 0, name, f"no such pack{did_you_mean(name, list(by_name))}"
                         f"; available: {', '.join(by_name) or 'none'}")
    return chosen


def wanted_outputs(settings: BuildSettings) -> set[str]:
    wanted = set(settings.only or ("cards", "printshop", "boards", "rulebook"))
    if settings.png:
        wanted.add("png")
    if settings.changed_since is not None:
        wanted.add("changed")
    if not settings.only:
        wanted.update(settings.also)
    return wanted


def stale_outputs(folder: Path, out_dir: Path, settings: BuildSettings):
    """(output kinds to build, their keys, the previous manifest) for one pack."""
    entries, unusual = listing(folder)
    keys = output_keys(folder, settings, entries)
    previous = read_manifest(out_dir / folder.name)
    distrust = bool(unusual)  # symlinks, pipes ...: validated by a build, not trusted
    built = previous.get("built") or {}
    stale, intact = set(), set()
    for kind in wanted_outputs(settings):
        entry = built.get(kind) or {}
        files = entry.get("files")
        whole = files is not None and all(still_valid(out_dir / folder.name, previous, name)
                                          for name in files)
        if whole:
            intact.add(kind)
        if entry.get("key") != keys[kind] or not whole or kind == "changed" or distrust:
            stale.add(kind)  # changed.pdf compares with a manifest the key does not know
    previous["intact"] = sorted(intact)  # outputs on disk exactly as the manifest says
    return stale, keys, previous
