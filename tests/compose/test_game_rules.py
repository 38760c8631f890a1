"""Each shipped game's own rules, declared in its composition.yaml, refuse what the game text
rules out: broken copies of the packs and refused choices, diagnostics asserted word for word.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardgen.diagnostics import Report
from cardgen.paths import ROOT
from cardgen.load.pack import load_pack
from cardgen.validate.references import References

SHIPPED = ROOT / "card_data"
VALID = Path(__file__).parent.parent / "fixtures" / "valid" / "card_data" / "mini"


@pytest.fixture
def check(cli, shipped_checks_once):
    """`cardgen check PACK --data DATA ARGS`; a shipped pack's own checks run once per session
    (conftest.shipped_checks_once), a broken copy's every time."""
    def run(pack, *args, data=SHIPPED):
        return cli("check", pack, "--data", data, *args)
    return run


def diags(result) -> list[str]:
    return [line for line in result.stderr.splitlines()
            if ": error: " in line or ": warning: " in line]


def broken(tmp_path: Path, pack: str, file: str, replace: dict[str, str]) -> Path:
    """The folder holding a copy of a shipped pack with text replaced in one file."""
    target = tmp_path / "card_data" / pack
    shutil.copytree(SHIPPED / pack, target)
    path = target / file
    text = path.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return tmp_path / "card_data"


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


def at_value(path: Path, text: str, key: str) -> tuple[int, int]:
    """(line, column) of the value after `key` on the first line holding `text`."""
    number = line_of(path, text)
    line = path.read_text(encoding="utf-8").splitlines()[number - 1]
    return number, line.index(key) + len(key) + 1


def test_quartett_without_the_aces_is_refused(check, tmp_path, monkeypatch):
    target = tmp_path / "card_data" / "quartett"
    shutil.copytree(SHIPPED / "quartett", target)
    for path in (target / "cards").glob("*.yaml"):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        path.write_text("".join(line for line in lines if "-A," not in line), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = check("quartett", data=tmp_path / "card_data")
    assert result.exit_code == 1
    comp = target / "composition.yaml"
    struct = line_of(comp, "label: Wert")
    found = diags(result)
    assert found[:2] == [
        f"card_data/quartett/composition.yaml:{struct}:3: error: structure: 13×4 = 52 cards, "
        "the pack has 48 deck cards",
        f"card_data/quartett/composition.yaml:{struct}:5: error: structure: 13 Wert sets "
        "expected, the pack has 12 (2, 3, 4, 5, 6, 7, 8, 9, 10, B, D, K)",
    ]
    # and the rulebook's figure of a quartet names the missing ace
    assert len(found) == 3 and "unknown card 'KARO-A'" in found[2]


def test_quartett_rank_needs_one_card_of_each_suit(check, tmp_path, monkeypatch):
    data = broken(tmp_path, "quartett", "cards/2-herz.yaml",
                  {'{id: HERZ-2, name: "Herz Zwei", title: Zwei, set: "2", group: herz':
                   '{id: HERZ-2, name: "Herz Zwei", title: Zwei, set: "2", group: pik'})
    monkeypatch.chdir(tmp_path)
    result = check("quartett", data=data)
    first, col = at_value(data / "quartett" / "cards" / "1-pik.yaml", "id: PIK-2,", "set: ")
    assert diags(result) == [
        f"card_data/quartett/cards/1-pik.yaml:{first}:{col}: error: PIK-2 set '2' holds 2 pik, "
        "1 karo and 1 kreuz by group; each Wert set holds 1 pik, 1 herz, 1 karo and 1 kreuz"]


def test_tischordnung_profession_of_three_men_and_one_woman(check, tmp_path, monkeypatch):
    data = broken(tmp_path, "tischordnung", "cards/gaeste.yaml",
                  {'set: "Arzt/Ärztin", group: frau, beruf: Ärztin, beeld: "⚕"}\n  - {id: B01-F2':
                   'set: "Arzt/Ärztin", group: herr, beruf: Arzt, beeld: "⚕"}\n  - {id: B01-F2'})
    monkeypatch.chdir(tmp_path)
    result = check("tischordnung", data=data)
    first, col = at_value(data / "tischordnung" / "cards" / "gaeste.yaml", "id: B01-H1", "set: ")
    assert result.exit_code == 1
    assert diags(result) == [
        f"card_data/tischordnung/cards/gaeste.yaml:{first}:{col}: error: B01-H1 set 'Arzt/Ärztin' "
        "holds 3 herr and 1 frau by group; each Beruf set holds 2 herr and 2 frau"]


def test_tischordnung_plays_a_round_per_player(check):
    result = check("tischordnung", "--players", "3", "--report")
    assert result.exit_code == 0, result.stderr
    assert "  rounds       3" in result.stdout
    two = check("tischordnung", "--players", "2", "--report")
    assert "  rounds       4" in two.stdout
    assert diags(check("tischordnung", "--players", "7")) == [
        "command line (tischordnung): error: --players 7: the deal rules cover 2–6 players",
        "command line (tischordnung): error: --players 7: the rounds are declared for 2–6 "
        "players"]


def test_dokter_li_versions(check):
    cl = "command line (dokter-li): error: "
    assert check("dokter-li", "--preset", "basis", "--players", "3").exit_code == 0
    assert check("dokter-li", "--preset", "dynamisch", "--players", "4").exit_code == 0
    assert diags(check("dokter-li", "--variant", "basis", "--special", "all")) == [
        cl + "basisversie is played without IDN1; IDN1 is in the deck"]
    assert diags(check("dokter-li", "--preset", "basis-2", "--players", "3")) == [
        cl + "basisversie with 3–4 players allows at most 1 of HA1, HA2; the deck has 2 — "
        "one of the two stays in the game (--preset basis)",
        cl + "basisversie with 3–4 players allows at most 1 of NG1, NG2; the deck has 2 — "
        "one of the two stays in the game (--preset basis)"]
    assert diags(check("dokter-li", "--variant", "dynamisch", "--special", "NG1-NG2")) == [
        cl + "dynamische versie needs IDN1 in play; IDN1 is missing"]


def test_dokter_li_category_pile_of_a_short_category_and_five_jokers(check, tmp_path,
                                                                       monkeypatch):
    target = tmp_path / "card_data" / "dokter-li"
    shutil.copytree(SHIPPED / "dokter-li", target)
    cards = target / "cards" / "1-categorie.yaml"
    text = cards.read_text(encoding="utf-8")
    start, end = text.index("  - id: Z4\n"), text.index("\n\n", text.index("  - id: Z4\n"))
    text = text[:start] + text[end + 2:]
    start = text.index("  - id: J6\n")
    text = text[:start].rstrip() + "\n"
    cards.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = check("dokter-li", data=tmp_path / "card_data")
    assert result.exit_code == 1
    comp = target / "composition.yaml"
    z1, j1 = line_of(cards, "id: Z1"), line_of(cards, "id: J1")
    assert diags(result) == [
        f"card_data/dokter-li/cards/1-categorie.yaml:{z1 + 3}:10: error: Z1 set 'zorg' has 12 "
        "cards, but sets have 16",
        f"card_data/dokter-li/cards/1-categorie.yaml:{j1 + 4}:10: error: J1 set 'joker' has 5 "
        "cards, but joker sets have 6",
        f"card_data/dokter-li/composition.yaml:{line_of(comp, 'J1-J6')}:33: error: de 6 jokers "
        "cards: 'J1-J6': the pack has no card J6",
        f"card_data/dokter-li/composition.yaml:{line_of(comp, 'label: categorie')}:3: error: "
        "structure: 3×16 + 1×6 = 54 cards, the pack has 49 deck cards",
        f"card_data/dokter-li/composition.yaml:{line_of(comp, 'label: categorie')}:5: error: "
        "structure: 3 categorie sets expected, the pack has 2 (leiding, afstand)",
        f"card_data/dokter-li/composition.yaml:{line_of(comp, 'label: joker')}:5: error: "
        "structure: 1 joker sets expected, the pack has 0",
    ]


def test_dokter_li_pile_of_single_cards_runs_dry_with_four_players(check, tmp_path,
                                                                     monkeypatch):
    data = broken(tmp_path, "dokter-li", "cards/1-categorie.yaml", {"    count: 4\n": ""})
    comp = data / "dokter-li" / "composition.yaml"
    text = comp.read_text(encoding="utf-8").replace("size: 16", "size: 4").replace(
        '{"1": 4, "2": 4, "3": 4, "4": 4}', '{"1": 1, "2": 1, "3": 1, "4": 1}').replace(
        "deck_size: 54", "deck_size: 18")
    comp.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = check("dokter-li", data=data)
    assert diags(result) == [
        f"card_data/dokter-li/composition.yaml:{line_of(comp, 'draw: 1')}:38: error: the pile "
        "runs dry in the first round: with 4 players 16 of 18 cards are dealt, 2 stay in the "
        "pile, and one round draws 4"]
    assert diags(check("dokter-li", "--preset", "basis", "--players", "3", data=data)) == []


def test_crazy_hospital_duell_plays_without_special_cards(check):
    """Decision (issue 30): special cards belong to Mix It; the rulebook says so, and the
    checker refuses them in Werte stechen (S11 and ER6 would do nothing there)."""
    result = check("crazy-hospital", "--variant", "duell", "--report")
    assert "  special cards  none" in result.stdout
    assert diags(check("crazy-hospital", "--variant", "duell", "--special", "S2")) == [
        "command line (crazy-hospital): error: duell is played without special cards; "
        "--special S2 adds 1"]


def test_report_lists_the_checks_that_ran(check):
    result = check("tischordnung", "--report")
    checks = [line.split("checks", 1)[1].strip() for line in result.stdout.splitlines()
              if line.startswith("  checks ")]
    assert checks == ["pack.yaml references", "cards and stat rules", "printed fields",
                      "references in texts", "glossary and examples", "pictures",
                      "colour is never the only cue", "editions and translations",
                      "boards and score sheets",
                      "card layouts: text fit, glyphs, pictures", "rulebook texts",
                      "composition.yaml names and numbers", "complete quartets",
                      "structure 20×4 = 80 cards with cards per set", "rule 80 Gäste",
                      "deal by players", "rounds by players, every player starts equally often"]


def test_references_read_ids_and_ranges():
    data = load_pack(VALID, Report())
    refs = References(data)
    assert list(refs.problems("A1–B1 and A1-A2, then L1; A4 paper is no card")) == [
        ("error", "'A4': the pack has no card A4")]
    assert list(refs.problems("A1 – A3 or L1–L2")) == [
        ("error", "'A1 – A3': the pack has no card A3"),
        ("error", "'L1–L2': the pack has no card L2")]
    assert list(refs.problems("BA1, A12x and LA1 are words, not cards")) == []


def test_tischordnung_score_sheet_has_a_column_per_player(check, tmp_path, monkeypatch):
    data = broken(tmp_path, "tischordnung", "boards.yaml",
                  {'              - "Spieler/in 5"\n              - "Spieler/in 6"\n': ""})
    monkeypatch.chdir(tmp_path)
    boards = data / "tischordnung" / "boards.yaml"
    line = line_of(boards, "player_columns: true")
    assert diags(check("tischordnung", data=data)) == [
        f"card_data/tischordnung/boards.yaml:{line + 2}:15: error: wertung.sheet columns: 4 "
        "player columns, but pack.yaml's play allows up to 6 players; give every player a "
        "column"]
