"""SVG pictures and icons, drawn as vectors (svglib turns the file into reportlab shapes): an
icon set such as game-icons.net prints sharp at any size, and the PDF stays small.

Text inside an SVG would be set in a font the PDF does not embed; such a file is refused with
the advice to turn its text into paths (every editor can), as a missing glyph would be.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from .reading import ImageProblem

# What one SVG may be (README, "Limits"): its bytes, and how far its drawing may reach in points
# (a card is a few hundred; a coordinate of 1e30 would only end in reportlab's number writer).
MAX_SVG_BYTES = 5_000_000
MAX_SVG_EXTENT = 1_000_000

_XLINK = "{http://www.w3.org/1999/xlink}href"
# a reference an SVG may make: a part of itself (#id), or a picture embedded in it
_OWN_REFERENCE = re.compile(r"^(#|data:image/(png|jpe?g);base64,)", re.IGNORECASE)


def is_svg(relative: str) -> bool:
    return relative.lower().endswith(".svg")


@lru_cache(maxsize=256)
def _drawing(path: str, size: int, mtime: int):
    """The file as a reportlab Drawing; ImageProblem when it cannot be read or holds text."""
    import logging

    from reportlab.graphics.shapes import Group, String
    from svglib.svglib import svg2rlg
    _strict_read(Path(path))
    logger = logging.getLogger("svglib.svglib")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # svglib logs what it skips; the check says what counts
    try:
        drawing = svg2rlg(path)
    except Exception as exc:  # noqa: BLE001 - a broken file, whatever the parser says
        raise ImageProblem(f"'{Path(path).name}' is not a readable SVG ({exc})") from None
    finally:
        logger.setLevel(level)
    if drawing is None or not 0 < drawing.width <= MAX_SVG_EXTENT \
            or not 0 < drawing.height <= MAX_SVG_EXTENT:
        raise ImageProblem(f"'{Path(path).name}' is not a readable SVG (no size, or a width or "
                           f"height beyond {MAX_SVG_EXTENT:_} points)".replace("_", " "))
    try:
        bounds = drawing.getBounds()
    except Exception:  # noqa: BLE001 - a shape svglib made but cannot measure
        bounds = (float("inf"),)
    if bounds is None:
        raise ImageProblem(f"'{Path(path).name}' draws nothing (no shape svglib can read); "
                           "save it again as plain SVG")
    if not all(abs(value) <= MAX_SVG_EXTENT for value in bounds):  # (NaN fails too)
        raise ImageProblem(f"'{Path(path).name}' draws beyond {MAX_SVG_EXTENT:_} points from "
                           "its origin; fit the drawing to its page and save it again"
                           .replace("_", " "))

    def texts(node) -> bool:
        if isinstance(node, String):
            return True
        return isinstance(node, Group) and any(texts(child) for child in node.contents)
    if any(texts(node) for node in drawing.contents):
        raise ImageProblem(f"'{Path(path).name}' holds text, which the PDF could not embed "
                           "a font for: turn its text into paths (Inkscape: Path › Object to "
                           "Path) and save it again")
    return drawing


def _strict_read(path: Path) -> None:
    """Refuse what svglib would read leniently or reach beyond the file with: a file too large,
    XML that is broken (svglib recovers it into a picture with parts missing), entity
    declarations (a few bytes can expand into gigabytes, or name another file), and references
    to other files (a picture the pack's YAML does not name, which no check or cache sees
    change). ImageProblem says which."""
    from lxml import etree

    from ..load.source import read_bounded
    name = path.name
    try:
        raw = read_bounded(path, MAX_SVG_BYTES, lambda message: ImageProblem(
            f"'{name}': {message}"))
    except OSError as exc:
        raise ImageProblem(f"'{name}' cannot be read ({exc.strerror})") from None
    if b"<!ENTITY" in raw:
        raise ImageProblem(f"'{name}' declares XML entities (<!ENTITY ...>), which cardgen "
                           "does not read; save it again as plain SVG")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as exc:
        raise ImageProblem(f"'{name}' is not a readable SVG (line {exc.lineno}: "
                           f"{exc.msg})") from None
    for element in root.iter():
        reference = element.get(_XLINK) or element.get("href") \
            if isinstance(element.tag, str) else None
        if reference and not _OWN_REFERENCE.match(reference.strip()):
            shown = reference if len(reference) <= 60 else reference[:57] + "..."
            raise ImageProblem(f"'{name}' refers to another file ({shown!r}, line "
                               f"{element.sourceline}); embed that picture in the SVG, or "
                               "name it in the pack's YAML as a picture of its own")


def load(path: Path):
    stat = path.stat()
    return _drawing(str(path), stat.st_size, stat.st_mtime_ns)


def svg_size(path: Path) -> tuple[float, float]:
    """The SVG's own width and height (points): its shape, for fitting it into a box."""
    drawing = load(path)
    return float(drawing.width), float(drawing.height)


def draw_svg(canvas, path: Path, x: float, y: float, w: float, h: float) -> None:
    """The SVG scaled to exactly (w, h) points with its lower-left corner at (x, y)."""
    from reportlab.graphics import renderPDF
    drawing = load(path)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w / drawing.width, h / drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.restoreState()
