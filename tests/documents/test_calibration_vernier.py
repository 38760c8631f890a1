"""The calibration sheet reads the printer's back offset to a tenth of a millimetre: read back
from the PDF as a user reads it against the light, for offsets that the old 1 mm ruler could
only guess between two ticks."""

from __future__ import annotations

import pytest

from cardgen.documents.calibration import calibration
from cardgen.layout.sheet import PAPER, calibration_targets
from cardgen.render.pdf import SheetSpec, sheet_layout
from cardgen.text.words import labels_for
from pdf_geometry import open_pdf, read_page

OFFSETS = [0.0, 0.5, -0.5, 1.5, -2.5, 4.5, -4.5, 0.3, -3.7, 2.9]


def _sheet(paper: str, duplex: str, card=(59, 91)):
    spec = SheetSpec(paper, duplex)
    pdf = calibration(spec, card, 3.0, {"title": "t"}, labels_for("en", {}))
    document = open_pdf(pdf)
    assert len(document.pages) == 2
    front = read_page(document, 0, card, 3.0)[1]
    back = read_page(document, 1, card, 3.0)[1]
    return spec, front, back


def _seen_from_back(line, paper, duplex):
    """A front line as it shows through the paper, in the back page's coordinates."""
    pw, ph = PAPER[paper]
    x1, y1, x2, y2 = line
    if duplex == "short":  # turned over a horizontal line of the (portrait) page
        return (x1, ph - y1, x2, ph - y2)
    return (pw - x1, y1, pw - x2, y2)


def _read(ruler, main, vernier, along: int, shift: float) -> float:
    """What a user reads on one ruler: the ruler's (back) ticks moved by `shift` mm (the
    printer's error), the vernier (front) ticks where they are. The long vernier tick lies
    between two ruler numbers: the smaller one; the vernier tick that meets a ruler tick
    best: that many tenths."""
    zero = min(ruler[along], ruler[along + 2]) + 5  # the ruler runs from -5 mm
    ticks = {round(t[along] - zero): t[along] + shift for t in main}
    assert sorted(ticks) == list(range(-5, 16)), sorted(ticks)
    marks = sorted(t[along] for t in vernier)
    assert len(marks) == 11 and marks[1] - marks[0] == pytest.approx(0.9, abs=1e-3)
    whole = max(value for value, at in ticks.items() if at <= marks[0] + 1e-3)
    misses = [min(abs(mark - at) for at in ticks.values()) for mark in marks]
    # the PDF keeps positions to about 0.00002 mm; ticks 10 apart both meet at a whole mm
    return whole + next(k for k, miss in enumerate(misses) if miss <= min(misses) + 1e-3) / 10


@pytest.mark.parametrize("paper, duplex", [("a4", "long"), ("letter", "long"),
                                           ("a4", "short"), ("letter", "short")])
def test_the_vernier_reads_every_offset_to_a_tenth_of_a_millimetre(paper, duplex):
    spec, front, back = _sheet(paper, duplex)
    plan, backs, _ = sheet_layout(spec, (59, 91), 3.0)
    seen = [_seen_from_back(line, paper, duplex) for line in front]
    rulers = [(line, 0) for line in back if line[1] == line[3] and
              abs(line[2] - line[0]) == pytest.approx(20, abs=1e-3)]
    rulers += [(line, 1) for line in back if line[0] == line[2] and
               abs(line[3] - line[1]) == pytest.approx(20, abs=1e-3)]
    centres = {(s.x + plan.card_w / 2, s.y + plan.card_h / 2) for s in plan.slots}
    aimed = [t for t in calibration_targets(plan) if t in centres]  # corners (and a centre)
    assert len(rulers) == 2 * len(aimed) >= 8  # an X and a Y ruler at each
    for ruler, along in rulers:
        across = 1 - along
        level = ruler[across]
        span = sorted((ruler[along], ruler[along + 2]))

        def on(line, side):  # a tick meeting the ruler's line from one side
            ends = sorted((line[across], line[across + 2]))
            return line[along] == line[along + 2] and span[0] - 1e-3 <= line[along] \
                <= span[1] + 10 and (ends[0] == pytest.approx(level, abs=1e-3) if side > 0
                                     else ends[1] == pytest.approx(level, abs=1e-3))
        main = [line for line in back if on(line, +1) and line != ruler]
        # the vernier meets the ruler from the other side: below the X ruler, left of the Y
        vernier = [line for line in seen if on(line, -1)]
        for offset in OFFSETS:
            # the printer puts the backs `offset` mm off: the ruler moves by it, and the
            # reading is the move that brings them back (plus: right and up)
            assert _read(ruler, main, vernier, along, -offset) == pytest.approx(offset,
                                                                               abs=1e-9)


def test_the_sheet_says_how_to_read_tenths():
    from conftest import text_layer
    pdf = calibration(SheetSpec("a4", "long"), (59, 91), 3.0, {"title": "t"},
                      labels_for("en", {}))
    back = " ".join(text_layer(pdf).split("\n"))
    assert "tenths" in back and "tick 0" in back
