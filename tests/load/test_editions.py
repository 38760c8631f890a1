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


def test_an_overlay_may_not_set_a_shared_value(tmp_path, german):
    folder = _pack(tmp_path, {"cards/heroes.yaml": "cards:\n  A1: {name: Anna, set: B}\n"
                                                   "  Z9: {name: Zed}\n"})
    report = Report()
    validated(folder, report)
    shown = "editions/de/cards/heroes.yaml"
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
