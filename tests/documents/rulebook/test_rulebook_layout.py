"""Where the rulebook puts things: the contents on at most two pages with every entry's page
number, and a figure that shrinks into the rest of a page instead of leaving it empty."""

from __future__ import annotations

import re
from io import BytesIO

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from cardgen.documents.picture import Picture
from cardgen.documents.rulebook.book import BOOKS
from cardgen.documents.rulebook.figures import LEAST, Figure
from cardgen.documents.rulebook.style import make_styles

PACKS = ["crazy-hospital", "quartett", "quatridou", "tischordnung", "dokter-li"]


def outline(reader: PdfReader) -> list[tuple[str, int]]:
    """(title, 1-based page) of every bookmark, chapters and sections."""
    out = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                out.append((item.title, reader.get_destination_page_number(item) + 1))
    walk(reader.outline)
    return out


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


def page_numbers(page) -> list[int]:
    """The page numbers a contents page prints, column by column, top to bottom. A number's
    column is where the line it ends starts (a chapter's number stands apart at the right)."""
    items = []

    def seen(text, cm, tm, font, size):
        if text.strip():
            items.append((cm[4] + tm[4] * cm[0], round(cm[5] + tm[5] * cm[3], 1), text))
    page.extract_text(visitor_text=seen)
    found = []
    for x, y, text in items:
        number = re.fullmatch(r"[\s.]*(\d+)\s*", text)
        if number:
            start = max((ix for ix, iy, it in items if abs(iy - y) < 0.5 and ix < x
                         and not re.fullmatch(r"[\s.]*\d+\s*", it)), default=x)
            found.append((start > float(page.mediabox.width) / 2, -y, int(number[1])))
    return [number for *_, number in sorted(found)]


def contents_problems(pdf: bytes) -> list[str]:
    """What is wrong with the contents: more than two pages, an entry without its page."""
    reader = PdfReader(BytesIO(pdf))
    marks = outline(reader)
    first_chapter = marks[0][1]
    pages = first_chapter - 2  # page 1 is the cover, the contents start on page 2
    printed = [n for i in range(1, first_chapter - 1) for n in page_numbers(reader.pages[i])]
    problems = [f"contents on {pages} pages"] if pages > 2 else []
    if printed != [page for _, page in marks]:
        problems.append(f"page numbers {printed} for the headings on {[p for _, p in marks]}")
    return problems


@pytest.mark.parametrize("pack", PACKS)
def test_contents_fit_two_pages_with_every_page_number_on_a4(pack, shipped_build):
    _, _, files = shipped_build(pack)
    assert not contents_problems(files["rulebook.pdf"])


@pytest.mark.parametrize("paper", ["letter", "a4-booklet"])
@pytest.mark.parametrize("pack", PACKS)
def test_contents_fit_two_pages_with_every_page_number(pack, paper, shipped_rulebook):
    geometry = BOOKS["a4"][1] if paper == "a4-booklet" else BOOKS[paper][0]
    pdf, items = shipped_rulebook(pack, geometry)  # shared with the tests of hyphens, set-up
    assert pdf is not None, [d.format() for d in items]
    assert not contents_problems(pdf)


def test_quatridou_set_up_shares_the_page_of_its_section_on_letter(shipped_rulebook):
    """The set-up figure once moved to the next Letter page and left half a page white."""
    pdf, items = shipped_rulebook("quatridou", BOOKS["letter"][0])
    assert pdf is not None, [d.format() for d in items]
    pages = [flat(page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]
    section = [i for i, text in enumerate(pages) if "Mischt alle 49 Karten" in text]
    caption = [i for i, text in enumerate(pages) if "Die Auslage zu Beginn" in text]
    assert section and section == caption


def laid_out(free: float, picture_height: float) -> list[tuple[int, float]]:
    """(page, scale) of a figure after text leaving `free` points of an A4 frame."""
    styles = make_styles("de", hyphenate=False)
    figure = Figure(Picture(300, picture_height), [Paragraph("Bildunterschrift",
                                                             styles["figure-caption"])], 400)
    placed = []
    original = figure.draw

    def draw():
        placed.append((figure.canv.getPageNumber(), figure.scale))
        original()
    figure.draw = draw
    document = SimpleDocTemplate(BytesIO(), pagesize=A4, topMargin=50, bottomMargin=50)
    document.build([Spacer(1, document.height - free - 1), figure])
    return placed


def test_a_figure_shrinks_into_the_rest_of_the_page_down_to_least():
    caption = 11.0  # the caption's one line keeps its size
    assert laid_out(free=400, picture_height=300) == [(1, 1.0)]
    [(page, scale)] = laid_out(free=300, picture_height=300)
    assert page == 1 and LEAST <= scale < 1 and scale * 300 + caption <= 300
    assert laid_out(free=100, picture_height=300) == [(2, 1.0)]  # too small: next page


def test_contents_entries_get_their_page_numbers_after_the_last_page():
    """One layout pass: an entry draws a form for its page number, defined once the page is
    known; an entry whose heading never made it onto a page gets an empty one (a form named
    and never defined would make the PDF unwritable)."""
    from io import BytesIO

    import pypdfium2 as pdfium
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.text.fonts import face_name
    from cardgen.documents.rulebook.contents import Contents
    style = ParagraphStyle("toc0", fontName=face_name("serif"), fontSize=10, leading=12)
    contents = Contents(levelStyles=[style, style], dotsMinLevel=1)
    contents.expect([(0, "Erstes Kapitel", 0, "ch1"), (1, "Abschnitt", 0, "s1"),
                     (0, "Nie gesetzt", 0, "ch9")])
    buffer = BytesIO()
    canvas = Canvas(buffer)
    contents.wrapOn(canvas, 300, 600)
    contents.drawOn(canvas, 50, 500)
    canvas.bookmarkPage("ch1")
    canvas.bookmarkPage("s1")
    contents._entries = [(0, "Erstes Kapitel", 7, "ch1"), (1, "Abschnitt", 12, "s1")]
    contents.define_page_numbers(canvas)
    canvas.showPage()
    canvas.save()
    text = pdfium.PdfDocument(buffer.getvalue())[0].get_textpage().get_text_range()
    assert "7" in text and "12" in text and "Nie gesetzt" in text
