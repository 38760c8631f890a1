"""Editions through the command line: --language for check and build, packs, export --po and
import (issue 28)."""

from __future__ import annotations

from conftest import copy_shipped, make_pack

HEROES_DE = "cards:\n  A1: {name: Annabella}\n"


def _german(tmp_path):
    return make_pack(tmp_path, {"editions/de/cards/heroes.yaml": HEROES_DE})


def test_check_strict_fails_on_a_missing_text(cli, tmp_path):
    _german(tmp_path)
    data = tmp_path / "card_data"
    assert cli("check", "mini", "--data", data).exit_code == 0  # the base edition is whole
    lax = cli("check", "mini", "--data", data, "--language", "de")
    assert lax.exit_code == 0, lax.output
    assert "cards.A2.name: no German translation" in lax.output
    strict = cli("check", "mini", "--data", data, "--language", "de", "--strict")
    assert strict.exit_code == 1 and "Traceback" not in strict.output


def test_an_unknown_edition_is_one_line(cli, tmp_path):
    _german(tmp_path)
    result = cli("check", "mini", "--data", tmp_path / "card_data", "--language", "fr")
    assert result.exit_code == 1
    assert "pack.yaml:4:11: error: language: the pack has no 'fr' edition" in result.output
    assert cli("check", "mini", "--data", tmp_path / "card_data", "--language", "xx"
               ).exit_code == 2


def test_a_translated_card_prints_its_name_in_its_own_folder(cli, tmp_path):
    import pypdfium2 as pdfium
    _german(tmp_path)
    out = tmp_path / "out"
    result = cli("build", "mini", "--data", tmp_path / "card_data", "--out", out,
                 "--language", "de", "--only", "cards")
    assert result.exit_code == 0, result.output
    assert not (out / "mini").exists()  # the base edition's folder is untouched
    document = pdfium.PdfDocument(str(out / "mini-de" / "cards.pdf"))
    text = "".join(page.get_textpage().get_text_range() for page in document)
    document.close()
    assert "Annabella" in text and "Bob" in text  # translated, and the base where none is


def test_packs_lists_editions(cli, tmp_path):
    folder = _german(tmp_path)
    pack = folder / "pack.yaml"
    pack.write_text(pack.read_text(encoding="utf-8") + "editions: {de: draft}\n",
                    encoding="utf-8")
    result = cli("packs", "--data", tmp_path / "card_data")
    assert result.exit_code == 0, result.output
    assert "editions: de (draft)" in result.output


def test_export_po_and_import_it_back(cli, tmp_path):
    _german(tmp_path)
    data = tmp_path / "card_data"
    po = tmp_path / "mini-de.po"
    result = cli("export", "mini", "--data", data, "--language", "de", "--po", po)
    assert result.exit_code == 0, result.output
    text = po.read_text(encoding="utf-8")
    assert 'msgctxt "cards/heroes.yaml:cards.A1.name"' in text and "#: cards/heroes.yaml:" in text
    po.write_text(text.replace('msgid "Bob"\nmsgstr ""', 'msgid "Bob"\nmsgstr "Bobby"'),
                  encoding="utf-8")
    result = cli("import", "mini", po, "--data", data, "--language", "de")
    assert result.exit_code == 0, result.output
    overlay = (data / "mini" / "editions" / "de" / "cards" / "heroes.yaml").read_text("utf-8")
    assert "A2:\n    name: Bobby" in overlay and "Annabella" in overlay
    assert '"cards.A2.name":' in overlay  # confirmed: its source's fingerprint recorded


def test_shipped_english_quartett_is_complete(cli, tmp_path):
    copy_shipped(tmp_path, "quartett")
    result = cli("check", "quartett", "--data", tmp_path / "card_data", "--language", "en",
                 "--strict")
    assert result.exit_code == 0, result.output


def test_an_edited_translation_builds_the_rulebook_again(cli, tmp_path):
    """The rulebook is kept when what it is drawn from is unchanged: a translation is part
    of that."""
    folder = copy_shipped(tmp_path, "quartett")
    args = ("build", "quartett", "--data", tmp_path / "card_data", "--out", tmp_path / "out",
            "--language", "en", "--only", "rulebook")
    assert cli(*args).exit_code == 0
    chapter = folder / "editions" / "en" / "rules" / "04-ende.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("Who Wins?", "Who Won?"),
                       encoding="utf-8")
    result = cli(*args)
    assert result.exit_code == 0 and "rulebook.pdf →" in result.output, result.output


def test_every_shipped_game_has_a_complete_english_edition(cli):
    """Issue 28: each game in English, complete (every text translated from the current
    source), and the strict check passes on it."""
    listed = cli("packs")
    assert listed.exit_code == 0
    for line in listed.stdout.splitlines()[1:]:
        if line.strip():
            assert "en (complete)" in line, line
    result = cli("check", "--language", "en", "--strict")
    assert result.exit_code == 0, result.output


def test_the_english_flagship_rulebook_speaks_english_throughout(cli, tmp_path):
    """Names, the scoring table's column heads (labels scoring_<key>) and the octet values
    the composition declares, in the English rulebook."""
    from pypdf import PdfReader
    out = tmp_path / "out"
    result = cli("build", "crazy-hospital", "--language", "en", "--only", "rulebook",
                 "--out", out)
    assert result.exit_code == 0, result.output
    text = " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(out / "crazy-hospital-en" / "rulebook.pdf").pages)
    assert "Harriet Rhythm" in text and "Hertha Rhythmus" not in text
    assert "What scores Points" in text
    assert "Octet red (Anaesthesia) 80 + card points" in text
    assert "Kartenpunkte" not in text and "Spieler" not in text


def test_a_broken_po_file_is_named_at_its_line_and_nothing_is_written(cli, tmp_path):
    """babel counts lines from 0: the line said is the line an editor shows."""
    _german(tmp_path)
    data = tmp_path / "card_data"
    overlay = data / "mini" / "editions" / "de" / "cards" / "heroes.yaml"
    before = overlay.read_bytes()
    po = tmp_path / "broken.po"
    po.write_text('msgid "Bob"\nmsgstr "Bobby"\n\nx"garbage\n', encoding="utf-8")
    result = cli("import", "mini", po, "--data", data, "--language", "de")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"{po}:4:1: error: not a readable PO file: "
                                             "Unknown or misformatted keyword")
    assert overlay.read_bytes() == before
    result = cli("import", "mini", tmp_path, "--data", data, "--language", "de")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (f"{tmp_path}: error: is a folder, not a file "
                                             "cardgen can read")


def test_import_names_the_overlays_schema_when_the_pack_has_it(cli, tmp_path):
    """An overlay written by `cardgen import` names its JSON Schema (so that the translator's
    editor flags a key the base file does not have) once `cardgen schema PACK --out
    PACK/schema` has written it, and that schema accepts the overlay; without it, no line
    points at nothing."""
    import json

    import jsonschema
    import yaml
    _german(tmp_path)
    data = tmp_path / "card_data"
    po = tmp_path / "mini-de.po"
    overlay = data / "mini" / "editions" / "de" / "cards" / "heroes.yaml"
    assert cli("export", "mini", "--data", data, "--language", "de", "--po", po).exit_code == 0
    po.write_text(po.read_text(encoding="utf-8").replace('msgid "Bob"\nmsgstr ""',
                                                         'msgid "Bob"\nmsgstr "Bobby"'),
                  encoding="utf-8")
    assert cli("import", "mini", po, "--data", data, "--language", "de").exit_code == 0
    assert "yaml-language-server" not in overlay.read_text(encoding="utf-8")
    assert cli("schema", "mini", "--data", data, "--out", data / "mini" / "schema"
               ).exit_code == 0
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Bobby"', 'msgstr "Bobbi"'),
                  encoding="utf-8")
    assert cli("import", "mini", po, "--data", data, "--language", "de").exit_code == 0
    first, text = overlay.read_text(encoding="utf-8").split("\n", 1)
    assert first == ("# yaml-language-server: $schema=../../../schema/editions/cards/"
                     "heroes.schema.json") and "Bobbi" in text
    schema = json.loads((data / "mini" / "schema" / "editions" / "cards" /
                         "heroes.schema.json").read_text(encoding="utf-8"))
    document = yaml.safe_load(text)
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    document["cards"]["A2"]["nmae"] = "Bob"
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(document))
