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


def tint(colour: str) -> str:
    """#RRGGBB mixed with white, TINT of the colour left."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - v) * TINT):02X}" for v in rgb)


def ink_colour(face: CardFace) -> str:
    """The face's ink: the fill of its first tinted region (its background), else black."""
    for box in face.boxes:
        if box.region.ink_saver == "tint" and box.fill not in (None, "none"):
            return box.fill
    return "#000000"


def ink_saved(face: CardFace) -> CardFace:
    """The face as its regions declare for --ink-saver (a new face; the given one is kept)."""
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
    return CardFace(face.card_id, boxes)


def _each(colour, change):
    return colour if colour in (None, "none") else change(colour)
