"""Print-then-cut sheets: Silhouette's registration marks where Silhouette Studio looks for them,
and every card inside them, clear of them, with its bleed."""

from __future__ import annotations

import pytest

from cardgen.layout.cut_sheet import (REG_CLEAR, REG_INSET, REG_LENGTH, REG_SQUARE, REG_THICK,
                                      plan_cut_sheet)
from cardgen.layout.sheet import PAPER


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
@pytest.mark.parametrize("card", [(59, 91), (63.5, 88.9), (44, 68), (70, 120)])
def test_marks_at_the_corners_and_cards_clear_of_them(paper, card):
    pw, ph = PAPER[paper]
    sheet = plan_cut_sheet(PAPER[paper], card, 3.0, 3.0)
    square, *legs = sheet.marks
    assert square == (REG_INSET, ph - REG_INSET - REG_SQUARE, REG_SQUARE, REG_SQUARE)
    assert sorted(legs) == sorted([
        (pw - REG_INSET - REG_LENGTH, ph - REG_INSET - REG_THICK, REG_LENGTH, REG_THICK),
        (pw - REG_INSET - REG_THICK, ph - REG_INSET - REG_LENGTH, REG_THICK, REG_LENGTH),
        (REG_INSET, REG_INSET, REG_LENGTH, REG_THICK),
        (REG_INSET, REG_INSET, REG_THICK, REG_LENGTH)])
    plan = sheet.plan
    assert plan.keeps_bleed and not plan.marks  # each card has its bleed; the machine cuts
    area = (REG_INSET, REG_INSET, pw - REG_INSET, ph - REG_INSET)
    for x, y, w, h in sheet.cuts:
        printed = (x - 3, y - 3, x + w + 3, y + h + 3)
        assert area[0] < printed[0] and printed[2] < area[2]
        assert area[1] < printed[1] and printed[3] < area[3]
        for mx, my, mw, mh in sheet.marks:  # REG_CLEAR of white around every mark
            apart = max(mx - REG_CLEAR - printed[2], printed[0] - (mx + mw + REG_CLEAR),
                        my - REG_CLEAR - printed[3], printed[1] - (my + mh + REG_CLEAR))
            assert apart >= -1e-9, ((x, y, w, h), (mx, my, mw, mh))
    assert [(s.x, s.y) for s in plan.slots] == [(c[0], c[1]) for c in sheet.cuts]


def test_a_corner_radius_too_large_for_the_card_is_refused():
    with pytest.raises(ValueError, match="corner radius"):
        plan_cut_sheet(PAPER["a4"], (59, 91), 3.0, 30)
