"""References in texts: card IDs and kind names written in rule, card and board texts exist.

Why: the rulebook, the boards and the cards are three documents written from one pack. A text
that says "S2–S5" when the pack ends at S4, or "K-Karten" for cards that print L1–L8, sends
players looking for cards that are not in the box. Rule texts are checked after Jinja (what is
printed), board templates in their literal parts, card texts as written; each problem at the
text's line.
"""

from __future__ import annotations

import re
from typing import Iterator

from .catalogue import NUMBERED, Catalogue, compress
from ..diagnostics import Report, display_path
from ..model.packdata import PackData
from ..load.pack import read_yaml
from ..model import rules as m
from ..model.marks import mark_at
from ..text.rules import ChapterSource, TextMaker, Where, jinja_context

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_DASHES = "–—-"


class References:
    """The pack's numbered card IDs, and what a text may call a kind."""

    def __init__(self, data: PackData):
        self.data = data
        self.cat = Catalogue.of([(lc.card.id, lc.kind) for lc in data.cards])
        # a card that did not load is still written in the pack: its own error says what is
        # wrong, and a text naming it is right
        self.known = set(self.cat.kind_of) | set(getattr(data, "written_ids", ()))
        prefixes = {match.group(1) for i in self.known if (match := NUMBERED.match(i))}
        self.prefixes = {p for p in prefixes if p}
        word = "|".join(sorted(map(re.escape, self.prefixes), key=len, reverse=True))
        one = rf"(?:{word})\d+"
        self.ids = re.compile(rf"(?<![\w-])({one})(?:\s?[{_DASHES}]\s?({one}))?(?![\w])") \
            if word else None
        names = [k.id for k in data.pack.kinds
                 if len(k.id) <= 3 and k.id not in self.prefixes and k.id != k.short]
        self.kind_word = re.compile(rf"(?<![\w-])({'|'.join(map(re.escape, names))})-(?=\w)") \
            if names else None

    def problems(self, text: str) -> Iterator[tuple[str, str]]:
        """(severity, message) for each wrong reference of one text: a card that does not
        exist is an error, a kind called by a name its cards do not print a warning."""
        for match in self.ids.finditer(text) if self.ids else ():
            low, high = match.group(1), match.group(2)
            wanted = [low] if high is None else _between(low, high)
            missing = [i for i in wanted if i not in self.known]
            if missing:
                shown = ", ".join(missing) if len(missing) <= 3 else \
                    f"{missing[0]} … {missing[-1]}"
                yield "error", f"'{match.group(0)}': the pack has no card {shown}"
        for match in self.kind_word.finditer(text) if self.kind_word else ():
            kind = match.group(1)
            ids = compress(self.cat.kinds.get(kind, []), self.cat)
            yield "warning", (f"'{kind}-' names the kind {kind}, but its cards print "
                   f"{ids or 'other IDs'}; write {{{{ kinds.{kind}.short }}}} with a short "
                   "name the cards print (kinds: short), or the kind's label")


def _between(low: str, high: str) -> list[str]:
    """The IDs a range 'S2–S4' names; two IDs of different prefixes ('A1–G8', all cards from
    the first to the last) name just those two."""
    a, b = NUMBERED.match(low), NUMBERED.match(high)
    if a.group(1) != b.group(1) or int(a.group(2)) > int(b.group(2)):
        return [low, high]
    return [f"{a.group(1)}{n}" for n in range(int(a.group(2)), int(b.group(2)) + 1)]


def check_references(data: PackData, report: Report) -> None:
    """Every card ID, ID range and kind name in the pack's texts exists."""
    refs = References(data)
    _check_rules(data, refs, report)
    for lc in data.cards:
        texts = [(("texts", key), value) for key, value in lc.card.texts.items()]
        texts += [((key,), value) for key, value in lc.card.extra_fields.items()
                  if isinstance(value, str)]
        for path, value in texts:
            for severity, problem in refs.problems(value):
                mark = lc.mark(*path)
                report.add(lc.file, mark.line, mark.col, severity, lc.card.id,
                           f"{'.'.join(path)}: {problem}")
    _check_boards(data, refs, report)
    _check_short_names(data, report)


def _check_rules(data: PackData, refs: References, report: Report) -> None:
    """Rule texts as printed (after Jinja; a template that fails is the rulebook check's to
    report). The chapter file is read again for its line marks only when a text has a
    problem: most packs have none, and reading every chapter twice is what costs."""
    sources: dict[str, ChapterSource] = {}
    for shown, _, at, rendered in rendered_rules(data):
        for severity, problem in refs.problems(rendered or ""):
            if shown not in sources:  # read for its line marks once, when needed
                sources[shown] = ChapterSource(shown, data.folder)
            source = sources[shown]
            where = source.where(*at)
            report.add(where.file, where.line, where.col, severity, where.subject,
                       where.prefix() + problem)


_RENDERED: tuple | None = None  # (chapters, their context, rendered_rules of them): the last


def rendered_rules(data: PackData) -> list[tuple]:
    """(chapter file as shown, chapter, where in it, the text after Jinja or None when its
    template fails) of every rule text, in order: rendered once for the same chapters and the
    same names they may use (text.rules.jinja_context: a card's stats are not among them). The
    reference and the glossary checks both read them (the flagship's: 5–6 ms each time), and
    a resident process, which keeps the chapters' models while their files stay as they are
    (load.pack), does not render them again after a stat edit."""
    global _RENDERED
    chapters = tuple(data.chapters)
    context = repr(jinja_context(data))
    held = _RENDERED
    if held is None or held[1] != context or len(held[0]) != len(chapters) or any(
            a[0] != b[0] or a[1] is not b[1] for a, b in zip(held[0], chapters)):
        maker = TextMaker(data, Report())
        held = _RENDERED = (chapters, context,
                            [(shown, chapter, at, maker.template(text, Where(shown)))
                             for shown, chapter in chapters
                             for text, at in chapter_texts(chapter)])
    return held[2]


def chapter_texts(chapter) -> Iterator[tuple[str, tuple]]:
    """(text, ChapterSource.where arguments) of every text of one chapter."""
    yield chapter.title, ()
    for index, block in enumerate(chapter.blocks):
        for key in ("h2", "p", "note", "example"):
            if hasattr(block, key):
                yield getattr(block, key), (index, key)
        for key in ("list", "steps"):
            for item, text in enumerate(getattr(block, key, None) or []):
                yield text, (index, key, item)
        if isinstance(block, m.OptionBlock):
            for key in ("title", "text", "needs"):
                yield getattr(block, key), (index, key, None, block.option)
            for item, text in enumerate(block.list):
                yield text, (index, "list", item, block.option)
        if getattr(block, "label", None):
            yield block.label, (index, "label")


def _check_boards(data: PackData, refs: References, report: Report) -> None:
    """Board texts, in their literal parts (a template's output depends on the copy drawn)."""
    path = data.folder / "boards.yaml"
    raw = read_yaml(path, Report()) if path.is_file() else None
    if raw is None or not isinstance(raw.get("boards"), dict):
        return
    for text, keys in printed_strings(raw["boards"], ("boards",)):
        for severity, problem in refs.problems(JINJA.sub(" ", text)):
            mark = mark_at(raw, *keys)
            report.add(display_path(path), mark.line, mark.col, severity,
                       ".".join(str(k) for k in keys[1:2] + keys[3:4]), problem)


_NOT_TEXT = {"type", "font", "header_font", "align", "valign", "fill", "stroke", "colour",
             "header_fill", "header_colour", "stripe", "when", "image", "size", "orientation",
             "fit", "shape", "description", "portrait_style", "portrait_gender", "dash"}


def printed_strings(value, path: tuple) -> Iterator[tuple[str, tuple]]:
    """Every string under a boards.yaml node that may be printed, with its path."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key not in _NOT_TEXT:
                yield from printed_strings(inner, path + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from printed_strings(inner, path + (i,))
    elif isinstance(value, str):
        yield value, path


def _prints_short(text: str) -> bool:
    """A layout text that writes {{ kind.short }} prints the short name on every card."""
    return any("kind.short" in expression for expression in JINJA.findall(text))


def _check_short_names(data: PackData, report: Report) -> None:
    """A kind's short name is printed on its cards: the start of every ID, or a layout text."""
    for index, kind in enumerate(data.pack.kinds):
        if not kind.short:
            continue
        ids = [lc.card.id for lc in data.cards_of(kind.id)]
        texts = [r.text or "" for name in (kind.front, kind.back) if name in data.layouts
                 for r in data.layouts[name].regions.values()]
        # 'S' or 'S-Karte' for cards S1, S2 ...: the word before a hyphen is what the IDs print
        prefix = kind.short.split("-", 1)[0]
        if ids and all(i.startswith(prefix) for i in ids) or \
                any(kind.short in JINJA.sub(" ", t) or _prints_short(t) for t in texts):
            continue
        mark = mark_at(data.pack_raw, "kinds", index, "short")
        report.warning(data.pack_file, mark.line, mark.col, kind.id, f"short: '{kind.short}' "
                       "is not printed on the cards (neither the start of their IDs nor a text "
                       "of their layouts); players could not tell which cards it means")
