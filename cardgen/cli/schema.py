"""cardgen schema: JSON Schemas of the pack files, for editors with a YAML language server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer


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


def schema_documents() -> dict[str, str]:
    """{file name: JSON text} for every pack file type."""
    out = {}
    for name, model in schema_models().items():
        body = model.model_json_schema()
        body["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        body["title"] = f"cardgen {name} file"
        out[f"{name}.schema.json"] = json.dumps(body, indent=2, ensure_ascii=False) + "\n"
    return out


def schema(out: Annotated[Optional[Path], typer.Option(
        "--out", help="Folder to write <kind>.schema.json files into; without it the pack "
        "schema is printed.")] = None) -> None:
    """Write the JSON Schemas of pack.yaml, cards/*.yaml, rules/*.yaml and layouts.

    Example: cardgen schema --out schema/   (the shipped packs point at schema/ already)
    """
    documents = schema_documents()
    if out is None:
        typer.echo(documents["pack.schema.json"], nl=False)
        return
    from ..output import OutputError, write_all
    try:
        write_all(out, {name: text.encode() for name, text in documents.items()})
    except OutputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {len(documents)} schemas to {out}")
