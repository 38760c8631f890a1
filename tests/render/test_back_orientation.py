"""Backs the right way up: on every sheet the back of a card has its top at the same edge of the
card as its front, exactly as printshop.pdf pairs them (each face upright on its page, the card
turned over its own vertical axis). Read back from the PDFs' drawing matrices."""

from __future__ import annotations

import math

import pytest

from cardgen.diagnostics import Report
from cardgen.layout.sheet import PAPER, fold_plan
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from conftest import shipped_data
from pdf_geometry import open_pdf, read_page


def up(turn: int) -> tuple[int, int]:
    """Where a face's top points on the page when the face is turned `turn` degrees."""
    r = math.radians(turn)
    return (round(-math.sin(r)), round(math.cos(r)))


def assert_backs_match_fronts(cards_pdf: bytes, shop_pdf: bytes, paper: str, duplex: str,
                              card: tuple[float, float], bleed: float, printed: int,
                              axis: str) -> int:
    """For every card: its back lies behind its front once the sheet is turned over `axis`
    ("x": over a vertical line, left and right swap; "y": over a horizontal line), and the
    back's top points where its front's top points, measured against printshop.pdf's turns of
    the same two faces. Returns the number of cards seen."""
    pw, ph = PAPER[paper]
    shop = open_pdf(shop_pdf)
    shop_turns = {face["turn"] for i in range(len(shop.pages))
                  for face in read_page(shop, i, card, bleed)[0]}
    assert shop_turns == {0}  # printshop.pdf: every face upright on its own page
    pdf = open_pdf(cards_pdf)
    seen = 0
    step = 1 if duplex == "fold" else 2
    for index in range(0, len(pdf.pages), step):
        faces = read_page(pdf, index, card, bleed)[0]
        if duplex == "fold":
            fronts = [f for f in faces if not f["shared"]]
            backs = [f for f in faces if f["shared"]]
        else:
            fronts = faces
            backs = read_page(pdf, index + 1, card, bleed)[0]
            assert not [f for f in fronts if f["shared"]]
            assert all(b["shared"] for b in backs)
        assert fronts and len(fronts) == len(backs)
        for front in fronts:
            fx, fy = front["centre"]
            behind = (pw - fx, fy) if axis == "x" else (fx, ph - fy)
            back = [b for b in backs if math.dist(b["centre"], behind) < 0.05]
            assert len(back) == 1, f"page {index + 1}: no back behind the card at {fx, fy}"
            bx, by = up(back[0]["turn"])
            seen_from_front = (-bx, by) if axis == "x" else (bx, -by)
            assert seen_from_front == up(front["turn"]), (
                f"page {index + 1}, card at ({fx:.1f}, {fy:.1f}) mm: front turned "
                f"{front['turn']}°, back turned {back[0]['turn']}°: the back's top is not at "
                f"the front's top")
            seen += 1
    assert seen == printed
    return seen


SIZES = {"skat": (59, 91), "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "tarot": (70, 120),
         "mini": (44, 68)}


@pytest.fixture(scope="module")
def nine():
    """Nine cards of quartett, whose back says "Quartett" across it (a back with a top), and
    of quatridou, whose cards' texts still fit on a mini card."""
    out = {}
    for pack in ("quartett", "quatridou"):
        out[pack] = shipped_data(pack)
        out[pack].cards = out[pack].cards[:9]
    return out


def _axis(paper: str, duplex: str, card, bleed: float, sheet: str) -> str:
    if duplex == "fold":
        line = fold_plan(PAPER[paper], card, bleed, mode=sheet)[2]
        return "x" if line[0] == line[2] else "y"
    return "y" if duplex == "short" else "x"  # the papers are portrait


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("sheet", ["bleed", "dense"])
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("duplex", ["long", "short", "none", "fold"])
def test_every_back_has_its_top_at_its_fronts_top(nine, size, sheet, paper, duplex):
    card = SIZES[size]
    data = nine["quatridou" if size == "mini" else "quartett"]
    settings = BuildSettings(paper=paper, duplex=duplex, sheet=sheet, card_size=card,
                             only=("cards", "printshop"))
    report = Report()
    result = render_pack(data, report, settings)
    assert result is not None, [d.format() for d in report.errors]
    bleed = data.pack.print.bleed
    assert_backs_match_fronts(result.files["cards.pdf"], result.files["printshop.pdf"], paper,
                              duplex, card, bleed, 9, _axis(paper, duplex, card, bleed, sheet))


@pytest.mark.parametrize("pack", ["crazy-hospital", "dokter-li", "quatridou", "tischordnung"])
@pytest.mark.parametrize("paper, duplex", [("a4", "long"), ("letter", "short"),
                                           ("letter", "fold")])
def test_every_pack_prints_its_backs_the_right_way_up(pack, paper, duplex):
    data = shipped_data(pack)
    data.cards = data.cards[:9]
    result = render_pack(data, Report(), BuildSettings(paper=paper, duplex=duplex,
                                                       only=("cards", "printshop")))
    card, bleed = data.pack.print.size(), data.pack.print.bleed
    printed = sum(lc.card.count for lc in data.cards)
    assert_backs_match_fronts(result.files["cards.pdf"], result.files["printshop.pdf"], paper,
                              duplex, card, bleed, printed, _axis(paper, duplex, card, bleed,
                                                                  "bleed"))
