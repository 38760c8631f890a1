"""cardgen.validate.cards: the checks of each card against its kind — its ID, its groups, its
fields, its stats within their categories, its texts' length — each one error at the card."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.load.pack import load_pack
from cardgen.text.templates import MAX_TEXT
from cardgen.validate.cards import check_cards, number, sub_values


def checked(make_pack, tmp_path, file="heroes.yaml", *edits):
    pack = make_pack(tmp_path)
    path = pack / "cards" / file
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    report = Report()
    data = load_pack(pack, report)
    assert data is not None and not report.errors, [d.format() for d in report.items]
    check_cards(data, report)
    return data, [(d.line, d.subject, d.message) for d in report.items]


def test_the_mini_pack_passes(make_pack, tmp_path):
    assert checked(make_pack, tmp_path)[1] == []


def test_stats_a_kind_carries_and_a_stat_as_one_number(make_pack, tmp_path):
    data, _ = checked(make_pack, tmp_path)
    assert set(sub_values(data, "K")) == {"alter", "alter_pos", "erf_ges", "erf_pos",
                                          "fachwissen"}
    assert "gehalt" in sub_values(data, "hero") and sub_values(data, "nobody") == {}
    ann = next(lc for lc in data.cards if lc.card.id == "A1")
    assert number(ann, "fachwissen") == 2  # a level counts by its level
    assert number(ann, "alter") == 60 and number(ann, "nothing") is None


def test_an_id_that_does_not_fit_its_kind(make_pack, tmp_path):
    _, found = checked(make_pack, tmp_path, "heroes.yaml", ("id: A2", "id: C2"))
    assert found == [(18, "C2", "id: 'C2' does not match the Hero pattern ^[AB][1-4]$")]


def test_a_group_the_pack_does_not_have_names_the_one_meant(make_pack, tmp_path):
    _, found = checked(make_pack, tmp_path, "heroes.yaml", ("group: blue", "group: bleu"))
    assert [(s, m) for _, s, m in found] == [("A2", "group: unknown group 'bleu' (did you mean "
                                                    "'blue'?)")]


def test_a_field_the_kind_does_not_declare_and_one_it_requires(make_pack, tmp_path):
    _, found = checked(make_pack, tmp_path, "consultants.yaml",
                       ("    specialty: Dermatology\n", "    specialty: Dermatology\n"
                                                          "    specialy: Skin\n"))
    assert [(s, m) for _, s, m in found] == [
        ("L1", "unknown key 'specialy' (did you mean 'specialty'?)")]
    _, found = checked(make_pack, tmp_path / "2", "consultants.yaml",
                       ("    specialty: Dermatology\n", ""))
    assert found == [(3, "L1", "specialty: required for every Consultant, missing")]


@pytest.mark.parametrize("old, new, message", [
    ("krank: 4", "krank: 61", "krank: 61 is above the maximum 60"),
    ("krank: 4", "krank: 4.5", "krank: 4.5 must be a whole number"),
    ("stundenlohn: 300.0", "stundenlohn: 300.25", "stundenlohn: 300.25 has more than 1 "
                                                  "decimal places"),
    ("fachwissen: [2, 60]", "fachwissen: [2, 80]", "fachwissen: detail 80 is outside the "
                                                   "band of level 2 (50–74)"),
    ("fachwissen: [2, 60]", "fachwissen: 2", "fachwissen: 2 must be [level, detail], "
                                             "e.g. [2, 63]"),
    ("      krank: 4\n", "", "stats.krank: missing (Sick days)"),
])
def test_a_stat_outside_its_category(make_pack, tmp_path, old, new, message):
    _, found = checked(make_pack, tmp_path, "heroes.yaml", (old, new))
    assert [(s, m) for _, s, m in found if s == "A1"] == [("A1", message)]


def test_a_text_longer_than_any_region_may_show_is_said_at_the_field(make_pack, tmp_path):
    long = "x" * (MAX_TEXT + 1)
    _, found = checked(make_pack, tmp_path, "heroes.yaml",
                       ("    name: Ann\n", f"    name: Ann\n    quote: {long}\n"))
    assert found == [(5, "A1", f"quote: {MAX_TEXT + 1} characters; a card text may have at "
                               f"most {MAX_TEXT}")]
