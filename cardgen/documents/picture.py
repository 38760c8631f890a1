"""Real cards and boards, scaled, as one platypus flowable (rulebook figures, deck sheets).

Why the card painter: a thumbnail in the rulebook is drawn by the very code that draws the
printed card, from the same laid-out face, so the book cannot show a card that is not in the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reportlab.lib.colors import HexColor
from reportlab.platypus import Flowable

from ..layout.card import CardFace
from ..render.card import CardPainter
from ..units import MM

SHADOW = HexColor("#00000022", hasAlpha=True)
OUTLINE = HexColor("#9aa5b1")


@dataclass
class Placed:
    """One face in a picture: lower-left corner of its trim at (x, y) points, scaled."""

    painter: CardPainter
    face: CardFace
    x: float
    y: float
    scale: float
    angle: float = 0.0  # degrees, about the card's centre (a fan of cards on a cover)

    @property
    def width(self) -> float:
        return self.painter.w * MM * self.scale

    @property
    def height(self) -> float:
        return self.painter.h * MM * self.scale


def draw_placed(canvas, placed: Placed) -> None:
    """The face with a soft shadow and a hairline edge (a white card on white paper)."""
    w, h = placed.width, placed.height
    radius = min(w, h) * 0.045
    if placed.angle:
        canvas.saveState()
        canvas.translate(placed.x + w / 2, placed.y + h / 2)
        canvas.rotate(placed.angle)
        draw_placed(canvas, Placed(placed.painter, placed.face, -w / 2, -h / 2, placed.scale))
        canvas.restoreState()
        return
    canvas.saveState()
    canvas.setFillColor(SHADOW)
    canvas.roundRect(placed.x + 0.7, placed.y - 0.9, w, h, radius, stroke=0, fill=1)
    canvas.restoreState()  # the shadow's transparency ends here: the face is drawn opaque
    canvas.saveState()
    path = canvas.beginPath()
    path.roundRect(placed.x, placed.y, w, h, radius)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(placed.x, placed.y)
    canvas.scale(placed.scale, placed.scale)
    placed.painter.draw(canvas, placed.face, 0, 0, 0.0)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(OUTLINE)
    canvas.setLineWidth(0.4)
    canvas.roundRect(placed.x, placed.y, w, h, radius, stroke=1, fill=0)
    canvas.restoreState()


class Picture(Flowable):
    """A fixed-size drawing: placed faces first, then marks (labels, leader lines) on top."""

    def __init__(self, width: float, height: float, placed: list[Placed] | None = None,
                 marks: list[Callable] | None = None, align: str = "CENTER"):
        super().__init__()
        self.width, self.height = width, height
        self.placed = placed or []
        self.marks = marks or []  # each called with the canvas
        self.hAlign = align

    def wrap(self, avail_w, avail_h):
        return self.width, self.height

    def draw(self):
        for placed in self.placed:
            draw_placed(self.canv, placed)
        for mark in self.marks:
            mark(self.canv)
