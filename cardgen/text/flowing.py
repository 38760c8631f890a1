"""Flowing text for the documents (rulebook, deck sheet), broken into lines once per width.

Why: platypus asks a paragraph for its size many times for the same width (a table measures
its cells, then sizes its rows, then draws them; keep-with-next tries a heading with the text
after it). Breaking a paragraph into lines, with hyphenation, is the costliest step of a
rulebook, and its result depends only on the width.
"""

from __future__ import annotations

from reportlab.platypus import Paragraph as _Paragraph


class Paragraph(_Paragraph):
    """A reportlab Paragraph that keeps its lines for the last width it was broken at."""

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
