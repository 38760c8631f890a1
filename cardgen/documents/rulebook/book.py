"""The rulebook PDF: rules/*.yaml + pack data → a rulebook on the chosen paper (A4, Letter, A3),
or a booklet of half-size pages imposed on it (A5 on A4, half-letter on Letter, A4 on A3).

Why platypus: a rulebook is flowing text (justified, hyphenated, with tables that break across
pages and a contents page with page numbers), which is what platypus does; everything is still
drawn on a reportlab canvas in invariant mode, so the same input gives the same bytes.

The pipeline here is: build the story (every rule text through Jinja and our markup; every
problem reported at its YAML line) → stop if anything failed → lay out in one pass (the
contents' page numbers are filled in after the last page) → for a booklet, impose the A5 pages
two-up in saddle-stitch order with pypdf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from io import BytesIO

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A3, A4, A5, LETTER, landscape
from reportlab.lib.units import mm
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate
from reportlab.platypus.doctemplate import LayoutError

from ...diagnostics import Report
from ...layout.ink import tint
from ...model.packdata import PackData
from ...text.fonts import face_name
from .contents import Contents
from .story import StoryBuilder
from .style import ACCENT, ACCENT_SOFT, MUTED, RULE, keep_hyphenation, words


@dataclass(frozen=True)
class Geometry:
    """Page size and margins in points; body text size."""

    name: str
    size: tuple[float, float]
    left: float
    right: float
    top: float
    bottom: float
    body_size: float

    @property
    def width(self) -> float:
        return self.size[0] - self.left - self.right

    @property
    def height(self) -> float:
        return self.size[1] - self.top - self.bottom


A4_BOOK = Geometry("A4", A4, 24 * mm, 24 * mm, 27 * mm, 24 * mm, 10.0)
A5_BOOK = Geometry("A5", A5, 15 * mm, 15 * mm, 20 * mm, 18 * mm, 9.5)
LETTER_BOOK = Geometry("Letter", LETTER, 24 * mm, 24 * mm, 25 * mm, 24 * mm, 10.0)
HALF_LETTER_BOOK = Geometry("half-letter", (LETTER[1] / 2, LETTER[0]), 15 * mm, 15 * mm,
                            20 * mm, 18 * mm, 9.5)
A3_BOOK = Geometry("A3", A3, 34 * mm, 34 * mm, 36 * mm, 32 * mm, 13.0)
# paper → (page of the book, page of the booklet): a booklet is half the sheet, folded
BOOKS = {"a4": (A4_BOOK, A5_BOOK), "letter": (LETTER_BOOK, HALF_LETTER_BOOK),
         "a3": (A3_BOOK, A4_BOOK)}


@dataclass(frozen=True)
class House:
    """The chosen game of a house-rules book: what its cover says and what it keeps."""

    options: frozenset[str]
    variant: str | None
    cards: frozenset[str]
    lines: tuple[tuple[str, str], ...] = ()  # (label, value) for the cover: deck, variant …


def rulebook_pdf(data: PackData, report: Report, booklet: bool = False,
                 only_options: set[str] | None = None, house: House | None = None,
                 paper: str = "a4", light: bool = False) -> bytes | None:
    """The rulebook as PDF bytes, or None when a rule text has a problem (see `report`).

    booklet: half-size pages imposed two-up on the paper turned sideways, ready to print
    double-sided, fold and staple. only_options: print only the option blocks with these slugs;
    house: the same for a chosen game, with its own cover, cards and variant; light
    (--ink-saver): the cover's dark panel a light tint, its words and cards as printed light.
    """
    book, half = BOOKS.get(paper, BOOKS["a4"])
    if house is not None:
        only_options = set(house.options)
    pdf = layout_rulebook(data, report, half if booklet else book, only_options, house,
                          back_cover=booklet, light=light)
    if pdf is None or not booklet:
        return pdf
    sheet = {"a4": A4, "letter": LETTER, "a3": A3}.get(paper, A4)
    return impose_booklet(pdf, data, landscape(sheet))


def check_rules(data: PackData, report: Report) -> None:
    """Every rule text through Jinja, markup, glyphs and table names, without laying out pages
    (for `cardgen check`)."""
    StoryBuilder(data, report, A4_BOOK.width, A4_BOOK.height, A4_BOOK.body_size, None,
                 hyphenate=False).story()


def layout_rulebook(data: PackData, report: Report, geometry: Geometry,
                    only_options: set[str] | None = None,
                    house: House | None = None, back_cover: bool = False,
                    light: bool = False) -> bytes | None:
    """The rulebook on pages of one size (no imposition), or None after diagnostics."""
    errors_before = len(report.errors)
    story = StoryBuilder(data, report, geometry.width, geometry.height, geometry.body_size,
                         set(only_options) if only_options is not None else None,
                         house=house, cover_height=_panel_height(data, geometry),
                         back_cover=back_cover, light=light).story()
    if len(report.errors) > errors_before:
        return None
    _expect_contents(story)
    buffer = BytesIO()
    document = RulebookDocument(buffer, data, geometry, light)
    try:
        document.build_once(story)
    except LayoutError as exc:
        report.error(data.pack_file, 0, 0, "rulebook", f"the rules cannot be laid out on "
                     f"{geometry.name} pages: {exc}")
        return None
    keep_hyphenation()
    return buffer.getvalue()


class RulebookDocument(BaseDocTemplate):
    """Cover page, then body pages with a running header (pack and chapter) and a footer."""

    def __init__(self, buffer, data: PackData, geometry: Geometry, light: bool = False):
        pack = data.pack
        # the covers' panel: the accent colour, or (--ink-saver) a light tint of it
        self.panel = colors.HexColor(tint("#" + ACCENT.hexval()[2:])) if light else ACCENT
        rl_config.useA85 = 0  # binary compressed streams, as on the card sheets
        super().__init__(buffer, pagesize=geometry.size, invariant=1, pageCompression=1,
                         leftMargin=geometry.left, rightMargin=geometry.right,
                         topMargin=geometry.top, bottomMargin=geometry.bottom,
                         title=f"{pack.title} – {words(pack)['rules']}", author=pack.author,
                         subject=pack.subtitle or pack.description[:200],
                         keywords=f"cardgen, {pack.id}, rules", creator="cardgen",
                         producer="cardgen (reportlab)", lang=pack.language,
                         displayDocTitle=1, initialFontName=face_name("sans"),
                         initialFontSize=10)
        self.data, self.geometry, self.words = data, geometry, words(pack)
        self.chapter = ""
        self.page_chapter: str | None = None
        w, h = geometry.size
        body = Frame(geometry.left, geometry.bottom, geometry.width,
                     h - geometry.top - geometry.bottom, id="body", leftPadding=0,
                     rightPadding=0, topPadding=0, bottomPadding=0)
        panel_bottom = h * PANEL
        symbols = _symbols_height(data)  # the row of group symbols in the panel
        cover_panel = Frame(geometry.left, panel_bottom + symbols, geometry.width,
                            h - panel_bottom - symbols - geometry.top, id="panel",
                            leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        cover_text = Frame(geometry.left, geometry.bottom, geometry.width * 0.82,
                           panel_bottom - geometry.bottom - 14 * mm, id="cover-text",
                           leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.panel_bottom = panel_bottom
        back = Frame(geometry.left, geometry.bottom, geometry.width,
                     h - geometry.top - geometry.bottom, id="back", leftPadding=0,
                     rightPadding=0, topPadding=h * 0.3, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", [cover_panel, cover_text], onPage=self.draw_cover),
            PageTemplate("body", [body], onPageEnd=self.draw_running),
            PageTemplate("back", [back], onPage=self.draw_back)])

    def build_once(self, story: list) -> None:
        """Lay out and draw the book in one pass. The contents know their entries from the
        start (_expect_contents); each entry's page number is a small PDF form drawn where the
        number goes and defined once the heading's page is known, after the last page. (Two
        passes, one to find the pages and one to draw, cost twice the layout.)"""
        tocs = [f for f in story if isinstance(f, Contents)]
        self._indexingFlowables = tocs  # they hear of each heading's page (afterFlowable)
        self._doSave = 0
        self.build(story[:])
        for toc in tocs:
            toc.define_page_numbers(self.canv)
        self.canv.save()

    # --- state for the running header -----------------------------------------------------------
    def beforeDocument(self):
        self.chapter, self.page_chapter = "", None
        self.canv.setViewerPreference("PrintScaling", "None")  # print at 100 %

    def beforePage(self):
        self.page_chapter = self.chapter  # the chapter running at the top of the page ...

    def filterFlowables(self, flowables):
        """... unless a chapter starts right at the top of it."""
        first = flowables[0] if flowables else None
        frame = getattr(self, "frame", None)
        title = getattr(first, "chapter_title", None)
        if title is not None and frame is not None and frame._atTop:
            self.page_chapter = title

    def afterFlowable(self, flowable):
        entry = getattr(flowable, "toc_entry", None)
        if entry is not None:
            level, toc_markup, key, plain = entry
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(plain, key, level=level, closed=level == 0)
            self.notify("TOCEntry", (level, toc_markup, self.page, key))
        chapter = getattr(flowable, "chapter_title", None)
        if chapter is not None:
            self.chapter = chapter

    # --- page decoration ------------------------------------------------------------------------
    def draw_running(self, canvas, doc) -> None:
        g = self.geometry
        w, h = g.size
        y = h - g.top + 9 * mm
        canvas.saveState()
        canvas.setFont(face_name("sans"), 7.5)
        canvas.setFillColor(MUTED)
        canvas.drawString(g.left, y, self.data.pack.title)
        canvas.setFont(face_name("sans-bold"), 7.5)
        canvas.setFillColor(ACCENT)
        canvas.drawRightString(w - g.right, y, self.page_chapter or self.chapter)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(g.left, y - 2.6 * mm, w - g.right, y - 2.6 * mm)
        canvas.setFont(face_name("sans"), 8)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString(w / 2, g.bottom - 11 * mm, f"{self.words['page']} {doc.page}")
        canvas.restoreState()

    def draw_back(self, canvas, doc) -> None:
        """The back cover: the cover's colours over the whole page, the group stripe on top."""
        w, h = self.geometry.size
        canvas.saveState()
        canvas.setFillColor(self.panel)
        canvas.rect(0, 0, w, h, stroke=0, fill=1)
        groups = self.data.pack.groups
        stripe = 4 * mm
        for i, group in enumerate(groups):
            seg = w / len(groups)
            canvas.setFillColor(group.colour)
            canvas.rect(i * seg, h * 0.78, seg + 0.5, stripe, stroke=0, fill=1)
        canvas.restoreState()

    def draw_cover(self, canvas, doc) -> None:
        """A dark panel for the title, a stripe in the pack's group colours, their symbols."""
        g = self.geometry
        w, h = g.size
        groups = self.data.pack.groups
        canvas.saveState()
        canvas.setFillColor(self.panel)
        canvas.rect(0, self.panel_bottom, w, h - self.panel_bottom, stroke=0, fill=1)
        stripe = 4 * mm
        if groups:
            seg = w / len(groups)
            for i, group in enumerate(groups):
                canvas.setFillColor(group.colour)
                canvas.rect(i * seg, self.panel_bottom - stripe, seg + 0.5, stripe, stroke=0,
                            fill=1)
            radius, gap = 5.5 * mm, 3 * mm
            x = g.left + radius
            y = self.panel_bottom + 5 * mm + radius
            for group in groups:
                canvas.setFillColor(group.colour)
                canvas.setStrokeColor(ACCENT_SOFT)
                canvas.circle(x, y, radius, stroke=0, fill=1)
                canvas.setFillColor(group.text_colour)
                canvas.setFont(face_name("sans-bold"), radius * 1.25)
                canvas.drawCentredString(x, y - radius * 0.43, group.symbol)
                x += 2 * radius + gap
        else:
            canvas.setFillColor(ACCENT_SOFT)
            canvas.rect(0, self.panel_bottom - stripe, w, stripe, stroke=0, fill=1)
        canvas.restoreState()


PANEL = 0.46  # the cover's dark panel starts this far up the page


def _symbols_height(data: PackData) -> float:
    return 27 * mm if data.pack.groups else 8 * mm


def _panel_height(data: PackData, g: Geometry) -> float:
    """The height of the cover panel's frame (title and the fan of cards)."""
    return g.size[1] * (1 - PANEL) - _symbols_height(data) - g.top


def _page_form(writer, page):
    """(a form XObject in `writer` that draws `page` with its lower-left corner at the
    origin, its width, its height)."""
    from pypdf.generic import (ArrayObject, DecodedStreamObject, FloatObject, NameObject,
                               NumberObject)
    box = page.mediabox
    x0, y0 = float(box.left), float(box.bottom)
    contents = page.get("/Contents")
    streams = contents.get_object() if contents is not None else []
    if not isinstance(streams, list):
        streams = [streams]
    form = DecodedStreamObject()
    form.set_data(b"\n".join(s.get_object().get_data() for s in streams))
    form.update({NameObject("/Type"): NameObject("/XObject"),
                 NameObject("/Subtype"): NameObject("/Form"),
                 NameObject("/BBox"): ArrayObject([FloatObject(v) for v in
                                                   (x0, y0, float(box.right), float(box.top))]),
                 NameObject("/Matrix"): ArrayObject([NumberObject(1), NumberObject(0),
                                                     NumberObject(0), NumberObject(1),
                                                     FloatObject(-x0), FloatObject(-y0)])})
    if "/Resources" in page:
        form[NameObject("/Resources")] = page["/Resources"].clone(writer)
    return writer._add_object(form.flate_encode()), float(box.width), float(box.height)


def saddle_stitch_order(pages: int) -> list[tuple[int, int]]:
    """Zero-based (left, right) page pairs of each sheet side: sheet k front, then back.

    pages must be a multiple of 4. Front of sheet k: (n-1-2k, 2k); back: (2k+1, n-2-2k).
    """
    n = pages
    out = []
    for k in range(n // 4):
        out.append((n - 1 - 2 * k, 2 * k))
        out.append((2 * k + 1, n - 2 - 2 * k))
    return out


def _expect_contents(story: list) -> None:
    """Give the table of contents its entries before the book is laid out (their page numbers
    are filled in after it): its height is right from the start, so one pass is enough."""
    entries = [(level, markup, 0, key) for level, markup, key, _ in
               (f.toc_entry for f in _walk(story) if getattr(f, "toc_entry", None))]
    for toc in (f for f in story if isinstance(f, Contents)):
        toc.expect(entries)


def _walk(flowables):
    """Every flowable, also those kept together inside a KeepTogether or similar."""
    for flowable in flowables:
        yield flowable
        inner = getattr(flowable, "_content", None)
        if isinstance(inner, list):
            yield from _walk(inner)


def impose_booklet(a5_pdf: bytes, data: PackData,
                   sheet: tuple[float, float] = landscape(A4)) -> bytes:
    """Half-size pages two-up on a landscape sheet in saddle-stitch order, padded with blank
    pages. Each half page is placed as a form XObject made of the page's own content stream and
    resources (copied, not parsed: merging pages operator by operator cost three times the
    layout of the book)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    reader = PdfReader(BytesIO(a5_pdf))
    count = len(reader.pages)
    padded = max(4, math.ceil(count / 4) * 4)
    # the last page is the back cover: the blank pages go before it
    order = list(range(count - 1)) + [None] * (padded - count) + [count - 1]
    sheet_w, sheet_h = sheet
    writer = PdfWriter()
    forms: dict[int, tuple] = {}  # page index → (form reference, width, height)
    for left, right in saddle_stitch_order(padded):
        side = writer.add_blank_page(width=sheet_w, height=sheet_h)
        placed, ops = DictionaryObject(), []
        for slot, position in enumerate((left, right)):
            index = order[position]
            if index is None:
                continue  # a padding page stays blank
            if index not in forms:
                forms[index] = _page_form(writer, reader.pages[index])
            form, pw, ph = forms[index]
            tx = slot * sheet_w / 2 + (sheet_w / 2 - pw) / 2
            ty = (sheet_h - ph) / 2
            name = f"/Page{index + 1}"
            placed[NameObject(name)] = form
            ops.append(f"q 1 0 0 1 {tx:.4f} {ty:.4f} cm {name} Do Q")
        side[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): placed})
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode())
        side[NameObject("/Contents")] = writer._add_object(content.flate_encode())
    pack = data.pack
    writer._root_object[NameObject("/ViewerPreferences")] = DictionaryObject({
        NameObject("/PrintScaling"): NameObject("/None"),
        NameObject("/Duplex"): NameObject("/DuplexFlipShortEdge")})  # booklets flip short
    writer.add_metadata({"/Title": f"{pack.title} – {words(pack)['rules']}",
                         "/Author": pack.author, "/Creator": "cardgen",
                         "/Producer": "cardgen (reportlab, pypdf)"})
    out = BytesIO()
    writer.write(out)
    return out.getvalue()
