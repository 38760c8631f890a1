"""cardgen.layout.board: boards.yaml laid out as boxes — every copy of every board, in the file's
order, its templates seeing the pack's data as plain values and the copy it is."""

from __future__ import annotations

import textwrap

import pytest

from cardgen.diagnostics import Report
from cardgen.layout.board import board_context, lay_out_boards
from cardgen.load.pack import load_pack, read_model
from cardgen.model.board import BoardFile

BOARDS = """\
boards:
  tables:
    title: "Tisch {{ copy }} von {{ board.copies }}"
    size: {width: 120, height: 80}
    copies: 3
    regions:
      name: {type: text, x: 5, y: 5, w: 110, h: 10, text: "{{ board.title }}"}
      heroes:
        {type: text, x: 5, y: 20, w: 110, h: 10,
         text: "{{ kinds_by_id.hero.count }} {{ kinds_by_id.hero.label }}"}
  sheet:
    title: Sets
    size: a4
    regions:
      sets:
        type: repeat
        x: 10
        y: 10
        dy: 12
        items: sets
        regions:
          line: {type: text, w: 100, h: 10, text: "{{ item.id }}: {{ item.size }}"}
"""


@pytest.fixture
def mini(make_pack, tmp_path):
    pack = make_pack(tmp_path, {"boards.yaml": BOARDS})
    report = Report()
    data = load_pack(pack, report)
    assert data is not None and not report.errors
    return data


def laid_out(data):
    report = Report()
    boards, raw = read_model(data.folder / "boards.yaml", BoardFile, report)
    laid = lay_out_boards(data, report, boards, raw, "boards.yaml")
    return laid, report


def texts(board) -> list[str]:
    return ["".join(t for line in box.text.lines for _, t in line.runs)
            for box in board.face.boxes if box.text is not None]


def test_every_copy_of_every_board_in_the_files_order(mini):
    laid, report = laid_out(mini)
    assert not report.items, [d.format() for d in report.items]
    assert [(b.name, b.copy) for b in laid] == [("tables", 1), ("tables", 2), ("tables", 3),
                                                ("sheet", 1)]
    assert [b.title for b in laid[:3]] == ["Tisch 1 von 3", "Tisch 2 von 3", "Tisch 3 von 3"]
    assert laid[0].size == (120, 80) and laid[3].size == (210.0, 297.0)
    assert texts(laid[1]) == ["Tisch 2 von 3", "3 Hero"]


def test_a_repeat_over_the_sets_lays_out_one_line_each(mini):
    laid, _ = laid_out(mini)
    assert texts(laid[3]) == ["A: 2", "B: 1"]
    tops = [box.region.y for box in laid[3].face.boxes if box.text is not None]
    assert tops == [10, 22]


def test_the_context_is_the_packs_data_as_plain_values(mini):
    context = board_context(mini)
    assert [k["id"] for k in context["kinds"]] == ["hero", "K"]
    assert context["kinds_by_id"]["K"] == {"id": "K", "label": "Consultant", "plural": "",
                                           "short_plural": "", "short": "Consultant",
                                           "count": 1}
    assert [(s["kind"], s["id"], s["size"]) for s in context["sets"]] == [("hero", "A", 2),
                                                                          ("hero", "B", 1)]
    ann = next(c for c in context["cards"] if c["id"] == "A1")
    assert ann["kind"] == "hero" and ann["group_info"]["label"] == "Red"
    assert context["groups_by_id"]["blue"]["colour"] == "#3A6FC4"
    assert type(context["groups"][0]) is dict


def test_a_typo_in_a_title_is_an_error_at_the_board(make_pack, tmp_path):
    pack = make_pack(tmp_path, {"boards.yaml": textwrap.dedent("""\
        boards:
          plan:
            title: "{{ board.nmae }}"
            size: {width: 100, height: 100}
        """)})
    data = load_pack(pack, Report())
    laid, report = laid_out(data)
    assert len(report.errors) == 1 and report.errors[0].line == 3
    assert "nmae" in report.errors[0].message
