"""balance.pdf as a designer reads it (documents/balance.py): the verdict first, in the pack's
language, the changes as a table, charts with colour legends and numbered count axes, special
cards drawn with the deck, and no command-line text anywhere.

The deck: eight heroes whose red octet always reaches its bonus and whose blue octet never does,
and two consultants (special cards with a value in the common category Power).
"""

from __future__ import annotations

import re
import string
from io import BytesIO

import pytest
from pypdf import PdfReader

from cardgen.text.words import BALANCE_WORDS

PACK = """\
id: mini
title: Octet Duel
language: {language}
labels: {{points: {points}}}
icons: {{up: "▲", down: "▼"}}
groups:
  - {{id: red, label: Red, colour: "#D9453B", symbol: "♥"}}
  - {{id: blue, label: Blue, colour: "#3A6FC4", symbol: "♦"}}
kinds:
  - {{id: hero, label: Hero, plural: Heroes, id_pattern: "^[A-D][1-4]$", front: stat-card,
     back: mini-back}}
  - id: K
    label: Consultant
    plural: Consultants
    id_pattern: "^L[1-8]$"
    front: stat-card
    back: mini-back
levels:
  - {{level: 0, min: 0, max: 24}}
  - {{level: 1, min: 25, max: 49}}
  - {{level: 2, min: 50, max: 74}}
  - {{level: 3, min: 75, max: 99}}
categories:
  - key: x
    label: Power
    kinds: [hero, K]
    common: true
    values:
      - {{key: x, label: Power, type: integer, min: 0, max: 10, wins: high}}
  - key: y
    label: Fear
    kinds: [hero]
    values:
      - {{key: y, label: Fear, type: integer, min: 0, max: 10, wins: low}}
"""

HEROES = [("A1", "A", "red", 9, 8, 3), ("B1", "B", "red", 2, 1, 2), ("C1", "C", "red", 7, 6, 3),
          ("D1", "D", "red", 4, 3, 2), ("A2", "A", "blue", 8, 7, 3), ("A3", "A", "blue", 3, 2, 1),
          ("B2", "B", "blue", 6, 5, 2), ("B3", "B", "blue", 1, 0, 1)]
CARDS = "kind: hero\ncards:\n" + "".join(
    f"  - {{id: {i}, name: N{i}, set: {s}, group: {g}, points: {p}, stats: {{x: {x}, y: {y}}}}}\n"
    for i, s, g, x, y, p in HEROES)
CONSULTANTS = """\
kind: K
cards:
  - {id: L1, name: Dee, penalty: -10, stats: {x: 10}}
  - {id: L2, name: Eve, penalty: -5, stats: {x: 5}}
"""

COMPOSITION = """\
deck_kinds: [hero]
special_kinds: [K]
sets_of: 4
variants:
  duel: {players: [2, 3], label: Duel}
  mix: {players: [2, 3], label: Mix}
octets:
  size: 4
  score:
    red: {base: 10, bonus: 30, distinct: 4}
    blue: {base: 10, bonus: 30, distinct: 3}
"""

BALANCE = """\
specials: [K]
variants:
  duel: {play: duel, games: 40}
  mix: {play: sets, games: 60, set_score: 20, octets: true, specials: [K]}
suggest:
  - {field: points, kinds: [hero], by: strength, within: kind, range: [1, 5]}
"""

POINTS = {"en": "Points", "de": "Punkte", "nl": "Punten", "fr": "Points", "it": "Punti"}




def _pack(tmp_path, make_pack, language: str):
    return make_pack(tmp_path, {"pack.yaml": PACK.format(language=language,
                                                         points=POINTS[language]),
                                "cards/heroes.yaml": CARDS, "cards/consultants.yaml": CONSULTANTS,
                                "balance.yaml": BALANCE, "composition.yaml": COMPOSITION})


def _text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(BytesIO(pdf)).pages]


@pytest.fixture(scope="module")
def analysed(tmp_path_factory, make_pack):
    """The English deck analysed once; each test paints it in the language it needs."""
    from cardgen.analyse.declaration import load_balance
    from cardgen.analyse.run import analyse
    from cardgen.compose import load_composition
    from cardgen.diagnostics import Report
    from cardgen.pipeline.chain import validated as check

    folder = _pack(tmp_path_factory.mktemp("report"), make_pack, "en")
    report = Report()
    data = check(folder, report)
    composition = load_composition(data, report).composition
    balance = load_balance(data, composition, report)
    assert not report.items, [d.format() for d in report.items]
    return analyse(data, balance.balance, composition, ["duel", "mix"], None, 2)


def _painted(result, language: str) -> list[str]:
    from dataclasses import replace

    from cardgen.documents.balance import balance_pdf
    from cardgen.model.pack import DEFAULT_LOCALES
    return _text(balance_pdf(replace(result, language=language, locale=DEFAULT_LOCALES[language],
                                     labels={"points": POINTS[language]})))


COMMAND_LINE = re.compile(r"--[a-z]|\bcardgen\b|\.ya?ml\b|\.pdf\b|\$ |\x00")


def test_the_pack_in_german_gets_a_german_report_without_command_line_text(tmp_path, make_pack,
                                                                           cli):
    folder = _pack(tmp_path, make_pack, "de")
    result = cli("balance", "mini", "--data", folder.parent, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pages = _text((tmp_path / "out" / "mini" / "balance.pdf").read_bytes())
    text = "\n".join(pages)
    assert pages[0].startswith("Octet Duel: Balance-Bericht")
    assert "Das Wichtigste zuerst" in pages[0] and "Vorgeschlagene Änderungen" in text
    assert not COMMAND_LINE.search(text), COMMAND_LINE.search(text)
    english = {BALANCE_WORDS["en"][k] for k in ("bal_verdict", "bal_changes", "bal_fine",
                                                "bal_cards_title", "bal_who_title",
                                                "bal_axis_games", "bal_heat_scale")}
    assert not [w for w in english if w in text]
    assert not re.search(r"\b(the|of|and|games|strength|beat rate|octets)\b", text)


@pytest.mark.parametrize("language", ["en", "de", "nl", "fr", "it"])
def test_every_language_reads_its_own_words(analysed, language):
    text = "\n".join(_painted(analysed, language))
    own = BALANCE_WORDS[language]
    for key in ("bal_verdict", "bal_changes", "bal_cards_title", "bal_heat_scale",
                "bal_rho_scale", "bal_axis_games", "bal_axis_octets", "bal_octets_title"):
        assert own[key] in text, (language, key)
        others = {BALANCE_WORDS[o][key] for o in BALANCE_WORDS if o != language} - {own[key]}
        assert not [w for w in others if w in text], (language, key)
    assert not COMMAND_LINE.search(text), COMMAND_LINE.search(text)


def test_the_verdict_comes_first_then_the_changes_then_the_charts(analysed):
    pages = _painted(analysed, "en")
    text = "\n".join(pages)
    headings = ("The verdict", "In order", "Suggested changes", "The cards compared",
                "Beat rate per card and category", "Points and strength", "Who wins?",
                "The octets")
    order = [re.search(f"(?m)^{re.escape(h)}$", text).start() for h in headings]
    assert order == sorted(order)
    start = order[headings.index("Suggested changes")]
    verdict = text[:start]
    assert "the octets are not worth the same – 10 points (Blue) to 30 points (Red)" in verdict
    assert "The lead decides more than the cards." in verdict or "the hand counts" in verdict
    table = " ".join(text[start:order[headings.index("The cards compared")]].split())
    assert "Card Value now suggested" in table
    for row in ("octet Red base value 10 0", "octet Red bonus value 30 20",
                "octet Blue base value 10 20", "octet Blue bonus value 30 40"):
        assert row in table, row
    changed = [s for s in analysed.suggestions if s.old != s.new]
    assert changed and all(f"{s.card} N{s.card} Points {s.old} {s.new}" in table
                           for s in changed)


def test_colour_legends_and_count_axes_are_labelled(analysed):
    from cardgen.documents.balance_charts import nice_ticks

    pages = _painted(analysed, "de")
    text = "\n".join(pages)
    heat = next(p for p in pages if "Schlagquote je Karte und Kategorie" in p)
    for label in ("Farbskala: Schlagquote", "schlägt keine", "schlägt alle", "0 %", "50 %",
                  "100 %", "kein Duell in dieser Kategorie"):
        assert label in heat, label
    matrix = next(p for p in pages if "Farbskala: Rangkorrelation ρ" in p)
    for label in ("umgekehrte Reihenfolge", "gleiche Reihenfolge", "−1", "+1", "umrandet"):
        assert label in matrix, label
    for play in analysed.plays:                   # every histogram numbers its count axis
        page = next(p for p in pages if p.startswith(analysed.variant_labels[play.variant]))
        assert "Partien" in page and "Duelle je Partie" in page
        assert "gewonnene Partien" in page and "Spieler am Tisch" in page
        top = max(play.lengths)
        size = max(1, -(-top // 30))
        counts = [0] * (top // size + 1)
        for v in play.lengths:
            counts[v // size] += 1
        ticks = [str(int(v)) for v in nice_ticks(max(counts), 4)]
        assert len(ticks) >= 3 and all(re.search(rf"(?m)^{t}$|\b{t}\b", page) for t in ticks)
    assert "Anteil der Oktette" in text and "verschiedene Sätze im Oktett" in text


def test_special_cards_are_drawn_with_the_deck(analysed):
    pages = _painted(analysed, "en")
    cards = next(p for p in pages if "The cards compared" in p)
    assert "Consultants (special cards)" in cards
    assert re.search(r"L\s*1", cards) and re.search(r"L\s*2", cards)
    heat = next(p for p in pages if "Beat rate per card and category" in p)
    assert "L1" in heat and "L2" in heat
    points = next(p for p in pages if "Points and strength" in p)
    assert "penalties against their strength" in points and "L1" in points


def test_every_language_has_every_word_with_the_same_placeholders():
    english = BALANCE_WORDS["en"]
    fields = lambda t: {f for _, f, _, _ in string.Formatter().parse(t) if f}  # noqa: E731
    for language, words in BALANCE_WORDS.items():
        assert set(words) == set(english), language
        for key, text in words.items():
            assert fields(text) <= fields(english[key]), (language, key)
            assert fields(english[key]) - fields(text) <= {"term"}, (language, key)
        if language != "en":                      # translated, not copied
            same = [k for k in words if words[k] == english[k] and len(english[k].split()) > 3]
            assert not same, (language, same)
