"""The draw phase: a checked pack's outputs, as bytes in memory (pipeline.write puts them on disk).

One function per output of the registry (model.outputs), called in the registry's drawing
order for the outputs a build wants. Nothing here checks the pack's data: the check phase
(pipeline.check_pack) has done that; an error found here is a failure of drawing (Ghostscript
missing, a rulebook that cannot be laid out on its pages, a picture that fails while drawn).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Report
from ..incremental.manifest import changed_cards, content_key, sha256_hex, unchanged
from ..incremental.plan import wanted_outputs
from ..layout.print_check import check_print, check_print_shop
from ..model.outputs import FACED_KINDS
from ..model.packdata import PackData
from ..model.settings import BuildSettings
from ..text.words import labels_for
from ..validate.images import report_undrawn
from .faces import face_hashes, face_keys, face_records, layout_faces


@dataclass
class PackResult:
    data: PackData
    files: dict[str, bytes] = field(default_factory=dict)  # new or changed files only
    built: dict[str, list[str]] = field(default_factory=dict)  # output kind → its file names
    png_keys: dict[str, str] = field(default_factory=dict)
    page_keys: dict[str, str] = field(default_factory=dict)  # contact-N.png → its page's key
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    content: dict[str, str] = field(default_factory=dict)  # content keys (rulebook, boards)
    faces: dict[str, dict[str, str]] = field(default_factory=dict)  # card id → face hashes
    changed: list[tuple[str, str]] = field(default_factory=list)  # (card id, what changed)

    def add(self, kind: str, name: str, content: bytes) -> None:
        self.files[name] = content
        self.built.setdefault(kind, []).append(name)


@dataclass
class Drawing:
    """What every output of one pack is drawn with."""

    data: PackData  # the printed cards (the chosen deck's, when there is one)
    whole: PackData  # the whole game: the rulebook and boards describe it
    report: Report
    settings: BuildSettings
    wanted: set[str]
    previous: dict | None
    deck: object
    chosen: bool
    result: PackResult
    card_size: tuple[float, float]
    bleed: float
    paper: str
    spec: object = None  # render.pdf.SheetSpec
    meta: dict = field(default_factory=dict)
    footer: str = ""
    words: dict = field(default_factory=dict)
    printed: list = field(default_factory=list)
    painter: object = None
    keys: dict = field(default_factory=dict)  # id(face) → its key
    records: object = None  # render.replay.FaceRecords: the faces drawn once, replayed
    kept: object = None  # incremental.faces.Kept

    @property
    def sides(self) -> tuple[str, str]:
        return (self.words["fronts"], self.words["backs"])


def render_pack(data: PackData, report: Report, settings: BuildSettings,
                kinds: set[str] | None = None, previous: dict | None = None,
                deck=None, faces=None, early=None) -> PackResult | None:
    """The draw phase for one pack: the files (in memory), or None when drawing failed.

    `kinds` limits the work to the stale outputs; `previous` (the last manifest) lets PNGs of
    unchanged cards stay as they are; `deck` (from compose) is the user's chosen deck: only its
    cards are printed, with a deck sheet and a house-rules rulebook of the chosen options;
    `faces` the laid-out faces of the check phase (layout_faces), laid out here when None;
    `early(result)`: given each output a viewer keeps open (FIRST: cards.pdf, the contact
    sheet) as a PackResult of that output alone as soon as it is drawn, before the rest
    (`cardgen watch` writes each at once).
    """
    errors_before = len(report.errors)
    drawing = _drawing(data, report, settings, kinds, previous, deck)
    if drawing.wanted & FACED_KINDS:  # a rulebook, boards or a calibration sheet need no faces
        if not _faces(drawing, faces) or len(report.errors) > errors_before:
            return None
    elif "calibration" in drawing.wanted:  # its sheet is cards.pdf's: the same settings fit
        check_print(drawing.data, settings, drawing.wanted, report)
        if len(report.errors) > errors_before:
            return None
    result = drawing.result
    result.counts = {k.id: sum(1 for c in drawing.data.cards if c.kind == k.id)
                     for k in drawing.data.pack.kinds}
    for draw in DRAW_ORDER:
        if not draw(drawing) or len(report.errors) > errors_before:
            return None
        kind = FIRST.get(draw)
        if early is not None and kind in result.built:
            names = result.built[kind]
            early(PackResult(result.data, {n: result.files[n] for n in names
                                           if n in result.files}, {kind: list(names)},
                             page_keys=dict(result.page_keys) if kind == "contact" else {},
                             counts=result.counts))
    if report_undrawn(drawing.whole, report):  # a figure had to leave a damaged picture out
        return None
    for kind in drawing.wanted:  # a kind that made no file (a pack without boards) is done
        result.built.setdefault(kind, [])
    result.notes[:0] = list(deck.notes) if deck is not None else []
    return result


def _drawing(data: PackData, report: Report, settings: BuildSettings, kinds, previous,
             deck) -> Drawing:
    from ..render import pdf
    chosen = deck is not None and settings.choice is not None
    whole = data
    if chosen:  # the sheets print the chosen cards (a copy: the caller's pack stays whole)
        ids = {lc.card.id for lc in deck.cards}
        data = dataclasses.replace(data, cards=[lc for lc in data.cards
                                                if lc.card.id in ids])  # file order
    wanted = kinds if kinds is not None else wanted_outputs(settings)
    check_print_shop(data, settings, report)
    pack_print = data.pack.print
    paper = settings.paper or pack_print.paper
    drawing = Drawing(
        data, whole, report, settings, wanted, previous, deck, chosen, PackResult(data),
        settings.card_size or pack_print.size(),
        settings.bleed if settings.bleed is not None else pack_print.bleed, paper)
    drawing.meta = {"title": data.pack.title, "author": data.pack.author,
                    "subject": data.pack.subtitle or data.pack.description[:200],
                    "keywords": f"cardgen, {data.pack.id}, print and play"}
    drawing.footer = f"{data.pack.title} {data.pack.version}"
    drawing.words = labels_for(data.pack.language, data.pack.labels, data.pack.locale)
    # fronts alone: no back to place, whatever duplex the pack or settings file names
    duplex = (settings.duplex or pack_print.duplex) if settings.backs else "none"
    drawing.spec = pdf.SheetSpec(paper, duplex,
                                 settings.back_offset or pack_print.back_offset,
                                 settings.sheet,
                                 5.0 if settings.margin is None else settings.margin,
                                 settings.backs)
    return drawing


def _faces(drawing: Drawing, faces) -> bool:
    """The printed faces, their keys, the painter that draws them (replaying the faces an
    earlier build kept). `faces`: the check phase's layout of the whole pack, or None."""
    from ..render.card import CardPainter
    data, settings = drawing.data, drawing.settings
    if faces is None:
        faces = layout_faces(data, drawing.report, settings)
    printed, images, layouter = faces
    if drawing.chosen:  # only the chosen deck's cards are printed
        ids = {lc.card.id for lc in data.cards}
        printed = [p for p in printed if p.card_id in ids]
    # the kept fronts' reprs of the faces, made once; a part drawn after this one in the same
    # process (no fork to be had) finds them let go and takes repr(face.boxes): the same keys
    keys = face_keys(printed, images, layouter.kept.described if layouter.kept is not None
                     else lambda face: None)
    layouter.kept = None  # its fronts are saved and their reprs hashed: 5 MB at 1040 cards
    drawing.records, drawing.kept = face_records(data, drawing.card_size, layouter.icons, printed,
                                         keys, images)
    drawing.painter = CardPainter(drawing.card_size, drawing.bleed, layouter.icons, images,
                                  drawing.records)
    drawing.printed, drawing.keys = printed, keys
    return True


def _cards(d: Drawing) -> bool:
    """cards.pdf (fronts and duplex backs on the chosen paper) and guide.pdf beside it."""
    if "cards" not in d.wanted:
        return True
    from ..render import pdf
    d.result.add("cards", "cards.pdf", pdf.card_sheets(d.printed, d.painter, d.spec,
                                                       d.card_size, d.bleed, d.meta, d.footer,
                                                       d.sides))
    d.result.notes.extend(sheet_notes(d.spec, d.card_size, d.bleed))
    light = ()
    if d.settings.ink_saver:  # the files of this build that --ink-saver made light (the
        wants = wanted_outputs(d.settings)  # rulebook may be drawn in another process)
        light = ("cards.pdf",) + (("boards.pdf",) if "boards" in wants and
                                  (d.whole.folder / "boards.yaml").is_file() else ()) + \
            (("rulebook.pdf",) if "rulebook" in wants and d.whole.chapters else ())
    d.result.add("cards", "guide.pdf", _guide(d.data, d.spec, d.card_size, d.bleed,
                                              len(d.printed), d.meta, light,
                                              "tuckbox" in wanted_outputs(d.settings)))
    return True


def _shop(d: Drawing) -> bool:
    """printshop.pdf (in the shop's page order, CMYK when asked), PNGs of fronts and backs,
    the Tabletop Simulator files: all drawn from one print-shop file. False on an error."""
    if not d.wanted & {"printshop", "png", "tts"}:
        return True
    from ..model.pack import PRINT_SHOPS
    from ..render import pdf
    shop = PRINT_SHOPS.get(d.settings.print_shop or "") or d.data.pack.print.shop()
    # a shop that takes the two sides as two files: PNGs and TTS read one file of both
    order = shop.order if shop and shop.order != "files" else "sides"
    sheet = pdf.printshop(d.printed, d.painter, d.card_size, d.bleed, d.meta, order)
    if "printshop" in d.wanted and not _printshop(d, sheet, shop):
        return False
    if "png" in d.wanted:
        _pngs(d, sheet, order)
    if "tts" in d.wanted:
        _tts(d, sheet if order == "sides" else pdf.printshop(d.printed, d.painter, d.card_size,
                                                             d.bleed, d.meta))
    return True


def _printshop(d: Drawing, sheet: bytes, shop) -> bool:
    """printshop.pdf, or the shop's two files (fronts, backs); in CMYK as the shop asks (its
    PDF/X version and ink limit), the highest total ink measured and said."""
    from ..render import pdf
    documents = {"printshop.pdf": sheet}
    if shop is not None and shop.order == "files":
        documents = {f"printshop-{side}.pdf": pdf.printshop(d.printed, d.painter, d.card_size,
                                                            d.bleed, d.meta, side)
                     for side in ("fronts", "backs")}
    for name, made in documents.items():
        if d.settings.colour == "cmyk":
            from ..render.cmyk import CmykUnavailable, to_print_cmyk
            version, limit = (shop.pdfx, shop.ink) if shop else ("PDF/X-3:2002", 0)
            try:
                inked = to_print_cmyk(made, d.data.pack.title, version, limit)
            except CmykUnavailable as exc:
                d.report.error(name, 0, 0, "", str(exc))
                return False
            made = inked.pdf
            d.result.notes.append(
                f"{name}: CMYK, {version}, black text and lines in black ink only, total ink "
                f"at most {inked.ink:g} %" + (f" ({shop.label} accepts {limit} %"
                                              + (f"; {inked.limited} colours and pixels were "
                                                 "held to it" if inked.limited else "") + ")"
                                              if limit else ""))
        elif shop is not None and shop.colour == "cmyk":
            d.result.notes.append(f"{name}: RGB; {shop.label} asks for CMYK ({shop.pdfx}"
                                  + (f", at most {shop.ink} % ink" if shop.ink else "")
                                  + "): build with --colour cmyk (needs Ghostscript)")
        d.result.add("printshop", name, made)
    return True


def _pngs(d: Drawing, sheet: bytes, order: str) -> None:
    """A PNG per face; a face whose PNG key is the previous build's is not drawn again."""
    from ..render.raster import card_pngs, png_name
    old = ((d.previous or {}).get("png") or {})
    faces = {png_name(face)[4:-4]: face for p in d.printed for face in (p.front, p.back)}
    keys = {stem: _face_key(face, d.settings) for stem, face in faces.items()}
    fresh = {f"png/{stem}.png" for stem, key in keys.items() if old.get(stem) != key}
    d.result.files.update(card_pngs(sheet, d.printed, d.card_size, d.bleed, d.settings.dpi,
                                    d.settings.png_bleed, only=fresh, order=order))
    d.result.png_keys = keys
    d.result.built["png"] = [f"png/{stem}.png" for stem in sorted(keys)]


def _tts(d: Drawing, plain: bytes) -> None:
    from ..render.tts import tts_files
    data = d.data
    names = {lc.card.id: lc.card.name for lc in data.cards}
    names.update({f"back:{k.id}": k.plural or k.label for k in data.pack.kinds})
    folder = Path(d.settings.out or "output").resolve() / data.pack.id
    for name, body in tts_files(plain, d.printed, d.card_size, d.bleed, data.pack.id,
                                data.pack.title, folder, names, d.keys).items():
        d.result.add("tts", name, body)


def decks_by_back(printed, keys: dict[int, str]) -> list[list]:
    """The printed cards in decks: one deck per back (kinds that print the same back are one
    deck, as they are shuffled together), in the order of their first card."""
    decks: dict[str, list] = {}
    for item in printed:
        decks.setdefault(keys.get(id(item.back)) or item.back.card_id, []).append(item)
    return list(decks.values())


def _tuckbox(d: Drawing) -> bool:
    """tuckbox.pdf: a box for each deck, sized from the cards, their count and --stock."""
    if "tuckbox" not in d.wanted:
        return True
    from ..layout.tuckbox import STOCK
    from ..render.tuckbox import tuckbox_pdf
    plurals = {f"back:{k.id}": k.plural or k.label for k in d.data.pack.kinds}
    grouped = decks_by_back(d.printed, d.keys)
    decks = []
    for items in grouped:  # a pack of one deck needs no deck name on the box
        kinds = list(dict.fromkeys(item.back.card_id for item in items))
        name = " + ".join(plurals.get(kind, "") for kind in kinds) if len(grouped) > 1 else ""
        decks.append((name, len(items), items[0].back))
    try:
        made = tuckbox_pdf(decks, d.painter, d.card_size, d.paper, d.spec.margin,
                           d.settings.stock or STOCK, d.data.pack.title, d.meta, d.words)
    except ValueError as exc:
        mark = d.data.pack_raw.value_marks.get("print") or d.data.pack_raw.mark
        d.report.error(d.data.pack_file, mark.line, mark.col, "", f"tuckbox.pdf: {exc}")
        return False
    d.result.add("tuckbox", "tuckbox.pdf", made)
    return True


def _cut(d: Drawing) -> bool:
    """cut.pdf with a cutting machine's registration marks, and its cut paths (SVG, DXF)."""
    if "cut" not in d.wanted:
        return True
    from ..layout.cut_sheet import plan_cut_sheet
    from ..render.cut import cut_files
    from ..units import PAPER
    radius = d.settings.corner_radius if d.settings.corner_radius is not None else \
        d.data.pack.print.corner_radius
    try:
        sheet = plan_cut_sheet(PAPER[d.paper], d.card_size, d.bleed, radius)
    except ValueError as exc:
        mark = d.data.pack_raw.value_marks.get("print") or d.data.pack_raw.mark
        d.report.error(d.data.pack_file, mark.line, mark.col, "", f"cut.pdf: {exc}")
        return False
    for name, body in cut_files(d.printed, d.painter, sheet, d.spec.duplex, d.meta).items():
        d.result.add("cut", name, body)
    return True


def _kept_faces(d: Drawing) -> bool:
    """The faces' keys in the manifest, and the lasting recordings kept for the next build."""
    if d.wanted & FACED_KINDS:
        d.result.faces = face_hashes(d.printed, d.keys)
        d.kept.save(d.records.alphabet, d.records.lasting())
    return True


def _changed(d: Drawing) -> bool:
    """changed.pdf: sheets of the cards whose printed sides changed since a manifest."""
    if "changed" not in d.wanted:
        return True
    from ..render import pdf
    d.result.changed = changed_cards(d.printed, d.result.faces, d.settings.changed_since)
    reprint = [p for p in d.printed if p.card_id in dict(d.result.changed)]
    if reprint:
        d.result.add("changed", "changed.pdf", pdf.card_sheets(
            reprint, d.painter, d.spec, d.card_size, d.bleed, d.meta, d.footer, d.sides))
    return True


def _calibration(d: Drawing) -> bool:
    if "calibration" in d.wanted:
        from ..documents.calibration import calibration
        d.result.add("calibration", "calibration.pdf", calibration(
            d.spec, d.card_size, d.bleed, d.meta, d.words))
    return True


def _content_keys(d: Drawing) -> bool:
    """What the rulebook and the boards are made of: the same as before, the same files."""
    from ..documents.rulebook.pictured import pictured_cards
    for kind in ("rulebook", "boards"):
        if kind in d.wanted:
            d.result.content[kind] = content_key(d.whole, kind, d.settings, pictured_cards)
    return True


def _rulebook(d: Drawing) -> bool:
    """rulebook.pdf (no rules: no book), and house-rules.pdf for a chosen deck."""
    if "rulebook" not in d.wanted or not d.data.chapters or unchanged(
            d.result, "rulebook", d.result.content["rulebook"], d.previous):
        return True
    from ..documents.rulebook.book import rulebook_pdf
    errors_before = len(d.report.errors)
    book = rulebook_pdf(d.whole, d.report, booklet=d.settings.booklet, paper=d.paper,
                        light=d.settings.ink_saver)
    if len(d.report.errors) > errors_before:
        return False
    if book is not None:
        d.result.add("rulebook", "rulebook.pdf", book)
    if d.chosen:
        from ..documents.deck_sheet import house_of
        house = rulebook_pdf(d.whole, d.report, booklet=d.settings.booklet, paper=d.paper,
                             house=house_of(d.deck, d.data), light=d.settings.ink_saver)
        if house is not None:
            d.result.add("rulebook", "house-rules.pdf", house)
    return True


def _deck_sheet(d: Drawing) -> bool:
    if d.chosen and "cards" in d.wanted:
        from ..documents.deck_sheet import deck_sheet_pdf
        d.result.add("cards", "deck.pdf", deck_sheet_pdf(d.deck, d.data, d.paper))
    return True


def _contact(d: Drawing) -> bool:
    """contact.pdf and a PNG per page; a page's PNG is drawn again only when the page changed
    (watch: one card edited)."""
    if "contact" not in d.wanted:
        return True
    from ..documents.deck_sheet import contact_pages, page_pngs
    settings, pack_print = d.settings, d.data.pack.print
    own = bool(d.wanted & FACED_KINDS) and not settings.ink_saver and all(
        value is None or value == default for value, default in (  # the pack's own faces
            (settings.card_size, pack_print.size()), (settings.bleed, pack_print.bleed),
            (settings.safe, pack_print.safe)))
    contact, keys = contact_pages(d.whole, d.paper, ({p.card_id: p.front for p in d.printed},
                                                     d.painter) if own else None)
    d.result.add("contact", "contact.pdf", contact)
    names = [f"contact-{n}.png" for n in range(1, len(keys) + 1)]
    old = (d.previous or {}).get("pages") or {}
    kept = "contact" in (d.previous or {}).get("intact", [])
    d.result.page_keys = dict(zip(names, keys))
    fresh = {n for n in names if not kept or old.get(n) != d.result.page_keys[n]}
    d.result.files.update(page_pngs(contact, "contact", only=fresh))
    d.result.built["contact"] += names
    return True


def _boards(d: Drawing) -> bool:
    if "boards" not in d.wanted or unchanged(d.result, "boards", d.result.content["boards"],
                                             d.previous):
        return True
    from ..render.boards import boards_pdf
    errors_before = len(d.report.errors)
    boards = boards_pdf(d.whole, d.report, d.paper, d.settings.ink_saver)
    if len(d.report.errors) > errors_before:
        return False
    if boards is not None:
        d.result.add("boards", "boards.pdf", boards)
    return True


# The outputs in the order they are drawn: first what a viewer keeps open (cards.pdf, the
# contact sheet), which `cardgen watch` writes as soon as each is drawn; the print-shop file
# serves printshop, png and tts; the faces' recordings are kept after the print files, before
# the documents. Each output is drawn on its own: the order changes no byte.
DRAW_ORDER = (_cards, _contact, _shop, _tuckbox, _cut, _kept_faces, _changed, _calibration,
              _content_keys, _rulebook, _deck_sheet, _boards)
FIRST = {_cards: "cards", _contact: "contact"}  # render_pack's `early` gets these


def _guide(data: PackData, spec, card_size, bleed: float, cards: int, meta,
           light: tuple[str, ...] = (), tuckbox: bool = False) -> bytes:
    """guide.pdf for the sheets of cards.pdf: their pages, duplex, paper and cutting."""
    from ..documents.guide import GuideFacts, guide_pdf
    from ..render.pdf import sheet_layout
    plan = sheet_layout(spec, card_size, bleed)[0]
    sheets = max(1, -(-cards // len(plan.slots)))
    pages = sheets * (2 if spec.backs and spec.duplex != "fold" else 1)
    facts = GuideFacts(data.pack.title, data.pack.language, spec.paper,
                       spec.duplex if spec.backs else "fronts", cards, light, tuckbox,
                       data.pack.locale)
    return guide_pdf(facts, plan, pages, meta, data.pack.labels)


def sheet_notes(spec, card_size, bleed: float) -> list[str]:
    """Said by the build when the cards on the sheets abut at the trim although the pack
    has a bleed: a mis-cut then shows the neighbour's edge, and the user should know."""
    from ..render.pdf import sheet_layout
    plan = sheet_layout(spec, card_size, bleed)[0]
    if plan.keeps_bleed or bleed == 0:
        return []
    why = ("--sheet dense" if spec.mode == "dense" else
           f"no sheet layout keeps the {bleed:g} mm bleed of {card_size[0]:g} x "
           f"{card_size[1]:g} mm cards on {spec.paper}")
    return [f"cards.pdf: the cards abut at the trim with shared cut lines ({len(plan.slots)} "
            f"per sheet; {why}): a mis-cut shows a sliver of the neighbouring card"]


def _face_key(face, settings: BuildSettings) -> str:
    """What a face's PNG is drawn from: the laid-out face and the raster settings."""
    return sha256_hex(repr((face, settings.dpi, settings.png_bleed, settings.card_size,
                            settings.bleed)).encode())
