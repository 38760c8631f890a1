"""Print-then-cut sheets for cutting machines: the cards inside a Silhouette machine's
registration marks, and the cut path of every card (its trim, corners rounded as asked).

Silhouette Studio's registration marks (style "Type 1", the CAMEO and Portrait default): a
filled square in the top-left corner and an L in the top-right and bottom-left corners, at
REG_INSET from the paper's edges, legs REG_LENGTH long and REG_THICK thick. The cards stay
REG_CLEAR clear of them (the machine's optical sensor reads white around a mark). Each card
keeps its bleed, as on the home sheets: a cut that misses by up to the bleed shows the card's
own colour. Geometry only, y upwards from the page's lower-left corner, in mm.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sheet import SheetPlan, plan_sheet

REG_INSET = 10.0   # mm from each paper edge to the marks (Silhouette Studio: "Inset")
REG_LENGTH = 20.0  # mm: each leg of an L ("Length")
REG_THICK = 0.5    # mm: the legs' thickness ("Thickness")
REG_SQUARE = 5.0   # mm: the top-left square
REG_CLEAR = 2.0    # mm of white between a mark and any card

Rect = tuple[float, float, float, float]  # x, y, w, h


@dataclass(frozen=True)
class CutSheet:
    plan: SheetPlan               # where the cards go (no crop marks, no footer)
    marks: tuple[Rect, ...]       # filled rectangles: the square, then the two Ls' legs
    cuts: tuple[Rect, ...]        # each card's trim, slot by slot
    radius: float                 # mm: the cut's corners


def registration_marks(paper: tuple[float, float], inset: float = REG_INSET) -> tuple[Rect, ...]:
    pw, ph = paper
    s, length, t = REG_SQUARE, REG_LENGTH, REG_THICK
    return ((inset, ph - inset - s, s, s),                                # top left: square
            (pw - inset - length, ph - inset - t, length, t),                # top right: L
            (pw - inset - t, ph - inset - length, t, length),
            (inset, inset, length, t),                                     # bottom left: L
            (inset, inset, t, length))


def plan_cut_sheet(paper: tuple[float, float], card: tuple[float, float], bleed: float,
                   radius: float, inset: float = REG_INSET) -> CutSheet:
    """The most cards inside the marks (each with its bleed), and their cut paths."""
    if radius < 0 or 2 * radius > min(card):
        raise ValueError(f"a corner radius of {radius:g} mm does not fit a {card[0]:g} x "
                         f"{card[1]:g} mm card")
    keep = inset + REG_SQUARE + REG_CLEAR  # the square is the widest mark
    plan = plan_sheet(paper, card, bleed, margin=keep, footer=0.0, mark_length=0.0,
                      mode="bleed")
    cuts = tuple((s.x, s.y, plan.card_w, plan.card_h) for s in plan.slots)
    return CutSheet(plan, registration_marks(paper, inset), cuts, radius)
