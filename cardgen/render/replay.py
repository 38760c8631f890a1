"""A card face drawn once: its PDF operators kept and written again wherever the same face is
printed — another copy on the sheets, its page in printshop.pdf, changed.pdf, the contact sheet,
and the next build (the edit loop: one stat changed, 1039 faces as they were).

Why: drawing a face (text set glyph by glyph, vector portraits) is most of what the print
outputs cost. Operators name resources of their own document, though:

- fonts as /F2+0: the number is given in the order fonts are first used. A recording keeps, in
  its place, which font it is (`Recording.fonts`); replaying names that font in the document
  then, in the same order as drawing would have;
- glyph codes: reportlab gives each character of a TrueType font a code in the order characters
  are first used in the document. A print document is therefore *seeded* before anything is
  drawn: every font gets the characters the build's faces print with it (its *alphabet*,
  gathered from the laid-out faces), in sorted order. A face drawing only those characters has
  the same codes in every document seeded with that alphabet — it is *lasting*: replayed in
  every print document of the build and kept on disk for later builds (incremental.faces). A
  face drawing any other character (nothing we print does; a safeguard) is replayed only in the
  document it was drawn in;
- pictures are XObjects named by their prepared picture's key; a replay places them again;
- transparency (/gRLs0), colour spaces and shadings are numbered per document: a face setting
  any of them is never recorded, and is drawn afresh each time.

The bytes of a document depend only on its input: what is replayed is what the same drawing
would write in that document (tests/render/test_replay.py, tests/incremental/test_face_cache.py).
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
    code: str  # the operators, with NUL where a font's resource name goes (one string: a
    # deck's recordings are held for the whole build, and kept on disk)
    fonts: tuple  # (font, subset) of each NUL, in order
    pictures: list  # (picture, w_pt, h_pt) the operators place, as ImageStore.prepared takes
    lasting: bool  # uses only its fonts' alphabet codes: valid in any seeded document


class FaceRecords:
    """The recorded faces of one build, and those kept from the build before."""

    def __init__(self, alphabet: dict[str, str] | None = None,
                 kept: dict[str, Recording] | None = None, images=None,
                 keys: dict[int, str] | None = None):
        """alphabet: {font: its characters, sorted} every print document is seeded with
        (None: nothing is lasting); kept: lasting recordings of an earlier build with this
        alphabet, by face key; images: the ImageStore the pictures come from; keys: id(face) →
        its content key (pipeline.faces.face_keys; a face without one is known by its id() in this
        build only)."""
        self.alphabet = alphabet
        self.images = images
        self.seeded = WeakSet()  # canvases seeded with the alphabet (weak: a saved document
        # and its pages go when its function returns)
        self.recordings: dict = dict(kept or {})  # lasting ones, valid in every seeded canvas
        self.keys = keys or {}

    def begin(self, canvas) -> None:
        """A new print document, before anything is drawn on it: seeded with the alphabet."""
        if self.alphabet is not None and seed(canvas._doc, self.alphabet):
            self.seeded.add(canvas)

    def draw(self, canvas, key, face, live: Callable[[], None]) -> None:
        """Write the face's operators at the current origin: replayed when they may be, else
        drawn by `live()` and recorded."""
        if canvas._extgstate._d:  # transparency set around the face: drawn as it is
            live()
            return
        seeded = canvas in self.seeded
        own = canvas.__dict__.setdefault("_cardgen_recordings", {})  # valid here only
        known = (self.recordings.get(key) if seeded else None) or own.get(key)
        if known is not None:
            replay(canvas, known, self.images)
            return
        made = record(canvas, face, live, self.alphabet if seeded else None)
        if made is not None:
            (self.recordings if made.lasting else own)[key] = made

    def lasting(self) -> dict[str, Recording]:
        """The recordings a later build may replay, by face key."""
        return {key: rec for key, rec in self.recordings.items() if isinstance(key, str)}


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
        from ..text.fonts import FACES, register
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
    if "\0" in code:  # never written by reportlab (it escapes NUL in text): not ours to cut
        return None
    names = {internal[1:]: name for name, internal in canvas._doc.fontMapping.items()}
    fonts, lasting = [], alphabet is not None

    def cut(match) -> str:
        nonlocal lasting
        font = names.get(match.group(1))
        if font is None:  # not a font of ours: kept as written (valid in this document only)
            lasting = False
            return match.group(0)
        ref = (font, int(match.group(2)))
        fonts.append(_REFS.setdefault(ref, ref))  # one tuple per font in the process
        return "\0"
    code = _FONT_REF.sub(cut, code)
    if lasting:
        lasting = all(font in alphabet and characters <= set(alphabet[font])
                      for font, characters in drawn.items())
    return Recording(code, tuple(fonts), pictures, lasting)


_REFS: dict[tuple[str, int], tuple[str, int]] = {}


def replay(canvas, recording: Recording, images) -> None:
    for relative, w, h in recording.pictures:
        images.place(canvas, relative, w, h)  # its XObject here, on this page
    # each font's resource name in this document, given (as drawing gives it) at its first use
    named = canvas.__dict__.setdefault("_cardgen_font_names", {})
    for ref in recording.fonts:
        if ref not in named:
            named[ref] = _font(ref[0]).getSubsetInternalName(ref[1], canvas._doc)
    texts = recording.code.split("\0")
    code = [""] * (2 * len(texts) - 1)
    code[0::2] = texts
    code[1::2] = map(named.__getitem__, recording.fonts)
    canvas._code.append("".join(code))


def characters(face, icons: dict[str, str]) -> dict[str, str]:
    """{font: the characters the face prints with it, sorted}: the text of its laid-out
    lines and stat rows, in the fonts the painter sets them in (text.typeset); a face's
    share of the alphabet (incremental.faces.alphabet)."""
    from ..text.typeset import text_pieces
    out: dict[str, set] = {}
    for box in face.boxes:
        for font, text in text_pieces(box, icons):
            chars = out.get(font)
            if chars is None:
                chars = out[font] = set()
            chars.update(text)
    return {font: "".join(sorted(chars)) for font, chars in out.items()}
