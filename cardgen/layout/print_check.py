"""Print settings that cannot work together: found before layout, not as a traceback while the
sheets are drawn.

Why: each value may be fine on its own (a 300 x 400 mm card, A4 paper, a 20 mm back offset, a
1200 dpi PNG) and still the combination cannot be printed. The settings come from pack.yaml's
`print`, the user's settings file and the command line, so the diagnostic is put at pack.yaml's
`print` (or its first line) and names the options too.
"""

from __future__ import annotations

import dataclasses

from ..diagnostics import Report
from .sheet import back_slots, fold_plan, plan_sheet
from ..units import MM, PAPER

MAX_PNG_PIXELS = 64_000_000  # one card's PNG; beyond this a raster needs gigabytes of memory


def check_print(data, settings, wanted: set[str], report: Report) -> None:
    """Add one error per combination of print settings that cannot be printed."""
    printing = data.pack.print
    card = settings.card_size or printing.size()
    bleed = settings.bleed if settings.bleed is not None else printing.bleed
    safe = settings.safe if settings.safe is not None else printing.safe
    paper = settings.paper or printing.paper
    duplex = settings.duplex or printing.duplex
    offset = settings.back_offset or printing.back_offset
    problems = []
    if 2 * safe >= min(card):
        problems.append(f"a {safe:g} mm safe zone (--safe, print.safe) leaves no room for text "
                        f"on a {card[0]:g} x {card[1]:g} mm card")
    if wanted & {"cards", "calibration"}:
        problems.extend(_sheet_problems(PAPER[paper], card, bleed, duplex, offset, paper,
                                        settings.margin, settings.sheet))
    if "png" in wanted:
        extra = 2 * bleed if settings.png_bleed else 0
        px = [round((side + extra) / 25.4 * settings.dpi) for side in card]
        if px[0] * px[1] > MAX_PNG_PIXELS:
            problems.append(f"--dpi {settings.dpi} makes {px[0]} x {px[1]} px PNGs of a "
                            f"{card[0]:g} x {card[1]:g} mm card; at most "
                            f"{MAX_PNG_PIXELS // 1_000_000} million pixels: lower --dpi")
    if not problems and tuple(card) != tuple(printing.size()):
        problems.extend(_shrunk_layouts(data, card, safe))
    mark = data.pack_raw.value_marks.get("print") or data.pack_raw.mark
    for problem in problems:
        report.error(data.pack_file, mark.line, mark.col, "", f"print: {problem}")


def _sheet_problems(page, card, bleed, duplex, offset, paper, margin=None,
                    mode="bleed") -> list[str]:
    """The card does not fit the paper, or the back offset pushes backs off the sheet."""
    margin = 5.0 if margin is None else margin  # the sheets' own default (--margin)
    try:
        if duplex == "fold":
            fold_plan(page, card, bleed, margin, mode=mode)
            return []
        plan = plan_sheet(page, card, bleed, margin, mode=mode)
    except ValueError as exc:
        return [f"{exc} ({paper}; choose a larger --paper or a smaller --card-size)"]
    for slot in back_slots(plan, duplex, offset):
        b = plan.bleed
        # the card as it lies on the sheet: turned cards swap width and height
        if slot.x - b < 0 or slot.y - b < 0 or slot.x + plan.card_w + b > page[0] or \
                slot.y + plan.card_h + b > page[1]:
            return [f"a back offset of {offset[0]:g}, {offset[1]:g} mm (--back-offset, "
                    f"print.back_offset) pushes the backs off the {paper} sheet; print "
                    "--only calibration and measure it again"]
    return []


def _shrunk_layouts(data, card: tuple[float, float], safe: float) -> list[str]:
    """A card size (--card-size) so much smaller than a layout was drawn for that one of its
    text regions no longer holds a single line of its smallest type: every card would fail the
    same way, so it is said once per layout, with the smallest card size that works."""
    problems = []
    for name in sorted({k.front for k in data.pack.kinds} | {k.back for k in data.pack.kinds}):
        layout = data.layouts.get(name)
        if layout is None:
            continue
        own = tuple(layout.size or data.pack.print.size())
        low = _too_low(data, layout, own, card, safe)
        if not low:
            continue
        region, h, smallest = low[0]
        least, high = min(card[0] / own[0], card[1] / own[1]), 1.0
        for _ in range(30):  # the smallest share of its own size at which every line fits
            middle = (least + high) / 2
            size = (own[0] * middle, own[1] * middle)
            least, high = (least, middle) if not _too_low(data, layout, own, size, safe) \
                else (middle, high)
        problems.append(
            f"a {card[0]:g} x {card[1]:g} mm card (--card-size) shrinks the layout {name}, drawn "
            f"for {own[0]:g} x {own[1]:g} mm, until its {region} region is {h:.1f} mm high: too "
            f"low for one line of {smallest:g} pt text; choose a card of at least "
            f"{-(-own[0] * high // 1):g} x {-(-own[1] * high // 1):g} mm")
    return problems


def _too_low(data, layout, own, card, safe) -> list[tuple[str, float, float]]:
    """(region, its height in mm, its smallest type in pt) of each text region that holds a
    line at the layout's own size and not at `card`."""
    scaled = dataclasses.replace(layout, size=own).scaled_to(card, safe)
    low = []
    for name, region in layout.regions.items():
        if region.type not in ("text", "icon"):
            continue
        smallest = min(max(region.min_size, data.pack.print.min_font_size), region.size)
        h = scaled.regions[name].h
        if region.h * MM >= smallest and h * MM < smallest:
            low.append((name, h, smallest))
    return low


def check_print_shop(data, settings, report: Report) -> None:
    """A print shop cuts its own card size: a pack drawn for other proportions is stretched to
    it, which the designer should see before paying for a print run (a warning; an error with
    --strict). Equal proportions (a different scale only) pass."""
    from ..model.pack import PRINT_SHOPS
    from ..model.marks import mark_at
    shop = PRINT_SHOPS.get(settings.print_shop or "")
    if shop is None:
        return
    (w, h), (sw, sh) = data.pack.print.size(), shop.size
    if abs((sw / sh) / (w / h) - 1) <= 0.02:
        return
    fits = [name for name, other in PRINT_SHOPS.items() if tuple(other.size) == (w, h)]
    mark = mark_at(data.pack_raw, "print", "card_size")
    report.warning(data.pack_file, mark.line, mark.col, "", f"print.card_size: the cards are "
                   f"{w:g} x {h:g} mm, {shop.label} cuts {sw:g} x {sh:g} mm: every layout is "
                   f"stretched to {sw / w:.0%} of its width and {sh / h:.0%} of its height; "
                   f"look at the cards before ordering"
                   + (f" (or use --card-size {fits[0]})" if fits else ""))
