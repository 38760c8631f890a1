"""Print-then-cut files as the build writes them: the SVG's and the DXF's cut paths lie on the
trims of the cards printed in cut.pdf, corners rounded as asked; the backs pages put every back
behind its front, the right way up."""

from __future__ import annotations

import re

import pytest

from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from conftest import shipped_data
from pdf_geometry import open_pdf, read_page
from test_back_orientation import assert_backs_match_fronts

RECT = re.compile(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"'
                  r'(?: rx="([\d.]+)" ry="([\d.]+)")?/>')


def _dxf(text: str) -> list[tuple[str, dict[str, float]]]:
    """(entity, {group code: value}) of every LINE and ARC."""
    pairs = text.split("\n")
    entities, current = [], None
    for code, value in zip(pairs[0::2], pairs[1::2]):
        if code.strip() == "0":
            current = (value, {}) if value in ("LINE", "ARC") else None
            if current:
                entities.append(current)
        elif current is not None and code.strip() not in ("8",):
            current[1][code.strip()] = float(value)
    return entities


@pytest.fixture(scope="module")
def built():
    data = shipped_data("quartett")
    data.cards = data.cards[:6]  # a full sheet of four, and two on the next
    made = {}
    for radius in (3.0, 0.0):
        report = Report()
        result = render_pack(data, report, BuildSettings(only=("cut", "printshop"),
                                                         corner_radius=radius))
        assert result is not None, [d.format() for d in report.errors]
        made[radius] = result.files
    return made


def test_the_svg_cuts_lie_on_the_printed_trims(built):
    files = built[3.0]
    pdf = open_pdf(files["cut.pdf"])
    assert len(pdf.pages) == 4  # two sheets, fronts and backs
    for sheet, page in ((1, 0), (2, 2)):
        svg = files[f"cut/sheet-{sheet}.svg"].decode()
        assert 'width="210mm" height="297mm" viewBox="0 0 210 297"' in svg
        rects = [tuple(float(v) for v in m[:4]) for m in RECT.findall(svg)]
        assert all(m[4] == "3" for m in RECT.findall(svg))  # rounded corners
        faces = read_page(pdf, page, (59, 91), 3.0)[0]
        trims = sorted((round(f["rect"][0] + 3, 2), round(297 - f["rect"][3] + 3, 2),
                        round(f["rect"][2] - f["rect"][0] - 6, 2),
                        round(f["rect"][3] - f["rect"][1] - 6, 2)) for f in faces)
        assert sorted(tuple(round(v, 2) for v in r) for r in rects) == trims
        assert len(rects) == (4 if sheet == 1 else 2)


def test_the_dxf_draws_the_same_cuts_with_arcs_at_the_corners(built):
    svg = built[3.0]["cut/sheet-1.svg"].decode()
    rects = [tuple(float(v) for v in m[:4]) for m in RECT.findall(svg)]
    entities = _dxf(built[3.0]["cut/sheet-1.dxf"].decode("ascii"))
    lines = [e for kind, e in entities if kind == "LINE"]
    arcs = [e for kind, e in entities if kind == "ARC"]
    assert len(lines) == len(arcs) == 4 * len(rects)
    assert all(a["40"] == 3 for a in arcs)
    xs = sorted({round(v, 3) for e in lines for v in (e["10"], e["11"])})
    expected = sorted({round(v, 3) for x, _, w, _ in rects for v in (x, x + 3, x + w - 3,
                                                                     x + w)})
    assert xs == expected
    square = built[0.0]["cut/sheet-1.dxf"].decode("ascii")
    assert "ARC" not in square and 'rx=' not in built[0.0]["cut/sheet-1.svg"].decode()


def _page_rects(pdf, index) -> list[tuple[float, ...]]:
    """Rectangles drawn in the page's own frame (no cm in force): not a card's."""
    from pikepdf import parse_content_stream
    moved, stack, out = False, [], []
    for operands, op in parse_content_stream(pdf.pages[index]):
        op = str(op)
        if op == "q":
            stack.append(moved)
        elif op == "Q":
            moved = stack.pop()
        elif op == "cm" and [float(v) for v in operands] != [1, 0, 0, 1, 0, 0]:
            moved = True
        elif op == "re" and not moved:
            out.append(tuple(round(float(v) / (72 / 25.4), 3) for v in operands))
    return out


def test_registration_marks_on_the_fronts_and_backs_behind_them(built):
    from cardgen.layout.cut_sheet import registration_marks
    files = built[3.0]
    pdf = open_pdf(files["cut.pdf"])
    marks = sorted(tuple(round(v, 3) for v in m) for m in registration_marks((210, 297)))
    for page in (0, 2):  # each fronts page carries the marks, no backs page does
        assert sorted(_page_rects(pdf, page)) == marks
        assert _page_rects(pdf, page + 1) == []
    assert_backs_match_fronts(files["cut.pdf"], files["printshop.pdf"], "a4", "long",
                              (59, 91), 3.0, 6, "x")
