"""A card face drawn once per build: its PDF operators kept and written again wherever the same
face is printed — another copy on the sheets, its page in printshop.pdf, changed.pdf.

Why: cards.pdf and printshop.pdf show the same faces, and drawing a face (text set glyph by
glyph, vector portraits) is most of what both cost. Operators name resources of their own
document, though: fonts as /F1+0 with glyph codes given in the order characters were first
used, transparency as /gRLs0, pictures as XObjects. So a face's operators are reused only

- in the document they were recorded in (the *source*: the first one drawn), and
- in a document *adopted* from the source after it was complete: it is given the source's font
  names and glyph codes, so every recorded operator means there what it meant in the source
  (checked: if the names differ, nothing is replayed there).

A face is recorded only from the default transparency state and when it sets no transparency,
colour space or shading of its own (their names are not carried over); anything else is drawn
afresh, as before. The bytes of a document depend only on its input, as before: what is
replayed is what the same drawing would write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable
from weakref import WeakSet

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont


@dataclass
class Recording:
    face: object  # kept so that the id() in the key stays this face's
    code: str  # the operators, joined as a page stream joins them
    pictures: list  # prepared pictures (render.images.Picture) the operators place


class FaceRecords:
    """The recorded faces of one build and the documents they may be written into."""

    def __init__(self):
        self.source = None  # the canvas recordings are made in
        self.names: Names | None = None  # the source's font names, kept before it was saved
        self.adopted = WeakSet()  # canvases that name resources as the source does (weak: a
        # saved document and its pages go when its function returns)
        self.recordings: dict[tuple, Recording] = {}

    def draw(self, canvas, key: tuple, face, live: Callable[[], None]) -> None:
        """Write the face's operators at the current origin: replayed when they may be, else
        drawn by `live()` (and recorded, in the source)."""
        plain = not canvas._extgstate._d  # no transparency set around the face
        known = self.recordings.get(key)
        if known is not None and plain and self._names_as_source(canvas):
            replay(canvas, known)
            return
        if self.source is None:
            self.source = canvas
        if canvas is not self.source or self.names is not None or not plain:
            live()
            return
        self.recordings[key] = record(canvas, face, live) or self.recordings.get(key)

    def _names_as_source(self, canvas) -> bool:
        return (canvas is self.source and self.names is None) or canvas in self.adopted

    def finish(self, canvas) -> None:
        """Call before saving a document: the source's names are kept for later ones (saving
        drops them), and the source records no more."""
        if canvas is self.source and self.names is None:
            self.names = Names.of(canvas._doc)
            self.source = _FINISHED  # and the saved document may go (all its pages)

    def adopt(self, canvas) -> None:
        """Give a new document the source's resource names, so that recordings replay there.
        Call it before anything is drawn on `canvas`."""
        if self.names is not None and self.names.give(canvas._doc):
            self.adopted.add(canvas)


_FINISHED = object()  # the source once saved: no canvas is it


def record(canvas, face, live: Callable[[], None]) -> Recording | None:
    """Draw the face and keep its operators; None when they cannot be written again elsewhere
    (the face added a colour space, a shading or a transparency state of its own)."""
    start = len(canvas._code)
    before = (len(canvas._colorsUsed), len(canvas._shadingUsed), len(canvas._extgstate._c))
    canvas._cardgen_pictures = []
    try:
        live()
        pictures = canvas._cardgen_pictures
    finally:
        del canvas._cardgen_pictures
    after = (len(canvas._colorsUsed), len(canvas._shadingUsed), len(canvas._extgstate._c))
    if after != before or " gs" in "".join(canvas._code[start:]):
        return None
    return Recording(face, "\n".join(canvas._code[start:]), pictures)


def replay(canvas, recording: Recording) -> None:
    from .images import place_picture
    for picture in recording.pictures:
        place_picture(canvas, picture)  # its XObject in this document and on this page
    canvas._code.append(recording.code)


@dataclass
class Names:
    """A document's font names (/F1 …) and glyph codes, in the order they were given."""

    fonts: list[tuple[str, str]]  # (font, internal name)
    codes: dict[str, tuple]  # TrueType font → (assignments, subsets, next code, internal name)

    @classmethod
    def of(cls, doc) -> "Names":
        codes = {}
        for name in doc.fontMapping:
            font = pdfmetrics.getFont(name)
            state = font.state.get(doc) if isinstance(font, TTFont) else None
            if state is not None:
                codes[name] = (dict(state.assignments), [list(s) for s in state.subsets],
                               state.nextCode, state.internalName)
        return cls(list(doc.fontMapping.items()), codes)

    def give(self, doc) -> bool:
        """Name the fonts of a new document alike; True when they now are."""
        for name, internal in self.fonts:
            font = pdfmetrics.getFont(name)
            if not isinstance(font, TTFont):
                doc.getInternalFontName(name)
                continue
            if name not in self.codes:
                return False
            assignments, subsets, next_code, internal_name = self.codes[name]
            state = TTFont.State(font._asciiReadable)
            state.assignments, state.nextCode = dict(assignments), next_code
            state.subsets = [list(s) for s in subsets]
            state.internalName = internal_name
            font.state[doc] = state
            if name not in doc.fontMapping:
                doc.fontMapping[name] = internal
                doc.delayedFonts.append(font)
        return list(doc.fontMapping.items()) == self.fonts
