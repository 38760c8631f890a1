"""Sheet imposition: positions a user checks with a ruler and a duplex printer."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.layout.sheet import (FOLD_ROOM, MIN_FOOTER, PAPER, back_slots,
                                  calibration_targets, fold_plan, plan_sheet)

SKAT, POKER, BRIDGE, TAROT, MINI = (59, 91), (63.5, 88.9), (57.15, 88.9), (70, 120), (44, 68)
TOL = 1e-9


def printed(plan, slot):
    """(left, bottom, right, top) of a card's printed area: trim plus the bleed on the sheet."""
    b = plan.bleed
    return (slot.x - b, slot.y - b, slot.x + plan.card_w + b, slot.y + plan.card_h + b)


def touches(mark, rect):
    """An axis-parallel segment meets a closed rectangle (touching counts)."""
    x1, x2 = sorted((mark[0], mark[2]))
    y1, y2 = sorted((mark[1], mark[3]))
    return x1 <= rect[2] and x2 >= rect[0] and y1 <= rect[3] and y2 >= rect[1]


def check_invariants(plan, margin=5.0, footer=7.0, mark_offset=1.0):
    """Everything a printed sheet must satisfy, whatever the card size. The footer band is
    `footer`, or MIN_FOOTER where that leaves the marks their room."""
    assert plan.footer_h in (footer, min(footer, MIN_FOOTER))
    footer = plan.footer_h
    assert len(plan.slots) == plan.cols * plan.rows >= 1
    assert [s.index for s in plan.slots] == list(range(len(plan.slots)))
    assert plan.gap == 2 * plan.bleed
    rects = [printed(plan, s) for s in plan.slots]
    for left, bottom, right, top in rects:   # inside the margin, above the footer band
        assert left >= margin - TOL and right <= plan.page_w - margin + TOL
        assert bottom >= margin + footer - TOL and top <= plan.page_h - margin + TOL
    for i, a in enumerate(rects):            # printed areas never overlap (butted may touch)
        for b in rects[i + 1:]:
            overlap_w = min(a[2], b[2]) - max(a[0], b[0])
            overlap_h = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_w <= TOL or overlap_h <= TOL
    assert margin <= plan.footer_y < margin + footer <= min(r[1] for r in rects) + TOL
    # grid centred horizontally on the page and vertically in the area above the footer
    left, right = min(r[0] for r in rects), max(r[2] for r in rects)
    bottom, top = min(r[1] for r in rects), max(r[3] for r in rects)
    assert math.isclose(left, plan.page_w - right, abs_tol=1e-9)
    assert math.isclose(bottom - (margin + footer), plan.page_h - margin - top, abs_tol=1e-9)
    # row-major from the top-left
    assert plan.slots[0].y == max(s.y for s in plan.slots)
    assert plan.slots[0].x == min(s.x for s in plan.slots)
    check_marks(plan, rects, mark_offset, complete=plan.marked)
    for m in plan.marks:  # inside the margin (the printer prints nothing there), off the footer
        assert margin - TOL <= min(m[0], m[2]) and max(m[0], m[2]) <= plan.page_w - margin + TOL
        assert margin + footer - TOL <= min(m[1], m[3])
        assert max(m[1], m[3]) <= plan.page_h - margin + TOL


def check_marks(plan, rects, mark_offset, complete=True):
    """Marks stay on the paper and off the cards; with `complete`, every cut line has them."""
    left, right = min(r[0] for r in rects), max(r[2] for r in rects)
    bottom, top = min(r[1] for r in rects), max(r[3] for r in rects)
    assert len(set(plan.marks)) == len(plan.marks), "duplicate crop marks"
    for m in plan.marks:
        assert m[0] == m[2] or m[1] == m[3], "marks are horizontal or vertical"
        assert all(-TOL <= v <= plan.page_w + TOL for v in (m[0], m[2]))
        assert all(-TOL <= v <= plan.page_h + TOL for v in (m[1], m[3]))
        assert not any(touches(m, r) for r in rects), f"mark {m} touches a card"
        assert abs(m[2] - m[0]) + abs(m[3] - m[1]) >= (2.0 - TOL if complete else TOL)
    if not complete:
        return
    vertical = [m for m in plan.marks if m[0] == m[2]]
    horizontal = [m for m in plan.marks if m[1] == m[3]]
    for s in plan.slots:                     # every trim edge is a cut line with both marks
        for x in (s.x, s.x + plan.card_w):
            ends = [m for m in vertical if abs(m[0] - x) < 1e-6]
            assert any(min(m[1], m[3]) >= top + mark_offset - TOL for m in ends), x
            assert any(max(m[1], m[3]) <= bottom - mark_offset + TOL for m in ends), x
        for y in (s.y, s.y + plan.card_h):
            ends = [m for m in horizontal if abs(m[1] - y) < 1e-6]
            assert any(max(m[0], m[2]) <= left - mark_offset + TOL for m in ends), y
            assert any(min(m[0], m[2]) >= right + mark_offset - TOL for m in ends), y


def test_skat_on_a4_keeps_bleed_with_turned_cards():
    plan = plan_sheet(PAPER["a4"], SKAT)
    # Upright, 3 rows spaced by 2*3 mm bleed need 3*91 + 12 + 6 = 291 mm > 280: 6 cards. Turned
    # (91 x 59 on the sheet): 2*91 + 6 + 2*(3 + 3) = 200 <= 200 and 4*59 + 18 + 12 = 266 <= 280,
    # so 8 cards keep their bleed and their marks stay inside the margin.
    assert (plan.cols, plan.rows, plan.gap, plan.bleed, plan.rotated) == (2, 4, 6.0, 3.0, True)
    assert (plan.card_w, plan.card_h) == (91, 59) and plan.keeps_bleed
    x0 = (210 - (2 * 91 + 6)) / 2        # 11: centred on the page
    y0 = (297 + 7 - (4 * 59 + 3 * 6)) / 2  # 25: centred above margin + footer
    expected = [v for r in range(4) for c in range(2)
                for v in (x0 + c * 97, y0 + (3 - r) * 65)]
    assert [v for s in plan.slots for v in (s.x, s.y)] == pytest.approx(expected, abs=1e-9)
    assert (plan.slots[0].x, plan.slots[0].y) == (11.0, 220.0)
    check_invariants(plan)
    for m in plan.marks:  # inside the margin, off the footer band
        assert 5 - TOL <= min(m[0], m[2]) and max(m[0], m[2]) <= 205 + TOL
        assert 12 - TOL <= min(m[1], m[3]) and max(m[1], m[3]) <= 292 + TOL


def test_skat_on_a4_dense_exact_positions():
    plan = plan_sheet(PAPER["a4"], SKAT, mode="dense")
    # dense: the most cards — 9 butted upright beat the 8 turned cards with bleed.
    assert (plan.cols, plan.rows, plan.gap, plan.bleed) == (3, 3, 0.0, 0.0)
    assert not plan.keeps_bleed and not plan.rotated
    x0 = (210 - 3 * 59) / 2              # 16.5: centred on the page
    y0 = 5 + 7 + (280 - 3 * 91) / 2      # 15.5: centred above margin + footer
    expected = [v for r in range(3) for c in range(3) for v in (x0 + c * 59, y0 + (2 - r) * 91)]
    assert [v for s in plan.slots for v in (s.x, s.y)] == pytest.approx(expected, abs=1e-9)
    assert (plan.slots[0].x, plan.slots[0].y) == (16.5, 197.5)
    assert (plan.slots[8].x, plan.slots[8].y) == (134.5, 15.5)
    check_invariants(plan)
    # 4 distinct vertical cuts x 2 ends + 4 horizontal cuts x 2 sides; top/bottom shortened
    # to the 3.5 - 1 = 2.5 mm left inside the margin, sides keep the full 4 mm.
    assert len(plan.marks) == 16
    assert sorted({round(abs(m[3] - m[1]), 9) for m in plan.marks if m[0] == m[2]}) == [2.5]
    assert sorted({round(abs(m[2] - m[0]), 9) for m in plan.marks if m[1] == m[3]}) == [4.0]
    assert (16.5, 289.5, 16.5, 292.0) in plan.marks and (16.5, 12.0, 16.5, 14.5) in plan.marks


@pytest.mark.parametrize("paper, card, mode, grid, bleed, turned, footer", [
    ("a4", SKAT, "bleed", (2, 4), 3.0, True, 7.0),
    ("a4", SKAT, "dense", (3, 3), 0.0, False, 7.0),
    # turned poker: 2*88.9 + 6 + 12 = 195.8 <= 200; 4*63.5 + 18 + 12 = 284 <= 287 - 3: the
    # footer band shrinks to 3 mm so that the marks keep their room
    ("a4", POKER, "bleed", (2, 4), 3.0, True, 3.0),
    ("a4", POKER, "dense", (3, 3), 0.0, False, 7.0),
    ("a4", BRIDGE, "bleed", (2, 4), 3.0, True, 7.0),
    ("a4", BRIDGE, "dense", (3, 3), 0.0, False, 7.0),
    ("a4", TAROT, "bleed", (2, 2), 3.0, False, 7.0),   # 2*70+6+6 <= 200, 2*120+6+6 <= 280
    ("a4", TAROT, "dense", (2, 2), 3.0, False, 7.0),   # butting gains nothing: bleed kept
    # 4 x 3 upright (4*44 + 18 + 6 = 200) leave the side marks no room inside the margin: 10
    # turned cards, every mark printable
    ("a4", MINI, "bleed", (2, 5), 3.0, True, 7.0),
    ("a4", MINI, "dense", (4, 4), 0.0, False, 7.0),    # 16 butted: 4*68 = 272 <= 280
    # Letter is 17.6 mm shorter than A4: upright skat keeps bleed only 3 x 2 = 6; turned, 8
    # (2*91 + 6 + 12 = 200 <= 205.9, 4*59 + 18 + 12 = 266 <= 269.4 - 3) on a 3 mm footer
    ("letter", SKAT, "bleed", (2, 4), 3.0, True, 3.0),
    ("letter", SKAT, "dense", (2, 4), 3.0, True, 3.0),  # nothing holds 9: bleed kept
    ("letter", POKER, "bleed", (2, 3), 3.0, True, 7.0),
    ("letter", POKER, "dense", (2, 4), 0.0, True, 7.0),
    ("letter", BRIDGE, "bleed", (2, 4), 3.0, True, 7.0),
    ("letter", BRIDGE, "dense", (2, 4), 3.0, True, 7.0),
    ("letter", TAROT, "bleed", (2, 2), 3.0, False, 7.0),
    ("letter", TAROT, "dense", (2, 2), 3.0, False, 7.0),
    ("letter", MINI, "bleed", (2, 5), 3.0, True, 7.0),
    ("letter", MINI, "dense", (4, 3), 0.0, False, 7.0),  # 15 turned would cost the marks
])
def test_counts_per_paper(paper, card, mode, grid, bleed, turned, footer):
    plan = plan_sheet(PAPER[paper], card, mode=mode)
    assert (plan.cols, plan.rows, plan.bleed, plan.rotated) == (*grid, bleed, turned)
    assert plan.footer_h == footer and plan.marked
    check_invariants(plan)  # every mark inside the margin and off the footer band


def test_spaced_layout_has_bleed_gap_and_no_duplicate_marks():
    plan = plan_sheet(PAPER["a4"], TAROT)
    assert plan.gap == 6.0
    assert plan.slots[1].x - plan.slots[0].x == 70 + 6
    assert len(plan.marks) == 2 * 4 + 2 * 4   # 4 vertical + 4 horizontal cuts, no sharing


def test_marks_never_reach_into_the_margin_a_card_gives_way():
    # 66 mm: 3 columns = 198 mm would leave 1 mm either side of the 200 mm usable width, no
    # room for a side mark inside the margin; the printer cannot print there, so two columns
    # (of turned cards) it is, every mark printable.
    plan = plan_sheet(PAPER["a4"], (66, 91), mode="dense")
    assert (plan.cols, plan.rows, plan.rotated) == (2, 4, True) and plan.marked
    check_invariants(plan)


def test_marks_never_leave_the_paper_with_zero_margin():
    # A 97 mm card on 100 mm paper leaves 1.5 mm each side: minus the 1 mm offset only 0.5 mm
    # for a side mark, below the 1 mm least: no side marks at all, the rest as the room allows.
    plan = plan_sheet((100, 100), (97, 40), bleed=0, margin=0, footer=0)
    assert plan.cols == 1 and not plan.marked
    assert all(m[0] == m[2] for m in plan.marks)
    check_marks(plan, [printed(plan, s) for s in plan.slots], 1.0, complete=False)
    # 48 mm cards: two columns would leave 1 mm; one column keeps the marks their 2 mm
    plan = plan_sheet((100, 100), (48, 40), bleed=0, margin=0, footer=0)
    assert plan.cols == 1 and plan.marked
    check_marks(plan, [printed(plan, s) for s in plan.slots], 1.0)


def test_nothing_fits_raises():
    with pytest.raises(ValueError, match="does not fit"):
        plan_sheet(PAPER["a4"], (201, 281))  # not upright, not turned
    with pytest.raises(ValueError, match="does not fit"):
        plan_sheet(PAPER["letter"], (59, 267))  # 269.4 - 3 mm of footer: 266.4
    with pytest.raises(ValueError, match="mark_offset"):
        plan_sheet(PAPER["a4"], SKAT, mark_offset=0)
    with pytest.raises(ValueError, match="bleed"):
        plan_sheet(PAPER["a4"], SKAT, bleed=-1)


def test_largest_card_that_fits_alone():
    plan = plan_sheet(PAPER["a4"], (200, 280), bleed=3)
    assert (plan.cols, plan.rows, plan.bleed) == (1, 1, 0.0)
    assert (plan.slots[0].x, plan.slots[0].y) == (5.0, 12.0)
    check_invariants(plan)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "none"])
def test_long_edge_backs_mirror_left_right(paper, duplex):
    plan = plan_sheet(PAPER[paper], SKAT)
    backs = back_slots(plan, duplex)
    assert [b.index for b in backs] == [s.index for s in plan.slots]
    for front, back in zip(plan.slots, backs):
        assert abs(back.x + plan.card_w + front.x - plan.page_w) < TOL
        assert back.y == front.y
    shifted = back_slots(plan, duplex, offset=(0.4, -0.7))
    for front, back in zip(plan.slots, shifted):
        assert abs(back.x - 0.4 + plan.card_w + front.x - plan.page_w) < TOL
        assert abs(back.y + 0.7 - front.y) < TOL
    # top-left front sits behind the top-right back position
    assert backs[0].x == pytest.approx(plan.slots[plan.cols - 1].x)


def test_short_edge_backs_mirror_top_bottom():
    plan = plan_sheet(PAPER["a4"], TAROT)
    for offset in ((0.0, 0.0), (-1.25, 0.5)):
        for front, back in zip(plan.slots, back_slots(plan, "short", offset)):
            assert abs(back.x - offset[0] - front.x) < TOL
            assert abs(back.y - offset[1] + plan.card_h + front.y - plan.page_h) < TOL


def test_landscape_long_edge_is_the_horizontal_edge():
    plan = plan_sheet((297.0, 210.0), SKAT)
    for front, back in zip(plan.slots, back_slots(plan, "long")):
        assert back.x == front.x
        assert abs(back.y + plan.card_h + front.y - plan.page_h) < TOL


def test_unknown_duplex_rejected():
    with pytest.raises(ValueError, match="duplex"):
        back_slots(plan_sheet(PAPER["a4"], SKAT), "fold")


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("card", [SKAT, POKER, TAROT, MINI])
@pytest.mark.parametrize("mode", ["bleed", "dense"])
def test_fold_plan_mirrors_across_fold(paper, card, mode):
    plan, backs, fold = fold_plan(PAPER[paper], card, mode=mode)
    assert (plan.page_w, plan.page_h) == PAPER[paper]
    vertical = fold[0] == fold[2]
    f = plan.footer_h
    assert f in (7.0, MIN_FOOTER)
    if vertical:   # fronts left, backs right of x = page_w / 2
        fx = plan.page_w / 2
        assert fold[0] == fx and 5 + f <= fold[1] < fold[3] <= plan.page_h - 5
    else:          # fronts above, backs below y = page_h / 2, the footer along the fold
        fy = plan.page_h / 2
        assert fold[1] == fold[3] == fy and 5 <= fold[0] < fold[2] <= plan.page_w - 5
        assert fy < plan.footer_y < fy + FOLD_ROOM + f
    for front, back in zip(plan.slots, backs):
        assert back.index == front.index
        if vertical:
            assert abs((front.x + plan.card_w / 2) + (back.x + plan.card_w / 2) - 2 * fx) < TOL
            assert back.y == front.y
            assert front.x + plan.card_w + plan.bleed <= fx - FOLD_ROOM + TOL
            assert back.x - plan.bleed >= fx + FOLD_ROOM - TOL
        else:
            assert abs((front.y + plan.card_h / 2) + (back.y + plan.card_h / 2) - 2 * fy) < TOL
            assert back.x == front.x
            assert front.y - plan.bleed >= fy + FOLD_ROOM + f - TOL  # above the footer band
            assert back.y + plan.card_h + plan.bleed <= fy - FOLD_ROOM - f + TOL
            assert back.y - plan.bleed >= 5 - TOL
    if mode == "bleed":
        assert plan.keeps_bleed
    half = [m for m in plan.marks if (max(m[0], m[2]) <= fx if vertical else
                                      min(m[1], m[3]) >= fy)]
    assert half == list(plan.marks)  # marks on the fronts' half only
    rects = [printed(plan, s) for s in plan.slots]
    check_marks(plan, rects, 1.0)
    for m in plan.marks:  # inside the paper's margin, clear of the crease
        assert 5 - TOL <= min(m[0], m[2]) and max(m[0], m[2]) <= plan.page_w - 5 + TOL
        assert 5 - TOL <= min(m[1], m[3]) and max(m[1], m[3]) <= plan.page_h - 5 + TOL
        if vertical:
            assert max(m[0], m[2]) <= fx - FOLD_ROOM + TOL
        else:
            assert min(m[1], m[3]) >= fy + FOLD_ROOM + f - TOL


@pytest.mark.parametrize("paper, mode, count, vertical", [
    # A4 skat: the vertical fold keeps bleed for 1 x 2 upright; the horizontal fold holds
    # 2 x 2 turned cards with bleed and marks (2*59 + 6 + 12 = 136 <= 148.5 - 5 - 2 - 3)
    ("a4", "bleed", 4, False),
    # Letter: one turned card across a half (91 + 6 + 12 = 109 > 107.95 - 5 - 2) would put
    # its side marks where the printer cannot print; across the fold, 3 upright cards
    ("letter", "bleed", 3, False),
    ("a3", "bleed", 8, True),
])
def test_fold_plan_chooses_the_fold_with_most_cards(paper, mode, count, vertical):
    plan, _, fold = fold_plan(PAPER[paper], SKAT, mode=mode)
    assert len(plan.slots) == count and plan.keeps_bleed
    assert (fold[0] == fold[2]) == vertical


def test_fold_plan_too_small_says_fold():
    with pytest.raises(ValueError, match="fold-over"):
        fold_plan(PAPER["a4"], (150, 160))  # neither half holds it, upright or turned


def test_calibration_targets():
    plan = plan_sheet(PAPER["a4"], SKAT, mode="dense")
    assert calibration_targets(plan) == ((46.0, 243.0), (164.0, 243.0), (46.0, 61.0),
                                         (164.0, 61.0), (105.0, 152.0))
    one_col = plan_sheet((105.0, 297.0), SKAT, mode="dense")   # 1 x 3: corners coincide
    targets = calibration_targets(one_col)
    assert len(targets) == 3
    assert targets[-1] == pytest.approx((52.5, 152.0))


@settings(max_examples=300, deadline=None)
@given(w=st.floats(30, 150), h=st.floats(30, 150), bleed=st.floats(0, 5),
       paper=st.sampled_from(sorted(PAPER)),
       dx=st.floats(-3, 3), dy=st.floats(-3, 3))
def test_any_card_size_gives_a_valid_plan_or_value_error(w, h, bleed, paper, dx, dy):
    try:
        plan = plan_sheet(PAPER[paper], (w, h), bleed)
    except ValueError:
        pw, ph = PAPER[paper]
        assert (w > pw - 10 or h > ph - 13) and (h > pw - 10 or w > ph - 13)
        return
    check_invariants(plan)
    pw, ph = PAPER[paper]

    def most(b, room=0.0):
        """Cards in the area inside the margin, upright or turned, each with bleed b around
        it, `room` mm for the marks on every side of the block, the footer 7 or 3 mm."""
        return max(math.floor((pw - 10 - 2 * room + 1e-9) / (a + 2 * b)) *
                   math.floor((ph - 10 - band - 2 * room + 1e-9) / (c + 2 * b))
                   for a, c in ((w, h), (h, w)) for band in (7, 3))

    def expected(bleeds):  # marks inside the margin first (3 mm: offset and 2 mm), then most
        marked = max(most(b, 3.0) for b in bleeds)
        return marked or max(most(b) for b in bleeds), marked > 0
    if plan.keeps_bleed:  # bleed mode: the most cards that keep their bleed
        assert (len(plan.slots), plan.marked) == expected([bleed])
    else:                 # none keeps it: abutted, the most cards
        assert most(bleed) == 0 or bleed == 0
        assert (len(plan.slots), plan.marked) == expected([0.0])
    dense = plan_sheet(PAPER[paper], (w, h), bleed, mode="dense")
    assert (len(dense.slots), dense.marked) == expected([bleed, 0.0])
    assert plan.bleed in (0.0, bleed)
    for duplex in ("long", "short"):
        for front, back in zip(plan.slots, back_slots(plan, duplex, (dx, dy))):
            if duplex == "long":
                assert abs(back.x - dx + plan.card_w + front.x - plan.page_w) < TOL
                assert abs(back.y - dy - front.y) < TOL
            else:
                assert abs(back.x - dx - front.x) < TOL
                assert abs(back.y - dy + plan.card_h + front.y - plan.page_h) < TOL
