"""Rule texts → reportlab paragraph markup, with every problem reported at its YAML line.

Why escaping comes first: reportlab's Paragraph parses XML-like markup, so a '<' or '&' written
by a user must reach it as '&lt;' / '&amp;' and print literally. Our own markup (**bold**,
*italic*, :icon:) is parsed by text.fit into runs, and only then turned into <b>/<i> tags
around escaped text — user text never becomes a tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from ..diagnostics import Report
from .templates import environment
from .words import minus_signs
from ..model.packdata import PackData
from ..load.pack import read_yaml
from ..model.marks import Mark, MarkedDict, MarkedList
from .fonts import face_name, missing_glyphs
from .fit import ICON  # the same :name: syntax as on cards
from .fit import parse

FALLBACK_FAMILY = "sans"  # icons the serif faces lack (★, ⚡, ✚ …) come from DejaVu Sans
MAX_TEXT = 20000  # characters one template may produce


def escape(text: str) -> str:
    """&, < and > as reportlab's paragraph markup needs them (xml.sax.saxutils.escape does the
    same, and importing it imports urllib.request: 15 ms of every build's start)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@dataclass(frozen=True)
class Where:
    """Where a text came from, for its diagnostics."""

    file: str
    line: int = 0
    col: int = 0
    subject: str = ""
    what: str = ""  # e.g. "blocks[3].p"

    def prefix(self) -> str:
        return f"{self.what}: " if self.what else ""


def to_markup(text: str, family: str, icons: dict[str, str],
              colours: dict[str, str] | None = None) -> tuple[str, list[str], list[str]]:
    """(reportlab markup, characters no face can draw, unknown icon names) for our markup.

    colours: characters printed in a colour of their own (a group's symbol, `colour_in_text`).

    Every character must exist in the family's face, except icon glyphs (:name:): icons are
    symbols and fall back to DejaVu Sans, whose symbol coverage is the widest.
    """
    text, unknown, symbols = _mark_icons(text, icons)
    missing: set[str] = set()
    lines = []
    for runs in parse(text):
        parts = []
        for run in runs:
            body = _escaped(run.text, face_name(family, run.bold, run.italic),
                            face_name(FALLBACK_FAMILY, run.bold, run.italic), symbols, missing)
            if colours:
                body = _coloured(body, colours)
            if run.italic:
                body = f"<i>{body}</i>"
            if run.bold:
                body = f"<b>{body}</b>"
            parts.append(body)
        lines.append("".join(parts))
    return "<br/>".join(lines), sorted(missing), unknown


_SLOT = 0x10FF00  # private-use code points that stand for an icon while the markup is parsed


def _mark_icons(text: str, icons: dict[str, str]) -> tuple[str, list[str], dict[str, str]]:
    """Known :name: replaced by a placeholder character; (text, unknown names, slot → glyph)."""
    unknown: list[str] = []
    slots: dict[str, str] = {}
    names = sorted(icons)

    def swap(match: re.Match) -> str:
        name = match.group(1)
        if name not in icons:
            unknown.append(name)
            return match.group(0)
        slot = chr(_SLOT + names.index(name))
        slots[slot] = icons[name]
        return slot

    return ICON.sub(swap, text), unknown, slots


def _escaped(text: str, face: str, fallback: str, symbols: dict[str, str],
             missing: set[str]) -> str:
    """Escaped text; icon glyphs the face lacks are set in the fallback face."""
    if not any(slot in text for slot in symbols):  # most texts: no icon, one check for all
        missing.update(missing_glyphs(text, face))
        return escape(text)
    out: list[str] = []
    for char in text:
        glyph = symbols.get(char)
        if glyph is None:
            missing.update(missing_glyphs(char, face))
            out.append(escape(char))
        elif not missing_glyphs(glyph, face):
            out.append(escape(glyph))
        else:
            missing.update(missing_glyphs(glyph, fallback))
            out.append(f'<font face="{face_name(FALLBACK_FAMILY)}">{escape(glyph)}</font>')
    return "".join(out)


def _coloured(markup: str, colours: dict[str, str]) -> str:
    """Each coloured character wrapped in a font tag (the characters are never markup)."""
    return "".join(f'<font color="{colours[c]}">{c}</font>' if c in colours else c
                   for c in markup)


def describe_missing(chars: list[str]) -> str:
    return ", ".join(f"U+{ord(c):04X} '{c}'" for c in chars)


class TextMaker:
    """Renders rule texts (Jinja, then our markup) and reports each problem once, in place."""

    def __init__(self, data: PackData, report: Report):
        self.data, self.report = data, report
        self.env = environment()
        self.icons = dict(data.pack.icons)
        for group in data.pack.groups:
            self.icons.setdefault(group.id, group.symbol)
        self.colours = {group.symbol: group.colour for group in data.pack.groups
                        if group.colour_in_text and len(group.symbol) == 1}
        self.context = jinja_context(data)

    def template(self, source: str, where: Where) -> str | None:
        """The text after Jinja, or None (with a diagnostic) when the template fails."""
        if "{{" not in source and "{%" not in source and "{#" not in source:
            return source
        try:
            out = self.env.from_string(source).render(**self.context)
        except jinja2.TemplateSyntaxError as exc:
            return self._fail(where, f"template syntax error: {exc.message}")
        except jinja2.UndefinedError as exc:
            return self._fail(where, f"undefined name in template: {exc.message}; available: "
                              + ", ".join(sorted(self.context)))
        except jinja2.exceptions.SecurityError as exc:
            return self._fail(where, f"not allowed in a template: {exc}")
        except Exception as exc:  # any other failure is the template's problem, not ours
            return self._fail(where, f"template failed: {type(exc).__name__}: {exc}")
        if len(out) > MAX_TEXT:
            return self._fail(where, f"template produced {len(out)} characters; the limit is "
                              f"{MAX_TEXT}")
        return minus_signs(out)

    def markup(self, text: str, family: str, where: Where,
               also: tuple[str, ...] = ()) -> str | None:
        """Reportlab markup for already-rendered text, or None after a glyph/icon diagnostic.

        also: further families the same text is printed in (a heading's contents entry)."""
        markup, missing, unknown = to_markup(text, family, self.icons, self.colours)
        missing = sorted(set(missing).union(*(to_markup(text, f, self.icons)[1] for f in also)))
        for name in unknown:
            self._fail(where, f"unknown icon ':{name}:'; the pack defines "
                       + (", ".join(sorted(self.icons)) or "none"))
        if missing:
            fonts = " / ".join((family,) + also)
            self._fail(where, f"the font {fonts} has no glyph for {describe_missing(missing)}")
        return None if unknown or missing else markup

    def rule(self, source: str, family: str, where: Where) -> str | None:
        """A rule text: Jinja first, then our markup."""
        text = self.template(source, where)
        return None if text is None else self.markup(text, family, where)

    def _fail(self, where: Where, message: str) -> None:
        self.report.error(where.file, where.line, where.col, where.subject,
                          where.prefix() + message)
        return None


def jinja_context(data: PackData) -> dict[str, Any]:
    """Names a rule text may use: pack, kinds (label, plural, short, short_plural, count, first
    and last ID), cards (how many in all), cards_by_id (each card's name, title, set, group,
    points and penalty: an example takes its numbers from the cards), labels."""
    pack = data.pack
    counts = {k.id: sum(lc.card.count for lc in data.cards if lc.kind == k.id) for k in pack.kinds}
    ids = {k.id: [lc.card.id for lc in data.cards if lc.kind == k.id] for k in pack.kinds}
    return {
        "pack": pack.model_dump(include={"id", "title", "subtitle", "language", "locale",
                                          "version"}),
        "kinds": {k.id: {"label": k.label, "plural": k.plural or k.label, "count": counts[k.id],
                         "short": k.short or k.label,
                         "short_plural": k.short_plural or k.short or k.plural or k.label,
                         "first": ids[k.id][0] if ids[k.id] else "",
                         "last": ids[k.id][-1] if ids[k.id] else ""}
                  for k in pack.kinds},
        "cards": sum(counts.values()),
        "cards_by_id": {lc.card.id: {"name": lc.card.name, "title": lc.card.title,
                                     "set": lc.card.set, "group": lc.card.group,
                                     "points": lc.card.points, "penalty": lc.card.penalty}
                        for lc in data.cards},
        "labels": dict(pack.labels),
    }


class ChapterSource:
    """Line marks of one chapter file's blocks, read again from the YAML."""

    def __init__(self, shown: str, folder: Path):
        path = Path(shown)
        if not path.is_file():
            path = folder / "rules" / path.name
        self.file = shown
        self.raw = read_yaml(path, Report()) if path.is_file() else None

    def where(self, index: int | None = None, key: str | None = None,
              item: int | str | None = None, subject: str = "") -> Where:
        """Position of blocks[index][key][item] (or of the nearest part that exists)."""
        what = "title" if index is None else f"blocks[{index}]" + (f".{key}" if key else "")
        if isinstance(item, int):
            what += f"[{item}]"
        elif item is not None:
            what += f".{item}"
        mark = self._mark(index, key, item)
        shown = mark.file if mark and mark.file else self.file  # (an edition's overlay file)
        return Where(shown, mark.line if mark else 0, mark.col if mark else 0, subject, what)

    def _mark(self, index, key, item) -> Mark | None:
        raw = self.raw
        if not isinstance(raw, MarkedDict):
            return None
        if index is None:
            return raw.value_marks.get("title", raw.mark)
        blocks = raw.get("blocks")
        if not isinstance(blocks, MarkedList) or index >= len(blocks):
            return raw.mark
        block, mark = blocks[index], blocks.item_marks[index]
        if not isinstance(block, MarkedDict) or key is None or key not in block:
            return mark
        value, mark = block[key], block.value_marks[key]
        if isinstance(item, int) and isinstance(value, MarkedList) and item < len(value):
            return value.item_marks[item]
        if isinstance(item, str) and isinstance(value, MarkedDict):  # a key of a mapping
            return value.key_marks.get(item, mark)
        return mark
