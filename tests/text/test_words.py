"""cardgen.text.words: the words cardgen prints, per language; a pack's own labels win."""

from __future__ import annotations

import re

import pytest

from cardgen.text.words import DEFAULTS, labels_for


def test_english_is_complete_and_every_language_says_every_word():
    english = set(DEFAULTS["en"])
    for language, words in DEFAULTS.items():
        assert set(words) == english, language


@pytest.mark.parametrize("language", sorted(DEFAULTS))
def test_placeholders_are_the_same_in_every_language(language):
    def placeholders(text: str) -> set[str]:
        return set(re.findall(r"\{(\w+)\}", text))
    for key, text in DEFAULTS["en"].items():
        assert placeholders(DEFAULTS[language][key]) == placeholders(text), (language, key)


def test_the_packs_language_then_its_own_labels():
    german = labels_for("de", {})
    assert german["rules"] == "Spielregeln" and german["contents"] == "Inhalt"
    own = labels_for("de", {"rules": "Regeln", "extra": "Zusatz"})
    assert own["rules"] == "Regeln" and own["extra"] == "Zusatz"
    assert own["contents"] == "Inhalt"
    # a language cardgen has no words for gets English
    assert labels_for("xx", {}) == DEFAULTS["en"]
