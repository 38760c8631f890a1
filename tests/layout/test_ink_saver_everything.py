"""--ink-saver lightens what each layout declares: fronts (the built-in layouts' frames and
headers), boards and score sheets, the rulebook's cover; the words stay legible, and the print
guide names the light files."""

from __future__ import annotations

import copy

import pypdfium2 as pdfium
import pytest
from PIL import ImageStat

from cardgen.diagnostics import Report
from cardgen.layout.ink import LEGIBLE, behind, ink_saved
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.pipeline.faces import layout_faces
from conftest import shipped_data, text_layer


def ink(pdf: bytes, pages=None) -> list[float]:
    """How much of each page is ink: 0 white, 1 black (mean darkness at 20 dpi)."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [1 - ImageStat.Stat(document[i].render(scale=20 / 72).to_pil().convert("L"))
                .mean[0] / 255 for i in (pages if pages is not None else range(len(document)))]
    finally:
        document.close()


@pytest.fixture(scope="module")
def flagship():
    whole = shipped_data("crazy-hospital")
    data = copy.copy(whole)
    kinds = {}
    for lc in whole.cards:
        kinds.setdefault(lc.kind, lc)
    data.cards = list(kinds.values())  # one card of each kind on the sheets
    made = {}
    for saver in (False, True):
        made[saver] = {}
        # the rulebook names cards of the whole deck: it is made from the whole pack
        for pack, only in ((data, ("cards", "printshop", "boards")), (whole, ("rulebook",))):
            report = Report()
            result = render_pack(pack, report, BuildSettings(ink_saver=saver, only=only))
            assert result is not None, [d.format() for d in report.errors]
            made[saver].update(result.files)
    return data, made


def test_every_front_of_the_flagship_takes_far_less_ink(flagship):
    data, made = flagship
    fronts = range(len(data.cards))  # printshop.pdf: the fronts, then the backs
    before, after = ink(made[False]["printshop.pdf"], fronts), ink(made[True]["printshop.pdf"],
                                                                   fronts)
    for card, old, new in zip(data.cards, before, after):
        assert new < 0.7 * old, f"{card.card.id}: {old:.2f} → {new:.2f}"
    assert "".join(text_layer(made[True]["printshop.pdf"]).split()) == \
        "".join(text_layer(made[False]["printshop.pdf"]).split())  # every word still there


def test_boards_and_the_score_sheet_take_less_ink(flagship):
    _, made = flagship
    before, after = ink(made[False]["boards.pdf"]), ink(made[True]["boards.pdf"])
    assert len(before) == len(after) >= 3  # the office's tiles, the score sheet, the pieces
    assert sum(after) < 0.85 * sum(before)
    assert all(a <= b + 1e-6 for a, b in zip(after, before))  # no page takes more ink
    score = text_layer(made[True]["boards.pdf"])
    assert "Oktett" in score and "Wertungsblatt" in score  # the words are all there


def test_the_rulebook_cover_goes_light(flagship):
    _, made = flagship
    (before,), (after,) = ink(made[False]["rulebook.pdf"], [0]), ink(made[True]["rulebook.pdf"],
                                                                      [0])
    assert after < 0.6 * before
    assert "Crazy Hospital Quartett" in text_layer(made[True]["rulebook.pdf"], pages=1)


def test_the_guide_names_the_light_files(flagship):
    _, made = flagship
    guide = " ".join(text_layer(made[True]["guide.pdf"]).split())
    assert "Tintensparend" in guide
    # (this guide comes with the sheets and boards; the rulebook was made on its own above)
    assert "cards.pdf, boards.pdf sind die hellen Fassungen" in guide
    assert "Tintensparend" not in text_layer(made[False]["guide.pdf"])


def _contrast(a: str, b: str) -> float:
    def lum(colour):
        c = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("pack", ["crazy-hospital", "dokter-li", "quartett", "quatridou",
                                  "tischordnung"])
def test_words_on_what_went_light_stay_legible(pack):
    """Every text that read at least 4.5 : 1 before and that --ink-saver recoloured, or that
    sits on a fill it recoloured, reads at least 4.5 : 1 against what is behind it (a pattern
    the designer made faint on purpose may stay faint)."""
    data = shipped_data(pack)
    printed, _, _ = layout_faces(data, Report(), BuildSettings())
    seen = set()
    checked = 0
    for p in printed:
        for face in (p.front, p.back):
            if id(face) in seen:
                continue
            seen.add(id(face))
            light = ink_saved(face)
            for index, box in enumerate(light.boxes):
                if box.text is None or not box.text.lines:
                    continue
                under = behind(light, index)
                old = next(b for b in face.boxes if b.name == box.name)
                old_under = behind(face, face.boxes.index(old))
                if under is None or old_under is None or _contrast(old.colour, old_under) < \
                        LEGIBLE or (box.colour == old.colour and under == old_under):
                    continue  # untouched, or a decoration never meant to be read
                checked += 1
                assert _contrast(box.colour, under) >= LEGIBLE - 0.01, (
                    f"{face.card_id} {box.name}: {box.colour} on {under}")
    if pack == "crazy-hospital":
        assert checked > 100
