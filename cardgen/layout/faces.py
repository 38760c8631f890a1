"""The card layouts a build uses, scaled to the printed card size and checked against the safe
zone, and the faces laid out from them.

Why a module of its own: the card sheets, the rulebook's figures, the deck sheet and the
contact sheet all draw the same faces; laying them out in one place means the card in the book
is the printed card.
"""

from __future__ import annotations

import dataclasses

from ..diagnostics import Report
from ..model.packdata import LoadedCard, PackData
from ..text.fonts import register
from ..text.typeset import text_pieces
from .card import Box, CardFace, CardLayouter, safe_zone_problems

# what a kept front stores of each box besides its name and region (incremental.kept)
_KEPT_FIELDS = tuple(f.name for f in dataclasses.fields(Box))[2:]  # after name and region:
# kept_front passes them to Box() in this order


def used_layouts(data: PackData, layouter: CardLayouter, card_size: tuple[float, float],
                 bleed: float, safe: float) -> dict:
    """Every front and back layout a kind uses, scaled to `card_size` with `bleed`; a region
    outside the safe zone is reported through the layouter."""
    used = {k.front for k in data.pack.kinds} | {k.back for k in data.pack.kinds}
    layouts = {}
    for name in sorted(used & set(data.layouts)):
        drawn = data.layouts[name]
        if drawn.size is None:
            drawn = dataclasses.replace(drawn, size=data.pack.print.size())
        layouts[name] = drawn.scaled_to(card_size, safe).bled_to(card_size, bleed)
        for region, message in safe_zone_problems(layouts[name], card_size, safe):
            layouter._layout_error(layouts[name], region, message)
    return layouts


class FaceBook:
    """Faces of single cards on demand, at the pack's own card size (figures, thumbnails).

    Problems go to a private report: the card sheets of the same build report them already.
    """

    def __init__(self, data: PackData):
        self.data = data
        self.layouter = CardLayouter(data, Report())
        pack_print = data.pack.print
        self.size = pack_print.size()
        self.bleed = pack_print.bleed
        self.layouts = used_layouts(data, self.layouter, self.size, self.bleed, pack_print.safe)
        self._faces: dict[tuple[str, str], CardFace] = {}

    def front(self, lc: LoadedCard) -> CardFace | None:
        kind = self.data.kind(lc.kind)
        return self._face(kind.front if kind else "", lc, lc.card.id)

    def back(self, kind_id: str) -> CardFace | None:
        kind = self.data.kind(kind_id)
        return self._face(kind.back if kind else "", None, f"back:{kind_id}")

    def _face(self, layout: str, lc: LoadedCard | None, subject: str) -> CardFace | None:
        if layout not in self.layouts:
            return None
        key = (layout, subject)
        if key not in self._faces:
            self._faces[key] = self.layouter.face(lc, self.layouts[layout], subject)
        return self._faces[key]


def kept_front(kept, key: str, lc: LoadedCard, layout) -> CardFace | None:
    """The front an earlier build laid out under this key (incremental.kept.KeptFronts), its
    boxes on the layout's regions; None when there is none (or the layout lost a region)."""
    entry = kept.entry(key)
    if entry is None:
        return None
    boxes, _, fonts = entry
    for font in fonts:  # registered as laying the front out would have (drawing needs them)
        register(font.removeprefix("CG-"))
    face = CardFace(lc.card.id)
    regions = layout.regions
    for name, values in boxes:
        region = regions.get(name)
        if region is None:
            return None
        face.boxes.append(Box(name, region, *values))
    kept.reuse(key, face, entry)
    return face


def keep_front(kept, key: str, face: CardFace) -> None:
    """A front laid out without a problem, kept for the next build with the fonts it uses."""
    fonts = sorted({font for box in face.boxes for font, _ in text_pieces(box, kept.icons)})
    kept.keep(key, face, [(box.name, tuple(getattr(box, f) for f in _KEPT_FIELDS))
                          for box in face.boxes], fonts)
