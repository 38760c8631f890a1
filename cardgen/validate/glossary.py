"""One word for one thing, and examples that use only what the game has.

Why: cards, boards, score sheet and rulebook are written from one pack, often by several
hands. "Wertungsblock" on the board and "Wertungsblatt" in the rules, "Herren" on a card and
"Männer" in a rule send a player looking for two things where there is one. An example built
on a "Koch" in a game without cooks, or on an L card with 15 minus points where no L card has
them, teaches a game that is not in the box.

Three checks, all warnings (so `--strict` refuses them):
- the glossary's terms (pack.yaml `glossary.terms`): a word listed under `not` anywhere in a
  rule text, a card, a board, a layout's own words, pack.yaml's or composition.yaml's words;
- typography: an apostrophe printed as the typewriter's ' instead of ’, a negative number
  with a dash instead of the minus sign;
- examples (every `example` block): a capitalised word that no card, kind, category, group, label or other text of the pack uses
  (the names of the example's players and further words are listed in the glossary), and a
  number of points or minus points given to a card of a kind that no card of the kind has.
"""

from __future__ import annotations

import re
from typing import Iterator

from ..diagnostics import Report, display_path
from ..load import source
from ..load.pack import read_yaml
from ..model import rules as m
from ..model.marks import mark_at
from ..model.packdata import PackData
from ..text.rules import ChapterSource
from .references import JINJA, printed_strings, rendered_rules

WORD = re.compile(r"[^\W\d_]+(?:[’'][^\W\d_]+)?")


def check_glossary(data: PackData, report: Report) -> None:
    """The glossary's terms in every document; the names and numbers of every example.

    What it found is kept with everything it reads (the last check of this process): `cardgen
    serve` and `watch` check after every edit, and a stat edited leaves every text as it was
    (the flagship's check: 20 ms, half of it the search)."""
    global _LAST
    rules = list(_rule_texts(data))  # rendered once: both checks read them
    others = list(_pack_texts(data))
    read = _inputs(data, rules, others)
    if _LAST is None or _LAST[0] != read:  # compared, not hashed: most of it is the same
        found = Report()  # objects as last time (kept by the resident process: load.pack)
        _check(data, found, rules, others)
        _LAST = (read, found.items)
    report.items.extend(_LAST[1])


_LAST: tuple[tuple, list] | None = None  # (the inputs, diagnostics) of the last check


def _inputs(data: PackData, rules, others) -> tuple:
    """What the checks read: the texts, the glossary, the kinds' names, the cards' points and
    penalties by kind, and the words for points (pipeline.draw's labels)."""
    pack = data.pack
    kinds = [(k.id, k.label, k.plural, k.short, k.short_plural) for k in pack.kinds]
    values = [(lc.kind, getattr(lc.card, "points", None), getattr(lc.card, "penalty", None))
              for lc in data.cards]
    return (rules, others, pack.glossary.model_dump(), kinds, values, pack.language,
            pack.locale, sorted(pack.labels.items()))


def _check(data: PackData, report: Report, rules, others) -> None:
    texts = [item[:2] for item in rules] + others
    terms = [(term.use, word, _word_pattern(word)) for term in data.pack.glossary.terms
             for word in term.not_]
    # one search a text: a text holding none of the words (nearly all) is passed at once
    anyone = _word_pattern(*(word for _, word, _ in terms)) if terms else None
    for text, (file, line, col, subject) in texts:
        for use, word, pattern in terms if anyone is not None and anyone.search(text) else ():
            if pattern.search(text):
                report.warning(file, line, col, subject, f"'{word}': the glossary's word for "
                               f"this is '{use}' (pack.yaml glossary.terms); one word for one "
                               "thing on cards, boards and in the rules")
        for problem in _typography(text):
            report.warning(file, line, col, subject, problem)
    _check_examples(data, report, rules, others)


APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")
MINUS = re.compile(r"(?:^|(?<=[\s(:„“«\"/]))[–-](?=\d)")


def _typography(text: str) -> Iterator[str]:
    """Printed text sets an apostrophe as ’, never the typewriter's ', and a negative number
    with the minus sign −, as boards and score sheets print it, never a dash."""
    match = MINUS.search(text)
    if match:
        number = re.match(r"[–-]\d+", text[match.start():]).group(0)
        yield (f"'{number}': a dash before a number; write the minus sign − "
               f"({'−' + number[1:]}), as the boards and score sheets print it")
    match = APOSTROPHE.search(text)
    if match:
        start = max(text.rfind(" ", 0, match.start()) + 1, 0)
        end = text.find(" ", match.end())
        word = text[start:end if end >= 0 else len(text)]
        yield (f"'{word}': a straight apostrophe prints as a typewriter's mark; write ’ "
               f"({word.replace(chr(39), '’')})")


def _word_pattern(*words: str) -> re.Pattern:
    """The word (any of the words) alone, not inside a longer word, as written or
    capitalised."""
    forms = {form for word in words for form in (word, word[:1].upper() + word[1:])}
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, sorted(forms))) + r")(?![\w])")


# --- every text of the pack, with where it is written ------------------------------------------

def _pack_texts(data: PackData) -> Iterator[tuple[str, tuple]]:
    """(text, (file, line, col, subject)) of everything the pack prints but its rule texts
    (_rule_texts): cards' texts and fields, layouts' and boards' own words, pack.yaml's and
    composition.yaml's words."""
    for lc in data.cards:
        yield from _card_texts(lc)
    for name, layout in data.layouts.items():
        for region_name, region in layout.regions.items():
            if region.text:
                mark = layout.marks.get(region_name)
                yield JINJA.sub(" ", region.text), (
                    mark.file if mark else layout.file, mark.line if mark else 0,
                    mark.col if mark else 0, f"{name}.{region_name}")
    for file_name in ("pack.yaml", "boards.yaml", "composition.yaml"):
        path = data.folder / file_name
        raw = read_yaml(path, Report()) if path.is_file() else None
        if raw is not None:
            yield from _file_texts(raw, display_path(path))


# a file's parse → its printed words with where they are written (_file_texts), and the rule
# texts as rendered → the same with their places (_rule_texts), in a resident process: it keeps
# the parses and the rendered rule texts of the files an edit left as they were, whose texts
# are then not walked and placed again at every edit (incremental.memo; the flagship: 2.7 and
# 3 ms an edit). A one-off build keeps nothing.
_FILE_TEXTS: dict = {}
_RULE_TEXTS: dict = {}


def _file_texts(raw, shown: str) -> list[tuple[str, tuple]]:
    """(text, (file, line, col, key)) of every printed word of pack.yaml, boards.yaml or
    composition.yaml."""
    def gathered():
        texts = []
        for text, keys in printed_strings(raw, ()):
            if keys and keys[0] in ("id", "glossary", "schema", "print", "icons", "stat_rules"):
                continue
            mark = mark_at(raw, *keys)
            texts.append((JINJA.sub(" ", text), (shown, mark.line, mark.col,
                                                 ".".join(str(k) for k in keys[:2]))))
        return texts
    return source.kept(_FILE_TEXTS, (raw,), shown, gathered)


# card → its texts with where they are written (_card_texts), in a resident process: it keeps
# the models and parses of the cards an edit left as they were (load.pack), whose texts are
# then not gathered again at every edit (incremental.memo). A one-off build keeps nothing.
_CARD_TEXTS: dict = {}


def _card_texts(lc) -> list[tuple[str, tuple]]:
    """(text, (file, line, col, card ID)) of every text field of one card."""
    def gathered():
        strings = [((key,), value) for key, value in lc.card.model_dump().items()
                   if isinstance(value, str) and key not in ("id", "image", "group", "kind")]
        strings += [(("texts", key), value) for key, value in lc.card.texts.items()]
        strings += [((key,), value) for key, value in lc.card.extra_fields.items()
                    if isinstance(value, str)]
        texts = []
        for keys, value in strings:
            mark = lc.mark(*keys)
            texts.append((value, (lc.file, mark.line, mark.col, lc.card.id)))
        return texts
    return source.kept(_CARD_TEXTS, (lc.card, lc.raw), lc.file, gathered)


def _rule_texts(data: PackData) -> list[tuple[str, tuple, bool]]:
    """(text as printed, where, in an example?) of every rule text."""
    every = rendered_rules(data)

    def placed():
        sources: dict[str, ChapterSource] = {}
        texts = []
        for shown, chapter, at, rendered in every:
            if not rendered:
                continue
            if shown not in sources:  # read for its line marks once, when needed
                sources[shown] = ChapterSource(shown, data.folder)
            where = sources[shown].where(*at)
            example = at and isinstance(chapter.blocks[at[0]], m.Example) and \
                at[1] == "example"
            texts.append((rendered, (where.file, where.line, where.col,
                                     where.subject or where.what), bool(example)))
        return texts
    return source.kept(_RULE_TEXTS, (every,), str(data.folder), placed)


# --- examples --------------------------------------------------------------------------------

def _check_examples(data: PackData, report: Report, rules, texts) -> None:
    """`rules`: _rule_texts' items; `texts`: _pack_texts' items (the words the pack knows)."""
    examples = [(text, where) for text, where, example in rules if example]
    if not examples:
        return
    known = _known_words(data, [text for text, _, example in rules if not example], texts)
    values = _kind_values(data)
    for text, (file, line, col, subject) in examples:
        unknown = []
        for match in WORD.finditer(text):
            word = match.group(0)
            if word[:1].isupper() and len(word) > 1 and word not in unknown and \
                    not _sentence_start(text, match.start()) and not _known(word, known):
                unknown.append(word)
        for word in unknown:
            report.warning(file, line, col, subject, f"'{word}': an example names something "
                           "the pack does not have (no card, kind, category or group is called "
                           "so, and no other text uses the word); use the game's own names, or "
                           "list the word in pack.yaml glossary.words (players: "
                           "glossary.players)")
        for problem in _value_problems(text, values):
            report.warning(file, line, col, subject, problem)


ENDINGS = ("", "s", "n", "e", "en", "es", "er", "ern", "in", "innen", "nen")
SENTENCE = re.compile(r"(?:^|[.!?:;–—])[\s„“\"'(»«]*$")


def _known(word: str, known: set[str]) -> bool:
    """The word, or the word without (or with) a common ending, is one the pack uses:
    'Punkten' is 'Punkte', 'Gegenspielerin' is 'Gegenspieler', a player's 'Aylins' is 'Aylin'."""
    low = word.lower()
    return any(low[:len(low) - len(end)] in known for end in ENDINGS if low.endswith(end)
               and len(low) - len(end) >= 2) or any(low + end in known for end in ENDINGS[1:])


def _sentence_start(text: str, at: int) -> bool:
    """A word that begins a sentence (or a quoted call) is capitalised for that alone."""
    return bool(SENTENCE.search(text[:at]))


def _known_words(data: PackData, rule_texts: list[str], texts) -> set[str]:
    """Every word (lower case) the pack uses outside its examples, and the glossary's."""
    pack = data.pack
    sources = list(rule_texts)
    sources += [text for text, _ in texts]  # cards, layouts, boards, pack.yaml, composition
    glossary = pack.glossary
    sources += glossary.players + glossary.words + [t.use for t in glossary.terms]
    known = set()
    for text in sources:
        known.update(word.lower() for word in WORD.findall(text))
    return known


def _kind_values(data: PackData) -> list[tuple[re.Pattern, str, str, set[int]]]:
    """(pattern of '<kind word> … <number> <points word>', kind, field, the values the kind's
    cards have) for the points and penalties of each kind."""
    from ..text.words import labels_for
    labels = labels_for(data.pack.language, data.pack.labels, data.pack.locale)
    out = []
    for kind in data.pack.kinds:
        names = {n for n in (kind.label, kind.plural, kind.short, kind.short_plural) if n}
        cards = [lc.card for lc in data.cards_of(kind.id)]
        for field in ("penalty", "points"):
            have = {abs(int(v)) for c in cards if (v := getattr(c, field, None)) is not None}
            word = labels.get(field, "")
            if not have or not names or len(word) < 3:
                continue
            stem = re.escape(word[:-1] if word.endswith("e") else word)
            kinds = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
            pattern = re.compile(rf"(?<![\w-])(?:{kinds})\b[^.;:!?]{{0,40}}?"
                                 rf"(?<![\d])[−–-]?\s?(\d+)\s+(?:je\s+)?{stem}\w*\b")
            out.append((pattern, kind.short or kind.label, word, have))
    return out


def _value_problems(text: str, values) -> Iterator[str]:
    for pattern, kind, word, have in values:
        for match in pattern.finditer(text):
            number = int(match.group(1))
            if number not in have:
                shown = ", ".join(str(v) for v in sorted(have))
                yield (f"'{match.group(0)}': an example gives a {kind} {number} {word}; the "
                       f"pack's cards of the kind have {shown}")
