"""What a designer's editor gets: every YAML file of every shipped pack names a JSON Schema in
the pack's own schema/ folder (as `cardgen new` makes it), that schema exists, is what
`cardgen schema PACK` writes today, and accepts the file as it is."""

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
        if path.relative_to(folder).parts[0] == "editions":
            continue  # an edition's overlay files hold texts only: they have no schema yet
        shown = path.relative_to(SHIPPED)
        schema = named_schema(path)
        if schema is None:
            problems.append(f"{shown}: names no schema")
        elif schema.parent != (folder / "schema").resolve() or not schema.is_file():
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
    assert sorted(p.name for p in folder.iterdir()) == sorted(documents)
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
