"""`cardgen new`: every kind in every language gives a pack that checks clean and builds, and its
per-pack schema lets an editor flag unknown keys and misspelt stats."""

from __future__ import annotations

import json
import shutil

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from cardgen.cli.app import app
from conftest import text_layer

KINDS = ("stat", "text")
LANGUAGES = ("en", "de", "nl", "fr", "it")


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def packs(tmp_path_factory):
    """card_data/ with one new pack per kind and language: <language>-<kind>."""
    data = tmp_path_factory.mktemp("new") / "card_data"
    for language in LANGUAGES:
        for kind in KINDS:
            result = run("new", f"{language}-{kind}", "--kind", kind, "--language", language,
                         "--data", data)
            assert result.exit_code == 0, result.output
    return data


def test_every_kind_and_language_checks_strict_clean(packs):
    result = run("check", "--data", packs, "--strict")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    for language in LANGUAGES:
        assert f"{language}-stat: 8 explorer" in result.stdout
        assert f"{language}-text: 16 market" in result.stdout


def test_every_new_pack_builds(packs, tmp_path):
    result = run("build", "--data", packs, "--out", tmp_path, "--only", "cards")
    assert result.exit_code == 0, result.output
    for language in LANGUAGES:
        for kind in KINDS:
            assert (tmp_path / f"{language}-{kind}" / "cards.pdf").stat().st_size > 1000


def test_the_pack_is_in_its_language(packs):
    pack = yaml.safe_load((packs / "de-text" / "pack.yaml").read_text(encoding="utf-8"))
    assert pack["language"] == "de" and pack["title"] == "Markttag"
    chapter = yaml.safe_load((packs / "it-stat" / "rules" / "01-play.yaml").read_text("utf-8"))
    assert chapter["title"] == "Come si gioca"


def test_files_point_at_the_schemas_written_beside_them(packs):
    folder = packs / "en-stat"
    for path in [folder / "pack.yaml", *folder.glob("*/*.yaml")]:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        target = first.split("$schema=", 1)[1]
        assert (path.parent / target).is_file(), path


def card_errors(packs, pack: str, card: dict) -> list[str]:
    schema = json.loads((packs / pack / "schema" / "cards.schema.json").read_text("utf-8"))
    doc = yaml.safe_load((packs / pack / "cards" / "explorers.yaml").read_text("utf-8"))
    doc["cards"][0] = card
    validator = jsonschema.Draft202012Validator(schema)
    return [error.message for error in validator.iter_errors(doc)]


def test_pack_schema_accepts_the_cards_and_flags_typos(packs):
    good = {"id": "E1", "name": "Ada", "group": "land",
            "stats": {"courage": 9, "stamina": 71, "luggage": 24}}
    assert card_errors(packs, "en-stat", good) == []
    assert any("nmae" in e for e in card_errors(packs, "en-stat", {**good, "nmae": "Ada"}))
    typo = {**good, "stats": {"courage": 9, "stamnia": 71, "luggage": 24}}
    assert any("stamnia" in e for e in card_errors(packs, "en-stat", typo))
    assert any("'stamina' is a required property" in e
               for e in card_errors(packs, "en-stat", typo))
    assert card_errors(packs, "en-stat", {**good, "group": "lnad"})


def test_cardgen_schema_of_a_pack_prints_its_cards_schema(packs):
    result = run("schema", "en-text", "--data", packs)
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["properties"]["kind"] == {"enum": ["market"], "description": body[
        "properties"]["kind"]["description"]}
    assert body["$defs"]["Card_market"]["properties"]["texts"]["required"] == ["active",
                                                                               "passive"]


def test_an_existing_folder_is_not_overwritten(packs):
    before = (packs / "en-stat" / "pack.yaml").read_bytes()
    result = run("new", "en-stat", "--data", packs)
    assert result.exit_code == 1
    assert "already exists" in result.stderr
    assert (packs / "en-stat" / "pack.yaml").read_bytes() == before


@pytest.mark.parametrize("name", ["My Game", "-x", "Ä"])
def test_a_pack_name_that_is_no_folder_name_is_a_usage_error(tmp_path, name):
    result = run("new", name, "--data", tmp_path)
    assert result.exit_code == 2
    assert not any(tmp_path.iterdir())


def test_choices_ignore_case(tmp_path):
    result = run("new", "g", "--kind", "TEXT", "--language", "DE", "--data", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g" / "cards" / "market.yaml").is_file()


def test_the_readme_shows_the_new_pack_whole(tmp_path, monkeypatch):
    """The README's minimal example is exactly what `cardgen new my-game` writes."""
    import re
    from cardgen.paths import ROOT
    monkeypatch.chdir(tmp_path)
    assert run("new", "my-game").exit_code == 0
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    folder = tmp_path / "card_data" / "my-game"
    shown = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml"))
    assert shown == ["cards/explorers.yaml", "layouts.yaml", "pack.yaml", "rules/01-play.yaml"]
    for name in shown:
        block = re.search(r"`" + re.escape(name) + r"`:\n\n```yaml\n(.*?)\n```\n", readme, re.S)
        assert block, name
        assert block.group(1) + "\n" == (folder / name).read_text(encoding="utf-8"), name


def test_the_rulebook_of_a_new_pack_has_no_empty_column(packs, tmp_path):
    """The new stat pack's categories say nothing about what they mean: the table of categories
    leaves the Meaning column out instead of printing it empty. Once one category has a
    meaning, the column is there."""
    out = tmp_path / "out"
    assert run("build", "en-stat", "--data", packs, "--out", out, "--only", "rulebook"
               ).exit_code == 0
    book = text_layer((out / "en-stat" / "rulebook.pdf").read_bytes())
    assert "Courage" in book and "highest value wins" in book
    assert "Meaning" not in book
    pack = packs.parent / "explained" / "card_data"
    shutil.copytree(packs / "en-stat", pack / "en-stat")
    pack_yaml = pack / "en-stat" / "pack.yaml"
    text = pack_yaml.read_text(encoding="utf-8")
    assert "    label: Courage\n" in text
    pack_yaml.write_text(text.replace("    label: Courage\n", "    label: Courage\n"
                                      "    meaning: how bold the explorer is\n", 1),
                         encoding="utf-8")
    result = run("build", "en-stat", "--data", pack, "--out", out, "--only", "rulebook")
    assert result.exit_code == 0, result.output
    book = text_layer((out / "en-stat" / "rulebook.pdf").read_bytes())
    assert "Meaning" in book and "how bold the explorer is" in book
