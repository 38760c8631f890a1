"""Sheet imposition: where cards, crop marks and backs go on a printed page.

Pure geometry in millimetres, PDF coordinates (origin bottom-left of the page, y up). Nothing here
draws: render/ draws exactly what this module decides, so checking a printout with a ruler checks
these numbers. No rounding anywhere — positions are plain float sums, exact far below 0.001 mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from ..units import PAPER


MIN_MARK = 2.0  # mm; a shorter crop mark is hard to line a ruler up with
LEAST_MARK = 1.0  # mm; a mark squeezed below this (no layout leaves room) is left out
MIN_FOOTER = 3.0  # mm; the least footer band: one 7 pt line (DejaVu Sans: 1.164 em = 2.87 mm)
EPS = 1e-9      # mm; slack for float sums when testing "fits", far below printer precision

Mark = tuple[float, float, float, float]


@dataclass(frozen=True)
class Slot:
    index: int  # 0-based position on the sheet, row-major from the top-left card
    x: float    # mm, left edge of the card's TRIM box on the page
    y: float    # mm, bottom edge of the card's TRIM box on the page
    turn: int = 0  # degrees counter-clockwise the card is turned on the page: 0, 90, 180, 270


@dataclass(frozen=True)
class SheetPlan:
    page_w: float
    page_h: float
    card_w: float  # the card's trim box as it lies on the sheet (height and width swapped
    card_h: float  # when `rotated`)
    bleed: float   # bleed printed around each card on the sheet (0 when cards are butted)
    cols: int
    rows: int
    gap: float     # distance between neighbouring trim boxes
    slots: tuple[Slot, ...]
    marks: tuple[Mark, ...]  # crop mark lines (x1, y1, x2, y2)
    footer_y: float          # baseline (mm from page bottom) of a footer line below the cards
    rotated: bool = False    # cards turned a quarter turn (counter-clockwise) on the sheet
    footer_h: float = 7.0    # mm: the footer band above the margin, below every card and mark
    margin: float = 5.0      # mm: the paper's unprintable edge; nothing is printed in it
    marked: bool = True      # every cut line has its marks (MIN_MARK or more) inside the margin

    @property
    def keeps_bleed(self) -> bool:
        """Every card has its own bleed on every edge: a cut off by up to `bleed` shows the
        card's own art, never a neighbour's."""
        return self.bleed > 0


SHEET_MODES = ("bleed", "dense")


def plan_sheet(paper: tuple[float, float], card: tuple[float, float], bleed: float = 3.0,
               margin: float | tuple[float, float, float, float] = 5.0, footer: float = 7.0,
               mark_length: float = 4.0, mark_offset: float = 1.0,
               mode: str = "bleed") -> SheetPlan:
    """Lay out as many cards as fit on one sheet, centred, with crop marks.

    Cards (with their printed bleed) and their marks stay inside `margin` (the printer's
    unprintable edge; or (left, bottom, right, top), e.g. a half sheet's edge at a fold) and
    above the `footer` band. Cards may lie upright or all turned a quarter turn, whichever
    holds more.
    mode "bleed" (the default): only layouts where every card keeps its bleed on every edge
    (cards spaced by 2*bleed, a gutter that is cut away) count; then layouts whose marks fit
    inside the margin (the footer band may shrink to MIN_FOOTER for that), then the most
    cards, then the larger footer band, then upright cards. Only when not one card fits that
    way do the cards abut at the trim (shared cut lines; `keeps_bleed` is False, say so).
    mode "dense": marks inside the margin, then the most cards, abutted or not; on equal
    counts bleed is kept.
    Raises ValueError when not even one card fits.
    """
    if mode not in SHEET_MODES:
        raise ValueError(f"sheet mode must be 'bleed' or 'dense', got {mode!r}")
    edges = (margin,) * 4 if isinstance(margin, (int, float)) else tuple(margin)
    _check(paper, card, bleed, edges, footer, mark_length, mark_offset)
    (pw, ph), (left, bottom, right, top) = paper, edges
    room = mark_offset + min(mark_length, MIN_MARK) if mark_length > 0 else 0.0
    avail = (pw - left - right, ph - bottom - top)
    cols, rows, b, rotated, footer, marked = _choose(avail, footer, card, bleed, room, mode)
    cw, ch = (card[1], card[0]) if rotated else card
    gap = 2 * b
    x0 = left + (avail[0] - (cols * cw + (cols - 1) * gap)) / 2  # centred inside the margins
    y0 = bottom + footer + (avail[1] - footer - (rows * ch + (rows - 1) * gap)) / 2  # above
    slots = tuple(Slot(r * cols + c, x0 + c * (cw + gap), y0 + (rows - 1 - r) * (ch + gap),
                       90 if rotated else 0)
                  for r in range(rows) for c in range(cols))
    box = (slots[0].x - b, slots[-1].y - b, slots[-1].x + cw + b, slots[0].y + ch + b)
    marks = _marks((pw, ph), box, _cuts(slots[:cols], "x", cw), _cuts(slots[::cols], "y", ch),
                   edges, footer, mark_length, mark_offset)
    return SheetPlan(pw, ph, cw, ch, b, cols, rows, gap, slots, marks,
                     bottom + footer_baseline(footer), rotated, footer, left,
                     marked and mark_length > 0)


def footer_baseline(band: float) -> float:
    """The baseline of the footer's 7 pt line above the band's lower edge: the line's whole
    height (DejaVu Sans: 0.928 em up, 0.236 em down) centred in the band."""
    size = 7 * 25.4 / 72  # mm
    return max(band - 1.164 * size, 0) / 2 + 0.236 * size


def _check(paper, card, bleed, edges, footer, mark_length, mark_offset) -> None:
    """Reject nonsense early with a message naming the value, not a wrong layout later."""
    if len(edges) != 4:
        raise ValueError(f"margin must be one number or four (left, bottom, right, top), got "
                         f"{edges!r}")
    values = dict(paper_w=paper[0], paper_h=paper[1], card_w=card[0], card_h=card[1],
                  bleed=bleed, footer=footer, mark_length=mark_length, mark_offset=mark_offset)
    values.update((f"margin ({side})" if len(set(edges)) > 1 else "margin", value)
                  for side, value in zip(("left", "bottom", "right", "top"), edges))
    for name, value in values.items():
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0 mm, got {value!r}")
    for name in ("paper_w", "paper_h", "card_w", "card_h", "mark_offset"):
        if values[name] == 0:  # a zero mark offset would let marks touch the cards
            raise ValueError(f"{name} must be greater than 0 mm")


def _fit(avail: float, size: float, gap: float, bleed: float, room: float) -> int:
    """Most cards in a line: n*size + (n-1)*gap + 2*(bleed + room) <= avail."""
    n = max(math.floor((avail - 2 * (bleed + room) + gap + EPS) / (size + gap)), 0)
    while n and n * size + (n - 1) * gap + 2 * (bleed + room) > avail + EPS:
        n -= 1  # guard against floor() landing one too high on float noise
    return n


def _choose(avail, footer, card, bleed, room, mode) -> tuple[int, int, float, bool, float,
                                                             bool]:
    """(cols, rows, bleed on the sheet, rotated, footer band, marks inside the margin): the
    best layout for `mode`.

    `avail` is the area inside the margin; the footer band (`footer`, or MIN_FOOTER when that
    is all that leaves the marks their room) comes off its height. Candidates are ranked by
    (keeps bleed, when mode is "bleed"), marks inside the margin, count, bleed kept, the larger
    footer, upright; a square card is never turned (it would change nothing).
    """
    ranked = []
    turns = (False,) if card[0] == card[1] else (False, True)
    for rotated in turns:
        w, h = (card[1], card[0]) if rotated else card
        for band in dict.fromkeys((footer, min(footer, MIN_FOOTER))):
            for b in dict.fromkeys((bleed, 0.0)):
                for r in dict.fromkeys((room, 0.0)):
                    cols = _fit(avail[0], w, 2 * b, b, r)
                    rows = _fit(avail[1] - band, h, 2 * b, b, r)
                    if cols * rows == 0:
                        continue
                    first = (b > 0) if mode == "bleed" else True
                    ranked.append(((first, r > 0, cols * rows, b > 0, band, not rotated),
                                   (cols, rows, b, rotated, band, r > 0 or room == 0)))
    if not ranked:
        raise ValueError(f"a {card[0]:g} x {card[1]:g} mm card does not fit on the sheet: the "
                         f"usable area inside the margin and above the footer is only "
                         f"{avail[0]:g} x {avail[1] - min(footer, MIN_FOOTER):g} mm")
    return max(ranked)[1]


def _cuts(line: tuple[Slot, ...], axis: str, size: float) -> list[float]:
    """Distinct cut positions along one axis: both trim edges of every column (or row).

    Butted neighbours share an edge; float sums may differ there by an ulp, so positions within
    EPS count as one cut and get one set of marks.
    """
    edges = sorted(v for s in line for v in (getattr(s, axis), getattr(s, axis) + size))
    out: list[float] = []
    for v in edges:
        if not out or v - out[-1] > EPS:
            out.append(v)
    return out


def _marks(page, box, xs, ys, edges, footer, length, offset) -> tuple[Mark, ...]:
    """Crop marks outside the printed block `box` (left, bottom, right, top).

    Each mark starts `offset` outside the outermost printed area, so it can never touch a card.
    It is shortened to stay inside the margin (and out of the footer band): the printer
    cannot print there. plan_sheet prefers layouts that leave every mark MIN_MARK; where none
    does, a mark is as long as the room allows, and left out below LEAST_MARK.
    """
    (pw, ph), (left, bottom, right, top) = page, box
    if length <= 0:
        return ()

    def size(inside: float) -> float:
        return min(length, inside) if inside >= min(LEAST_MARK, length) - EPS else 0.0

    lh = size(left - offset - edges[0])
    rh = size(pw - edges[2] - right - offset)
    tv = size(ph - edges[3] - top - offset)
    bv = size(bottom - offset - edges[1] - footer)
    marks: list[Mark] = []
    for x in xs:
        if tv > 0:
            marks.append((x, top + offset, x, top + offset + tv))
        if bv > 0:
            marks.append((x, bottom - offset - bv, x, bottom - offset))
    for y in ys:
        if lh > 0:
            marks.append((left - offset - lh, y, left - offset, y))
        if rh > 0:
            marks.append((right + offset, y, right + offset + rh, y))
    return tuple(marks)


def back_slots(plan: SheetPlan, duplex: str = "long",
               offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Slot, ...]:
    """Where to draw the back of front slot i on the next page so duplex puts it behind i.

    "long": the sheet turns over its long edge — on a portrait page that mirrors left-right
    (x_back = page_w - x - card_w, y unchanged); on a landscape page it mirrors top-bottom.
    "short": the sheet turns over its short edge (the other mirror).
    "none": backs printed on separate sheets and turned by hand; a hand-turned sheet is turned
    like a book page, over its long edge, so this is the long-edge mirror as well.
    `offset` (dx, dy) is the printer calibration, added to every back position as seen on the
    back page (positive dx moves the backs right, positive dy up).
    """
    if duplex not in ("long", "short", "none"):
        raise ValueError(f"duplex must be 'long', 'short' or 'none', got {duplex!r}")
    mirror_x = turns_over_vertical(plan, duplex)
    dx, dy = offset
    return tuple(
        Slot(s.index,
             (plan.page_w - s.x - plan.card_w if mirror_x else s.x) + dx,
             (s.y if mirror_x else plan.page_h - s.y - plan.card_h) + dy,
             turned_over(s.turn, mirror_x))
        for s in plan.slots)


def turns_over_vertical(plan: SheetPlan, duplex: str) -> bool:
    """Whether the sheet turns over a vertical line of its page (left and right swap): long
    edge (or by hand, like a book page) on a portrait page, short edge on a landscape one."""
    return (duplex != "short") == (plan.page_h >= plan.page_w)


def back_footer_y(plan: SheetPlan, vertical: bool) -> float:
    """The footer's baseline on a backs page: where the fronts' footer band lies once the
    sheet is turned over, so that it never prints over a back. Turned over a vertical line
    the band stays at the foot; over a horizontal line it is at the top of the backs page."""
    if vertical:
        return plan.footer_y
    return plan.page_h - plan.margin - plan.footer_h + footer_baseline(plan.footer_h)


def turned_over(turn: int, vertical: bool) -> int:
    """How a back is turned on its page so that its top edge is its front's top edge, as in
    printshop.pdf (both faces upright, the card turned over its own vertical axis).

    The sheet is turned over a `vertical` line of the page (long-edge duplex on a portrait page,
    a fold down the middle) or a horizontal one: seen from behind, a turn of the front by
    `turn` degrees counter-clockwise is a turn by -turn (vertical axis) or 180 - turn
    (horizontal axis: what was the page's top is now its bottom).
    """
    return (-turn if vertical else 180 - turn) % 360


FOLD_ROOM = 2.0  # mm between a fold and the nearest mark or footer: no mark on the crease


def fold_plan(paper, card, bleed=3.0, margin=5.0, footer=7.0,
              mode: str = "bleed") -> tuple[SheetPlan, tuple[Slot, ...], Mark]:
    """Fronts and backs on one sheet: fold it along the middle and glue, no duplex needed.

    Two folds are tried and the one holding more cards wins (`plan_sheet`'s ranking): across
    a vertical line at page_w / 2 (fronts on the left half, backs on the right) and across a
    horizontal line at page_h / 2 (fronts on the top half, backs below: the landscape fold, a
    portrait sheet read sideways). Each half is laid out like a sheet of its own: cards and
    marks keep `margin` from the paper's edges and FOLD_ROOM from the fold (the printer prints
    there; the crease stays clear of marks); the backs are the fronts mirrored across the fold
    line, which is where folding puts them. Returns (plan of the
    fronts on the full page, incl. marks and the footer line; back slots; fold line (x1, y1,
    x2, y2), inside the margins and clear of the footer band).
    """
    pw, ph = paper
    options = []
    for vertical in (True, False):
        edges = (margin, margin, FOLD_ROOM, margin) if vertical else \
            (margin, FOLD_ROOM, margin, margin)
        try:
            half = plan_sheet((pw / 2, ph) if vertical else (pw, ph / 2), card, bleed, edges,
                              footer, mode=mode)
        except ValueError:
            continue
        options.append((_fold_rank(half, mode), vertical, half))
    if not options:
        raise ValueError(f"fold-over layout: a {card[0]:g} x {card[1]:g} mm card does not fit "
                         f"on the sheet: neither half of {pw:g} x {ph:g} mm holds it, upright "
                         f"or turned")
    _, vertical, half = max(options, key=lambda option: option[:2])
    if vertical:
        plan = replace(half, page_w=pw)
        backs = tuple(Slot(s.index, pw - s.x - plan.card_w, s.y, turned_over(s.turn, True))
                      for s in plan.slots)
        return plan, backs, (pw / 2, margin + plan.footer_h, pw / 2, ph - margin)
    # horizontal fold: the half's layout moved to the top half; its footer band lies along the
    # fold (cut away with the gutter), the backs below mirror the fronts across the fold
    up = ph / 2
    plan = replace(half, page_h=ph, footer_y=half.footer_y + up,
                   slots=tuple(Slot(s.index, s.x, s.y + up, s.turn) for s in half.slots),
                   marks=tuple((x1, y1 + up, x2, y2 + up) for x1, y1, x2, y2 in half.marks))
    backs = tuple(Slot(s.index, s.x, ph - s.y - plan.card_h, turned_over(s.turn, False))
                  for s in plan.slots)
    return plan, backs, (margin, up, pw - margin, up)


def _fold_rank(half: SheetPlan, mode: str) -> tuple:
    """plan_sheet's order among finished half sheets: bleed kept (mode bleed), marks inside
    the margin, count."""
    return (half.keeps_bleed if mode == "bleed" else True, half.marked, len(half.slots),
            half.keeps_bleed)


def calibration_targets(plan: SheetPlan) -> tuple[tuple[float, float], ...]:
    """Card centres of the four corner slots, then the centre of the grid.

    Measured front against back, the centre gives the printer's x/y offset; the corners show
    whether it also rotates or scales. Coinciding points (one row or column) appear once.
    """
    s, w, h = plan.slots, plan.card_w, plan.card_h
    corners = (s[0], s[plan.cols - 1], s[-plan.cols], s[-1])
    points = [(c.x + w / 2, c.y + h / 2) for c in corners]
    points.append(((s[0].x + s[-1].x + w) / 2, (s[-1].y + s[0].y + h) / 2))
    out: list[tuple[float, float]] = []
    for p in points:
        if all(abs(p[0] - q[0]) > 1e-9 or abs(p[1] - q[1]) > 1e-9 for q in out):
            out.append(p)
    return tuple(out)
