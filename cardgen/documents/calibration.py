"""calibration.pdf: a sheet a family can use without a manual to find the printer's back offset.

The front has crosses at the corner cards and the centre; the back, printed on the reverse,
has a ruler through each of those places, numbered every millimetre. Held against the light
with the back towards you, the front's cross shows through: where it falls on the two rulers
is the offset. Plus is to the right and up as seen on the back, which is the direction the
backs are then moved (layout.sheet.back_slots). The words say all this on the sheet itself;
the command-line flag is in small print for those who use it.
"""

from __future__ import annotations

import io
from dataclasses import replace

from reportlab.lib.colors import HexColor, black, white
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from ..layout.sheet import calibration_targets
from ..text.fonts import face_name
from ..render.pdf import trim_marks, new_canvas, sheet_layout
from .rulebook.style import register_families
from ..units import MM, PAPER

SCALE = 5       # the rulers run from -SCALE to +SCALE mm
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
    for side, slots in (("front", plan.slots), ("back", backs)):
        for index, slot in enumerate(slots):
            canvas.setStrokeColor(black)
            canvas.setLineWidth(0.3)
            canvas.rect(slot.x * MM, slot.y * MM, plan.card_w * MM, plan.card_h * MM)
            cx = (slot.x + plan.card_w / 2) * MM
            cy = (slot.y + plan.card_h / 2) * MM
            if index in aimed:
                (_target if side == "front" else _rulers)(canvas, cx, cy, words)
        _instructions(canvas, [slots[i] for i in free], plan, texts[side], words, side)
        if side == "front":
            trim_marks(canvas, plan)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


ARM = 20 * MM   # the front cross's arms: long enough to cross both rulers at any offset
AWAY = 11 * MM  # the rulers sit this far from the centre, so their numbers never collide


def _target(canvas, cx: float, cy: float, words) -> None:
    canvas.circle(cx, cy, 2 * MM)
    canvas.line(cx - ARM, cy, cx + ARM, cy)
    canvas.line(cx, cy - ARM, cx, cy + ARM)


def _rulers(canvas, cx: float, cy: float, words) -> None:
    """An X ruler below the centre and a Y ruler right of it, each through the place where the
    front cross's arm will show; a number at every mm, on alternating sides (2 mm apart at
    6 pt), plus marked by arrows."""
    font, bold = face_name("sans"), face_name("sans-bold")
    canvas.saveState()
    canvas.setLineWidth(0.3)
    xr, yr = cy - AWAY, cx + AWAY  # the X ruler's line (y), the Y ruler's line (x)
    canvas.line(cx - SCALE * MM, xr, cx + SCALE * MM, xr)
    canvas.line(yr, cy - SCALE * MM, yr, cy + SCALE * MM)
    canvas.setFont(font, NUMBERS)
    for value in range(-SCALE, SCALE + 1):
        tick = (1.6 if value == 0 else 1.0) * MM
        canvas.line(cx + value * MM, xr - tick, cx + value * MM, xr + tick)
        canvas.line(yr - tick, cy + value * MM, yr + tick, cy + value * MM)
        text = f"{value:+d}" if value else "0"
        side = -1 if value % 2 == 0 else 1  # even below / left, odd above / right
        canvas.saveState()  # X numbers turned upright so that 1 mm apart they stay apart
        canvas.translate(cx + value * MM + NUMBERS * 0.35, xr + side * 2.0 * MM)
        canvas.rotate(90)
        (canvas.drawRightString if side < 0 else canvas.drawString)(0, 0, text)
        canvas.restoreState()
        y = cy + value * MM - NUMBERS * 0.35
        if side < 0:
            canvas.drawRightString(yr - 2.0 * MM, y, text)
        else:
            canvas.drawString(yr + 2.0 * MM, y, text)
    canvas.setFont(bold, 7)
    canvas.setFillColor(ACCENT)
    canvas.drawString(cx + (SCALE + 1.5) * MM, xr - 2.4, f"X: {words['calibration_plus']} →")
    canvas.drawCentredString(yr, cy + (SCALE + 1.8) * MM, f"Y: {words['calibration_plus']} ↑")
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
