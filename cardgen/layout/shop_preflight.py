"""A print shop's minimums, checked on the laid-out faces: reverse text (light type on a darker
colour) below the size the shop prints it reliably, and lines thinner than its least line
weight. Warnings (errors with --strict), one for each layout region, naming the cards.

Why here: the faces' fitted type sizes, colours and boxes are known after layout and before
anything is drawn, and a region points at the line of layouts.yaml to change.
"""

from __future__ import annotations

from ..diagnostics import Report
from ..pictures.portrait.draw import THINNEST_STROKE
from ..units import MM
from .card import STATS_RULE
from .ink import behind


def _luminance(colour: str | None) -> float | None:
    """WCAG relative luminance of '#RRGGBB', None for no colour."""
    if not colour or not colour.startswith("#") or len(colour) != 7:
        return None
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def face_problems(face, shop) -> list[tuple[str, str]]:
    """(region, problem) of one face against the shop's minimums."""
    found = []
    for index, box in enumerate(face.boxes):
        r = box.region
        size = box.text.size if box.text is not None else (box.stats_size if box.stats else 0)
        if size and shop.min_reverse:
            text, under = _luminance(box.colour), _luminance(behind(face, index))
            if text is not None and under is not None and text > under and \
                    size < shop.min_reverse - 1e-9:
                found.append((box.name, f"reverse text (light on a darker colour) at "
                                        f"{size:g} pt; {shop.label} prints reverse text from "
                                        f"{shop.min_reverse:g} pt"))
        if not shop.min_line:
            continue
        stroked = box.stroke not in (None, "none")
        widths = []
        if stroked and r.stroke_width:
            widths.append(("line" if r.type == "line" else "outline", r.stroke_width))
        if r.type == "stats" and len(box.stats) > 1:
            widths.append(("rules between the rows", STATS_RULE))
        if r.type == "portrait" and not box.image:
            widths.append(("the drawn portrait's finest strokes", THINNEST_STROKE * r.h * MM))
        for what, width in widths:
            if width < shop.min_line - 1e-9:
                found.append((box.name, f"lines of {width:.2g} pt ({what}); {shop.label} "
                                        f"prints lines from {shop.min_line:g} pt"))
    return found


def check_shop_minimums(shop, faces, report: Report) -> None:
    """faces: (card or None for a back, its layout, the laid-out face). One warning per layout
    region and problem, at the region in its layouts file, naming the cards."""
    if shop is None or not (shop.min_reverse or shop.min_line):
        return
    grouped: dict[tuple[str, str, str], tuple[object, list[str]]] = {}
    for lc, layout, face in faces:
        for region, problem in dict.fromkeys(face_problems(face, shop)):
            entry = grouped.setdefault((layout.name, region, problem), (layout, []))
            entry[1].append(lc.card.id if lc is not None else face.card_id)
    for (name, region, problem), (layout, ids) in grouped.items():
        mark = layout.marks.get(region)
        line, col = (mark.line, mark.col) if mark else (0, 0)
        unique = list(dict.fromkeys(ids))
        shown = ", ".join(unique[:3]) + (" ..." if len(unique) > 3 else "")
        report.warning(mark.file if mark else layout.file, line, col, f"{name}.{region}",
                       f"{problem} (on {len(unique)} face{'s' if len(unique) != 1 else ''}: "
                       f"{shown})")
