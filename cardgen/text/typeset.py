"""Where every run of text of a card face lands, and the ink its glyphs cover.

Why one module: the painter draws exactly these positions and the preflight measures exactly
these glyph outlines, so a check that passes is a print that passes. Coordinates are points
with the origin at the card's trim, lower-left, y up (the painter adds the card's place).
"""

from __future__ import annotations

import math
from functools import lru_cache

from .stats import inset, label_text, small_size, value_pieces
from .fonts import face_name, glyph_box, glyph_points, width
from ..units import MM

Piece = tuple[str, float, str]               # (pdf font, size in pt, text)
PlacedLine = tuple[float, float, tuple[Piece, ...]]  # (x, baseline, pieces)


def box_rect(box, card_h: float) -> tuple[float, float, float, float]:
    """(x, y, w, h) in points of a box's region on a card `card_h` mm high."""
    r = box.region
    return (r.x * MM, (card_h - r.y - r.h) * MM, r.w * MM, r.h * MM)


def text_lines(box, x: float, y: float, w: float, h: float) -> list[PlacedLine]:
    """The fitted lines of a text or icon box, aligned in the box (before its rotation)."""
    r, fitted = box.region, box.text
    total = fitted.size + fitted.leading * (len(fitted.lines) - 1)
    if r.valign == "top":
        top = y + h
    elif r.valign == "middle":
        top = y + h - (h - total) / 2
    else:
        top = y + total
    baseline = top - fitted.size * 0.8
    out = []
    for line in fitted.lines:
        if r.align == "center":
            cx = x + (w - line.width) / 2
        elif r.align == "right":
            cx = x + w - line.width
        else:
            cx = x + line.indent
        out.append((cx, baseline, tuple((font, fitted.size, text) for font, text in line.runs)))
        baseline -= fitted.leading
    return out


def stats_lines(box, x: float, y: float, w: float, h: float,
                icons: dict[str, str]) -> list[PlacedLine]:
    """Per stat row: the label at the left, the values with their win marks at the right."""
    r, size = box.region, box.stats_size
    if not box.stats or size <= 0:
        return []
    regular, bold = face_name(r.font), face_name(r.font, bold=True)
    small = small_size(size, box.stats_min)
    row_h = h / len(box.stats)
    pad = inset(r)
    x, w = x + pad, w - 2 * pad
    out = []
    for index, row in enumerate(box.stats):
        baseline = y + h - index * row_h - row_h / 2 - size * 0.35
        out.append((x, baseline, ((regular, size, label_text(row, icons)),)))
        pieces = tuple((bold, size, t) if b else (regular, small, t)
                       for t, b in value_pieces(row, icons))
        right = x + w - sum(width(t, f, s) for f, s, t in pieces)
        out.append((right, baseline, pieces))
    return out


def text_pieces(box, icons: dict[str, str]):
    """(font, text) of every piece of text the box prints: what text_lines and stats_lines
    place, without placing it (render.replay.characters gathers the characters of a build)."""
    r = box.region
    if r.type in ("text", "icon") and box.text is not None:
        for line in box.text.lines:
            yield from line.runs
    elif r.type == "stats" and box.stats and box.stats_size > 0:
        regular, bold = face_name(r.font), face_name(r.font, bold=True)
        for row in box.stats:
            yield regular, label_text(row, icons)
            for text, strong in value_pieces(row, icons):
                yield (bold if strong else regular), text


def placed_lines(box, card_h: float, icons: dict[str, str]) -> list[PlacedLine]:
    """The text of any text-bearing box on a card, in card points (rotation not applied)."""
    x, y, w, h = box_rect(box, card_h)
    if box.region.type in ("text", "icon") and box.text is not None:
        return text_lines(box, x, y, w, h)
    if box.region.type == "stats":
        return stats_lines(box, x, y, w, h, icons)
    return []


def _runs(box, card_h: float, icons: dict[str, str]):
    """Per run of text of a box, where it is set: (font, size, text, pen, baseline, its inked
    glyphs relative to the pen (_run_glyphs), their union, the turn and its centre)."""
    x, y, w, h = box_rect(box, card_h)
    turn, centre = box.region.rotate, (x + w / 2, y + h / 2)
    for pen, baseline, pieces in placed_lines(box, card_h, icons):
        for font, size, text in pieces:
            glyphs, union, advance = _run_glyphs(font, size, text)
            yield font, size, text, pen, baseline, glyphs, union, turn, centre
            pen += advance


def run_inks(box, card_h: float, icons: dict[str, str]):
    """Per run of text of a box: (size, the run's ink box, its glyphs as (character, ink box)),
    in card points, the box's rotation (about its centre, as the painter turns it) applied.
    The glyphs come as a function: the check needs them only where a run comes too close."""
    for _, size, _, pen, baseline, glyphs, union, turn, centre in _runs(box, card_h, icons):
        if glyphs:
            def each(glyphs=glyphs, pen=pen, baseline=baseline, turn=turn, centre=centre):
                return [(char, _turned((pen + gx0, baseline + gy0, pen + gx1,
                                        baseline + gy1), turn, *centre))
                        for char, gx0, gy0, gx1, gy1 in glyphs]
            ux0, uy0, ux1, uy1 = union
            yield size, _turned((pen + ux0, baseline + uy0, pen + ux1, baseline + uy1),
                                turn, *centre), each


def glyph_outlines(box, card_h: float, icons: dict[str, str]):
    """Per inked glyph of a box: (character, its ink box, its Outline or None), in card points,
    placed and turned as run_inks places them (the crossing preflight)."""
    return [glyph for _, placed in run_outlines(box, card_h, icons) for glyph in placed()]


def run_outlines(box, card_h: float, icons: dict[str, str]):
    """Per run of text of a box that inks a glyph: (a box holding every glyph's ink box and
    outline box, its glyphs placed as glyph_outlines places them — as a function: the crossing
    preflight places the glyphs only of the runs that come near a line)."""
    out = []
    for font, size, text, pen, baseline, glyphs, union, turn, centre in _runs(box, card_h,
                                                                               icons):
        if not glyphs:
            continue
        extent = _run_extent(font, size, text)
        x0, y0, x1, y1 = union if extent is None else (
            min(union[0], extent[0]), min(union[1], extent[1]), max(union[2], extent[2]),
            max(union[3], extent[3]))
        bound = _turned((pen + x0, baseline + y0, pen + x1, baseline + y1), turn, *centre)

        def placed(font=font, size=size, pen=pen, baseline=baseline, glyphs=glyphs, turn=turn,
                   centre=centre):
            return [(char, _turned((pen + gx0, baseline + gy0, pen + gx1, baseline + gy1),
                                   turn, *centre), _outline(char, font, size, pen + gx0,
                                                            baseline, turn, centre))
                    for char, gx0, gy0, gx1, gy1 in glyphs]
        out.append((bound, placed))
    return out


def _outline(char: str, font: str, size: float, left: float, baseline: float, turn: int,
             centre) -> "Outline | None":
    """A glyph's Outline, its ink box's left edge at `left` (None: no outline points)."""
    extent = _extent(char, font)
    if extent is None:
        return None
    return Outline(glyph_points(char, font), extent, left - glyph_box(char, font)[0] * size,
                   baseline, size, turn, centre)


def ink_bound(box, card_h: float, icons: dict[str, str]):
    """A box holding every glyph's ink box and outline box of a text-bearing box, as
    glyph_outlines places them (None: no glyph), made run by run: the crossing preflight
    passes over a region that lies far from every line, or well inside a frame, without
    placing its glyphs one by one. Grown by a hair: it sums in another order."""
    runs = run_outlines(box, card_h, icons)
    return grown_bound([bound for bound, _ in runs]) if runs else None


def grown_bound(rects):
    """The box enclosing boxes, grown by a hair (ink_bound)."""
    x0, y0, x1, y1 = _enclosing(rects)
    return (x0 - 1e-6, y0 - 1e-6, x1 + 1e-6, y1 + 1e-6)


def _enclosing(rects) -> tuple[float, float, float, float]:
    """The box enclosing boxes (x0, y0, x1, y1)."""
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects),
            max(r[3] for r in rects))


@lru_cache(maxsize=8192)
def _run_extent(font: str, size: float, text: str):
    """The union of a run's glyphs' outline boxes (glyph_points'), relative to its pen and
    baseline; None when no glyph has outline points."""
    glyphs, _union, _advance = _run_glyphs(font, size, text)
    found = []
    for char, gx0, _gy0, _gx1, _gy1 in glyphs:
        extent = _extent(char, font)
        if extent is not None:
            start = gx0 - glyph_box(char, font)[0] * size
            found.append((start + extent[0] * size, extent[1] * size,
                          start + extent[2] * size, extent[3] * size))
    return _enclosing(found) if found else None


class Outline:
    """The points of one glyph's outline placed on the card. Made when first asked for: a card
    sets thousands of glyphs and the preflight needs the points only of those that come near a
    line; `box` (every point lies in it, exactly: the placing is monotonic in each coordinate
    for turns of 90 degrees) tells which."""

    __slots__ = ("_em", "_start", "_baseline", "_size", "_turn", "_centre", "box", "_points")

    def __init__(self, em, extent, start: float, baseline: float, size: float, turn: int,
                 centre: tuple[float, float]):
        self._em, self._start, self._baseline, self._size = em, start, baseline, size
        self._turn, self._centre, self._points = turn, centre, None
        x0, y0, x1, y1 = extent
        self.box = _turned((start + x0 * size, baseline + y0 * size, start + x1 * size,
                            baseline + y1 * size), turn, *centre)

    @property
    def points(self) -> list[tuple[float, float]]:
        if self._points is None:
            start, baseline, size = self._start, self._baseline, self._size
            self._points = [_turned_point(start + px * size, baseline + py * size, self._turn,
                                          *self._centre) for px, py in self._em]
        return self._points


@lru_cache(maxsize=4096)
def _extent(char: str, font: str) -> tuple[float, float, float, float] | None:
    """The box of a glyph's outline points in em (off-curve points may lie outside the glyph's
    own box from the font), or None where glyph_points has none."""
    points = glyph_points(char, font)
    if points is None:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _turned_point(px: float, py: float, degrees: int, cx: float, cy: float):
    if not degrees:
        return (px, py)
    c, s = round(math.cos(math.radians(degrees))), round(math.sin(math.radians(degrees)))
    dx, dy = px - cx, py - cy
    return (cx + c * dx - s * dy, cy + s * dx + c * dy)


@lru_cache(maxsize=8192)
def _run_glyphs(font: str, size: float, text: str):
    """The inked glyphs of one run relative to its pen and baseline, their union and the run's
    advance: a stat label or a rule word repeats on many cards, so each is measured once."""
    glyphs, pen = [], 0.0
    for char in text:
        em = glyph_box(char, font)
        if em is not None:
            glyphs.append((char, pen + em[0] * size, em[1] * size, pen + em[2] * size,
                           em[3] * size))
        pen += width(char, font, size)
    if not glyphs:
        return (), None, pen
    union = (min(g[1] for g in glyphs), min(g[2] for g in glyphs),
             max(g[3] for g in glyphs), max(g[4] for g in glyphs))
    return tuple(glyphs), union, pen


def _turned(rect, degrees: int, cx: float, cy: float):
    """A rectangle turned counter-clockwise about (cx, cy); its bounding box."""
    if not degrees:
        return rect
    c, s = round(math.cos(math.radians(degrees))), round(math.sin(math.radians(degrees)))
    xs, ys = [], []
    for px, py in ((rect[0], rect[1]), (rect[2], rect[1]), (rect[0], rect[3]),
                   (rect[2], rect[3])):
        dx, dy = px - cx, py - cy
        xs.append(cx + c * dx - s * dy)
        ys.append(cy + s * dx + c * dy)
    return (min(xs), min(ys), max(xs), max(ys))


def outline_problems(face, card_size: tuple[float, float], safe: float, minimum: float,
                     icons: dict[str, str]) -> list[tuple[str, str]]:
    """(region, message) for every text-bearing box of a face whose glyph outlines leave the
    safe zone, or that prints a glyph below `minimum` pt — one message per box and problem."""
    w, h = card_size
    out = []
    for box in face.boxes:
        if box.region.type not in ("text", "icon", "stats"):
            continue
        worst, small = None, None
        for size, union, glyphs in run_inks(box, h, icons):
            if size < minimum - 1e-6 and small is None:
                small = (glyphs()[0][0], size)
            if _reach(union, w, h) >= safe - 0.01:
                continue  # the whole run lies inside
            for char, ink in glyphs():
                reach = _reach(ink, w, h)
                if reach < safe - 0.01 and (worst is None or reach < worst[1]):
                    worst = (char, reach)
        if worst is not None:
            where = (f"{worst[1]:.2f} mm from the trim, inside the {safe:g} mm safe zone"
                     if worst[1] >= 0 else f"{-worst[1]:.2f} mm past the trim, off the card")
            out.append((box.name, f"the outline of '{worst[0]}' reaches {where}; move the "
                                  f"region inwards or make the text smaller"))
        if small is not None:
            out.append((box.name, f"'{small[0]}' prints at {small[1]:g} pt, below the pack's "
                                  f"minimum of {minimum:g} pt (print.min_font_size)"))
    return out


def _reach(rect, w: float, h: float) -> float:
    """How close (mm) an ink box in card points comes to the trim of a w x h mm card."""
    x0, y0, x1, y1 = rect
    return min(x0 / MM, y0 / MM, w - x1 / MM, h - y1 / MM)
