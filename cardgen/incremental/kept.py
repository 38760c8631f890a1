"""Laid-out card fronts kept between builds: a stat changed on one card, 1039 cards need not be
laid out (templates rendered, text fitted, every glyph's outline checked) again.

A front is kept under a key hashing everything its layout is made of: the card as validated
(its fields, its kind), the pack as loaded (print settings, kinds, groups, stat categories,
labels, icons), its layout's regions at this card size and safe zone, and the code that lays
out (the source of the modules below). Only a front that met no problem is kept: a card with
a problem is laid out afresh, so its diagnostics are made, every build. One cache entry per
pack holds the fronts of its last build (cardgen.incremental.cache; deleting it is always safe).

Kept with each front: its `repr` (what pipeline.faces.face_keys hashes), so that the faces of a rebuild
are not described again either.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from pathlib import Path

from . import cache
from .fingerprint import regions_digest
from .memo import by_identity

KIND = "layouts"
FORMAT = 3
_LAYING_OUT = ("layout/card.py", "text/stats.py", "layout/faces.py", "layout/ink.py",
               "text/fit.py", "text/typeset.py", "text/fonts.py", "text/words.py",
               "text/templates.py", "load/pack.py", "model/card.py", "model/layout.py",
               "model/pack.py", "model/base.py", "units.py")


class KeptFronts:
    """One pack's laid-out fronts: read before the layout stage, written after it."""

    def __init__(self, data, card_size, safe: float, icons: dict[str, str],
                 held: dict | None = None):
        """`held`: a resident process's fronts of its last layout, by entry name (pipeline.
        resident): read from and saved to it instead of the disk cache."""
        self.name = cache.key(KIND, FORMAT, cache.code_key(*_LAYING_OUT),
                              str(Path(data.folder).resolve()), tuple(card_size), safe)
        # what every front of the pack depends on, hashed once
        self.pack = hashlib.sha256(repr((data.pack, sorted(icons.items()), tuple(card_size),
                                         safe)).encode()).hexdigest()
        self.icons = icons
        self.layouts: dict[str, str] = {}
        self.old: dict[str, tuple] = {}
        self.new: dict[str, tuple] = {}
        self.reprs: dict[int, tuple] = {}  # id(face) → (face, repr(face.boxes)): the face is
        # held, so that its id() stays its own
        self.held = held
        if held is not None and self.name in held:
            self.old = held[self.name]
            return
        blob = cache.read(KIND, self.name)
        if blob:
            try:
                self.old = pickle.loads(blob)
            except Exception:  # another format or a torn write: lay every front out
                self.old = {}

    def key(self, lc, layout, extra: str = "") -> str:
        """The key of a card's front; `extra`: what else the front depends on (the uniform
        sizes of its layout, CardLayouter.uniform_key)."""
        if layout.name not in self.layouts:
            self.layouts[layout.name] = regions_digest(layout)
        card = _card_json(lc) if self.held is not None else _dumped(lc)
        return hashlib.sha256(f"{self.pack}{self.layouts[layout.name]}{card}{extra}".encode()
                              ).hexdigest()

    def entry(self, key: str) -> tuple | None:
        """The kept front under this key, as keep() stored it: (boxes, repr, fonts); None when
        there is none (layout.faces.kept_front makes the face again)."""
        return self.old.get(key)

    def reuse(self, key: str, face, entry: tuple) -> None:
        """The face made again from entry(key) is this build's front: kept again."""
        self.new[key] = entry
        self.reprs[id(face)] = (face, entry[1])

    def keep(self, key: str, face, boxes: list, fonts: list[str]) -> None:
        """A front laid out without a problem, for the next build: its boxes as
        (name, field values) and the fonts its text uses (layout.faces.keep_front)."""
        described = repr(face.boxes)
        self.new[key] = (boxes, described, fonts)
        self.reprs[id(face)] = (face, described)

    def described(self, face) -> str | None:
        """repr(face.boxes) when the face is one of these fronts."""
        entry = self.reprs.get(id(face))
        return entry[1] if entry is not None and entry[0] is face else None

    def save(self) -> None:
        """The fronts of this build (only they), written when they changed."""
        if self.held is not None:
            self.held[self.name] = self.new
            return
        if self.new.keys() != self.old.keys():
            cache.write_pickled(KIND, self.name, self.new)


# card → its JSON (KeptFronts.key) in a resident process (its fronts `held`): it keeps the
# models of the cards an edit left as they were (load.pack), whose JSON is then not made again
# at every edit (incremental.memo). A one-off build keeps nothing.
_CARDS: dict = {}


def _dumped(lc) -> str:
    return json.dumps([lc.kind, lc.card.model_dump(), lc.card.extra_fields], sort_keys=True,
                      default=str)


def _card_json(lc) -> str:
    return by_identity(_CARDS, (lc.card,), lc.kind, lambda: _dumped(lc))
