"""tuckbox.pdf as the build writes it: a page per deck, the solid cut around the net, dotted
folds, the title and the count on the box, and a line in the print guide."""

from __future__ import annotations

import pikepdf
import pytest

from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from conftest import shipped_data, text_layer
from pdf_geometry import open_pdf


def _strokes(pdf, index):
    """(dashed, segments) of every stroked path drawn on the page outside forms."""
    out, dash, points = [], False, 0
    for operands, operator in pikepdf.parse_content_stream(pdf.pages[index]):
        op = str(operator)
        if op == "d":
            dash = len(operands[0]) > 0
        elif op == "Q":
            dash = False
        elif op in ("m", "l"):
            points += 1
        elif op in ("S", "s"):
            out.append((dash, points))
            points = 0
        elif op in ("f", "f*", "n", "B", "b", "W", "W*"):
            points = 0
    return out


@pytest.mark.parametrize("pack, decks, count", [("crazy-hospital", 1, "104 Karten"),
                                                ("dokter-li", 2, "27 kaarten")])
def test_a_box_for_each_deck(pack, decks, count):
    data = shipped_data(pack)
    report = Report()
    result = render_pack(data, report, BuildSettings(only=("tuckbox", "cards")))
    assert result is not None, [d.format() for d in report.errors]
    pdf = open_pdf(result.files["tuckbox.pdf"])
    assert len(pdf.pages) == decks
    for index in range(decks):
        strokes = _strokes(pdf, index)
        solid = [points for dashed, points in strokes if not dashed]
        dashed = [points for dashed, points in strokes if dashed]
        assert max(solid) > 40  # the cut: one path around the whole net, notch and all
        assert len(dashed) == 12 and all(points == 2 for points in dashed)  # the folds
    text = text_layer(result.files["tuckbox.pdf"])
    assert data.pack.title in text and count in text
    guide = " ".join(text_layer(result.files["guide.pdf"]).split())
    assert "tuckbox.pdf" in guide


def test_a_box_too_big_for_the_paper_is_a_diagnostic():
    data = shipped_data("quatridou")
    report = Report()
    result = render_pack(data, report, BuildSettings(only=("tuckbox",), stock=1.9))
    assert result is None
    assert any("tuckbox.pdf" in d.message and "--paper" in d.message for d in report.errors)
