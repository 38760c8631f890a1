"""Print-shop presets, CMYK, PNG backs, ink saver, the print guide and Tabletop Simulator files,
read back from what the build writes."""

from __future__ import annotations

import io
import json
import shutil

import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageStat
from pypdf import PdfReader

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.diagnostics import Report
from cardgen.model.pack import PRINT_SHOPS, PrintSettings
from cardgen.render.tts import MAX_PX, PER_SHEET, sheet_grid
from conftest import shipped_data

PT = 72 / 25.4


def _pack(name: str, cards: int | None = None):
    data = shipped_data(name)
    if cards is not None:
        data.cards = data.cards[:cards]
    return data


@pytest.mark.parametrize("name", sorted(PRINT_SHOPS))
def test_a_shop_name_in_pack_yaml_brings_size_bleed_and_safe_zone(name):
    shop = PRINT_SHOPS[name]
    settings = PrintSettings(card_size=name)
    assert (settings.size(), settings.bleed, settings.safe) == (shop.size, shop.bleed, shop.safe)
    assert PrintSettings(card_size=name, bleed=1).bleed == 1  # given values win


@pytest.mark.parametrize("name, page_mm, png_px", [
    ("meinspiel", (65, 97), (768, 1146)),
    ("thegamecrafter", (69.85, 95.25), (825, 1125)),
    ("makeplayingcards", (69.596, 94.996), (822, 1122)),
    ("drivethrucards", (69.85, 95.25), (825, 1125)),
])
def test_preset_page_sizes_png_sizes_and_page_order(name, page_mm, png_px):
    shop = PRINT_SHOPS[name]
    data = _pack("quatridou", 3)
    result = render_pack(data, Report(), BuildSettings(
        card_size=shop.size, bleed=shop.bleed, safe=shop.safe, print_shop=name,
        only=("printshop", "png")))
    names = (["printshop-fronts.pdf", "printshop-backs.pdf"] if shop.order == "files"
             else ["printshop.pdf"])  # MeinSpiel: the fronts in one file, the backs in another
    documents = [pikepdf.open(io.BytesIO(result.files[name])) for name in names]
    pages = [page for document in documents for page in document.pages]
    assert len(pages) == 6
    for page in pages:
        media = [float(v) / PT for v in page.MediaBox]
        assert media == pytest.approx([0, 0, *page_mm], abs=0.01)
        trim = [float(v) / PT for v in page.TrimBox]
        assert trim == pytest.approx([shop.bleed, shop.bleed, page_mm[0] - shop.bleed,
                                      page_mm[1] - shop.bleed], abs=0.01)
    backs = ["/XObject" in page.Resources and len(page.Resources.XObject) > 0
             for page in pages]  # a back is the shared form, a front is drawn in place
    expected = [True, False] * 3 if shop.order == "back-front" else [False] * 3 + [True] * 3
    assert backs == expected
    for file_name in (f"png/{data.cards[0].card.id}.png", "png/back-motiv.png"):
        assert Image.open(io.BytesIO(result.files[file_name])).size == png_px


def test_a_shop_that_cuts_other_proportions_is_a_warning_at_card_size(cli, make_pack, tmp_path):
    folder = make_pack(tmp_path)
    out = tmp_path / "out"
    result = cli("build", "--data", folder.parent, "--only", "printshop", "--card-size",
                 "thegamecrafter", "--out", out)
    assert result.exit_code == 0
    assert "The Game Crafter cuts 63.5 x 88.9 mm" in result.output
    assert (out / "mini" / "printshop.pdf").is_file()
    strict = cli("build", "--data", folder.parent, "--only", "printshop", "--card-size",
                 "thegamecrafter", "--strict", "--out", tmp_path / "strict")
    assert strict.exit_code == 1 and not (tmp_path / "strict" / "mini").exists()
    same = cli("build", "--data", folder.parent, "--only", "printshop", "--card-size",
               "meinspiel", "--out", tmp_path / "same")
    assert same.exit_code == 0 and "every layout is stretched" not in same.output


def test_ghostscript_writes_the_same_pdfx_twice(monkeypatch):
    """Its output, before cardgen touches the file ID, is the same for the same input: the ID
    hashed the temporary folder's random name, so that it (and, written as a literal string
    now and then, the file's length) changed from run to run."""
    from reportlab.pdfgen.canvas import Canvas

    from cardgen.render import cmyk
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.setFillColorRGB(0.8, 0.1, 0.1)
    canvas.rect(20, 20, 200, 100, fill=1)
    canvas.showPage()
    canvas.save()
    monkeypatch.setattr(cmyk, "_fixed_id", lambda pdf: pdf)
    first = cmyk.to_pdfx(buffer.getvalue(), "Test")
    assert b"/ID" in first and cmyk.to_pdfx(buffer.getvalue(), "Test") == first


def test_cmyk_printshop_is_pdfx_with_an_icc_output_intent():
    data = _pack("quartett", 2)
    result = render_pack(data, Report(), BuildSettings(colour="cmyk", only=("printshop",)))
    pdf = pikepdf.open(io.BytesIO(result.files["printshop.pdf"]))
    intent = pdf.Root.OutputIntents[0]
    assert str(intent.S) == "/GTS_PDFX" and int(intent.DestOutputProfile.N) == 4
    assert intent.DestOutputProfile.read_bytes()[36:40] == b"acsp"  # an ICC profile
    assert str(pdf.docinfo["/GTS_PDFXVersion"]).startswith("PDF/X-3")
    operators = {str(op) for page in pdf.pages for _, op in pikepdf.parse_content_stream(page)}
    assert {"k"} <= operators and not operators & {"rg", "RG"}  # CMYK fills, no RGB ones
    for page in pdf.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
    again = render_pack(data, Report(), BuildSettings(colour="cmyk", only=("printshop",)))
    assert again.files["printshop.pdf"] == result.files["printshop.pdf"]  # reproducible


def test_cmyk_without_ghostscript_says_what_to_install(cli, make_pack, tmp_path, monkeypatch):
    folder = make_pack(tmp_path)
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    result = cli("build", "--data", folder.parent, "--only", "printshop", "--colour", "cmyk",
                 "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert "apt-get install ghostscript" in result.output
    assert not (tmp_path / "out" / "mini").exists()


def test_ink_saver_turns_the_backs_light_and_the_fronts_lighter():
    data = _pack("quatridou", 1)

    def brightness(settings):
        shop = render_pack(data, Report(), settings).files["printshop.pdf"]
        import pypdfium2 as pdfium
        document = pdfium.PdfDocument(shop)
        out = [ImageStat.Stat(document[i].render(scale=0.5).to_pil().convert("L")).mean[0]
               for i in range(2)]
        document.close()
        return out
    front, back = brightness(BuildSettings(only=("printshop",)))
    saved_front, saved_back = brightness(BuildSettings(only=("printshop",), ink_saver=True))
    assert back < 120 < 200 < saved_back    # a dark back becomes a light one
    # the built-in card frame behind quatridou's fronts declares its frame light: lighter
    assert saved_front > front


def test_guide_in_the_pack_language():
    result = render_pack(_pack("crazy-hospital", 20), Report(), BuildSettings(only=("cards",)))
    text = PdfReader(io.BytesIO(result.files["guide.pdf"])).pages[0].extract_text()
    assert "Seiten 1–6" in text and "langen Kante" in text and "100" in text
    assert "20 Karten auf 3 Blättern, 8 Karten je Blatt." in text
    data = _pack("dokter-li", 8)
    folded = render_pack(data, Report(), BuildSettings(duplex="fold", only=("cards",)))
    text = PdfReader(io.BytesIO(folded.files["guide.pdf"])).pages[0].extract_text()
    copies = sum(lc.card.count for lc in data.cards)  # 4 on a folded sheet
    assert "enkelzijdig" in text and "stippellijn" in text
    assert f"{copies} kaarten op {-(-copies // 4)} vellen, 4 kaarten per vel." in text


@given(count=st.integers(1, PER_SHEET))
def test_tts_sheet_grid_stays_within_tts_limits(count):
    cols, rows, px_w, px_h = sheet_grid(count, (59, 91))
    assert cols <= 10 and rows <= 7 and cols * rows >= count
    assert cols * px_w <= MAX_PX and rows * px_h <= MAX_PX
    assert abs(px_h / px_w - 91 / 59) < 0.01


def test_tts_files_hold_every_card(tmp_path):
    data = _pack("crazy-hospital", 72)  # 64 character cards (one full 10 x 7 sheet), 8 of K
    result = render_pack(data, Report(), BuildSettings(only=("tts",), out=str(tmp_path)))
    deck_file = json.loads(result.files["tts/crazy-hospital.json"])
    decks = deck_file["ObjectStates"]
    assert sum(len(d["ContainedObjects"]) for d in decks) == sum(c.card.count
                                                                  for c in data.cards)
    assert len(decks) == 1  # both kinds have the same back: one deck (render/tts.py)
    for deck in decks:
        assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"])
        for key, custom in deck["CustomDeck"].items():
            name = custom["FaceURL"].split(str(tmp_path), 1)[1].lstrip("/").split("/", 1)[1]
            image = Image.open(io.BytesIO(result.files[name]))
            assert image.size[0] <= MAX_PX and image.size[1] <= MAX_PX
            assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7
            assert image.size[0] % custom["NumWidth"] == 0
            assert custom["FaceURL"].startswith("file:///")
            cells = [c["CardID"] - int(key) * 100 for c in deck["ContainedObjects"]
                     if c["CardID"] // 100 == int(key)]
            assert max(cells) < custom["NumWidth"] * custom["NumHeight"]
            assert len(set(cells)) <= PER_SHEET
            assert all(c["CustomDeck"] == {key: custom} for c in deck["ContainedObjects"]
                       if c["CardID"] // 100 == int(key))
    names = {c["Nickname"] for d in decks for c in d["ContainedObjects"]}
    assert {lc.card.name for lc in data.cards} == names
    first = decks[0]["CustomDeck"][min(decks[0]["CustomDeck"], key=int)]
    assert (first["NumWidth"], first["NumHeight"]) == (10, 7)  # 69 on the first sheet


def test_ghostscripts_file_id_becomes_the_same_in_either_spelling():
    """Ghostscript writes the trailer's /ID as <hex> or as (literal) bytes, new each run: both
    become a hash of the file, in the same number of bytes (no offset moves)."""
    from cardgen.render.cmyk import _fixed_id
    hexed = (b"%PDF-1.6\ntrailer\n<< /Size 9 /ID [<" + b"AB" * 16 + b"><" + b"AB" * 16 +
             b">] >>\nstartxref\n123\n%%EOF\n")
    literal = (b"%PDF-1.6\ntrailer\n<< /Size 9 /ID [(\\(q\\)\\\\x\\201abcdefgh)(zz\\)y1234567"
               b"89012)] >>\nstartxref\n123\n%%EOF\n")
    for pdf, other in ((hexed, hexed.replace(b"AB", b"C0")),
                       (literal, literal.replace(b"abc", b"xyz").replace(b"zz", b"ww"))):
        fixed = _fixed_id(pdf)
        assert fixed == _fixed_id(other) and len(fixed) == len(pdf) and fixed != pdf


def test_a_guide_for_one_sheet_says_sheet_and_page_once():
    """Eight cards fill one sheet: "8 Karten auf einem Blatt", never "auf 1 Blättern"; folded
    onto one sheet, "Seite 1", never "Seiten 1–1"."""
    result = render_pack(_pack("crazy-hospital", 8), Report(), BuildSettings(only=("cards",)))
    text = PdfReader(io.BytesIO(result.files["guide.pdf"])).pages[0].extract_text()
    assert "8 Karten auf einem Blatt." in text and "1 Blättern" not in text
    folded = render_pack(_pack("crazy-hospital", 4), Report(),
                         BuildSettings(duplex="fold", only=("cards",)))
    text = PdfReader(io.BytesIO(folded.files["guide.pdf"])).pages[0].extract_text()
    assert "Seite 1" in text and "1–1" not in text and "4 Karten auf einem Blatt." in text


@pytest.mark.parametrize("language", ["de", "nl", "en", "fr", "it"])
def test_the_guide_speaks_every_pack_language(language):
    """Every language a pack may be written in has every sentence of the print guide: a French
    or Italian pack's players get their guide in French or Italian, never in English."""
    from typing import get_args
    from cardgen.model.pack import Pack
    from cardgen.documents.guide import GUIDE
    assert set(get_args(Pack.model_fields["language"].annotation)) == set(GUIDE)
    assert set(GUIDE[language]) == set(GUIDE["en"])
    data = _pack("quartett", 8)
    data.pack = data.pack.model_copy(update={"language": language})
    text = PdfReader(io.BytesIO(render_pack(data, Report(), BuildSettings(only=("cards",)))
                                .files["guide.pdf"])).pages[0].extract_text()
    title = GUIDE[language]["guide_title"].split("{")[0].strip()
    assert title.split()[0] in text, text[:200]
