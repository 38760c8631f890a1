"""Preflight on glyph outlines and type sizes: what a cut or a printer can spoil."""

from __future__ import annotations

import io

import pikepdf

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.diagnostics import Report
from cardgen.text.fonts import face_name, glyph_box
from conftest import shipped_data


def test_glyph_outline_is_not_the_advance_box():
    j = glyph_box("J", face_name("sans-bold"))
    assert j is not None and j[0] < 0 < j[2]   # the J's hook starts left of its pen
    g = glyph_box("g", face_name("condensed"))
    assert g[1] < 0                             # a descender reaches below the baseline
    assert glyph_box(" ", face_name("sans")) is None


def test_every_type_size_on_the_flagship_cards_is_at_least_the_minimum():
    """The stat arrows ▲▼ printed at 80 % of the values' size (5.4 pt); now never below 6."""
    report = Report()
    data = shipped_data("crazy-hospital")
    data.cards = data.cards[:3]
    result = render_pack(data, report, BuildSettings(only=("printshop",)))
    assert not report.errors
    pdf = pikepdf.open(io.BytesIO(result.files["printshop.pdf"]))
    sizes = [float(operands[1]) for operands, op in pikepdf.parse_content_stream(pdf.pages[0])
             if str(op) == "Tf"]
    assert len(sizes) > 30 and min(sizes) >= data.pack.print.min_font_size
    assert 6.0 in sizes  # the arrows, at the minimum


def test_check_finds_an_outline_in_the_safe_zone(tmp_path, cli, make_pack):
    folder = make_pack(tmp_path)
    layouts = folder / "layouts.yaml"
    motto = ('      motto:\n        {type: text, x: 4.4, y: 60, w: 40, h: 8, layer: 5, '
             'font: sans-bold, size: 14, text: "Jetzt"}\n')
    text = layouts.read_text(encoding="utf-8")
    # without the back's frames: a text 0.4 mm inside the safe zone is also on the frame's
    # line, which the crossing preflight says (tests/layout/test_crossing.py)
    frames = "      frame: null\n      inner: null\n"
    layouts.write_text(text.replace('        fill: "#7A2E5A"\n',
                                    '        fill: "#7A2E5A"\n' + frames + motto, 1),
                       encoding="utf-8")
    assert "motto" in layouts.read_text(encoding="utf-8")
    assert cli("check", "--data", folder.parent).exit_code == 0  # 0.4 mm in: the J fits
    layouts.write_text(layouts.read_text(encoding="utf-8").replace("x: 4.4", "x: 4.2"),
                       encoding="utf-8")
    result = cli("check", "--data", folder.parent)
    assert result.exit_code == 1
    assert "the outline of 'J' reaches 3.92 mm from the trim" in result.output
    # a region that starts left of the card: its text is off the card, and says so
    layouts.write_text(layouts.read_text(encoding="utf-8").replace("x: 4.2", "x: -3"),
                       encoding="utf-8")
    result = cli("check", "--data", folder.parent)
    assert result.exit_code == 1
    assert "mm past the trim, off the card; move the region inwards" in result.output
