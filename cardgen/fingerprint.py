"""Which outputs are out of date: a hash of exactly the inputs each output is made from.

Why: a designer who edits a rule text should not wait for 104 cards to be drawn again, and a
build with nothing changed should return at once. Each output kind depends on a known set of
the pack's files; its key is the SHA-256 of those files, the settings and cardgen's version.
The previous build's keys are in output/<pack>/manifest.json.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from .load import FONTS, TEMPLATES

from . import __version__ as VERSION

# What each output is drawn from, relative to the pack folder. Fonts and templates always count.
_CARD_INPUTS = ("pack.yaml", "cards", "layouts.yaml", "layouts", "images", "composition.yaml")
DEPENDS: dict[str, tuple[str, ...]] = {
    "cards": _CARD_INPUTS,
    "printshop": _CARD_INPUTS,
    "png": _CARD_INPUTS,
    "changed": _CARD_INPUTS,  # changed.pdf (--changed-since): built on every such request
    "tts": _CARD_INPUTS,
    "calibration": ("pack.yaml",),
    "contact": _CARD_INPUTS,
    # the rulebook's figures show real cards and boards
    "rulebook": _CARD_INPUTS + ("rules", "boards.yaml"),
    "boards": ("pack.yaml", "cards", "boards.yaml", "images"),
}


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith("."))
    return []


@lru_cache(maxsize=4096)
def _file_hash(path: Path, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def file_hash(path: Path) -> str:
    stat = path.stat()
    return _file_hash(path, stat.st_size, stat.st_mtime_ns)


def output_keys(folder: Path, settings: object) -> dict[str, str]:
    """{output kind: key}; equal keys mean equal inputs, so the old output can stay."""
    shared = hashlib.sha256()
    shared.update(VERSION.encode())
    shared.update(repr(settings).encode())
    for path in _files(TEMPLATES) + [p for p in _files(FONTS) if p.suffix == ".ttf"]:
        shared.update(f"{path.name}:{file_hash(path)}\n".encode())
    keys = {}
    for kind, names in DEPENDS.items():
        digest = shared.copy()
        for name in names:
            for path in _files(folder / name):
                digest.update(f"{path.relative_to(folder)}:{file_hash(path)}\n".encode())
        keys[kind] = digest.hexdigest()
    return keys


def read_manifest(folder: Path) -> dict:
    """The previous build's manifest, or {} when there is none or it is unreadable."""
    try:
        body = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        return body if isinstance(body, dict) else {}
    except (OSError, ValueError):
        return {}


def still_valid(out_folder: Path, previous: dict, name: str) -> bool:
    """The output file exists and is byte-for-byte what the previous build wrote."""
    expected = (previous.get("outputs") or {}).get(name)
    path = out_folder / name
    if not expected or path.is_symlink() or not path.is_file():
        return False
    return file_hash(path) == expected
