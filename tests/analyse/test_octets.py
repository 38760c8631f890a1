"""Octets in the simulation: played as composition.yaml scores them, counted per group, and the
suggested values that make every group's octet worth the same (analyse/octets.py).

The deck has a known answer: red's four cards are four different sets (A, B, C, D), so every red
octet holds 4 sets and reaches its bonus (4 asked for); blue's four cards are two sets (A, B), so
a blue octet never reaches its bonus (3 asked for). No set has four cards, so no quartet is ever
laid and every card goes into an octet or stays in hand.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardgen.analyse.declaration import load_balance
from cardgen.analyse.duel import Rules
from cardgen.analyse.octets import advise, worth
from cardgen.analyse.run import analyse
from cardgen.analyse.sets import SetRules, SetsGame
from cardgen.analyse.simulate import OctetStats
from cardgen.compose import load_composition
from cardgen.diagnostics import Report
from cardgen.model.compose import OctetScore
from cardgen.pipeline.chain import validated as check

PACK = """\
id: mini
title: Octet Duel
language: en
labels: {points: Points, penalty: Penalty, wins_high: highest wins, wins_low: lowest wins}
icons: {up: "▲", down: "▼"}
groups:
  - {id: red, label: Red, colour: "#D9453B", symbol: "♥"}
  - {id: blue, label: Blue, colour: "#3A6FC4", symbol: "♦"}
kinds:
  - {id: hero, label: Hero, id_pattern: "^[A-D][1-4]$", front: stat-card, back: mini-back}
levels:
  - {level: 0, min: 0, max: 24}
  - {level: 1, min: 25, max: 49}
  - {level: 2, min: 50, max: 74}
  - {level: 3, min: 75, max: 99}
categories:
  - key: x
    label: Power
    kinds: [hero]
    values:
      - {key: x, label: Power, type: integer, min: 0, max: 10, wins: high}
  - key: y
    label: Fear
    kinds: [hero]
    values:
      - {key: y, label: Fear, type: integer, min: 0, max: 10, wins: low}
"""

# (id, set, group, power, fear): power and fear cross, so the lead changes hands
HEROES = [("A1", "A", "red", 9, 8), ("B1", "B", "red", 2, 1), ("C1", "C", "red", 7, 6),
          ("D1", "D", "red", 4, 3), ("A2", "A", "blue", 8, 7), ("A3", "A", "blue", 3, 2),
          ("B2", "B", "blue", 6, 5), ("B3", "B", "blue", 1, 0)]
CARDS = "kind: hero\ncards:\n" + "".join(
    f"  - {{id: {i}, name: N{i}, set: {s}, group: {g}, points: 1, stats: {{x: {x}, y: {y}}}}}\n"
    for i, s, g, x, y in HEROES)

COMPOSITION = """\
deck_kinds: [hero]
sets_of: 4
variants:
  mix: {players: [2, 3]}
octets:
  size: 4
  score:
    red: {base: 10, bonus: 30, distinct: 4}
    blue: {base: 10, bonus: 30, distinct: 3}
"""

BALANCE = """\
variants:
  mix: {play: sets, games: 80, set_score: 20, octets: true}
"""


@pytest.fixture()
def octet_pack(tmp_path, make_pack) -> Path:
    return make_pack(tmp_path, {"pack.yaml": PACK, "cards/heroes.yaml": CARDS,
                                "cards/consultants.yaml": None, "balance.yaml": BALANCE,
                                "composition.yaml": COMPOSITION})


def _analysed(folder: Path, games: int = 80):
    report = Report()
    data = check(folder, report)
    composition = load_composition(data, report).composition
    balance = load_balance(data, composition, report)
    assert not report.items, [d.format() for d in report.items]
    return analyse(data, balance.balance, composition, ["mix"], games, 3)


def test_octets_are_played_as_composition_yaml_scores_them(octet_pack):
    result = _analysed(octet_pack)
    play = result.plays[0]
    red, blue = play.octets["red"], play.octets["blue"]
    assert red.laid > 0 and blue.laid > 0
    assert play.laid_sets == {}                              # no set has four cards
    assert set(red.distinct) == {4} and set(blue.distinct) == {2}
    assert red.bonus == red.laid and blue.bonus == 0         # 4 sets ≥ 4; 2 sets < 3
    assert worth(red) == 30 and worth(blue) == 10            # bonus / base, points apart
    assert red.points == 4 * red.laid                        # four cards of 1 point each
    assert red.reached(4) == 1.0 and blue.reached(3) == 0.0
    assert red.games <= play.games and red.bonus_games == red.games and blue.bonus_games == 0
    assert red.holders_won <= red.holders


def test_the_suggestion_gives_every_group_the_same_worth(octet_pack):
    result = _analysed(octet_pack)
    advice = result.octet_advice["mix"]
    # target: the mean of 30 and 10; step: the mean of both bonus steps (20); red reaches its
    # bonus always (base = 20 − 1 × 20), blue never (base = 20 − 0 × 20)
    assert (advice.target, advice.step) == (20, 20)
    assert advice.scores["red"] == OctetScore(base=0, bonus=20, distinct=4)
    assert advice.scores["blue"] == OctetScore(base=20, bonus=40, distinct=3)
    assert advice.worth_expected == {"red": 20.0, "blue": 20.0}
    assert {(c.group, c.field, c.old, c.new) for c in advice.changes} == {
        ("red", "base", 10, 0), ("red", "bonus", 30, 20), ("blue", "base", 10, 20),
        ("blue", "bonus", 30, 40)}
    again = result.octet_checked["mix"]                      # the games played again with them
    assert worth(again.octets["red"]) == 20 and worth(again.octets["blue"]) == 20


def test_values_that_are_already_even_are_left_alone():
    scores = {"red": OctetScore(base=0, bonus=20, distinct=4), "blue": OctetScore(base=20)}
    stats = {"red": OctetStats(laid=10, bonus=10, distinct={4: 10}, value=200),
             "blue": OctetStats(laid=5, distinct={2: 5}, value=100)}
    advice = advise(stats, scores)
    assert advice.changes == [] and advice.target == 20
    assert advise({}, scores) is None                       # nothing laid: nothing to say


def _game(groups_of: list[tuple], set_of: list[str], scores: dict) -> SetsGame:
    n = len(set_of)
    rules = Rules([[[2] * n for _ in range(n)]], [[0]] * n, ("detail",), 10)
    sets = SetRules(set_of=set_of, groups_of=groups_of, points=[0] * n, penalty=[0] * n,
                    sets_of=4, set_score=20, octet_size=4, octet_score=scores)
    return SetsGame(rules, sets, random.Random(1), [list(range(n)), []], ["best", "best"],
                    [0] * n, [0] * n)


@pytest.mark.parametrize("blue_base, goes_to", [(20, "red"), (60, "blue")])
def test_a_shared_card_goes_where_the_octet_scores_more(blue_base, goes_to):
    """Three red cards of three sets, three blue cards of one set, and a card that counts for
    either: red with it holds 4 sets (bonus 50), blue with it scores its base. Alphabetical
    order would give it to blue whatever the values."""
    set_of = ["A", "B", "C", "A", "A", "A", "G"]
    groups_of = [("red",)] * 3 + [("blue",)] * 3 + [("red", "blue")]
    game = _game(groups_of, set_of, {"red": OctetScore(base=10, bonus=50, distinct=4),
                                     "blue": OctetScore(base=blue_base)})
    game.lay(0)
    laid = {laid.name: laid for laid in game.laid[0]}
    assert list(laid) == [goes_to] and 6 in laid[goes_to].cards
    assert laid[goes_to].score == (50 if goes_to == "red" else 60)
    assert laid[goes_to].bonus == (goes_to == "red")
    assert sorted(game.hands[0]) == sorted(set(range(7)) - set(laid[goes_to].cards))
