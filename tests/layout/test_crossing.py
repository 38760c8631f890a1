"""The preflight of what a face prints over what (cardgen/layout/crossing.py): it finds the
cases of issue 30 in copies of the packs with their old layouts, and the shipped packs pass.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.layout.card import Box, CardFace
from cardgen.layout.crossing import crossing_problems
from cardgen.layout.faces import FaceBook
from cardgen.model.layout import Region
from cardgen.text.fit import fit
from cardgen.text.fonts import register
from cardgen.units import MM
from conftest import copy_shipped, shipped_data

SHIPPED = ("crazy-hospital", "quartett", "quatridou", "dokter-li", "tischordnung")


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if ": error: " in line]


def test_the_court_k_running_into_its_frame_is_found(cli, tmp_path, monkeypatch):
    """Quartett before issue 30: an 84 pt 'K' in a panel with an inner frame line."""
    pack = copy_shipped(tmp_path, "quartett")
    _replace(pack / "layouts.yaml", "      court_pip:\n", '''      court_frame_inner:
        {type: rect, x: 15.3, y: 12.3, w: 28.4, h: 66.4, radius: 1.4, layer: 4,
         stroke: "{{ group.colour }}", stroke_width: 0.3, when: "card.set in ['B', 'D', 'K']"}
      court_letter:
        {type: text, x: 16, y: 29, w: 27, h: 30, layer: 5, font: serif-bold, size: 84,
         min_size: 40, align: center, valign: middle, colour: "{{ group.colour }}",
         text: "{{ card.set }}", when: "card.set in ['B', 'D', 'K']"}
      court_pip:
''')
    monkeypatch.chdir(tmp_path)
    errors = _errors(cli("check", "quartett"))
    kings = [e for e in errors if "the ink of 'K' crosses the frame of region "
             "court_frame_inner" in e]
    assert len(kings) == 4 and all("(region court_letter)" in e for e in kings), errors
    assert {re.search(r"error: (\w+-K) ", e).group(1) for e in kings} == \
        {"PIK-K", "HERZ-K", "KARO-K", "KREUZ-K"}


def test_a_back_title_over_both_frame_lines_is_found(cli, tmp_path, monkeypatch):
    """Tischordnung before issue 30: a 17 pt title as wide as the inner frame."""
    pack = copy_shipped(tmp_path, "tischordnung")
    _replace(pack / "layouts.yaml", '''        {x: 8, y: 14, w: 43, h: 12, size: 15, font: serif-bold, colour: "#F3E9CF",
         text: "Tischordnung"}''', '''        {y: 14, h: 12, size: 17, font: serif-bold, colour: "#F3E9CF", text: "Tischordnung"}''')
    monkeypatch.chdir(tmp_path)
    assert _errors(cli("check", "tischordnung")) == [
        f"card_data/tischordnung/layouts.yaml:{_line(pack / 'layouts.yaml', '      title:') + 1}:9: "
        "error: tischordnung-back.title text: the ink of 'T' crosses the frame of region inner; "
        "move or shrink one of them"]


def test_a_label_pill_over_the_frame_line_is_found(cli, tmp_path, monkeypatch):
    """Dokter LI before issue 30: the back's pill from one frame line to the other."""
    pack = copy_shipped(tmp_path, "dokter-li")
    _replace(pack / "layouts.yaml",
             '''        {type: rect, x: 9, y: 77.5, w: 41, h: 5.8, radius: 2.9, fill: "#FFFFFF"}''',
             '''        {type: rect, x: 6, y: 78.5, w: 47, h: 6, radius: 3, fill: "#FFFFFF"}''')
    monkeypatch.chdir(tmp_path)
    line = _line(pack / "layouts.yaml", "      pile:") + 1
    assert _errors(cli("check", "dokter-li")) == [
        f"card_data/dokter-li/layouts.yaml:{line}:9: error: categorie-back.pile this filled "
        "shape lies over the frame of region inner and hides part of its line; keep it inside "
        "the frame or outside it"]


def test_a_badge_declared_over_its_medallion_passes_and_undeclared_does_not(cli, tmp_path,
                                                                          monkeypatch):
    pack = copy_shipped(tmp_path, "tischordnung")
    _replace(pack / "layouts.yaml", ", overlaps: [medallion]}", "}")
    monkeypatch.chdir(tmp_path)
    errors = _errors(cli("check", "tischordnung"))
    assert len(errors) == 1 and "gast-front.gender_badge this filled shape lies over the " \
        "frame of region medallion" in errors[0] and "(on all 80 cards" in errors[0]


def _line(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(text))


@pytest.mark.parametrize("pack", SHIPPED)
def test_no_face_of_a_shipped_pack_crosses_anything(pack):
    data = shipped_data(pack)
    book = FaceBook(data)
    found = []
    for kind in data.pack.kinds:
        found += [("back", kind.id, p) for p in crossing_problems(
            book.back(kind.id), book.size, book.layouter.icons)]
    for lc in data.cards:
        found += [(lc.card.id, p) for p in crossing_problems(
            book.front(lc), book.size, book.layouter.icons)]
    assert found == []


# --- the geometry, on faces made by hand ----------------------------------------------------

def _text_box(name: str, x, y, w, h, text: str, size: float, **more) -> Box:
    register("sans")
    region = Region(type="text", x=x, y=y, w=w, h=h, size=size, font="sans", **more)
    box = Box(name, region)
    box.text = fit(text, "sans", size, size, region.leading, w * MM, h * MM)
    assert box.text is not None
    return box


def _rect(name: str, x, y, w, h, stroke=None, fill=None, radius=0.0, **more) -> Box:
    box = Box(name, Region(type="rect", x=x, y=y, w=w, h=h, radius=radius, stroke=stroke,
                           fill=fill, stroke_width=1, **more))
    box.stroke, box.fill = stroke, fill
    return box


def _problems(*boxes) -> list[tuple[str, str]]:
    return crossing_problems(CardFace("X", list(boxes)), (59, 91), {})


def test_text_well_inside_a_frame_passes_and_text_on_its_line_does_not():
    frame = _rect("frame", 5, 5, 49, 30, stroke="#000000")
    assert _problems(frame, _text_box("title", 10, 10, 39, 10, "Inside", 12)) == []
    crossing = _problems(frame, _text_box("title", 3, 10, 30, 10, "Over", 12))
    assert crossing == [("title", "the ink of 'O' crosses the frame of region frame; move or "
                                  "shrink one of them")]


def test_text_near_a_line_reads_as_touching_it():
    frame = _rect("frame", 5, 5, 49, 30, stroke="#000000")
    # the ink of 'I' begins 0.4 mm right of its pen: 0.24 mm from the line's edge
    near = _problems(frame, _text_box("title", 5.0, 10, 20, 10, "I", 12))
    assert [name for name, _ in near] == ["title"]
    # 0.8 mm further in it stands clear
    assert _problems(frame, _text_box("title", 5.8, 10, 20, 10, "I", 12)) == []


def test_a_plate_over_a_pattern_hides_its_crossing():
    pattern = _text_box("pattern", 3, 3, 53, 40, "♦ ♦ ♦ ♦ ♦ ♦ ♦", 30)
    plate = _rect("plate", 10, 10, 39, 20, stroke="#FFFFFF", fill="#000000")
    assert _problems(pattern, plate) == []  # the plate is laid over the pattern on purpose


def test_ink_of_two_regions_running_into_each_other():
    first = _text_box("name", 5, 10, 40, 8, "Hamsteren", 16)
    second = _text_box("title", 5, 12, 40, 8, "Hamsteren", 16)
    problems = _problems(first, second)
    assert len(problems) == 1 and problems[0][0] == "title" and \
        "runs into the ink of" in problems[0][1] and "of region name" in problems[0][1]
    assert _problems(first, _text_box("title", 5, 25, 40, 8, "Hamsteren", 16)) == []


def test_a_region_may_declare_what_it_lies_over():
    frame = _rect("medallion", 10, 10, 30, 30, stroke="#000000", radius=15)
    badge = _rect("badge", 32, 32, 10, 10, fill="#FF0000", radius=5)
    assert [name for name, _ in _problems(frame, badge)] == ["badge"]
    badge.region = badge.region.model_copy(update={"overlaps": ["medallion"]})
    assert _problems(frame, badge) == []


class _Eager:
    """An outline whose box says nothing: the frame must measure every point of it."""

    def __init__(self, outline):
        self.box, self.points = (-1e9, -1e9, 1e9, 1e9), outline.points


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_the_outline_box_decides_only_what_the_points_would(rotate):
    """The preflight places a glyph's outline points only when its box is near a line, and a
    region's glyphs only when its ink_bound is; swept across a rounded frame, a level line and
    an upright one, it finds what measuring every point finds, every placed point lies in its
    glyph's box, and every glyph's box in the region's bound."""
    from cardgen.layout.crossing import _frame, _glyphs, _inked
    from cardgen.text.typeset import ink_bound, run_outlines
    lines = [Box(name, Region(type="line", x=x, y=y, w=w, h=h, stroke="#000000",
                              stroke_width=1)) for name, x, y, w, h in
             (("rule", 5, 40, 50, 0), ("post", 30, 5, 0, 80))]
    for line in lines:
        line.stroke = "#000000"
    frames = [_frame(b, 91) for b in
              (_rect("ring", 10, 20, 30, 30, stroke="#000000", radius=12), *lines)]
    assert None not in frames
    seen, cleared = set(), set()
    for step in range(60):
        x, y = 2 + step * 0.7, 14 + (step % 9) * 3.1
        box = _text_box("t", x, y, 16, 12, "♣Ag", 14, rotate=rotate)
        glyphs = _glyphs(box, 91, {})
        bound = ink_bound(box, 91, {})
        for char, ink, outline in glyphs:
            assert all(bound[0] <= r[0] and bound[1] <= r[1] and r[2] <= bound[2] and
                       r[3] <= bound[3] for r in (ink, outline.box if outline else ink))
            if outline is None:
                continue
            x0, y0, x1, y1 = outline.box
            assert all(x0 <= px <= x1 and y0 <= py <= y1 for px, py in outline.points)
            for frame in frames:
                lazy = frame.crosses(ink, outline)
                assert lazy == frame.crosses(ink, _Eager(outline)), (char, x, y, frame.rect)
                seen.add(lazy)
        for frame in frames:  # a region passed over at once crosses nothing, point by point
            clear = frame.clear_of(bound)
            cleared.add(clear)
            assert not clear or not any(frame.crosses(ink, _Eager(o) if o else None)
                                        for _, ink, o in glyphs), (x, y, frame.rect)
        for run_bound, placed in run_outlines(box, 91, {}):  # and so does a run passed over
            run_glyphs = _inked(placed())
            assert all(run_bound[0] <= r[0] and run_bound[1] <= r[1] and r[2] <= run_bound[2]
                       and r[3] <= run_bound[3] for _, ink, o in run_glyphs
                       for r in (ink, o.box if o else ink))
            for frame in frames:
                clear = frame.clear_of(run_bound)
                assert not clear or not any(frame.crosses(ink, _Eager(o) if o else None)
                                            for _, ink, o in run_glyphs), (x, y, frame.rect)
    assert seen == {True, False} and cleared == {True, False}  # met lines and missed them


def test_a_glyph_wider_than_a_small_ring_crosses_it_only_where_it_lies_over_it():
    """A ring smaller than a glyph: the glyph crosses it when laid over it (no point of its
    outline need touch the line), not when the ring is elsewhere on the card."""
    from cardgen.layout.crossing import _Frame, _glyphs
    [(char, ink, outline)] = _glyphs(_text_box("w", 4, 8, 30, 20, "W", 40), 91, {})
    cx, cy = (ink[0] + ink[2]) / 2, (ink[1] + ink[3]) / 2
    over = _Frame((cx - 1, cy - 1, cx + 1, cy + 1), 0.5, 1.0, False)
    far = _Frame((cx + 60, cy - 1, cx + 62, cy + 1), 0.5, 1.0, False)
    assert over.crosses(ink, outline) and over.crosses(ink, None)
    assert not far.crosses(ink, outline) and not far.crosses(ink, None)
    assert far.clear_of(ink) and not over.clear_of(ink)
