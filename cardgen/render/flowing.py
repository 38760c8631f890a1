"""Flowing text for the documents (rulebook, deck sheet), drawn once and broken into lines once.

Why: platypus asks a paragraph for its size many times for the same width (a table measures
its cells, then sizes its rows, then draws them; keep-with-next tries a heading with the text
after it; the contents page needs a second pass over the whole book). Breaking a paragraph into
lines, with hyphenation, is the costliest step of a rulebook, and its result depends only on
the width. And the first of those passes only counts pages: nothing it draws is kept.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as _Paragraph


class Paragraph(_Paragraph):
    """A reportlab Paragraph that keeps its lines for the last width it was broken at, and
    draws nothing on a counting canvas."""

    _memo: tuple | None = None  # (width, lines, height, wrap widths)

    def wrap(self, availWidth, availHeight):
        memo = self._memo
        if memo is not None and memo[0] == availWidth:
            self.width, self.blPara, self.height, self._wrapWidths = memo
            return self.width, self.height
        width, height = super().wrap(availWidth, availHeight)
        if availWidth == width:  # a real break (0 width answers "cannot fit" and is not kept)
            self._memo = (availWidth, self.blPara, self.height, self._wrapWidths)
        return width, height

    def split(self, availWidth, availHeight):
        self._memo = None  # reportlab's split may re-break this paragraph in place
        return super().split(availWidth, availHeight)

    def draw(self):
        if not getattr(self.canv, "counting", False):
            super().draw()


class CountingCanvas(Canvas):
    """The canvas of a layout pass whose pages are thrown away (the passes before the last
    of a multi-pass build): flowables that know it skip their drawing."""

    counting = True


def draws(canvas) -> bool:
    """False on a counting canvas: the flowable only needs its size."""
    return not getattr(canvas, "counting", False)
