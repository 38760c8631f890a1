"""Every PDF of a full build of every pack is structurally sound, embeds all its fonts and
uses no font but ours (no Helvetica left behind)."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from cardgen.paths import find_packs

ROOT = Path(__file__).resolve().parents[2]


PACKS = [folder.name for folder in find_packs(ROOT / "card_data")]


@pytest.fixture(scope="module")
def built(shipped_out) -> dict[str, Path]:
    """{pack: folder} of `cardgen build --jobs 2` of every pack: cards, printshop, boards,
    rulebook, calibration (conftest.shipped_out, built once per test session)."""
    return {pack: shipped_out(pack) for pack in PACKS}


def _fonts(pdf: pikepdf.Pdf):
    for page in pdf.pages:
        resources = page.obj.get("/Resources") or {}
        fonts = dict(resources.get("/Font") or {})
        for xobject in dict(resources.get("/XObject") or {}).values():
            inner = xobject.get("/Resources") or {}
            fonts.update(dict(inner.get("/Font") or {}))
        yield from fonts.values()


def test_every_pdf_is_sound_and_embeds_only_our_fonts(built):
    pdfs = [path for pack in PACKS for path in sorted(built[pack].glob("*.pdf"))]
    names = {p.name for p in pdfs}
    assert {"cards.pdf", "printshop.pdf", "rulebook.pdf", "boards.pdf",
            "calibration.pdf"} <= names
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            assert pdf.check_pdf_syntax() == [], path  # qpdf reads every object: no problems
            assert len(pdf.pages) > 0
            for font in _fonts(pdf):
                name = str(font.get("/BaseFont"))
                assert "Helvetica" not in name and "Times" not in name, (path, name)
                holder = font.DescendantFonts[0] if "/DescendantFonts" in font else font
                descriptor = holder.get("/FontDescriptor")
                assert descriptor is not None and "/FontFile2" in descriptor, (path, name)
            prefs = pdf.Root.get("/ViewerPreferences") or {}
            assert str(prefs.get("/PrintScaling")) == "/None", path  # print at 100 %


def _text(path: Path) -> str:
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def test_every_to_unicode_map_is_valid_utf16(built):
    """Each glyph maps to UTF-16BE hex: 4 digits, 8 for a surrogate pair (reportlab wrote
    U+1F42D as the five digits <1F42D>, which readers reject; cardgen.text.fonts fixes it)."""
    import re
    checked = 0
    for path in [path for pack in PACKS for path in sorted(built[pack].glob("*.pdf"))]:
        with pikepdf.open(path) as pdf:
            for font in _fonts(pdf):
                if "/ToUnicode" not in font:
                    continue
                cmap = font.ToUnicode.read_bytes().decode("latin-1")
                for body in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
                    for source, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", body):
                        assert len(target) % 4 == 0 and target, (path, source, target)
                        text = bytes.fromhex(target).decode("utf-16-be")  # raises if broken
                        assert text
                        checked += 1
    assert checked > 1000


def test_every_printed_word_is_in_the_text_layer(built):
    """Every word laid out on a card face (names, texts, the quatridou emoji motifs ...) is
    found in the text of cards.pdf and printshop.pdf, every chapter title in the rulebook's:
    a reader finds each of them by search, and copies them right."""
    from cardgen.model.settings import BuildSettings
    from cardgen.pipeline.faces import layout_faces
    from cardgen.diagnostics import Report
    from cardgen.load.pack import load_pack
    for folder in sorted((ROOT / "card_data").iterdir()):
        data = load_pack(folder, Report())
        printed, _, _ = layout_faces(data, Report(), BuildSettings())
        words = {word for item in printed for face in (item.front, item.back)
                 for box in face.boxes if box.text is not None for line in box.text.lines
                 for word in "".join(text for _, text in line.runs).split()}
        assert any(ord(c) > 0xFFFF for w in words for c in w) == (folder.name in (
            "quatridou", "dokter-li"))
        cards = " ".join(_text(built[folder.name] / "cards.pdf").split())
        shop = " ".join(_text(built[folder.name] / "printshop.pdf").split())
        # a word broken at a hyphen ends a line: readers join it with the next line
        missing = sorted(w for w in words if w.rstrip("-") not in cards or
                         w.rstrip("-") not in shop)
        assert missing == [], (folder.name, missing[:20])
        if data.chapters:
            book = " ".join(_text(built[folder.name] / "rulebook.pdf").split())
            for _, chapter in data.chapters:
                title = " ".join(chapter.title.split())
                assert title in book, (folder.name, title)
