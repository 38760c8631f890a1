"""cardgen.text.fit: our markup (**bold**, *italic*, :icon:) read as written, and text fitted into
a box at the largest size that fits, or not at all — never overflowing."""

from __future__ import annotations

import pytest

from cardgen.text.fit import Run, check_glyphs, expand_icons, fit, parse
from cardgen.text.fonts import face_name, width


def test_icons_are_replaced_and_unknown_ones_named():
    text, unknown = expand_icons(":up: wins, :herz: and :up:", {"up": "▲"})
    assert text == "▲ wins, :herz: and ▲"
    assert unknown == ["herz"]
    assert expand_icons("no icons: here, 10:30", {"up": "▲"}) == ("no icons: here, 10:30", [])


def test_markup_gives_styled_runs_per_line():
    assert parse("a **bold** and *slanted* word\nnext") == [
        [Run("a "), Run("bold", bold=True), Run(" and "), Run("slanted", italic=True),
         Run(" word")],
        [Run("next")],
    ]
    assert parse("***both***") == [[Run("both", bold=True, italic=True)]]


def test_unbalanced_markers_stay_literal_and_nothing_else_is_markup():
    assert parse("5 * 3 = 15") == [[Run("5 "), Run("*"), Run(" 3 = 15")]]
    assert parse("**open") == [[Run("**"), Run("open")]]
    assert parse("<b>&amp;</b>") == [[Run("<b>&amp;</b>")]]


def test_missing_glyphs_are_looked_up_in_the_face_of_each_run():
    assert check_glyphs("Ann **Bob** *Cy*", "sans") == []
    assert check_glyphs("Ann \ue000 **\ue001**", "condensed") == ["\ue000", "\ue001"]


def test_text_that_fits_keeps_its_size():
    fitted = fit("Short text", "sans", 10, 6, 1.2, 200, 50)
    assert fitted.size == 10 and fitted.leading == pytest.approx(12)
    assert len(fitted.lines) == 1
    assert fitted.lines[0].width == pytest.approx(width("Short text", face_name("sans"), 10))


def test_a_long_text_wraps_then_shrinks_in_quarter_points():
    text = "word " * 30
    wrapped = fit(text, "sans", 10, 6, 1.2, 100, 200)
    assert wrapped.size == 10 and len(wrapped.lines) > 1
    assert all(line.width <= 100 + 1e-6 for line in wrapped.lines)
    shrunk = fit(text, "sans", 10, 6, 1.2, 100, 40)
    assert 6 <= shrunk.size < 10 and (shrunk.size * 4) == int(shrunk.size * 4)
    height = shrunk.size + shrunk.leading * (len(shrunk.lines) - 1)
    assert height <= 40 + 1e-6
    # a quarter point larger would not have fitted
    assert fit(text, "sans", shrunk.size + 0.25, shrunk.size + 0.25, 1.2, 100, 40) is None


def test_what_does_not_fit_at_the_minimum_is_none():
    assert fit("word " * 200, "sans", 10, 6, 1.2, 100, 20) is None
    assert fit("Donaudampfschifffahrtsgesellschaft", "sans", 10, 8, 1.2, 30, 100) is None


def test_a_hyphen_is_a_place_to_break():
    sans = face_name("sans")
    room = max(width("Notfall-", sans, 10), width("Aufnahme", sans, 10)) + 1
    assert room < width("Notfall-Aufnahme", sans, 10)
    lines = fit("Notfall-Aufnahme", "sans", 10, 10, 1.2, room, 100).lines
    assert ["".join(text for _, text in line.runs) for line in lines] == ["Notfall-",
                                                                           "Aufnahme"]


def test_line_breaks_are_kept_and_an_empty_line_is_a_line():
    fitted = fit("one\n\ntwo", "sans", 10, 10, 1.2, 200, 100)
    assert ["".join(text for _, text in line.runs) for line in fitted.lines] == ["one", "",
                                                                                 "two"]
