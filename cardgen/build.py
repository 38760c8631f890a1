"""The pipeline, in the order of DESIGN.md: load → validate → compose → layout → render → write.

Nothing is written while any error is known: every stage before `write` only adds diagnostics.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .incremental import cache
from .diagnostics import Report
from .incremental.fingerprint import file_hash
from .layout.card import CardLayouter
from .layout.faces import used_layouts
from .text.words import labels_for
from .load.pack import ROOT, PackData, load_pack
from .output import PackWrite, write_packs
from .pictures.store import MM, ImageStore
from .validate.boards import check_boards
from .validate.cards import check_cards
from .validate.coverage import check_coverage
from .validate.images import (check_face_pictures, check_named_pictures, is_template,
                              report_undrawn)
from .validate.references import check_references
from .validate.pack import check_pack_refs
from .incremental.plan import BuildSettings, select_packs, stale_outputs, wanted_outputs  # noqa: F401


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


def build_pack(folder: Path, settings: BuildSettings, kinds: set[str] | None = None,
               previous: dict | None = None, split: bool = False
               ) -> tuple[Report, PackResult | None]:
    """One pack, stage by stage; the files stay in memory until `write` (all packs at once).

    load + validate → compose → layout + render. Any error stops the chain before output.
    `split`: the rulebook is rendered in a forked process while this one draws the rest.
    """
    with _cycles_kept():
        return _build_pack(folder, settings, kinds, previous, split)


@contextmanager
def _cycles_kept():
    """No cyclic garbage collection while a pack is built. A build's objects (the loaded pack,
    laid-out faces, the documents' pages) live until it ends, so the collector's passes over
    them free nothing, and they cost 10-20 % of a build (flagship 2.5 → 2.25 s CPU, 1040
    picture cards 4.5 → 3.6 s; peak memory unchanged). Collection resumes after the build."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _build_pack(folder: Path, settings: BuildSettings, kinds: set[str] | None,
                previous: dict | None, split: bool) -> tuple[Report, PackResult | None]:
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
    wanted = kinds if kinds is not None else wanted_outputs(settings)
    part = _forked_part(data, settings, wanted) if split else None
    if part:
        return report, _render_split(data, report, settings, wanted, part, previous, deck)
    return report, render_pack(data, report, settings, kinds, previous, deck)  # layout, render


SHOP_KINDS = {"printshop", "png", "tts"}  # drawn from one print-shop file (_shop_outputs)


def _forked_part(data: PackData, settings: BuildSettings, wanted: set[str]) -> set[str]:
    """The outputs a second process renders while this one renders the rest: the rulebook
    (its own layout, no card faces); else, for a pack without rules, the print-shop outputs —
    when an earlier build kept the faces, so that both processes replay them (with nothing
    kept, both would draw every face: no faster on two cores, twice the work)."""
    if "rulebook" in wanted and len(wanted) > 1 and data.chapters:
        return {"rulebook"}
    shop = wanted & SHOP_KINDS
    if not shop or "cards" not in wanted or "changed" in wanted or (
            "rulebook" in wanted and data.chapters):
        return set()
    from .layout.card import pack_icons
    from .incremental.faces import KIND, entry_name
    card_size = settings.card_size or data.pack.print.size()
    return shop if cache.has(KIND, entry_name(data.folder, card_size, pack_icons(data))) \
        else set()


def _render_split(data: PackData, report: Report, settings: BuildSettings, wanted: set[str],
                  part: set[str], previous, deck) -> PackResult | None:
    """render_pack, the outputs of `part` in a child forked from this loaded process (nothing
    is read twice) and everything else here; the same files as one render_pack call."""
    import multiprocessing
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this system: one after the other
        return render_pack(data, report, settings, wanted, previous, deck)
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(target=_part_child,
                            args=(writer, data, settings, part, previous, deck))
    child.start()
    writer.close()
    try:
        result = render_pack(data, report, settings, wanted - part, previous, deck)
        try:
            part_report, made = reader.recv()
        except EOFError:  # the child died: do its part here
            part_report = Report()
            made = _part(data, settings, part, previous, deck, part_report)
    except BaseException:  # Ctrl-C (the child ignores it) or a failure here: the child stops
        child.terminate()
        raise
    finally:
        child.join()
    report.extend(part_report)
    if result is None or made is None:
        return None
    files, built, content, png_keys = made
    result.files.update(files)
    result.built.update(built)
    result.content.update(content)
    result.png_keys.update(png_keys)
    return result


def _part_child(writer, data: PackData, settings: BuildSettings, part: set[str], previous,
                deck) -> None:
    import signal
    # Ctrl-C and SIGTERM are the parent's to handle: it stops this process (SIGTERM, ending it
    # at once and silently), so no second traceback comes from here
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if part & SHOP_KINDS:  # the cache entries of the faces are this process's parent's to
        cache.READ_ONLY = True  # write (the same ones: written once is enough)
    report = Report()
    writer.send((report, _part(data, settings, part, previous, deck, report)))
    writer.close()


def _part(data, settings, part: set[str], previous, deck, report: Report):
    """(files, built, content keys, png keys) of the outputs of `part` alone; None on an
    error."""
    result = render_pack(data, report, settings, part, previous, deck)
    return None if result is None else (result.files, result.built, result.content,
                                        result.png_keys)


def check(folder: Path, report: Report) -> PackData | None:
    """Load and validate one pack (stages 1–2)."""
    from .pictures.store import forget_paths
    forget_paths()  # a build sees the picture files as they are now
    data = load_pack(folder, report)
    if data is None:
        return None
    checks = [("pack.yaml references", check_pack_refs), ("cards and stat rules", check_cards),
              ("printed fields", check_coverage), ("references in texts", check_references),
              ("pictures", check_named_pictures)]
    if (folder / "boards.yaml").is_file():
        checks.append(("boards and score sheets", check_boards))
    for name, run in checks:
        if run is check_references and report.errors:
            # a card that did not load would make every text naming it look wrong: fix the
            # errors above first, the references are checked on the next run
            continue
        report.ran_check(name)
        run(data, report)
    return data


def layout_faces(data: PackData, report: Report, settings: BuildSettings,
                 prepare: bool = True):
    """Stage 4: every front and back laid out; text fitted; pictures checked.

    `prepare`: the pictures are prepared for printing (decoded, scaled, encoded, on every core;
    the decode finds a damaged file); else only decoded to find one (`cardgen check`)."""
    from .render.pdf import Printed
    from .layout.print_check import check_print
    errors_before = len(report.errors)
    check_print(data, settings, wanted_outputs(settings), report)
    layouter = CardLayouter(data, report)
    if len(report.errors) > errors_before:  # every card would fail the same way
        return [], ImageStore(data.folder), layouter
    card_size = settings.card_size or data.pack.print.size()
    safe = settings.safe if settings.safe is not None else data.pack.print.safe
    bleed = settings.bleed if settings.bleed is not None else data.pack.print.bleed
    layouts = used_layouts(data, layouter, card_size, bleed, safe)
    images = ImageStore(data.folder)
    # the pictures the cards and layouts name outright are prepared on the other cores while
    # this process lays out the cards (prepare_all below waits for them)
    if prepare:
        images.start(_named_pictures(data, layouts), settings.jobs)
    try:
        printed: list[Printed] = []
        backs = {}
        faces = []  # (card | None, layout, face): every face, for the picture check
        preflight = _outline_check(layouter, card_size, safe, data.pack.print.min_font_size)
        from .layout.ink import ink_saved
        saver = ink_saved if settings.ink_saver else (lambda face: face)
        for kind in data.pack.kinds:
            if kind.back in layouts:
                backs[kind.id] = layouter.face(None, layouts[kind.back], f"back:{kind.id}")
                faces.append((None, layouts[kind.back], backs[kind.id]))
                preflight(None, layouts[kind.back], backs[kind.id])
                backs[kind.id] = saver(backs[kind.id])
        from .incremental.kept import KeptFronts
        kept = KeptFronts(data, card_size, safe, layouter.icons)
        for lc in data.cards:
            kind = data.kind(lc.kind)
            if kind.front not in layouts or kind.id not in backs:
                continue
            layout = layouts[kind.front]
            key = kept.key(lc, layout)
            front = kept.front(key, lc, layout)
            if front is None:
                problems = _problems(report, layouter)
                front = layouter.face(lc, layout, lc.card.id)
                preflight(lc, layout, front)
                if _problems(report, layouter) == problems:
                    kept.keep(key, front)
            else:
                layouter.note_kept(lc, layout, front)
            faces.append((lc, layout, front))
            front = saver(front)
            for copy in range(lc.card.count):
                printed.append(Printed(lc.card.id, front, backs[kind.id]))
        layouter.report_problems()
    except BaseException:
        images.stop()
        raise
    # prepared (decoded completely, scaled, encoded) before the check: that decode is the one
    # that finds a damaged file, and the drawing then decodes nothing
    placed = [(box.image, box.region.w * MM, box.region.h * MM)
              for p in printed for face in (p.front, p.back) for box in face.boxes if box.image]
    undecodable = images.prepare_all(placed, settings.jobs) if prepare else \
        images.verify_all(placed)
    check_face_pictures(data, faces, report, undecodable)
    if not report.errors:
        kept.save()
    layouter.kept = kept
    return printed, images, layouter


def _named_pictures(data: PackData, layouts: dict) -> list[tuple[str, float, float]]:
    """(picture, w_pt, h_pt) of the pictures the faces will place that need no layout to be
    known: a layout's fixed picture and a card's own `image` in a portrait region of its front.
    Paths a template makes are known after layout (and prepared then)."""
    faces = [(None, layouts[k.back]) for k in data.pack.kinds if k.back in layouts]
    faces += [(lc, layouts[data.kind(lc.kind).front]) for lc in data.cards
              if data.kind(lc.kind).front in layouts]
    placed = []
    for lc, layout in faces:
        for region in layout.regions.values():
            image = region.image if region.type == "image" else \
                lc.card.image if region.type == "portrait" and lc is not None else None
            if image and not is_template(image):
                placed.append((image, region.w * MM, region.h * MM))
    return placed


def _problems(report: Report, layouter: CardLayouter) -> int:
    """How many problems the layout stage has met so far (said or kept for saying)."""
    return (len(report.items) + sum(len(items) for _, items in layouter.deferred.values())
            + sum(len(ids) for _, ids in layouter.folded.values()))


def _outline_check(layouter: CardLayouter, card_size, safe: float, minimum: float):
    """check(lc, layout, face): every glyph's outline inside the safe zone and no glyph below
    the pack's minimum size, reported where the card's text (or the layout's region) is."""
    from .text.typeset import outline_problems

    def check(lc, layout, face) -> None:
        for region, message in outline_problems(face, card_size, safe, minimum, layouter.icons):
            # a back's text comes from its layout: the message names the field there
            layouter._card_error(lc, layout, region, message if lc else f"text: {message}")
    return check


def content_key(data: PackData, kind: str, settings: BuildSettings) -> str:
    """What the rulebook or the boards are made of, read from the loaded pack: a stat or a
    quote changed on a card does not touch them, so they need not be drawn again."""
    names = {"rulebook": ("pack.yaml", "rules", "composition.yaml", "boards.yaml", "images"),
             "boards": ("pack.yaml", "boards.yaml", "images")}[kind]
    digest = hashlib.sha256(repr((settings.paper, settings.booklet, settings.choice)).encode())
    for name in names:
        for path in sorted(p for p in [data.folder / name, *(data.folder / name).rglob("*")]
                           if p.is_file()):
            digest.update(f"{path.relative_to(data.folder)}:{file_hash(path)}\n".encode())
    pictured: set[str] = set()
    if kind == "rulebook":  # its cover and figures draw real card faces
        from .documents.rulebook.pictured import pictured_cards
        digest.update(repr(sorted(data.layouts.items())).encode())
        pictured = {lc.card.id for lc in data.cards} if settings.choice is not None \
            else pictured_cards(data)  # house rules picture the chosen cards
    for lc in data.cards:
        hidden = set() if lc.card.id in pictured else {"stats", "quote", "image"}
        shown = lc.card.model_dump(exclude=hidden)
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
    whole = data  # the rulebook and boards describe the whole game
    if chosen:  # the sheets print the chosen cards (a copy: the caller's pack stays whole)
        ids = {lc.card.id for lc in deck.cards}
        data = dataclasses.replace(data, cards=[lc for lc in data.cards
                                                if lc.card.id in ids])  # file order
    wanted = kinds if kinds is not None else wanted_outputs(settings)
    check_print_shop(data, settings, report)
    settings_print = data.pack.print
    card_size = settings.card_size or settings_print.size()
    bleed = settings.bleed if settings.bleed is not None else settings_print.bleed
    faced = wanted & {"cards", "printshop", "png", "tts", "changed"}
    if faced:  # a rulebook, boards or a calibration sheet need no faces
        printed, images, layouter = layout_faces(data, report, settings)
        if len(report.errors) > errors_before:
            return None
        keys = face_keys(printed, images, layouter.kept.described)
        layouter.kept = None  # its fronts are saved and their reprs hashed: 5 MB at 1040 cards
        records, kept = _face_records(data, card_size, layouter.icons, printed, keys, images)
        painter = CardPainter(card_size, bleed, layouter.icons, images, records)
    elif "calibration" in wanted:  # its sheet is cards.pdf's: the same settings must fit
        from .layout.print_check import check_print
        check_print(data, settings, wanted, report)
        if len(report.errors) > errors_before:
            return None
    paper = settings.paper or settings_print.paper
    duplex = settings.duplex or settings_print.duplex
    offset = settings.back_offset or settings_print.back_offset
    meta = {"title": data.pack.title, "author": data.pack.author,
            "subject": data.pack.subtitle or data.pack.description[:200],
            "keywords": f"cardgen, {data.pack.id}, print and play"}
    result = PackResult(data)
    footer = f"{data.pack.title} {data.pack.version}"
    words = labels_for(data.pack.language, data.pack.labels)
    spec = pdf.SheetSpec(paper, duplex, offset, settings.sheet,
                         5.0 if settings.margin is None else settings.margin)
    if "cards" in wanted:
        result.add("cards", "cards.pdf", pdf.card_sheets(printed, painter, spec, card_size,
                                                         bleed, meta, footer,
                                                         (words["fronts"], words["backs"])))
        result.notes.extend(sheet_notes(spec, card_size, bleed))
        result.add("cards", "guide.pdf", _guide(data, spec, card_size, bleed, len(printed), meta))
    if wanted & {"printshop", "png", "tts"}:
        if not _shop_outputs(result, data, report, settings, printed, painter, card_size,
                             bleed, meta, wanted, previous):
            return None
    if faced:
        result.faces = face_hashes(printed, keys)
        kept.save(records.alphabet, records.lasting())
    if "changed" in wanted:
        result.changed = changed_cards(printed, result.faces, settings.changed_since)
        reprint = [p for p in printed if p.card_id in dict(result.changed)]
        if reprint:
            result.add("changed", "changed.pdf", pdf.card_sheets(
                reprint, painter, spec, card_size, bleed, meta, footer,
                (words["fronts"], words["backs"])))
    if "calibration" in wanted:
        from .documents.calibration import calibration
        result.add("calibration", "calibration.pdf", calibration(
            spec, card_size, bleed, meta, words))
    for kind in ("rulebook", "boards"):
        if kind in wanted:
            result.content[kind] = content_key(whole, kind, settings)
    if "rulebook" in wanted and data.chapters and not _unchanged(
            result, "rulebook", result.content["rulebook"], previous):  # no rules: no book
        from .documents.rulebook.book import rulebook_pdf
        book = rulebook_pdf(whole, report, booklet=settings.booklet, paper=paper)
        if len(report.errors) > errors_before:
            return None
        if book is not None:
            result.add("rulebook", "rulebook.pdf", book)
        if chosen:
            from .documents.deck_sheet import house_of
            house = rulebook_pdf(whole, report, booklet=settings.booklet, paper=paper,
                                 house=house_of(deck, data))
            if house is not None:
                result.add("rulebook", "house-rules.pdf", house)
    if chosen and "cards" in wanted:
        from .documents.deck_sheet import deck_sheet_pdf
        result.add("cards", "deck.pdf", deck_sheet_pdf(deck, data, paper))
    if "contact" in wanted:
        from .documents.deck_sheet import contact_pages, page_pngs
        pack_print = data.pack.print
        own = faced and not settings.ink_saver and all(  # the faces are the pack's own
            value is None or value == default for value, default in (
                (settings.card_size, pack_print.size()), (settings.bleed, pack_print.bleed),
                (settings.safe, pack_print.safe)))
        contact, keys = contact_pages(whole, paper, ({p.card_id: p.front for p in printed},
                                                     painter) if own else None)
        result.add("contact", "contact.pdf", contact)
        # a page's PNG is drawn again only when the page changed (watch: one card edited)
        names = [f"contact-{n}.png" for n in range(1, len(keys) + 1)]
        old = (previous or {}).get("pages") or {}
        kept = "contact" in (previous or {}).get("intact", [])
        result.page_keys = dict(zip(names, keys))
        fresh = {n for n in names if not kept or old.get(n) != result.page_keys[n]}
        result.files.update(page_pngs(contact, "contact", only=fresh))
        result.built["contact"] += names
    if "boards" in wanted and not _unchanged(result, "boards", result.content["boards"],
                                             previous):
        from .render.boards import boards_pdf
        boards = boards_pdf(whole, report, paper)
        if len(report.errors) > errors_before:
            return None
        if boards is not None:
            result.add("boards", "boards.pdf", boards)
    if report_undrawn(whole, report):  # a figure had to leave a damaged picture out
        return None
    for kind in wanted:  # a kind that made no file (a pack without boards) is still done
        result.built.setdefault(kind, [])
    result.counts = {k.id: sum(1 for c in data.cards if c.kind == k.id) for k in data.pack.kinds}
    result.notes[:0] = list(deck.notes) if deck is not None else []
    return result


def face_keys(printed, images: ImageStore, described=lambda face: None) -> dict[int, str]:
    """{id(face): a hash of what the face prints (its laid-out boxes and the bytes of its
    pictures)}: the face's key in render.face_store and, in manifest.json, for a later
    --changed-since. A face shared by many cards (a back) and a picture on many faces are
    hashed once; `described(face)` gives the repr of a face kept from the build before."""
    from .pictures.store import resolve
    faces: dict[int, str] = {}
    pictures: dict[str, str] = {}

    def picture(relative: str) -> str:
        if relative not in pictures:
            pictures[relative] = file_hash(resolve(images.folder, relative))
        return pictures[relative]

    for p in printed:
        for face in (p.front, p.back):
            if id(face) not in faces:
                digest = hashlib.sha256((described(face) or repr(face.boxes)).encode())
                for box in face.boxes:
                    if box.image:
                        digest.update(picture(box.image).encode())
                faces[id(face)] = digest.hexdigest()
    return faces


def face_hashes(printed, keys: dict[int, str]) -> dict[str, dict[str, str]]:
    """{card id: {front, back}}: the keys of each card's sides (face_keys)."""
    out = {}
    for p in printed:
        if p.card_id not in out:
            out[p.card_id] = {"front": keys[id(p.front)], "back": keys[id(p.back)]}
    return out


def _face_records(data: PackData, card_size, icons: dict[str, str], printed,
                  keys: dict[int, str], images: ImageStore):
    """(the build's FaceRecords, the pack's render.face_store entry): the faces an earlier
    build drew with the same characters replay; the alphabet seeds every print document."""
    from .incremental.faces import Kept, entry_name
    from .render.replay import FaceRecords
    kept = Kept(entry_name(data.folder, card_size, icons))
    faces = {}
    for p in printed:
        for face in (p.front, p.back):
            faces.setdefault(keys[id(face)], face)
    alphabet = kept.alphabet_for(faces, icons)
    usable = kept.usable(alphabet)
    records = FaceRecords(alphabet, {key: usable[key] for key in faces if key in usable},
                          images, keys)
    return records, kept


def changed_cards(printed, faces: dict, before: dict) -> list[tuple[str, str]]:
    """[(card id, 'front' | 'back' | 'front and back' | 'new')] in print order: the cards
    whose printed sides differ from the earlier manifest's."""
    out = []
    for card_id, now in faces.items():
        old = before.get(card_id)
        if old is None:
            out.append((card_id, "new"))
            continue
        sides = [side for side in ("front", "back") if old.get(side) != now[side]]
        if sides:
            out.append((card_id, " and ".join(sides)))
    return out


def check_print_shop(data: PackData, settings: BuildSettings, report: Report) -> None:
    """A print shop cuts its own card size: a pack drawn for other proportions is stretched to
    it, which the designer should see before paying for a print run (a warning; an error with
    --strict). Equal proportions (a different scale only) pass."""
    from .model.pack import PRINT_SHOPS
    from .load.source import mark_at
    shop = PRINT_SHOPS.get(settings.print_shop or "")
    if shop is None:
        return
    (w, h), (sw, sh) = data.pack.print.size(), shop.size
    if abs((sw / sh) / (w / h) - 1) <= 0.02:
        return
    fits = [name for name, other in PRINT_SHOPS.items() if tuple(other.size) == (w, h)]
    mark = mark_at(data.pack_raw, "print", "card_size")
    report.warning(data.pack_file, mark.line, mark.col, "", f"print.card_size: the cards are "
                   f"{w:g} x {h:g} mm, {shop.label} cuts {sw:g} x {sh:g} mm: every layout is "
                   f"stretched to {sw / w:.0%} of its width and {sh / h:.0%} of its height; "
                   f"look at the cards before ordering"
                   + (f" (or use --card-size {fits[0]})" if fits else ""))


def _shop_outputs(result: PackResult, data: PackData, report: Report, settings: BuildSettings,
                  printed, painter, card_size, bleed: float, meta, wanted: set[str],
                  previous: dict | None) -> bool:
    """printshop.pdf (in the shop's page order, CMYK when asked), PNGs of fronts and backs,
    the Tabletop Simulator files: all drawn from one print-shop file. False on an error."""
    from .model.pack import PRINT_SHOPS
    from .render import pdf
    shop = PRINT_SHOPS.get(settings.print_shop or "") or data.pack.print.shop()
    order = shop.order if shop else "sides"
    sheet = pdf.printshop(printed, painter, card_size, bleed, meta, order)
    if "printshop" in wanted:
        made = sheet
        if settings.colour == "cmyk":
            from .render.cmyk import CmykUnavailable, to_pdfx
            try:
                made = to_pdfx(sheet, data.pack.title)
            except CmykUnavailable as exc:
                report.error("printshop.pdf", 0, 0, "", str(exc))
                return False
        result.add("printshop", "printshop.pdf", made)
    if "png" in wanted:
        from .render.raster import card_pngs, png_name
        old = ((previous or {}).get("png") or {})
        faces = {png_name(face)[4:-4]: face for p in printed for face in (p.front, p.back)}
        keys = {stem: _face_key(face, settings) for stem, face in faces.items()}
        fresh = {f"png/{stem}.png" for stem, key in keys.items() if old.get(stem) != key}
        result.files.update(card_pngs(sheet, printed, card_size, bleed, settings.dpi,
                                      settings.png_bleed, only=fresh, order=order))
        result.png_keys = keys
        result.built["png"] = [f"png/{stem}.png" for stem in sorted(keys)]
    if "tts" in wanted:
        from .render.tts import tts_files
        plain = sheet if order == "sides" else pdf.printshop(printed, painter, card_size,
                                                             bleed, meta)
        names = {lc.card.id: lc.card.name for lc in data.cards}
        names.update({f"back:{k.id}": k.plural or k.label for k in data.pack.kinds})
        folder = Path(settings.out or "output").resolve() / data.pack.id
        for name, body in tts_files(plain, printed, card_size, bleed, data.pack.id,
                                    data.pack.title, folder, names).items():
            result.add("tts", name, body)
    return True


def _guide(data: PackData, spec, card_size, bleed: float, cards: int, meta) -> bytes:
    """guide.pdf for the sheets of cards.pdf: their pages, duplex, paper and cutting."""
    from .documents.guide import GuideFacts, guide_pdf
    from .render.pdf import sheet_layout
    plan = sheet_layout(spec, card_size, bleed)[0]
    sheets = max(1, -(-cards // len(plan.slots)))
    pages = sheets * (1 if spec.duplex == "fold" else 2)
    facts = GuideFacts(data.pack.title, data.pack.language, spec.paper, spec.duplex, cards)
    return guide_pdf(facts, plan, pages, meta, data.pack.labels)


def sheet_notes(spec, card_size, bleed: float) -> list[str]:
    """Said by the build when the cards on the sheets abut at the trim although the pack
    has a bleed: a mis-cut then shows the neighbour's edge, and the user should know."""
    from .render.pdf import sheet_layout
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
    return _sha(repr((face, settings.dpi, settings.png_bleed, settings.card_size,
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
    pages = dict(previous.get("pages") or {})
    pages.update(result.page_keys)
    listed = {name for entry in built.values() for name in entry["files"]}
    faces = result.faces or previous.get("faces") or {}  # no faces laid out: keep the last
    body = {
        "pack": data.pack.id,
        "title": data.pack.title,
        "cards": result.counts,
        "inputs": {rel(p): file_hash(p) for p in sorted(set(data.inputs))},
        "built": {k: built[k] for k in sorted(built)},
        "outputs": {k: outputs[k] for k in sorted(outputs) if k in listed},
        "png": {k: pngs[k] for k in sorted(pngs) if f"png/{k}.png" in listed},
        "pages": {k: pages[k] for k in sorted(pages) if k in listed},
        "faces": {k: faces[k] for k in sorted(faces)},
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
