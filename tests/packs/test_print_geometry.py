"""Print geometry read back from the PDFs: what a user checks with a ruler and a duplex printer."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.diagnostics import Report
from cardgen.layout.sheet import PAPER, back_slots, fold_plan, plan_sheet
from conftest import shipped_data, text_layer

ROOT = Path(__file__).resolve().parents[2]
PT = 72 / 25.4


@pytest.fixture(scope="module")
def built(shipped_build):
    data, report, files = shipped_build("crazy-hospital")  # built once per test session
    assert not report.errors, [d.format() for d in report.errors]
    return data, files


def _mul(m, n):
    """PDF matrix product m x n (apply m, then n), matrices as (a, b, c, d, e, f)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def _box(m, x, y, w, h):
    """(left, bottom, right, top) in mm of a rectangle drawn under matrix m."""
    xs, ys = [], []
    for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        xs.append((m[0] * px + m[2] * py + m[4]) / PT)
        ys.append((m[1] * px + m[3] * py + m[5]) / PT)
    return (min(xs), min(ys), max(xs), max(ys))


def printed_cards(pdf_bytes: bytes, page_index: int, printed=(65, 97)) -> list[tuple]:
    """(left, bottom, right, top) in mm, on the page, of every card's printed area (trim and
    bleed, `printed` mm, upright or turned): a card drawn in place starts with its clip
    rectangle; a shared face (the back) is a form, its BBox placed by the current matrix."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    page = pdf.pages[page_index]
    xobjects = page.Resources.get("/XObject", {})
    ops = pikepdf.parse_content_stream(page)
    ctm, stack, found = (1, 0, 0, 1, 0, 0), [], []
    for index, (operands, operator) in enumerate(ops):
        op = str(operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == "re" and index + 1 < len(ops) and str(ops[index + 1][1]) in ("W", "W*"):
            found.append(_box(ctm, *(float(v) for v in operands)))
        elif op == "Do":
            form = xobjects[str(operands[0])]
            assert [float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])] == [1, 0, 0, 1,
                                                                                    0, 0]
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            found.append(_box(ctm, x0, y0, x1 - x0, y1 - y0))
    sizes = {printed, printed[::-1]}
    return [r for r in found
            if (round(r[2] - r[0], 2), round(r[3] - r[1], 2)) in {(round(a, 2), round(b, 2))
                                                                 for a, b in sizes}]


def crop_lines(pdf_bytes: bytes, page_index: int) -> tuple[set, set]:
    """x of every vertical and y of every horizontal line drawn on the page, in mm."""
    pdf = pikepdf.open(io.BytesIO(pdf_bytes))
    xs, ys, start = set(), set(), None
    for operands, operator in pikepdf.parse_content_stream(pdf.pages[page_index]):
        op = str(operator)
        if op == "m":
            start = tuple(float(v) / PT for v in operands)
        elif op == "l" and start is not None:
            end = tuple(float(v) / PT for v in operands)
            if abs(end[0] - start[0]) < 1e-6:
                xs.add(round(end[0], 3))
            elif abs(end[1] - start[1]) < 1e-6:
                ys.add(round(end[1], 3))
            start = None
    return xs, ys


def assert_bleed_on_every_edge(cards: list[tuple], xs: set, ys: set, bleed: float = 3.0):
    """Every card: its trim (printed area less the bleed) lies on crop-mark lines, and no
    other card's printed area comes within its bleed (within 0.05 mm)."""
    for left, bottom, right, top in cards:
        for x in (left + bleed, right - bleed):
            assert any(abs(x - v) <= 0.05 for v in xs), f"no cut line at x = {x:.3f}"
        for y in (bottom + bleed, top - bleed):
            assert any(abs(y - v) <= 0.05 for v in ys), f"no cut line at y = {y:.3f}"
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            apart_x = max(b[0] - a[2], a[0] - b[2])
            apart_y = max(b[1] - a[3], a[1] - b[3])
            assert max(apart_x, apart_y) >= -0.05, f"{a} and {b} overlap"


def assert_mirrored(fronts: list[tuple], backs: list[tuple], page, axis: str):
    """Back i is front i mirrored across the page's middle (axis "x": left-right)."""
    assert len(fronts) == len(backs)
    for f, b in zip(fronts, backs):
        if axis == "x":
            assert b[0] + f[2] == pytest.approx(page[0], abs=0.05)
            assert (b[1], b[3]) == pytest.approx((f[1], f[3]), abs=0.05)
        else:
            assert b[1] + f[3] == pytest.approx(page[1], abs=0.05)
            assert (b[0], b[2]) == pytest.approx((f[0], f[2]), abs=0.05)


def test_sheet_pages_are_a4_with_eight_cards_keeping_bleed_and_mirrored_backs(built):
    _, files = built
    reader = PdfReader(io.BytesIO(files["cards.pdf"]))
    assert len(reader.pages) == 2 * 13  # 104 cards, 8 per sheet (turned), fronts + backs
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(210 * PT, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(297 * PT, abs=0.01)
    plan = plan_sheet(PAPER["a4"], (59, 91), 3)
    for sheet in range(13):
        fronts = printed_cards(files["cards.pdf"], 2 * sheet)
        backs = printed_cards(files["cards.pdf"], 2 * sheet + 1)
        assert len(fronts) == len(backs) == (8 if sheet < 12 else 104 - 12 * 8)
        assert_bleed_on_every_edge(fronts, *crop_lines(files["cards.pdf"], 2 * sheet))
        assert_mirrored(fronts, backs, (210, 297), "x")   # long-edge duplex
    fronts = printed_cards(files["cards.pdf"], 0)
    for slot, front in zip(plan.slots, fronts):
        assert (front[2] - front[0], front[3] - front[1]) == pytest.approx((97, 65), abs=0.01)
        assert front[0] == pytest.approx(slot.x - 3, abs=0.05)
        assert front[1] == pytest.approx(slot.y - 3, abs=0.05)


@pytest.fixture(scope="module")
def small_deck():
    data = shipped_data("crazy-hospital")
    data.cards = data.cards[:20]
    return data


@pytest.mark.parametrize("paper, duplex, per_sheet, axis", [
    ("letter", "long", 8, "x"),
    ("letter", "short", 8, "y"),
    ("a4", "short", 8, "y"),
    ("a4", "none", 8, "x"),
])
def test_letter_and_short_edge_sheets_keep_bleed_and_mirror(small_deck, paper, duplex,
                                                           per_sheet, axis):
    result = render_pack(small_deck, Report(), BuildSettings(paper=paper, duplex=duplex,
                                                             only=("cards",)))
    pdf = result.files["cards.pdf"]
    page = PAPER[paper]
    fronts, backs = printed_cards(pdf, 0), printed_cards(pdf, 1)
    assert len(fronts) == per_sheet
    assert_bleed_on_every_edge(fronts, *crop_lines(pdf, 0))
    assert_mirrored(fronts, backs, page, axis)
    assert all(5 - 0.05 <= f[0] and f[2] <= page[0] - 5 + 0.05 for f in fronts)  # margin


@pytest.mark.parametrize("paper, per_sheet, axis", [("a4", 4, "y"), ("letter", 3, "y")])
def test_fold_sheets_keep_bleed_and_mirror_across_the_fold(small_deck, paper, per_sheet, axis):
    result = render_pack(small_deck, Report(), BuildSettings(paper=paper, duplex="fold",
                                                             only=("cards",)))
    pdf = result.files["cards.pdf"]
    cards = printed_cards(pdf, 0)
    assert len(cards) == 2 * per_sheet  # fronts, then their backs on the same page
    fronts, backs = cards[:per_sheet], cards[per_sheet:]
    assert_bleed_on_every_edge(fronts, *crop_lines(pdf, 0))
    assert_mirrored(fronts, backs, PAPER[paper], axis)


def test_dense_sheets_abut_and_the_build_says_so(small_deck):
    result = render_pack(small_deck, Report(), BuildSettings(sheet="dense", only=("cards",)))
    fronts = printed_cards(result.files["cards.pdf"], 0, printed=(59, 91))
    assert len(fronts) == 9
    with pytest.raises(AssertionError):  # the check sees abutted cards: no bleed of their own
        assert_bleed_on_every_edge([(f[0] - 3, f[1] - 3, f[2] + 3, f[3] + 3) for f in fronts],
                                   *crop_lines(result.files["cards.pdf"], 0))
    assert any("abut at the trim" in note and "--sheet dense" in note for note in result.notes)
    kept = render_pack(small_deck, Report(), BuildSettings(only=("cards",)))
    assert not any("abut" in note for note in kept.notes)


def test_margin_moves_the_cards_inside(small_deck):
    result = render_pack(small_deck, Report(), BuildSettings(margin=12, only=("cards",)))
    fronts = printed_cards(result.files["cards.pdf"], 0)
    assert fronts and all(f[0] >= 12 - 0.05 and f[2] <= 210 - 12 + 0.05 for f in fronts)
    assert all(f[3] <= 297 - 12 + 0.05 for f in fronts)


def test_margin_from_the_settings_file(cli, make_pack, tmp_path, monkeypatch):
    folder = make_pack(tmp_path)
    settings = tmp_path / "settings.yaml"
    settings.write_text("margin: 14\n", encoding="utf-8")
    monkeypatch.setenv("CARDGEN_SETTINGS", str(settings))
    out = tmp_path / "out"
    assert cli("build", "--data", folder.parent, "--only", "cards", "--out", out).exit_code == 0
    cards = printed_cards((out / "mini" / "cards.pdf").read_bytes(), 0)
    assert cards and all(c[0] >= 14 - 0.05 and c[2] <= 210 - 14 + 0.05 for c in cards)


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
    text = text_layer(files["printshop.pdf"], pages=104)  # the 104 fronts
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
        assert back.y + plan.card_h + front.y == pytest.approx(297 - 0.5)  # 59: turned cards


def test_letter_paper_and_png_size():
    report = Report()
    data = shipped_data("crazy-hospital")
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
    from cardgen.pictures.store import ImageStore
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


PACKS = ("crazy-hospital", "dokter-li", "quartett", "quatridou", "tischordnung")


@pytest.fixture(scope="module")
def nine_of_each():
    """Nine cards of every shipped pack: one full sheet and one card on the next."""
    out = {}
    for name in PACKS:
        data = shipped_data(name)
        data.cards = data.cards[:9]
        out[name] = data
    return out


@pytest.mark.parametrize("pack", PACKS)
@pytest.mark.parametrize("paper, duplex", [("a4", "long"), ("letter", "long"), ("a4", "fold"),
                                           ("letter", "fold")])
def test_print_fidelity_of_every_pack(nine_of_each, pack, paper, duplex):
    """Each pack's sheets as a user measures them: bleed on every edge of every card, cut
    lines at every trim, backs behind their fronts."""
    data = nine_of_each[pack]
    (w, h), bleed = data.pack.print.size(), data.pack.print.bleed
    result = render_pack(data, Report(), BuildSettings(paper=paper, duplex=duplex,
                                                       only=("cards",)))
    pdf, page = result.files["cards.pdf"], PAPER[paper]
    reader = PdfReader(io.BytesIO(pdf))
    size = (w + 2 * bleed, h + 2 * bleed)
    seen = 0
    for index in range(0, len(reader.pages), 1 if duplex == "fold" else 2):
        cards = printed_cards(pdf, index, size)
        if duplex == "fold":
            fronts, backs = cards[:len(cards) // 2], cards[len(cards) // 2:]
            _, _, fold = fold_plan(page, (w, h), bleed)
            axis = "x" if fold[0] == fold[2] else "y"
        else:
            fronts, backs = cards, printed_cards(pdf, index + 1, size)
            axis = "x"
        assert fronts, f"page {index + 1} holds no card"
        assert_bleed_on_every_edge(fronts, *crop_lines(pdf, index), bleed)
        assert_mirrored(fronts, backs, page, axis)
        seen += len(fronts)
    assert seen == sum(lc.card.count for lc in data.cards)
