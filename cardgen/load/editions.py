"""Editions: one game in several languages.

A pack's files are its base edition, in the pack's own language. Another edition is a folder
`editions/<language>/` of overlay files that mirror the base files' paths (pack.yaml,
cards/*.yaml, rules/*.yaml, composition.yaml, boards.yaml, layouts.yaml; a card spreadsheet's
texts in a YAML file named after it, cards/heroes.csv → cards/heroes.csv.yaml) and hold only texts:
what players read. When a command works on that edition (`--language`), every base file is read
with its overlay merged over it (`overlaid`), so every stage after load sees one pack, and a
diagnostic about a translated text points at the overlay's line (its values keep their marks).

Why one rule for every file instead of a list per model: a text is a string under a key that
names something read (TEXT_KEYS) or a value of a mapping of words (MAP_KEYS: labels, card
texts); everything else (IDs, stats, groups, layouts, pictures) is shared and an overlay may not
set it. The same walk finds what an edition lacks (`survey`), what `cardgen export --po` lists
and where `cardgen import` writes a translation back.

Beside its texts an overlay file keeps `sources:`, a fingerprint of the base text each
translation was made from (dotted path → 8 hex digits); a translation whose fingerprint is not
the base text's any more is stale.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ..diagnostics import Report, did_you_mean, display_path
from ..model.marks import Mark, MarkedDict, MarkedList
from ..paths import chosen_edition
from .source import YamlError, load_yaml, read_mapping
from .spreadsheet import SUFFIXES as SHEET_SUFFIXES

EDITIONS = "editions"
SOURCES = "sources"  # the overlay file's fingerprints of the texts it translates
# what a translation's files may overlay, relative to the pack folder
OVERLAID = ("pack.yaml", "composition.yaml", "boards.yaml", "layouts.yaml", "cards", "rules")
LANGUAGE_NAMES = {"de": "German", "nl": "Dutch", "en": "English", "fr": "French",
                  "it": "Italian"}

# keys whose text (or list of texts) players read
TEXT_KEYS = frozenset({
    "title", "subtitle", "description", "label", "plural", "short", "short_plural", "meaning",
    "note", "tie_break", "name", "quote", "unit", "caption", "text", "columns", "cells",
    "rows", "header", "p", "h2", "list", "steps", "example", "components", "anatomy", "setup",
    "turn", "needs"})
# keys holding a mapping of words (or a list of such mappings): each value is a text
MAP_KEYS = frozenset({"labels", "texts", "callouts", "scoring"})
# shared settings that hold strings no player reads as prose, or words checked per pack
SKIP_KEYS = frozenset({"glossary", "stat_rules", "not_printed", "print", "icons", "id",
                       "id_pattern", "language", "locale", "editions", "schema"})
# layouts are the designer's: only what a region prints is read by players
LAYOUT_TEXT_KEYS = frozenset({"text"})
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


class Ident(str):
    """A list item named by its `id` (or `key`): an overlay writes it as a mapping key."""


Step = "str | int | Ident"


def fingerprint(text: str) -> str:
    """The short fingerprint of a base text kept beside its translation."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=4).hexdigest()


def dotted(steps: tuple) -> str:
    return ".".join(str(s) for s in steps)


def is_prose(text: str) -> bool:
    """A text worth translating: letters outside Jinja expressions ('{{ card.set }}' and '♠'
    read the same in every language)."""
    return any(ch.isalpha() for ch in _TEMPLATE.sub("", text))


def pack_of(path: Path) -> tuple[Path, Path] | None:
    """(pack folder, path relative to it) for a file of a pack's base edition, else None."""
    for folder in list(path.parents)[:3]:
        if (folder / "pack.yaml").is_file():
            rel = path.relative_to(folder)
            if rel.parts[0] not in OVERLAID or rel.parts[0] == EDITIONS:
                return None
            return folder, rel
    return None


def overlay_rel(rel: Path) -> Path:
    """Where an edition keeps the texts of a base file (paths relative to their folders): the
    same path; a card spreadsheet's texts in a YAML file of its name (cards/heroes.csv →
    cards/heroes.csv.yaml: an overlay holds texts by card ID, not rows and columns)."""
    return rel.with_name(rel.name + ".yaml") if rel.suffix in SHEET_SUFFIXES else rel


def overlay_schema_name(rel: Path) -> str:
    """Where the JSON Schema of base file `rel`'s overlay lies in the pack's schema/ folder
    (cli.schema writes it): editions/cards/heroes.schema.json; a spreadsheet's
    editions/cards/heroes.csv.schema.json."""
    return (Path(EDITIONS) / overlay_rel(rel).with_suffix("")).as_posix() + ".schema.json"


def schema_line(folder: Path, rel: Path) -> str:
    """The first line of base file `rel`'s overlay file: the schema an editor checks it with,
    when the pack's schema/ folder holds it (`cardgen schema PACK --out PACK/schema`)."""
    name = overlay_schema_name(rel)
    if not (folder / "schema" / name).is_file():
        return ""
    up = "../" * (len(overlay_rel(rel).parts) + 1)  # from editions/LANG/<rel>'s folder
    return f"# yaml-language-server: $schema={up}schema/{name}\n"


def base_rel(rel: Path) -> Path:
    """The base file an overlay file (relative to its edition's folder) translates."""
    bare = rel.with_name(rel.name.removesuffix(".yaml"))
    return bare if bare.suffix in SHEET_SUFFIXES else rel


def overlay_of(path: Path, language: str | None = None) -> Path | None:
    """The overlay file of a base file in the edition being worked on (None: none exists)."""
    language = language or chosen_edition()
    where = pack_of(Path(path)) if language else None
    if where is None:
        return None
    folder, rel = where
    overlay = folder / EDITIONS / language / overlay_rel(rel)
    return overlay if overlay.is_file() else None


def edition_folder(folder: Path, language: str) -> Path:
    return folder / EDITIONS / language


def editions_of(folder: Path) -> list[str]:
    """The languages of a pack's translated editions (its folders under editions/)."""
    base = folder / EDITIONS
    return sorted(p.name for p in base.iterdir() if p.is_dir()) if base.is_dir() else []


# --- reading an overlay over its base ---------------------------------------------------------

def read_overlay(path: Path, report: Report) -> MarkedDict | None:
    """An overlay file's mapping, or None with its problem said at its line."""
    return read_mapping(path, report, ", as in the base file")


def overlaid(raw: MarkedDict, path: Path, report: Report) -> MarkedDict:
    """A base file's data with its overlay (of the chosen edition) merged over it. Where the
    overlay is at fault, the problem is said at the overlay's line and the base value kept."""
    overlay_path = overlay_of(path)
    if overlay_path is None:
        return raw
    overlay = read_overlay(overlay_path, report)
    if overlay is None:
        return raw
    merger = _Merger(display_path(overlay_path), report, text_keys(*pack_of(Path(path))))
    body = MarkedDict((k, v) for k, v in overlay.items() if k != SOURCES)
    body.mark, body.key_marks, body.value_marks = (overlay.mark, overlay.key_marks,
                                                   overlay.value_marks)
    return merger.merge(raw, body, None, ())


def overlaid_sheet(groups: list, path: Path, report: Report) -> list:
    """A card spreadsheet's card_groups with its overlay (of the chosen edition) merged over
    their cards, as `overlaid` does for a YAML file: one overlay for the sheet's cards of every
    kind, by card ID."""
    from .spreadsheet import one_card_file, regrouped
    if overlay_of(path) is None:
        return groups
    whole = one_card_file(groups, display_path(path))
    if whole is None:
        return groups
    return regrouped(groups, overlaid(whole, path, report)["cards"])


def _copy(node: MarkedDict) -> MarkedDict:
    out = MarkedDict(node)
    out.mark, out.key_marks, out.value_marks = node.mark, dict(node.key_marks), \
        dict(node.value_marks)
    for attr in ("said",):
        if hasattr(node, attr):
            setattr(out, attr, getattr(node, attr))
    return out


def text_keys(folder: Path, rel: Path) -> frozenset[str]:
    """The keys whose values are texts in a file of the pack (relative to its folder): in a
    card file also the fields pack.yaml's kinds declare as read by players
    (`fields: {specialty: {label: Specialty, translated: true}}`)."""
    if rel.parts[0] == "layouts.yaml":
        return LAYOUT_TEXT_KEYS
    if rel.parts[0] != "cards":
        return TEXT_KEYS
    try:
        pack = load_yaml(folder / "pack.yaml", display_path(folder / "pack.yaml"))
    except (YamlError, OSError):
        return TEXT_KEYS
    kinds = pack.get("kinds") if isinstance(pack, dict) else None
    declared = {name for kind in kinds if isinstance(kind, dict) and
                isinstance(kind.get("fields"), dict) for name, spec in kind["fields"].items()
                if isinstance(spec, dict) and spec.get("translated") is True} \
        if isinstance(kinds, list) else set()
    return TEXT_KEYS | declared if declared else TEXT_KEYS


def child_context(context: str | None, key: str, keys: frozenset[str] = TEXT_KEYS
                  ) -> str | None:
    """What the value under `key` is: 'text', 'map' (a mapping of texts), 'skip' or None."""
    if context == "skip" or key in SKIP_KEYS:
        return "skip"
    if context == "map":
        return "text"
    if key in MAP_KEYS and keys is not LAYOUT_TEXT_KEYS:
        return "map"
    return "text" if key in keys else None


def ident(item: Any) -> str | None:
    if isinstance(item, dict):
        for key in ("id", "key"):
            if isinstance(item.get(key), str):
                return item[key]
    return None


def named_items(node: list) -> bool:
    return bool(node) and all(ident(item) is not None for item in node)


class _Merger:
    def __init__(self, shown: str, report: Report, keys: frozenset[str]):
        self.shown, self.report, self.keys = shown, report, keys

    def error(self, mark: Mark, steps: tuple, message: str) -> None:
        where = dotted(steps)
        self.report.error(self.shown, mark.line, mark.col, "",
                          f"{where}: {message}" if where else message)

    def merge(self, base: Any, over: Any, context: str | None, steps: tuple) -> Any:
        mark = getattr(over, "mark", None)
        if over is None:
            return base
        if context == "skip":
            self.error(mark, steps, "is not a text: every edition shares the base file's "
                       "value; leave it out")
            return base
        if isinstance(base, MarkedDict):
            if not isinstance(over, MarkedDict):
                self.error(mark, steps, "must be a mapping of key: value, as in the base file")
                return base
            out = _copy(base)
            for key, value in over.items():
                if key not in base:
                    self.error(over.key_marks[key], steps + (key,), "the base file has no such "
                               f"key here{did_you_mean(key, list(base))}; an edition "
                               "translates only what the base file holds")
                    continue
                inner = "text" if context == "map" else child_context(None, key, self.keys)
                out[key] = self.merge(base[key], value, inner, steps + (key,))
                if out[key] is not base[key] and not isinstance(out[key], (dict, list)):
                    out.value_marks[key] = over.value_marks[key]
            return out
        if isinstance(base, MarkedList):
            return self._merge_list(base, over, context, steps, mark)
        if isinstance(base, str) and context == "text":
            if not isinstance(over, str):
                self.error(mark, steps, "must be text, as in the base file")
                return base
            return over
        self.error(mark, steps, "is not a text: every edition shares the base file's value "
                   f"(at {display_path(base.mark.file) if hasattr(base, 'mark') else 'its line'}"
                   f"{':' + str(base.mark.line) if hasattr(base, 'mark') else ''}); leave it out")
        return base

    def _merge_list(self, base: MarkedList, over: Any, context, steps: tuple, mark) -> Any:
        out = MarkedList(base)
        out.mark, out.item_marks = base.mark, list(base.item_marks)
        if named_items(base):
            if not isinstance(over, MarkedDict):
                self.error(mark, steps, "must be a mapping by id (each entry's id: its texts)")
                return base
            where = {ident(item): i for i, item in enumerate(base)}
            for name, value in over.items():
                if name not in where:
                    self.error(over.key_marks[name], steps + (Ident(name),), "no such id in "
                               f"the base file{did_you_mean(name, list(where))}")
                    continue
                i = where[name]
                out[i] = self.merge(base[i], value, context, steps + (Ident(name),))
                if not isinstance(out[i], (dict, list)) and out[i] is not base[i]:
                    out.item_marks[i] = over.value_marks[name]
            return out
        if not isinstance(over, MarkedList):
            self.error(mark, steps, "must be a list, as in the base file")
            return base
        if len(over) != len(base):
            self.error(mark, steps, f"holds {len(over)} entries, the base file {len(base)}: "
                       "an edition translates each entry in its place (write {} or null for "
                       "one without texts)")
            return base
        for i, value in enumerate(over):
            if value is None or (isinstance(value, dict) and not value):
                continue
            out[i] = self.merge(base[i], value, context, steps + (i,))
            if not isinstance(out[i], (dict, list)) and out[i] is not base[i]:
                out.item_marks[i] = over.item_marks[i]
        return out


# --- the texts of a file, and what an edition holds for each ---------------------------------

def texts(node: Any, context: str | None = None, steps: tuple = (),
          keys: frozenset[str] = TEXT_KEYS) -> Iterator[tuple]:
    """(steps, text) of every text of a base file's data, in the file's order."""
    if context == "skip":
        return
    if isinstance(node, dict):
        for key, value in node.items():
            inner = "text" if context == "map" else child_context(None, key, keys)
            yield from texts(value, inner, steps + (key,), keys)
    elif isinstance(node, list):
        named = named_items(node)
        for i, item in enumerate(node):
            step = Ident(ident(item)) if named else i
            yield from texts(item, context, steps + (step,), keys)
    elif isinstance(node, str) and context == "text" and is_prose(node):
        yield steps, node


def lookup(node: Any, steps: tuple) -> Any:
    """The overlay's value at `steps` (named list items are mapping keys there), or None."""
    for step in steps:
        if isinstance(node, dict) and str(step) in node and not isinstance(step, int):
            node = node[str(step)]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return None
    return node


def mark_of(node: Any, steps: tuple) -> Mark | None:
    """The position of the value at `steps` in a (base or overlay) file's data."""
    mark = getattr(node, "mark", None)
    for step in steps:
        if isinstance(node, dict) and isinstance(step, str) and step in node:
            mark, node = node.value_marks[step], node[step]
        elif isinstance(node, list) and isinstance(step, Ident):
            index = next((i for i, item in enumerate(node) if ident(item) == step), None)
            if index is None:
                return mark
            mark, node = node.item_marks[index], node[index]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            mark, node = node.item_marks[step], node[step]
        else:
            return mark
    return mark


@dataclass
class Entry:
    """One text of the base edition and what the edition holds for it."""

    file: Path          # the base file, relative to the pack folder
    path: str           # dotted path of the text in the file
    steps: tuple
    source: str         # the base text
    source_mark: Mark
    translation: str | None = None
    mark: Mark | None = None        # of the translation in the overlay file
    recorded: str | None = None     # the fingerprint kept beside it

    @property
    def state(self) -> str:
        """'missing', 'new' (no fingerprint kept), 'stale' (the source changed) or 'done'."""
        if self.translation is None:
            return "missing"
        if self.recorded is None:
            return "new"
        return "done" if self.recorded == fingerprint(self.source) else "stale"


def base_files(folder: Path) -> list[Path]:
    """The pack's files an edition may overlay, relative to the pack folder, in name order
    (card spreadsheets among the card files)."""
    found = [Path(name) for name in OVERLAID if (folder / name).is_file()]
    for sub, suffixes in (("cards", (".yaml", *SHEET_SUFFIXES)), ("rules", (".yaml",))):
        if (folder / sub).is_dir():
            found += sorted(p.relative_to(folder) for p in (folder / sub).iterdir()
                            if p.suffix in suffixes and p.is_file() and
                            not p.name.startswith(("~$", ".#")))
    return found


def base_data(folder: Path, rel: Path) -> MarkedDict:
    """A base file's data as an overlay mirrors it; a card spreadsheet's as one card file of
    all its rows ({cards: [...]}). YamlError or OSError when it cannot be read."""
    path = folder / rel
    if rel.suffix not in SHEET_SUFFIXES:
        return load_yaml(path, display_path(path))
    from .spreadsheet import card_groups, one_card_file
    report = Report()  # its problems are said by the load stage
    whole = one_card_file(card_groups(path, None, report), display_path(path))
    if whole is None:
        raise OSError(f"{display_path(path)} holds no cards")
    return whole


def survey(folder: Path, language: str, report: Report) -> list[Entry]:
    """Every text of the base edition with its translation in `language`, if any. Problems of
    the overlay files (a file without a base file, a broken fingerprint map) are said."""
    entries: list[Entry] = []
    overlay_root = edition_folder(folder, language)
    for rel in base_files(folder):
        try:
            base = base_data(folder, rel)
        except (YamlError, OSError):
            continue  # said by the load stage
        overlay_path = overlay_root / overlay_rel(rel)
        overlay = read_overlay(overlay_path, Report()) if overlay_path.is_file() else None
        recorded = _sources(overlay, display_path(overlay_path), report)
        for steps, text in texts(base, keys=text_keys(folder, rel)):
            path = dotted(steps)
            value = lookup(overlay, steps) if overlay is not None else None
            entry = Entry(rel, path, steps, text, mark_of(base, steps))
            if isinstance(value, str):
                entry.translation, entry.mark = value, mark_of(overlay, steps)
                entry.recorded = recorded.get(path)
            entries.append(entry)
    for path in sorted(overlay_root.rglob("*")) if overlay_root.is_dir() else []:
        rel = path.relative_to(overlay_root)
        if path.is_file():
            _check_overlay_name(folder, rel, display_path(path), report)
    return entries


def _check_overlay_name(folder: Path, rel: Path, shown: str, report: Report) -> None:
    """An edition's file that translates no base file (a misspelt name, a file left after its
    base was removed, a spreadsheet copied in): an error naming where its texts belong."""
    sheets = [folder / rel.parent / (rel.stem + s) for s in SHEET_SUFFIXES] \
        if rel.parts[0] == "cards" else []
    sheet = next((p for p in sheets if p.is_file()), None)
    if rel.suffix in SHEET_SUFFIXES:
        report.error(shown, 0, 0, "", f"an edition holds no spreadsheets: the texts of "
                     f"{rel.as_posix()} go in {overlay_rel(rel).as_posix()}, by card ID "
                     "(cards: {ID: {name: …}})")
    elif not (folder / base_rel(rel)).is_file():
        where = f"; the texts of {sheet.relative_to(folder).as_posix()} go in " \
            f"{overlay_rel(sheet.relative_to(folder)).as_posix()}" if sheet else ""
        report.error(shown, 0, 0, "", f"no base file {base_rel(rel).as_posix()} in the pack: "
                     f"an edition's files mirror the base files' paths{where}")


def _sources(overlay: MarkedDict | None, shown: str, report: Report) -> dict[str, str]:
    found = overlay.get(SOURCES) if overlay is not None else None
    if found is None:
        return {}
    if not isinstance(found, MarkedDict) or not all(isinstance(v, str) for v in found.values()):
        mark = overlay.value_marks[SOURCES]
        report.error(shown, mark.line, mark.col, "", f"{SOURCES}: must be a mapping of a text's "
                     "path to the fingerprint of its source (cardgen import writes it)")
        return {}
    return dict(found)
