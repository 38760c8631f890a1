"""What a designer's (and a translator's) editor gets: every YAML file of every shipped pack, an
edition's overlay files included, names a JSON Schema in the pack's own schema/ folder (as
`cardgen new` makes it), that schema exists, is what `cardgen schema PACK` writes today, and
accepts the file as it is."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from cardgen.cli.schema import pack_schema_documents
from cardgen.paths import find_packs

from conftest import SHIPPED, shipped_data

PACKS = [folder.name for folder in find_packs(SHIPPED)]
MARK = "# yaml-language-server: $schema="


def named_schema(path: Path) -> Path | None:
    """The schema the file's first line names, as a path (None without such a line)."""
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    return (path.parent / first[len(MARK):]).resolve() if first.startswith(MARK) else None


@pytest.mark.parametrize("pack", PACKS)
def test_every_file_names_a_schema_of_its_pack_that_accepts_it(pack):
    folder = SHIPPED / pack
    problems = []
    for path in sorted(folder.rglob("*.yaml")):
        shown = path.relative_to(SHIPPED)
        schema = named_schema(path)
        if schema is None:
            problems.append(f"{shown}: names no schema")
        elif not schema.is_relative_to((folder / "schema").resolve()) or not schema.is_file():
            problems.append(f"{shown}: {schema} is not a schema in {pack}/schema/")
        else:
            validator = jsonschema.Draft202012Validator(json.loads(schema.read_text("utf-8")))
            document = yaml.safe_load(path.read_text(encoding="utf-8"))
            problems += [f"{shown}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
                         for e in validator.iter_errors(document)]
    assert not problems


@pytest.mark.parametrize("pack", PACKS)
def test_the_pack_schemas_are_what_cardgen_schema_writes(pack):
    """After a change to the models, a kind or a stat: cardgen schema PACK --out
    card_data/PACK/schema (the test says which pack)."""
    documents = pack_schema_documents(shipped_data(pack))
    folder = SHIPPED / pack / "schema"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.json")) == \
        sorted(documents)
    stale = [name for name, text in documents.items()
             if (folder / name).read_text(encoding="utf-8") != text]
    assert not stale, f"run: cardgen schema {pack} --out card_data/{pack}/schema"


def test_a_card_schema_of_a_pack_flags_a_misspelt_stat():
    """The reason for a schema per pack: the generic one cannot know the stats."""
    schema = json.loads((SHIPPED / "crazy-hospital" / "schema" / "cards.schema.json")
                        .read_text(encoding="utf-8"))
    document = yaml.safe_load((SHIPPED / "crazy-hospital" / "cards" / "character.yaml")
                              .read_text(encoding="utf-8"))
    document["cards"][0]["stats"]["iqq"] = document["cards"][0]["stats"].pop("iq")
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(document)]
    assert any("iqq" in message for message in errors)


@pytest.mark.parametrize("change, said", [
    (lambda d: d["cards"]["A1"].update(nmae=d["cards"]["A1"].pop("name")), "nmae"),
    (lambda d: d["cards"].update(A99={"name": "Nobody"}), "A99"),
    (lambda d: d["cards"]["A1"].update(iq="141"), "iq"),
    (lambda d: d["cards"]["A1"].update(name=["a list"]), "name"),
])
def test_an_overlay_schema_flags_what_check_refuses(tmp_path, copy_shipped, change, said):
    """An edition's schema and `cardgen check --language` agree: a misspelt key, a card the
    base file does not hold, a value that is no text (a stat), a text that is a list."""
    from typer.testing import CliRunner
    from cardgen.cli.app import app
    pack = copy_shipped(tmp_path)
    overlay = pack / "editions" / "en" / "cards" / "character.yaml"
    document = yaml.safe_load(overlay.read_text(encoding="utf-8"))
    change(document)
    schema = json.loads(named_schema(overlay).read_text(encoding="utf-8"))
    errors = ["/".join(map(str, e.absolute_path)) + ": " + e.message
              for e in jsonschema.Draft202012Validator(schema).iter_errors(document)]
    assert any(said in error for error in errors), errors
    head = overlay.read_text(encoding="utf-8").split("cards:", 1)[0]
    overlay.write_text(head + yaml.safe_dump(document, allow_unicode=True, sort_keys=False),
                       encoding="utf-8")
    result = CliRunner().invoke(app, ["check", "crazy-hospital", "--data", str(pack.parent),
                                      "--language", "en"])
    assert result.exit_code == 1 and "character.yaml" in result.output, result.output
