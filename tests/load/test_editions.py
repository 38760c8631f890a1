"""Editions (issue 28): overlay files merged over the base, translations checked against the
fingerprints of their sources, PO export and import."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import make_pack
from cardgen.diagnostics import Report
from cardgen.load.editions import fingerprint, survey
from cardgen.load.translations import import_po, po_catalog
from cardgen.paths import choose_edition
from cardgen.pipeline.chain import validated

HEROES_DE = """\
cards:
  A1: {name: Anna}
  A2: {name: Bert}
"""


@pytest.fixture
def german():
    """Work on the German edition for the test, then on the base again."""
    choose_edition("de")
    yield
    choose_edition(None)


def _pack(tmp_path: Path, files: dict[str, str]) -> Path:
    return make_pack(tmp_path, {f"editions/de/{name}": text for name, text in files.items()})


def _lines(report: Report) -> list[str]:
    return [d.format() for d in report.sorted()]


def test_an_overlay_replaces_texts_and_shares_the_rest(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE,
                              "pack.yaml": "title: Mini-Spiel\ngroups:\n  red: {label: Rot}\n"})
    report = Report()
    data = validated(folder, report)
    names = {lc.card.id: lc.card.name for lc in data.cards}
    assert names["A1"] == "Anna" and names["A2"] == "Bert" and names["B1"] == "Cid"
    assert data.pack.title == "Mini-Spiel" and data.group("red").label == "Rot"
    assert data.group("red").colour == "#D9453B"  # shared: the base file's
    assert data.pack.language == "de" and data.base_language == "en"
    a1 = next(lc for lc in data.cards if lc.card.id == "A1")
    assert a1.card.stats == next(lc for lc in validated(folder, Report()).cards
                                 if lc.card.id == "A1").card.stats


def test_the_base_edition_is_read_without_overlays(tmp_path):
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE})
    data = validated(folder, Report())
    assert {lc.card.name for lc in data.cards} >= {"Ann", "Bob"}
    assert data.pack.language == "en" and data.edition is None


@pytest.mark.parametrize("base", ["cards/heroes.yaml", "cards/all.csv"])
def test_an_overlay_may_not_set_a_shared_value(tmp_path, german, base):
    """Of a YAML card file and of a card spreadsheet (whose overlay is all.csv.yaml) alike."""
    overlay = "cards:\n  A1: {name: Anna, set: B}\n  Z9: {name: Zed}\n"
    folder = _pack(tmp_path, {"cards/heroes.yaml": overlay}) if base.endswith(".yaml") else \
        _sheet_pack(tmp_path, overlay)
    report = Report()
    validated(folder, report)
    shown = "editions/de/" + base + (".yaml" if base.endswith(".csv") else "")
    errors = [line for line in _lines(report) if shown in line and ": error: " in line]
    assert any(":2:25: error: cards.A1.set: is not a text" in line for line in errors), errors
    assert any(":3:3: error: cards.Z9: no such id in the base file" in line
               for line in errors), errors


def test_a_model_error_in_an_overlay_points_at_the_overlay(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": "cards:\n  A1: {name: [Anna]}\n"})
    report = Report()
    validated(folder, report)
    assert any("editions/de/cards/heroes.yaml:2:" in line and "must be text" in line
               for line in _lines(report)), _lines(report)


def test_a_missing_text_is_reported_at_the_base_line(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE})
    lines = (folder / "cards" / "heroes.yaml").read_text(encoding="utf-8").splitlines()
    row = next(i for i, line in enumerate(lines, 1) if "name: Cid" in line)
    report = Report()
    validated(folder, report)
    missing = [d for d in report.items if "no German translation" in d.message and
               d.file.endswith("heroes.yaml")]
    assert [(Path(d.file).as_posix().endswith("mini/cards/heroes.yaml"), d.line, d.col,
             d.severity, d.message.split(":")[0]) for d in missing] == [
        (True, row, lines[row - 1].index("Cid") + 1, "warning", "cards.B1.name")]


def test_a_complete_edition_with_a_missing_text_is_an_error(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE})
    pack = folder / "pack.yaml"
    pack.write_text(pack.read_text(encoding="utf-8") + "editions: {de: complete}\n",
                    encoding="utf-8")
    report = Report()
    validated(folder, report)
    assert any("cards.B1.name: no German translation" in d.message and d.severity == "error"
               for d in report.items)


def test_a_changed_source_makes_its_translation_stale(tmp_path, german):
    stamped = HEROES_DE + f'sources:\n  "cards.A1.name": "{fingerprint("Ann")}"\n' \
        f'  "cards.A2.name": "{fingerprint("Bob")}"\n'
    folder = _pack(tmp_path, {"cards/heroes.yaml": stamped})
    assert not [e for e in survey(folder, "de", Report()) if e.state == "stale"]
    heroes = folder / "cards" / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("name: Bob", "name: Bobby"),
                      encoding="utf-8")
    report = Report()
    validated(folder, report)
    stale = [d for d in report.items if "text changed since this was translated" in d.message]
    assert [(Path(d.file).name, d.line, d.message.split(":")[0]) for d in stale] == [
        ("heroes.yaml", 3, "cards.A2.name")]
    assert "editions/de/cards" in stale[0].file and stale[0].severity == "warning"


def test_export_then_import_changes_nothing(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE})
    report = Report()
    po = tmp_path / "de.po"
    po.write_bytes(po_catalog(folder, "de", "Mini", report))
    import_po(folder, "de", po, report)  # the hand-written file in import's own form
    before = {p: p.read_bytes() for p in (folder / "editions").rglob("*.yaml")}
    states = [(e.path, e.translation, e.recorded) for e in survey(folder, "de", report)]
    po.write_bytes(po_catalog(folder, "de", "Mini", report))
    assert import_po(folder, "de", po, report) == []
    assert {p: p.read_bytes() for p in (folder / "editions").rglob("*.yaml")} == before
    assert [(e.path, e.translation, e.recorded) for e in survey(folder, "de", report)] == states
    assert not report.errors, _lines(report)


def test_import_records_what_the_translator_confirmed(tmp_path, german):
    from babel.messages.pofile import read_po, write_po
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE})
    report = Report()
    po = tmp_path / "de.po"
    po.write_bytes(po_catalog(folder, "de", "Mini", report))
    with open(po, "rb") as handle:
        catalog = read_po(handle)
    message = next(m for m in catalog if m.context and m.context.endswith("cards.B1.name"))
    assert message.id == "Cid" and message.string == "" and message.locations[0][0] == \
        "cards/heroes.yaml"
    message.string = "Sid"
    anna = next(m for m in catalog if m.context and m.context.endswith("cards.A1.name"))
    assert anna.fuzzy  # written by hand, never confirmed against its source
    anna.flags.discard("fuzzy")
    with open(po, "wb") as handle:
        write_po(handle, catalog)
    import_po(folder, "de", po, report)
    entries = {e.path: e for e in survey(folder, "de", report)}
    assert entries["cards.B1.name"].translation == "Sid"
    assert entries["cards.B1.name"].state == "done" and entries["cards.A1.name"].state == "done"
    assert entries["cards.A2.name"].state == "new"  # still fuzzy: nothing recorded


def test_a_po_line_that_names_no_text_is_refused(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": HEROES_DE})
    po = tmp_path / "de.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgctxt "cards/heroes.yaml:cards.Q7.name"\nmsgid "Quinn"\nmsgstr "Quirin"\n',
                  encoding="utf-8")
    before = (folder / "editions/de/cards/heroes.yaml").read_bytes()
    report = Report()
    assert import_po(folder, "de", po, report) == []
    assert [(d.line, d.message.split(":")[0]) for d in report.errors] == [
        (6, "msgctxt 'cards/heroes.yaml")]  # (babel: the line of its msgid)
    assert (folder / "editions/de/cards/heroes.yaml").read_bytes() == before


# --- a card spreadsheet's edition: its texts in cards/NAME.csv.yaml, by card ID ----------------

HEROES_CSV = """\
kind,id,name,set,group,stats.alter,stats.alter_pos,stats.erf_ges,stats.erf_pos,\
stats.fachwissen,stats.gehalt,stats.stundenlohn,stats.krank,stats.sport_a,stats.sport_cov,\
specialty
hero,A1,Ann,A,red,60,50,30,10,"[2, 60]",660000,300.0,4,5,3,
hero,A2,Bob,A,blue,55,45,28,10,"[3, 80]",440000,200.0,9,4,4,
K,L1,Dee,,,50,40,25,10,"[3, 90]",,,,,,Dermatology
hero,B1,Cid,B,red,40,35,12,5,"[1, 30]",220000,100.0,0,8,2,
"""


def _sheet_pack(tmp_path: Path, overlay: str | None) -> Path:
    """The mini pack with all its cards, of both kinds, in one CSV (and `overlay` as the
    German edition's texts of that sheet)."""
    files = {"cards/heroes.yaml": None, "cards/consultants.yaml": None,
             "cards/all.csv": HEROES_CSV}
    if overlay is not None:
        files["editions/de/cards/all.csv.yaml"] = overlay
    return make_pack(tmp_path, files)


def test_a_spreadsheets_cards_are_translated_by_id_across_its_kinds(tmp_path, german):
    folder = _sheet_pack(tmp_path, "cards:\n  A1: {name: Anna}\n  L1: {name: Dora}\n")
    report = Report()
    data = validated(folder, report)
    assert data is not None, _lines(report)
    cards = {lc.card.id: lc for lc in data.cards}
    assert (cards["A1"].card.name, cards["L1"].card.name, cards["B1"].card.name) == \
        ("Anna", "Dora", "Cid")
    assert (cards["A1"].kind, cards["L1"].kind) == ("hero", "K")  # each row keeps its kind
    assert cards["A1"].card.stats == next(lc for lc in _base(folder).cards
                                          if lc.card.id == "A1").card.stats
    missing = [d for d in report.items if "no German translation" in d.message and
               d.file.endswith("all.csv")]
    # said at the cell of each untranslated name (rows 3 and 5, column 3), naming the overlay
    assert [(d.line, d.col, d.message) for d in missing] == [
        (3, 3, "cards.A2.name: no German translation in editions/de/cards/all.csv.yaml"),
        (5, 3, "cards.B1.name: no German translation in editions/de/cards/all.csv.yaml")]


def _base(folder: Path):
    choose_edition(None)
    try:
        return validated(folder, Report())
    finally:
        choose_edition("de")


def test_a_spreadsheets_texts_go_to_po_and_come_back(tmp_path, german):
    from babel.messages.pofile import read_po, write_po
    folder = _sheet_pack(tmp_path, None)
    report = Report()
    po = tmp_path / "de.po"
    po.write_bytes(po_catalog(folder, "de", "Mini", report))
    with po.open("rb") as handle:
        catalog = read_po(handle)
    names = {m.context: m for m in catalog if m.id}
    assert {"cards/all.csv:cards.A1.name", "cards/all.csv:cards.L1.name"} <= set(names)
    assert names["cards/all.csv:cards.L1.name"].id == "Dee"
    names["cards/all.csv:cards.L1.name"].string = "Dora"
    with po.open("wb") as handle:
        write_po(handle, catalog)
    written = import_po(folder, "de", po, report)
    overlay = folder / "editions" / "de" / "cards" / "all.csv.yaml"
    assert written == [overlay] and not report.errors, _lines(report)
    assert "L1:\n    name: Dora" in overlay.read_text(encoding="utf-8")
    assert not (folder / "editions" / "de" / "cards" / "all.csv").exists()
    data = validated(folder, Report())
    assert {lc.card.id: lc.card.name for lc in data.cards}["L1"] == "Dora"
    translated = [e for e in survey(folder, "de", Report()) if e.translation]
    assert [(e.file.as_posix(), e.path, e.state) for e in translated] == [
        ("cards/all.csv", "cards.L1.name", "done")]


def test_an_overlay_without_its_spreadsheet_is_named_with_the_sheet(tmp_path, german):
    folder = _sheet_pack(tmp_path, "cards:\n  A1: {name: Anna}\n")
    edition = folder / "editions" / "de" / "cards"
    (edition / "gone.xlsx.yaml").write_text("cards:\n  A1: {name: Anna}\n", encoding="utf-8")
    (edition / "all.yaml").write_text("cards:\n  A1: {name: Anna}\n", encoding="utf-8")
    (edition / "all.csv").write_text(HEROES_CSV, encoding="utf-8")
    report = Report()
    survey(folder, "de", report)
    assert sorted((Path(d.file).name, d.message) for d in report.errors) == [
        ("all.csv", "an edition holds no spreadsheets: the texts of cards/all.csv go in "
                    "cards/all.csv.yaml, by card ID (cards: {ID: {name: …}})"),
        ("all.yaml", "no base file cards/all.yaml in the pack: an edition's files mirror the "
                     "base files' paths; the texts of cards/all.csv go in cards/all.csv.yaml"),
        ("gone.xlsx.yaml", "no base file cards/gone.xlsx in the pack: an edition's files "
                           "mirror the base files' paths")]
