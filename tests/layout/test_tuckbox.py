"""Tuck boxes: the net sized from the card, the number of cards and the stock thickness; every
wall, flap and fold where it belongs; it fits the paper or says which paper it needs."""

from __future__ import annotations

import pytest

from cardgen.layout.sheet import PAPER
from cardgen.layout.tuckbox import (CLEARANCE, DEPTH_CLEARANCE, STOCK, place_on_page,
                                    plan_tuckbox)


def inside(point, polygon) -> bool:
    """Ray casting: the point lies inside the closed polygon."""
    x, y = point
    found = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            found = not found
    return found


def crosses(a, b, c, d) -> bool:
    """Two segments cross at a point inside both (touching ends do not count)."""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (side(a, b, c) * side(a, b, d) < -1e-9) and (side(c, d, a) * side(c, d, b) < -1e-9)


@pytest.mark.parametrize("card, count, stock", [((59, 91), 52, STOCK), ((59, 91), 104, STOCK),
                                                ((63.5, 88.9), 54, 0.6), ((44, 68), 20, 0.3)])
def test_the_box_holds_the_deck_with_room_to_spare(card, count, stock):
    box = plan_tuckbox(card, count, stock)
    w, h, d = box.inside
    assert (w, h) == (card[0] + CLEARANCE, card[1] + CLEARANCE)
    assert d == pytest.approx(count * stock + DEPTH_CLEARANCE)
    assert (box.panel("front").w, box.panel("front").h) == (w, h)
    assert (box.panel("back").w, box.panel("back").h) == (w, h)
    for side in ("side-left", "side-right"):
        assert (box.panel(side).w, box.panel(side).h) == pytest.approx((d, h))
    for end in ("lid", "bottom"):
        assert (box.panel(end).w, box.panel(end).h) == pytest.approx((w, d))
    lid, back = box.panel("lid"), box.panel("back")
    assert (lid.x, lid.y) == pytest.approx((back.x, back.y + back.h))  # hinged on the back
    bottom, front = box.panel("bottom"), box.panel("front")
    assert (bottom.x, bottom.y + bottom.h) == pytest.approx((front.x, front.y))
    glue, left = box.panel("glue"), box.panel("side-left")
    assert glue.x + glue.w == pytest.approx(left.x)


@pytest.mark.parametrize("count", [10, 52, 104])
def test_the_net_is_one_closed_cut_with_its_folds_inside(count):
    box = plan_tuckbox((59, 91), count)
    outline = list(box.outline)
    edges = list(zip(outline, outline[1:] + outline[:1]))
    for i, (a, b) in enumerate(edges):  # a simple polygon: no edge crosses another
        for c, e in edges[i + 2:]:
            assert not crosses(a, b, c, e), (a, b, c, e)
    for panel in box.panels:  # every panel is cut out with the net
        assert inside((panel.x + panel.w / 2, panel.y + panel.h / 2 - 0.01), outline), panel
    front = box.panel("front")
    notch = (front.x + front.w / 2, front.y + front.h - 2)  # the thumb notch is cut away
    assert not inside(notch, outline)
    for x1, y1, x2, y2 in box.folds:  # each fold runs between two panels, inside the net
        middle = ((x1 + x2) / 2, (y1 + y2) / 2)
        assert inside((middle[0] + 0.01, middle[1] + 0.01), outline) or \
            inside((middle[0] - 0.01, middle[1] - 0.01), outline)
    assert len(box.folds) == 12  # glue, 3 corners, 2 x 3 ends, 2 tongues
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    assert (min(xs), min(ys)) == pytest.approx((0, 0), abs=1e-9)
    assert (max(xs), max(ys)) == pytest.approx(box.size)


def test_thicker_stock_makes_a_deeper_box():
    thin, thick = plan_tuckbox((59, 91), 52, 0.3), plan_tuckbox((59, 91), 52, 0.6)
    assert thick.inside[2] - thin.inside[2] == pytest.approx(52 * 0.3)
    assert thick.size[0] - thin.size[0] == pytest.approx(2 * 52 * 0.3)  # two sides deeper


def test_the_flagships_deck_fits_a4_and_letter_and_a_tall_deck_says_what_paper():
    box = plan_tuckbox((59, 91), 104)
    for paper in ("a4", "letter"):
        x, y, turned = place_on_page(box, PAPER[paper])
        assert not turned and x >= 5 and y >= 5
    huge = plan_tuckbox((70, 120), 400)
    with pytest.raises(ValueError, match="choose a larger --paper"):
        place_on_page(huge, PAPER["a4"])
    x, y, turned = place_on_page(plan_tuckbox((120, 70), 40), PAPER["a4"])
    assert x >= 5 and y >= 5
