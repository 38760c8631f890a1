"""Spreadsheets as a card source: `cardgen export` writes a pack's cards as CSV; the CSV (and an
XLSX made from it) in cards/ instead of the YAML give the same cards and the same card PDF.
Mistakes point at file:row:column (the fixtures spreadsheet-cells and spreadsheet-header)."""

from __future__ import annotations

import csv
import shutil

import openpyxl
import pytest
from typer.testing import CliRunner

from cardgen.pipeline.chain import validated as check
from cardgen.cli.app import app
from cardgen.diagnostics import Report


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def _twin(root, source, name, sheet):
    """A copy of the YAML pack whose cards/ holds only the spreadsheet `name`."""
    folder = root / name / "card_data" / "game"
    shutil.copytree(source, folder)
    for path in (folder / "cards").glob("*.yaml"):
        path.unlink()
    sheet(folder / "cards")
    return folder.parent


def _xlsx(rows, path):
    """The CSV's rows in a workbook, numbers as numbers (as a spreadsheet program keeps them),
    and a second sheet of the designer's own notes, which is not read."""
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append([_number(cell) for cell in row])
    book.create_sheet("notes").append(["anything", "here"])
    book.save(path)


def _number(cell: str):
    try:
        return int(cell)
    except ValueError:
        try:
            return float(cell)
        except ValueError:
            return cell or None


@pytest.fixture(scope="module", params=["stat", "text"])
def twins(request, tmp_path_factory):
    """{yaml, csv, xlsx: data folder} of one `cardgen new` pack in its three sources."""
    root = tmp_path_factory.mktemp(f"twins-{request.param}")
    data = root / "yaml" / "card_data"
    assert run("new", "game", "--kind", request.param, "--data", data).exit_code == 0
    result = run("export", "game", "--data", data, "--csv", root / "csv-out")
    assert result.exit_code == 0, result.output
    (exported,) = (root / "csv-out").glob("*.csv")
    rows = list(csv.reader(exported.read_text(encoding="utf-8").splitlines()))
    return {"yaml": data,
            "csv": _twin(root, data / "game", "csv", lambda d: shutil.copy(exported, d)),
            "xlsx": _twin(root, data / "game", "xlsx",
                          lambda d: _xlsx(rows, d / exported.with_suffix(".xlsx").name))}


def cards(data):
    report = Report()
    loaded = check(data / "game", report)
    assert not report.items, [d.format() for d in report.items]
    return [(lc.kind, lc.card.model_dump()) for lc in loaded.cards]


@pytest.mark.parametrize("source", ["csv", "xlsx"])
def test_a_spreadsheet_gives_the_same_cards_as_its_yaml_twin(twins, source):
    expected = cards(twins["yaml"])
    assert len(expected) == 4 or len(expected) == 8
    assert cards(twins[source]) == expected


@pytest.mark.parametrize("source", ["csv", "xlsx"])
def test_a_spreadsheet_builds_the_same_card_pdf(twins, source, tmp_path):
    for name in ("yaml", source):
        result = run("build", "--data", twins[name], "--out", tmp_path / name, "--only", "cards")
        assert result.exit_code == 0, result.output
    assert (tmp_path / "yaml" / "game" / "cards.pdf").read_bytes() == \
        (tmp_path / source / "game" / "cards.pdf").read_bytes()


def test_the_export_has_columns_named_like_the_fields(twins, tmp_path):
    result = run("export", "game", "--data", twins["yaml"], "--csv", tmp_path)
    assert result.exit_code == 0
    (exported,) = tmp_path.glob("*.csv")
    header = exported.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[0] == "id"
    assert ("stats.courage" in header) or ("texts.active" in header and
                                           "texts.passive" in header)


def test_a_kind_column_and_semicolons_are_read(twins, tmp_path):
    folder = tmp_path / "card_data" / "game"
    shutil.copytree(twins["yaml"] / "game", folder)
    kind = cards(twins["yaml"])[0][0]
    for path in (folder / "cards").glob("*.yaml"):
        path.unlink()
    (folder / "cards" / "all.csv").write_text(
        csv_text(twins["yaml"], kind, delimiter=";"), encoding="utf-8-sig")
    assert cards(tmp_path / "card_data") == cards(twins["yaml"])


def csv_text(data, kind: str, delimiter: str) -> str:
    """The exported sheet with a `kind` column in front, as Excel writes it where ',' is the
    decimal mark."""
    from cardgen.cli.export import sheet
    report = Report()
    loaded = check(data / "game", report)
    lines = list(csv.reader(sheet(loaded, kind).splitlines()))
    import io
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    writer.writerow(["kind", *lines[0]])
    for line in lines[1:]:
        writer.writerow([kind, *line])
    return out.getvalue()


def test_a_sheet_that_is_not_utf8_is_one_error(tmp_path, make_pack, cli, monkeypatch):
    folder = make_pack(tmp_path, {"cards/heroes.yaml": None})
    (folder / "cards" / "hero.csv").write_bytes("id,name\nA1,Jürg\n".encode("latin-1"))
    monkeypatch.chdir(tmp_path)
    result = cli("check", "mini")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == ("card_data/mini/cards/hero.csv:2:5: error: not "
                                             "UTF-8 text; save the sheet as 'CSV UTF-8'")


@pytest.mark.parametrize("body, line, col, said", [
    # a quote never closed would swallow the rows after it into one cell
    ('id,name,set\nA1,"Ann,A\nA2,Bob,A\n', 2, 1, 'a quote " opened in this row is never closed'),
    ('id,name,set\nA1,"Ann"x,A\n', 2, 1, "the row cannot be read"),
    # a cell past the named columns: the row's values are shifted
    ("id,name,set\nA1,Ann,A\nA2,Bob,A,extra\n", 3, 4, "a value in column 4, which the first "
     "row does not name ('extra')"),
])
def test_a_row_that_cannot_be_read_as_written_is_one_error(tmp_path, make_pack, cli,
                                                            monkeypatch, body, line, col, said):
    folder = make_pack(tmp_path, {"cards/heroes.yaml": None})
    (folder / "cards" / "hero.csv").write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "mini")
    assert result.exit_code == 1
    assert any(said_line.startswith(f"card_data/mini/cards/hero.csv:{line}:{col}: error: {said}")
               for said_line in result.stderr.splitlines()), result.stderr
    assert "Traceback" not in result.output


def test_a_formula_without_a_saved_value_and_a_stray_cell_are_errors(tmp_path, make_pack, cli,
                                                                     monkeypatch):
    """openpyxl (like other programs) writes formulas without computing them: read as blanks,
    the card would quietly get its default. A value in a column without a name is said once
    per column."""
    folder = make_pack(tmp_path, {"cards/heroes.yaml": None})
    rows = [["id", "name", "set", "count", ""],
            ["A1", "Ann", "A", "=1+1", "stray"],
            ["A2", "Bob", "A", "1", "stray"]]
    _xlsx(rows, folder / "cards" / "hero.xlsx")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "mini")
    assert result.exit_code == 1
    assert ("card_data/mini/cards/hero.xlsx:2:4: error: the formula =1+1 has no value saved in "
            "the workbook") in result.stderr
    rows[1][3] = "2"
    _xlsx(rows, folder / "cards" / "hero.xlsx")
    result = cli("check", "mini")
    stray = [line for line in result.stderr.splitlines()
             if "which the first row does not name" in line]
    assert stray == ["card_data/mini/cards/hero.xlsx:2:5: error: a value in column 5, which the "
                     "first row does not name ('stray'); name the column in the first row or "
                     "clear the cell"], result.stderr


def test_decomposed_letters_are_read_composed_in_yaml_csv_and_xlsx(tmp_path, make_pack):
    """"Ju" + U+0308 (as some editors and PDFs paste it) is read as "Jü": the font's own glyph
    prints, and the name matches the same word typed elsewhere."""
    decomposed = "Ju\u0308rg"
    folder = make_pack(tmp_path)
    heroes = folder / "cards" / "heroes.yaml"
    text = heroes.read_text(encoding="utf-8")
    heroes.write_text(text.replace("name: Ann", f"name: {decomposed}"), encoding="utf-8")
    names = {lc.card.id: lc.card.name for lc in check(folder, Report()).cards}
    assert names["A1"] == "Jürg"
    for suffix in (".csv", ".xlsx"):
        sheet_pack = make_pack(tmp_path / suffix[1:], {"cards/heroes.yaml": None})
        rows = [["id", "name"], ["A1", decomposed]]
        if suffix == ".csv":
            (sheet_pack / "cards" / "hero.csv").write_text(
                "\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
        else:
            _xlsx(rows, sheet_pack / "cards" / "hero.xlsx")
        loaded = check(sheet_pack, Report())
        assert [lc.card.name for lc in loaded.cards if lc.card.id == "A1"] == ["Jürg"], suffix


# (openpyxl refuses to write C0 controls into a workbook; other programs do not)
@pytest.mark.parametrize("suffix, char", [(".csv", "\x07"), (".csv", "\x00"),
                                          (".csv", "\u202e"), (".xlsx", "\u202e"),
                                          (".xlsx", "\u2067")])
def test_a_cell_with_a_control_character_is_an_error_at_the_cell(tmp_path, make_pack, cli,
                                                                 monkeypatch, suffix, char):
    """A bell pasted from a terminal, a NUL, a hidden right-to-left override: no card can
    print them, so the cell is named, as a YAML line with one is."""
    folder = make_pack(tmp_path, {"cards/heroes.yaml": None})
    rows = [["id", "name", "set"], ["A1", f"An{char}n", "A"]]
    if suffix == ".csv":
        (folder / "cards" / "hero.csv").write_text(
            "\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    else:
        _xlsx(rows, folder / "cards" / "hero.xlsx")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "mini")
    assert result.exit_code == 1
    assert (f"card_data/mini/cards/hero{suffix}:2:2: error: the cell holds the control "
            f"character U+{ord(char):04X}, which no card can print; remove it") \
        in result.stderr.splitlines(), result.stderr


def test_merged_cells_are_an_error_at_the_range(tmp_path, make_pack, cli, monkeypatch):
    """Of merged cells only the first keeps its value when read: B2:C2 merged would lose the
    card's set without a word."""
    folder = make_pack(tmp_path, {"cards/heroes.yaml": None})
    book = openpyxl.Workbook()
    for row in [["id", "name", "set"], ["A1", "Ann", "A"]]:
        book.active.append(row)
    book.active.merge_cells("B2:C2")
    book.save(folder / "cards" / "hero.xlsx")
    monkeypatch.chdir(tmp_path)
    result = cli("check", "mini")
    assert result.exit_code == 1
    assert result.stderr.startswith("card_data/mini/cards/hero.xlsx:2:2: error: cells B2:C2 "
                                    "are merged"), result.stderr
