"""The fonts cardgen prints with: open-licence TTFs from fonts/, registered once, always embedded.

Why a fixed set: every glyph of every text is checked against these files before anything is
drawn, so a missing glyph is a diagnostic, never a blank box on paper.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

from ..paths import FONTS


def _utf16_hex(code: int) -> str:
    """A code point as the UTF-16BE hex a ToUnicode CMap needs: 4 digits, or 8 for the
    surrogate pair of a code point above U+FFFF (an emoji, U+1F42D -> D83DDC2D)."""
    return code.to_bytes(4, "big").hex().upper()[4:] if code <= 0xFFFF else \
        chr(code).encode("utf-16-be").hex().upper()


def _to_unicode_cmap(fontname: str, subset) -> str:
    """reportlab's makeToUnicodeCMap (pdfbase/ttfonts.py, reportlab 4.x-5.x) with one change:
    it writes each code point as '%04X', so U+1F42D becomes the five digits <1F42D>, an
    invalid hex string for a PDF reader (search and copy then fail for that glyph). The PDF
    reference wants the UTF-16BE bytes, a surrogate pair above U+FFFF; everything else here
    is reportlab's text, unchanged."""
    return "\n".join([
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        "<< /Registry (%s)" % fontname,
        "/Ordering (%s)" % fontname,
        "/Supplement 0",
        ">> def",
        "/CMapName /%s def" % fontname,
        "/CMapType 2 def",
        "1 begincodespacerange",
        "<00> <%02X>" % (len(subset) - 1),
        "endcodespacerange",
        "%d beginbfchar" % len(subset),
        *("<%02X> <%s>" % (i, _utf16_hex(v)) for i, v in enumerate(subset)),
        "endbfchar",
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ])


# reportlab calls the module's makeToUnicodeCMap by name when it embeds a font subset
ttfonts.makeToUnicodeCMap = _to_unicode_cmap


def subset_tag(face: bytes, subset) -> bytes:
    """The six capital letters before '+' in an embedded subset's name, made from the face and
    the characters the subset holds. Why: reportlab numbers subsets (AAAAAA for the first of
    every font in every file), and a tool that merges PDFs (a print shop's imposition, "combine
    files") may take two different subsets of one name for one font and print the wrong
    glyphs. The PDF reference asks for a tag unique to the subset; a hash keeps it the same
    for the same subset, so the same input still gives the same bytes."""
    import hashlib
    digest = hashlib.sha256(face + b"\0" + ",".join(map(str, subset)).encode()).digest()
    return bytes(65 + byte % 26 for byte in digest[:6])


class TaggedFont(TTFont):
    """A TrueType font whose embedded subsets carry subset_tag's tags."""

    def addObjects(self, doc):
        """reportlab's, with the subset tags: reportlab names each subset by calling its
        module's SUBSETN(n) (reportlab 4.x-5.x), so that name gives this font's tags while
        reportlab writes the subsets (one process draws one document at a time)."""
        state = self.state.get(doc)
        tags = [subset_tag(self.face.name, subset) for subset in (state.subsets if state
                                                                  else ())]
        numbered = ttfonts.SUBSETN
        ttfonts.SUBSETN = lambda n, *_: tags[n]
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = numbered

FACES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "sans-bold-italic": "DejaVuSans-BoldOblique.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
    "condensed-italic": "DejaVuSansCondensed-Oblique.ttf",
    "condensed-bold-italic": "DejaVuSansCondensed-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "serif-bold-italic": "DejaVuSerif-BoldItalic.ttf",
}


def face_name(family: str, bold: bool = False, italic: bool = False) -> str:
    """The registered font for a family ('sans', 'condensed', 'serif') and style."""
    base = family.replace("-bold", "").replace("-italic", "")
    bold = bold or "-bold" in family
    italic = italic or "-italic" in family
    name = base + ("-bold" if bold else "") + ("-italic" if italic else "")
    return register(name)


@lru_cache(maxsize=None)
def register(name: str) -> str:
    """Register a face with reportlab (once per process) and return its PDF font name."""
    pdf_name = "CG-" + name
    pdfmetrics.registerFont(_ttfont(pdf_name, FONTS / FACES[name]))
    return pdf_name


# Not kept in the entry, set again on loading: the file's bytes and path (those of the file at
# hand), the scaling lambda; and the font's per-document state (a WeakKeyDictionary, empty
# after parsing). The lambda and the state cannot be pickled.
_NOT_KEPT = ("_ttf_data", "filename", "_pdfScale")


def _ttfont(pdf_name: str, path) -> TTFont:
    """The font, its parse taken from cardgen's cache when an earlier process made it.

    Why: reportlab parses a TrueType file's tables in every process (about 20 ms a face, a
    tenth of a second for a deck's five); loading the parse is a few ms. The entry is keyed by
    the file's bytes, reportlab's version and the settings the font object copies from
    reportlab's configuration, so it is exactly what parsing this file would give; a PDF drawn
    with it has the same bytes (tests/text/test_fonts_cache.py).
    """
    import hashlib
    import pickle
    from weakref import WeakKeyDictionary

    import reportlab
    from reportlab import rl_config

    from ..incremental import cache
    data = path.read_bytes()
    key = cache.key("ttfont", 1, reportlab.Version, hashlib.sha256(data).hexdigest(), pdf_name,
                    getattr(rl_config, "ttfAsciiReadable", None),
                    tuple(getattr(rl_config, "unShapedFontGlob", None) or ()),
                    getattr(ttfonts, "uharfbuzz", None) is not None)  # getattr: reportlab 4.0
    blob = cache.read("fonts", key)
    try:
        font_state, face_state = pickle.loads(blob) if blob else (None, None)
    except Exception:  # an entry cut short: parse the file again
        font_state = face_state = None
    if isinstance(font_state, dict) and isinstance(face_state, dict):
        face = ttfonts.TTFontFace.__new__(ttfonts.TTFontFace)
        face.__dict__.update(face_state, _ttf_data=data, filename=str(path),
                             _pdfScale=_scale(face_state["unitsPerEm"]))
        font = TaggedFont.__new__(TaggedFont)
        font.__dict__.update(font_state, face=face, state=WeakKeyDictionary())
        return font
    font = TaggedFont(pdf_name, str(path))
    font_state = {k: v for k, v in font.__dict__.items() if k not in ("face", "state")}
    face_state = {k: v for k, v in font.face.__dict__.items() if k not in _NOT_KEPT}
    try:
        blob = pickle.dumps((font_state, face_state), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a reportlab whose font holds something unpicklable: no cache entry
        return font
    cache.write("fonts", key, blob)
    return font


def _scale(units_per_em: int):
    """reportlab's font-unit-to-PDF scaling (TTFontFile.extractInfo), as it builds it."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


@lru_cache(maxsize=None)
def _covered(pdf_name: str) -> frozenset[int]:
    font = pdfmetrics.getFont(pdf_name)
    return frozenset(font.face.charWidths)


def missing_glyphs(text: str, pdf_name: str) -> list[str]:
    """Characters of text the font cannot draw (whitespace and line breaks aside)."""
    covered = _covered(pdf_name)
    return sorted({c for c in text if c not in "\n\t\r" and ord(c) not in covered})


def width(text: str, pdf_name: str, size: float) -> float:
    """Width in points."""
    return pdfmetrics.stringWidth(text, pdf_name, size)


def _glyf_entry(char: str, pdf_name: str):
    """(the font's face, where the character's outline starts in the font file), or None for a
    character the font lacks or whose glyph has no outline (a space)."""
    face = pdfmetrics.getFont(pdf_name).face
    gid = face.charToGlyph.get(ord(char))
    if gid is None or gid + 1 >= len(face.glyphPos):
        return None
    start, end = face.glyphPos[gid], face.glyphPos[gid + 1]
    if end <= start:
        return None
    return face, face.table["glyf"]["offset"] + start


@lru_cache(maxsize=4096)
def glyph_box(char: str, pdf_name: str) -> tuple[float, float, float, float] | None:
    """The outline's bounding box of one character in em (x0, y0, x1, y1 from the pen on the
    baseline), or None for a glyph without ink (a space). Read from the font's glyf table:
    the outline, not the advance box, is what a cut can reach ('J' starts left of its pen)."""
    import struct
    found = _glyf_entry(char, pdf_name)
    if found is None:
        return None
    face, offset = found
    _, x0, y0, x1, y1 = struct.unpack(">hhhhh", face._ttf_data[offset:offset + 10])
    em = face.unitsPerEm
    return (x0 / em, y0 / em, x1 / em, y1 / em)


@lru_cache(maxsize=4096)
def glyph_points(char: str, pdf_name: str) -> tuple[tuple[float, float], ...] | None:
    """The points of a character's outline in em (on and off the curve: the outline lies in
    their hull), for the preflight where a box is too coarse (a ♣ in a ring, a keyboard's
    corners). None for a glyph without ink or made of other glyphs (its box stands in)."""
    import struct
    found = _glyf_entry(char, pdf_name)
    if found is None:
        return None
    face, at = found
    data = face._ttf_data
    contours = struct.unpack(">h", data[at:at + 2])[0]
    if contours <= 0:
        return None  # a composite glyph
    at += 10
    ends = struct.unpack(f">{contours}H", data[at:at + 2 * contours])
    at += 2 * contours
    at += 2 + struct.unpack(">H", data[at:at + 2])[0]  # the instructions
    count = ends[-1] + 1
    flags: list[int] = []
    while len(flags) < count:
        flag = data[at]
        at += 1
        flags.append(flag)
        if flag & 8:
            flags.extend([flag] * data[at])
            at += 1
    coords = []
    for short, same in ((2, 16), (4, 32)):  # x, then y
        value, values = 0, []
        for flag in flags[:count]:
            if flag & short:
                delta = data[at]
                at += 1
                value += delta if flag & same else -delta
            elif not flag & same:
                value += struct.unpack(">h", data[at:at + 2])[0]
                at += 2
            values.append(value)
        coords.append(values)
    em = face.unitsPerEm
    return tuple((x / em, y / em) for x, y in zip(*coords))
