"""Draw a laid-out card face on a reportlab canvas. Decides nothing: layout already did."""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib.colors import HexColor as _parse_hex

from ..layout.card import Box, CardFace
from ..layout.stats import label_text, value_pieces
from .fonts import face_name, width
from .images import ImageStore
from .portrait import draw_portrait

MM = 72 / 25.4


@lru_cache(maxsize=1024)
def HexColor(value: str):  # noqa: N802 (reportlab's name) — parsed once per colour, not per box
    return _parse_hex(value)


class CardPainter:
    def __init__(self, card_size: tuple[float, float], bleed: float, icons: dict[str, str],
                 images: ImageStore):
        self.w, self.h = card_size
        self.bleed = bleed
        self.icons = icons
        self.images = images

    def draw_shared(self, canvas, face: CardFace, ox: float, oy: float, clip_bleed: float) -> None:
        """Draw a face printed many times (a deck's back) as one PDF form, placed each time:
        drawn once per document, so the file stays small and the build fast."""
        # the forms live on the canvas: a new document must define its own (an id() of a freed
        # canvas can come back for the next one)
        forms = canvas.__dict__.setdefault("_cardgen_forms", {})
        key = (id(face), clip_bleed)
        if key not in forms:
            name = f"shared{len(forms)}"
            b = clip_bleed * MM
            canvas.beginForm(name, -b, -b, self.w * MM + b, self.h * MM + b)
            self.draw(canvas, face, 0, 0, clip_bleed)
            canvas.endForm()
            forms[key] = (name, face)  # keeping the face keeps its id() unique
        canvas.saveState()
        canvas.translate(ox, oy)
        canvas.doForm(forms[key][0])
        canvas.restoreState()

    def draw(self, canvas, face: CardFace, ox: float, oy: float, clip_bleed: float) -> None:
        """Draw the face with its trim's lower-left corner at (ox, oy) points."""
        canvas.saveState()
        b = clip_bleed * MM
        path = canvas.beginPath()
        path.rect(ox - b, oy - b, self.w * MM + 2 * b, self.h * MM + 2 * b)
        canvas.clipPath(path, stroke=0, fill=0)
        for box in face.boxes:
            self._box(canvas, box, ox, oy)
        canvas.restoreState()

    def _rect(self, box: Box, ox: float, oy: float) -> tuple[float, float, float, float]:
        r = box.region
        return (ox + r.x * MM, oy + (self.h - r.y - r.h) * MM, r.w * MM, r.h * MM)

    def _box(self, canvas, box: Box, ox: float, oy: float) -> None:
        r = box.region
        x, y, w, h = self._rect(box, ox, oy)
        if r.type == "line":
            if box.stroke and box.stroke != "none":
                canvas.setStrokeColor(HexColor(box.stroke))
                canvas.setLineWidth(r.stroke_width)
                canvas.line(x, y + h, x + w, y)
            return
        # every box sets the colours it uses; the graphics state is saved only where a box
        # changes more than that (transparency, rotation)
        isolated = r.opacity < 1 or bool(r.rotate)
        if isolated:
            canvas.saveState()
        fill = box.fill not in (None, "none")
        stroke = box.stroke not in (None, "none")
        if fill or stroke:
            # alpha after the colour: reportlab resets it when a colour is set
            if fill:
                canvas.setFillColor(HexColor(box.fill))
                if r.opacity < 1:
                    canvas.setFillAlpha(r.opacity)
            if stroke:
                canvas.setStrokeColor(HexColor(box.stroke))
                if r.opacity < 1:
                    canvas.setStrokeAlpha(r.opacity)
                canvas.setLineWidth(r.stroke_width)
            if r.radius:
                canvas.roundRect(x, y, w, h, r.radius * MM, stroke=int(stroke), fill=int(fill))
            else:
                canvas.rect(x, y, w, h, stroke=int(stroke), fill=int(fill))
        if r.type == "portrait":
            if box.image:
                self.images.draw(canvas, box.image, x, y, w, h, r.radius * MM)
            else:
                draw_portrait(canvas, x, y, w, h, box.portrait_seed,
                              accent=box.fill if fill else "#88AACC", radius=r.radius * MM,
                              style=r.portrait_style, gender=box.portrait_gender,
                              age=box.portrait_age, hair=box.portrait_hair)
        elif r.type == "image" and box.image:
            self.images.draw(canvas, box.image, x, y, w, h, r.radius * MM)
        elif r.type in ("text", "icon") and box.text is not None:
            self._text(canvas, box, x, y, w, h)
        elif r.type == "stats":
            self._stats(canvas, box, x, y, w, h)
        if isolated:
            canvas.restoreState()

    def _text(self, canvas, box: Box, x, y, w, h) -> None:
        r, fitted = box.region, box.text
        canvas.setFillColor(HexColor(box.colour))
        if r.opacity < 1:
            canvas.setFillAlpha(r.opacity)
        total = fitted.size + fitted.leading * (len(fitted.lines) - 1)
        if r.valign == "top":
            top = y + h
        elif r.valign == "middle":
            top = y + h - (h - total) / 2
        else:
            top = y + total
        baseline = top - fitted.size * 0.8
        if r.rotate:
            # rotate about the box centre; only used for short labels (side bands)
            canvas.translate(x + w / 2, y + h / 2)
            canvas.rotate(r.rotate)
            canvas.translate(-(x + w / 2), -(y + h / 2))
        for line in fitted.lines:
            if r.align == "center":
                cx = x + (w - line.width) / 2
            elif r.align == "right":
                cx = x + w - line.width
            else:
                cx = x
            text = canvas.beginText(cx, baseline)
            for font, piece in line.runs:
                text.setFont(font, fitted.size)
                text.textOut(piece)
            canvas.drawText(text)
            baseline -= fitted.leading

    def _stats(self, canvas, box: Box, x, y, w, h) -> None:
        r, size = box.region, box.stats_size
        if not box.stats or size <= 0:
            return
        regular, bold = face_name(r.font), face_name(r.font, bold=True)
        row_h = h / len(box.stats)
        canvas.setFillColor(HexColor(box.colour))
        for index, row in enumerate(box.stats):
            top = y + h - index * row_h
            baseline = top - row_h / 2 - size * 0.35
            canvas.setFont(regular, size)
            canvas.drawString(x, baseline, label_text(row, self.icons))
            pieces = value_pieces(row, self.icons)
            widths = [width(t, bold if b else regular, size if b else size * 0.8)
                      for t, b in pieces]
            cx = x + w - sum(widths)
            for (piece, is_bold), piece_w in zip(pieces, widths):
                canvas.setFont(bold if is_bold else regular, size if is_bold else size * 0.8)
                canvas.drawString(cx, baseline, piece)
                cx += piece_w
            if index < len(box.stats) - 1:
                canvas.saveState()
                canvas.setStrokeColor(HexColor(box.stroke or "#BBBBBB"))
                canvas.setLineWidth(0.3)
                canvas.line(x, top - row_h, x + w, top - row_h)
                canvas.restoreState()
