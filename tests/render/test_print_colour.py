"""Print-shop colour as shops ask for it, read back from the CMYK files: black text in black ink
alone, total ink within the shop's limit (and said by the build), PDF/X-1a:2003 for
DriveThruCards, the text layer kept, and each shop's page order and files."""

from __future__ import annotations

import io
import re
import zlib

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from cardgen.diagnostics import Report
from cardgen.model.pack import PRINT_SHOPS
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.render.cmyk_finish import finish, limit_ink, neutrals_to_grey
from conftest import shipped_data, text_layer
from pdf_geometry import open_pdf, read_page

SHOWS = ("Tj", "TJ", "'", '"')


def _streams(pdf):
    seen = set()
    for page in pdf.pages:
        yield page
        stack = [page.obj.get("/Resources") or {}]
        while stack:
            for _, x in (stack.pop().get("/XObject") or {}).items():
                if x.get("/Subtype") == "/Form" and x.objgen not in seen:
                    seen.add(x.objgen)
                    yield x
                    stack.append(x.get("/Resources") or {})


def colours(pdf) -> tuple[set, list]:
    """(fill colours text is shown in, every colour operator's operands with its name)."""
    text_colours, every = set(), []
    for target in _streams(pdf):
        fill = None
        for operands, operator in pikepdf.parse_content_stream(target):
            op = str(operator)
            if op in ("k", "K", "g", "G", "rg", "RG", "sc", "scn", "SC", "SCN"):
                values = tuple(round(float(v), 4) for v in operands
                               if not isinstance(v, pikepdf.Name))
                every.append((op, values))
                if op.islower():
                    fill = (op, values)
            elif op in SHOWS:
                text_colours.add(fill)
    return text_colours, every


@pytest.fixture(scope="module")
def dtc():
    """Nine quartett cards (text in #1B1B1F, a near-black; suits in red) for DriveThruCards,
    in CMYK and in RGB."""
    data = shipped_data("quartett")
    data.cards = data.cards[:9]
    shop = PRINT_SHOPS["drivethrucards"]
    made = {}
    for colour in ("cmyk", "rgb"):
        report = Report()
        result = render_pack(data, report, BuildSettings(
            only=("printshop",), colour=colour, print_shop="drivethrucards",
            card_size=shop.size, bleed=shop.bleed, safe=shop.safe))
        assert result is not None, [d.format() for d in report.errors]
        made[colour] = result
    return made


def test_black_text_is_black_ink_alone(dtc):
    pdf = open_pdf(dtc["cmyk"].files["printshop.pdf"])
    text_colours, _ = colours(pdf)
    assert ("k", (0.0, 0.0, 0.0, 1.0)) in text_colours
    for op, values in text_colours:
        assert op == "k", (op, values)  # CMYK only
        c, m, y, k = values
        assert not (k > 0.5 and min(c, m, y) > 0.05), f"text in four-colour black {values}"


def test_total_ink_stays_within_the_shops_limit_and_the_build_says_it(dtc):
    pdf = open_pdf(dtc["cmyk"].files["printshop.pdf"])
    _, every = colours(pdf)
    totals = [sum(values) for op, values in every if op in ("k", "K")]
    assert totals and max(totals) <= 2.40 + 1e-3
    assert not [op for op, _ in every if op not in ("k", "K")]  # CMYK operators only
    note = next(n for n in dtc["cmyk"].notes if n.startswith("printshop.pdf: CMYK"))
    measured = float(re.search(r"total ink at most ([\d.]+) %", note).group(1))
    assert measured == pytest.approx(max(totals) * 100, abs=0.05)
    assert "DriveThruCards accepts 240 %" in note and "PDF/X-1a:2003" in note


def test_drivethrucards_gets_pdfx_1a_2003(dtc):
    pdf = open_pdf(dtc["cmyk"].files["printshop.pdf"])
    assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
    assert float(pdf.pdf_version) <= 1.4  # X-1a:2003 is PDF 1.4 at most: no transparency
    assert str(pdf.docinfo["/Trapped"]) == "/False" and "/Title" in pdf.docinfo
    intent = pdf.Root.OutputIntents[0]
    assert str(intent.S) == "/GTS_PDFX" and int(intent.DestOutputProfile.N) == 4
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary):
            assert "/SMask" not in obj or str(obj.get("/SMask")) == "/None"
            assert float(obj.get("/CA", 1)) == 1 and float(obj.get("/ca", 1)) == 1
            if "/FontFile2" in obj or "/FontFile" in obj or "/FontFile3" in obj:
                continue
            assert obj.get("/Type") != "/Group" or obj.get("/S") != "/Transparency"
    for page in pdf.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
        spaces = page.obj.Resources.get("/ColorSpace") or {}
        assert not any("ICCBased" in str(cs) or "RGB" in str(cs) for _, cs in spaces.items())
        for _, font in (page.obj.Resources.get("/Font") or {}).items():
            descriptor = font.get("/FontDescriptor")
            assert descriptor is not None and ("/FontFile2" in descriptor or
                                               "/FontFile3" in descriptor)


def test_the_text_layer_is_kept(dtc):
    cmyk = text_layer(dtc["cmyk"].files["printshop.pdf"])
    rgb = text_layer(dtc["rgb"].files["printshop.pdf"])
    # every character, suit symbols too, copies and searches as before (Ghostscript places
    # the words anew, so the reader's spaces and line breaks differ)
    assert "♠" in rgb and "".join(cmyk.split()) == "".join(rgb.split())


def test_drivethrucards_pages_are_back_then_front(dtc):
    pdf = open_pdf(dtc["rgb"].files["printshop.pdf"])
    shop = PRINT_SHOPS["drivethrucards"]
    shared = [[face["shared"] for face in read_page(pdf, index, shop.size, shop.bleed)[0]]
              for index in range(len(pdf.pages))]
    assert shared == [[True], [False]] * 9  # page 1 the back of card 1, page 2 its front


def test_meinspiel_gets_a_fronts_file_and_a_backs_file():
    data = shipped_data("quatridou")
    data.cards = data.cards[:4]
    shop = PRINT_SHOPS["meinspiel"]
    result = render_pack(data, Report(), BuildSettings(
        only=("printshop",), print_shop="meinspiel", card_size=shop.size, bleed=shop.bleed,
        safe=shop.safe))
    assert "printshop.pdf" not in result.files
    fronts = open_pdf(result.files["printshop-fronts.pdf"])
    backs = open_pdf(result.files["printshop-backs.pdf"])
    assert len(fronts.pages) == len(backs.pages) == 4
    for document, shared in ((fronts, False), (backs, True)):
        for index in range(4):
            faces = read_page(document, index, shop.size, shop.bleed)[0]
            assert [face["shared"] for face in faces] == [shared]
    assert any("MeinSpiel asks for CMYK" in note and "--colour cmyk" in note
               for note in result.notes)


def test_neutral_colours_become_grey_and_near_black_black():
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    for rgb in ((0, 0, 0), (0.105882, 0.105882, 0.121569), (0.5, 0.5, 0.5), (0.8, 0.1, 0.1)):
        canvas.setFillColorRGB(*rgb)
        canvas.rect(10, 10, 20, 20, fill=1)
    canvas.showPage()
    canvas.save()
    pdf = open_pdf(neutrals_to_grey(buffer.getvalue()))
    ops = [(str(op), [round(float(v), 4) for v in o])
           for o, op in pikepdf.parse_content_stream(pdf.pages[0])
           if str(op) in ("g", "rg")]
    assert ops == [("g", [0.0]), ("g", [0.0]), ("g", [0.5]), ("rg", [0.8, 0.1, 0.1])]


def test_ink_limit_keeps_black_and_shrinks_the_colours():
    values, over = limit_ink([0.75, 0.68, 0.67, 0.90], 2.40)
    assert over and sum(values) == pytest.approx(2.40) and values[3] == 0.90
    assert values[0] / values[1] == pytest.approx(0.75 / 0.68)
    assert limit_ink([0.2, 0.2, 0.2, 0.2], 2.40) == ([0.2, 0.2, 0.2, 0.2], False)


def test_images_and_colours_over_the_limit_are_held_to_it():
    """A CMYK image with pixels at 400 % and a fill at 360 %: after finishing nothing is over
    240 %, and the measured figure says so."""
    pdf = pikepdf.new()
    pixels = bytes([255, 255, 255, 255] * 50 + [0, 0, 0, 255] * 50)  # 400 % and 100 % K
    image = pdf.make_stream(zlib.compress(pixels), Type=pikepdf.Name.XObject,
                            Subtype=pikepdf.Name.Image, Width=10, Height=10,
                            ColorSpace=pikepdf.Name.DeviceCMYK, BitsPerComponent=8,
                            Filter=pikepdf.Name.FlateDecode)
    content = b"q 0.9 0.9 0.9 0.9 k 0 0 50 50 re f 50 0 0 50 60 0 cm /Im0 Do Q"
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 200, 200],
                              Contents=pdf.make_stream(content),
                              Resources=pikepdf.Dictionary(
                                  XObject=pikepdf.Dictionary(Im0=image)))
    pdf.pages.append(pikepdf.Page(page))
    buffer = io.BytesIO()
    pdf.save(buffer)
    inked = finish(buffer.getvalue(), buffer.getvalue(), 240)
    assert inked.ink <= 240 and inked.ink >= 239 and inked.limited == 51
    done = open_pdf(inked.pdf)
    picture = pikepdf.PdfImage(done.pages[0].Resources.XObject.Im0).as_pil_image()
    data = picture.tobytes()
    assert max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) <= 255 * 2.40
    fills = [[float(v) for v in o] for o, op in pikepdf.parse_content_stream(done.pages[0])
             if str(op) == "k"]
    assert fills and sum(fills[0]) == pytest.approx(2.40, abs=1e-3) and fills[0][3] == 0.9
