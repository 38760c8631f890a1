"""The drawn faces a build keeps for the next one (render.replay explains what a recording is).

Storage only: what a face prints and how a recording replays are render.replay's.

A designer changes one stat and builds again: 1039 of 1040 faces print as they did, and drawing
them (glyph by glyph) was most of the build. So a build keeps its lasting recordings in the
cardgen cache, one entry per pack and card size, and the next build replays every face whose
key — the hash of its laid-out boxes and its pictures' bytes (pipeline.faces.face_keys) — it finds there.

An entry holds the alphabet its recordings were drawn with: when the faces of the new build
print another set of characters with some font (a new 'ß' on one card), the codes of every
font could move, and no recording of the entry is used. The entry's name covers the code that
draws faces (the source of the modules below) and reportlab's version: a changed painter never
replays what the old one drew.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Iterable

from . import cache

KIND = "faces"
FORMAT = 2
# the modules whose code decides what a face's operators are
_DRAWING = ("render/card.py", "render/replay.py", "pictures/store.py", "text/fonts.py",
            "text/typeset.py", "text/fit.py", "pictures/portrait/draw.py",
            "pictures/portrait/hair.py", "pictures/portrait/head.py", "pictures/portrait/traits.py",
            "text/stats.py", "units.py", "pictures/portrait/shapes.py", "pictures/reading.py",
            "pictures/encoding.py", "pictures/embedding.py", "pictures/portrait/court.py")


def entry_name(folder: Path, card_size, icons: dict[str, str]) -> str:
    """The cache entry of a pack's faces at this card size (a --card-size build keeps its own)."""
    import reportlab
    return cache.key(KIND, FORMAT, cache.code_key(*_DRAWING), reportlab.Version,
                     str(Path(folder).resolve()),
                     tuple(card_size), sorted(icons.items()))


def alphabet(each: Iterable[dict[str, str]]) -> dict[str, str]:
    """{font: every character of the faces printed with it, sorted}, from each face's
    characters(): what print documents are seeded with (render.replay.seed)."""
    union: dict[str, set] = {}
    for chars in each:
        for font, found in chars.items():
            union.setdefault(font, set()).update(found)
    return {font: "".join(sorted(union[font])) for font in sorted(union)}


class Kept:
    """One pack's entry: read before the faces are drawn, written after."""

    def __init__(self, name: str):
        self.name = name
        self.alphabet: dict[str, str] = {}
        self.recordings: dict[str, tuple] = {}  # face key → (code, fonts, pictures)
        self.characters: dict[str, dict[str, str]] = {}  # face key → its characters
        blob = cache.read(KIND, name)
        if blob:
            try:
                self.alphabet, faces = pickle.loads(blob)
                for key, (code, fonts, pictures, chars) in faces.items():
                    self.recordings[key] = (code, fonts, pictures)
                    self.characters[key] = chars
            except Exception:  # an entry of another format or a torn write: start afresh
                self.alphabet, self.recordings, self.characters = {}, {}, {}

    def alphabet_for(self, faces: dict[str, object], characters) -> dict[str, str]:
        """The alphabet of this build's faces ({face key: face}); `characters(face)` gives a
        face's {font: characters} (render.replay.characters); a face the entry holds is not
        looked at again."""
        for key, face in faces.items():
            if key not in self.characters:
                self.characters[key] = characters(face)
        return alphabet(self.characters[key] for key in faces)

    def usable(self, alphabet: dict[str, str]) -> dict[str, tuple]:
        """The entry's recordings as (code, fonts, pictures), when they were drawn with this
        alphabet (render.replay.Recording makes them drawable again)."""
        return self.recordings if alphabet == self.alphabet else {}

    def save(self, alphabet: dict[str, str], lasting: dict) -> None:
        """Keep this build's lasting recordings (only they: the entry does not grow with
        every edit); written only when it changed."""
        if alphabet == self.alphabet and lasting.keys() == self.recordings.keys():
            return
        faces = {key: (rec.code, rec.fonts, rec.pictures, self.characters[key])
                 for key, rec in lasting.items() if key in self.characters}
        cache.write_pickled(KIND, self.name, (alphabet, faces))
