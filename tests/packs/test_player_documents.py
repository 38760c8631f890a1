"""What players hold: every player PDF of every pack (rulebook, booklet, house rules, deck sheet,
boards) shows only what the cards print — never a card ID that no card face prints, nor a
slug of a preset, variant, option, kind or group — and follows the paper it was built for.
"""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import validated as check
from cardgen.pipeline.draw import render_pack
from cardgen.compose import Choice
from cardgen.diagnostics import Report
from cardgen.paths import find_packs
from conftest import text_layer as text_of

ROOT = Path(__file__).resolve().parents[2]
PACKS = [folder.name for folder in find_packs(ROOT / "card_data")]
PLAYER = ("rulebook.pdf", "house-rules.pdf", "deck.pdf", "boards.pdf")


# the flagship's chosen game: a drawn deck, special cards, options and teams (the house rules
# test below reads the same build)
HOUSE = Choice(preset="balanced-32", seed=7, special="S2-S4", options=("buero", "teams"),
               players=4, teams="2,2")


def choice_for(data) -> Choice:
    """A chosen game of the pack: the flagship's HOUSE, else its first preset, else its
    first variant."""
    from cardgen.compose import load_composition
    if data.pack.id == "crazy-hospital":
        return HOUSE
    composition = load_composition(data, Report()).composition
    if composition.presets:
        return Choice(preset=next(iter(composition.presets)))
    if composition.variants:
        return Choice(variant=next(iter(composition.variants)))
    return Choice()


def built(pack: str, **settings) -> tuple[object, dict[str, bytes]]:
    report = Report()
    data = check(ROOT / "card_data" / pack, report)
    assert data is not None and not report.errors
    deck = None
    if settings.get("choice") is not None:
        from cardgen.compose import compose
        deck = compose(data, settings["choice"], report)
        assert deck is not None, [d.format() for d in report.errors]
    result = render_pack(data, report, BuildSettings(**settings), deck=deck)
    assert result is not None, [d.format() for d in report.errors]
    return data, result.files


def hidden_words(data, printed: str) -> set[str]:
    """Card IDs and slugs (groups, presets, variants, options) that no card face prints.

    A slug that is a word of its own label ('klassik' of "Quartett klassik") is that word.
    Kind IDs are not checked: they are the card types' letters the rules teach (K, S, ER).
    """
    from cardgen.compose import load_composition
    words = {lc.card.id for lc in data.cards}
    composition = load_composition(data, Report()).composition
    labelled = {g.id: g.label for g in data.pack.groups}
    for table in (composition.presets, composition.variants, composition.options):
        labelled.update({slug: getattr(entry, "label", "") or "" for slug, entry in table.items()})
    words |= {slug for slug, label in labelled.items()
              if slug.lower() not in re.split(r"[^\w]+", label.lower())}
    return {w for w in words if not _found(w, printed)}


def _found(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


@pytest.mark.parametrize("pack", PACKS)
def test_player_documents_show_no_id_or_slug_the_cards_do_not_print(pack, shipped_build,
                                                                    shipped_variant):
    data, _, files = shipped_build(pack)  # printshop, rulebook, boards of the shared build
    printed = text_of(files["printshop.pdf"])
    hidden = hidden_words(data, printed)
    documents = {name: files[name] for name in PLAYER if name in files}
    _, _, chosen = shipped_variant(pack, only=("cards", "rulebook"), choice=choice_for(data))
    documents.update({f"chosen {n}": chosen[n] for n in PLAYER if n in chosen})
    assert {"rulebook.pdf", "chosen house-rules.pdf", "chosen deck.pdf"} <= set(documents)
    _, _, booklet = shipped_variant(pack, only=("rulebook",), booklet=True)
    documents["booklet"] = booklet["rulebook.pdf"]
    leaks = []
    for name, pdf in documents.items():
        text = text_of(pdf)
        leaks += [f"{name}: {word}" for word in sorted(hidden) if _found(word, text)]
        leaks += [f"{name}: shell command" for marker in ("cardgen ", "--") if marker in text]
        leaks += [f"{name}: colour code {m}" for m in re.findall(r"#[0-9A-Fa-f]{6}\b", text)]
    assert not leaks, leaks


@pytest.mark.parametrize("paper, size", [("letter", (612.0, 792.0)), ("a3", (841.9, 1190.6))])
def test_rulebook_follows_the_paper_and_stays_inside_its_margins(paper, size):
    """Every page has the paper's size, and nothing is drawn below the bottom margin's page
    number line (the Letter page is 18 mm shorter than A4)."""
    import pypdfium2 as pdfium
    _, files = built("quartett", only=("rulebook", "boards"), paper=paper)
    for name in ("rulebook.pdf", "boards.pdf"):
        if name not in files:
            continue
        for page in PdfReader(BytesIO(files[name])).pages:
            width, height = (round(float(v), 1) for v in page.mediabox[2:])
            assert (min(width, height), max(width, height)) == size, name
    document = pdfium.PdfDocument(files["rulebook.pdf"])
    for index in range(len(document)):
        page = document[index]
        text = page.get_textpage()
        for box in range(text.count_rects()):
            left, bottom, right, top = text.get_rect(box)
            assert bottom >= 10 * 72 / 25.4 and top <= page.get_height(), (index, box)
            assert left >= 0 and right <= page.get_width(), (index, box)
    document.close()


def test_booklet_on_letter_is_half_letter_on_landscape_letter():
    _, files = built("quartett", only=("rulebook",), paper="letter", booklet=True)
    for page in PdfReader(BytesIO(files["rulebook.pdf"])).pages:
        assert tuple(round(float(v), 1) for v in page.mediabox[2:]) == (792.0, 612.0)


def test_house_rules_say_hausregeln_and_keep_only_the_chosen_cards(shipped_variant):
    data, _, files = shipped_variant("crazy-hospital", only=("cards", "rulebook"), choice=HOUSE)
    house = PdfReader(BytesIO(files["house-rules.pdf"]))
    assert "HAUSREGELN" in house.pages[0].extract_text()
    assert "Büro, Teams" in house.pages[0].extract_text()
    text = text_of(files["house-rules.pdf"])
    assert "Eviline De’Vil" in text  # S2 is chosen ...
    left_out = next(lc for lc in data.cards if lc.card.id == "S14")  # data: the whole pack
    assert left_out.card.name not in text.replace("\n", " ")  # tables: only chosen cards
    assert "Nur in der digitalen Version" not in text  # every option there is left out
    deck = text_of(files["deck.pdf"])
    assert "balanced-32" not in deck and "cardgen" not in deck and "…" not in deck
    assert "Prof. Dr. Hertha Rhythmus" in deck.replace("\n", " ")


def test_contact_sheet_shows_every_card_by_name():
    data, files = built("quartett", only=("contact",))
    text = text_of(files["contact.pdf"]).replace("\n", " ")
    for lc in data.cards:
        assert lc.card.name in text, lc.card.id
    assert any(name.startswith("contact-") and name.endswith(".png") for name in files)


def test_calibration_numbers_every_millimetre_at_6_pt_and_says_where_plus_is(shipped_build):
    _, _, files = shipped_build("quartett")
    back = PdfReader(BytesIO(files["calibration.pdf"])).pages[1]
    sizes: dict[str, float] = {}

    def seen(text, cm, tm, font, size):
        scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
        for word in text.split():
            sizes[word] = min(sizes.get(word, 99.0), size * scale)

    text = back.extract_text(visitor_text=seen)
    for value in range(-5, 16):  # -5 to +5 mm, and 10 more under the vernier's ticks
        word = f"{value:+d}" if value else "0"
        assert word in sizes and sizes[word] >= 6.0 - 1e-6, (word, sizes.get(word))
    assert "Rechts und oben ist plus" in text.replace("\n", " ")
    assert "X = " in text and "Y = " in text  # where to write the two numbers
    assert "--back-offset" in text  # the flag, in small print
