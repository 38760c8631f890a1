"""One word for one thing, examples that use only what the game has, and printed typography
(cardgen/validate/glossary.py): each check finds the case of issue 30 in a copy of the pack
with its old text, and the shipped packs pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.diagnostics import Report
from cardgen.load.pack import load_pack
from cardgen.validate.glossary import check_glossary
from conftest import SHIPPED, copy_shipped

PACKS = ("crazy-hospital", "quartett", "quatridou", "dokter-li", "tischordnung")


def _warnings(folder: Path) -> list[str]:
    report = Report()
    data = load_pack(folder, report)
    assert data is not None and not report.errors
    check_glossary(data, report)
    return [item.message for item in report.items]


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("pack", PACKS)
def test_the_shipped_packs_pass(pack):
    assert _warnings(SHIPPED / pack) == []


def test_an_example_built_on_a_profession_the_game_lacks(tmp_path):
    pack = copy_shipped(tmp_path, "tischordnung")
    rules = pack / "rules" / "05-punkte.yaml"
    _replace(rules, "Gärtnerin", "Köchin")
    _replace(rules, "Gärtner", "Koch")
    found = _warnings(pack)
    # "Koch" is a guest's surname (Emilia Koch), so only the female form gives it away
    assert found == ["'Köchin': an example names something the pack does not have (no card, "
                     "kind, category or group is called so, and no other text uses the word); "
                     "use the game's own names, or list the word in pack.yaml glossary.words "
                     "(players: glossary.players)"]


def test_the_players_of_the_examples_are_declared(tmp_path):
    pack = copy_shipped(tmp_path, "tischordnung")
    _replace(pack / "pack.yaml", "  players: [Jana, Malte]\n", "")
    assert [m.split(":")[0] for m in _warnings(pack)] == ["'Malte'"]  # Jana starts a sentence


def test_an_example_that_gives_a_card_a_value_no_card_has(tmp_path):
    pack = copy_shipped(tmp_path, "crazy-hospital")
    rules = pack / "rules" / "10-wertung.yaml"
    _replace(rules, "die {{ kinds.K.short }} L5 mit {{ -cards_by_id.L5.penalty }} Minuspunkten",
             "eine {{ kinds.K.short }} mit 15 Minuspunkten")
    assert _warnings(pack) == [
        "'L-Karte mit 15 Minuspunkten': an example gives a L-Karte 15 Minuspunkte; the pack's "
        "cards of the kind have 10, 11, 13, 14, 16, 17, 19, 20"]


@pytest.mark.parametrize("pack, file, old, new, word, use", [
    ("tischordnung", "boards.yaml", "    title: Wertungsblock", "    title: Wertungsblatt",
     "Wertungsblatt", "Wertungsblock"),
    ("tischordnung", "rules/04-sitzordnung.yaml", "2 Herren und 1 Dame", "2 Männer und 1 Dame",
     "Männer", "Herren"),
    ("crazy-hospital", "cards/personen.yaml", "tritt in Fitness gegen", "tritt in Phys Bel gegen",
     "Phys Bel", "Fitness"),
])
def test_a_word_the_glossary_replaces(tmp_path, pack, file, old, new, word, use):
    folder = copy_shipped(tmp_path, pack)
    _replace(folder / file, old, new)
    assert _warnings(folder) == [
        f"'{word}': the glossary's word for this is '{use}' (pack.yaml glossary.terms); one "
        "word for one thing on cards, boards and in the rules"]


def test_a_straight_apostrophe_on_a_card(tmp_path):
    pack = copy_shipped(tmp_path, "dokter-li")
    _replace(pack / "cards" / "2-actie.yaml", "  - id: WS1\n    name: Wel da’s spijtig",
             "  - id: WS1\n    name: Wel da's spijtig")
    assert _warnings(pack) == ["'da's': a straight apostrophe prints as a typewriter's mark; "
                               "write ’ (da’s)"]


def test_a_dash_where_a_minus_belongs(tmp_path):
    pack = copy_shipped(tmp_path, "tischordnung")
    _replace(pack / "rules" / "05-punkte.yaml", "−1, −2, −3, −4, −5", "–1, –2, –3, –4, –5")
    assert _warnings(pack) == ["'–1': a dash before a number; write the minus sign − (−1), as "
                               "the boards and score sheets print it"]


def test_a_negative_number_a_template_prints_gets_the_minus_sign():
    from cardgen.text.words import minus_signs
    assert minus_signs("Minuspunkte: -13") == "Minuspunkte: −13"
    assert minus_signs("S2-S4, 2020-11-17, -2.5 und (-4)") == "S2-S4, 2020-11-17, −2.5 und (−4)"


def test_what_the_check_found_is_kept_while_what_it_reads_stays(tmp_path, monkeypatch):
    """The last check's diagnostics are kept with a digest of its inputs (serve and watch
    check after every edit): the same pack is not searched again; a changed value is."""
    from cardgen.validate import glossary
    pack = copy_shipped(tmp_path, "crazy-hospital")
    rules = pack / "rules" / "10-wertung.yaml"
    _replace(rules, "die {{ kinds.K.short }} L5 mit {{ -cards_by_id.L5.penalty }} Minuspunkten",
             "eine {{ kinds.K.short }} mit 15 Minuspunkten")
    report = Report()
    data = load_pack(pack, report)
    searched = []
    real = glossary._check
    monkeypatch.setattr(glossary, "_check", lambda *a: searched.append(1) or real(*a))
    check_glossary(data, report)
    check_glossary(data, report)
    assert searched == [1] and len(report.items) == 2 and report.items[0] == report.items[1]
    assert "have 10, 11, 13, 14, 16, 17, 19, 20" in report.items[0].message
    card = next(lc.card for lc in data.cards if lc.card.id == "L5")
    card.penalty = 15  # an L card has 15 minus points now: the example is right
    again = Report()
    check_glossary(data, again)
    assert searched == [1, 1] and again.items == []


def test_the_rule_texts_are_rendered_once_for_both_text_checks(monkeypatch):
    """The reference check and the glossary check read the same rule texts after Jinja: they
    are rendered once for a loaded pack (each rule text one template call), and again for a
    pack loaded anew."""
    from cardgen.text.rules import TextMaker
    from cardgen.validate.references import check_references, rendered_rules
    calls = []
    real = TextMaker.template
    monkeypatch.setattr(TextMaker, "template", lambda self, *a: calls.append(1) or
                        real(self, *a))
    data = load_pack(SHIPPED / "quartett", Report())
    check_references(data, Report())
    check_glossary(data, Report())
    texts = len(rendered_rules(data))
    assert texts > 20 and len(calls) == texts
    again = load_pack(SHIPPED / "quartett", Report())
    check_glossary(again, Report())
    assert len(calls) == 2 * texts


def test_a_resident_stat_edit_renders_no_rule_text_again_and_a_name_edit_does(tmp_path,
                                                                              monkeypatch):
    """The rule texts may name a card's name, title, set, group and points, never its stats
    (text.rules.jinja_context): after a stat edit a resident process (its chapters' models
    kept, load.pack) renders none of them again; after a name edit, every one."""
    from cardgen.load import source
    from cardgen.pipeline.resident import Resident
    from cardgen.text.rules import TextMaker
    pack = copy_shipped(tmp_path, "crazy-hospital")
    monkeypatch.setattr(source, "MEMORY", None)
    resident = Resident(pack)
    calls = []
    real = TextMaker.template
    monkeypatch.setattr(TextMaker, "template", lambda self, *a: calls.append(1) or
                        real(self, *a))
    cards = pack / "cards" / "character.yaml"

    def edited(old: str, new: str) -> int:
        cards.write_text(cards.read_text(encoding="utf-8").replace(old, new, 1),
                         encoding="utf-8")
        calls.clear()
        resident.sync()
        report = Report()
        assert resident.validated(pack, report) is not None and not report.errors
        return len(calls)

    resident.sync()
    resident.validated(pack, Report())  # the first load renders every rule text
    assert calls
    assert edited("iq: 141", "iq: 140") == 0
    assert edited('name: "Prof. Dr. Hertha Rhythmus"', 'name: "Prof. Dr. Herta Rhythmus"') > 20
    assert edited("iq: 140", "iq: 139") == 0
