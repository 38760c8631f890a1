"""Print geometry read back from the PDFs: what a user checks with a ruler and a duplex printer."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from cardgen.build import BuildSettings, check, render_pack
from cardgen.diagnostics import Report
from cardgen.layout.sheet import PAPER, back_slots, plan_sheet

ROOT = Path(__file__).resolve().parent.parent
PT = 72 / 25.4


@pytest.fixture(scope="module")
def built():
    report = Report()
    data = check(ROOT / "card_data" / "crazy-hospital", report)
    result = render_pack(data, report, BuildSettings(only=("cards", "printshop")))
    assert not report.errors, [d.format() for d in report.errors]
    return data, result.files


def _images_and_rects(pdf_bytes: bytes, page_index: int, card=(59, 91)) -> list[tuple]:
    """(x, y, w, h) in mm of every card on a page: a card drawn in place starts with its clip
    rectangle; a shared face (the back) is a form placed by a translation before `Do`."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    page = pdf.pages[page_index]
    corners = []
    ops = pikepdf.parse_content_stream(page)
    for index, (operands, operator) in enumerate(ops):
        # each card starts with: q, <x y w h> re, W n  (the card's clip)
        if str(operator) == "re" and index + 1 < len(ops) and str(ops[index + 1][1]) in ("W", "W*"):
            x, y, w, h = (float(v) for v in operands)
            corners.append((round(x / PT, 3), round(y / PT, 3), round(w / PT, 3),
                            round(h / PT, 3)))
        if str(operator) == "cm" and index + 1 < len(ops) and str(ops[index + 1][1]) == "Do":
            a, b, c, d, e, f = (float(v) for v in operands)
            assert (a, b, c, d) == (1, 0, 0, 1)  # placed, never scaled
            corners.append((round(e / PT, 3), round(f / PT, 3), *card))
    return corners


def test_sheet_pages_are_a4_with_nine_cards_and_mirrored_backs(built):
    _, files = built
    reader = PdfReader(io.BytesIO(files["cards.pdf"]))
    assert len(reader.pages) == 2 * 12  # 104 cards, 9 per sheet, fronts + backs
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(210 * PT, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(297 * PT, abs=0.01)
    plan = plan_sheet(PAPER["a4"], (59, 91), 3)
    fronts = [c for c in _images_and_rects(files["cards.pdf"], 0) if c[2] == 59 and c[3] == 91]
    backs = [c for c in _images_and_rects(files["cards.pdf"], 1) if c[2] == 59 and c[3] == 91]
    assert len(fronts) == len(backs) == 9
    for slot, front in zip(plan.slots, fronts):
        assert front[0] == pytest.approx(slot.x, abs=0.05)
        assert front[1] == pytest.approx(slot.y, abs=0.05)
    for front, back in zip(fronts, backs):
        # long-edge duplex: the back is the front mirrored left-right on the 210 mm page
        assert back[0] + 59 + front[0] == pytest.approx(210, abs=0.05)
        assert back[1] == pytest.approx(front[1], abs=0.05)


def test_crop_marks_are_thick_enough_and_outside_every_card(built):
    _, files = built
    pdf = pikepdf.open(io.BytesIO(files["cards.pdf"]))
    ops = pikepdf.parse_content_stream(pdf.pages[0])
    plan = plan_sheet(PAPER["a4"], (59, 91), 3)
    lines, current_width, start = [], None, None
    for operands, operator in ops:
        op = str(operator)
        if op == "w":
            current_width = float(operands[0])
        elif op == "m":
            start = tuple(float(v) / PT for v in operands)
        elif op == "l" and start is not None:
            lines.append((start, tuple(float(v) / PT for v in operands), current_width))
            start = None
    marks = [ln for ln in lines if any(abs(ln[0][0] - m[0]) < 0.01 and abs(ln[0][1] - m[1]) < 0.01
                                       for m in plan.marks)]
    assert len(marks) == len(plan.marks) > 0
    for (x1, y1), (x2, y2), width in marks:
        assert width >= 0.3
        for slot in plan.slots:
            inside_x = slot.x < (x1 + x2) / 2 < slot.x + 59
            inside_y = slot.y < (y1 + y2) / 2 < slot.y + 91
            assert not (inside_x and inside_y)


def test_printshop_pages_have_bleed_and_trim_boxes(built):
    _, files = built
    pdf = pikepdf.open(io.BytesIO(files["printshop.pdf"]))
    assert len(pdf.pages) == 2 * 104
    for page in pdf.pages[:3]:
        media = [float(v) / PT for v in page.MediaBox]
        trim = [float(v) / PT for v in page.TrimBox]
        bleed = [float(v) / PT for v in page.BleedBox]
        assert media == pytest.approx([0, 0, 65, 97], abs=0.01)
        assert bleed == pytest.approx([0, 0, 65, 97], abs=0.01)
        assert trim == pytest.approx([3, 3, 62, 94], abs=0.01)


def test_viewer_preferences_and_embedded_fonts_only(built):
    _, files = built
    for name in ("cards.pdf", "printshop.pdf"):
        pdf = pikepdf.open(io.BytesIO(files[name]))
        prefs = pdf.Root.ViewerPreferences
        assert str(prefs.PrintScaling) == "/None"
        if name == "cards.pdf":
            assert str(prefs.Duplex) == "/DuplexFlipLongEdge"
        for page in pdf.pages:
            for font in page.Resources.Font.values():
                assert "Helvetica" not in str(font.BaseFont)
                holder = font.DescendantFonts[0] if "/DescendantFonts" in font else font
                assert "/FontFile2" in holder.FontDescriptor  # the TrueType file is embedded


def test_every_card_id_is_in_the_pdf_text(built):
    data, files = built
    reader = PdfReader(io.BytesIO(files["printshop.pdf"]))
    text = "\n".join(page.extract_text() for page in reader.pages[:104])
    for lc in data.cards:
        assert lc.card.id in text


def test_builds_are_byte_identical(built):
    data, files = built
    again = render_pack(data, Report(), BuildSettings(only=("cards",)))
    assert hashlib.sha256(again.files["cards.pdf"]).hexdigest() == \
        hashlib.sha256(files["cards.pdf"]).hexdigest()


def test_short_edge_and_offset_move_the_backs():
    plan = plan_sheet(PAPER["a4"], (59, 91), 3)
    backs = back_slots(plan, "short", (1.5, -0.5))
    for front, back in zip(plan.slots, backs):
        assert back.x == pytest.approx(front.x + 1.5)
        assert back.y + 91 + front.y == pytest.approx(297 - 0.5)


def test_letter_paper_and_png_size():
    report = Report()
    data = check(ROOT / "card_data" / "crazy-hospital", report)
    data.cards = data.cards[:2]
    result = render_pack(data, report, BuildSettings(paper="letter", only=("cards", "png"),
                                                     dpi=300))
    reader = PdfReader(io.BytesIO(result.files["cards.pdf"]))
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * PT, abs=0.01)
    from PIL import Image
    image = Image.open(io.BytesIO(result.files[f"png/{data.cards[0].card.id}.png"]))
    assert image.size == (768, 1146)


def test_a_shared_back_is_defined_in_every_document_drawn_with_one_painter():
    """Regression: forms were remembered by id(canvas), and a new canvas can reuse the id of a
    freed one — its backs then pointed at a form it never defined."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.layout.card import CardFace
    from cardgen.render.card import CardPainter
    from cardgen.render.images import ImageStore
    painter = CardPainter((59, 91), 3, {}, ImageStore(ROOT))
    back = CardFace("back")
    for _ in range(40):  # freed canvases make id() reuse likely within a few rounds
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1)
        painter.draw_shared(canvas, back, 10, 10, 3)
        canvas.showPage()
        canvas.save()
        assert buffer.getvalue().startswith(b"%PDF")
        del canvas
