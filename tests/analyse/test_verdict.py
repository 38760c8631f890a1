"""The verdict of balance.pdf (analyse/verdict.py): what is unbalanced, how much and what to
change, in the pack's language, every term defined where it is first used.

Two small decks with a known imbalance: three heroes where A1 beats or ties the other two
everywhere (A2 and B1 are dominated), and eight heroes whose red octet always reaches its bonus
and whose blue octet never does (30 against 10 points).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardgen.analyse.declaration import load_balance
from cardgen.analyse.run import analyse
from cardgen.analyse.verdict import Terms, Words, plain, verdict
from cardgen.compose import load_composition
from cardgen.diagnostics import Report
from cardgen.pipeline.chain import validated as check

PACK = """\
id: mini
title: Tiny Duel
language: {language}
icons: {{up: "▲", down: "▼"}}
groups:
  - {{id: red, label: Red, colour: "#D9453B", symbol: "♥"}}
  - {{id: blue, label: Blue, colour: "#3A6FC4", symbol: "♦"}}
kinds:
  - {{id: hero, label: Hero, id_pattern: "^[A-D][1-4]$", front: stat-card, back: mini-back}}
levels:
  - {{level: 0, min: 0, max: 24}}
  - {{level: 1, min: 25, max: 49}}
  - {{level: 2, min: 50, max: 74}}
  - {{level: 3, min: 75, max: 99}}
categories:
  - key: x
    label: Power
    kinds: [hero]
    values:
      - {{key: x, label: Power, type: integer, min: 0, max: 10, wins: high}}
  - key: y
    label: Fear
    kinds: [hero]
    values:
      - {{key: y, label: Fear, type: integer, min: 0, max: 10, wins: low}}
"""

DOMINATED = """\
kind: hero
cards:
  - {id: A1, name: Ann, set: A, group: red, points: 1, stats: {x: 5, y: 3}}
  - {id: A2, name: Bob, set: A, group: blue, points: 1, stats: {x: 5, y: 4}}
  - {id: B1, name: Cid, set: B, group: red, points: 1, stats: {x: 3, y: 6}}
"""

# (id, set, group, power, fear): red holds four sets, blue two
HEROES = [("A1", "A", "red", 9, 8), ("B1", "B", "red", 2, 1), ("C1", "C", "red", 7, 6),
          ("D1", "D", "red", 4, 3), ("A2", "A", "blue", 8, 7), ("A3", "A", "blue", 3, 2),
          ("B2", "B", "blue", 6, 5), ("B3", "B", "blue", 1, 0)]
OCTETS = "kind: hero\ncards:\n" + "".join(
    f"  - {{id: {i}, name: N{i}, set: {s}, group: {g}, points: 1, stats: {{x: {x}, y: {y}}}}}\n"
    for i, s, g, x, y in HEROES)

COMPOSITION = """\
deck_kinds: [hero]
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
variants:
  duel: {play: duel, games: 40}
  mix: {play: sets, games: 80, set_score: 20, octets: true}
"""


def _result(tmp_path, make_pack, cards: str, language: str, variants: list[str]):
    folder = make_pack(tmp_path, {"pack.yaml": PACK.format(language=language),
                                  "cards/heroes.yaml": cards, "cards/consultants.yaml": None,
                                  "balance.yaml": BALANCE, "composition.yaml": COMPOSITION})
    report = Report()
    data = check(folder, report)
    composition = load_composition(data, report).composition
    balance = load_balance(data, composition, report)
    assert not report.items, [d.format() for d in report.items]
    return analyse(data, balance.balance, composition, variants, None, 5)


def _told(result) -> tuple[list, list[str], list[str]]:
    words = Words(result.language, result.labels)
    terms = Terms(words)
    found = verdict(result, words, terms)
    text = [plain(" ".join([f.headline, *f.body, f.change])) for f in found.findings]
    return found, text, [plain(line) for line in found.fine]


def test_dominated_cards_are_named_with_what_to_change(tmp_path, make_pack):
    result = _result(tmp_path, make_pack, DOMINATED, "en", [])
    found, text, fine = _told(result)
    assert found.findings[0].key == "dominated"             # before set A sweeping Power
    told = text[0]
    assert told.startswith("2 cards are dominated. They are dominated (a card is dominated when")
    assert "A2 (by A1) and B1 (by A1 and A2)." in told
    assert "give each of these cards a value in which it beats the card that dominates it" in told
    assert any(line.startswith("No two categories are redundant (two categories with ρ above "
                               "0.90") for line in fine)


def test_the_verdict_speaks_the_packs_language(tmp_path, make_pack):
    result = _result(tmp_path, make_pack, DOMINATED, "de", [])
    _, text, fine = _told(result)
    assert text[0].startswith("2 Karten sind dominiert. Sie sind dominiert (eine Karte ist "
                              "dominiert, wenn")
    assert "A2 (von A1) und B1 (von A1 und A2)." in text[0]
    assert not re.search(r"\b(cards|the|by|and)\b", " ".join(text + fine))


def test_uneven_octets_are_told_with_their_values_and_the_suggestion(tmp_path, make_pack):
    result = _result(tmp_path, make_pack, OCTETS, "en", ["mix"])
    found, text, _ = _told(result)
    octets = text[[f.key for f in found.findings].index("octets")]
    assert octets.startswith("“Mix”: the octets are not worth the same – 10 points (Blue) to "
                             "30 points (Red) on average, a difference of 100%.")
    assert "Red: 10, with at least 4 different sets (A–D) 30." in octets
    assert "Blue: 10, with at least 3 different sets (A–D) 30." in octets
    assert "Bonus in 100% of the laid octets" in octets and "Bonus in 0% of the laid" in octets
    assert "Why: the groups’ octets hold different numbers of sets on average: Red 4.0 and " \
        "Blue 2.0." in octets
    assert "values with which every octet brings 20 points on average: each bonus is 20 points" \
        in octets
    assert octets.endswith("the octets then bring 20 to 20 points.")


def test_each_term_is_defined_once_where_it_is_first_used(tmp_path, make_pack):
    """In reading order, a term's first use carries its definition, or is the headline right
    above the line that defines it."""
    result = _result(tmp_path, make_pack, OCTETS, "en", ["duel", "mix"])
    words = Words(result.language, result.labels)
    terms = Terms(words)
    found = verdict(result, words, terms)
    blocks = []                                   # (finding, headline?, text) in reading order
    for n, f in enumerate(found.findings):
        blocks += [(n, True, f.headline)] + [(n, False, t) for t in [*f.body, f.change]]
    blocks += [(-1, False, line) for line in found.fine]
    assert not any("\x00" in text for _, _, text in blocks)
    assert {"octet_worth", "leader", "chance", "strongest_hand"} <= set(terms.defined)
    for key in terms.defined:
        term = words[f"bal_term_{key}"]
        defined = [k for k, (_, _, text) in enumerate(blocks) if f"<b>{term}</b> (" in text]
        assert len(defined) == 1, term
        first = next(k for k, (_, _, text) in enumerate(blocks) if term in plain(text))
        finding, headline, _ = blocks[first]
        assert first == defined[0] or (headline and blocks[defined[0]][0] == finding), term


def test_the_lead_is_measured_against_the_hand_and_chance(tmp_path, make_pack):
    result = _result(tmp_path, make_pack, OCTETS, "en", ["duel"])
    play = result.plays[0]
    assert play.games == 40 and 0 <= play.first_leader_won <= 40
    assert sum(play.players_won[n][0] for n in (2, 3)) == play.strongest_won
    assert sum(play.players_won[n][1] for n in (2, 3)) == play.first_leader_won
    assert 0 < play.leader_won <= sum(play.lengths)
    assert play.chance_spread == pytest.approx(20 * 0.25 + 20 * 2 / 9)
