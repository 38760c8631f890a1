"""cardgen balance: measures on a deck small enough to work out by hand, seeded simulations that
repeat exactly, --apply editing values only, and the command's answers to bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardgen.analyse.declaration import load_balance
from cardgen.analyse.measures import measure
from cardgen.analyse.run import analyse
from cardgen.analyse.table import build_table
from cardgen.pipeline.chain import validated as check
from cardgen.compose import load_composition
from cardgen.diagnostics import Report
from cardgen.model.balance import Balance

PACK = """\
id: mini
title: Tiny Duel
language: en
labels: {points: Points, penalty: Penalty, wins_high: highest wins, wins_low: lowest wins}
icons: {up: "▲", down: "▼"}
groups:
  - {id: red, label: Red, colour: "#D9453B", symbol: "♥"}
  - {id: blue, label: Blue, colour: "#3A6FC4", symbol: "♦"}
kinds:
  - {id: hero, label: Hero, id_pattern: "^[AB][1-4]$", front: stat-card, back: mini-back}
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
    tie_break: detail
    values:
      - {key: y, label: Fear, type: level, min: 0, max: 3, wins: low}
"""

# By hand: Power A1 = A2 (a tie) > B1; Fear (low wins, detail breaks a level tie) A1 [1,30] <
# A2 [1,40] < B1 [2,60]. Beat rates (ties half): A1 0.75 / 1.0, A2 0.75 / 0.5, B1 0 / 0.
CARDS = """\
kind: hero
cards:
  - id: A1
    name: Ann
    set: A
    group: red
    points: 1   # a comment that --apply must keep
    stats: {x: 5, y: [1, 30]}
  - id: A2
    name: Bob
    set: A
    group: blue
    points: 1
    stats: {x: 5, y: [1, 40]}
  - id: B1
    name: Cid
    set: B
    group: red
    points: 1
    stats: {x: 3, y: [2, 60]}
"""

BALANCE = """\
# what the tiny duel plays
variants:
  duel:
    play: duel
    games: 40
suggest:
  - {field: points, kinds: [hero], by: strength, within: kind, range: [1, 5]}
"""

COMPOSITION = """\
deck_kinds: [hero]
variants:
  duel: {players: [2, 3]}
"""


@pytest.fixture()
def tiny(tmp_path, make_pack) -> Path:
    return make_pack(tmp_path, {"pack.yaml": PACK, "cards/heroes.yaml": CARDS,
                                "cards/consultants.yaml": None, "balance.yaml": BALANCE,
                                "composition.yaml": COMPOSITION})


def _loaded(folder: Path):
    report = Report()
    data = check(folder, report)
    declared = load_composition(data, report)
    balance = load_balance(data, declared.composition, report)
    assert not report.items, [d.format() for d in report.items]
    return data, declared.composition, balance.balance


def test_beat_rates_strength_and_dominance_by_hand(tiny):
    data, _, balance = _loaded(tiny)
    table = build_table(data, balance, ["hero"], [])
    m = measure(table, data, 0.9)
    assert table.ids == ["A1", "A2", "B1"]
    assert m.beat == [[0.75, 1.0], [0.75, 0.5], [0.0, 0.0]]
    assert m.strength == [0.875, 0.625, 0.0]
    assert sorted(m.dominated) == [("A2", "A1"), ("B1", "A1"), ("B1", "A2")]
    assert table.outcome[0][0][1] == 0                      # Power: A1 and A2 tie
    assert m.unique_best == {1: "A1"}                        # Power's best value is shared
    assert m.leader == pytest.approx((1.0 + 0.75 + 0.0) / 3)


def test_without_the_detail_tie_break_the_level_ties(tiny):
    data, _, balance = _loaded(tiny)
    table = build_table(data, balance.model_copy(update={"tie_breaks": ["other"]}), ["hero"], [])
    assert table.outcome[1][0][1] == 0                      # Fear 1 vs 1: no detail, a tie
    assert table.outcome[1][0][2] == 1


def test_same_set_only_values_meet_inside_the_set(tiny):
    data, _, balance = _loaded(tiny)
    table = build_table(data, Balance(same_set_only=["x"]), ["hero"], [])
    m = measure(table, data, 0.9)
    assert table.outcome[0][0][2] == 2 and table.outcome[0][0][1] == 0
    assert m.beat[0][0] == 0.5 and m.beat[2][0] is None     # B1 has no Power duel at all
    assert m.strength == [1.0, 0.5, 0.0]                     # strength: Fear only


def test_a_seeded_simulation_repeats_exactly(tiny):
    data, composition, balance = _loaded(tiny)
    runs = [analyse(data, balance, composition, ["duel"], 60, seed) for seed in (7, 7, 8)]
    first, again, other = (r.plays[0] for r in runs)
    assert first.lengths == again.lengths and first.won == again.won
    assert first.lead_changes == again.lead_changes
    assert (first.lengths, first.won) != (other.lengths, other.won)
    assert first.games == 60 and sum(first.by_players[n][0] for n in (2, 3)) == 60
    assert sum(first.won) == sum(first.lost) > 0            # every won duel took a card


def test_suggested_points_follow_strength(tiny):
    data, composition, balance = _loaded(tiny)
    result = analyse(data, balance, composition, [], None, 1)
    assert [(s.card, s.old, s.new) for s in result.suggestions] == [
        ("B1", 1, 1), ("A2", 1, 3), ("A1", 1, 5)]


def test_cli_report_json_and_same_bytes(tiny, cli, tmp_path):
    data = tiny.parent
    result = cli("balance", "mini", "--data", data, "--out", tmp_path / "a", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["dominated"][0] == {"card": "A2", "by": "A1"}
    assert report["simulations"][0]["games"] == 40
    assert cli("balance", "mini", "--data", data, "--out", tmp_path / "b").exit_code == 0
    one = (tmp_path / "a" / "mini" / "balance.pdf").read_bytes()
    assert one.startswith(b"%PDF") and one == (tmp_path / "b" / "mini" / "balance.pdf").read_bytes()


def test_apply_changes_only_the_values(tiny, cli, tmp_path):
    before = (tiny / "cards" / "heroes.yaml").read_text()
    result = cli("balance", "mini", "--data", tiny.parent, "--out", tmp_path / "o", "--apply")
    assert result.exit_code == 0, result.output
    after = (tiny / "cards" / "heroes.yaml").read_text()
    assert after == before.replace("points: 1   #", "points: 5   #").replace(
        "points: 1\n    stats: {x: 5", "points: 3\n    stats: {x: 5")
    assert "-    points: 1   # a comment" in result.stdout and "+    points: 5   #" in result.stdout


@pytest.mark.parametrize("args", [["--games", "0"], ["--games", "-1"], ["--variant", "klassik"]])
def test_usage_mistakes_write_nothing(tiny, cli, tmp_path, args):
    result = cli("balance", "mini", "--data", tiny.parent, "--out", tmp_path / "out", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_a_category_without_direction_is_a_diagnostic(tmp_path, make_pack, cli):
    pack = make_pack(tmp_path, {"pack.yaml": PACK.replace(", wins: high}", "}"),
                                "cards/heroes.yaml": CARDS, "cards/consultants.yaml": None})
    result = cli("balance", "mini", "--data", pack.parent, "--out", tmp_path / "out")
    assert result.exit_code == 1
    assert result.stderr.endswith("mini/pack.yaml:21:9: error: x values.wins: required key is "
                                  "missing\n1 error, 0 warnings in 1 file\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("pack", ["quartett", "quatridou", "dokter-li", "tischordnung"])
def test_packs_without_stat_duels_say_so(cli, tmp_path, pack):
    result = cli("balance", pack, "--out", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stdout == (f"{pack}: no stat duels — its cards carry no categories with values,"
                             " so beat rates, simulated duels and suggested points do not apply\n")
    assert not (tmp_path / "out").exists()


def test_the_flagship_is_balanced(cli, tmp_path):
    """The rebalanced flagship: no dominated card, no redundant pair, points rise with strength
    inside every rank, and the shipped values are the ones the declared rule suggests."""
    result = cli("balance", "crazy-hospital", "--games", "20", "--out", tmp_path, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["dominated"] == [] and report["redundant"] == []
    assert min(report["points"]["within_set"].values()) > 0.9
    assert report["specials"]["penalty_strength"] > 0.9
    assert [s for s in report["suggestions"] if s["old"] != s["new"]] == []
    assert {s["variant"] for s in report["simulations"]} == {"duell", "mix-it"}


def test_an_edition_gets_its_own_balance_report(cli, tmp_path):
    """--language: the English edition's balance.pdf, in English, beside the base one."""
    from io import BytesIO
    from pypdf import PdfReader
    result = cli("balance", "crazy-hospital", "--games", "20", "--variant", "duell",
                 "--language", "en", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "crazy-hospital-en" / "balance.pdf").is_file()
    assert not (tmp_path / "crazy-hospital").exists()
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(
        (tmp_path / "crazy-hospital-en" / "balance.pdf").read_bytes())).pages)
    assert "balance report" in text and "The verdict" in text and "Balance-Bericht" not in text
    refused = cli("balance", "crazy-hospital", "--language", "xx", "--out", tmp_path)
    assert refused.exit_code == 2 and "--language" in refused.output


def test_balance_without_kinds_takes_the_decks_and_leaves_the_loaded_model_as_read(tiny,
                                                                                   monkeypatch):
    """balance.yaml without `kinds:` measures the composition's deck kinds: a copy of the
    model gets them. A resident process (`serve`, `watch`) keeps the model read for the next
    load while the file stays the same (load.pack), so changing the model itself would carry
    one composition's kinds into the next."""
    from cardgen.load import source
    from cardgen.load.pack import read_model
    monkeypatch.setattr(source, "MEMORY", {})  # resident: parses and models kept
    data, composition, first = _loaded(tiny)
    assert first.kinds == ["hero"]
    kept, _ = read_model(tiny / "balance.yaml", Balance, Report())  # the model as loaded
    assert not kept.kinds and kept is not first
    again, _ = read_model(tiny / "balance.yaml", Balance, Report())
    assert again is kept  # (kept: a later load of the same file gets it again)
