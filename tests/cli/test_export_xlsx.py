"""`cardgen export --xlsx`: workbooks that read back as the same cards in every shipped pack,
the same bytes for the same cards."""

from __future__ import annotations

import shutil
import zipfile
from io import BytesIO

import openpyxl
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import validated as check
from cardgen.pipeline.draw import render_pack
from cardgen.cli.app import app
from cardgen.diagnostics import Report
from cardgen.load.spreadsheet import workbook

from conftest import SHIPPED

PACKS = ["crazy-hospital", "quartett", "quatridou", "tischordnung", "dokter-li"]


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def cards_of(data) -> list[tuple[str, str]]:
    return [(lc.kind, repr(lc.card.model_dump())) for lc in data.cards]


def text_of(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(BytesIO(pdf)).pages]


@pytest.mark.parametrize("pack", PACKS)
def test_a_pack_whose_cards_are_its_exported_workbooks_builds_the_same_cards(
        pack, tmp_path, shipped_build):
    result = run("export", pack, "--data", SHIPPED, "--xlsx", tmp_path / "sheets")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "card_data" / pack
    shutil.copytree(SHIPPED / pack, folder)
    for path in (folder / "cards").glob("*.yaml"):
        path.unlink()
    for path in (tmp_path / "sheets").glob("*.xlsx"):
        shutil.copy(path, folder / "cards")
    checked = run("check", pack, "--data", tmp_path / "card_data")
    assert checked.exit_code == 0, checked.output
    report = Report()
    data = check(folder, report)
    assert data is not None and not report.errors, [d.format() for d in report.errors]
    original, _, files = shipped_build(pack)
    assert sorted(cards_of(data)) == sorted(cards_of(original))
    built = render_pack(data, report, BuildSettings(only=("cards",)))
    assert built is not None, [d.format() for d in report.errors]
    # the same bytes (as today) say the same texts; pypdf reads them only when the bytes differ
    assert built.files["cards.pdf"] == files["cards.pdf"] or \
        text_of(built.files["cards.pdf"]) == text_of(files["cards.pdf"])


def test_the_same_cards_give_the_same_workbook_bytes(tmp_path):
    for name in ("one", "two"):
        assert run("export", "quatridou", "--data", SHIPPED, "--xlsx",
                   tmp_path / name).exit_code == 0
    first = {p.name: p.read_bytes() for p in (tmp_path / "one").glob("*.xlsx")}
    assert first and first == {p.name: p.read_bytes() for p in (tmp_path / "two").glob("*.xlsx")}
    with zipfile.ZipFile(BytesIO(next(iter(first.values())))) as book:
        assert {entry.date_time for entry in book.infolist()} == {(2000, 1, 1, 0, 0, 0)}
        assert b"2000-01-01T00:00:00" in book.read("docProps/core.xml")


def test_cells_keep_their_types_and_text_is_never_a_formula(tmp_path):
    path = tmp_path / "cards.xlsx"
    path.write_bytes(workbook([["id", "stats.bmi", "stats.age", "stats.fleiss", "groups",
                                "texts.active", "set"],
                               ["A1", 23.5, 24.0, [2, 63], ["gelb", "rot"], "=SUM(A1)", "10"]]))
    sheet = openpyxl.load_workbook(path).active
    assert [cell.value for cell in sheet[2]] == ["A1", 23.5, "24.0", "[2, 63]", "gelb, rot",
                                                 "=SUM(A1)", "10"]
    assert sheet["F2"].data_type == "s"


def test_export_without_a_format_is_a_usage_error():
    result = run("export", "quatridou", "--data", SHIPPED)
    assert result.exit_code == 2
    assert "--csv DIR, --xlsx DIR or --po FILE" in result.output
