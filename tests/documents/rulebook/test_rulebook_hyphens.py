"""Every hyphen a rule text writes reaches the printed rulebook ("ER-Karten", never "ERKarten").

Why a test of its own: reportlab breaks a word at its own hyphen and, when it lays the same
paragraph out again (every contents pass, every keep-together), rejoins the two halves of a
word set in more than one font (a bold word, or one next to punctuation in another style) by
stripping the hyphen as if the break had added it. Text searches that ignore line ends
(tests/documents/rulebook/test_rulebook.py's `contains`) cannot see that; these tests read the
printed words.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from reportlab.platypus import Paragraph

from cardgen.documents.rulebook.book import A4_BOOK, A5_BOOK
from cardgen.documents.rulebook.story import StoryBuilder
from cardgen.documents.rulebook.style import make_styles
from cardgen.diagnostics import Report
from conftest import pypdf_text

PACKS = ["crazy-hospital", "quartett", "quatridou", "tischordnung", "dokter-li"]
HYPHENATED = re.compile(r"\w+(?:-\w+)+")


def story_texts(flowable):
    """The plain text of every paragraph in a flowable (tables, lists, boxes included)."""
    if isinstance(flowable, Paragraph):
        yield flowable.getPlainText()
        return
    for attr in ("_content", "_flowables", "_cellvalues", "_flowable"):
        inner = getattr(flowable, attr, None)
        for item in inner if isinstance(inner, (list, tuple)) else [inner]:
            for part in item if isinstance(item, (list, tuple)) else [item]:
                if part is not None:
                    yield from story_texts(part)


def printed_text(pdf: bytes) -> str:
    return pypdf_text(pdf)


def printed(word: str) -> re.Pattern:
    """The word as the PDF's text shows it: a line may end after one of its own hyphens, or
    inside it with a hyphen the line break added."""
    parts = []
    for char, after in zip(word, word[1:] + " "):
        parts.append(re.escape(char))
        if char == "-":
            parts.append(r"\n?")
        elif after.isalnum():
            parts.append(r"(?:-\n)?")
    return re.compile(r"(?<![\w-])" + "".join(parts) + r"(?![\w])")


def without_a_hyphen(word: str) -> list[re.Pattern]:
    """The word with any one of its hyphens dropped (glued, or a space or line end instead)."""
    cuts = [m.start() for m in re.finditer("-", word)]
    return [re.compile(r"(?<![\w-])" + re.escape(word[:at]) + gap + re.escape(word[at + 1:])
                       + r"(?![\w])") for at in cuts for gap in ("", r"\s")]


def lost_hyphens(data, geometry, pdf: bytes) -> list[str]:
    story = StoryBuilder(data, Report(), geometry.width, geometry.height, geometry.body_size,
                         None).story()
    texts = [text for flowable in story for text in story_texts(flowable)]
    source = Counter(word for text in texts for word in HYPHENATED.findall(text))
    assert source or data.pack.id == "quartett"  # quartett's rules print no hyphenated word
    text = printed_text(pdf)
    everything = "\n".join(texts)
    lost = [f"{word}: {len(printed(word).findall(text))} printed of {count}"
            for word, count in sorted(source.items())
            if len(printed(word).findall(text)) < count]
    lost += [f"{word} printed as {found!r}" for word in sorted(source)
             for glued in without_a_hyphen(word)
             for found in glued.findall(text) if not glued.search(everything)]
    return lost


@pytest.mark.parametrize("pack", PACKS)
def test_every_hyphen_of_the_rules_is_printed_on_a4(pack, shipped_build):
    data, _, files = shipped_build(pack)
    assert not lost_hyphens(data, A4_BOOK, files["rulebook.pdf"])


@pytest.mark.parametrize("pack", PACKS)
def test_every_hyphen_of_the_rules_is_printed_in_the_narrow_booklet_column(pack, shipped_build,
                                                                            shipped_rulebook):
    data, _, _ = shipped_build(pack)
    pdf, items = shipped_rulebook(pack, A5_BOOK)  # shared with test_rulebook_layout
    assert pdf is not None, [d.format() for d in items]
    assert not lost_hyphens(data, A5_BOOK, pdf)


@pytest.mark.parametrize("markup", ["(<b>ER-Karten</b>, ER1–ER9)", "(ER-Karten, <i>ER1</i>)",
                                    "<b>Work-Life-Balance-Werte</b>"])
def test_a_word_broken_at_its_hyphen_keeps_it_when_laid_out_again(markup):
    """Laid out at every width from a few words a line to all on one line, twice each (as every
    contents pass does): the lines never lose a hyphen."""
    style = make_styles("de")["body"]
    word = HYPHENATED.search(re.sub(r"<[^>]+>", "", markup)).group(0)
    for width in range(150, 400, 3):
        paragraph = Paragraph(f"Ereignisse und Sonderkarten {markup} bringen", style)
        for _ in range(2):
            paragraph.wrap(width, 1000)
        text = "\n".join("".join(frag.text for frag in line.words).strip()
                         for line in paragraph.blPara.lines)
        assert printed(word).search(text), (width, text)
        assert not any(glued.search(text) for glued in without_a_hyphen(word)), (width, text)


def test_word_splits_are_pyphens_and_remembered_between_builds(tmp_path, monkeypatch):
    """A word hyphenated once is split from cardgen's cache in the next process, without
    loading the language's patterns; the splits are pyphen's own."""
    import pyphen

    import cardgen.documents.rulebook.style as rulebook_style
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    words = ["Charakterkarten", "Sonderereignisse", "Krankenhaus"]
    first = rulebook_style.WordSplits("de_DE")
    expected = [list(pyphen.Pyphen(lang="de_DE", left=3, right=3).iterate(w)) for w in words]
    assert [first(w) for w in words] == expected
    first.keep()
    again = rulebook_style.WordSplits("de_DE")
    assert [again(w) for w in words] == expected
    assert again._iterate is None  # no patterns loaded for words seen before
