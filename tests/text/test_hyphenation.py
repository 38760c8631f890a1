"""The patterns parsed on demand (cardgen/render/patterns.py) split every word exactly where
pyphen's fully parsed dictionary does: the rulebook's languages, and a pattern file with
nonstandard breaks (ff=f), on the words of the shipped packs and on words made of the
patterns' own letters (which reach the duplicate and all-zero lines)."""

from __future__ import annotations

import re
from pathlib import Path

import pyphen
import pytest

from cardgen.text.hyphenation import lazy_dictionary, parse_line
from cardgen.documents.rulebook.style import HYPHENATION

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = sorted(set(HYPHENATION.values()) | {"ca"})


def _pack_words() -> list[str]:
    words = set()
    for path in (ROOT / "card_data").rglob("*.yaml"):
        words.update(re.findall(r"[^\W\d_]{4,}", path.read_text(encoding="utf-8")))
    return sorted(words)[::2]  # every other: the same kinds of words, half the time


def _pattern_words(hyph: pyphen.HyphDict, count: int) -> list[str]:
    """About `count` words, each glued from the letters of a pattern and its neighbour."""
    keys = sorted(key.strip(".") for key in hyph.patterns if len(key.strip(".")) >= 2)
    return [keys[i] + keys[i + 1] for i in range(0, len(keys) - 1, max(1, len(keys) // count))]


def _splits(hyph: pyphen.HyphDict, words: list[str]) -> list:
    return [[(int(point), point.data) for point in hyph.positions(word)] for word in words]


@pytest.mark.parametrize("language", LANGUAGES)
def test_lazy_patterns_split_like_pyphen(language):
    path = pyphen.LANGUAGES[pyphen.language_fallback(language)]
    full = pyphen.HyphDict(path)
    lazy = lazy_dictionary(path)
    words = _pack_words() + _pattern_words(full, count=800)
    assert len(words) > 1500
    expected = _splits(full, words)
    assert any(expected), "no word split: the comparison would prove nothing"
    assert _splits(lazy, words) == expected


def test_a_book_parses_a_few_patterns():
    lazy = lazy_dictionary(pyphen.LANGUAGES["de_DE"])
    _splits(lazy, _pack_words())
    parsed = sum(found is not None for found in lazy.patterns.values())
    assert 0 < parsed < len(lazy.patterns._keys) / 5


def test_duplicate_letters_keep_the_last_real_pattern(tmp_path):
    dic = tmp_path / "hyph_xx.dic"
    # "ab" twice: the later real pattern wins; "cd": a later line of zeros is no pattern;
    # "ef": only zeros
    dic.write_text("UTF-8\n% a comment\na1b\na3b\nc1d\nc0d\ne0f\nLEFTHYPHENMIN 2\n",
                   encoding="utf-8")
    lazy = lazy_dictionary(dic)
    assert lazy.patterns.get("ab") == (1, (3,))
    assert lazy.patterns.get("cd") == (1, (1,))
    assert lazy.patterns.get("ef") is None
    assert lazy.patterns.get("LEFTHYPHENMIN ") is None
    assert lazy.patterns.get("xy") is None
    assert parse_line("  % comment") is None


def test_hex_escapes_are_letters(tmp_path):
    dic = tmp_path / "hyph_xx.dic"
    dic.write_text("UTF-8\n^^e41b\n", encoding="utf-8")  # ^^e4 is ä
    assert lazy_dictionary(dic).patterns.get("äb") == (1, (1,))
