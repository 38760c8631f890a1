"""Backs the right way up: on every sheet the back of a card has its top at the same edge of the
card as its front, exactly as printshop.pdf pairs them (each face upright on its page, the card
turned over its own vertical axis). Read back from the PDFs' drawing matrices."""

from __future__ import annotations

import io
import math

import pikepdf
import pytest

from cardgen.diagnostics import Report
from cardgen.layout.sheet import PAPER, fold_plan
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from conftest import shipped_data

PT = 72 / 25.4


def _mul(m, n):
    """PDF matrix product: apply m, then n; matrices as (a, b, c, d, e, f)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def faces_on_page(pdf: pikepdf.Pdf, index: int, card: tuple[float, float],
                  bleed: float) -> list[dict]:
    """Every face drawn on a page: its printed rectangle's centre (mm), the degrees it is
    turned counter-clockwise, and whether it is a shared form (a back) or drawn in place (a
    front). A face drawn in place begins with its clip rectangle (its trim, `card` mm, plus
    the bleed printed: `bleed`, or none where cards abut); a shared face is a form XObject
    whose BBox is that rectangle. In its own frame a face is upright: w x h as printed."""
    sizes = {(round(card[0] + 2 * b, 2), round(card[1] + 2 * b, 2)) for b in (bleed, 0)}
    page = pdf.pages[index]
    xobjects = page.Resources.get("/XObject", {})
    ops = pikepdf.parse_content_stream(page)
    ctm, stack, found = (1, 0, 0, 1, 0, 0), [], []

    def add(x, y, w, h, shared):
        if (round(w / PT, 2), round(h / PT, 2)) not in sizes:
            return
        cx, cy = x + w / 2, y + h / 2
        a, b, c, d, e, f = ctm
        turn = round(math.degrees(math.atan2(b, a))) % 360
        assert (a, b, c, d) == pytest.approx((a, b, -b, a), abs=1e-6)  # a pure turn
        found.append({"centre": ((a * cx + c * cy + e) / PT, (b * cx + d * cy + f) / PT),
                      "turn": turn, "shared": shared})

    for position, (operands, operator) in enumerate(ops):
        op = str(operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == "re" and position + 1 < len(ops) and str(ops[position + 1][1]) in ("W", "W*"):
            add(*(float(v) for v in operands), shared=False)
        elif op == "Do":
            form = xobjects[str(operands[0])]
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            add(x0, y0, x1 - x0, y1 - y0, shared=True)
    return found


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
    shop = pikepdf.open(io.BytesIO(shop_pdf))
    shop_turns = {face["turn"] for i in range(len(shop.pages))
                  for face in faces_on_page(shop, i, card, bleed)}
    assert shop_turns == {0}  # printshop.pdf: every face upright on its own page
    pdf = pikepdf.open(io.BytesIO(cards_pdf))
    seen = 0
    step = 1 if duplex == "fold" else 2
    for index in range(0, len(pdf.pages), step):
        faces = faces_on_page(pdf, index, card, bleed)
        if duplex == "fold":
            fronts = [f for f in faces if not f["shared"]]
            backs = [f for f in faces if f["shared"]]
        else:
            fronts = faces
            backs = faces_on_page(pdf, index + 1, card, bleed)
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
