"""Home sheets as a printer prints them: every crop mark, the footer line and the 50 mm bar lie
inside the printable area (inside --margin) and outside every card's printed area (its trim
and bleed), on fronts and backs pages, on every paper, duplex mode, sheet mode and card size."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.layout.sheet import PAPER
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from conftest import shipped_data
from pdf_geometry import meets, open_pdf, read_page, text_boxes, within

SIZES = {"skat": (59, 91), "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "tarot": (70, 120),
         "mini": (44, 68)}


@pytest.fixture(scope="module")
def nine():
    out = {}
    for pack in ("quartett", "quatridou"):  # quatridou's texts fit a mini card too
        out[pack] = shipped_data(pack)
        out[pack].cards = out[pack].cards[:9]
    return out


def assert_marks_and_footer_clear(data, settings: BuildSettings, card, margin: float) -> None:
    report = Report()
    result = render_pack(data, report, settings)
    assert result is not None, [d.format() for d in report.errors]
    pdf = result.files["cards.pdf"]
    document = open_pdf(pdf)
    pw, ph = PAPER[settings.paper]
    printable = (margin, margin, pw - margin, ph - margin)
    pages = len(document.pages)
    fold = settings.duplex == "fold"
    title = f"{data.pack.title} {data.pack.version}"
    for index in range(pages):
        faces, lines = read_page(document, index, card, data.pack.print.bleed)
        assert faces, f"page {index + 1}: no card"
        if fold:
            footer = f"{title} — {index + 1}/{pages}"
        else:
            side = ("Vorderseiten", "Rückseiten")[index % 2]
            footer = f"{title} · {side} — {index + 1}/{pages}"
        drawn = [("line", line) for line in lines]
        drawn += [(footer, box) for box in text_boxes(pdf, index, footer)]
        drawn += [("50 mm:", box) for box in text_boxes(pdf, index, "50 mm:")]
        if not index % 2 or fold:  # fronts pages have the marks (and a fold sheet's dashes)
            assert len(lines) > 6
        for what, shape in drawn:
            assert within(shape, printable), (
                f"page {index + 1}: {what} {tuple(round(v, 2) for v in shape)} reaches into "
                f"the {margin:g} mm margin the printer cannot print")
            for face in faces:
                assert not meets(shape, face["rect"]), (
                    f"page {index + 1}: {what} {tuple(round(v, 2) for v in shape)} prints "
                    f"over the card at {tuple(round(v, 2) for v in face['rect'])}")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sheet", ["bleed", "dense"])
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("duplex", ["long", "short", "fold"])
def test_marks_and_footer_stay_in_the_printable_area_and_off_the_cards(nine, size, sheet,
                                                                       paper, duplex):
    card = SIZES[size]
    data = nine["quatridou" if size == "mini" else "quartett"]
    settings = BuildSettings(paper=paper, duplex=duplex, sheet=sheet, card_size=card,
                             only=("cards",))
    assert_marks_and_footer_clear(data, settings, card, 5.0)


@pytest.mark.parametrize("paper, duplex, margin", [("letter", "short", 8), ("a4", "long", 12),
                                                   ("letter", "fold", 7)])
def test_a_wider_margin_moves_the_footer_and_marks_inside_too(nine, paper, duplex, margin):
    data = nine["quartett"]
    settings = BuildSettings(paper=paper, duplex=duplex, margin=margin, only=("cards",))
    assert_marks_and_footer_clear(data, settings, data.pack.print.size(), margin)
