"""cardgen new: a pack folder that checks and builds at once, to start a game from.

Why: a designer learns the pack format fastest from a small pack that works and is theirs to
change. The files come from templates/new/ (the same for every language; the words per language
are in templates/new/words.yaml), so the scaffold is data like every pack, and the schemas the
files point at are written beside them for the editor.
"""

from __future__ import annotations

import json
import os
import re
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DataOption, DEFAULT_DATA


class PackKind(str, Enum):
    stat = "stat"
    text = "text"


class Language(str, Enum):
    en = "en"
    de = "de"
    nl = "nl"
    fr = "fr"
    it = "it"


_SLUG = re.compile(r"^[a-z0-9][a-z0-9_\-]*$")
MAX_NAME = 64  # a pack id: its folder's name, and part of the output's file names


def refused_pack_name(name: str) -> str | None:
    """Why a name the slug allows cannot name a pack folder: too long, or a name Windows keeps
    for a device (con, nul, com1 ...: such a folder cannot be copied to Windows)."""
    from ..output import WINDOWS_DEVICES
    if len(name) > MAX_NAME:
        return f"a pack's name has at most {MAX_NAME} characters (this one has {len(name)})"
    if name.split(".")[0].upper() in WINDOWS_DEVICES:
        return "Windows keeps this name for a device: a folder so named cannot be copied there"
    return None


def new(pack: Annotated[str, typer.Argument(help="The new pack's id: its folder name, lower "
                                            "case, e.g. my-game.", show_default=False)],
        kind: Annotated[PackKind, typer.Option(
            "--kind", case_sensitive=False,
            help="stat: cards with values to compare; text: cards with an active and a passive "
            "text.")] = PackKind.stat,
        language: Annotated[Language, typer.Option(
            "--language", case_sensitive=False,
            help="Language of the texts on the cards and in the rulebook.")] = Language.en,
        data: DataOption = None) -> None:
    """Start a new pack: card_data/PACK/ with cards, a picture, layouts and a rulebook chapter.

    It checks and builds as it is; change it from there.

    Examples:

      cardgen new my-game                   # then: cardgen build my-game

      cardgen new mein-spiel --kind text --language de --data ~/games
    """
    if not _SLUG.match(pack):
        raise typer.BadParameter(f"{pack!r}: use lower-case letters, digits and '-' "
                                 "(it becomes the folder name), e.g. my-game", param_hint="PACK")
    refused = refused_pack_name(pack)
    if refused:
        raise typer.BadParameter(f"{pack[:40]!r}{'…' if len(pack) > 40 else ''}: {refused}",
                                 param_hint="PACK")
    folder = (data or DEFAULT_DATA) / pack
    from ..output import OutputError, refused_name, write_all, wrong_kind
    if os.path.lexists(folder):  # (a link, also one to nothing, is not written through)
        what = "a link" if folder.is_symlink() else "a file" if not folder.is_dir() else ""
        typer.echo(f"{folder}: error: already exists{f' ({what})' if what else ''}; choose "
                   "another name or remove it", err=True)
        raise typer.Exit(1)
    parent = next((p for p in folder.parents if os.path.lexists(p)), None)
    if parent is not None and not parent.is_dir():
        typer.echo(f"error: {wrong_kind(parent, 'folder')}", err=True)
        raise typer.Exit(1)
    files = scaffold(pack, kind.value, language.value, folder)
    too_long = next((f"{folder / name}: {refused_name(folder / name)}" for name in files
                     if refused_name(folder / name)), None)
    if too_long:
        typer.echo(f"error: cannot make the pack there: {too_long}", err=True)
        raise typer.Exit(1)
    try:
        write_all(folder, files)
    except OutputError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1)
    shown = folder.parent
    flag = "" if shown == DEFAULT_DATA else f" --data {shown}"
    typer.echo(f"created {folder}/ ({len(files)} files)")
    typer.echo(f"next: cardgen build {pack}{flag}   (or: cardgen watch {pack}{flag})")


def scaffold(pack: str, kind: str, language: str, folder: Path) -> dict[str, bytes]:
    """{relative path: content} of the new pack, schemas included."""
    import yaml
    from ..paths import TEMPLATES
    source = TEMPLATES / "new"
    content = yaml.safe_load((source / "content.yaml").read_text(encoding="utf-8"))[kind]
    words = yaml.safe_load((source / "words.yaml").read_text(encoding="utf-8"))[language]
    values = _values(pack, kind, language, folder, content, words)
    files = {"pack.yaml": "pack.yaml.j2", "layouts.yaml": "layouts.yaml.j2",
             f"cards/{content['file']}.yaml": f"cards-{kind}.yaml.j2",
             "rules/01-play.yaml": "rules.yaml.j2"}
    env = _environment(source)
    out = {name: env.get_template(template).render(values).encode() + b"\n"
           for name, template in files.items()}
    out["images/picture.png"] = (source / "picture.png").read_bytes()
    out.update(_schemas(out, folder))
    return out


def _values(pack: str, kind: str, language: str, folder: Path, content: dict,
            words: dict) -> dict:
    """What the templates fill in: ids, groups, stats and cards with their words."""
    w = {**words[kind], "play": words["play"]}
    groups = [{**g, "label": w["groups"][g["id"]][0], "short": w["groups"][g["id"]][1]}
              for g in content["groups"]]
    stats = [{**s, "label": w["stats"][s["key"]]} for s in content.get("stats", [])]
    cards = []
    for index, card in enumerate(content["cards"]):
        card = dict(card)
        if kind == "stat":
            card["title"] = w["titles"][index]
        else:
            card.update(name=w["names"][index], active=w["active"][index],
                        passive=w["passive"][index])
        cards.append(card)
    return {"id": pack, "kind": kind, "language": language, "folder": folder.as_posix(),
            "kind_id": content["kind_id"], "prefix": content["prefix"], "w": w,
            "groups": groups, "stats": stats, "cards": cards,
            "labels": words.get("labels", {}) if kind == "stat" else {}}


def _environment(source: Path):
    """Jinja with [[ ]] and [% %], so that the rule texts' own {{ }} pass through."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(source),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                             variable_start_string="[[", variable_end_string="]]",
                             block_start_string="[%", block_end_string="%]",
                             autoescape=False)
    env.filters["q"] = _scalar
    return env


_PLAIN = re.compile(r"^[^\W\d_][^:#\[\]{}\"'&*!|>%@`]*$")


def _scalar(text: str) -> str:
    """Text as a YAML scalar: plain where YAML reads it back as the same text, else quoted."""
    import yaml
    if _PLAIN.match(text) and not text.endswith(" ") and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _schemas(files: dict[str, bytes], folder: Path) -> dict[str, bytes]:
    """schema/*.json for the new pack (its cards schema knows its kinds and stats), read from
    the files just made, in a scratch copy."""
    import tempfile
    from ..pipeline.chain import validated as check
    from ..diagnostics import Report
    from .schema import pack_schema_documents
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / folder.name
        for name, content in files.items():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes(content)
        report = Report()
        loaded = check(copy, report)
        if loaded is None or report.errors:  # the templates are ours: a bug, not a user mistake
            raise RuntimeError("the new pack does not check: " +
                               "; ".join(d.format() for d in report.errors))
        documents = pack_schema_documents(loaded)
    return {f"schema/{name}": text.encode() for name, text in documents.items()}
