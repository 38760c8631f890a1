"""SVG pictures and icons, drawn as vectors (svglib turns the file into reportlab shapes): an
icon set such as game-icons.net prints sharp at any size, and the PDF stays small.

Text inside an SVG would be set in a font the PDF does not embed; such a file is refused with
the advice to turn its text into paths (every editor can), as a missing glyph would be.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .reading import ImageProblem


def is_svg(relative: str) -> bool:
    return relative.lower().endswith(".svg")


@lru_cache(maxsize=256)
def _drawing(path: str, size: int, mtime: int):
    """The file as a reportlab Drawing; ImageProblem when it cannot be read or holds text."""
    import logging

    from reportlab.graphics.shapes import Group, String
    from svglib.svglib import svg2rlg
    logger = logging.getLogger("svglib.svglib")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # svglib logs what it skips; the check says what counts
    try:
        drawing = svg2rlg(path)
    except Exception as exc:  # noqa: BLE001 - a broken file, whatever the parser says
        raise ImageProblem(f"'{Path(path).name}' is not a readable SVG ({exc})") from None
    finally:
        logger.setLevel(level)
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise ImageProblem(f"'{Path(path).name}' is not a readable SVG (no size)")

    def texts(node) -> bool:
        if isinstance(node, String):
            return True
        return isinstance(node, Group) and any(texts(child) for child in node.contents)
    if any(texts(node) for node in drawing.contents):
        raise ImageProblem(f"'{Path(path).name}' holds text, which the PDF could not embed "
                           "a font for: turn its text into paths (Inkscape: Path › Object to "
                           "Path) and save it again")
    return drawing


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
