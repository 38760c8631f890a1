"""What a build leaves for the next one: manifest.json (what was built from which inputs), the
content keys that let a rulebook or boards stay as they are, and the cards that changed.

No timestamps anywhere: the same inputs give the same manifest, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..output import PackWrite, write_packs
from ..paths import ROOT, output_name
from .fingerprint import (FORMAT, ManifestError, file_hash, read_json, regions_digest,
                          well_formed)


def content_key(data, kind: str, settings, pictured_cards=lambda data: set()) -> str:
    """What the rulebook or the boards are made of, read from the loaded pack: a stat or a
    quote changed on a card does not touch them, so they need not be drawn again.
    `pictured_cards(data)`: the cards the rulebook's figures show (documents.rulebook).

    Worked out once per loaded pack and settings: whether the rulebook is drawn in a second
    process and whether it is kept both ask (a few ms each time, at every edit of `cardgen
    watch`)."""
    asked = ("content key", kind, settings.paper, settings.booklet, repr(settings.choice),
             settings.ink_saver, pictured_cards)
    held = data.derived.get(asked)
    # data.derived is shared by copies of the pack (a chosen deck): the key is the same pack's
    # only while its cards, layouts and chapters are the same objects
    if held is None or held[0] is not data.cards or held[1] is not data.layouts or \
            held[2] is not data.chapters:
        held = (data.cards, data.layouts, data.chapters,
                _content_key(data, kind, settings, pictured_cards))
        data.derived[asked] = held
    return held[3]


def _content_key(data, kind: str, settings, pictured_cards) -> str:
    names = {"rulebook": ("pack.yaml", "rules", "composition.yaml", "boards.yaml", "images",
                          "editions"),
             "boards": ("pack.yaml", "boards.yaml", "images", "editions")}[kind]
    digest = hashlib.sha256(repr((settings.paper, settings.booklet, settings.choice,
                                  settings.ink_saver)).encode())
    for name in names:
        for path in sorted(p for p in [data.folder / name, *(data.folder / name).rglob("*")]
                           if p.is_file()):
            digest.update(f"{path.relative_to(data.folder)}:{file_hash(path)}\n".encode())
    pictured: set[str] = set()
    if kind == "rulebook":  # its cover and figures draw real card faces
        for name, layout in sorted(data.layouts.items()):
            digest.update(f"{name}\0{regions_digest(layout)}\0".encode())
            digest.update(repr((layout.file, layout.size, layout.marks)).encode())
        pictured = {lc.card.id for lc in data.cards} if settings.choice is not None \
            else pictured_cards(data)  # house rules picture the chosen cards
    for lc in data.cards:
        hidden = set() if lc.card.id in pictured else {"stats", "quote", "image"}
        shown = lc.card.model_dump(exclude=hidden)
        digest.update(json.dumps([lc.kind, shown, lc.card.extra_fields], sort_keys=True,
                                 default=str).encode())
    return digest.hexdigest()


def unchanged(result, kind: str, key: str, previous: dict | None) -> bool:
    """Keep the previous output of this kind when its content key is the same."""
    if not same_content(kind, key, previous):
        return False
    entry = previous["built"][kind]
    result.built[kind] = list(entry.get("files") or [])
    return True


def same_content(kind: str, key: str, previous: dict | None) -> bool:
    """The previous build made this kind from the same content, and its files are intact."""
    entry = ((previous or {}).get("built") or {}).get(kind) or {}
    return entry.get("content") == key and kind in (previous or {}).get("intact", [])


def changed_cards(printed, faces: dict, before: dict) -> list[tuple[str, str]]:
    """[(card id, 'front' | 'back' | 'front and back' | 'new')] in print order: the cards
    whose printed sides differ from the earlier manifest's."""
    out = []
    for card_id, now in faces.items():
        old = before.get(card_id)
        if old is None:
            out.append((card_id, "new"))
            continue
        sides = [side for side in ("front", "back") if old.get(side) != now[side]]
        if sides:
            out.append((card_id, " and ".join(sides)))
    return out


def manifest(result, keys: dict[str, str], previous: dict, out_dir: Path) -> bytes:
    """What was built from which inputs, with content hashes (no timestamps: reproducible)."""
    data = result.data
    root = data.folder.parent.parent

    def rel(path: Path) -> str:
        """Inputs named relative to the data folder's parent, or to cardgen's own folder."""
        for base in (root, ROOT):
            try:
                return str(path.resolve().relative_to(base.resolve()))
            except ValueError:
                continue
        return path.name

    built = dict(previous.get("built") or {})
    outputs = dict(previous.get("outputs") or {})
    for kind, names in result.built.items():
        built[kind] = {"key": keys[kind], "files": names}
        if kind in result.content:
            built[kind]["content"] = result.content[kind]
    for name, content in result.files.items():
        outputs[name] = sha256_hex(content)
    pngs = dict(previous.get("png") or {})
    pngs.update(result.png_keys)
    pages = dict(previous.get("pages") or {})
    pages.update(result.page_keys)
    listed = {name for entry in built.values() for name in entry["files"]}
    faces = result.faces or previous.get("faces") or {}  # no faces laid out: keep the last
    body = {
        "format": FORMAT,
        "pack": data.pack.id,
        "title": data.pack.title,
        "cards": result.counts,
        "inputs": {rel(p): file_hash(p) for p in sorted(set(data.inputs))},
        "built": {k: built[k] for k in sorted(built)},
        "outputs": {k: outputs[k] for k in sorted(outputs) if k in listed},
        "png": {k: pngs[k] for k in sorted(pngs) if f"png/{k}.png" in listed},
        "pages": {k: pages[k] for k in sorted(pages) if k in listed},
        "faces": {k: faces[k] for k in sorted(faces)},
    }
    return (json.dumps(body, indent=2, ensure_ascii=False) + "\n").encode()


def sha256_hex(content: bytes) -> str:
    """The SHA-256 of bytes, as hex (manifest entries, PNG keys)."""
    return hashlib.sha256(content).hexdigest()


def write(out_dir: Path, results: list[tuple[PackResult, dict, dict]]):
    """Stage 6: every file of every pack, atomically per pack folder. (result, keys, previous).

    Returns the PackWrites: each says which files of an earlier build it removed."""
    packs = []
    for result, keys, previous in results:
        body = manifest(result, keys, previous, out_dir)
        files = {**result.files, "manifest.json": body}
        listed = owned_files(json.loads(body)) | {"manifest.json"}
        packs.append(PackWrite(output_name(result.data.folder), files, owned_files(previous) - listed))
    write_packs(out_dir, packs)
    return packs


def owned_files(manifest_body: dict) -> set[str]:
    """Every output file a manifest says cardgen wrote (what a later build may remove)."""
    owned = set(manifest_body.get("outputs") or {})
    for entry in (manifest_body.get("built") or {}).values():
        if isinstance(entry, dict):
            owned.update(n for n in entry.get("files") or [] if isinstance(n, str))
    return owned


def faces_since(path: Path, pack: str) -> dict[str, dict[str, str]]:
    """The card faces the manifest at `path` records, for `--changed-since`: {card id: {"front":
    hash, "back": hash}}. The file is read as untrusted input (anyone may hand over any file
    as a manifest): no more than MAX_MANIFEST_BYTES, nested no deeper than a manifest is, of
    a format this cardgen writes, in the shape it writes, of the pack named. Anything else is
    a ManifestError, whose message names the file and says what is wrong."""
    body = read_json(path)
    if not isinstance(body, dict):
        raise ManifestError(f"{path}: not a manifest.json of cardgen (its top level is no "
                            "mapping)")
    if body.get("pack") != pack:
        raise ManifestError(f"{path} is not the manifest.json of a build of {pack}"
                            + (f" (it is {body['pack']!r}'s)" if isinstance(body.get("pack"), str)
                               else " (it names no pack)"))
    faces = body.get("faces")
    if not isinstance(faces, dict):
        raise ManifestError(f"{path} is not the manifest.json of a build of {pack} by this "
                            "cardgen (it records no card faces)")
    why = well_formed(body)
    if why:
        raise ManifestError(f"{path}: not a manifest.json as cardgen writes it ({why})")
    return faces
