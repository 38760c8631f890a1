"""Every variant, option, ending and scoring rule of seed 000 is in the flagship's rulebook, and a
category label changed in the YAML changes the cards and the rulebook in the same build."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import validated as check
from cardgen.pipeline.draw import render_pack
from cardgen.diagnostics import Report
from conftest import pypdf_text, text_layer

ROOT = Path(__file__).resolve().parents[2]

# One entry per rule of the seed: (what it is, a pattern that must occur in the rulebook's text).
SEED_RULES = [
    # variants
    ("variant klassik", r"Quartett klassik"),
    ("variant Duell / Werte stechen", r"Werte stechen"),
    ("variant Mix It", r"Mix It"),
    ("klassik player count", r"3\s*(–|bis)\s*8 Spieler"),
    ("duell player count", r"2\s*(–|bis)\s*8 Spieler"),
    # options
    ("option kreuz und quer", r"kreuz und quer"),
    ("option Büro", r"Büro"),
    ("option Teams", r"Teams"),
    ("option Ablegen", r"Ablegen"),
    ("option Unentschieden", r"Unentschieden"),
    ("option Unentschieden – Wechsel des Anspiels", r"Wechsel des Anspiels"),
    ("option fight for your right", r"fight for your right"),
    ("option Feierabend", r"Feierabend"),
    ("option letzte drei", r"letzte drei"),
    ("option Challenge 1", r"Challenge\s*/?\s*(Herausforderung)?\s*1|Challenge 1"),
    ("option Challenge 2 die drei Musketiere", r"drei Musketiere"),
    ("option Mehrfachattacke", r"Mehrfachattacke"),
    ("option survival of the fittest", r"survival of the fittest"),
    ("option schieben", r"schieben"),
    ("option Dreieck des Bösen", r"Dreieck des Bösen"),
    ("option alternatives Anspiel 2", r"alternatives Anspiel 2"),
    ("option running out of doctors", r"running out of doctors"),
    ("option Ärztemangel", r"Ärztemangel"),
    ("Challenge 1 not with Mehrfachattacke", r"nicht .{0,80}Mehrfachattacke|Mehrfachattacke.{0,80}nicht"),
    ("Teams of 2 to 4", r"2\s*(–|bis)\s*4"),
    # set-up
    ("32 or 64 character cards", r"32.{0,60}64|64.{0,60}32"),
    ("balanced selection", r"A1\s*–\s*A4.{0,40}C1\s*–\s*C4"),
    ("G1–G4 yellow or red", r"G1\s*–\s*G4"),
    ("G5–G8 blue or green", r"G5\s*–\s*G8"),
    ("cut out the four buttons", r"schneid"),
    ("player colours from the header row", r"Kopfzeile"),
    # special cards
    ("K cards L1–L8", r"L1\s*–\s*L8"),
    ("S cards S1–S23", r"S1\s*–\s*S23"),
    ("ER cards ER1–ER9", r"ER1\s*–\s*ER9"),
    ("use it or lose it", r"Use it or lose it"),
    ("Rückschlag", r"Rückschlag"),
    ("Patientenmanagerin draws face up", r"Patientenmanagerin"),
    # levels
    ("level detail bands", r"75\s*–\s*99"),
    # endings
    ("end: last quartet laid", r"letzte.{0,40}Quartett"),
    ("end: three more rounds", r"drei (weitere )?Runden"),
    ("end: time over", r"Spielzeit"),
    ("end: duel until one has all cards", r"alle Karten"),
    # scoring
    ("quartet 20 points", r"20"),
    ("octet yellow 50 / 75", r"50.{0,200}75"),
    ("octet green 75 / 80", r"80"),
    ("octet blue 75 / 90", r"90"),
    ("octet red 100", r"100"),
    ("hand cards subtracted", r"abgezogen|abziehen|Minuspunkte"),
    ("team totals", r"Team"),
]


def pdf_text(content: bytes) -> str:
    text = pypdf_text(content).replace("\u00ad", "")
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)  # words hyphenated at line ends
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def rulebook_text(shipped_build) -> str:
    _, report, files = shipped_build("crazy-hospital")  # built once per test session
    assert not report.errors, [d.format() for d in report.errors]
    return pdf_text(files["rulebook.pdf"])


@pytest.mark.parametrize("what, pattern", SEED_RULES, ids=[w for w, _ in SEED_RULES])
def test_seed_rule_is_in_the_rulebook(rulebook_text, what, pattern):
    assert re.search(pattern, rulebook_text, flags=re.IGNORECASE | re.DOTALL), what


# The seed's options of the digital version only (Verschwörung, Verrat, Auf die harte Tour,
# Alternatives Anspiel 1) are not rules of the printed game: the printed rulebook leaves them
# out, and the checker refuses them for print (docs/decisions.md, issue 30).
DIGITAL_ONLY = ("Verschwörung", "Verrat", "Auf die harte Tour", "Alternatives Anspiel 1",
                "digital")


@pytest.mark.parametrize("word", DIGITAL_ONLY)
def test_the_printed_rulebook_leaves_out_the_app_only_options(rulebook_text, word):
    assert not re.search(rf"(?<!\w){word}(?!\w)", rulebook_text, flags=re.IGNORECASE)


def test_a_changed_category_label_reaches_cards_and_rulebook(tmp_path):
    pack = tmp_path / "crazy-hospital"
    shutil.copytree(ROOT / "card_data" / "crazy-hospital", pack)
    yaml = (pack / "pack.yaml").read_text(encoding="utf-8")
    assert "label: Krankheitstage\n" in yaml
    (pack / "pack.yaml").write_text(yaml.replace("label: Krankheitstage\n",
                                                 "label: Blaumachtage\n"), encoding="utf-8")
    report = Report()
    data = check(pack, report)
    book_result = render_pack(data, report, BuildSettings(only=("rulebook",)))
    data.cards = data.cards[:3]  # three cards are enough to see the label on a card
    cards_result = render_pack(data, report, BuildSettings(only=("printshop",)))
    assert book_result and cards_result, [d.format() for d in report.errors]
    cards = pdf_text(cards_result.files["printshop.pdf"])
    assert "Blaumachtage" in cards and "Krankheitstage" not in cards
    assert "Blaumachtage" in text_layer(book_result.files["rulebook.pdf"])


def test_card_grid_lists_every_card_once_by_set_and_group(tmp_path):
    """The card grid is still there for a pack that prints its IDs (quartett's rulebook shows
    pictures instead, its IDs are not on the cards)."""
    import shutil
    folder = tmp_path / "quartett"
    shutil.copytree(ROOT / "card_data" / "quartett", folder)
    chapter = folder / "rules" / "02-material.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "  - table: card-grid\n",
                       encoding="utf-8")
    report = Report()
    data = check(folder, report)
    result = render_pack(data, report, BuildSettings(only=("rulebook",)))
    assert result is not None, [d.format() for d in report.errors]
    text = pdf_text(result.files["rulebook.pdf"])
    for lc in data.cards:
        assert re.search(rf"(?<![\w-]){re.escape(lc.card.id)}(?![\w-])", text), lc.card.id
