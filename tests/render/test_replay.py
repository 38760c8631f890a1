"""Faces drawn once per build (cardgen/render/replay.py): printshop.pdf replays the faces that
cards.pdf drew, and looks exactly as if it had drawn them itself."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.faces import layout_faces
from cardgen.diagnostics import Report
from cardgen.render import pdf
from cardgen.render.card import CardPainter
from cardgen.render.replay import FaceRecords

from conftest import shipped_data


@pytest.fixture(scope="module")
def laid_out():
    report = Report()
    data = shipped_data("crazy-hospital")
    printed, images, layouter = layout_faces(data, report, BuildSettings())
    assert not report.errors
    return data, printed, images, layouter


def _records(laid_out) -> FaceRecords:
    """The build's records: every print document seeded with the faces' characters."""
    from cardgen.incremental.faces import alphabet
    from cardgen.render.replay import characters
    _, printed, images, layouter = laid_out
    faces = {id(f): f for p in printed for f in (p.front, p.back)}.values()
    return FaceRecords(alphabet(characters(f, layouter.icons) for f in faces), images=images)


def _outputs(laid_out, records):
    data, printed, images, layouter = laid_out
    size, bleed = data.pack.print.size(), data.pack.print.bleed
    painter = CardPainter(size, bleed, layouter.icons, images, records)
    live = []
    painter_draw = painter._boxes
    painter._boxes = lambda *a: (live.append(a[1]), painter_draw(*a))
    meta = {"title": data.pack.title}
    sheets = pdf.card_sheets(printed, painter, pdf.SheetSpec(), size, bleed, meta, "x")
    drawn_for_sheets = len(live)
    shop = pdf.printshop(printed, painter, size, bleed, meta)
    return sheets, shop, drawn_for_sheets, len(live) - drawn_for_sheets


def _pages(pdf_bytes: bytes) -> list[bytes]:
    document = pdfium.PdfDocument(pdf_bytes)
    return [page.render(scale=50 / 72).to_pil().convert("RGB").tobytes() for page in document]


def test_printshop_replays_what_the_sheets_drew_and_looks_the_same(laid_out):
    fresh_sheets, fresh_shop, _, fresh_live = _outputs(laid_out, None)
    sheets, shop, sheet_live, shop_live = _outputs(laid_out, _records(laid_out))
    cards = laid_out[1]
    faces = len(cards) + len({id(p.back) for p in cards})  # a back is one form per document
    assert fresh_live == faces  # without records: printshop.pdf draws every face again
    assert sheet_live == faces
    assert shop_live == 0  # every face of printshop.pdf came from cards.pdf's drawing
    assert _pages(shop) == _pages(fresh_shop)
    assert _pages(sheets) == _pages(fresh_sheets)


def test_a_face_with_transparency_is_drawn_afresh(laid_out):
    """Transparency names (/gRLs0) belong to one document: such a face is never replayed."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render.replay import record
    canvas = Canvas(io.BytesIO())

    def translucent():
        canvas.setFillAlpha(0.5)
        canvas.rect(0, 0, 10, 10, fill=1)
    assert record(canvas, object(), translucent) is None

    other = Canvas(io.BytesIO())

    def opaque():
        other.rect(0, 0, 10, 10, fill=1)
    assert " re " in record(other, object(), opaque).code


def test_the_contact_sheet_replays_the_build_faces_and_looks_the_same(laid_out):
    """cardgen watch keeps contact.pdf current: drawn from the faces cards.pdf drew, it is
    the contact sheet made on its own, pixel for pixel, and draws no face again."""
    from cardgen.documents.deck_sheet import contact_sheet
    data, printed, images, layouter = laid_out
    alone = contact_sheet(data)
    sheets, _, _, _ = _outputs(laid_out, None)  # warm the fonts alike
    records = _records(laid_out)
    size, bleed = data.pack.print.size(), data.pack.print.bleed
    painter = CardPainter(size, bleed, layouter.icons, images, records)
    pdf.card_sheets(printed, painter, pdf.SheetSpec(), size, bleed, {"title": "t"}, "x")
    live = []
    boxes = painter._boxes
    painter._boxes = lambda *a: (live.append(a[1]), boxes(*a))
    shared = contact_sheet(data, "a4", ({p.card_id: p.front for p in printed}, painter))
    assert live == []
    assert _pages(shared) == _pages(alone)
