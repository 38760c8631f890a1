"""A loaded pack: its models, cards, layouts and rule chapters with where each was written.

The one data object every stage after load reads (load/pack.py fills it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .card import Card
from .layout import Region
from .marks import Mark, MarkedDict, mark_at
from .pack import Pack
from .rules import Chapter


@dataclass
class LoadedCard:
    """A card with the kind it belongs to and where it was written."""

    card: Card
    kind: str
    file: str
    raw: MarkedDict
    broken: frozenset[str] = frozenset()  # fields left out for a type error ('stats.iq')

    def mark(self, *keys: str) -> Mark:
        """Position of a nested key (e.g. 'stats', 'iq'), or the nearest enclosing one."""
        return mark_at(self.raw, *keys)


@dataclass
class ResolvedLayout:
    name: str
    regions: dict[str, Region]
    file: str
    marks: dict[str, Mark]
    size: tuple[float, float] | None = None  # the card size the regions were drawn for

    def scaled_to(self, card_size: tuple[float, float], safe: float) -> "ResolvedLayout":
        """The same layout for another card size. The safe zone stretches, the margins do not:
        what is inside the safe zone stays inside it, art that runs into the bleed still does.
        Type sizes stay; text fits itself again, down to its minimum."""
        if self.size is None or tuple(self.size) == tuple(card_size):
            return self
        fx = _stretch(self.size[0], card_size[0], safe)
        fy = _stretch(self.size[1], card_size[1], safe)
        regions = {}
        for name, r in self.regions.items():
            x, y = fx(r.x), fy(r.y)
            regions[name] = r.model_copy(update={"x": x, "y": y, "w": fx(r.x + r.w) - x,
                                                 "h": fy(r.y + r.h) - y})
        return ResolvedLayout(self.name, regions, self.file, self.marks, tuple(card_size))


    def bled_to(self, card_size: tuple[float, float], bleed: float) -> "ResolvedLayout":
        """Art that runs off an edge runs to the edge of the actual bleed, whatever bleed the
        layout was drawn with (a print shop asking for 5 mm gets 5 mm of background)."""
        w, h = card_size
        regions = {}
        for name, r in self.regions.items():
            if r.type in ("text", "icon", "stats"):
                regions[name] = r
                continue
            x0, y0, x1, y1 = r.x, r.y, r.x + r.w, r.y + r.h
            x0 = -bleed if x0 < 0 else x0
            y0 = -bleed if y0 < 0 else y0
            x1 = w + bleed if x1 > w else x1
            y1 = h + bleed if y1 > h else y1
            regions[name] = r if (x0, y0, x1, y1) == (r.x, r.y, r.x + r.w, r.y + r.h) else \
                r.model_copy(update={"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0})
        return ResolvedLayout(self.name, regions, self.file, self.marks, self.size)


def _stretch(old: float, new: float, safe: float):
    """Position along one side: margins (safe zone, bleed) kept, the middle scaled."""
    inner = (new - 2 * safe) / (old - 2 * safe) if old > 2 * safe else new / old

    def f(v: float) -> float:
        if v <= safe:
            return v
        if v >= old - safe:
            return v + (new - old)
        return safe + (v - safe) * inner
    return f


@dataclass
class PackData:
    folder: Path
    pack: Pack
    pack_raw: MarkedDict
    pack_file: str
    cards: list[LoadedCard] = field(default_factory=list)
    layouts: dict[str, ResolvedLayout] = field(default_factory=dict)
    chapters: list[tuple[str, Chapter]] = field(default_factory=list)
    inputs: list[Path] = field(default_factory=list)
    layout_names: set[str] = field(default_factory=set)  # defined, even if broken
    written_ids: set[str] = field(default_factory=set)  # every card ID in the files, even broken
    # what is worked out from the loaded pack once and used by several outputs (the laid-out
    # boards: checked, drawn in boards.pdf and in the rulebook's set-up); shared by copies
    derived: dict = field(default_factory=dict, repr=False, compare=False)
    # the translated edition being worked on (its language; None: the base edition), and the
    # language of the base edition then (pack.language is the edition's)
    edition: str | None = None
    base_language: str | None = None

    def kind(self, kind_id: str):
        return next((k for k in self.pack.kinds if k.id == kind_id), None)

    def cards_of(self, kind_id: str) -> list[LoadedCard]:
        return [c for c in self.cards if c.kind == kind_id]

    def group(self, group_id: str | None):
        return next((g for g in self.pack.groups if g.id == group_id), None)
