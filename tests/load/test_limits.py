"""What a file may cost (README, "Limits"), and the range of every value: a YAML file, a CSV
file, a workbook or the settings file beyond a bound is refused with one diagnostic at the file,
or at the line, row or cell that crosses it, before it costs the time or memory it would; a
number too large for any field is an error at its line or cell, never an exception. A kept parse
in the cache is read as untrusted input. (Issue 31; the time and memory are measured by
bench/limits.py, not here.)"""

from __future__ import annotations

import io
import os
import pickle
import zipfile
from pathlib import Path

import pytest

from cardgen.diagnostics import Report
from cardgen.load import source, spreadsheet
from cardgen.load.settings import load_user_settings
from cardgen.load.source import YamlError, load_yaml


def _refused(path: Path) -> YamlError:
    with pytest.raises(YamlError) as info:
        load_yaml(path, path.name)
    return info.value


# --- YAML --------------------------------------------------------------------------------------

def test_too_many_values_are_refused_at_the_value_that_crosses_the_bound(tmp_path,
                                                                        monkeypatch):
    monkeypatch.setattr(source, "MAX_VALUES", 50)
    path = tmp_path / "many.yaml"
    path.write_text("a:\n" + "".join(f"- {n}\n" for n in range(100)), encoding="utf-8")
    error = _refused(path)
    assert "more than 50 values in one file" in error.message
    # the mapping, its key, the list, then 48 items: the 51st value is item 48, on line 49
    assert error.mark.line == 49


def test_a_limit_is_said_at_once_not_read_again_by_the_slow_loader(tmp_path, monkeypatch):
    """The fast (libyaml) loader's limit error stands: the pure-Python loader, which reads a
    file again for its messages, is not asked (it would take minutes on a large file)."""
    monkeypatch.setattr(source, "MAX_VALUES", 50)
    asked = []
    monkeypatch.setattr(source, "MarkedLoader", lambda *a: asked.append(a) or 1 / 0)
    path = tmp_path / "many.yaml"
    path.write_text("a: [" + ", ".join(["1"] * 100) + "]\n", encoding="utf-8")
    assert "more than 50 values" in _refused(path).message
    assert asked == []


@pytest.mark.parametrize("text, line", [
    ("a: 1\nb: 2\nc:\n" + "".join("  " * i + "- \n" for i in range(1, 60)) + "x\n", 43),
    ("a: 1\nb:\n  c: " + "[" * 5000 + "]" * 5000 + "\n", 3),
    ("a: 1\nb:\n" + "".join(" " * (i + 2) + f"k{i}:\n" for i in range(80)) + "  v: 1\n", 42),
])
def test_nesting_too_deep_is_said_at_the_line_where_it_goes_too_deep(tmp_path, text, line):
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    error = _refused(path)
    assert error.message == f"nesting deeper than {source.MAX_DEPTH} levels"
    assert error.mark.line == line and error.mark.line > 1


@pytest.mark.parametrize("value, shown", [("1000000000000001", "1000000000000001"),
                                          ("-99999999999999999", "-99999999999999999"),
                                          ("1000000000000000.5", "1e+15")])
def test_a_number_too_large_is_an_error_at_its_key(tmp_path, value, shown):
    path = tmp_path / "n.yaml"
    path.write_text(f"a: 1\nstats:\n  iq: {value}\n", encoding="utf-8")
    error = _refused(path)
    assert (error.mark.line, error.mark.col) == (3, 7)
    assert error.message == (f"iq: {shown} is too large a number (the largest cardgen reads "
                             "is 1 000 000 000 000 000)")


def test_the_largest_number_loads(tmp_path):
    path = tmp_path / "n.yaml"
    path.write_text("a: 1000000000000000\nb: -1000000000000000\n", encoding="utf-8")
    assert load_yaml(path) == {"a": 10**15, "b": -10**15}


def test_what_is_no_file_is_named_and_never_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")  # reading would wait for a writer for ever
    (tmp_path / "folder.yaml").mkdir()
    assert _refused(tmp_path / "pipe.yaml").message == \
        "is a pipe (FIFO), not a file cardgen can read"
    assert _refused(tmp_path / "folder.yaml").message == \
        "is a folder, not a file cardgen can read"
    assert _refused(Path("/dev/zero")).message == "is a device, not a file cardgen can read"


# --- a kept parse, read as untrusted ------------------------------------------------------------

class _Planted:
    """A pickle that would create a file when loaded by pickle.loads."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _entry(path: Path) -> Path:
    name = source.cache.key("yaml", source._loader_code(), str(path.resolve()), path.name)
    return source.cache.folder("yaml") / name


@pytest.mark.parametrize("planted", ["code", "shape", "torn"])
def test_a_cache_entry_not_as_cardgen_writes_it_is_not_used(tmp_path, monkeypatch, capsys,
                                                            planted):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "t.yaml"
    path.write_text("a: 1\nb: [x, y]\n", encoding="utf-8")
    assert load_yaml(path, path.name) == {"a": 1, "b": ["x", "y"]}  # the entry is written
    entry = _entry(path)
    digest = source.text_digest(path.read_text(encoding="utf-8"))
    marker = tmp_path / "ran"
    entry.write_bytes({
        "code": pickle.dumps((digest, _Planted(marker), [])),
        "shape": pickle.dumps((digest, {"a": 2}, [])),  # a plain dict: no marks
        "torn": entry.read_bytes()[:20]}[planted])
    assert load_yaml(path, path.name) == {"a": 1, "b": ["x", "y"]}  # parsed again
    assert not marker.exists()  # the planted code did not run
    err = capsys.readouterr().err
    assert err.startswith(f"cardgen: note: {entry}: a cache entry that ")
    assert err.count("\n") == 1
    assert load_yaml(path, path.name) == {"a": 1, "b": ["x", "y"]}  # the entry is good again
    assert capsys.readouterr().err == ""


# --- CSV -----------------------------------------------------------------------------------------

HEADER = "id,name,stats.alter\n"


def _table(path: Path) -> tuple[list | None, list[str]]:
    report = Report()
    rows = spreadsheet.read_table(path, report)
    return rows, [d.format() for d in report.items]


def test_a_csv_file_too_large_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(spreadsheet, "MAX_SHEET_BYTES", 1000)
    path = tmp_path / "hero.csv"
    path.write_text(HEADER + "A1,Ann,60\n" * 200, encoding="utf-8")
    rows, said = _table(path)
    assert rows is None
    assert said == [f"{path}: error: file is {path.stat().st_size} bytes; the limit is 1000"]


def test_rows_beyond_the_bound_are_refused_at_the_first_row_too_many(tmp_path, monkeypatch):
    monkeypatch.setattr(spreadsheet, "MAX_ROWS", 10)
    path = tmp_path / "hero.csv"
    path.write_text(HEADER + "".join(f"A{n},N,60\n" for n in range(50)), encoding="utf-8")
    rows, said = _table(path)
    assert rows is None
    assert said == [f"{path}:11:1: error: more than 10 rows; a sheet holds at most 9 cards "
                    "(split them into several files)"]


def test_columns_beyond_the_bound_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(spreadsheet, "MAX_COLUMNS", 5)
    path = tmp_path / "hero.csv"
    path.write_text(HEADER + "A1,Ann,60,,,,,,,x\n", encoding="utf-8")
    rows, said = _table(path)
    assert rows is None and said == [f"{path}:2:6: error: more than 5 columns; clear the "
                                     "cells right of the last column of cards"]


@pytest.mark.parametrize("cell, shown", [
    ("9" * 5000, "999999999999…9999 (5000 characters)"),
    ("1000000000000001", "1000000000000001"),
    ("[99999999999999999999, 1]", "[99999999999999999999, 1]"),
    ("12345678901234567.5", "12345678901234567.5"),
])
def test_a_number_too_large_in_a_cell_is_one_error_at_the_cell(cli, tmp_path, cell, shown):
    """It was a traceback (Python refuses int() of 5000 digits); now one line at the cell, and
    not also the card model's "must be a number" for the same cell."""
    import shutil
    from conftest import MINI
    pack = tmp_path / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    (pack / "cards" / "heroes.yaml").unlink()
    (pack / "cards" / "hero.csv").write_text(
        "id,name,set,group,stats.alter,stats.alter_pos,stats.erf_ges,stats.erf_pos,"
        "stats.fachwissen,stats.gehalt,stats.stundenlohn,stats.krank,stats.sport_a,"
        "stats.sport_cov\n"
        f'A1,Ann,A,red,60,50,30,10,"[2, 60]","{cell}",300.0,4,5,3\n', encoding="utf-8")
    result = cli("check", "--data", tmp_path / "card_data")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert errors == [f"{tmp_path}/card_data/mini/cards/hero.csv:2:10: error: A1 gehalt: "
                      f"{shown} is too large a number (the largest cardgen reads is "
                      "1 000 000 000 000 000)"] or errors == [
        f"card_data/mini/cards/hero.csv:2:10: error: A1 gehalt: {shown} is too large a "
        "number (the largest cardgen reads is 1 000 000 000 000 000)"]


# --- workbooks: a zip, checked before it is read -----------------------------------------------

def _workbook(tmp_path: Path, rows: list[list], edit=None) -> Path:
    """An .xlsx of `rows`; `edit(name, xml) -> xml` changes a part before it is zipped again."""
    data = spreadsheet.workbook(rows)
    if edit is not None:
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as src, \
                zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                dst.writestr(info.filename, edit(info.filename, src.read(info)))
        data = out.getvalue()
    path = tmp_path / "hero.xlsx"
    path.write_bytes(data)
    return path


ROWS = [["id", "name", "stats.alter"], ["A1", "Ann", 60], ["A2", "Bob", 55]]


@pytest.fixture
def unread(monkeypatch):
    """openpyxl may not open the workbook at all: it is refused before it is read."""
    import openpyxl

    def refuse(*args, **kwargs):
        raise AssertionError("openpyxl read a workbook that was refused")
    monkeypatch.setattr(openpyxl, "load_workbook", refuse)


def test_a_small_workbook_naming_a_far_cell_is_refused_before_it_is_read(tmp_path, unread):
    """A few bytes: one cell at XFD1048576. openpyxl would fill 17 billion cells up to it."""
    def far(name, xml):
        if name.startswith("xl/worksheets/"):
            xml = xml.replace(b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" t="n">'
                              b"<v>1</v></c></row></sheetData>")
        return xml
    rows, said = _table(_workbook(tmp_path, ROWS, far))
    assert rows is None
    assert said == [f"{tmp_path}/hero.xlsx:1048576:1: error: more than "
                    f"{spreadsheet.MAX_ROWS} rows; a sheet holds at most "
                    f"{spreadsheet.MAX_ROWS - 1} cards (split them into several files)"]


def test_a_workbook_that_unpacks_beyond_the_bound_is_refused(tmp_path, monkeypatch, unread):
    monkeypatch.setattr(spreadsheet, "MAX_UNPACKED", 5_000)
    path = _workbook(tmp_path, ROWS + [[f"A{n}", "x" * 50, n] for n in range(3, 200)])
    rows, said = _table(path)
    assert rows is None
    assert said == [f"{path}: error: the workbook unpacks to more than 5000 bytes; save it "
                    "without pictures, or its cards as a CSV file"]


def test_a_workbook_declaring_xml_entities_is_refused(tmp_path, unread):
    def entities(name, xml):
        if name == "xl/styles.xml":
            declaration, _, rest = xml.partition(b"?>")
            xml = declaration + b'?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>' + rest
        return xml
    path = _workbook(tmp_path, ROWS, entities)
    rows, said = _table(path)
    assert rows is None
    assert said == [f"{path}: error: the workbook's xl/styles.xml declares XML "
                    "entities (a DOCTYPE), which no spreadsheet program writes; save the "
                    "workbook again"]


def test_a_workbook_within_the_bounds_reads_as_before(tmp_path):
    rows, said = _table(_workbook(tmp_path, ROWS))
    assert said == [] and rows == [["id", "name", "stats.alter"], ["A1", "Ann", 60],
                                   ["A2", "Bob", 55]]


def test_a_number_too_large_in_a_workbook_cell_is_an_error_at_the_cell(tmp_path):
    """Excel's largest numbers (1E+300): one error at the cell, the card model says nothing
    more of it."""
    from conftest import MINI
    import shutil
    from cardgen.pipeline.chain import validated
    pack = tmp_path / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    (pack / "cards" / "heroes.yaml").unlink()
    columns = ["id", "name", "set", "group", "stats.alter", "stats.alter_pos",
               "stats.erf_ges", "stats.erf_pos", "stats.fachwissen", "stats.gehalt",
               "stats.stundenlohn", "stats.krank", "stats.sport_a", "stats.sport_cov"]
    (pack / "cards" / "hero.xlsx").write_bytes(spreadsheet.workbook(
        [columns, ["A1", "Ann", "A", "red", 60, 50, 30, 10, [2, 60], 10**300, 300.5, 4, 5, 3]]))
    report = Report()
    validated(pack, report)
    said = [d.format() for d in report.errors]
    assert said == [f"{pack}/cards/hero.xlsx:2:10: error: A1 gehalt: 1e+300 is too large a "
                    "number (the largest cardgen reads is 1 000 000 000 000 000)"] or \
        [line.split("card_data/", 1)[1] for line in said] == [
            "mini/cards/hero.xlsx:2:10: error: A1 gehalt: 1e+300 is too large a number (the "
            "largest cardgen reads is 1 000 000 000 000 000)"], said


# --- the settings file ---------------------------------------------------------------------------

@pytest.mark.parametrize("make, said", [
    (lambda p: p.mkdir(), "the settings file is a folder, not a file"),
    (lambda p: os.mkfifo(p), "the settings file is a pipe (FIFO), not a file"),
])
def test_a_folder_or_a_pipe_as_the_settings_file_is_named_as_such(tmp_path, monkeypatch,
                                                                   make, said):
    path = tmp_path / "settings.yaml"
    make(path)
    monkeypatch.setenv("CARDGEN_SETTINGS", str(path))
    report = Report()
    load_user_settings(report)
    assert [d.format() for d in report.items] == [
        f"{path}: error: {said} (named by $CARDGEN_SETTINGS); name a settings.yaml file, or "
        "/dev/null for none"]


@pytest.mark.parametrize("text", ["", "\n\n", "# my printer\n# nothing yet\n"])
def test_an_empty_settings_file_means_no_settings(tmp_path, monkeypatch, text):
    path = tmp_path / "settings.yaml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("CARDGEN_SETTINGS", str(path))
    report = Report()
    settings = load_user_settings(report)
    assert report.items == [] and settings.paper is None and settings.margin is None


def test_dev_null_means_no_settings_and_another_device_is_named(monkeypatch):
    monkeypatch.setenv("CARDGEN_SETTINGS", os.devnull)
    report = Report()
    load_user_settings(report)
    assert report.items == []
    monkeypatch.setenv("CARDGEN_SETTINGS", "/dev/zero")  # would never end
    load_user_settings(report)
    assert [d.message for d in report.items] == [
        "the settings file is a device, not a file (named by $CARDGEN_SETTINGS); name a "
        "settings.yaml file, or /dev/null for none"]


def test_a_settings_file_too_large_is_refused_at_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 100)
    path = tmp_path / "settings.yaml"
    path.write_text("# " + "x" * 200 + "\npaper: a4\n", encoding="utf-8")
    monkeypatch.setenv("CARDGEN_SETTINGS", str(path))
    report = Report()
    load_user_settings(report)
    assert [d.format() for d in report.items] == [
        f"{path}:1:1: error: file is {path.stat().st_size} bytes; the limit is 100"]
