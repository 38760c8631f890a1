"""Diagnostics: one line per problem in the contract's format, sorted, unique, summed up."""

from __future__ import annotations

import os

import pytest

from cardgen.diagnostics import Diagnostic, Report, display_path


def test_format_with_position_and_subject():
    d = Diagnostic("card_data/crazy-hospital/cards/character.yaml", 123, 7, "error", "F12",
                   "iq: 212 is above the maximum 160")
    assert d.format() == ("card_data/crazy-hospital/cards/character.yaml:123:7: error: F12 iq: "
                          "212 is above the maximum 160")


def test_format_without_subject_has_no_double_space():
    d = Diagnostic("a.yaml", 1, 1, "warning", "", "file is empty")
    assert d.format() == "a.yaml:1:1: warning: file is empty"


def test_format_without_line_names_only_the_file():
    d = Diagnostic("card_data", 0, 0, "error", "nope", "no such pack")
    assert d.format() == "card_data: error: nope no such pack"


def test_report_paths_are_relative_to_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "card_data").mkdir()
    monkeypatch.chdir(tmp_path)
    report = Report()
    report.error(tmp_path / "card_data" / "p.yaml", 2, 3, "A1", "bad")
    report.warning("card_data/q.yaml", 4, 5, "", "odd")
    assert [d.file for d in report.items] == [os.path.join("card_data", "p.yaml"),
                                              os.path.join("card_data", "q.yaml")]
    assert display_path(tmp_path / "x.yaml") == "x.yaml"


def test_empty_file_name_stays_empty():
    report = Report()
    report.error("", 0, 0, "", "no packs")
    assert report.items[0].file == "" and report.items[0].format() == ": error: no packs"


def test_sorted_by_file_then_line_then_column_numerically():
    report = Report()
    report.error("b.yaml", 1, 1, "", "b1")
    report.error("a.yaml", 10, 1, "", "a10")
    report.error("a.yaml", 9, 12, "", "a9-12")
    report.warning("a.yaml", 9, 3, "", "a9-3")
    report.error("a.yaml", 2, 1, "", "a2")
    assert [d.message for d in report.sorted()] == ["a2", "a9-3", "a9-12", "a10", "b1"]


def test_sorted_drops_duplicates_but_keeps_near_misses():
    report = Report()
    for _ in range(3):
        report.error("a.yaml", 5, 7, "A1", "iq: too high")
    report.warning("a.yaml", 5, 7, "A1", "iq: too high")  # other severity: another problem
    report.error("a.yaml", 5, 7, "A2", "iq: too high")    # other card
    report.error("a.yaml", 5, 8, "A1", "iq: too high")    # other column
    items = report.sorted()
    assert len(items) == 4 and len(set(items)) == 4
    assert report.sorted() == sorted(items, key=lambda d: (d.file, d.line, d.col))


def test_sorted_is_stable_for_same_position():
    report = Report()
    report.error("a.yaml", 1, 1, "B", "second")
    report.error("a.yaml", 1, 1, "A", "first")
    assert [d.subject for d in report.sorted()] == ["A", "B"]


@pytest.mark.parametrize("errors, warnings, files, text", [
    (3, 1, 2, "3 errors, 1 warning in 2 files"),
    (1, 0, 1, "1 error, 0 warnings in 1 file"),
    (0, 2, 1, "0 errors, 2 warnings in 1 file"),
    (2, 2, 2, "2 errors, 2 warnings in 2 files"),
])
def test_summary_wording(errors, warnings, files, text):
    report = Report()
    for i in range(errors):
        report.error(f"f{i % files}.yaml", i + 1, 1, "", f"e{i}")
    for i in range(warnings):
        report.warning(f"f{i % files}.yaml", 100 + i, 1, "", f"w{i}")
    assert report.summary() == text


def test_summary_counts_duplicates_once():
    report = Report()
    report.error("a.yaml", 1, 1, "", "x")
    report.error("a.yaml", 1, 1, "", "x")
    report.warning("b.yaml", 1, 1, "", "y")
    report.warning("b.yaml", 1, 1, "", "y")
    assert report.summary() == "1 error, 1 warning in 2 files"


def test_summary_of_nothing():
    assert Report().summary() == "0 errors, 0 warnings"


def test_failed_and_strict():
    clean, warned, broken = Report(), Report(), Report()
    warned.warning("a.yaml", 1, 1, "", "w")
    broken.error("a.yaml", 1, 1, "", "e")
    assert not clean.failed() and not clean.failed(strict=True)
    assert not warned.failed() and warned.failed(strict=True)
    assert broken.failed() and broken.failed(strict=True)


def test_errors_warnings_and_extend():
    a, b = Report(), Report()
    a.error("a.yaml", 1, 1, "", "e")
    b.warning("b.yaml", 2, 2, "", "w")
    a.extend(b)
    assert [d.message for d in a.errors] == ["e"] and [d.message for d in a.warnings] == ["w"]
    assert a.failed() and len(a.items) == 2


def test_diagnostic_is_immutable():
    d = Diagnostic("a.yaml", 1, 1, "error", "", "x")
    with pytest.raises(AttributeError):
        d.line = 2  # type: ignore[misc]
