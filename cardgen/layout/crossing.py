"""The preflight of what a face's regions print over each other: text whose ink crosses a
drawn frame or line, text whose ink runs into another region's ink, and a filled shape laid
over a frame's line.

Why measured on the laid-out face: a region's box says nothing about its ink. A "K" set at
84 pt fills its box and more; a title fitted into a back's frame may still reach over both
frame lines; a label pill drawn on the frame hides half of it. Each is seen only on the
printed card, and each is found here from the glyph outlines the painter will place
(text.typeset), in card points, before anything is drawn.

What is allowed: a plate (a filled, framed shape) laid over a pattern hides the pattern's
ink under it and cuts it at its edge, on purpose; a fill drawn between two regions hides
where they meet. Backgrounds under a frame (drawn before it) are the frame's ground.
"""

from __future__ import annotations

import math

from ..text.typeset import box_rect, glyph_outlines, grown_bound, run_outlines
from ..units import MM

SLACK = 0.25  # pt: ink boxes touching within this are not counted (outlines are curves)
CLEARANCE = 0.5 * MM  # ink nearer than this to a line reads as touching it, once printed
TEXT = ("text", "icon", "stats")

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in card points


def crossing_problems(face, card_size: tuple[float, float],
                      icons: dict[str, str]) -> list[tuple[str, str]]:
    """(region, message) for each text region whose ink crosses a frame, a line or another
    region's ink, and each filled shape laid over a frame's line: one message per pair."""
    h = card_size[1]
    boxes = list(face.boxes)  # in drawing order
    regions = [i for i, box in enumerate(boxes) if box.region.type in TEXT]
    frames = {i: _frame(box, h) for i, box in enumerate(boxes)}
    frames = {i: f for i, f in frames.items() if f is not None}
    # per region, per run of its text: a box holding the run's glyphs' ink and outline
    # points; the glyphs are placed one by one only where a frame or another region's ink
    # comes near the run (a small ring beside a long text: its nearest lines only)
    runs = {i: run_outlines(boxes[i], h, icons) for i in regions}
    bounds = {i: grown_bound([b for b, _ in runs[i]]) if runs[i] else None for i in regions}
    placed: dict[tuple[int, int], list] = {}

    def run_glyphs(i: int, r: int) -> list:  # the glyphs of run r of region i (_glyphs)
        if (i, r) not in placed:
            placed[(i, r)] = _inked(runs[i][r][1]())
        return placed[(i, r)]

    unions: dict[int, tuple] = {}

    def inks(i: int) -> tuple:  # (the region's glyphs, their union)
        if i not in unions:
            glyphs = [g for r in range(len(runs[i])) for g in run_glyphs(i, r)]
            unions[i] = (glyphs, _union(glyphs) if glyphs else None)
        return unions[i]
    out: list[tuple[str, str]] = []
    for t in regions:
        for f, frame in frames.items():
            if f == t:
                continue
            if f > t and _filled(boxes[f]):
                continue  # a plate laid over the text: its edge cuts the text on purpose
            if _allowed(boxes[t], boxes[f]) or bounds[t] is None or frame.clear_of(bounds[t]):
                continue
            hit = next((char for r, (bound, _) in enumerate(runs[t])
                        if not frame.clear_of(bound)
                        for char, ink, outline in run_glyphs(t, r)
                        if frame.crosses(ink, outline) and
                        not _hidden(boxes, min(t, f), max(t, f), ink, h)), None)
            if hit is not None:
                out.append((boxes[t].name, f"the ink of '{hit}' crosses the "
                            f"{'line' if frame.line else 'frame'} of region "
                            f"{boxes[f].name}; move or shrink one of them"))
    for a_index, a in enumerate(regions):
        for b in regions[a_index + 1:]:
            near = bounds[a] is not None and bounds[b] is not None and \
                _meets(bounds[a], bounds[b]) and not _allowed(boxes[a], boxes[b])
            pair = _overlap(inks(a)[0], inks(b)[0], inks(a)[1], inks(b)[1]) if near else None
            if pair is not None and not _hidden(boxes, a, b, pair[2], h):
                out.append((boxes[b].name, f"the ink of '{pair[1]}' runs into the ink of "
                            f"'{pair[0]}' of region {boxes[a].name}; move or shrink one of "
                            "them"))
    for s, box in enumerate(boxes):
        if box.region.type != "rect" or not _filled(box):
            continue
        shape = _rect(box, h)
        for f, frame in frames.items():
            if f < s and not frame.line and not _allowed(box, boxes[f]) and \
                    frame.crosses(shape, None, shape=True, clearance=0.0):
                out.append((box.name, f"this filled shape lies over the frame of region "
                            f"{boxes[f].name} and hides part of its line; keep it inside "
                            "the frame or outside it"))
    return out


def _glyphs(box, card_h: float, icons) -> list[tuple[str, Rect, object]]:
    """(character, its ink box less the slack, its typeset.Outline or None) per inked glyph."""
    return _inked(glyph_outlines(box, card_h, icons))


def _inked(glyphs) -> list[tuple[str, Rect, object]]:
    """typeset's placed glyphs as the checks measure them: no space, the ink box less the
    slack."""
    return [(char, _grow(ink, -SLACK), outline) for char, ink, outline in glyphs
            if not char.isspace()]


def _allowed(first, second) -> bool:
    """A layout says one of the two regions lies over the other on purpose (`overlaps`)."""
    return second.name in (first.region.overlaps or ()) or \
        first.name in (second.region.overlaps or ())


def _filled(box) -> bool:
    return box.fill not in (None, "none") and box.region.opacity >= 1


def _rect(box, card_h: float) -> Rect:
    x, y, w, h = box_rect(box, card_h)
    return (x, y, x + w, y + h)


def _grow(rect: Rect, by: float) -> Rect:
    return (rect[0] - by, rect[1] - by, rect[2] + by, rect[3] + by)


class _Frame:
    """A stroked outline (rounded rectangle) or a line, with the width of its stroke."""

    def __init__(self, rect: Rect, half: float, radius: float, line: bool):
        self.rect, self.half, self.radius, self.line = rect, half, radius, line
        self._bands: dict[float, tuple] = {}

    def _band(self, clearance: float) -> tuple:
        """(band, outer, inner, radius inside, radius outside) of a frame, or (band, the
        reach of a line's band) of a line, at a clearance: made once, a frame is asked about
        every glyph near it."""
        if clearance not in self._bands:
            band = self.half + clearance
            if self.line:
                x0, y0, x1, y1 = self.rect  # the band's ends lie within √2 bands of the ends
                self._bands[clearance] = (band, _grow((min(x0, x1), min(y0, y1), max(x0, x1),
                                                       max(y0, y1)), 2 * band + 1e-5))
            else:
                self._bands[clearance] = (band, _grow(self.rect, band), _grow(self.rect, -band),
                                          max(self.radius - band, 0.0), self.radius + band)
        return self._bands[clearance]

    def crosses(self, ink: Rect, outline, shape: bool = False,
                clearance: float = CLEARANCE) -> bool:
        """The ink (a glyph, or a shape) meets the line or comes nearer than `clearance`. A
        glyph is measured by the points of its outline (a ♣ in a ring keeps clear of it, a
        keyboard's corners do not), else by its box. The outline's points are placed only for
        a glyph whose outline box is near the line: far off or well inside, the box decides."""
        if self.line:
            band, reach = self._band(clearance)
            if outline is None:
                return _segment_near(self.rect, ink, band)
            return _meets(outline.box, reach) and \
                _points_near_segment(self.rect, outline.points, band)
        _, outer, inner, radius_in, radius_out = self._band(clearance)
        if outline is not None:
            box = outline.box
            if _apart(box, outer) and _apart(ink, outer):
                return False  # far off
            if _inside_rounded(inner, radius_in, box):
                return False  # inside it (a rounded rectangle is convex: so is every point)
            if not _meets_rounded(outer, radius_out, _grow(box, 1e-5)):
                return _spans(outer, ink)  # no point reaches the line
            points = outline.points
            if all(_point_in(inner, radius_in, px, py) for px, py in points):
                return False  # inside it
            return any(_point_in(outer, radius_out, px, py) for px, py in points) or \
                _spans(outer, ink)
        if not _meets_rounded(outer, radius_out, ink):
            return False  # outside the frame
        if _inside_rounded(inner, radius_in, ink):
            return False  # inside it
        if shape and _inside_rounded(ink, 0.0, outer):
            return False  # a shape holding the whole frame (a background drawn over it)
        return True

    def clear_of(self, bound: Rect) -> bool:
        """No glyph whose ink and outline lie in `bound` can cross this line or frame (see
        crosses): the box lies well inside the frame, or apart from its outer edge, or clear
        of its rounded line and smaller than it (a glyph as wide as the frame, lying over it,
        counts as reaching across it)."""
        if self.line:
            return not _meets(bound, self._band(CLEARANCE)[1])
        _, outer, inner, radius_in, radius_out = self._band(CLEARANCE)
        if _apart(bound, outer) or _inside_rounded(inner, radius_in, bound):
            return True
        wide = bound[2] - bound[0] >= outer[2] - outer[0] or \
            bound[3] - bound[1] >= outer[3] - outer[1]
        return not wide and not _meets_rounded(outer, radius_out, _grow(bound, 1e-5))


def _frame(box, card_h: float) -> _Frame | None:
    """The frame a box draws, or None: a stroked rect or a line (hidden ones never count)."""
    r = box.region
    if box.stroke in (None, "none") or r.stroke_width <= 0 or r.ink_saver == "hide":
        return None
    if r.type == "line":
        x, y, w, h = box_rect(box, card_h)
        return _Frame((x, y + h, x + w, y), r.stroke_width / 2, 0.0, True)
    if r.type == "rect":
        x0, y0, x1, y1 = _rect(box, card_h)
        radius = min(r.radius * MM, (x1 - x0) / 2, (y1 - y0) / 2)
        return _Frame((x0, y0, x1, y1), r.stroke_width / 2, radius, False)
    return None


def _inside_rounded(outer: Rect, radius: float, rect: Rect) -> bool:
    """Every corner of `rect` inside the rounded rectangle `outer`."""
    return all(_point_in(outer, radius, px, py) for px in (rect[0], rect[2])
               for py in (rect[1], rect[3]))


def _point_in(rect: Rect, radius: float, px: float, py: float) -> bool:
    x0, y0, x1, y1 = rect
    if not (x0 - 1e-6 <= px <= x1 + 1e-6 and y0 - 1e-6 <= py <= y1 + 1e-6):
        return False
    cx = min(max(px, x0 + radius), x1 - radius)
    cy = min(max(py, y0 + radius), y1 - radius)
    return math.hypot(px - cx, py - cy) <= radius + 1e-6


def _meets_rounded(outer: Rect, radius: float, rect: Rect) -> bool:
    """`rect` and the rounded rectangle `outer` share a point."""
    x0, y0, x1, y1 = outer
    if rect[2] < x0 or rect[0] > x1 or rect[3] < y0 or rect[1] > y1:
        return False
    # the point of rect nearest to the rounded rectangle's core
    cx0, cx1, cy0, cy1 = x0 + radius, x1 - radius, y0 + radius, y1 - radius
    px = min(max(cx0, rect[0]), rect[2]) if rect[2] < cx0 else \
        max(min(cx1, rect[2]), rect[0]) if rect[0] > cx1 else None
    py = min(max(cy0, rect[1]), rect[3]) if rect[3] < cy0 else \
        max(min(cy1, rect[3]), rect[1]) if rect[1] > cy1 else None
    if px is None or py is None:
        return True  # over a straight side
    corner = (cx0 if px <= cx0 else cx1, cy0 if py <= cy0 else cy1)
    nx = min(max(corner[0], rect[0]), rect[2])
    ny = min(max(corner[1], rect[1]), rect[3])
    return math.hypot(nx - corner[0], ny - corner[1]) <= radius + 1e-6


def _apart(rect: Rect, outer: Rect) -> bool:
    """`rect` shares no point with `outer`, by more than a hair."""
    return rect[2] + 1e-5 < outer[0] or rect[0] - 1e-5 > outer[2] or \
        rect[3] + 1e-5 < outer[1] or rect[1] - 1e-5 > outer[3]


def _spans(outer: Rect, rect: Rect) -> bool:
    """`rect` lies over `outer` and reaches across the whole of it (a long word over a ring's
    top: no point of its outline need fall on the line). A glyph wider than a small ring but
    elsewhere on the card does not."""
    meets = rect[0] <= outer[2] and outer[0] <= rect[2] and rect[1] <= outer[3] and \
        outer[1] <= rect[3]
    return meets and ((rect[0] <= outer[0] and rect[2] >= outer[2]) or
                      (rect[1] <= outer[1] and rect[3] >= outer[3]))


def _segment_near(segment: Rect, rect: Rect, half: float) -> bool:
    """The line from (x0, y0) to (x1, y1), `half` wide on each side, touches `rect`."""
    x0, y0, x1, y1 = segment
    grown = _grow(rect, half)
    if max(x0, x1) < grown[0] or min(x0, x1) > grown[2] or \
            max(y0, y1) < grown[1] or min(y0, y1) > grown[3]:
        return False
    if x0 == x1 or y0 == y1:
        return True  # an upright or level line whose box meets the grown ink
    steps = 32  # a slanted line: sampled (layouts draw level and upright rules)
    return any(grown[0] <= x0 + (x1 - x0) * k / steps <= grown[2] and
               grown[1] <= y0 + (y1 - y0) * k / steps <= grown[3] for k in range(steps + 1))


def _points_near_segment(segment: Rect, points, half: float) -> bool:
    """A glyph's outline meets the line `half` wide on each side: a point within it, or
    points on both sides of it where it runs."""
    x0, y0, x1, y1 = segment
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return False
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    sides = set()
    for px, py in points:
        along = (px - x0) * ux + (py - y0) * uy
        if -half <= along <= length + half:
            across = (px - x0) * uy - (py - y0) * ux
            if abs(across) <= half:
                return True
            sides.add(across > 0)
    return len(sides) == 2


def _overlap(first, second, a_union: Rect | None, b_union: Rect | None
             ) -> tuple[str, str, Rect] | None:
    """(character of the first, of the second, where they meet) for two regions' inks, with
    their _union()s (made once a face: its regions are paired many times)."""
    if not first or not second:
        return None
    if not _meets(a_union, b_union):
        return None
    for char_a, a, _ in first:
        if not _meets(a, b_union):
            continue
        for char_b, b, _ in second:
            if _meets(a, b):
                return char_a, char_b, (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]),
                                        min(a[3], b[3]))
    return None


def _union(glyphs) -> Rect:  # (char, box, outline) each
    return (min(g[1][0] for g in glyphs), min(g[1][1] for g in glyphs),
            max(g[1][2] for g in glyphs), max(g[1][3] for g in glyphs))


def _meets(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hidden(boxes, first: int, last: int, where: Rect, card_h: float) -> bool:
    """A filled shape drawn between two regions covers the place where they meet."""
    for box in boxes[first + 1:last]:
        if box.region.type in ("rect", "portrait", "image") and \
                (_filled(box) or box.region.type != "rect"):
            radius = box.region.radius * MM
            if _inside_rounded(_rect(box, card_h), radius, where):
                return True
    return False
