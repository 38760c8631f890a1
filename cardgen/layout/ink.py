"""--ink-saver: a face as each region declares it for a home inkjet (`ink_saver` in layouts).

Why declared per region: only the layout knows which fill is a background that may go light
and which colour carries the meaning. A full-bleed back becomes a light tint of itself and its
lettering and lines take the background's colour at full strength ("ink"), so a deck stays
recognisable; 12 dark pages for one deck become 12 light ones.
"""

from __future__ import annotations

import dataclasses

from .card import CardFace

TINT = 0.15  # a tint keeps this share of its colour, the rest is paper white
LEGIBLE = 4.5  # the least contrast of the ink on its own tint (WCAG AA for body text)


def tint(colour: str) -> str:
    """#RRGGBB mixed with white, TINT of the colour left."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - v) * TINT):02X}" for v in rgb)


def ink_colour(face: CardFace) -> str:
    """The face's ink: the fill of its first tinted region (its background), darkened until
    it reads on its own tint (LEGIBLE: a yellow's lettering would vanish on pale yellow);
    black when nothing is tinted."""
    for box in face.boxes:
        if box.region.ink_saver == "tint" and box.fill not in (None, "none"):
            return legible(box.fill)
    return "#000000"


def legible(colour: str, on: str | None = None) -> str:
    """`colour`, mixed with black in steps of 5 % until its contrast on `on` (by default
    tint(colour)) is at least LEGIBLE."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    on = on or tint(colour)
    background = _luminance([int(on[i:i + 2], 16) for i in (1, 3, 5)])
    for step in range(21):
        mixed = [round(v * (1 - step / 20)) for v in rgb]
        if (background + 0.05) / (_luminance(mixed) + 0.05) >= LEGIBLE:
            break
    return "#" + "".join(f"{v:02X}" for v in mixed)


def behind(face: CardFace, index: int) -> str | None:
    """The colour behind box `index` at its centre: its own fill, else the fill of the
    topmost box drawn before it there ("#FFFFFF", the paper, when none; None when a picture
    lies behind: its colour is not known)."""
    box = face.boxes[index]
    if box.fill not in (None, "none") and box.region.type != "line":
        return box.fill
    r = box.region
    cx, cy = r.x + r.w / 2, r.y + r.h / 2
    for under in reversed(face.boxes[:index]):
        u = under.region
        if not (u.x <= cx <= u.x + u.w and u.y <= cy <= u.y + u.h):
            continue
        if u.type in ("image", "portrait"):
            return None
        if under.fill not in (None, "none") and u.type != "line":
            return under.fill
    return "#FFFFFF"


def _luminance(rgb) -> float:
    """WCAG relative luminance of 0..255 channels."""
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
              for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_saved(face: CardFace) -> CardFace:
    """The face as its regions declare for --ink-saver (a new face; the given one is kept).
    Words in the ink are darkened further where what lies behind them went light in another
    colour (a second department's tab): they read at LEGIBLE or better."""
    ink = ink_colour(face)
    boxes = []
    for box in face.boxes:
        mode = box.region.ink_saver
        if mode == "hide":
            continue
        if mode == "keep":
            boxes.append(box)
            continue
        fill, stroke, colour = box.fill, box.stroke, box.colour
        if mode == "tint":
            fill, stroke, colour = (_each(c, tint) for c in (fill, stroke, colour))
        elif mode == "ink":
            fill, stroke, colour = (_each(c, lambda _: ink) for c in (fill, stroke, colour))
        else:  # outline
            fill, stroke = None, ink
        boxes.append(dataclasses.replace(box, fill=fill, stroke=stroke, colour=colour))
    light = CardFace(face.card_id, boxes)
    for index, box in enumerate(boxes):
        if box.region.ink_saver == "ink" and box.colour not in (None, "none") and \
                (box.text is not None or box.stats):
            under = behind(light, index)
            if under is not None:
                boxes[index] = dataclasses.replace(box, colour=legible(box.colour, under))
    return light


def _each(colour, change):
    return colour if colour in (None, "none") else change(colour)
