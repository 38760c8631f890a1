"""cardgen schema: JSON Schemas of the pack files, for editors with a YAML language server.

Without a PACK the schemas describe any pack. With one, the cards schema knows that pack: its
kinds, each kind's fields, stats and texts, and its groups, so an editor underlines `nmae:` or a
misspelt stat while the designer types, before any `cardgen check`. Every pack keeps its own
set in <pack>/schema/ (the shipped ones and those of `cardgen new`), which its files name.
With a PACK there is also a schema for each file an edition translates (schema/editions/):
exactly the texts of that file, by its keys and card ids, so a translator's editor flags what
`cardgen check --language` would refuse; `cardgen import` names it in the overlays it writes.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DataOption, complete_packs, data_dir, finish

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def schema_models() -> dict:
    """Each pack file type and the model that validates it."""
    from ..model.balance import Balance
    from ..model.card import CardFile
    from ..model.layout import LayoutSchemaFile
    from ..model.pack import Pack
    from ..model.board import BoardFile
    from ..model.compose import Composition
    from ..model.rules import Chapter
    return {"pack": Pack, "cards": CardFile, "rules": Chapter, "layouts": LayoutSchemaFile,
            "boards": BoardFile, "composition": Composition, "balance": Balance}


def _text(body: dict) -> str:
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def schema_documents() -> dict[str, str]:
    """{file name: JSON text} for every pack file type."""
    out = {}
    for name, model in schema_models().items():
        body = model.model_json_schema()
        body["$schema"] = _DRAFT
        body["title"] = f"cardgen {name} file"
        out[f"{name}.schema.json"] = _text(body)
    return out


def pack_card_schema(data) -> dict:
    """The cards schema of one pack: a card of kind K takes only K's keys, stats and texts."""
    from ..model.card import CardFile
    base = CardFile.model_json_schema()
    card = base["$defs"].pop("Card")
    defs, cases = base["$defs"], []
    for kind in data.pack.kinds:
        name = f"Card_{kind.id}"
        defs[name] = _kind_card(card, data, kind)
        cases.append({"if": {"properties": {"kind": {"const": kind.id}}},
                      "then": {"properties": {"cards": {"items": {"$ref": f"#/$defs/{name}"}}}}})
    base["properties"]["kind"] = {"enum": [k.id for k in data.pack.kinds],
                                  "description": "the kind of every card in this file"}
    base["properties"]["cards"]["items"] = {"type": "object"}
    base["allOf"] = cases
    base["$schema"] = _DRAFT
    base["title"] = f"cards of the pack {data.pack.id}"
    return base


def _kind_card(card: dict, data, kind) -> dict:
    """The card schema narrowed to one kind: unknown keys, stats and groups are flagged."""
    from ..validate.cards import sub_values
    out = copy.deepcopy(card)
    props = out["properties"]
    out["additionalProperties"] = False
    out["title"] = kind.label
    props["id"]["pattern"] = kind.id_pattern
    for field, spec in kind.fields.items():
        props[field] = {"type": "string", "description": spec.label or field}
    out["required"] = ["id", *(f for f, spec in kind.fields.items() if spec.required)]
    groups = [g.id for g in data.pack.groups]
    if groups:
        props["group"] = {"enum": groups}
        props["groups"] = {"type": "array", "items": {"enum": groups}}
    stats = sub_values(data, kind.id)
    props["stats"] = {"type": "object", "additionalProperties": False,
                      "required": sorted(stats),
                      "properties": {key: _stat_schema(spec) for key, spec in stats.items()}}
    if kind.texts:
        props["texts"] = {"type": "object", "required": list(kind.texts),
                          "additionalProperties": {"type": "string"},
                          "properties": {t: {"type": "string"} for t in kind.texts}}
    return out


def _stat_schema(spec) -> dict:
    if spec.type == "level":
        return {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
                "description": f"{spec.label}: [level, detail]"}
    kind = "number" if spec.type == "decimal" else "integer"
    return {"type": kind, "minimum": spec.min, "maximum": spec.max,
            "description": f"{spec.label}{' in ' + spec.unit if spec.unit else ''} "
                           f"({'highest' if spec.wins == 'high' else 'lowest'} wins)"}


def pack_schema_documents(data) -> dict[str, str]:
    """Every schema, the cards schema made for this pack, and one for the texts of each of
    its files an edition may translate (editions/<file>.schema.json)."""
    documents = schema_documents()
    from ..load.editions import overlay_schema_name
    documents["cards.schema.json"] = _text(pack_card_schema(data))
    for rel, body in overlay_schemas(data.folder).items():
        documents[overlay_schema_name(rel)] = _text(body)
    return documents


# --- an edition's overlay files --------------------------------------------------------------

def overlay_schemas(folder: Path) -> dict[Path, dict]:
    """{base file: the schema of its overlay} for every file of the pack that holds a text an
    edition may translate. An overlay holds exactly those texts, by the same keys (a list of
    entries with ids as a mapping by id; any other list entry by entry, as long as the base
    file's, null or {} for one left as it is), and `sources`; anything else is refused by
    `cardgen check` — and flagged by the editor with this schema."""
    from ..load.editions import SOURCES, base_data, base_files, text_keys
    from ..load.source import YamlError
    out = {}
    for rel in base_files(folder):
        try:
            base = base_data(folder, rel)
        except (YamlError, OSError):
            continue  # the pack's own check says what is wrong with the file
        body = _overlay_node(base, None, text_keys(folder, rel))
        if body is None:
            continue
        body["properties"][SOURCES] = {
            "type": "object", "additionalProperties": {"type": "string"},
            "description": "the fingerprint of the text each translation was made from "
                           "(cardgen import writes it)"}
        body.update({"$schema": _DRAFT, "type": "object",
                     "title": f"an edition's texts of {rel.as_posix()}"})
        out[rel] = body
    return out


_LEFT = {"anyOf": [{"type": "null"}, {"type": "object", "maxProperties": 0}],
         "description": "null or {}: this entry as the base file has it"}


def _overlay_node(node, context: str | None, keys) -> dict | None:
    """The schema of what an overlay may hold in place of a base file's `node` (as
    load.editions.texts walks it, and as its merge accepts: any text of a text key, null
    for the base file's); None when the node holds no text."""
    from ..load.editions import child_context, ident, named_items
    if context == "skip":
        return None
    if isinstance(node, dict):
        inner = {str(key): _overlay_node(value, "text" if context == "map" else
                                         child_context(None, key, keys), keys)
                 for key, value in node.items()}
        return _mapping(inner)
    if isinstance(node, list) and named_items(node):
        return _mapping({ident(item): _overlay_node(item, context, keys) for item in node})
    if isinstance(node, list):
        items = [_overlay_node(item, context, keys) for item in node]
        if not any(items):
            return None
        return {"type": "array", "minItems": len(items), "maxItems": len(items),
                "prefixItems": [{"anyOf": [item, _LEFT]} if item else _LEFT for item in items],
                "items": False}
    if isinstance(node, str) and context == "text":
        return {"type": ["string", "null"]}  # null: the base file's text
    return None


def _mapping(properties: dict) -> dict | None:
    kept = {key: value for key, value in properties.items() if value is not None}
    return {"type": ["object", "null"], "properties": kept, "additionalProperties": False} \
        if kept else None


def schema(pack: Annotated[Optional[str], typer.Argument(
               help="A pack id: the cards schema then knows its kinds, fields, stats and "
               "groups.", show_default=False, autocompletion=complete_packs)] = None,
           out: Annotated[Optional[Path], typer.Option(
               "--out", help="Folder to write <kind>.schema.json files into; without it one "
               "schema is printed (the pack schema, or with PACK that pack's cards schema).",
               show_default=False)] = None,
           data: DataOption = None) -> None:
    """Write the JSON Schemas of pack.yaml, cards/*.yaml, rules/*.yaml and layouts (with a
    PACK also those of its editions' files: editions/<file>.schema.json).

    Examples:

      cardgen schema --out schema/          # the general schemas, for any pack

      cardgen schema my-game --out card_data/my-game/schema   # the pack's files name these
    """
    documents = schema_documents()
    if pack is not None:
        documents = _for_pack(pack, data)
    if out is None:
        shown = "cards.schema.json" if pack is not None else "pack.schema.json"
        typer.echo(documents[shown], nl=False)
        return
    from ..output import OutputError, write_all
    try:
        write_all(out, {name: text.encode() for name, text in documents.items()})
    except OutputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {len(documents)} schemas to {out}")


def _for_pack(pack: str, data: Optional[Path]) -> dict[str, str]:
    """The pack's schemas, or exit 1 with the diagnostics when the pack cannot be read."""
    from ..incremental.plan import select_packs
    from ..pipeline.chain import validated as check
    from ..diagnostics import Report
    report = Report()
    folders = select_packs(data_dir(data), [pack], report)
    loaded = check(folders[0], report) if folders else None
    if loaded is None:
        finish(report, False)
        raise typer.Exit(1)
    return pack_schema_documents(loaded)
