"""cardgen.text.stats: one stat row as layout measures it and render draws it — label left,
values with their win marks right, the marks smaller but never below the pack's minimum."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cardgen.text.fonts import face_name, width
from cardgen.text.stats import GAP_MM, label_text, row_width, small_size, value_pieces
from cardgen.units import MM


def row(values, label="Age", common=False):
    return SimpleNamespace(label=label, values=values, common=common)


def test_the_marks_are_smaller_but_never_below_the_minimum():
    assert small_size(10) == pytest.approx(8)
    assert small_size(7, minimum=6) == 6
    assert small_size(10, minimum=6) == pytest.approx(8)


def test_a_common_category_is_marked_before_its_label():
    assert label_text(row([], common=False), {}) == "Age"
    assert label_text(row([], common=True), {}) == "● Age"
    assert label_text(row([], common=True), {"common": "★"}) == "★ Age"


def test_values_carry_their_win_mark_and_are_separated():
    pieces = value_pieces(row([("61", "high"), ("48", "low")]), {})
    assert pieces == [("61", True), ("▲", False), (" / ", False), ("48", True), ("▼", False)]
    own = value_pieces(row([("3", "high")]), {"up": "+", "down": "-"})
    assert own == [("3", True), ("+", False)]


def test_the_row_width_is_label_gap_and_values_each_in_its_own_face_and_size():
    r = row([("61", "high"), ("48", "low")])
    regular, bold = face_name("condensed"), face_name("condensed", bold=True)
    expected = (width("Age", regular, 10) + GAP_MM * MM
                + width("61", bold, 10) + width("▲", regular, 8) + width(" / ", regular, 8)
                + width("48", bold, 10) + width("▼", regular, 8))
    assert row_width(r, "condensed", 10, {}) == pytest.approx(expected)
    # a minimum above the marks' size makes them, and so the row, wider
    assert row_width(r, "condensed", 6, {}, minimum=6) > row_width(r, "condensed", 6, {})
