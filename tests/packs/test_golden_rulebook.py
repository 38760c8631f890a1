"""Golden images of the rulebook: the figures (components, card anatomy, set-up) drawn alone, a
cover and a page of a Letter rulebook. Compared like tests/packs/test_golden.py (RMS tolerance,
diff image on failure); written only on purpose:

    CARDGEN_UPDATE_GOLDEN=1 python -m pytest tests/packs/test_golden_rulebook.py

A figure is rendered on its own page, so a rule text changed elsewhere does not move it.
"""

from __future__ import annotations

from io import BytesIO

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.platypus import SimpleDocTemplate

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.diagnostics import Report
from cardgen.model import rules as m
from cardgen.documents.rulebook.book import A4_BOOK
from cardgen.documents.rulebook.story import StoryBuilder
from cardgen.text.rules import ChapterSource
from conftest import shipped_data

from test_golden import GOLDEN, TOLERANCE, UPDATE, _rms

DPI = 60


def compare(image: Image.Image, name: str) -> None:
    path = GOLDEN / "rulebook" / f"{name}.png"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return
    assert path.exists(), f"missing golden {path}; create it on purpose with " \
                          "CARDGEN_UPDATE_GOLDEN=1"
    expected = Image.open(path).convert("RGB")
    assert expected.size == image.size, f"{name}: size {image.size} != {expected.size}"
    rms = _rms(expected, image)
    if rms > TOLERANCE:
        diff = GOLDEN / "diff" / "rulebook"
        diff.mkdir(parents=True, exist_ok=True)
        image.save(diff / f"{name}-actual.png")
        ImageChops.difference(expected, image).save(diff / f"{name}-diff.png")
    assert rms <= TOLERANCE, f"{name}: RMS {rms:.2f} > {TOLERANCE}"


def page_image(pdf: bytes, index: int) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    image = document[index].render(scale=DPI / 72).to_pil().convert("RGB")
    document.close()
    return image


def figure_pdf(pack: str, block_type) -> bytes:
    """The pack's first block of this type, laid out alone on an A4-wide page."""
    report = Report()
    data = shipped_data(pack)
    g = A4_BOOK
    builder = StoryBuilder(data, report, g.width, g.height, g.body_size, None)
    for shown, chapter in data.chapters:
        for index, block in enumerate(chapter.blocks):
            if isinstance(block, block_type):
                flow = builder.block(block, index, ChapterSource(shown, data.folder), "golden")
                assert flow and not report.errors, [d.format() for d in report.errors]
                buffer = BytesIO()
                SimpleDocTemplate(buffer, pagesize=g.size, leftMargin=g.left,
                                  rightMargin=g.right, topMargin=g.top, bottomMargin=g.bottom,
                                  invariant=1).build(flow)
                return buffer.getvalue()
    raise AssertionError(f"{pack} has no {block_type.__name__} block")


@pytest.mark.parametrize("pack, block_type, name", [
    ("crazy-hospital", m.Components, "components"),
    ("crazy-hospital", m.Anatomy, "anatomy"),
    ("tischordnung", m.Setup, "setup"),
])
def test_figure_matches_golden(pack, block_type, name):
    compare(page_image(figure_pdf(pack, block_type), 0), f"{pack}-{name}")


@pytest.mark.parametrize("pack, paper, page, name", [
    ("crazy-hospital", "a4", 0, "cover"),
    ("quartett", "letter", 2, "letter-page"),
])
def test_rulebook_page_matches_golden(pack, paper, page, name, shipped_build):
    data = shipped_data(pack)
    if paper == data.pack.print.paper:
        pdf = shipped_build(pack)[2]["rulebook.pdf"]  # the shared build's
    else:
        report = Report()
        result = render_pack(data, report, BuildSettings(only=("rulebook",), paper=paper))
        assert result is not None, [d.format() for d in report.errors]
        pdf = result.files["rulebook.pdf"]
    compare(page_image(pdf, page), f"{pack}-{name}")
