"""Sheet imposition: positions a user checks with a ruler and a duplex printer."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.layout.sheet import (PAPER, back_slots, calibration_targets, fold_plan,
                                  plan_sheet)

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
    """Everything a printed sheet must satisfy, whatever the card size."""
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
    check_marks(plan, rects, mark_offset)


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


def test_skat_on_a4_exact_positions():
    plan = plan_sheet(PAPER["a4"], SKAT)
    # 3 rows spaced by 2*3 mm bleed need 3*91 + 12 + 6 = 291 mm > 297 - 10 - 7 = 280, so the
    # cards are butted (gap 0): 9 beats the 3 x 2 = 6 a spaced sheet would hold.
    assert (plan.cols, plan.rows, plan.gap, plan.bleed) == (3, 3, 0.0, 0.0)
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


@pytest.mark.parametrize("paper, card, grid, bleed", [
    ("a4", SKAT, (3, 3), 0.0),
    ("a4", POKER, (3, 3), 0.0),
    ("a4", BRIDGE, (3, 3), 0.0),
    ("a4", TAROT, (2, 2), 3.0),        # spaced: 2*70+6+6 <= 200 and 2*120+6+6 <= 280
    ("a4", MINI, (4, 4), 0.0),         # 16 butted: 4*68 = 272 <= 280, spaced would be 296
    # Letter is 17.6 mm shorter: 3*91 = 273 > 279.4 - 10 - 7 = 262.4, so 2 rows only and the
    # cards keep their bleed (2*91 + 6 + 6 = 194 fits): 6, not 9, without rotating the cards.
    ("letter", SKAT, (3, 2), 3.0),
    ("letter", POKER, (3, 2), 0.0),    # spaced 3 cols = 208.5 > 205.9: butted to keep 6
    ("letter", BRIDGE, (3, 2), 3.0),
    ("letter", TAROT, (2, 2), 3.0),
    # Spaced 4 cols (200 mm) fit 205.9 but leave 1.95 mm for marks; butted keeps 12 with the
    # marks inside the margin, which wins over keeping the bleed.
    ("letter", MINI, (4, 3), 0.0),
])
def test_counts_per_paper(paper, card, grid, bleed):
    plan = plan_sheet(PAPER[paper], card)
    assert (plan.cols, plan.rows, plan.bleed) == (*grid, bleed)
    check_invariants(plan)
    for m in plan.marks:  # the common sizes keep their marks inside the margin, off the footer
        assert 5 - TOL <= min(m[0], m[2]) and max(m[0], m[2]) <= plan.page_w - 5 + TOL
        assert 12 - TOL <= min(m[1], m[3]) and max(m[1], m[3]) <= plan.page_h - 5 + TOL


def test_spaced_layout_has_bleed_gap_and_no_duplicate_marks():
    plan = plan_sheet(PAPER["a4"], TAROT)
    assert plan.gap == 6.0
    assert plan.slots[1].x - plan.slots[0].x == 70 + 6
    assert len(plan.marks) == 2 * 4 + 2 * 4   # 4 vertical + 4 horizontal cuts, no sharing


def test_marks_reach_into_margin_only_when_count_needs_it():
    # 66 mm: 3 columns = 198 mm leave 1 mm either side of the 200 mm usable width; the third
    # column wins, so the side marks (2 mm minimum) reach into the margin but stay on paper.
    plan = plan_sheet(PAPER["a4"], (66, 91))
    assert plan.cols == 3
    check_invariants(plan)
    side = [m for m in plan.marks if m[1] == m[3]]
    assert all(abs(m[2] - m[0]) == pytest.approx(2.0) for m in side)
    assert min(min(m[0], m[2]) for m in side) == pytest.approx(6 - 1 - 2)


def test_marks_never_leave_the_paper_with_zero_margin():
    # 2 x 48 mm on 100 mm leave 2 mm each side: minus the 1 mm offset only 1 mm of paper for
    # the side marks, so they are cut at the paper edge, below the 2 mm minimum.
    plan = plan_sheet((100, 100), (48, 40), bleed=0, margin=0, footer=0)
    assert plan.cols == 2
    side = [m for m in plan.marks if m[1] == m[3]]
    assert len(side) == 2 * 3  # 3 horizontal cuts (rows butted), one mark each side
    assert all(m[2] - m[0] == pytest.approx(1.0) for m in side)
    assert min(m[0] for m in side) == pytest.approx(0.0)
    check_marks(plan, [printed(plan, s) for s in plan.slots], 1.0, complete=False)
    # 0.5 mm left each side: not even the offset fits, so there are no side marks at all
    plan = plan_sheet((100, 100), (49.5, 40), bleed=0, margin=0, footer=0)
    assert plan.cols == 2 and all(m[0] == m[2] for m in plan.marks) and len(plan.marks) == 6
    check_marks(plan, [printed(plan, s) for s in plan.slots], 1.0, complete=False)


def test_nothing_fits_raises():
    with pytest.raises(ValueError, match="does not fit"):
        plan_sheet(PAPER["a4"], (201, 91))
    with pytest.raises(ValueError, match="does not fit"):
        plan_sheet(PAPER["letter"], (59, 263))
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
def test_fold_plan_mirrors_across_fold(paper, card):
    plan, backs, fold = fold_plan(PAPER[paper], card)
    fx = plan.page_w / 2
    assert plan.page_w == PAPER[paper][0]
    assert fold[0] == fold[2] == fx and fold[1] < fold[3]
    assert fold[1] >= 5 + 7 and fold[3] <= plan.page_h - 5
    for front, back in zip(plan.slots, backs):
        assert back.index == front.index
        assert abs((front.x + plan.card_w / 2) + (back.x + plan.card_w / 2) - 2 * fx) < TOL
        assert back.y == front.y
        assert front.x + plan.card_w + plan.bleed <= fx - 5 + TOL   # fronts left of the fold
        assert back.x - plan.bleed >= fx + 5 - TOL                  # backs right of it
    assert all(max(m[0], m[2]) <= fx for m in plan.marks)
    rects = [printed(plan, s) for s in plan.slots]
    check_marks(plan, rects, 1.0)


def test_fold_plan_too_small_says_fold():
    with pytest.raises(ValueError, match="fold-over"):
        fold_plan(PAPER["a4"], (120, 91))


def test_calibration_targets():
    plan = plan_sheet(PAPER["a4"], SKAT)
    assert calibration_targets(plan) == ((46.0, 243.0), (164.0, 243.0), (46.0, 61.0),
                                         (164.0, 61.0), (105.0, 152.0))
    one_col, _, _ = fold_plan(PAPER["a4"], SKAT)             # 1 x 3: corners coincide
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
        assert w > pw - 10 or h > ph - 17
        return
    check_invariants(plan)
    # the count is the maximum: butted cards fill the usable area as far as they can
    pw, ph = PAPER[paper]
    assert plan.cols == math.floor((pw - 10 + 1e-9) / w)
    assert plan.rows == math.floor((ph - 17 + 1e-9) / h)
    assert plan.bleed in (0.0, bleed)
    for duplex in ("long", "short"):
        for front, back in zip(plan.slots, back_slots(plan, duplex, (dx, dy))):
            if duplex == "long":
                assert abs(back.x - dx + plan.card_w + front.x - plan.page_w) < TOL
                assert abs(back.y - dy - front.y) < TOL
            else:
                assert abs(back.x - dx - front.x) < TOL
                assert abs(back.y - dy + plan.card_h + front.y - plan.page_h) < TOL
