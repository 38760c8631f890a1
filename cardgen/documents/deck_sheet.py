"""The deck sheet (deck.pdf: the chosen game and its cards as pictures) and the designer's
contact sheet (contact.pdf / contact-N.png: every card of the pack with its name).

Why here and not in compose/: compose decides the deck; drawing its sheet is rendering. Both
sheets show the real faces (the card painter), so a player pulls cards by what they look like,
never by an internal ID or a slug.
"""

from __future__ import annotations

import hashlib
import io

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle

from ..text.words import labels_for
from ..layout.faces import FaceBook
from ..model.packdata import LoadedCard, PackData
from ..render.card import CardPainter
from ..text.flowing import Paragraph
from ..text.fonts import face_name
from ..pictures.store import ImageStore
from ..render.pdf import new_canvas
from .picture import Placed, draw_placed
from .rulebook.book import House
from ..text.rules import to_markup
from ..units import MM, PAPER

MARGIN = 14 * MM
INK = HexColor("#1f1f1f")
ACCENT = HexColor("#1e3d5c")


def deck_rows(deck, data: PackData) -> list[tuple[str, str]]:
    """(label, value) lines that say what was chosen, in the pack's words (no slugs)."""
    comp = deck.composition
    lab = {**labels_for(data.pack.language, data.pack.labels, data.pack.locale), **comp.labels}
    rows: list[tuple[str, str]] = []
    if deck.preset:
        preset = comp.presets[deck.preset]
        rows.append((lab["deck"], preset.label or f"{deck.size} {lab['cards_word']}"))
    elif deck.choice.cards:
        rows.append((lab["deck"], lab.get("custom", lab["deck"])))
    elif deck.choice.random:
        rows.append((lab["deck"], f"{deck.choice.random} {lab['cards_word']}, "
                     f"{lab.get('random', '')}".rstrip(", ")))
    if deck.seed is not None:  # the number that draws the same cards again
        rows.append((lab.get("seed", "Seed"), str(deck.seed)))
    if deck.variant:
        rows.append((lab["variant"], comp.variants[deck.variant].label or deck.variant))
    if deck.players:
        hand = deck.hand(comp.labels)
        rows.append((lab.get("players", lab["players"]).capitalize(),
                     f"{deck.players}" + (f" ({hand})" if hand else "")))
    if comp.options:
        rows.append((lab["options"], ", ".join(comp.options[o].label or o for o in deck.options)
                     or lab["no_options"]))
    counts = deck.kind_counts()
    kinds = []
    for kind_id in deck.kind_labels:
        kind = data.kind(kind_id)
        if counts.get(kind_id) and kind is not None:
            word = kind.label if counts[kind_id] == 1 else (kind.plural or kind.label)
            kinds.append(f"{counts[kind_id]} {word}")
    rows.append((lab["cards_word"].capitalize(), f"{deck.size}: " + ", ".join(kinds)))
    return rows


def house_of(deck, data: PackData) -> House:
    """The house-rules book of a composed deck: its options, variant, cards and cover lines."""
    variant = None if deck.variant_default else deck.variant  # chosen, not implied
    return House(frozenset(deck.options), variant,
                 frozenset(lc.card.id for lc in deck.cards), tuple(deck_rows(deck, data)))


class ThumbnailSheet:
    """Pages of card thumbnails with their full names under them, on the chosen paper."""

    def __init__(self, data: PackData, paper: str, title: str, meta: dict[str, str],
                 laid_out: tuple[dict, CardPainter] | None = None):
        """laid_out: ({card id: front face}, painter) of the build's card sheets, when they are
        the pack's own faces: drawn from those (their recordings replayed) instead of laid
        out and drawn again."""
        self.data = data
        self.page_w, self.page_h = (v * MM for v in PAPER.get(paper, PAPER["a4"]))
        self.buffer = io.BytesIO()
        self.canvas = new_canvas(self.buffer, (self.page_w, self.page_h), meta)
        self.book = FaceBook(data)
        self.faces, self.painter = laid_out or ({}, CardPainter(
            self.book.size, 0.0, self.book.layouter.icons, ImageStore(data.folder)))
        self.painter.begin(self.canvas)
        self.page_keys = []
        self.title = title
        self.name_style = ParagraphStyle("thumb", fontName=face_name("condensed"), fontSize=6.5,
                                         leading=7.6, alignment=TA_CENTER, textColor=INK)
        self.y = self.page_h - MARGIN

    def heading(self, text: str, size: float = 15) -> None:
        self.canvas.setFillColor(ACCENT)
        self.canvas.setFont(face_name("sans-bold"), size)
        self.canvas.drawString(MARGIN, self.y - size, text)
        self.y -= size * 1.6

    def rows(self, rows: list[tuple[str, str]]) -> None:
        style = ParagraphStyle("row", fontName=face_name("sans"), fontSize=9, leading=12,
                               leftIndent=38 * MM, firstLineIndent=-38 * MM, textColor=INK)
        for label, value in rows:
            para = Paragraph(f"<b>{self._markup(label, 'sans-bold')}</b>\u00a0\u00a0"
                             f"{self._markup(value, 'sans')}", style)
            _, h = para.wrap(self.page_w - 2 * MARGIN, self.page_h)
            para.drawOn(self.canvas, MARGIN, self.y - h)
            self.y -= h + 2
        self.y -= 6

    def _markup(self, text: str, family: str) -> str:
        return to_markup(text, family, self.book.layouter.icons)[0]

    def cards(self, heading: str, cards: list[LoadedCard], thumb_w: float = 24 * MM) -> None:
        """A heading, then a grid of thumbnails with names; new pages as needed."""
        scale = thumb_w / (self.painter.w * MM)
        thumb_h = self.painter.h * MM * scale
        cols = max(1, int((self.page_w - 2 * MARGIN + 3 * MM) // (thumb_w + 3 * MM)))
        gap = (self.page_w - 2 * MARGIN - cols * thumb_w) / max(1, cols - 1)
        names = [self._name(lc) for lc in cards]
        label_h = max((p.wrap(thumb_w + gap * 0.8, 1e6)[1] for p in names), default=0)
        cell_h = thumb_h + label_h + 4 * MM
        if self.y - 20 - cell_h < MARGIN:
            self.new_page()
        self.heading(heading, 11)
        for start in range(0, len(cards), cols):
            if self.y - cell_h < MARGIN:
                self.new_page()
            for col, (lc, name) in enumerate(zip(cards[start:start + cols],
                                                 names[start:start + cols])):
                x = MARGIN + col * (thumb_w + gap)
                face = self.faces.get(lc.card.id) or self.book.front(lc)
                if face is not None:
                    draw_placed(self.canvas, Placed(self.painter, face, x, self.y - thumb_h,
                                                    scale))
                _, h = name.wrap(thumb_w + gap * 0.8, 1e6)
                name.drawOn(self.canvas, x - gap * 0.4, self.y - thumb_h - 1.5 * MM - h)
            self.y -= cell_h
        self.y -= 4 * MM

    def _name(self, lc: LoadedCard) -> Paragraph:
        """The card's full name (several lines if need be); a count when it is printed twice."""
        text = lc.card.name or lc.card.title or lc.card.set or ""
        if lc.card.count > 1:
            text += f" ×{lc.card.count}"
        return Paragraph(self._markup(text, "condensed"), self.name_style)

    def new_page(self) -> None:
        self._page_done()
        self.y = self.page_h - MARGIN

    def finish(self) -> bytes:
        self._page_done()
        self.canvas.save()
        return self.buffer.getvalue()

    def _page_done(self) -> None:
        # what the page draws, as its operators: the same key, the same picture of the page
        self.page_keys.append(hashlib.sha256("\n".join(self.canvas._code).encode()).hexdigest())
        self.canvas.showPage()

    page_keys: list[str]  # one per finished page (see _page_done)


def deck_sheet_pdf(deck, data: PackData, paper: str = "a4") -> bytes:
    """The chosen game: what was chosen, then every chosen card as a picture with its name."""
    words = labels_for(data.pack.language, data.pack.labels, data.pack.locale)
    title = f"{data.pack.title} – {words['deck_sheet']}"
    meta = {"title": title, "author": data.pack.author, "subject": words["deck_sheet"],
            "keywords": f"cardgen, {data.pack.id}, deck"}
    sheet = ThumbnailSheet(data, paper, title, meta)
    sheet.heading(title)
    sheet.rows(deck_rows(deck, data))
    for kind_id, label in deck.kind_labels.items():
        cards = [lc for lc in deck.cards if lc.kind == kind_id]
        if cards:
            sheet.cards(f"{words['deck_pull']}: {len(cards)} {label}", cards, 19 * MM)
    for note in deck.notes:
        sheet.rows([("•", _worded(note, deck))])
    return sheet.finish()


def _worded(note: str, deck) -> str:
    """A compose note without the slug it starts with ('an-option: …' → 'An Option: …')."""
    slug, sep, rest = note.partition(": ")
    named = {**{k: v.label for k, v in deck.composition.options.items()},
             **{k: v.label for k, v in deck.composition.variants.items()}}
    return f"{named[slug]}: {rest}" if sep and named.get(slug) else note


def contact_sheet(data: PackData, paper: str = "a4",
                  laid_out: tuple[dict, CardPainter] | None = None) -> bytes:
    """Every card of the pack, kind by kind, as thumbnails with names (for the designer).
    laid_out: see ThumbnailSheet."""
    return contact_pages(data, paper, laid_out)[0]


def contact_pages(data: PackData, paper: str = "a4",
                  laid_out: tuple[dict, CardPainter] | None = None) -> tuple[bytes, list[str]]:
    """The contact sheet and a key per page: a page with the same key looks the same (so its
    PNG from an earlier build can stay)."""
    words = labels_for(data.pack.language, data.pack.labels, data.pack.locale)
    title = f"{data.pack.title} – {words['contact_sheet']}"
    meta = {"title": title, "author": data.pack.author, "subject": words["contact_sheet"],
            "keywords": f"cardgen, {data.pack.id}, contact sheet"}
    sheet = ThumbnailSheet(data, paper, title, meta, laid_out)
    sheet.heading(title)
    for kind in data.pack.kinds:
        cards = data.cards_of(kind.id)
        if cards:
            sheet.cards(f"{len(cards)} {kind.plural or kind.label}", cards, 24 * MM)
    return sheet.finish(), sheet.page_keys


def page_pngs(pdf: bytes, stem: str, dpi: int = 100,
              only: set[str] | None = None) -> dict[str, bytes]:
    """{'<stem>-<n>.png': bytes} for every page (or those named in `only`), rasterised from
    the PDF itself."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    out = {}
    try:
        for index in range(len(document)):
            if only is not None and f"{stem}-{index + 1}.png" not in only:
                continue
            image = document[index].render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, "PNG", dpi=(dpi, dpi), compress_level=3)  # faster, smaller
            out[f"{stem}-{index + 1}.png"] = buffer.getvalue()
    finally:
        document.close()
    return out
