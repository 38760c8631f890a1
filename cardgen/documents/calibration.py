"""calibration.pdf: a sheet a family can use without a manual to find the printer's back offset.

The front has a target at the corner cards and the centre; the back, printed on the reverse,
has two rulers at each of those places, numbered every millimetre. Held against the light
with the back towards you, the front's vernier scales show through beside the rulers: the
long tick says the whole millimetres, the short tick that lines up with a ruler's tick the
tenths (10 ticks 0.9 mm apart against the ruler's 1 mm: a vernier, as on a calliper), so the
offset reads to 0.1 mm instead of a guess between two ticks. Plus is to the right and up as
seen on the back, which is the direction the backs are then moved (layout.sheet.back_slots).
The words say all this on the sheet itself; the command-line flag is in small print for those
who use it.
"""

from __future__ import annotations

import io
from dataclasses import replace

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from ..layout.sheet import calibration_targets, turns_over_vertical
from ..text.fonts import face_name
from ..render.pdf import trim_marks, new_canvas, sheet_layout
from .rulebook.style import register_families
from ..units import MM, PAPER

SCALE = 5       # the offsets read: -SCALE to +SCALE mm
VERNIER = 10    # the vernier's divisions: VERNIER ticks (VERNIER - 1) / VERNIER mm apart
PITCH = (VERNIER - 1) / VERNIER  # mm between two vernier ticks: 0.9
REACH = SCALE + VERNIER          # the rulers run from -SCALE to +REACH mm: under every tick
NUMBERS = 6.0   # pt: the size of the ruler's numbers
ACCENT = HexColor("#1e3d5c")


def calibration(spec, card_size, bleed: float, meta: dict[str, str],
                words: dict[str, str]) -> bytes:
    """Front targets and back rulers on one duplex sheet, with the instructions in words.

    The sheet is cards.pdf's duplex sheet (render.pdf.sheet_layout: the same slots), so the
    offset read here is the one its backs need."""
    duplex = spec.duplex
    page = PAPER[spec.paper]
    plan, backs, _ = sheet_layout(replace(spec, duplex=duplex if duplex in ("long", "short")
                                          else "long"), card_size, bleed)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (page[0] * MM, page[1] * MM), meta)
    canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge" if duplex == "short"
                               else "DuplexFlipLongEdge")
    targets = set(calibration_targets(plan))
    aimed = [i for i, slot in enumerate(plan.slots)
             if (slot.x + plan.card_w / 2, slot.y + plan.card_h / 2) in targets]
    free = [i for i in range(len(plan.slots)) if i not in aimed]
    texts = {"front": [words["calibration_front"]],
             "back": [words["calibration_back"], words["calibration_write"]]}
    vertical = turns_over_vertical(plan, duplex if duplex in ("long", "short") else "long")
    for side, slots in (("front", plan.slots), ("back", backs)):
        for index, slot in enumerate(slots):
            canvas.setStrokeColor(black)
            canvas.setLineWidth(0.3)
            canvas.rect(slot.x * MM, slot.y * MM, plan.card_w * MM, plan.card_h * MM)
            cx = (slot.x + plan.card_w / 2) * MM
            cy = (slot.y + plan.card_h / 2) * MM
            if index in aimed and side == "front":
                _target(canvas, cx, cy, page, vertical)
            elif index in aimed:
                _rulers(canvas, cx, cy, words)
        _instructions(canvas, [slots[i] for i in free], plan, texts[side], words, side)
        if side == "front":
            trim_marks(canvas, plan)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


ARM = 3.5 * MM  # the front cross's arms: where the target is, at a glance
BELOW = 13 * MM  # the X ruler's line below the centre
RIGHT = (REACH + 4) * MM  # the Y ruler's line right of the centre: clear of the X numbers
TICK = 1.0 * MM  # a ruler's or a vernier's tick; 0 and every fifth are longer
LINE = 0.3       # pt


def _target(canvas, cx: float, cy: float, page, vertical: bool) -> None:
    """A small cross on the front, and the two vernier scales that show through the paper
    beside the back's rulers. They are drawn as seen from the back: the page mirrored across
    the line the sheet turns over (so the back's ruler and the vernier meet, and the vernier's
    numbers read the right way round through the paper)."""
    canvas.saveState()
    canvas.circle(cx, cy, 2 * MM)
    canvas.line(cx - ARM, cy, cx + ARM, cy)
    canvas.line(cx, cy - ARM, cx, cy + ARM)
    if vertical:  # seen from the back, x runs the other way
        canvas.translate(page[0] * MM, 0)
        canvas.scale(-1, 1)
        cx = page[0] * MM - cx
    else:
        canvas.translate(0, page[1] * MM)
        canvas.scale(1, -1)
        cy = page[1] * MM - cy
    canvas.setLineWidth(LINE)
    canvas.setFont(face_name("sans"), NUMBERS)
    xr, yr = cy - BELOW, cx + RIGHT  # the X ruler's line (y), the Y ruler's line (x)
    for k in range(VERNIER + 1):
        length = 2 * TICK if k in (0, VERNIER) else (1.5 * TICK if k % 5 == 0 else TICK)
        at = k * PITCH * MM
        canvas.line(cx + at, xr, cx + at, xr - length)     # below the X ruler
        canvas.line(yr, cy + at, yr - length, cy + at)     # left of the Y ruler
        if k % 5 == 0:
            canvas.drawCentredString(cx + at, xr - length - 0.9 * NUMBERS, str(k))
            canvas.drawRightString(yr - length - 0.6 * MM, cy + at - NUMBERS * 0.35, str(k))
    canvas.restoreState()


def _rulers(canvas, cx: float, cy: float, words) -> None:
    """An X ruler below the centre and a Y ruler right of it, at the places where the front's
    verniers show through: ticks on the ruler's far side (the vernier's meet them from the
    near side), a number at every mm in two staggered rows (2 mm apart in a row at 6 pt),
    plus marked by arrows."""
    font, bold = face_name("sans"), face_name("sans-bold")
    canvas.saveState()
    canvas.setLineWidth(LINE)
    xr, yr = cy - BELOW, cx + RIGHT  # the X ruler's line (y), the Y ruler's line (x)
    canvas.line(cx - SCALE * MM, xr, cx + REACH * MM, xr)
    canvas.line(yr, cy - SCALE * MM, yr, cy + REACH * MM)
    canvas.setFont(font, NUMBERS)
    for value in range(-SCALE, REACH + 1):
        tick = 2 * TICK if value == 0 else (1.5 * TICK if value % 5 == 0 else TICK)
        canvas.line(cx + value * MM, xr, cx + value * MM, xr + tick)
        canvas.line(yr, cy + value * MM, yr + tick, cy + value * MM)
        text = f"{value:+d}" if value else "0"
        row = (2.3 if value % 2 == 0 else 6.6) * MM  # even next to the ruler, odd further
        canvas.saveState()  # X numbers turned upright so that 1 mm apart they stay apart
        canvas.translate(cx + value * MM + NUMBERS * 0.35, xr + row)
        canvas.rotate(90)
        canvas.drawString(0, 0, text)
        canvas.restoreState()
        canvas.drawString(yr + row, cy + value * MM - NUMBERS * 0.35, text)
    canvas.setFont(bold, 7)
    canvas.setFillColor(ACCENT)
    canvas.drawRightString(cx - (SCALE + 1.5) * MM, xr - 0.8 * MM,
                           f"X: {words['calibration_plus']} →")
    canvas.drawCentredString(yr, cy + (REACH + 2) * MM, f"Y: {words['calibration_plus']} ↑")
    canvas.restoreState()


def _instructions(canvas, free, plan, texts: list[str], words, side: str) -> None:
    """The instructions in the free card places (or, without any, along the footer); on the
    back the flag in small print at the bottom."""
    register_families()  # <b> in the words picks our bold face
    style = ParagraphStyle("calibration", fontName=face_name("sans"), fontSize=7.5,
                           leading=9.6, textColor=black)
    small = ParagraphStyle("flag", parent=style, fontSize=6, leading=7.4,
                           textColor=HexColor("#55606b"))
    pad = 3 * MM
    if not free:
        canvas.setFont(face_name("sans"), 7.5)
        canvas.drawString(10 * MM, plan.footer_y * MM, " ".join(texts))
        return
    for slot, text in zip(free, texts):
        para = Paragraph(text, style)
        _, h = para.wrap(plan.card_w * MM - 2 * pad, plan.card_h * MM)
        para.drawOn(canvas, slot.x * MM + pad, (slot.y + plan.card_h) * MM - pad - h)
    if side == "back":
        slot = free[-1] if len(free) > len(texts) else free[0]
        para = Paragraph(words["calibration_flag"], small)
        _, h = para.wrap(plan.card_w * MM - 2 * pad, plan.card_h * MM)
        para.drawOn(canvas, slot.x * MM + pad, slot.y * MM + pad)
    canvas.setFillColor(white)
