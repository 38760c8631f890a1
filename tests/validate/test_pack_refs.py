"""cardgen.validate.pack: what pack.yaml names must exist — layouts, kinds, stats — and what it
declares must be possible (a pattern that compiles, a range that admits a value), each problem
one error at its line in pack.yaml."""

from __future__ import annotations

from cardgen.diagnostics import Report
from cardgen.load.pack import load_pack
from cardgen.validate.pack import check_pack_refs


def problems(make_pack, tmp_path, *edits) -> list[tuple[int, str, str]]:
    pack = make_pack(tmp_path)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    report = Report()
    data = load_pack(pack, report)
    assert data is not None and not report.errors, [d.format() for d in report.items]
    check_pack_refs(data, report)
    return [(d.line, d.subject, d.message) for d in report.errors]


def line_of(make_pack, tmp_path, needle: str) -> int:
    lines = (tmp_path / "card_data" / "mini" / "pack.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_the_mini_pack_names_only_what_exists(make_pack, tmp_path):
    assert problems(make_pack, tmp_path) == []


def test_an_unknown_layout_names_the_layout_meant(make_pack, tmp_path):
    found = problems(make_pack, tmp_path, ("back: mini-back", "back: mini-bak"))
    assert found == [(line_of(make_pack, tmp_path, "back: mini-bak"), "hero",
                      "back: unknown layout 'mini-bak' (did you mean 'mini-back'?)")]


def test_an_id_pattern_that_is_no_regular_expression(make_pack, tmp_path):
    found = problems(make_pack, tmp_path, ('id_pattern: "^[AB][1-4]$"', 'id_pattern: "^[AB"'))
    assert len(found) == 1 and found[0][1] == "hero"
    assert found[0][2].startswith("id_pattern: not a valid regular expression (")


def test_a_category_for_an_unknown_kind(make_pack, tmp_path):
    found = problems(make_pack, tmp_path, ("    kinds: [hero]\n    values:\n      - {key: krank",
                                           "    kinds: [heroes]\n    values:\n      - {key: krank"))
    assert found == [(line_of(make_pack, tmp_path, "kinds: [heroes]"), "krank",
                      "kinds: unknown kind 'heroes' (did you mean 'hero'?)")]


def test_a_value_in_two_categories_of_one_kind(make_pack, tmp_path):
    found = problems(make_pack, tmp_path, ("{key: krank, label: Sick days",
                                           "{key: alter, label: Sick days"))
    assert [(subject, message) for _, subject, message in found] == [
        ("krank", "values: 'alter' is already a value of alter for hero")]


def test_a_range_that_admits_no_value(make_pack, tmp_path):
    found = problems(make_pack, tmp_path, ("min: 0, max: 60", "min: 60, max: 0"))
    assert [(subject, message) for _, subject, message in found] == [
        ("krank", "krank: min 60 is above max 0")]


def test_a_stat_rule_that_names_an_unknown_stat_or_kind(make_pack, tmp_path):
    found = problems(make_pack, tmp_path, ("    left: sport_cov", "    left: sport_cv"),
                     ("    kinds: [K]\n    field: fachwissen",
                      "    kinds: [Q]\n    field: fachwissen"))
    assert [(subject, message) for _, subject, message in found] == [
        ("less_equal", "left: unknown stat 'sport_cv' (did you mean 'sport_cov'?)"),
        ("equals", "kinds: unknown kind 'Q'"),
    ]
