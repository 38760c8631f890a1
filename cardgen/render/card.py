"""Draw a laid-out card face on a reportlab canvas. Decides nothing: layout already did."""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib.colors import HexColor as _parse_hex

from ..layout.card import STATS_RULE, Box, CardFace
from ..pictures.store import ImageStore
from ..pictures.portrait.court import draw_court
from ..pictures.portrait.draw import draw_portrait
from .replay import FaceRecords
from ..text.typeset import stats_lines, text_lines
from ..units import MM



@lru_cache(maxsize=1024)
def HexColor(value: str):  # noqa: N802 (reportlab's name) — parsed once per colour, not per box
    return _parse_hex(value)


class CardPainter:
    def __init__(self, card_size: tuple[float, float], bleed: float, icons: dict[str, str],
                 images: ImageStore, records: FaceRecords | None = None):
        """records: the build's recorded faces (render.replay), so that the print outputs
        draw each face once; None draws every face afresh (figures, thumbnails)."""
        self.w, self.h = card_size
        self.bleed = bleed
        self.icons = icons
        self.images = images
        self.records = records

    def begin(self, canvas) -> None:
        """A new print document: seeded, so that it may replay the faces (render.replay)."""
        if self.records is not None:
            self.records.begin(canvas)

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
        """Draw the face with its trim's lower-left corner at (ox, oy) points, clipped to the
        trim plus clip_bleed mm."""
        canvas.saveState()
        canvas.translate(ox, oy)  # drawn at the origin, so a recording can be placed anywhere
        b = clip_bleed * MM
        path = canvas.beginPath()
        path.rect(-b, -b, self.w * MM + 2 * b, self.h * MM + 2 * b)
        canvas.clipPath(path, stroke=0, fill=0)  # outside the recording: any clip may reuse it
        if self.records is None:
            self._boxes(canvas, face)
        else:
            key = self.records.keys.get(id(face)) or (id(face), self.w, self.h)
            self.records.draw(canvas, key, face, lambda: self._boxes(canvas, face))
        canvas.restoreState()

    def _boxes(self, canvas, face: CardFace) -> None:
        for box in face.boxes:
            self._box(canvas, box, 0, 0)

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
                self.images.draw(canvas, box.image, x, y, w, h, r.radius * MM, box.fit,
                                 box.focus)
            elif r.portrait_style == "court":
                draw_court(canvas, x, y, w, h, box.portrait_seed, box.portrait_role or "king",
                           accent=box.colour, radius=r.radius * MM, double=r.double_ended)
            elif r.double_ended:
                _double(canvas, x, y, w, h, lambda bx, by, bw, bh: draw_portrait(
                    canvas, bx, by, bw, bh, box.portrait_seed,
                    accent=box.fill if fill else "#88AACC", style=r.portrait_style,
                    gender=box.portrait_gender, age=box.portrait_age, hair=box.portrait_hair))
            else:
                draw_portrait(canvas, x, y, w, h, box.portrait_seed,
                              accent=box.fill if fill else "#88AACC", radius=r.radius * MM,
                              style=r.portrait_style, gender=box.portrait_gender,
                              age=box.portrait_age, hair=box.portrait_hair)
        elif r.type == "image" and box.image:
            self.images.draw(canvas, box.image, x, y, w, h, r.radius * MM, box.fit, box.focus)
        elif r.type in ("text", "icon") and box.text is not None:
            self._text(canvas, box, x, y, w, h)
        elif r.type == "stats":
            self._stats(canvas, box, x, y, w, h)
        if isolated:
            canvas.restoreState()

    def _text(self, canvas, box: Box, x, y, w, h) -> None:
        r = box.region
        canvas.setFillColor(HexColor(box.colour))
        if r.opacity < 1:
            canvas.setFillAlpha(r.opacity)
        if r.rotate:
            # rotate about the box centre; only used for short labels (side bands)
            canvas.translate(x + w / 2, y + h / 2)
            canvas.rotate(r.rotate)
            canvas.translate(-(x + w / 2), -(y + h / 2))
        _draw_lines(canvas, text_lines(box, x, y, w, h))

    def _stats(self, canvas, box: Box, x, y, w, h) -> None:
        lines = stats_lines(box, x, y, w, h, self.icons)
        if not lines:
            return
        row_h = h / len(box.stats)
        if box.region.stripe and box.region.stripe != "none":
            canvas.setFillColor(HexColor(box.region.stripe))
            for index in range(1, len(box.stats), 2):  # every other row, from the second
                canvas.rect(x, y + h - (index + 1) * row_h, w, row_h, stroke=0, fill=1)
        canvas.setFillColor(HexColor(box.colour))
        _draw_lines(canvas, lines)
        for index in range(1, len(box.stats)):  # a thin rule between the rows
            canvas.saveState()
            canvas.setStrokeColor(HexColor(box.stroke or "#BBBBBB"))
            canvas.setLineWidth(STATS_RULE)
            canvas.line(x, y + h - index * row_h, x + w, y + h - index * row_h)
            canvas.restoreState()


def _double(canvas, x, y, w, h, draw) -> None:
    """A picture drawn double-ended: in the upper half, and turned a half turn in the lower."""
    for turned in (False, True):
        canvas.saveState()
        if turned:
            canvas.translate(x + w / 2, y + h / 2)
            canvas.rotate(180)
            canvas.translate(-(x + w / 2), -(y + h / 2))
        draw(x, y + h / 2, w, h / 2)
        canvas.restoreState()


def _draw_lines(canvas, lines) -> None:
    """Each placed line as one text object: its pieces follow each other from its start."""
    drawn = getattr(canvas, "_cardgen_drawn", None)  # render.replay records a face
    for x, baseline, pieces in lines:
        if drawn is not None:
            for font, _, piece in pieces:
                drawn.setdefault(font, set()).update(piece)
        text = canvas.beginText(x, baseline)
        for font, size, piece in pieces:
            text.setFont(font, size)
            text.textOut(piece)
        canvas.drawText(text)
