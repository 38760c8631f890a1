"""A tuck box for a deck: its flat net (panels, cut outline, fold lines, glue flap) in mm.

The box is a reverse tuck end box, the kind playing cards come in: four walls in a row (side,
front, side, back) closed by a glue flap on the first side; the lid hangs on the back's top
edge and tucks in over the front, the bottom hangs on the front's lower edge and tucks in
behind the back; a dust flap on each end of each side closes the corners; a half-round notch
in the front's top edge lets a thumb pull the cards out.

Sized from the cards: inside, a card plus CLEARANCE each way, and the deck's thickness (cards
x stock thickness) plus DEPTH_CLEARANCE. Pure geometry, y upwards, the net's lower-left corner
at (0, 0); render.tuckbox draws it and place_on_page puts it on the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CLEARANCE = 1.0        # mm added to the card's width and height inside the box
DEPTH_CLEARANCE = 1.5  # mm added to the deck's thickness
STOCK = 0.32           # mm: one card of 300 g/m² card stock (the default --stock)
GLUE = 8.0             # mm: the glue flap's width
TONGUE = 15.0          # mm: how far a lid or bottom tucks in
NOTCH = 9.0            # mm: the thumb notch's radius
ARC_STEPS = 24         # straight pieces of a cut arc (cutting machines follow them smoothly)

Point = tuple[float, float]


@dataclass(frozen=True)
class Panel:
    name: str      # front, back, side-left, side-right, lid, lid-tongue, bottom,
    x: float       # bottom-tongue, glue, dust-...
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class TuckBox:
    inside: tuple[float, float, float]  # width, height, depth (mm)
    cards: int
    size: tuple[float, float]           # the net's width and height (mm)
    panels: tuple[Panel, ...]
    outline: tuple[Point, ...]          # the cut, a closed path (the last point joins the first)
    folds: tuple[tuple[float, float, float, float], ...]  # (x1, y1, x2, y2)
    glue: tuple[Point, ...]             # the glue flap's outline

    def panel(self, name: str) -> Panel:
        return next(p for p in self.panels if p.name == name)


def plan_tuckbox(card: tuple[float, float], cards: int, stock: float = STOCK) -> TuckBox:
    """The net of a box for `cards` cards of `card` (w, h) mm, each `stock` mm thick."""
    if cards < 1 or stock <= 0:
        raise ValueError("a tuck box needs at least one card and a stock thickness above 0")
    w, h = card[0] + CLEARANCE, card[1] + CLEARANCE
    d = cards * stock + DEPTH_CLEARANCE
    dust = min(w * 0.45, max(d, 12.0))      # a dust flap reaches across the opening
    tongue = min(TONGUE, h / 4)
    inset = min(3.0, d / 4)                 # dust flaps taper so that they slide in
    s1, f0 = GLUE, GLUE + d
    f1, s2, b1 = f0 + w, f0 + w + d, f0 + 2 * w + d
    below = max(dust, d + tongue)
    yb = below                              # the walls' lower edge
    yt = yb + h                             # their upper edge
    lid_top = yt + d
    top = yt + max(dust, d + tongue)
    chamfer = min(3.0, tongue / 3)
    notch = min(NOTCH, w / 4, h / 4)
    cx = (f0 + f1) / 2
    arc = [(cx - notch * math.cos(math.pi * i / ARC_STEPS),
            yt - notch * math.sin(math.pi * i / ARC_STEPS)) for i in range(ARC_STEPS + 1)]
    glue = ((s1, yb), (0.0, yb + 3), (0.0, yt - 3), (s1, yt))
    outline = (
        *glue,
        (s1 + inset, yt + dust), (f0 - inset, yt + dust), (f0, yt),      # dust flap, side 1
        *arc,                                                               # the front's notch
        (f1, yt), (f1 + inset, yt + dust), (s2 - inset, yt + dust),        # dust flap, side 2
        (s2, yt), (s2, lid_top), (s2 + chamfer, lid_top + tongue),         # lid and its tongue
        (b1 - chamfer, lid_top + tongue), (b1, lid_top), (b1, yb),
        (s2, yb), (s2 - inset, yb - dust), (f1 + inset, yb - dust),        # dust flap, side 2
        (f1, yb), (f1, yb - d), (f1 - chamfer, yb - d - tongue),           # bottom and tongue
        (f0 + chamfer, yb - d - tongue), (f0, yb - d), (f0, yb),
        (f0 - inset, yb - dust), (s1 + inset, yb - dust),                  # dust flap, side 1
    )
    folds = ((s1, yb, s1, yt), (f0, yb, f0, yt), (f1, yb, f1, yt), (s2, yb, s2, yt),
             (s1, yt, f0, yt), (f1, yt, s2, yt), (s2, yt, b1, yt), (s2, lid_top, b1, lid_top),
             (s1, yb, f0, yb), (f0, yb, f1, yb), (f1, yb, s2, yb), (f0, yb - d, f1, yb - d))
    panels = (Panel("glue", 0, yb, GLUE, h), Panel("side-left", s1, yb, d, h),
              Panel("front", f0, yb, w, h), Panel("side-right", f1, yb, d, h),
              Panel("back", s2, yb, w, h), Panel("lid", s2, yt, w, d),
              Panel("lid-tongue", s2, lid_top, w, tongue),
              Panel("bottom", f0, yb - d, w, d), Panel("bottom-tongue", f0, yb - d - tongue, w,
                                                       tongue),
              Panel("dust-left-top", s1, yt, d, dust), Panel("dust-right-top", f1, yt, d, dust),
              Panel("dust-left-bottom", s1, yb - dust, d, dust),
              Panel("dust-right-bottom", f1, yb - dust, d, dust))
    return TuckBox((w, h, d), cards, (b1, top), panels, outline, folds, glue)


def place_on_page(box: TuckBox, paper: tuple[float, float],
                  margin: float = 5.0) -> tuple[float, float, bool]:
    """(x, y, turned): where the net's lower-left corner goes on the page, centred inside the
    margin; turned a quarter turn (counter-clockwise) when only that fits. Raises ValueError
    naming the size when it fits neither way."""
    (pw, ph), (nw, nh) = paper, box.size
    for turned, (w, h) in ((False, (nw, nh)), (True, (nh, nw))):
        if w <= pw - 2 * margin + 1e-9 and h <= ph - 2 * margin + 1e-9:
            return (pw - w) / 2, (ph - h) / 2, turned
    raise ValueError(f"the tuck box for {box.cards} cards ({box.inside[0]:g} x "
                     f"{box.inside[1]:g} x {box.inside[2]:.1f} mm inside) needs "
                     f"{nw:.0f} x {nh:.0f} mm of paper; choose a larger --paper")
