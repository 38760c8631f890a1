"""Every PDF of a full build of every pack is structurally sound, embeds all its fonts and
uses no font but ours (no Helvetica left behind)."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from typer.testing import CliRunner

from cardgen.cli.app import app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("all")
    result = CliRunner().invoke(app, ["build", "--data", str(ROOT / "card_data"), "--out",
                                      str(out), "--jobs", "2", "--only", "cards", "--only",
                                      "printshop", "--only", "boards", "--only", "rulebook",
                                      "--only", "calibration"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


def _fonts(pdf: pikepdf.Pdf):
    for page in pdf.pages:
        resources = page.obj.get("/Resources") or {}
        fonts = dict(resources.get("/Font") or {})
        for xobject in dict(resources.get("/XObject") or {}).values():
            inner = xobject.get("/Resources") or {}
            fonts.update(dict(inner.get("/Font") or {}))
        yield from fonts.values()


def test_every_pdf_is_sound_and_embeds_only_our_fonts(built: Path):
    pdfs = sorted(built.rglob("*.pdf"))
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
