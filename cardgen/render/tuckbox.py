"""tuckbox.pdf: a tuck box for each deck (the cards that share a back), one page each.

The net comes from layout.tuckbox; here it is drawn: the walls, lid and bottom in the back's
colour, the deck's own back on the front and the back wall, the title on the lid and the
sides, the deck and its count on the bottom; then the solid cut line, the dotted fold lines and
the hatched glue flap, and a line of instructions under the net.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor, black, white

from ..layout.tuckbox import TuckBox, place_on_page, plan_tuckbox
from ..text.fonts import face_name
from ..units import MM, PAPER
from .pdf import Sink, new_canvas

CUT_WIDTH = 0.6    # pt
FOLD_WIDTH = 0.5   # pt
FOLD_DASH = (1.2 * MM, 1.2 * MM)


def deck_colour(face) -> str:
    """The colour of a back: the fill of its first filled box (its background)."""
    for box in face.boxes:
        if box.fill not in (None, "none") and box.region.type in ("rect", "portrait"):
            return box.fill
    return "#FFFFFF"


def _on(colour: str) -> object:
    """Black or white, whichever reads on `colour`."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return black if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else white


def tuckbox_pdf(decks: list[tuple[str, int, object]], painter, card_size, paper: str,
                margin: float, stock: float, title: str, meta: dict[str, str],
                words: dict[str, str]) -> bytes:
    """decks: (name, number of cards, back face). Raises ValueError when a box does not fit
    the paper (the pipeline says so as a diagnostic)."""
    page = PAPER[paper]
    buffer = Sink()
    canvas = new_canvas(buffer, (page[0] * MM, page[1] * MM), meta)
    painter.begin(canvas)
    for name, count, back in decks:
        box = plan_tuckbox(card_size, count, stock)
        x, y, turned = place_on_page(box, page, margin)
        canvas.saveState()
        if turned:
            canvas.translate((x + box.size[1]) * MM, y * MM)
            canvas.rotate(90)
        else:
            canvas.translate(x * MM, y * MM)
        _draw(canvas, painter, box, back, title, name, words)
        canvas.restoreState()
        _instructions(canvas, page, margin, y if not turned else (page[1] - box.size[0]) / 2,
                      words)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _path(canvas, points):
    path = canvas.beginPath()
    path.moveTo(points[0][0] * MM, points[0][1] * MM)
    for px, py in points[1:]:
        path.lineTo(px * MM, py * MM)
    path.close()
    return path


def _draw(canvas, painter, box: TuckBox, back, title: str, deck: str, words) -> None:
    colour = deck_colour(back)
    ink = _on(colour)
    canvas.saveState()
    canvas.clipPath(_path(canvas, box.outline), stroke=0, fill=0)
    canvas.setFillColor(HexColor(colour))
    canvas.rect(0, 0, box.size[0] * MM, box.size[1] * MM, stroke=0, fill=1)
    for name in ("front", "back"):  # the deck's back, 0.5 mm of its bleed to each edge
        panel = box.panel(name)
        painter.draw_shared(canvas, back, (panel.x + 0.5) * MM, (panel.y + 0.5) * MM, 0.5)
    glue = box.panel("glue")
    canvas.setFillColor(white)
    canvas.rect(glue.x * MM, glue.y * MM, glue.w * MM, glue.h * MM, stroke=0, fill=1)
    canvas.setStrokeColor(HexColor("#9A9A9A"))
    canvas.setLineWidth(0.4)
    for step in range(0, int(glue.h) + int(glue.w), 3):  # the glue flap hatched
        canvas.line(glue.x * MM, (glue.y + step) * MM, (glue.x + glue.w) * MM,
                    (glue.y + step - glue.w) * MM)
    canvas.restoreState()
    _texts(canvas, box, title, deck, words, ink)
    canvas.saveState()
    canvas.setStrokeColor(black)
    canvas.setLineWidth(CUT_WIDTH)
    canvas.drawPath(_path(canvas, box.outline), stroke=1, fill=0)
    canvas.setDash(*FOLD_DASH)
    canvas.setLineWidth(FOLD_WIDTH)
    canvas.setStrokeColor(HexColor("#6E6E6E") if ink == black else HexColor("#D8D8D8"))
    for x1, y1, x2, y2 in box.folds:
        canvas.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    canvas.restoreState()


def _fitted(text: str, font: str, size: float, room: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth
    while size > 5 and stringWidth(text, font, size) > room:
        size -= 0.5
    return size


def _texts(canvas, box: TuckBox, title: str, deck: str, words, ink) -> None:
    bold, regular = face_name("sans-bold"), face_name("sans")
    canvas.saveState()
    canvas.setFillColor(ink)
    lid = box.panel("lid")
    size = _fitted(title, bold, min(12, lid.h * MM * 0.45), (lid.w - 6) * MM)
    canvas.setFont(bold, size)
    canvas.drawCentredString((lid.x + lid.w / 2) * MM, (lid.y + lid.h / 2) * MM - size * 0.35,
                             title)
    for name in ("side-left", "side-right"):  # up the sides, read with the box lying down
        side = box.panel(name)
        size = _fitted(title, bold, min(11, side.w * MM * 0.5), (side.h - 8) * MM)
        canvas.saveState()
        canvas.translate((side.x + side.w / 2) * MM + size * 0.35, (side.y + side.h / 2) * MM)
        canvas.rotate(90)
        canvas.setFont(bold, size)
        canvas.drawCentredString(0, 0, title)
        canvas.restoreState()
    bottom = box.panel("bottom")
    line = f"{deck} · {box.cards} {words.get('cards_word', 'cards')}" if deck else \
        f"{box.cards} {words.get('cards_word', 'cards')}"
    size = _fitted(line, regular, min(8, bottom.h * MM * 0.4), (bottom.w - 4) * MM)
    canvas.setFont(regular, size)
    canvas.drawCentredString((bottom.x + bottom.w / 2) * MM,
                             (bottom.y + bottom.h / 2) * MM - size * 0.35, line)
    glue = box.panel("glue")
    canvas.setFillColor(HexColor("#555555"))
    canvas.saveState()
    canvas.translate((glue.x + glue.w / 2) * MM + 2, (glue.y + glue.h / 2) * MM)
    canvas.rotate(90)
    canvas.setFont(regular, 6)
    canvas.drawCentredString(0, 0, words.get("board_glue", "glue"))
    canvas.restoreState()
    canvas.restoreState()


def _instructions(canvas, page, margin: float, net_bottom: float, words) -> None:
    """The folding instructions in the space under the net (when there is any)."""
    text = words.get("tuck_how", "")
    room = net_bottom - margin
    if not text or room < 4:
        return
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph
    style = ParagraphStyle("tuck", fontName=face_name("sans"), fontSize=7.5, leading=9.5)
    para = Paragraph(text, style)
    width = (page[0] - 2 * margin - 10) * MM
    _, h = para.wrap(width, room * MM)
    if h <= (room - 1) * MM:
        para.drawOn(canvas, (margin + 5) * MM, (net_bottom - 1) * MM - h)
