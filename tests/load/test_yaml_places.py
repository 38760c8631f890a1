"""YAML syntax errors reported where the mistake is, not where the parser gave up.

An unclosed quote is noticed by the parser at the end of the file (or at the next quote, many
lines on); the diagnostic points at the quote that was opened.
"""

from __future__ import annotations

import pytest

from cardgen.load.source import YamlError, load_yaml

HEAD = "kind: hero\ncards:\n  - id: A1\n"


@pytest.mark.parametrize("body, where, message", [
    ('    name: "Ann\n    set: A\n  - id: A2\n    name: Bob\n', (4, 11),
     'the quote " opened here is never closed; add the closing " at the end of the text'),
    ("    name: 'Ann\n    set: A\n  - id: A2\n    name: Bob\n", (4, 11),
     "the quote ' opened here is never closed; add the closing ' at the end of the text"),
    ('    name: "Ann\n    set: A\n  - id: A2\n    name: "Bob"\n', (4, 11),
     'the quote " opened here is closed only on line 7; add the closing " at the end of this '
     'text'),
    ('    name: "Ann "the" best"\n    set: A\n', (4, 17),
     "text goes on after the closing quote; put the whole text in one pair of quotes "
     "(a \" inside \"...\" is written \\\", or use '...')"),
    ("    groups: [red, blue\n    name: Ann\n  - id: A2\n", (4, 13),
     "the '[' opened here is not closed on its line; add ']' (text starting with '[' must be "
     "quoted)"),
    ("    quote: |\n  oops\n    set: A\n", (5, 3),
     "this line is not 'key: value' and not part of the text above it (indented too little, "
     "or a ':' missing?)"),
    ('    name: "C:\\qfile"\n', (4, 15),
     "a \\ inside \"...\" starts an escape; write \\\\ for a backslash, or put the text in "
     "'...'"),
    ("    name: Ann\n   set: A\n", (5, 4), "invalid YAML: expected <block end>, but found "
     "'<block mapping start>'; this line is indented differently from the lines above it"),
])
def test_the_mistake_is_where_it_was_made(tmp_path, body, where, message):
    path = tmp_path / "cards.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    with pytest.raises(YamlError) as info:
        load_yaml(path, "cards.yaml")
    assert (info.value.mark.line, info.value.mark.col) == where
    assert info.value.message == message


def test_a_quoted_text_over_several_lines_is_fine(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(HEAD + '    name: "Ann\n      Smith"\n    set: A\n', encoding="utf-8")
    assert load_yaml(path)["cards"][0]["name"] == "Ann Smith"


@pytest.mark.parametrize("escape, message", [
    ("\\a", "the text holds the control character U+0007 (an escape such as \\a or \\x..); "
     "remove it"),
    ("\\x00", "the text holds the control character U+0000 (an escape such as \\a or \\x..); "
     "remove it"),
    ("\\ud800", "the text holds U+D800, half of a surrogate pair and no character (an escape "
     "\\u....); write the character itself"),
])
def test_an_escape_that_makes_an_unprintable_character(tmp_path, escape, message):
    path = tmp_path / "cards.yaml"
    path.write_text(HEAD + f'    name: "Ann{escape}"\n', encoding="utf-8")
    with pytest.raises(YamlError) as info:
        load_yaml(path, "cards.yaml")
    assert (info.value.mark.line, info.value.mark.col, info.value.message) == (4, 11, message)


def test_line_breaks_and_tabs_by_escape_stay_allowed(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(HEAD + '    name: "Ann\\tBob\\nCid"\n', encoding="utf-8")
    assert load_yaml(path)["cards"][0]["name"] == "Ann\tBob\nCid"
