"""PDF documents: card sheets with duplex backs, print-shop pages (the calibration sheet is
render/calibration.py: the same sheet layout, with rulers and instructions).

Every document is built in memory and returned as bytes; writing is the write stage's job.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace

from reportlab.lib.colors import black
from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from ..layout.card import CardFace
from ..layout.sheet import (PAPER, SheetPlan, back_footer_y, back_slots, fold_plan,
                            plan_sheet, turns_over_vertical)
from .card import CardPainter
from ..text.fonts import face_name
from ..units import MM

MARK_WIDTH = 0.5  # pt; crop marks must be at least 0.25 pt to survive printing


@dataclass
class Printed:
    """One physical card to print: its front and back faces."""

    card_id: str
    front: CardFace
    back: CardFace


def new_canvas(buffer, size_pt, meta: dict[str, str]) -> Canvas:
    """A canvas that embeds only our fonts and produces the same bytes for the same input."""
    rl_config.useA85 = 0  # binary compressed streams: smaller and faster than ASCII85 text
    canvas = Canvas(buffer, pagesize=size_pt, invariant=1, pageCompression=1,
                    initialFontName=face_name("sans"), initialFontSize=10)
    canvas.setTitle(meta.get("title", ""))
    canvas.setAuthor(meta.get("author", ""))
    canvas.setSubject(meta.get("subject", ""))
    canvas.setCreator("cardgen")
    canvas.setProducer("cardgen (reportlab)")
    canvas.setKeywords(meta.get("keywords", ""))
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


class Sink:
    """Where a canvas saves its PDF: the bytes reportlab made, kept as they are. A BytesIO
    would copy them twice (write, getvalue): 20 MB at the peak of a 1040-card printshop.pdf."""

    name = "<memory>"
    data = b""

    def write(self, data: bytes) -> None:
        self.data = data

    def getvalue(self) -> bytes:
        return self.data


@dataclass(frozen=True)
class SheetSpec:
    """How cards.pdf is imposed: paper, duplex, the printer's offset and margin, sheet mode."""

    paper: str = "a4"
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    mode: str = "bleed"    # "bleed": every card keeps its bleed; "dense": the most cards
    margin: float = 5.0    # mm the printer cannot print at the paper's edge
    backs: bool = True     # False: fronts only (sleeves over real cards, one-sided printing)


def sheet_layout(spec: SheetSpec, card_size, bleed: float):
    """(plan, back slots, fold line or None) of cards.pdf — and of the calibration sheet, so
    an offset measured on one holds for the other."""
    page = PAPER[spec.paper]
    if spec.duplex == "fold":
        return fold_plan(page, card_size, bleed, spec.margin, mode=spec.mode)
    plan = plan_sheet(page, card_size, bleed, spec.margin, mode=spec.mode)
    return plan, back_slots(plan, spec.duplex, spec.back_offset), None


def place(canvas, painter: CardPainter, face: CardFace, plan: SheetPlan, slot,
          shared: bool = False) -> None:
    """Draw one face in its slot, turned by the slot's `turn` (degrees counter-clockwise) about
    the slot: a front lying sideways turns a quarter turn, its back the turn that keeps its top
    at the front's top once the sheet is turned over (layout.sheet.turned_over)."""
    draw = painter.draw_shared if shared else painter.draw
    if not slot.turn:
        draw(canvas, face, slot.x * MM, slot.y * MM, plan.bleed)
        return
    # where the face's own lower-left corner lands inside the slot, for each turn
    corner = {90: (plan.card_w, 0), 180: (plan.card_w, plan.card_h), 270: (0, plan.card_h)}
    dx, dy = corner[slot.turn]
    canvas.saveState()
    canvas.translate((slot.x + dx) * MM, (slot.y + dy) * MM)
    canvas.rotate(slot.turn)
    draw(canvas, face, 0, 0, plan.bleed)
    canvas.restoreState()


def card_sheets(cards: list[Printed], painter: CardPainter, spec: SheetSpec, card_size,
                bleed: float, meta: dict[str, str], footer_text: str,
                side_names: tuple[str, str] = ("fronts", "backs"), guide=None) -> bytes:
    """cards.pdf: fronts page, then its backs page (duplex) — or fronts and backs side by side;
    fronts pages alone when `spec.backs` is False.

    `guide`, when given, draws the print guide as the first page: guide(canvas, plan, pages).
    """
    duplex = spec.duplex
    page = PAPER[spec.paper]
    buffer = Sink()
    canvas = new_canvas(buffer, (page[0] * MM, page[1] * MM), meta)
    painter.begin(canvas)
    if duplex in ("long", "short") and spec.backs:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long"
                                   else "DuplexFlipShortEdge")
    plan, backs, fold_line = sheet_layout(spec, card_size, bleed)
    per_sheet = len(plan.slots)
    sheets = [cards[i:i + per_sheet] for i in range(0, len(cards), per_sheet)] or [[]]
    total = len(sheets) * (2 if spec.backs and duplex != "fold" else 1)
    if guide is not None:
        guide(canvas, plan, total)
    number = 0
    for sheet in sheets:
        number += 1
        for slot, item in zip(plan.slots, sheet):
            place(canvas, painter, item.front, plan, slot)
        if duplex == "fold":
            for slot, item in zip(backs, sheet):
                place(canvas, painter, item.back, plan, slot, shared=True)
            _fold_line(canvas, fold_line)
        trim_marks(canvas, plan)
        _footer(canvas, plan, f"{footer_text} · {side_names[0]}" if duplex != "fold" else footer_text,
                number, total, plan.footer_y)
        canvas.showPage()
        if duplex == "fold" or not spec.backs:
            continue
        number += 1
        for slot, item in zip(backs, sheet):
            place(canvas, painter, item.back, plan, slot, shared=True)
        _footer(canvas, plan, f"{footer_text} · {side_names[1]}", number, total,
                back_footer_y(plan, turns_over_vertical(plan, duplex)))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def trim_marks(canvas, plan: SheetPlan) -> None:
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(MARK_WIDTH)
    for x1, y1, x2, y2 in plan.marks:
        canvas.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    canvas.restoreState()


def _fold_line(canvas, line) -> None:
    x1, y1, x2, y2 = line
    canvas.saveState()
    canvas.setDash(4, 3)
    canvas.setLineWidth(0.5)
    canvas.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    canvas.restoreState()


FOOTER_INSET = 5.0  # mm inside the margin where the footer's text begins and its bar ends


def _footer(canvas, plan: SheetPlan, text: str, number: int, total: int, baseline: float) -> None:
    """Pack and page, and a 50 mm scale bar: a user sees at once if the printer rescaled.

    In the footer band (layout.sheet), inside the margin; a text too long for the room left
    of the bar shrinks to 5 pt, then loses its end ("…"), never running into the bar."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    y = baseline * MM
    canvas.saveState()
    font = face_name("sans")
    left = (plan.margin + FOOTER_INSET) * MM
    bar_x = (plan.page_w - plan.margin - FOOTER_INSET - 50) * MM
    label_w = stringWidth("50 mm:", font, 6) + 2
    room = bar_x - label_w - 3 * MM - left
    line, size = f"{text} — {number}/{total}", 7.0
    while size > 5 and stringWidth(line, font, size) > room:
        size -= 0.5
    tail = f" — {number}/{total}"
    while stringWidth(line, font, size) > room and len(text) > 1:
        text = text[:-1]
        line = f"{text.rstrip()}…{tail}"
    canvas.setFont(font, size)
    canvas.setFillColor(black)
    canvas.drawString(left, y, line)
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.5)
    canvas.line(bar_x, y + 1, bar_x + 50 * MM, y + 1)
    for tick in range(0, 51, 10):
        canvas.line(bar_x + tick * MM, y + 1, bar_x + tick * MM, y + 1 + (4 if tick % 50 == 0
                                                                          else 2.5))
    canvas.setFont(font, 6)
    canvas.drawRightString(bar_x - 2, y, "50 mm:")
    canvas.restoreState()


def printshop_faces(cards: list[Printed], order: str = "sides") -> list[tuple[int, bool]]:
    """(card index, is back) of every page of printshop.pdf, in the shop's page order:
    "sides" = all fronts, then all backs; "back-front" = each card's back, then its front;
    "fronts" / "backs" = only those (a shop that takes the two sides as two files)."""
    n = range(len(cards))
    if order == "back-front":
        return [(i, back) for i in n for back in (True, False)]
    if order in ("fronts", "backs"):
        return [(i, order == "backs") for i in n]
    return [(i, False) for i in n] + [(i, True) for i in n]


def printshop(cards: list[Printed], painter: CardPainter, card_size, bleed: float,
              meta: dict[str, str], order: str = "sides") -> bytes:
    """One card per page at trim + bleed, no marks; TrimBox and BleedBox set on every page."""
    w, h = card_size
    page = ((w + 2 * bleed) * MM, (h + 2 * bleed) * MM)
    buffer = Sink()
    canvas = new_canvas(buffer, page, meta)
    painter.begin(canvas)
    for index, back in printshop_faces(cards, order):
        canvas.setBleedBox((0, 0, page[0], page[1]))
        canvas.setTrimBox((bleed * MM, bleed * MM, (w + bleed) * MM, (h + bleed) * MM))
        draw = painter.draw_shared if back else painter.draw
        draw(canvas, cards[index].back if back else cards[index].front, bleed * MM, bleed * MM,
             bleed)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()

