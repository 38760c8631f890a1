"""A card face drawn once: its PDF operators kept and written again wherever the same face is
printed — another copy on the sheets, its page in printshop.pdf, changed.pdf, the contact sheet,
and the next build (the edit loop: one stat changed, 1039 faces as they were).

Why: drawing a face (text set glyph by glyph, vector portraits) is most of what the print
outputs cost. Operators name resources of their own document, though:

- fonts as /F2+0: the number is given in the order fonts are first used. A recording keeps, in
  its place, which font it is (`Recording.parts`); replaying names that font in the document
  then, in the same order as drawing would have;
- glyph codes: reportlab gives each character of a TrueType font a code in the order characters
  are first used in the document. A print document is therefore *seeded* before anything is
  drawn: every font gets the characters the build's faces print with it (its *alphabet*,
  gathered from the laid-out faces), in sorted order. A face drawing only those characters has
  the same codes in every seeded document with that alphabet — it is *lasting*: kept on disk
  (cardgen.cache) and replayed by a later build whose faces print the same characters. A face
  with any other character (rare: a character only drawing produces) is replayed only in its
  own build, in the document it was drawn in (the *source*) and in documents *adopted* from
  the source after it was complete (given its font names and codes);
- pictures are XObjects named by their prepared picture's key; a replay places them again;
- transparency (/gRLs0), colour spaces and shadings are numbered per document: a face setting
  any of them is never recorded, and is drawn afresh each time.

The bytes of a document depend only on its input: what is replayed is what the same drawing
would write in that document (tests/test_replay.py, tests/test_face_cache.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable
from weakref import WeakSet

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

_FONT_REF = re.compile(r"/(F\d+)\+(\d+)\b")  # a TrueType subset's resource name: /F2+0


@dataclass
class Recording:
    texts: list[str]  # the operators, cut where a font's resource name goes
    fonts: list[tuple[str, int]]  # (font, subset) of each cut: len(texts) - 1 of them
    pictures: list  # (picture, w_pt, h_pt) the operators place, as ImageStore.prepared takes
    lasting: bool  # uses only its fonts' alphabet codes: valid in any seeded document


class FaceRecords:
    """The recorded faces of one build, and those kept from the build before."""

    def __init__(self, alphabet: dict[str, str] | None = None,
                 kept: dict[str, Recording] | None = None, images=None):
        """alphabet: {font: its characters, sorted} every print document is seeded with
        (None: no seeding, nothing lasting); kept: lasting recordings of an earlier build with
        this alphabet, by face key; images: the ImageStore their pictures come from."""
        self.alphabet = alphabet
        self.images = images
        self.source = None  # the canvas recordings are made in
        self.names: Names | None = None  # the source's font names, kept before it was saved
        self.adopted = WeakSet()  # canvases that name resources as the source does (weak: a
        # saved document and its pages go when its function returns)
        self.seeded = WeakSet()  # canvases seeded with the alphabet
        self.recordings: dict = dict(kept or {})
        self.keys: dict[int, str] = {}  # id(face) → its content key (build.face_hashes); a face
        # without one is known by its id() in this build only

    def draw(self, canvas, key, face, live: Callable[[], None]) -> None:
        """Write the face's operators at the current origin: replayed when they may be, else
        drawn by `live()` (and recorded, in the source)."""
        plain = not canvas._extgstate._d  # no transparency set around the face
        known = self.recordings.get(key)
        if known is not None and plain and self._may_replay(canvas, known):
            replay(canvas, known, self.images)
            return
        if self.source is None:
            self.source = canvas
        if canvas is not self.source or self.names is not None or not plain:
            live()
            return
        alphabet = self.alphabet if canvas in self.seeded else None
        self.recordings[key] = record(canvas, face, live, alphabet) or self.recordings.get(key)

    def _may_replay(self, canvas, recording: Recording) -> bool:
        if recording.lasting and canvas in self.seeded:
            return True
        return (canvas is self.source and self.names is None) or canvas in self.adopted

    def begin(self, canvas) -> None:
        """A new print document, before anything is drawn on it: given the source's names
        when the source is complete (so that every recording replays there), else seeded."""
        if self.names is not None and self.names.give(canvas._doc):
            self.adopted.add(canvas)
            # the source's codes hold the alphabet's; a font the source did not use is seeded
            if self.names.seeded and self.alphabet is not None and seed(canvas._doc,
                                                                        self.alphabet):
                self.seeded.add(canvas)
            return
        if self.alphabet is not None and seed(canvas._doc, self.alphabet):
            self.seeded.add(canvas)
        if self.source is None:  # the first document is the source, whether it records or
            self.source = canvas  # replays what an earlier build drew: later ones adopt it

    def finish(self, canvas) -> None:
        """Call before saving a document: the source's names are kept for later ones (saving
        drops them), and the source records no more."""
        if canvas is self.source and self.names is None:
            self.names = Names.of(canvas._doc, seeded=canvas in self.seeded)
            self.source = _FINISHED  # and the saved document may go (all its pages)

    def lasting(self) -> dict[str, Recording]:
        """The recordings a later build may replay: lasting ones, by face key."""
        return {key: rec for key, rec in self.recordings.items()
                if rec.lasting and isinstance(key, str)}


_FINISHED = object()  # the source once saved: no canvas is it


def seed(doc, alphabet: dict[str, str]) -> bool:
    """Give every font of the alphabet that has no codes in this document yet its characters'
    codes, in order; True when every font now has the alphabet's codes (a font that had codes
    of its own — something was drawn with it — and was not seeded has other codes)."""
    fresh = True
    for name, characters in alphabet.items():
        font = _font(name)
        if not isinstance(font, TTFont):
            continue
        state = font.state.get(doc)
        if state is None:
            font.state[doc] = TTFont.State(font._asciiReadable, font)
            font.splitString(characters, doc)
        elif getattr(state, "_cardgen_seeded", None) != characters:
            fresh = False
            continue
        font.state[doc]._cardgen_seeded = characters
    return fresh


def _font(name: str):
    """A font by its PDF name, registered when this process has not needed it yet (a face
    kept from an earlier build is replayed without being laid out)."""
    font = pdfmetrics._fonts.get(name)
    if font is None:
        from .fonts import FACES, register
        if name.startswith("CG-") and name[3:] in FACES:
            register(name[3:])
        font = pdfmetrics.getFont(name)
    return font


def record(canvas, face, live: Callable[[], None],
           alphabet: dict[str, str] | None = None) -> Recording | None:
    """Draw the face and keep its operators; None when they cannot be written again elsewhere
    (the face added a colour space, a shading or a transparency state of its own). Lasting when
    the document is seeded with `alphabet` and the face drew only its characters."""
    start = len(canvas._code)
    before = (len(canvas._colorsUsed), len(canvas._shadingUsed), len(canvas._extgstate._c))
    canvas._cardgen_pictures, canvas._cardgen_drawn = [], {}
    try:
        live()
        pictures, drawn = canvas._cardgen_pictures, canvas._cardgen_drawn
    finally:
        del canvas._cardgen_pictures, canvas._cardgen_drawn
    after = (len(canvas._colorsUsed), len(canvas._shadingUsed), len(canvas._extgstate._c))
    code = "\n".join(canvas._code[start:])
    if after != before or " gs" in code:
        return None
    names = {internal[1:]: name for name, internal in canvas._doc.fontMapping.items()}
    texts, fonts, at, lasting = [], [], 0, alphabet is not None
    for match in _FONT_REF.finditer(code):
        font = names.get(match.group(1))
        if font is None:  # not a font of ours: kept as written (valid in this build only)
            lasting = False
            continue
        texts.append(code[at:match.start()])
        fonts.append((font, int(match.group(2))))
        at = match.end()
    texts.append(code[at:])
    if lasting:
        lasting = all(font in alphabet and characters <= set(alphabet[font])
                      for font, characters in drawn.items())
    return Recording(texts, fonts, pictures, lasting)


def replay(canvas, recording: Recording, images) -> None:
    from .images import place_picture
    for relative, w, h in recording.pictures:
        place_picture(canvas, images.prepared(relative, w, h))  # its XObject here, on this page
    # each font's resource name in this document, given (as drawing gives it) at its first use
    named = canvas.__dict__.setdefault("_cardgen_font_names", {})
    for ref in recording.fonts:
        if ref not in named:
            named[ref] = _font(ref[0]).getSubsetInternalName(ref[1], canvas._doc)
    code = [""] * (2 * len(recording.texts) - 1)
    code[0::2] = recording.texts
    code[1::2] = map(named.__getitem__, recording.fonts)
    canvas._code.append("".join(code))


@dataclass
class Names:
    """A document's font names (/F1 …) and glyph codes, in the order they were given."""

    fonts: list[tuple[str, str]]  # (font, internal name)
    codes: dict[str, tuple]  # TrueType font → (assignments, subsets, next code, internal name,
    # the alphabet it was seeded with or None)
    seeded: bool = False  # the document was seeded with the build's alphabet

    @classmethod
    def of(cls, doc, seeded: bool = False) -> "Names":
        codes = {}
        for name in doc.fontMapping:
            font = pdfmetrics.getFont(name)
            state = font.state.get(doc) if isinstance(font, TTFont) else None
            if state is not None:
                codes[name] = (dict(state.assignments), [list(s) for s in state.subsets],
                               state.nextCode, state.internalName,
                               getattr(state, "_cardgen_seeded", None))
        return cls(list(doc.fontMapping.items()), codes, seeded)

    def give(self, doc) -> bool:
        """Name the fonts of a new document alike; True when they now are."""
        for name, internal in self.fonts:
            font = pdfmetrics.getFont(name)
            if not isinstance(font, TTFont):
                doc.getInternalFontName(name)
                continue
            if name not in self.codes:
                return False
            assignments, subsets, next_code, internal_name, seeded = self.codes[name]
            state = TTFont.State(font._asciiReadable)
            state._cardgen_seeded = seeded
            state.assignments, state.nextCode = dict(assignments), next_code
            state.subsets = [list(s) for s in subsets]
            state.internalName = internal_name
            font.state[doc] = state
            if name not in doc.fontMapping:
                doc.fontMapping[name] = internal
                doc.delayedFonts.append(font)
        return list(doc.fontMapping.items()) == self.fonts
