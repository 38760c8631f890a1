"""cardgen.validate.coverage: what a card kind carries for the game is printed on its cards —
which fields a layout shows (by text, picture, colour or `when`), and which a kind must show."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.load.pack import load_pack
from cardgen.validate.coverage import check_coverage, printed_fields, wanted_fields

PROBE = """\
layouts:
  probe:
    extends: simple-back
    regions:
      one_text: {type: text, x: 5, y: 5, w: 40, h: 5, text: "{{ card.texts.rule }}"}
      texts: {type: text, x: 5, y: 11, w: 40, h: 5, text: "{{ card.texts }}"}
      shown_when: {type: rect, x: 5, y: 17, w: 5, h: 5, when: "card.points is not none"}
      tinted: {type: rect, x: 5, y: 23, w: 5, h: 5,
               fill: "{{ '#FF0000' if card.motto else '#000000' }}"}
      asked: {type: rect, x: 5, y: 29, w: 5, h: 5, when: "'versie' in card"}
      grouped: {type: rect, x: 5, y: 35, w: 5, h: 5, fill: "{{ group.colour }}"}
      face: {type: portrait, x: 5, y: 41, w: 20, h: 20, portrait_gender: "{{ card.gender }}"}
      table: {type: stats, x: 5, y: 62, w: 40, h: 20}
      art: {type: image, x: 30, y: 41, w: 20, h: 20, image: "images/{{ card.set }}.png"}
"""


def loaded(make_pack, tmp_path, files=None, pack_edits=()):
    pack = make_pack(tmp_path, files)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    for old, new in pack_edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    report = Report()
    data = load_pack(pack, report)
    assert data is not None and not report.errors, [d.format() for d in report.items]
    return data


def test_a_field_counts_as_printed_when_it_decides_what_shows(make_pack, tmp_path):
    data = loaded(make_pack, tmp_path, {"layouts.yaml": PROBE})
    assert printed_fields(data, ["probe"]) == {
        "texts.rule", "texts", "points", "motto", "versie", "group", "gender", "image",
        "stats", "set"}


def test_the_mini_pack_prints_what_its_kinds_carry(make_pack, tmp_path):
    data = loaded(make_pack, tmp_path)
    report = Report()
    check_coverage(data, report)
    assert report.items == []
    assert {"name", "stats", "specialty"} <= printed_fields(data, ["mini-consultant",
                                                                   "mini-back"])


def test_what_a_kind_must_show_and_how_sure(make_pack, tmp_path):
    data = loaded(make_pack, tmp_path, pack_edits=[
        ("    front: stat-card\n", "    front: stat-card\n    texts: [rule]\n"
                                   "    fields:\n      motto: {label: Motto}\n")])
    hero = data.kind("hero")
    wanted = {name: severity for name, severity, _ in wanted_fields(data, hero)}
    # motto is declared but no hero carries one: nothing to print
    assert wanted == {"texts.rule": "error", "stats": "warning"}
    consultant = {name: severity for name, severity, _ in wanted_fields(data, data.kind("K"))}
    assert consultant == {"specialty": "warning", "stats": "warning"}


@pytest.mark.parametrize("not_printed, says", [
    (None, ("error", "texts.rule: no region of stat-card or mini-back prints it, but every "
            "card of the kind needs this text; print it in a region, or list it under "
            "not_printed with the reason")),
    ("      texts.rule: read aloud from the rulebook\n", None),
])
def test_a_text_no_region_prints_is_an_error_unless_left_off_on_purpose(make_pack, tmp_path,
                                                                       not_printed, says):
    extra = "    texts: [rule]\n" + (f"    not_printed:\n{not_printed}" if not_printed else "")
    data = loaded(make_pack, tmp_path, pack_edits=[("    front: stat-card\n",
                                                    "    front: stat-card\n" + extra)])
    report = Report()
    check_coverage(data, report)
    found = [(d.severity, d.message) for d in report.items]
    assert found == ([says] if says else [])
