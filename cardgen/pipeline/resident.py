"""The resident pipeline: a pack kept loaded between edits (`cardgen serve`, `cardgen watch`).

A fresh process pays its imports, fonts and the reading of every file before its first card; a
designer's edit loop pays them once. Between edits each stage's results are kept under a key of
what they were made from, so an edit redoes what its files reach and nothing else:

    stage              kept                                   keyed by
    files              each file's size, time and inode       (a changed one is read again)
    parse              each YAML file's parse, in memory       its text (load.source.MEMORY); a
                                                              card file edited inside one card
                                                              has only that card's lines parsed
    models             each parse's validated model           the parse itself (load.pack: an
                                                              edited card is validated again,
                                                              the others are the same objects)
    load and check     the loaded pack and its diagnostics    every file of the pack; within
                                                              it, the rule texts rendered
                                                              (what they may name) and each
                                                              card's texts for the glossary
                                                              (the card's model and parse)
    layout             each card's front; the size of a       the card as validated, its layout,
                       `fit: uniform` text on each card       the pack (incremental.kept's key;
                                                              the card and pack models)
    pictures           the prepared pictures                  their files (a new store when a
                                                              picture changed)
    preview            a picture of each face                 the face's key: what it prints
    documents          the rulebook's and boards' pages       their content keys (incremental.
                                                              manifest: the rules, the cards the
                                                              book pictures, the paper)
    PDF streams        each compressed stream of the saves   its bytes (render.compressed: a
                                                              page that did not change is not
                                                              compressed again)

So one stat edited re-checks the pack's data (cheap), lays out that card again, draws and
rasterises its face, and leaves the other faces as they were; the rulebook is laid out again
only when it pictures the card. The stages are the chain's own (pipeline.chain.Stages):
`watch` builds through build_pack with these stages, and its files are a cold build's, byte for
byte. `serve` draws a changed face on a print-shop page (render.pdf.printshop, the function
that makes printshop.pdf) and rasterises that page with pypdfium2, as `--png` does: the preview
is the print.

Not thread-safe: one thread uses a Resident (serve runs the pipeline on one worker thread).
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import hashlib
import io
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Report, display_path
from ..model.settings import BuildSettings
from .chain import Stages, build_pack, check_deck, check_faces, validated

PREVIEW_DPI = 150  # a card's picture in the browser: sharp at 1.5x of its printed size
PAGE_DPI = 100  # a rulebook or board page
KEPT_PICTURES = 1500  # preview pictures kept in memory (a face's PNG is 50-300 kB)
TEXT_SOURCES = (".yaml", ".yml", ".csv", ".xlsx", ".json")  # not pictures


@dataclass
class CardView:
    """One card as the preview shows it: its faces' keys (what they print) and where it is
    written."""

    id: str
    name: str
    kind: str
    front: str  # face key: the URL of its picture, new when what it prints changes
    back: str
    count: int
    file: str
    line: int
    layout: str
    back_layout: str


@dataclass
class Document:
    """A document's pages: a key per page (new when the page changes) and the page size."""

    name: str
    pages: list[str]
    size: tuple[float, float]  # mm
    where: dict = field(default_factory=dict, repr=False)  # page key → (PDF, index): not
    # part of what the page is told (serve.server leaves it out)


@dataclass
class View:
    """What the preview page shows of one pack for one deck choice and paper."""

    pack: str
    title: str
    generation: int
    card_size: tuple[float, float]
    cards: list[CardView]
    diagnostics: list[Diagnostic]
    stale: bool = False  # the data has errors: the cards are the last good ones
    presets: list[tuple[str, str]] = field(default_factory=list)  # (slug, label)
    documents: list[Document] = field(default_factory=list)
    documents_pending: bool = False  # being laid out again


class Resident(Stages):
    """One pack, its stages' results kept between edits. `sync()` looks at the files; the
    stages (validated, check_deck, check_faces) then redo what the changes reach."""

    def __init__(self, folder: Path, settings: BuildSettings | None = None):
        from ..layout import boards_preflight
        from ..load import source
        from ..render import compressed
        if source.MEMORY is None:  # this process is resident from now on
            source.MEMORY = {}
        if boards_preflight.MEMORY is None:
            boards_preflight.MEMORY = {}
        compressed.keep()
        self.folder = folder
        self.settings = settings or BuildSettings()
        self.seen: dict[str, tuple] = {}  # path → (mtime, size, inode) at the last sync
        self.generation = 0  # one more for every sync that found a change
        self.texts: dict[str, str] = {}  # card file → the text its kept parse was made from
        self.fronts: dict = {}  # incremental.kept's entries, held in memory
        self.images = None  # the picture store, kept while no picture changes
        self._checked: tuple | None = None  # (generation, items, ran, data) of validated()
        self._text_only = False  # the last change was to text files only (no picture path
        # can resolve otherwise)
        self._faces: dict[str, tuple] = {}  # face key → (Printed, is back, painter) of the
        # faces the views show (_faces_of, joined)
        self._faces_of: dict[tuple, dict] = {}  # (choice, paper) → its view's faces
        self._pngs: OrderedDict[str, bytes] = OrderedDict()
        self._coming: dict[str, threading.Event] = {}  # face key → set once draw_faces has
        # kept its picture (expect_faces: an edit's changed faces, drawn after the page is told)
        self._views: dict[tuple, View] = {}  # (choice, paper) → the last good view
        self._documents: dict[tuple, tuple] = {}  # (choice, paper) → (content key,
        # documents, their diagnostics, the generation they were last found current in)
        self._pages: dict[str, tuple] = {}  # page key → (PDF, page index) of the documents
        # the views show
        self.early = None  # given cards.pdf and the contact sheet as soon as each is drawn
        # (build_packs)

    # --- files ---------------------------------------------------------------------------

    def sync(self) -> list[str]:
        """The files changed, added or removed since the last sync (all of them the first
        time); what they reach is made again by the next stage calls."""
        now = snapshot(self.folder)
        changed = sorted(p for p in now.keys() | self.seen.keys()
                         if now.get(p) != self.seen.get(p))
        first = not self.seen
        same_files = now.keys() == self.seen.keys()
        self.seen = now
        if changed:
            self.generation += 1
            self._checked = None
            self._text_only = not first and same_files and all(
                p.endswith(TEXT_SOURCES) for p in changed)
            if not self._text_only:
                self.images = None  # a picture changed: prepared again from its file
            else:
                for path in changed:
                    self._reparse(Path(path))
        return changed

    def _reparse(self, path: Path) -> None:
        """A card file edited inside one card: that card's lines parsed alone, the file's
        other cards kept (load.source reads the result from its memory)."""
        from ..load import source
        old_text = self.texts.get(str(path))
        shown = display_path(path)
        held = source.MEMORY.get((str(path), shown))
        if old_text is None or held is None or path.suffix != ".yaml" or \
                held[0] != source.text_digest(old_text):
            return
        try:
            new_text = source.read_text(path, shown)
        except (OSError, source.YamlError):
            return  # load reports it
        parsed = reparsed(old_text, held[1], held[2], new_text, shown)
        if parsed is not None:
            source.MEMORY[(str(path), shown)] = (source.text_digest(new_text), *parsed)
            self.texts[str(path)] = new_text

    def _remember_texts(self, data) -> None:
        """The texts of the card files as parsed now, for the next edit's _reparse."""
        from ..load import source
        for path in data.inputs:
            if path.suffix != ".yaml" or path.parent.name != "cards":
                continue
            held = source.MEMORY.get((str(path), display_path(path)))
            text = self.texts.get(str(path))
            if held is None or (text is not None and held[0] == source.text_digest(text)):
                continue
            try:
                text = source.read_text(path, display_path(path))
            except (OSError, source.YamlError):
                continue
            if held[0] == source.text_digest(text):
                self.texts[str(path)] = text

    # --- the chain's stages, kept (pipeline.chain.Stages) --------------------------------

    def validated(self, folder: Path, report: Report):
        """chain.validated, run again only after a sync found a change."""
        if self._checked is None or self._checked[0] != self.generation:
            from ..pictures.reading import keep_resolved
            fresh = Report()
            with keep_resolved() if self._text_only else contextlib.nullcontext():
                data = validated(self.folder, fresh)
            self._checked = (self.generation, fresh.items, fresh.ran, data)
            if data is not None:
                self._remember_texts(data)
        _, items, ran, data = self._checked
        report.items.extend(items)
        report.ran.extend(ran)
        return data

    def check_deck(self, data, report: Report, choice):
        return check_deck(data, report, choice)

    def check_faces(self, data, report: Report, settings: BuildSettings, prepare: bool):
        """chain.check_faces with the fronts held in memory and the picture store kept."""
        from ..incremental.kept import KeptFronts
        from ..pictures.store import ImageStore
        if self.images is None:
            self.images = ImageStore(data.folder)
            self.images.keep_streams()  # saved again after every edit: read from disk once

        def fronts(*args):
            return KeptFronts(*args, held=self.fronts)
        return check_faces(data, report, settings, prepare, fronts=fronts, images=self.images)

    def drawn_first(self, result) -> None:
        if self.early is not None:
            self.early(result)

    # --- cardgen watch --------------------------------------------------------------------

    def build(self, kinds: set[str] | None = None, previous: dict | None = None,
              split: bool = False, settings: BuildSettings | None = None):
        """build_pack with this pack's kept stages: (report, PackResult | None), the files a
        cold build makes from the same inputs."""
        self.sync()
        return build_pack(self.folder, settings or self.settings, kinds, previous, split,
                          stages=self)

    def close(self) -> None:
        """The fronts held in memory written to the disk cache, for the next process."""
        from ..incremental import cache
        from ..incremental.kept import KIND
        for name, fronts in self.fronts.items():
            cache.write_pickled(KIND, name, fronts)
        self.fronts = {}

    # --- cardgen serve: the cards ----------------------------------------------------------

    def view(self, choice=None, paper: str | None = None) -> View:
        """The cards of the chosen deck (every card when `choice` is None) and the pack's
        diagnostics; with errors, the last good cards (stale). Documents: documents()."""
        self.sync()
        settings = self._settings(choice, paper)
        report = Report()
        data = self.validated(self.folder, report)
        deck = faces = None
        if data is not None:
            deck = self.check_deck(data, report, choice)
            if not report.errors:
                faces = self.check_faces(data, report, settings, prepare=True)
        key = (_choice_key(choice), paper)
        last = self._views.get(key)
        if report.errors or faces is None:
            shown = last or View(self.folder.name, self.folder.name, self.generation,
                                 (0.0, 0.0), [], [])
            return dataclasses.replace(shown, generation=self.generation, stale=True,
                                       diagnostics=report.sorted(), documents_pending=False)
        view, shown = self._cards_view(data, deck, faces, settings, choice is not None and
                                       choice.given())
        self._faces_of[key] = shown
        self._faces = {k: v for faces_of in self._faces_of.values() for k, v in faces_of.items()}
        view.diagnostics = report.sorted()
        held = self._documents.get(key)
        view.documents = held[1] if held else []
        # whether the documents must be laid out again is documents()'s to find out (their
        # content keys hash their files): the cards are shown first
        view.documents_pending = held is None or held[3] != self.generation
        if held and not view.documents_pending:
            view.diagnostics = sorted(set(view.diagnostics) | set(held[2]),
                                      key=_diagnostic_order)
        self._views[key] = view
        return view

    def _settings(self, choice, paper: str | None) -> BuildSettings:
        given = choice is not None and choice.given()
        return dataclasses.replace(self.settings, choice=choice if given else None,
                                   paper=paper or self.settings.paper)

    def _cards_view(self, data, deck, faces, settings: BuildSettings,
                    chosen: bool) -> tuple[View, dict]:
        """The card list with the faces' keys, and {face key: (Printed, is back, painter)}:
        what drawing its picture takes."""
        from ..render.card import CardPainter
        from .faces import face_keys
        printed, images, layouter = faces
        keys = face_keys(printed, images, layouter.kept.described)
        card_size = settings.card_size or data.pack.print.size()
        bleed = settings.bleed if settings.bleed is not None else data.pack.print.bleed
        painter = CardPainter(card_size, bleed, layouter.icons, images)
        wanted = {lc.card.id for lc in deck.cards} if chosen and deck is not None else None
        cards: dict[str, CardView] = {}
        by_id = {lc.card.id: lc for lc in data.cards}
        faces_now: dict[str, tuple] = {}
        for p in printed:
            if wanted is not None and p.card_id not in wanted:
                continue
            if p.card_id in cards:
                cards[p.card_id].count += 1
                continue
            lc = by_id[p.card_id]
            kind = data.kind(lc.kind)
            front, back = keys[id(p.front)], keys[id(p.back)]
            faces_now.setdefault(front, (p, False, painter))
            faces_now.setdefault(back, (p, True, painter))
            cards[p.card_id] = CardView(p.card_id, lc.card.name or p.card_id, lc.kind, front,
                                        back, 1, lc.file, lc.raw.mark.line, kind.front,
                                        kind.back)
        presets = []
        if deck is not None:
            presets = [(slug, preset.label or slug)
                       for slug, preset in deck.composition.presets.items()]
        return View(data.pack.id, data.pack.title, self.generation, tuple(card_size),
                    list(cards.values()), [], presets=presets), faces_now

    def card(self, card_id: str) -> dict | None:
        """A card's data as validated, its layouts and where it is written (the click)."""
        if self._checked is None or self._checked[3] is None:
            return None
        data = self._checked[3]
        lc = next((lc for lc in data.cards if lc.card.id == card_id), None)
        if lc is None:
            return None
        kind = data.kind(lc.kind)
        mark = lc.raw.mark
        values = lc.card.model_dump(mode="json", exclude_none=True)
        values.update({k: v for k, v in lc.card.extra_fields.items()})
        sheet = Path(lc.file).suffix in (".csv", ".xlsx")
        return {"id": card_id, "kind": lc.kind, "layout": kind.front if kind else "",
                "back_layout": kind.back if kind else "", "file": lc.file,
                "line": mark.line, "col": mark.col,
                "where": f"{lc.file}:{mark.line}" + (" (spreadsheet row)" if sheet else ""),
                "path": str(Path(lc.file).resolve()), "data": _plain(values)}

    def face_png(self, key: str) -> bytes | None:
        """The picture of a face the current views show (None for any other key), drawn on a
        print-shop page and rasterised; kept by its key."""
        if key in self._pngs:
            self._pngs.move_to_end(key)
            return self._pngs[key]
        if key not in self._faces:
            return None
        self.draw_faces([key])
        return self._pngs.get(key)

    def expect_faces(self, keys: list[str]) -> None:
        """These faces' pictures are drawn next (draw_faces, on this pipeline's thread): a
        request for one meanwhile waits for it (coming) instead of queueing behind that thread's
        later work."""
        for key in keys:
            if key in self._faces and key not in self._pngs:
                self._coming.setdefault(key, threading.Event())

    def coming(self, key: str) -> threading.Event | None:
        """Set once the picture of this face, expected, is kept (None: none expected): safe
        from any thread."""
        return self._coming.get(key)

    def draw_faces(self, keys: list[str]) -> None:
        """The pictures of these faces (keys the views show), drawn together: each card's
        front and back on the print-shop pages pdf.printshop makes, as printshop.pdf has them.
        Whoever waits for one of them (coming) is told when it is kept, or when drawing failed."""
        try:
            self._draw_faces(keys)
        finally:
            for key in keys:
                event = self._coming.pop(key, None)
                if event is not None:
                    event.set()

    def _draw_faces(self, keys: list[str]) -> None:
        from ..render.pdf import printshop, printshop_faces
        wanted = [k for k in dict.fromkeys(keys) if k in self._faces and k not in self._pngs]
        if not wanted:
            return
        cards, seen = [], set()
        for key in wanted:
            p, _, painter = self._faces[key]
            if id(p) not in seen:
                seen.add(id(p))
                cards.append(p)
        painter = self._faces[wanted[0]][2]
        meta = {"title": self.folder.name}
        pdf = printshop(cards, painter, (painter.w, painter.h), painter.bleed, meta)
        keys = {(id(self._faces[k][0].back if self._faces[k][1] else self._faces[k][0].front),
                 self._faces[k][1]): k for k in wanted}
        pages = {}
        for number, (index, back) in enumerate(printshop_faces(cards)):
            face = cards[index].back if back else cards[index].front
            if (id(face), back) in keys:
                pages.setdefault(keys[(id(face), back)], number)
        for key in wanted:
            if key in pages:
                self._keep(key, _face_png(pdf, pages[key], painter))

    def _keep(self, key: str, png: bytes) -> None:
        self._pngs[key] = png
        while len(self._pngs) > KEPT_PICTURES:
            self._pngs.popitem(last=False)

    def held_png(self, key: str) -> bytes | None:
        """A picture drawn already (None when it is not): safe from any thread."""
        return self._pngs.get(key)

    def last_cards(self, choice=None, paper: str | None = None) -> list[CardView]:
        """The cards of the last view made for this choice and paper (none yet: [])."""
        view = self._views.get((_choice_key(choice), paper))
        return view.cards if view is not None else []

    # --- cardgen serve: the documents -------------------------------------------------------

    def _documents_key(self, data, settings: BuildSettings, deck) -> str:
        from ..documents.rulebook.pictured import pictured_cards
        from ..incremental.manifest import content_key
        return hashlib.sha256("".join(
            content_key(data, kind, settings, pictured_cards) for kind in ("rulebook", "boards")
        ).encode()).hexdigest()

    def documents(self, choice=None, paper: str | None = None) -> View | None:
        """The rulebook's and the boards' pages for this choice and paper, laid out again when
        what they are made of changed; the view with them (None when the data has errors:
        the documents stay as they were)."""
        settings = self._settings(choice, paper)
        key = (_choice_key(choice), paper)
        view = self._views.get(key)
        report = Report()
        data = self.validated(self.folder, report)
        if data is None or report.errors or view is None or view.generation != self.generation:
            return None
        deck = self.check_deck(data, Report(), choice)
        content = self._documents_key(data, settings, deck)
        held = self._documents.get(key)
        if held is None or held[0] != content:
            made = Report()
            documents = self._lay_out_documents(data, settings, deck, made)
            if documents is None:  # a rule text's problem: the pages as they were
                documents = held[1] if held else []
            held = (content, documents, made.sorted())
        held = self._documents[key] = (*held[:3], self.generation)
        self._pages = {page: where for _, laid, _, _ in self._documents.values()
                       for document in laid for page, where in document.where.items()}
        view = dataclasses.replace(view, documents=held[1], documents_pending=False,
                                   diagnostics=sorted(set(view.diagnostics) | set(held[2]),
                                                      key=_diagnostic_order))
        self._views[key] = view
        return view

    def _lay_out_documents(self, data, settings: BuildSettings, deck,
                           report: Report) -> list[Document] | None:
        from ..documents.rulebook.book import rulebook_pdf
        from ..render.boards import boards_pdf
        paper = settings.paper or data.pack.print.paper
        made: list[tuple[str, bytes]] = []
        errors = len(report.errors)
        if data.chapters:
            book = rulebook_pdf(data, report, paper=paper)
            if book is not None:
                made.append(("rulebook", book))
            if settings.choice is not None and deck is not None and book is not None:
                from ..documents.deck_sheet import house_of
                house = rulebook_pdf(data, report, paper=paper, house=house_of(deck, data))
                if house is not None:
                    made.append(("house rules", house))
        if (data.folder / "boards.yaml").is_file():
            boards = boards_pdf(data, report, paper)
            if boards is not None:
                made.append(("boards", boards))
        if len(report.errors) > errors:
            return None
        return [self._document(name, pdf) for name, pdf in made]

    def _document(self, name: str, pdf: bytes) -> Document:
        """The document's pages, each keyed by what it draws: a page that did not change
        keeps its key and its picture (page_key)."""
        import pypdfium2 as pdfium
        from pypdf import PdfReader
        keys = [page_key(page) for page in PdfReader(io.BytesIO(pdf)).pages]
        first = pdfium.PdfDocument(pdf)
        try:
            w, h = first[0].get_size() if len(first) else (595, 842)
        finally:
            first.close()
        return Document(name, keys, (w / 72 * 25.4, h / 72 * 25.4),
                        {key: (pdf, index) for index, key in enumerate(keys)})

    def page_png(self, key: str) -> bytes | None:
        """The picture of a document page the views show (None for any other key)."""
        if key in self._pngs:
            self._pngs.move_to_end(key)
            return self._pngs[key]
        if key not in self._pages:
            return None
        import pypdfium2 as pdfium
        pdf, index = self._pages[key]
        document = pdfium.PdfDocument(pdf)
        try:
            image = document[index].render(scale=PAGE_DPI / 72).to_pil()
        finally:
            document.close()
        self._keep(key, _png(image))
        return self._pngs[key]


def snapshot(folder: Path) -> dict[str, tuple]:
    """{path: (modification time, size, inode)} of every file of the pack; editors' temporary
    and backup files (.name, name~) left out."""
    out = {}
    for root, folders, files in os.walk(folder):
        folders[:] = [f for f in folders if not f.startswith(".")]
        for name in files:
            if name.startswith(".") or name.endswith("~"):
                continue
            path = Path(root) / name
            try:
                info = path.stat()
            except OSError:  # removed between listing and looking
                continue
            out[str(path)] = (info.st_mtime_ns, info.st_size, info.st_ino)
    return out


def reparsed(old_text: str, old_data, old_warnings: list, new_text: str, shown: str):
    """(data, warnings) of `new_text` from the parse of `old_text`, when the edit lies inside
    one card of the file's `cards` list and keeps the line count: only that card's lines are
    parsed (placed at their own lines, so every mark is the full parse's). None when the edit
    reaches further, or the card's lines do not parse alone as one card (then the whole file
    is parsed, and any problem is reported as a full parse reports it)."""
    from ..load import source
    from ..model.marks import MarkedDict, MarkedList
    old_lines, new_lines = old_text.split("\n"), new_text.split("\n")
    if len(old_lines) != len(new_lines) or not isinstance(old_data, MarkedDict):
        return None
    cards = old_data.get("cards")
    if not isinstance(cards, MarkedList) or not cards:
        return None
    changed = [n + 1 for n, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
    if not changed:
        return None
    starts = [mark.line for mark in cards.item_marks]
    index = bisect.bisect_right(starts, changed[0]) - 1
    if index < 0 or starts[index] < 2 or starts != sorted(set(starts)):
        return None
    end = starts[index + 1] - 1 if index + 1 < len(starts) else len(new_lines)
    if changed[-1] > end:
        return None
    mark = cards.item_marks[index]
    if new_lines[mark.line - 1][:mark.col - 1].strip() != "-":  # a block list's item
        return None
    fragment = "\n" * (mark.line - 2) + "cards:\n" + "\n".join(new_lines[mark.line - 1:end])
    warnings: list = []
    try:
        parsed = source.parse(fragment, shown, warnings)
    except source.YamlError:
        return None
    items = parsed.get("cards") if isinstance(parsed, MarkedDict) else None
    if list(parsed) != ["cards"] or not isinstance(items, MarkedList) or len(items) != 1 or \
            items.item_marks[0] != mark:
        return None
    new_cards = MarkedList(cards)
    new_cards[index] = items[0]
    new_cards.mark, new_cards.item_marks = cards.mark, cards.item_marks
    data = MarkedDict(old_data)
    data["cards"] = new_cards
    data.mark, data.key_marks, data.value_marks = (old_data.mark, old_data.key_marks,
                                                   old_data.value_marks)
    inside = range(mark.line, end + 1)
    kept = [w for w in old_warnings if w[0].line not in inside]
    return data, sorted(kept + warnings, key=lambda w: (w[0].line, w[0].col))


def _choice_key(choice) -> str:
    return repr(choice) if choice is not None and choice.given() else ""


def _diagnostic_order(d: Diagnostic):
    return (d.file, d.line, d.col, d.severity, d.subject, d.message)


def _face_png(pdf: bytes, index: int, painter) -> bytes:
    """A print-shop page as a PNG of the card at its trim, PREVIEW_DPI."""
    import pypdfium2 as pdfium
    from ..render.raster import page_image
    w, h = painter.w, painter.h
    target = (round(w / 25.4 * PREVIEW_DPI), round(h / 25.4 * PREVIEW_DPI))
    document = pdfium.PdfDocument(pdf)
    try:
        image = page_image(document[index], painter.bleed, False, target)
    finally:
        document.close()
    return _png(image)


def _png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)  # drawn often, sent once, over loopback
    return buffer.getvalue()


def page_key(page) -> str:
    """A key of what a PDF page (pypdf's) draws: its size, its content stream, the code to
    character maps of its fonts (a subset's codes are given in the order characters are first
    used in the document) and the streams of the forms and pictures it places. Valid in this
    process (pypdf's hash_bin)."""
    digest = hashlib.sha256(repr(page.mediabox).encode())
    contents = page.get_contents()
    digest.update(contents.get_data() if contents is not None else b"")
    resources = page.get("/Resources") or {}
    for section, part in (("/Font", "/ToUnicode"), ("/XObject", None)):
        named = (resources.get(section) or {})
        for name in sorted(named):
            thing = named[name].get_object()
            if part is not None:
                thing = thing.get(part)
                thing = thing.get_object() if thing is not None else None
            digest.update(f"{name}:{thing.hash_bin() if thing is not None else 0};".encode())
    return digest.hexdigest()


def _plain(value):
    """JSON-ready: tuples as lists, anything else unusual as text."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def build_packs(residents: list[Resident], out: Path, settings: BuildSettings, jobs: int,
                early=None):
    """Every pack's stale outputs built through its resident stages, one pack after the other
    (a pack's rulebook on a second core when `jobs` > 1): the outcomes as
    pipeline.parallel.run_packs gives them, [(folder, report, (result, keys, previous) | None,
    state)].

    `early(folder, (result, keys, previous))`: writes an output of a pack a viewer keeps open
    (cards.pdf, then the contact sheet) as soon as it is drawn, while the rest is drawn, and
    returns the manifest it wrote (the `previous` of the next). The pack's outcome then holds
    the rest only, over the last of them: what was written early stays as written."""
    from .parallel import plan_tasks
    outcomes = []
    for resident in residents:
        folder = resident.folder
        tasks, plans = plan_tasks([folder], out, settings, False)
        stale, keys, previous = plans[folder]
        if not tasks:
            outcomes.append((folder, Report(), None, "fresh"))
            continue
        _, kinds, previous = tasks[0]
        written: list[tuple[str, dict]] = []  # (kind, the manifest its write left)
        if early is not None:
            def first(part, before=previous):
                kind, = part.built
                written.append((kind, early(folder, (part, keys, written[-1][1] if written
                                                     else before))))
            resident.early = first
        try:
            report, result = resident.build(kinds, previous, split=jobs > 1,
                                            settings=dataclasses.replace(settings, jobs=jobs))
        finally:
            resident.early = None
        if result is not None and written:  # on disk already, listed by the last manifest
            previous = written[-1][1]
            for kind, _ in written:
                for name in result.built.pop(kind):
                    result.files.pop(name, None)
        if result is None:
            outcomes.append((folder, report, None, "failed"))
        else:
            outcomes.append((folder, report, (result, keys, previous), "built"))
    return outcomes
