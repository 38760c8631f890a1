"""The five games as a publisher sends them back (issue 30): what each pack's outputs and
checker must say now, read from the shipped packs."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from reportlab.pdfgen.canvas import Canvas

from cardgen.diagnostics import Report
from cardgen.layout.faces import FaceBook
from cardgen.layout.sheet import plan_sheet
from cardgen.pictures.store import ImageStore
from cardgen.render.card import CardPainter
from cardgen.units import MM, PAPER
from conftest import shipped_data, text_layer


def _diags(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if ": error: " in line or
            ": warning: " in line]


def _face_image(data, face, dpi: int = 150) -> Image.Image:
    book = FaceBook(data)
    w, h = book.size
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(w * MM, h * MM), invariant=1)
    CardPainter(book.size, 0, book.layouter.icons, ImageStore(data.folder)).draw(
        canvas, face, 0, 0, 0)
    canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    image = document[0].render(scale=dpi / 72).to_pil().convert("L")
    document.close()
    return image


def _difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two grey images (0–255)."""
    return ImageStat.Stat(ImageChops.difference(a, b)).mean[0]


# --- quartett ---------------------------------------------------------------------------------

def test_quartett_refuses_a_deck_of_eight(cli):
    result = cli("check", "quartett", "--cards", "PIK-2,HERZ-2,KARO-2,KREUZ-2,PIK-3,HERZ-3,"
                 "KARO-3,KREUZ-3", "--strict")
    assert result.exit_code == 1
    assert _diags(result) == ["command line (quartett): error: das ganze Blatt mit 52 Karten "
                              "needs 52 spielkarte cards; the chosen deck has 8"]


def test_quartett_court_cards_are_drawn_double_ended():
    data = shipped_data("quartett")
    book = FaceBook(data)
    for lc in data.cards:
        face = book.front(lc)
        figures = [box for box in face.boxes if box.name == "court_figure"]
        if lc.card.set in ("B", "D", "K"):
            assert len(figures) == 1 and figures[0].region.double_ended
            assert figures[0].portrait_role == {"B": "jack", "D": "queen", "K": "king"}[
                lc.card.set]
            image = _face_image(data, face, dpi=100)
            turned = image.rotate(180)
            # a court card reads the same from both ends (the corner indices aside)
            x0, y0 = round(15 * 100 / 25.4), round(12 * 100 / 25.4)
            x1, y1 = round(44 * 100 / 25.4), round(79 * 100 / 25.4)
            assert _difference(image.crop((x0, y0, x1, y1)),
                               turned.crop((x0, y0, x1, y1))) < 1.0, lc.card.id
        else:
            assert figures == []
        panel = next(box for box in face.boxes if box.name == "panel")
        assert panel.stroke in (None, "none")  # no line 2 mm inside the trim


def test_quartett_prints_red_suits_red_in_the_rules():
    from cardgen.text.rules import TextMaker, Where
    maker = TextMaker(shipped_data("quartett"), Report())
    markup = maker.markup("4♠ 4♥ 8♦ B♣", "serif", Where("rules"))
    assert '<font color="#C4122F">♥</font>' in markup
    assert '<font color="#C4122F">♦</font>' in markup
    assert "♠" in markup and '">♠' not in markup


# --- quatridou --------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_quatridou_prints_49_cards_on_three_sheets(paper):
    printing = shipped_data("quatridou").pack.print
    plan = plan_sheet(PAPER[paper], printing.size(), bleed=printing.bleed)
    per_sheet = plan.cols * plan.rows
    assert per_sheet == 20 and plan.keeps_bleed
    sheets = -(-49 // per_sheet)
    assert sheets == 3 and 49 - (sheets - 1) * per_sheet == 9  # not one card alone


def test_quatridou_back_is_the_same_after_a_half_or_a_quarter_turn():
    data = shipped_data("quatridou")
    back = FaceBook(data).back("motiv")
    image = _face_image(data, back)
    assert _difference(image, image.rotate(180)) < 1.0
    assert _difference(image, image.rotate(90)) < 1.0


def test_quatridou_double_bar_is_outlined_on_white_paper():
    data = shipped_data("quatridou")
    book = FaceBook(data)
    double = next(lc for lc in data.cards if lc.card.extra_fields["satz"] == "double")
    bars = [box for box in book.front(double).boxes if box.name.startswith("bar_")]
    assert {box.fill for box in bars} == {"#FFFFFF"}
    assert all(box.stroke not in (None, "none") and box.region.stroke_width >= 0.8
               for box in bars)  # a dark outline where the bar meets the cream card


def test_quatridou_rules_say_who_starts_and_what_becomes_of_a_last_card(shipped_build):
    text = text_layer(shipped_build("quatridou")[2]["rulebook.pdf"])
    assert "Wer beginnt" in text and "jüngere" in text
    assert "Eine einzelne letzte Karte" in text
    assert "2 × 2 = 4" in text and "2 x 2" not in text


# --- dokter-li --------------------------------------------------------------------------------

@pytest.mark.parametrize("args, expected", [
    (("--preset", "basis", "--players", "2"), [
        "command line (dokter-li): error: basisversie with 2 players needs at least 2 of HA1, "
        "HA2; the deck has 1 — with 2 players both stay in (--preset basis-2)",
        "command line (dokter-li): error: basisversie with 2 players needs at least 2 of NG1, "
        "NG2; the deck has 1 — with 2 players both stay in (--preset basis-2)"]),
    (("--variant", "basis", "--special", "HA1,OP1-OP4,VO1-VO5,WS1-WS4,TR1-TR4,PC1-PC2,LP1-LP3",
      "--players", "3"), [
        "command line (dokter-li): error: basisversie with 3–4 players needs at least 1 of "
        "NG1, NG2; the deck has 0 — one of the two stays in the game (--preset basis)"]),
    (("--cards", "Z1-Z4,L1-L4,S1-S4"), [
        "command line (dokter-li): error: de 6 jokers needs J1–J6 in play; J1–J6 are missing",
        "command line (dokter-li): error: de volledige categoriestapel needs 54 categorie "
        "cards; the chosen deck has 48"]),
])
def test_dokter_li_checker_refuses_what_the_versions_rule_out(cli, args, expected):
    result = cli("check", "dokter-li", *args, "--strict")
    assert result.exit_code == 1 and _diags(result) == expected


def test_dokter_li_helpful_and_harmful_action_cards_differ_in_colour():
    data = shipped_data("dokter-li")
    book = FaceBook(data)
    colours = {}
    for lc in data.cards_of("actie"):
        header = next(box for box in book.front(lc).boxes if box.name == "header")
        colours.setdefault((lc.card.extra_fields["timing"], lc.card.extra_fields["soort"]),
                           set()).add(header.fill)
    assert all(len(fills) == 1 for fills in colours.values())
    assert colours[("actief", "hulp")] != colours[("actief", "tegenslag")]


def test_dokter_li_list_items_hang_under_their_text():
    data = shipped_data("dokter-li")
    book = FaceBook(data)
    troef = next(lc for lc in data.cards if lc.card.id == "TR1")
    effect = next(box for box in book.front(troef).boxes if box.name == "effect")
    lines = effect.text.lines
    bullets = [i for i, line in enumerate(lines) if line.runs and
               line.runs[0][1].startswith("•")]
    assert len(bullets) == 3
    follow = [lines[i + 1] for i in bullets if i + 1 < len(lines) and i + 1 not in bullets]
    assert follow and all(line.indent > 0 for line in follow)


# --- tischordnung -----------------------------------------------------------------------------

def test_tischordnung_rules_and_checker_agree_on_rounds(cli, shipped_build):
    for players, rounds in ((2, 4), (3, 3), (4, 4), (5, 5), (6, 6)):
        result = cli("check", "tischordnung", "--players", players, "--report")
        assert f"  rounds       {rounds}" in result.stdout
    text = text_layer(shipped_build("tischordnung")[2]["rulebook.pdf"])
    assert "so viele Runden, wie ihr Spieler seid" in text and "4 Runden" in text


def test_tischordnung_bar_values_on_one_page_with_minus_signs(shipped_build):
    document = pdfium.PdfDocument(shipped_build("tischordnung")[2]["rulebook.pdf"])
    pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    document.close()
    holding = [i for i, page in enumerate(pages) if "Platz 11 bis 15:" in page]
    assert len(holding) == 1 and "Platz 1 bis 6" in pages[holding[0]]
    assert "−1, −2, −3, −4, −5" in pages[holding[0]]
    assert not any(re.search(r"(?<![\w–])–\d", page) for page in pages)


# --- crazy-hospital ---------------------------------------------------------------------------

def test_crazy_hospital_rulebook_carries_no_beta_sections(shipped_build):
    text = text_layer(shipped_build("crazy-hospital")[2]["rulebook.pdf"])
    for beta in ("digital", "App)", "Rückmeldung", "Berühmte letzte Worte", "Hinweis Tipp"):
        assert beta not in text, beta
    assert "mindestens einen Leitenden Arzt" not in text


def test_crazy_hospital_character_cards_print_the_chosen_names():
    data = shipped_data("crazy-hospital")
    book = FaceBook(data)
    front = book.front(data.cards[0])
    stats = next(box for box in front.boxes if box.name == "stats")
    labels = [row.label for row in stats.stats]
    assert len(labels) == 15 and "Hobbys" in labels and "Sport aktiv / passiv / Covid" in labels
    assert not any(re.search(r"Sporf|Nicht Med|Phys Bel|Psych Bel|bei Pos", label)
                   for label in labels)
    assert stats.stats_size >= 7.75  # 6.75 pt before: read at arm's length now
    assert stats.region.stripe


def test_crazy_hospital_house_rules_hold_only_the_chosen_game(tmp_path, cli):
    out = tmp_path / "out"
    result = cli("build", "crazy-hospital", "--preset", "balanced-32", "--seed", "7",
                 "--special", "S2-S4", "--option", "dreieck-des-boesen", "--players", "4",
                 "--only", "rulebook", "--out", out)
    assert result.exit_code == 0, result.output
    text = text_layer((out / "crazy-hospital" / "house-rules.pdf").read_bytes())
    for absent in ("Use it or lose it", "Rückschlag", "Sonderereignisse (ER1", "S5 – ",
                   "Konsiliar- und Belegärzte (L-Karten, L1", "digital",
                   "darf als Einzige ins Büro sehen"):
        assert absent not in text, absent
    for present in ("Dreieck des Bösen", "S2 – Eviline", "S4 – L. Ügner",
                    "Regeln für alle S- und ER-Karten"):
        assert present in text, present


def test_crazy_hospital_score_sheet_has_places_for_what_the_rules_ask(shipped_build):
    from conftest import pypdf_text
    boards = shipped_build("crazy-hospital")[2]["boards.pdf"]
    text = pypdf_text(boards)
    for place in ("Optionen:", "Sonderkarten:", "Kartensatz:", "Gleichstand im Duell:",
                  "Schieben"):
        assert place in text, place
