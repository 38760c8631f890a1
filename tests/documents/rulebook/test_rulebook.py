"""The rulebook PDF: content from the pack's YAML, diagnostics at the right line, print details."""

from __future__ import annotations

import functools
import math
import re
import shutil
from io import BytesIO
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from reportlab.platypus import Paragraph

from cardgen.pipeline.chain import validated as check
from cardgen.diagnostics import Report, display_path
from cardgen.model.rules import Chapter, Table
from cardgen.documents.rulebook.book import (A5_BOOK, impose_booklet, layout_rulebook, rulebook_pdf,
                                     saddle_stitch_order)
from cardgen.documents.rulebook.style import make_styles
from cardgen.text.rules import to_markup
from conftest import pypdf_text, text_layer

ROOT = Path(__file__).resolve().parents[3]
CRAZY = ROOT / "card_data" / "crazy-hospital"
A4_PORTRAIT = (595.3, 841.9)


# --- helpers --------------------------------------------------------------------------------------

def load(folder: Path):
    report = Report()
    data = check(folder, report)
    assert data is not None and not report.errors, [d.format() for d in report.errors]
    return data


def text_of(pdf: bytes) -> str:
    return pypdf_text(pdf)


def squeeze(text: str) -> str:
    """Text without whitespace or soft hyphens, so that line breaks do not matter."""
    return re.sub(r"[\s\u00ad]+", "", text)


def contains(pdf_text: str, wanted: str) -> bool:
    """wanted appears in the PDF text, across line breaks and hyphenation at line ends."""
    flat, joined = _squeezed(pdf_text)
    return squeeze(wanted) in flat or squeeze(wanted) in joined


@functools.lru_cache(maxsize=8)
def _squeezed(pdf_text: str) -> tuple[str, str]:
    """The text squeezed, and squeezed after joining words hyphenated at line ends (once per
    text: a test asks for a hundred card names in one rulebook)."""
    return squeeze(pdf_text), squeeze(re.sub(r"(?<=\w)-\n(?=\w)", "", pdf_text))


def font_names(pdf: bytes) -> set[str]:
    names = set()
    for page in PdfReader(BytesIO(pdf)).pages:
        fonts = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            names.add(str(ref.get_object()["/BaseFont"]))
    return names


PACK_YAML = """\
id: tiny
title: Tiny Game
subtitle: Ein kleines Testspiel
language: de
version: "2.1"
description: Ein Spiel mit zwei Karten.
groups:
  - {id: rot, label: Rot, colour: "#CC0000", symbol: "♥"}
kinds:
  - id: card
    label: Karte
    plural: Karten
    id_pattern: "^T[0-9]+$"
    front: text-card
    back: simple-back
    texts: [active, passive]
labels: {active: Aktiv, passive: Passiv}
levels:
  - {level: 0, min: 0, max: 49, label: wenig}
  - {level: 1, min: 50, max: 99, label: viel}
categories:
  - key: kraft
    label: Kraft / Tempo
    meaning: wie stark und wie schnell
    kinds: [card]
    values:
      - {key: kraft, label: Kraft, type: integer, min: 0, max: 10, wins: high}
      - {key: tempo, label: Tempo, type: integer, min: 0, max: 10, wins: low}
scoring:
  - {was: Paar, punkte: "2"}
"""

CARDS_YAML = """\
kind: card
cards:
  - id: T1
    name: "Bonnie & Clyde <3"
    group: rot
    stats: {kraft: 3, tempo: 4}
    texts: {active: "Nimm eine Karte.", passive: "Gib eine Karte ab."}
  - id: T2
    name: Zweite Karte
    group: rot
    stats: {kraft: 5, tempo: 1}
    texts: {active: "Tausche.", passive: "Passe."}
"""

LONG_GERMAN = " ".join(["Donaudampfschifffahrtsgesellschaftskapitän und "
                        "Krankenhausverwaltungsangestellte sowie Bundesverfassungsgericht"] * 6)

RULES_YAML = f"""\
title: Das Spiel
blocks:
  - h2: Worum es geht
  - p: "{{{{ pack.title }}}} hat {{{{ cards }}}} Karten
      ({{{{ kinds.card.count }}}} {{{{ kinds.card.plural }}}})."
  - p: "Kleiner als: <b>& und **fett** und *kursiv*"
  - p: "{LONG_GERMAN}"
  - list: [eins, zwei]
  - steps: [erst, dann]
  - note: Ein Hinweis.
  - example: Ein Beispiel.
  - option: schnell
    title: Schnelles Spiel
    text: Alle spielen schnell.
    needs: Nur mit Uhr.
  - option: langsam
    title: Langsames Spiel
    text: Alle spielen langsam.
  - table: categories
  - table: levels
  - table: cards
  - table: scoring
  - table: special-cards
    kind: card
"""


def make_pack(root: Path, rules: str = RULES_YAML) -> Path:
    folder = root / "tiny"
    (folder / "cards").mkdir(parents=True)
    (folder / "rules").mkdir()
    (folder / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    (folder / "cards" / "cards.yaml").write_text(CARDS_YAML, encoding="utf-8")
    (folder / "rules" / "01-spiel.yaml").write_text(rules, encoding="utf-8")
    return folder


def with_block(block: str) -> str:
    """A one-chapter rules file with a heading and one extra block (YAML text)."""
    return f"title: Kapitel\nblocks:\n  - h2: Erstes\n{block}"


# --- the shipped pack ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def crazy(shipped_build):
    data, report, files = shipped_build("crazy-hospital")  # built once per test session
    assert not report.items, [d.format() for d in report.items]  # nothing to say, anywhere
    return data, files["rulebook.pdf"], text_of(files["rulebook.pdf"])


def test_crazy_hospital_is_a_real_rulebook(crazy):
    _, pdf, _ = crazy
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(BytesIO(pdf))
    assert len(reader.pages) > 5
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(width, 1), round(height, 1)) == A4_PORTRAIT


def test_every_chapter_and_option_title_is_printed(crazy):
    _, _, text = crazy
    files = sorted((CRAZY / "rules").glob("*.yaml"))
    assert files
    for path in files:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert contains(text, doc["title"]), f"{path.name}: chapter title missing"
        for block in doc["blocks"]:
            if "option" in block:
                assert contains(text, block["title"]), f"{path.name}: option {block['option']}"
                assert contains(text, block["text"][:60]), f"option text {block['option']}"


def test_categories_tables_hold_every_category_label(crazy):
    _, _, text = crazy
    pack = yaml.safe_load((CRAZY / "pack.yaml").read_text(encoding="utf-8"))
    for category in pack["categories"]:
        assert contains(text, category["label"]), category["label"]
        if category.get("meaning"):
            assert contains(text, category["meaning"]), category["meaning"]
    assert contains(text, pack["labels"]["wins_high"])
    assert contains(text, pack["labels"]["wins_low"])


def test_tables_come_from_the_cards(crazy):
    data, _, text = crazy
    for lc in data.cards:  # every card is listed in the cards or special-cards tables
        assert contains(text, lc.card.name), lc.card.id
    for lc in data.cards_of("S"):
        assert contains(text, lc.card.texts["active"][:50]), lc.card.id
    for row in data.pack.scoring:
        for value in row.values():
            assert contains(text, value)
    for band in data.pack.levels:
        assert contains(text, band.label)


def test_renamed_category_changes_the_rulebook(tmp_path, crazy):
    _, _, before = crazy
    copy = tmp_path / "crazy-hospital"
    shutil.copytree(CRAZY, copy)
    pack_file = copy / "pack.yaml"
    source = pack_file.read_text(encoding="utf-8")
    assert "label: Gin / Trouble" in source
    pack_file.write_text(source.replace("label: Gin / Trouble", "label: Gin / Zoff-Faktor"),
                         encoding="utf-8")
    report = Report()
    pdf = rulebook_pdf(load(copy), report)
    assert pdf is not None, [d.format() for d in report.items]
    after = text_layer(pdf)  # read by pdfium, 10 times faster than pypdf
    assert contains(after, "Gin / Zoff-Faktor")
    assert not contains(before, "Zoff-Faktor")


def test_same_input_same_bytes(crazy):
    data, pdf, _ = crazy
    assert rulebook_pdf(data, Report()) == pdf


def test_only_our_fonts(crazy):
    _, pdf, _ = crazy
    names = font_names(pdf)
    assert names and all("DejaVu" in name for name in names), names
    assert not any("Helvetica" in name for name in names)


@pytest.fixture
def house_book(crazy, once_for_all_workers):
    """The flagship's rulebook with the options teams and buero, and 'tems' (no such option):
    (pdf, diagnostics), once for the two tests below."""
    data, _, _ = crazy

    def make():
        report = Report()
        return rulebook_pdf(data, report, only_options={"teams", "buero", "tems"}), report.items
    return once_for_all_workers("crazy-house-teams-buero-tems", make)


def test_house_rules_leave_out_other_options(crazy, house_book):
    data, _, _ = crazy
    pdf, items = house_book
    assert pdf is not None and not [d for d in items if d.severity == "error"]
    text = text_of(pdf)
    options = {b.option: b for _, ch in data.chapters for b in ch.blocks
               if hasattr(b, "option")}
    for slug, block in options.items():
        printed = contains(text, block.text[:60])
        assert printed == (slug in {"teams", "buero"}), slug
    assert not contains(text, "Sieg gegen beide Karten")  # the list that belongs to challenge-1
    assert not contains(text, "Sonderkarten im Mittelpunkt")  # a heading left with no option
    assert contains(text, "Die Optionen machen aus Mix It")  # ordinary text stays


def test_unknown_house_rule_is_a_warning(house_book):
    pdf, items = house_book
    assert pdf is not None
    assert any(d.subject == "tems" and d.severity == "warning" for d in items)


def test_booklet_is_imposed_on_a4_landscape(crazy, shipped_variant, monkeypatch):
    data, _, _ = crazy
    _, report, files = shipped_variant("crazy-hospital", only=("rulebook",), booklet=True)
    booklet = files["rulebook.pdf"]  # the build's (shared with test_player_documents)
    assert not report.errors
    import cardgen.documents.rulebook.book
    halves = []  # the A5 pages rulebook_pdf lays out before imposing them

    def imposed(a5_pdf, *args):
        halves.append(a5_pdf)
        return impose_booklet(a5_pdf, *args)
    monkeypatch.setattr(cardgen.documents.rulebook.book, "impose_booklet", imposed)
    assert rulebook_pdf(data, Report(), booklet=True) == booklet  # same input, same bytes
    assert len(halves) == 1
    a5 = PdfReader(BytesIO(halves[0]))
    padded = math.ceil(len(a5.pages) / 4) * 4
    reader = PdfReader(BytesIO(booklet))
    assert len(reader.pages) == padded // 2
    for page in reader.pages:
        width, height = (float(v) for v in page.mediabox[2:])
        assert (round(width, 1), round(height, 1)) == A4_PORTRAIT[::-1]
    # front of the outer sheet: the back cover on the left, the cover on the right
    assert reader.pages[0].extract_text().count("Spieler\u00a0·") + \
        reader.pages[0].extract_text().count("Spieler  ·") >= 2  # the play facts on both
    assert contains(reader.pages[0].extract_text(), data.pack.title)
    assert contains(reader.pages[1].extract_text(), "Inhalt")  # back: page 2 on the left
    assert not any("Helvetica" in name for name in font_names(booklet))


def test_saddle_stitch_order():
    assert saddle_stitch_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    for pages in (4, 8, 12, 40):
        order = [p for pair in saddle_stitch_order(pages) for p in pair]
        assert sorted(order) == list(range(pages))
        for left, right in saddle_stitch_order(pages):  # facing pages add up on every side
            assert left + right == pages - 1


def test_booklet_pads_to_whole_sheets(tmp_path):
    data = load(make_pack(tmp_path))
    a5 = layout_rulebook(data, Report(), A5_BOOK)
    count = len(PdfReader(BytesIO(a5)).pages)
    sheets = PdfReader(BytesIO(impose_booklet(a5, data))).pages
    assert len(sheets) == math.ceil(count / 4) * 2


# --- a tiny pack ----------------------------------------------------------------------------------

def test_tiny_pack_prints_every_block(tmp_path):
    data = load(make_pack(tmp_path))
    report = Report()
    pdf = rulebook_pdf(data, report)
    assert pdf is not None and not report.items, [d.format() for d in report.items]
    text = text_of(pdf)
    assert not contains(text, "Inhalt")  # one chapter shows its own sections: no contents page
    for wanted in ("Tiny Game hat 2 Karten (2 Karten).", "SPIELREGELN", "Seite 2",
                   "Hinweis", "Beispiel", "Schnelles Spiel", "Nur mit Uhr.", "Kraft / Tempo",
                   "wie stark und wie schnell", "viel", "Paar", "Was", "Punkte",
                   "Version 2.1", "Gib eine Karte ab.", "Aktiv", "Passiv"):
        assert contains(text, wanted), wanted
    assert rulebook_pdf(data, Report()) == pdf


def test_user_text_is_never_markup(tmp_path):
    data = load(make_pack(tmp_path))
    text = text_of(rulebook_pdf(data, Report()))
    assert contains(text, "Kleiner als: <b>& und fett und kursiv")
    assert contains(text, "Bonnie & Clyde <3")  # a card name in the cards table


def test_markup_escapes_first():
    markup, missing, unknown = to_markup("a <b>&amp; **b** *c* :up:", "serif", {"up": "▲"})
    assert markup == "a &lt;b&gt;&amp;amp; <b>b</b> <i>c</i> ▲"
    assert missing == [] and unknown == []
    # an icon the serif faces lack is set in DejaVu Sans; typed directly, it is missing
    markup, missing, _ = to_markup("**Blitz :event:**", "serif", {"event": "⚡"})
    assert missing == [] and markup == '<b>Blitz <font face="CG-sans">⚡</font></b>'
    assert to_markup("Blitz ⚡", "serif", {})[1] == ["⚡"]
    assert to_markup("Blitz :evnt:", "serif", {"event": "⚡"})[2] == ["evnt"]


def test_long_german_words_are_hyphenated(tmp_path):
    style = make_styles("de")["body"]
    para = Paragraph(LONG_GERMAN, style)
    para.wrap(200, 10_000)
    ends = [line[1][-1] for line in para.blPara.lines[:-1]]
    assert any(word.endswith("-") for word in ends), ends
    data = load(make_pack(tmp_path))
    text = text_of(rulebook_pdf(data, Report()))
    assert re.search(r"[a-zäöü]-\n[a-zäöü]", text)  # a word split at a line end in the PDF


def diagnostics(tmp_path, rules: str, **kwargs) -> tuple[bytes | None, list, str]:
    folder = make_pack(tmp_path, rules)
    report = Report()
    pdf = rulebook_pdf(load(folder), report, **kwargs)
    return pdf, report.errors, display_path(folder / "rules" / "01-spiel.yaml")


def test_undefined_name_is_reported_at_its_block(tmp_path):
    pdf, errors, shown = diagnostics(tmp_path, with_block("  - p: 'Hallo {{ spieler }}'\n"))
    assert pdf is None
    assert len(errors) == 1
    error = errors[0]
    assert error.file == shown and error.line == 4
    assert "spieler" in error.message and "undefined" in error.message


def test_template_syntax_error(tmp_path):
    pdf, errors, shown = diagnostics(tmp_path, with_block("  - list: [gut, 'schlecht {{ x']\n"))
    assert pdf is None
    assert [(e.file, e.line) for e in errors] == [(shown, 4)]
    assert "template syntax error" in errors[0].message


def test_missing_glyph_is_reported(tmp_path):
    pdf, errors, shown = diagnostics(tmp_path, with_block("  - note: 'Lachen 😀'\n"))
    assert pdf is None
    assert len(errors) == 1 and errors[0].file == shown and errors[0].line == 4
    assert "U+1F600" in errors[0].message


def test_option_problem_names_the_option(tmp_path):
    block = "  - option: turbo\n    title: Turbo\n    text: '{{ tempo }}'\n"
    pdf, errors, shown = diagnostics(tmp_path, with_block(block))
    assert pdf is None
    assert [(e.file, e.line, e.subject) for e in errors] == [(shown, 6, "turbo")]


def test_unknown_table_kind(tmp_path):
    pdf, errors, shown = diagnostics(tmp_path, with_block("  - table: categories\n"
                                                          "    kind: crad\n"))
    assert pdf is None
    assert len(errors) == 1 and errors[0].file == shown and errors[0].line == 4
    assert "crad" in errors[0].message and "did you mean 'card'" in errors[0].message


def test_special_cards_table_needs_a_kind(tmp_path):
    pdf, errors, _ = diagnostics(tmp_path, with_block("  - table: special-cards\n"))
    assert pdf is None
    assert "needs kind" in errors[0].message


def test_unknown_table_name(tmp_path):
    data = load(make_pack(tmp_path))
    bogus = Chapter.model_construct(title="Tabellen",
                                    blocks=[Table.model_construct(table="bogus", kind=None)])
    data.chapters.append(("card_data/tiny/rules/99-tabellen.yaml", bogus))
    report = Report()
    assert rulebook_pdf(data, report) is None
    assert any("unknown table 'bogus'" in d.message for d in report.errors)


def test_every_problem_is_reported_at_once(tmp_path):
    blocks = ("  - p: '{{ eins }}'\n  - p: '{{ zwei }}'\n  - example: '😀'\n"
              "  - table: cards\n    kind: nope\n")
    pdf, errors, _ = diagnostics(tmp_path, with_block(blocks))
    assert pdf is None
    assert [e.line for e in errors] == [4, 5, 6, 7]


def second_chapter(folder: Path) -> None:
    """A second rules file: the book gets a contents page (a book of one chapter has none)."""
    (folder / "rules" / "02-ende.yaml").write_text(
        "title: Spielende\nblocks:\n  - p: Wer keine Karte mehr hat, scheidet aus.\n",
        encoding="utf-8")


def test_heading_glyphs_are_checked_for_the_contents_page_too(tmp_path):
    rules = with_block("  - h2: 'Sterne ★'\n")
    pdf, errors, _ = diagnostics(tmp_path / "one", rules)
    assert pdf is not None and not errors  # one chapter: no contents page, the heading's sans
    folder = make_pack(tmp_path / "two", rules)  # has ★
    second_chapter(folder)
    report = Report()
    assert rulebook_pdf(load(folder), report) is None  # the contents page's serif has no ★
    shown = display_path(folder / "rules" / "01-spiel.yaml")
    assert [(e.file, e.line) for e in report.errors] == [(shown, 4)]
    assert "U+2605" in report.errors[0].message


def test_words_follow_the_pack_language(tmp_path):
    folder = make_pack(tmp_path)
    second_chapter(folder)
    pack_file = folder / "pack.yaml"
    pack_file.write_text(pack_file.read_text(encoding="utf-8").replace("language: de",
                                                                      "language: nl"),
                         encoding="utf-8")
    text = text_of(rulebook_pdf(load(folder), Report()))
    for word in ("SPELREGELS", "Inhoud", "Pagina 2", "Tip", "Voorbeeld", "hoogste waarde wint"):
        assert contains(text, word), word
