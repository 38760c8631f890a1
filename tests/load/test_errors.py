"""cardgen.load.errors: pydantic's validation errors become one diagnostic each, at the line and
column of the YAML value (or key) they are about, in words a designer reads."""

from __future__ import annotations

from typing import Literal, Optional

import pytest
from pydantic import ValidationError

from cardgen.diagnostics import Report
from cardgen.load.errors import (allowed_keys, describe_loc, locate, report_validation_error,
                                 subject_at)
from cardgen.load.source import load_yaml
from cardgen.model.base import Model


class Stat(Model):
    key: str
    value: int


class Item(Model):
    id: str
    size: Literal["small", "large"] = "small"
    weight: float = 1.0
    stats: list[Stat] = []


class File(Model):
    title: str
    items: list[Item]
    note: Optional[str] = None


def diagnostics(tmp_path, text: str) -> list[tuple[int, int, str, str]]:
    path = tmp_path / "file.yaml"
    path.write_text(text, encoding="utf-8")
    raw = load_yaml(path, "file.yaml")
    report = Report()
    with pytest.raises(ValidationError) as caught:
        File.model_validate(raw)
    report_validation_error(report, caught.value, raw, File, "file.yaml")
    return [(d.line, d.col, d.subject, d.message) for d in report.errors]


def test_a_wrong_value_is_named_at_the_value_with_the_thing_it_belongs_to(tmp_path):
    text = ("title: Box\n"
            "items:\n"
            "  - id: cup\n"
            "    size: huge\n"
            "  - id: pot\n"
            "    weight: heavy\n"
            "    stats:\n"
            "      - {key: heat, value: 2.5}\n")
    assert diagnostics(tmp_path, text) == [
        (4, 11, "cup", "items.size: 'huge' must be one of 'small' or 'large'"),
        (6, 13, "pot", "items.weight: 'heavy' must be a number"),
        (8, 28, "heat", "value: 2.5 must be a whole number"),
    ]


def test_an_unknown_key_is_named_at_the_key_with_the_key_meant(tmp_path):
    assert diagnostics(tmp_path, "title: Box\nitems:\n  - id: cup\n    wieght: 2.0\n") == [
        (4, 5, "cup", "unknown key 'wieght' (did you mean 'weight'?)")]


def test_a_missing_key_is_named_at_the_mapping_that_lacks_it(tmp_path):
    assert diagnostics(tmp_path, "title: Box\nitems:\n  - size: small\n") == [
        (3, 5, "", "items.id: required key is missing")]


def test_true_where_text_belongs_says_it_is_no_text(tmp_path):
    found = diagnostics(tmp_path, "title: true\nitems: []\n")
    assert [(line, message) for line, _, _, message in found] == [
        (1, "title: true must be text (put it in quotes) (true/false is not allowed here)")]


def test_locate_falls_back_to_the_nearest_known_position(tmp_path):
    path = tmp_path / "file.yaml"
    path.write_text("title: Box\nitems:\n  - id: cup\n", encoding="utf-8")
    raw = load_yaml(path, "file.yaml")
    assert (locate(raw, ("items", 0, "id")).line, locate(raw, ("items", 0, "id")).col) == (3, 9)
    assert locate(raw, ("items", 0, "id"), key_position=True).col == 5
    assert locate(raw, ("items", 0, "nothing")).line == 3  # the item that lacks it
    no_such = locate(raw, ("items", 5))
    assert (no_such.line, no_such.col) == (3, 3)  # no such item: the list


def test_the_names_for_a_diagnostic():
    assert describe_loc(("items", 3, "size")) == "items.size"
    assert describe_loc(("cards", 0, "stats", "iq")) == "iq"  # a stat by its key alone
    assert describe_loc(("title",)) == "title" and describe_loc(()) == ""
    raw = {"items": [{"id": "cup", "stats": [{"key": "heat"}]}]}
    assert subject_at(raw, ("items", 0, "stats", 0, "value")) == "heat"
    assert subject_at(raw, ("items", 0, "size")) == "cup"
    assert subject_at(raw, ("title",)) == ""
    assert allowed_keys(File, ("items", 0)) == ["id", "size", "stats", "weight"]
    assert allowed_keys(File, ()) == ["items", "note", "title"]
