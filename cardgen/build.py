"""The pipeline, in the order of DESIGN.md: load → validate → compose → layout → render → write.

Nothing is written while any error is known: every stage before `write` only adds diagnostics.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Report
from .layout.card import CardLayouter, safe_zone_problems
from .load import PackData, find_packs, load_pack
from .output import write_all
from .render.images import ImageProblem, ImageStore
from .validate.cards import check_cards
from .validate.pack import check_pack_refs

OUTPUT_KINDS = ("cards", "printshop", "boards", "rulebook", "png", "calibration")


@dataclass
class BuildSettings:
    paper: str | None = None
    duplex: str | None = None
    back_offset: tuple[float, float] | None = None
    card_size: tuple[float, float] | None = None
    bleed: float | None = None
    only: tuple[str, ...] = ()
    png: bool = False
    dpi: int = 300
    png_bleed: bool = True


@dataclass
class PackResult:
    data: PackData
    files: dict[str, bytes] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def select_packs(data_dir: Path, names: list[str], report: Report) -> list[Path]:
    """Pack folders to work on: the named ones, or all of them."""
    available = find_packs(data_dir)
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
            from .validate.errors import did_you_mean
            report.error(str(data_dir), 0, 0, name, f"no such pack{did_you_mean(name, list(by_name))}"
                         f"; available: {', '.join(by_name) or 'none'}")
    return chosen


def check(folder: Path, report: Report) -> PackData | None:
    """Load and validate one pack (stages 1–2)."""
    data = load_pack(folder, report)
    if data is None:
        return None
    check_pack_refs(data, report)
    check_cards(data, report)
    return data


def layout_faces(data: PackData, report: Report, settings: BuildSettings):
    """Stage 4: every front and back laid out; text fitted; pictures checked."""
    from .render.pdf import Printed
    layouter = CardLayouter(data, report)
    card_size = settings.card_size or data.pack.print.size()
    used = {k.front for k in data.pack.kinds} | {k.back for k in data.pack.kinds}
    for name in sorted(used & set(data.layouts)):
        for region, message in safe_zone_problems(data.layouts[name], card_size,
                                                  data.pack.print.safe):
            layouter._layout_error(data.layouts[name], region, message)
    images = ImageStore(data.folder)
    checked: set[str] = set()
    printed: list[Printed] = []
    backs = {}
    for kind in data.pack.kinds:
        if kind.back in data.layouts:
            backs[kind.id] = layouter.face(None, data.layouts[kind.back], f"back:{kind.id}")
    for lc in data.cards:
        kind = data.kind(lc.kind)
        if kind.front not in data.layouts or kind.id not in backs:
            continue
        front = layouter.face(lc, data.layouts[kind.front], lc.card.id)
        for box in front.boxes:
            if box.image and box.image not in checked:
                checked.add(box.image)
                try:
                    images.check(box.image)
                except ImageProblem as exc:
                    mark = lc.mark("image")
                    report.error(lc.file, mark.line, mark.col, lc.card.id, f"image: {exc}")
        for copy in range(lc.card.count):
            printed.append(Printed(lc.card.id, front, backs[kind.id]))
    return printed, images, layouter


def render_pack(data: PackData, report: Report, settings: BuildSettings) -> PackResult | None:
    """Stages 4–5 for one pack: returns the files (in memory) or None when an error was found."""
    from .render.card import CardPainter
    from .render import pdf
    errors_before = len(report.errors)
    printed, images, layouter = layout_faces(data, report, settings)
    if len(report.errors) > errors_before:
        return None
    settings_print = data.pack.print
    card_size = settings.card_size or settings_print.size()
    bleed = settings.bleed if settings.bleed is not None else settings_print.bleed
    paper = settings.paper or settings_print.paper
    duplex = settings.duplex or settings_print.duplex
    offset = settings.back_offset or settings_print.back_offset
    painter = CardPainter(card_size, bleed, layouter.icons, images)
    meta = {"title": data.pack.title, "author": data.pack.author,
            "subject": data.pack.subtitle or data.pack.description[:200],
            "keywords": f"cardgen, {data.pack.id}, print and play"}
    result = PackResult(data)
    wanted = set(settings.only or ("cards", "printshop", "boards", "rulebook"))
    if settings.png:
        wanted.add("png")
    footer = f"{data.pack.title} {data.pack.version}"
    if "cards" in wanted:
        result.files["cards.pdf"] = pdf.card_sheets(printed, painter, paper, card_size, bleed,
                                                    duplex, offset, meta, footer)
    if "printshop" in wanted or "png" in wanted:
        shop = pdf.printshop(printed, painter, card_size, bleed, meta)
        if "printshop" in wanted:
            result.files["printshop.pdf"] = shop
        if "png" in wanted:
            from .render.raster import card_pngs
            result.files.update(card_pngs(shop, printed, card_size, bleed, settings.dpi,
                                          settings.png_bleed))
    if "calibration" in wanted:
        result.files["calibration.pdf"] = pdf.calibration(paper, card_size, bleed, duplex,
                                                          offset, meta)
    result.counts = {k.id: sum(1 for c in data.cards if c.kind == k.id) for k in data.pack.kinds}
    return result


def manifest(result: PackResult) -> bytes:
    """What was built from which inputs, with content hashes (no timestamps: reproducible)."""
    data = result.data
    root = data.folder.parent.parent

    def rel(path: Path) -> str:
        try:
            return str(path.resolve().relative_to(root.resolve()))
        except ValueError:
            return str(path)

    body = {
        "pack": data.pack.id,
        "title": data.pack.title,
        "cards": result.counts,
        "inputs": {rel(p): _sha(p.read_bytes()) for p in sorted(set(data.inputs))},
        "outputs": {name: _sha(content) for name, content in sorted(result.files.items())},
    }
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode()


def _sha(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def write(out_dir: Path, results: list[PackResult]) -> list[Path]:
    """Stage 6: every file of every pack, atomically as one set."""
    files: dict[str, bytes] = {}
    for result in results:
        for name, content in result.files.items():
            files[f"{result.data.pack.id}/{name}"] = content
        files[f"{result.data.pack.id}/manifest.json"] = manifest(result)
    return write_all(out_dir, files)
