"""Translations in and out: an edition's texts as a PO file for a translator's own tools, read
back into the overlay files; fingerprints recorded for hand-written translations.

Why PO (Babel's pofile): every translation tool (Poedit, Weblate, Lokalize, OmegaT) opens it,
shows source and translation side by side, keeps a translation marked fuzzy until someone looks
at it again, and names where a text comes from (#: file:line). A translator never sees YAML.
Each message's context is `<base file>:<path of the text>`, so two equal source texts (a suit's
label and its short word) stay two messages.
"""

from __future__ import annotations

import datetime
import io
import re
from pathlib import Path

import yaml

from ..diagnostics import Report, display_path
from .editions import (LANGUAGE_NAMES, SOURCES, Entry, Ident, base_data, named_items,
                       edition_folder, fingerprint, overlay_rel, schema_line, survey)
from .source import read_bounded

_FIXED = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)  # reproducible bytes


def po_catalog(folder: Path, language: str, title: str, report: Report) -> bytes:
    """The PO file of one edition: every text of the base edition, its translation (empty when
    missing), fuzzy where the source changed since it was translated or the translation was
    never confirmed."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po
    catalog = Catalog(locale=language, project=title, creation_date=_FIXED,
                      revision_date=_FIXED, fuzzy=False)
    for entry in survey(folder, language, report):
        flags = ["fuzzy"] if entry.state in ("stale", "new") else []
        comments = {"stale": ["the source text changed since this was translated"],
                    "new": ["not confirmed against its source yet"]}.get(entry.state, [])
        catalog.add(entry.source, entry.translation or "", [(entry.file.as_posix(),
                    entry.source_mark.line)], flags=flags, auto_comments=comments,
                    context=f"{entry.file.as_posix()}:{entry.path}")
    out = io.BytesIO()
    write_po(out, catalog, width=0, sort_output=False)
    return out.getvalue()


MAX_PO_BYTES = 8_000_000  # a PO file holds each text twice, with references and comments


class _PoRefused(Exception):
    """A PO file that is too large or no file."""


def import_po(folder: Path, language: str, po: Path, report: Report) -> list[Path]:
    """The translations of a PO file written into the edition's overlay files. A message marked
    fuzzy keeps the fingerprint it had (it stays stale until confirmed); an empty one removes
    the translation; a text the file does not name keeps what it had. Returns the files
    written; nothing is written when the PO file has a problem (said at its line)."""
    from babel.messages.pofile import read_po
    shown = display_path(po)
    try:
        # a PO file is texts, as the YAML it comes from: the same bound (a folder, a pipe or
        # a device is named as what it is, never read)
        raw = read_bounded(po, MAX_PO_BYTES, lambda message: _PoRefused(message))
        catalog = read_po(io.BytesIO(raw), abort_invalid=True)
    except _PoRefused as exc:
        report.error(shown, 0, 0, "", str(exc))
        return []
    except OSError as exc:
        report.error(shown, 0, 0, "", f"cannot read the file: {exc.strerror}")
        return []
    except Exception as exc:  # babel's PoFileError and what a broken file raises
        # babel counts lines from 0 and ends its message with " on N"
        line = getattr(exc, "lineno", None)
        line = line + 1 if isinstance(line, int) else 0
        said = re.sub(r" on \d+$", "", str(exc))
        report.error(shown, line, 1 if line else 0, "", f"not a readable PO file: {said}")
        return []
    entries = survey(folder, language, report)
    by_context = {f"{e.file.as_posix()}:{e.path}": e for e in entries}
    for message in catalog:
        if not message.id:
            continue  # the header
        entry = by_context.get(message.context or "")
        if entry is None:
            report.error(shown, message.lineno or 0, 1, "", f"msgctxt {message.context!r}: no "
                         "such text in the pack (export the PO file again)")
            continue
        text = message.string if isinstance(message.string, str) else message.string[0]
        if not text:
            entry.translation, entry.recorded = None, None
        elif message.fuzzy:
            entry.translation = text
        else:
            entry.translation, entry.recorded = text, fingerprint(message.id)
    if report.errors:
        return []
    return write_overlays(folder, language, entries)


def write_overlays(folder: Path, language: str, entries: list[Entry]) -> list[Path]:
    """Every overlay file of the edition written anew from `entries` (texts in the base
    file's order, then their fingerprints); one without any translation is removed."""
    written = []
    for rel in dict.fromkeys(e.file for e in entries):
        mine = [e for e in entries if e.file == rel]
        path = edition_folder(folder, language) / overlay_rel(rel)
        done = [e for e in mine if e.translation is not None]
        if not done:
            if path.is_file():
                path.unlink()
                written.append(path)
            continue
        base = base_data(folder, rel)
        tree: dict = {}
        for entry in done:
            _place(tree, base, entry.steps, entry.translation)
        name = LANGUAGE_NAMES.get(language, language)
        text = schema_line(folder, rel) + (
            f"# {name} edition of {rel.as_posix()}: its texts; every other value is the "
            "base file's.\n# Written by cardgen import; `sources` holds the fingerprint of "
            "the text each translation was made from.\n")
        text += yaml.safe_dump(tree, allow_unicode=True, sort_keys=False, width=100,
                               default_flow_style=False)
        text += sources_block({e.path: e.recorded for e in done if e.recorded})
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def sources_block(recorded: dict[str, str]) -> str:
    """The `sources:` mapping as YAML, every key and fingerprint quoted (a fingerprint of
    digits only would read as a number)."""
    if not recorded:
        return ""
    lines = [f"{SOURCES}:"]
    lines += [f"  {_quoted(path)}: \"{value}\"" for path, value in recorded.items()]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def stamp(folder: Path, language: str, report: Report) -> list[Path]:
    """Record the fingerprint of its current source for every translation that has none or
    an old one (after a person checked it): only the `sources:` block of each overlay file is
    written again, the rest of the file (comments, layout) stays as it is."""
    entries = survey(folder, language, report)
    written = []
    for rel in dict.fromkeys(e.file for e in entries):
        mine = [e for e in entries if e.file == rel and e.translation is not None]
        if not any(e.state in ("new", "stale") for e in mine):
            continue
        path = edition_folder(folder, language) / overlay_rel(rel)
        text = path.read_text(encoding="utf-8")
        kept = re.split(rf"(?m)^{SOURCES}:.*\n?", text, maxsplit=1)
        head = kept[0]
        tail = ""
        if len(kept) == 2:  # what follows the block (a later top-level key), kept
            rest = re.split(r"(?m)^(?=\S)", kept[1], maxsplit=1)
            tail = rest[1] if len(rest) == 2 else ""
        head = head if head.endswith("\n") else head + "\n"
        block = sources_block({e.path: fingerprint(e.source) for e in mine})
        path.write_text(head + tail + block, encoding="utf-8")
        written.append(path)
    return written


def _place(tree, base, steps: tuple, value: str) -> None:
    """Put `value` at `steps` into the overlay `tree` mirroring `base` (named list items as a
    mapping by id; other lists in place, {} or null where an item has no text)."""
    node, source = tree, base
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if isinstance(step, Ident):
            index = next(j for j, item in enumerate(source) if str(item.get("id", item.get(
                "key"))) == step)
            child_source, key = source[index], str(step)
        elif isinstance(step, int):
            child_source, key = source[step], step
        else:
            child_source, key = source[step], step
        if last:
            node[key] = value
            return
        if isinstance(node, list):
            if not node[key]:
                node[key] = _empty_like(child_source)
        elif key not in node:
            node[key] = _empty_like(child_source)
        node, source = node[key], child_source


def _empty_like(source):
    if isinstance(source, dict):
        return {}
    if isinstance(source, list) and named_items(source):
        return {}
    if isinstance(source, list):
        return [{} if isinstance(item, dict) else None for item in source]
    return None
