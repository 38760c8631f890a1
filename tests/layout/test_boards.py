"""Boards: boards.yaml → boards.pdf (whole or tiled), with diagnostics at file:line:col."""

from __future__ import annotations

import io
import itertools
import textwrap
from pathlib import Path

import pypdf
import pytest

from cardgen.diagnostics import Report
from cardgen.layout.board_paper import OVERLAP, TILE_MARGIN, plan_pages
from cardgen.layout.sheet import PAPER
from cardgen.load.pack import load_pack
from cardgen.render.boards import boards_pdf
from cardgen.layout.boards_preflight import check_boards

ROOT = Path(__file__).resolve().parents[2]
HOSPITAL = ROOT / "card_data" / "crazy-hospital"
PT = 72 / 25.4
PLAYER_COLOURS = ["Schwarz", "Orange", "Himmelblau", "Blaugrün", "Gelb", "Blau", "Zinnoberrot",
                  "Purpur"]


def build(folder: Path, paper: str = "a4"):
    report = Report()
    data = load_pack(folder, report)
    assert data is not None, [d.format() for d in report.items]
    return boards_pdf(data, report, paper), report, data


def pages(pdf: bytes) -> list[tuple[float, float]]:
    """Page sizes in mm, rounded to 0.1 mm."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [(round(float(p.mediabox.width) / PT, 1), round(float(p.mediabox.height) / PT, 1))
            for p in reader.pages]


def text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def errors(report: Report) -> list[str]:
    return [d.format() for d in report.errors]


@pytest.fixture(scope="module")
def hospital_a4():
    return build(HOSPITAL, "a4")


# --- the crazy-hospital boards -------------------------------------------------------------------

def test_hospital_boards_on_a4_are_tiled_a4_pages(hospital_a4):
    pdf, report, data = hospital_a4
    assert errors(report) == []
    assert pdf is not None and pdf.startswith(b"%PDF")
    sizes = pages(pdf)
    # The Office (420 x 297 mm) needs 2 x 2 landscape A4 sheets, the Mix It sheet and the token
    # sheet one A4 page each.
    assert len(sizes) == 6
    assert all(sorted(s) == [210.0, 297.0] for s in sizes)
    assert sizes[:4] == [(297.0, 210.0)] * 4 and sizes[4:] == [(210.0, 297.0)] * 2
    assert HOSPITAL / "boards.yaml" in data.inputs
    assert b"/PrintScaling /None" in pdf


def test_hospital_boards_text_has_titles_and_player_labels(hospital_a4):
    pdf, _, _ = hospital_a4
    content = text(pdf)
    for title in ("The Office", "Mix It – Wertungsblatt", "Challengefeld", "Gegenspielerleiste",
                  "Spielsteine", "Abteilungsbuttons"):
        assert title in content
    for name in PLAYER_COLOURS:
        assert name in content
    for label in ("A1", "A2", "B1", "B2"):  # tile names in the margins
        assert label in content
    # department names come from the pack's groups, not from the board file
    for label in ("Oktett Innere", "Oktett Reha", "Oktett Orthopädie", "Oktett Anästhesie"):
        assert label in content


def test_hospital_boards_on_a3_print_the_office_whole():
    pdf, report, _ = build(HOSPITAL, "a3")
    assert errors(report) == []
    sizes = pages(pdf)
    assert sizes == [(420.0, 297.0), (297.0, 420.0), (297.0, 420.0)]  # the office whole; A4
    # sheets centred
    assert "The Office" in text(pdf) and "A1" not in text(pdf).split()


def test_hospital_boards_on_letter_tile_the_office_and_shrink_the_score_sheet():
    pdf, report, _ = build(HOSPITAL, "letter")
    assert errors(report) == []
    sizes = pages(pdf)
    assert sizes == [(279.4, 215.9)] * 4 + [(215.9, 279.4)] * 2  # A4 sheets shrunk onto 1 page


@pytest.mark.parametrize("pack, expected", [
    ("tischordnung", {"a4": 6 + 4 + 1, "a3": 6 + 1 + 1, "letter": 6 + 4 + 1}),
    ("quatridou", {"a4": 2, "a3": 2, "letter": 2}),
])
def test_the_other_packs_boards_build(pack, expected):
    for paper, count in expected.items():
        pdf, report, _ = build(ROOT / "card_data" / pack, paper)
        assert errors(report) == [], paper
        assert len(pages(pdf)) == count, paper


def test_boards_pdf_is_reproducible(hospital_a4):
    pdf, _, _ = hospital_a4
    again, report, _ = build(HOSPITAL, "a4")
    assert errors(report) == []
    assert again == pdf


# --- paper plans ---------------------------------------------------------------------------------

def test_a_board_larger_than_a4_is_tiled_with_overlap():
    plan = plan_pages((420, 297), PAPER["a4"])
    assert plan.tiled and len(plan.tiles) >= 2
    assert plan.page == (297, 210)  # landscape sheets: 4 instead of 6 portrait ones
    tiles = {(t.row, t.col): t for t in plan.tiles}
    for (row, col), tile in tiles.items():
        # each window fits on the paper inside the margin, where marks and labels go
        assert tile.w <= plan.page[0] - 2 * TILE_MARGIN + 1e-9
        assert tile.h <= plan.page[1] - 2 * TILE_MARGIN + 1e-9
        if (row, col + 1) in tiles:
            right = tiles[(row, col + 1)]
            assert tile.x + tile.w - right.x == pytest.approx(OVERLAP)
        if (row + 1, col) in tiles:
            below = tiles[(row + 1, col)]
            assert tile.y + tile.h - below.y == pytest.approx(OVERLAP)
    # together the windows cover the board exactly, from edge to edge
    assert min(t.x for t in plan.tiles) == 0 and min(t.y for t in plan.tiles) == 0
    assert max(t.x + t.w for t in plan.tiles) == pytest.approx(420)
    assert max(t.y + t.h for t in plan.tiles) == pytest.approx(297)
    assert [t.label for t in plan.tiles] == ["A1", "A2", "B1", "B2"]


@pytest.mark.parametrize("board", [(300, 200), (420, 297), (594, 420), (900, 120), (120, 900),
                                   (1000, 1000)])
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_tiles_cover_any_board_with_exact_overlap(board, paper):
    plan = plan_pages(board, PAPER[paper])
    page_w, page_h = plan.page
    if not plan.tiled:
        assert board[0] <= page_w + 1e-9 and board[1] <= page_h + 1e-9
        assert plan.origin == (pytest.approx((page_w - board[0]) / 2),
                               pytest.approx((page_h - board[1]) / 2))
        return
    assert len(plan.tiles) == plan.rows * plan.cols >= 2
    for a, b in itertools.combinations(plan.tiles, 2):
        if a.row == b.row and b.col == a.col + 1:
            assert a.x + a.w - b.x == pytest.approx(OVERLAP)
        if a.col == b.col and b.row == a.row + 1:
            assert a.y + a.h - b.y == pytest.approx(OVERLAP)
    assert max(t.x + t.w for t in plan.tiles) == pytest.approx(board[0])
    assert max(t.y + t.h for t in plan.tiles) == pytest.approx(board[1])
    assert all(t.w <= page_w - 2 * TILE_MARGIN + 1e-9 and t.h <= page_h - 2 * TILE_MARGIN + 1e-9
               for t in plan.tiles)


def test_a_shrinkable_board_goes_on_one_sheet():
    plan = plan_pages((210, 297), PAPER["letter"], shrink=True)
    assert not plan.tiled and len(plan.tiles) == 1 and plan.page == (215.9, 279.4)
    assert plan.scale == pytest.approx(279.4 / 297)
    assert plan.origin[1] == pytest.approx(0) and plan.origin[0] > 0
    assert plan_pages((210, 297), PAPER["letter"]).tiled  # at full size it needs 2 sheets


def test_a_board_that_fits_is_centred_and_turned():
    plan = plan_pages((200, 150), PAPER["a4"])
    assert not plan.tiled and plan.page == (297, 210)
    assert plan.origin == (pytest.approx(48.5), pytest.approx(30))
    plan = plan_pages((210, 297), PAPER["a4"])
    assert not plan.tiled and plan.page == (210, 297) and plan.origin == (0, 0)


# --- a small pack of our own -------------------------------------------------------------------

PACK = """\
id: mini
title: Mini
language: de
groups:
  - {id: rot, label: Rot, colour: "#CC2222", symbol: "♥"}
  - {id: blau, label: Blau, colour: "#2244CC", symbol: "♦"}
kinds:
  - {id: c, label: Karte, id_pattern: "^C[0-9]$", front: simple-back, back: simple-back}
"""

CARDS = """\
kind: c
cards:
  - {id: C1, name: Eins, set: Paar, group: rot}
  - {id: C2, name: Zwei, set: Paar, group: rot}
  - {id: C3, name: Drei, set: Solo, group: blau}
"""


def mini_pack(tmp_path: Path, boards: str) -> Path:
    folder = tmp_path / "mini"
    (folder / "cards").mkdir(parents=True)
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    (folder / "cards" / "c.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "boards.yaml").write_text(textwrap.dedent(boards), encoding="utf-8")
    return folder


def plan(regions: str) -> str:
    """boards.yaml of one board, 'plan' (200 x 100 mm), holding these regions (YAML text
    whose own indentation is removed)."""
    return ("boards:\n  plan:\n    title: Plan\n    size: {width: 200, height: 100}\n"
            "    regions:\n" + textwrap.indent(textwrap.dedent(regions), "      "))


def line_of(folder: Path, needle: str) -> int:
    lines = (folder / "boards.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


def test_a_jinja_typo_in_a_board_region_is_a_diagnostic_with_file_and_line(tmp_path):
    folder = mini_pack(tmp_path, plan("""\
              ok:
                {type: text, x: 10, y: 10, w: 80, h: 10, text: "{{ pack.title }}"}
              typo:
                {type: text, x: 10, y: 30, w: 80, h: 10, text: "{{ labels.nosuch }}"}
              places:
                type: repeat
                x: 10
                y: 50
                dx: 30
                count: 3
                regions:
                  broken:
                    {type: text, w: 20, h: 10, text: "{{ index }"}
        """))
    pdf, report, data = build(folder)
    assert pdf is None
    found = sorted(set(errors(report)))
    assert len(found) == 2, found
    again = Report()
    assert check_boards(data, again) is False  # the same problems, without making a PDF
    assert sorted(set(errors(again))) == found
    typo = next(d for d in report.errors if "nosuch" in d.message)
    assert typo.file.endswith("boards.yaml")
    assert typo.line == line_of(folder, "labels.nosuch") and typo.col > 1
    assert typo.subject == "plan.typo" and "board plan" in typo.message
    broken = next(d for d in report.errors if "template error" in d.message)
    assert broken.line == line_of(folder, "{{ index }") and broken.subject == "plan.places/broken"


def test_model_errors_in_boards_yaml_point_at_the_key(tmp_path):
    folder = mini_pack(tmp_path, plan("""\
              place:
                {type: slot, x: 10, y: 10, colour: "#00000"}
              table:
                {type: table, x: 10, y: 10, w: 100, h: 50, colums: [a, b]}
        """))
    pdf, report, _ = build(folder)
    assert pdf is None
    found = errors(report)
    assert any(f"boards.yaml:{line_of(folder, '#00000')}:" in e and "#RRGGBB" in e
               for e in found), found
    assert any(f"boards.yaml:{line_of(folder, 'colums')}:" in e and "did you mean 'columns'" in e
               for e in found), found


def test_text_that_does_not_fit_or_has_no_glyph_is_reported(tmp_path):
    folder = mini_pack(tmp_path, """\
        boards:
          plan:
            title: Plan
            size: a4
            regions:
              long:
                {type: text, x: 10, y: 10, w: 10, h: 4, size: 9, text: "Viel zu langer Text für dieses Kästchen"}
              emoji:
                {type: text, x: 10, y: 30, w: 80, h: 10, text: "Prost 🍷"}
        """)
    pdf, report, _ = build(folder)
    assert pdf is None
    found = errors(report)
    assert any(f":{line_of(folder, 'Viel zu')}:" in e and "does not fit" in e for e in found)
    assert any(f":{line_of(folder, 'Prost')}:" in e and "U+1F377" in e for e in found)


def test_a_region_past_the_board_edge_is_an_error_at_the_region(tmp_path):
    """Text, a writing field or a slot past the edge would be cut off at the page's edge; a
    repeat's items that run off are one diagnostic at the repeated region. A background may
    run off on purpose (printed to the edge)."""
    folder = mini_pack(tmp_path, plan("""\
              fits:
                {type: text, x: 10, y: 10, w: 190, h: 10, text: "{{ pack.title }}"}
              wide:
                {type: text, x: 150, y: 20, w: 60, h: 10, text: "{{ pack.title }}"}
              background:
                {type: rect, x: -3, y: -3, w: 206, h: 106, fill: "#EEEEEE"}
              row:
                type: repeat
                x: 10
                y: 80
                dy: 10
                count: 3
                regions:
                  field:
                    {type: slot, w: 20, h: 8}
        """))
    pdf, report, _ = build(folder)
    assert pdf is None
    found = errors(report)
    assert len(found) == 2, found
    assert any(f"boards.yaml:{line_of(folder, 'w: 60')}:" in e and "plan.wide reaches past the "
               "board's edge (x 150–210 mm on a board 200 mm wide)" in e for e in found), found
    assert any(f"boards.yaml:{line_of(folder, 'type: slot, w: 20')}:" in e and
               "y 100–108 mm on a board 100 mm high" in e for e in found), found


def test_repeat_items_index_sets_and_groups(tmp_path):
    folder = mini_pack(tmp_path, """\
        boards:
          sheet:
            title: Übersicht
            size: a4
            regions:
              bar:
                type: repeat
                x: 10
                y: 10
                dx: 12
                wrap: 5
                dy: 15
                items: [+3, +2, +1, 0, -1, -2]
                regions:
                  value: {type: text, w: 11, h: 8, text: "P{{ index }}={{ item }}"}
              contents:
                type: repeat
                x: 10
                y: 60
                dy: 20
                items: sets
                regions:
                  name: {type: text, w: 60, h: 8, fill: "{{ item.group.colour }}",
                         text: "{{ item.id }} ({{ item.size }}): {{ item.cards | map(attribute='name') | join(', ') }}"}
                  cards:
                    type: repeat
                    x: 70
                    dx: 20
                    items: "item.cards"
                    regions:
                      tag: {type: text, w: 18, h: 8, text: "{{ parent.index }}.{{ index }} {{ item.id }}"}
              legend:
                type: repeat
                x: 10
                y: 120
                dx: 40
                items: groups
                when: "groups | length == 2"
                regions:
                  swatch: {type: ellipse, w: 10, h: 10, fill: "{{ item.colour }}"}
                  label: {type: text, x: 12, w: 25, h: 10, text: "{{ item.symbol }} {{ item.label }}"}
        """)
    pdf, report, _ = build(folder)
    assert errors(report) == []
    content = text(pdf)
    for expected in ("P1=3", "P3=1", "P6=−2", "Paar (2): Eins, Zwei", "Solo (1): Drei",
                     "1.1 C1", "1.2 C2", "2.1 C3", "♥ Rot", "♦ Blau"):
        assert expected in content, expected
    assert pages(pdf) == [(210.0, 297.0)]


def test_a_large_board_becomes_several_sheets_with_marks(tmp_path):
    folder = mini_pack(tmp_path, """\
        boards:
          big:
            title: Riesenplan
            size: {width: 500, height: 300}
            regions:
              frame: {type: rect, x: 5, y: 5, w: 490, h: 290, stroke: "#000000"}
              places:
                type: repeat
                x: 20
                y: 20
                dx: 70
                count: 6
                regions:
                  place: {type: slot, text: "{{ index }}"}
              cutline: {type: cut, x: 20, y: 200, w: 300, h: 0}
              table:
                type: table
                x: 20
                y: 220
                w: 300
                h: 60
                columns: [{text: Runde, w: 40}, Anna, Ben]
                rows: [Runde 1, Runde 2, {text: Summe, strong: true}]
          small:
            title: Klein
            size: {width: 100, height: 100}
            copies: 2
            regions:
              t: {type: text, x: 10, y: 10, w: 80, h: 10, text: "Tisch {{ copy }}"}
        """)
    pdf, report, _ = build(folder)
    assert errors(report) == []
    sizes = pages(pdf)
    assert len(sizes) == 4 + 2  # 500 x 300 on A4: 2 x 2 landscape sheets; then 2 copies
    content = text(pdf)
    assert all(label in content for label in ("A1", "A2", "B1", "B2"))
    assert "Klebefläche" in content and "✂" in content
    assert "Tisch 1" in content and "Tisch 2" in content
    assert "Runde 2" in content and "Summe" in content


def test_no_boards_yaml_means_no_boards_pdf(tmp_path):
    folder = mini_pack(tmp_path, "boards: {}\n")
    (folder / "boards.yaml").unlink()
    pdf, report, data = build(folder)
    assert pdf is None and report.items == []
    assert check_boards(data, report) is True and report.items == []
    assert not any(p.name == "boards.yaml" for p in data.inputs)
