"""The pipeline, in the order of DESIGN.md: load → validate → compose → layout → render → write.

Nothing is written while any error is known: every stage before `write` only adds diagnostics.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Report
from .fingerprint import file_hash, listing, output_keys, read_manifest, still_valid
from .layout.card import CardLayouter, safe_zone_problems
from .labels import labels_for
from .load import ROOT, PackData, find_packs, load_pack
from .output import PackWrite, write_packs
from .render.images import ImageStore
from .validate.cards import check_cards
from .validate.images import check_face_pictures, check_named_pictures
from .validate.pack import check_pack_refs


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
    choice: object = None  # compose.Choice when the user chose a deck; part of every output key


@dataclass
class PackResult:
    data: PackData
    files: dict[str, bytes] = field(default_factory=dict)  # new or changed files only
    built: dict[str, list[str]] = field(default_factory=dict)  # output kind → its file names
    png_keys: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    content: dict[str, str] = field(default_factory=dict)  # content keys (rulebook, boards)

    def add(self, kind: str, name: str, content: bytes) -> None:
        self.files[name] = content
        self.built.setdefault(kind, []).append(name)


def select_packs(data_dir: Path, names: list[str], report: Report) -> list[Path]:
    """Pack folders to work on: the named ones, or all of them."""
    if not data_dir.is_dir():
        report.error(str(data_dir), 0, 0, "", "no such folder (give the folder that holds your "
                     "pack folders with --data)")
        return []
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


def build_pack(folder: Path, settings: BuildSettings, kinds: set[str] | None = None,
               previous: dict | None = None) -> tuple[Report, PackResult | None]:
    """One pack, stage by stage; the files stay in memory until `write` (all packs at once).

    load + validate → compose → layout + render. Any error stops the chain before output.
    """
    from .compose import Choice, compose
    report = Report()
    data = check(folder, report)                                   # load, validate
    if data is None or report.errors:
        return report, None
    if data.pack.id != folder.name:
        mark = data.pack_raw.value_marks["id"]
        report.error(data.pack_file, mark.line, mark.col, "", f"id: '{data.pack.id}' must be "
                     f"the folder's name '{folder.name}'")
        return report, None
    deck = compose(data, settings.choice or Choice(), report)      # compose
    if deck is None or report.errors:
        return report, None
    return report, render_pack(data, report, settings, kinds, previous, deck)  # layout, render


def check(folder: Path, report: Report) -> PackData | None:
    """Load and validate one pack (stages 1–2)."""
    data = load_pack(folder, report)
    if data is None:
        return None
    check_pack_refs(data, report)
    check_cards(data, report)
    check_named_pictures(data, report)
    from .render.boards import check_boards
    check_boards(data, report)
    return data


def layout_faces(data: PackData, report: Report, settings: BuildSettings):
    """Stage 4: every front and back laid out; text fitted; pictures checked."""
    from .render.pdf import Printed
    from .validate.printing import check_print
    errors_before = len(report.errors)
    check_print(data, settings, wanted_outputs(settings), report)
    layouter = CardLayouter(data, report)
    if len(report.errors) > errors_before:  # every card would fail the same way
        return [], ImageStore(data.folder), layouter
    card_size = settings.card_size or data.pack.print.size()
    safe = settings.safe if settings.safe is not None else data.pack.print.safe
    used = {k.front for k in data.pack.kinds} | {k.back for k in data.pack.kinds}
    layouts = {}  # the used layouts, scaled when the card size is not the one they were drawn for
    for name in sorted(used & set(data.layouts)):
        drawn = data.layouts[name]
        if drawn.size is None:
            drawn = dataclasses.replace(drawn, size=data.pack.print.size())
        bleed = settings.bleed if settings.bleed is not None else data.pack.print.bleed
        layouts[name] = drawn.scaled_to(card_size, safe).bled_to(card_size,
                                                                                 bleed)
        for region, message in safe_zone_problems(layouts[name], card_size,
                                                  safe):
            layouter._layout_error(layouts[name], region, message)
    images = ImageStore(data.folder)
    printed: list[Printed] = []
    backs = {}
    faces = []  # (card | None, layout, face): every face, for the picture check
    for kind in data.pack.kinds:
        if kind.back in layouts:
            backs[kind.id] = layouter.face(None, layouts[kind.back], f"back:{kind.id}")
            faces.append((None, layouts[kind.back], backs[kind.id]))
    for lc in data.cards:
        kind = data.kind(lc.kind)
        if kind.front not in layouts or kind.id not in backs:
            continue
        front = layouter.face(lc, layouts[kind.front], lc.card.id)
        faces.append((lc, layouts[kind.front], front))
        for copy in range(lc.card.count):
            printed.append(Printed(lc.card.id, front, backs[kind.id]))
    layouter.report_problems()
    check_face_pictures(data, faces, report)
    return printed, images, layouter


def wanted_outputs(settings: BuildSettings) -> set[str]:
    wanted = set(settings.only or ("cards", "printshop", "boards", "rulebook"))
    if settings.png:
        wanted.add("png")
    return wanted


def stale_outputs(folder: Path, out_dir: Path, settings: BuildSettings):
    """(output kinds to build, their keys, the previous manifest) for one pack."""
    keys = output_keys(folder, settings)
    previous = read_manifest(out_dir / folder.name)
    distrust = bool(listing(folder)[1])  # symlinks, pipes ...: validated by a build, not trusted
    built = previous.get("built") or {}
    stale, intact = set(), set()
    for kind in wanted_outputs(settings):
        entry = built.get(kind) or {}
        files = entry.get("files")
        whole = files is not None and all(still_valid(out_dir / folder.name, previous, name)
                                          for name in files)
        if whole:
            intact.add(kind)
        if entry.get("key") != keys[kind] or not whole or distrust:
            stale.add(kind)
    previous["intact"] = sorted(intact)  # outputs on disk exactly as the manifest says
    return stale, keys, previous


def content_key(data: PackData, kind: str, settings: BuildSettings) -> str:
    """What the rulebook or the boards are made of, read from the loaded pack: a stat or a
    quote changed on a card does not touch them, so they need not be drawn again."""
    names = {"rulebook": ("pack.yaml", "rules", "composition.yaml"),
             "boards": ("pack.yaml", "boards.yaml", "images")}[kind]
    digest = hashlib.sha256(repr((settings.paper, settings.booklet, settings.choice)).encode())
    for name in names:
        for path in sorted(p for p in [data.folder / name, *(data.folder / name).rglob("*")]
                           if p.is_file()):
            digest.update(f"{path.relative_to(data.folder)}:{file_hash(path)}\n".encode())
    for lc in data.cards:
        shown = lc.card.model_dump(exclude={"stats", "quote", "image"})
        digest.update(json.dumps([lc.kind, shown, lc.card.extra_fields], sort_keys=True,
                                 default=str).encode())
    return digest.hexdigest()


def _unchanged(result: "PackResult", kind: str, key: str, previous: dict | None) -> bool:
    """Keep the previous output of this kind when its content key is the same."""
    entry = ((previous or {}).get("built") or {}).get(kind) or {}
    if entry.get("content") != key or kind not in (previous or {}).get("intact", []):
        return False
    result.built[kind] = list(entry.get("files") or [])
    return True


def render_pack(data: PackData, report: Report, settings: BuildSettings,
                kinds: set[str] | None = None, previous: dict | None = None,
                deck=None) -> PackResult | None:
    """Stages 4–5 for one pack: the files (in memory), or None when an error was found.

    `kinds` limits the work to the stale outputs; `previous` (the last manifest) lets PNGs of
    unchanged cards stay as they are; `deck` (from compose) is the user's chosen deck: only its
    cards are printed, with a deck sheet and a house-rules rulebook of the chosen options.
    """
    from .render.card import CardPainter
    from .render import pdf
    errors_before = len(report.errors)
    chosen = deck is not None and settings.choice is not None
    whole = dataclasses.replace(data)  # the rulebook and boards describe the whole game
    if chosen:
        ids = {lc.card.id for lc in deck.cards}
        data.cards = [lc for lc in data.cards if lc.card.id in ids]  # file order, as printed
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
    wanted = kinds if kinds is not None else wanted_outputs(settings)
    footer = f"{data.pack.title} {data.pack.version}"
    words = labels_for(data.pack.language, data.pack.labels)
    if "cards" in wanted:
        result.add("cards", "cards.pdf", pdf.card_sheets(printed, painter, paper, card_size,
                                                         bleed, duplex, offset, meta, footer,
                                                         (words["fronts"], words["backs"])))
    if "printshop" in wanted or "png" in wanted:
        shop = pdf.printshop(printed, painter, card_size, bleed, meta)
        if "printshop" in wanted:
            result.add("printshop", "printshop.pdf", shop)
        if "png" in wanted:
            from .render.raster import card_pngs
            old = ((previous or {}).get("png") or {})
            keys = {p.card_id: _face_key(p, settings) for p in printed}
            fresh = {card_id for card_id, key in keys.items() if old.get(card_id) != key}
            result.files.update(card_pngs(shop, printed, card_size, bleed, settings.dpi,
                                          settings.png_bleed, only=fresh))
            result.png_keys = keys
            result.built["png"] = [f"png/{card_id}.png" for card_id in sorted(keys)]
    if "calibration" in wanted:
        result.add("calibration", "calibration.pdf", pdf.calibration(
            paper, card_size, bleed, duplex, offset, meta, words))
    for kind in ("rulebook", "boards"):
        if kind in wanted:
            result.content[kind] = content_key(whole, kind, settings)
    if "rulebook" in wanted and not _unchanged(result, "rulebook", result.content["rulebook"],
                                               previous):
        from .render.rulebook import rulebook_pdf
        book = rulebook_pdf(whole, report, booklet=settings.booklet)
        if len(report.errors) > errors_before:
            return None
        if book is not None and data.chapters:
            result.add("rulebook", "rulebook.pdf", book)
        if chosen and data.chapters:
            house = rulebook_pdf(whole, report, booklet=settings.booklet,
                                 only_options=set(deck.options))
            if house is not None:
                result.add("rulebook", "house-rules.pdf", house)
    if chosen and "cards" in wanted:
        from .compose import deck_sheet_pdf
        result.add("cards", "deck.pdf", deck_sheet_pdf(deck, data, paper))
    if "boards" in wanted and not _unchanged(result, "boards", result.content["boards"],
                                             previous):
        from .render.boards import boards_pdf
        boards = boards_pdf(whole, report, paper)
        if len(report.errors) > errors_before:
            return None
        if boards is not None:
            result.add("boards", "boards.pdf", boards)
    for kind in wanted:  # a kind that made no file (a pack without boards) is still done
        result.built.setdefault(kind, [])
    result.counts = {k.id: sum(1 for c in data.cards if c.kind == k.id) for k in data.pack.kinds}
    result.notes = list(deck.notes) if deck is not None else []
    return result


def _face_key(printed, settings: BuildSettings) -> str:
    """What a card's PNG is drawn from: its laid-out faces and the raster settings."""
    return _sha(repr((printed.front, settings.dpi, settings.png_bleed, settings.card_size,
                      settings.bleed)).encode())


def manifest(result: PackResult, keys: dict[str, str], previous: dict, out_dir: Path) -> bytes:
    """What was built from which inputs, with content hashes (no timestamps: reproducible)."""
    data = result.data
    root = data.folder.parent.parent

    def rel(path: Path) -> str:
        """Inputs named relative to the data folder's parent, or to cardgen's own folder."""
        for base in (root, ROOT):
            try:
                return str(path.resolve().relative_to(base.resolve()))
            except ValueError:
                continue
        return path.name

    built = dict(previous.get("built") or {})
    outputs = dict(previous.get("outputs") or {})
    for kind, names in result.built.items():
        built[kind] = {"key": keys[kind], "files": names}
        if kind in result.content:
            built[kind]["content"] = result.content[kind]
    for name, content in result.files.items():
        outputs[name] = _sha(content)
    pngs = dict(previous.get("png") or {})
    pngs.update(result.png_keys)
    listed = {name for entry in built.values() for name in entry["files"]}
    body = {
        "pack": data.pack.id,
        "title": data.pack.title,
        "cards": result.counts,
        "inputs": {rel(p): file_hash(p) for p in sorted(set(data.inputs))},
        "built": {k: built[k] for k in sorted(built)},
        "outputs": {k: outputs[k] for k in sorted(outputs) if k in listed},
        "png": {k: pngs[k] for k in sorted(pngs) if f"png/{k}.png" in listed},
    }
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode()


def _sha(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def write(out_dir: Path, results: list[tuple[PackResult, dict, dict]]):
    """Stage 6: every file of every pack, atomically per pack folder. (result, keys, previous).

    Returns the PackWrites: each says which files of an earlier build it removed."""
    packs = []
    for result, keys, previous in results:
        body = manifest(result, keys, previous, out_dir)
        files = {**result.files, "manifest.json": body}
        listed = owned_files(json.loads(body)) | {"manifest.json"}
        packs.append(PackWrite(result.data.folder.name, files, owned_files(previous) - listed))
    write_packs(out_dir, packs)
    return packs


def owned_files(manifest_body: dict) -> set[str]:
    """Every output file a manifest says cardgen wrote (what a later build may remove)."""
    owned = set(manifest_body.get("outputs") or {})
    for entry in (manifest_body.get("built") or {}).values():
        if isinstance(entry, dict):
            owned.update(n for n in entry.get("files") or [] if isinstance(n, str))
    return owned
