"""Which outputs are out of date: a hash of exactly the inputs each output is made from.

Why: a designer who edits a rule text should not wait for 104 cards to be drawn again, and a
build with nothing changed should return at once. Each output kind depends on a known set of
the pack's files; its key is the SHA-256 of those files, the settings and cardgen's version.
The previous build's keys are in output/<pack>/manifest.json.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from pathlib import Path

from ..model.outputs import OUTPUTS
from ..paths import FONTS, TEMPLATES

from .. import __version__ as VERSION

# What each output is drawn from (model.outputs). Fonts and templates always count.
DEPENDS: dict[str, tuple[str, ...]] = {name: o.inputs for name, o in OUTPUTS.items()}


def _files(path: Path) -> list[Path]:
    """Regular files at or below path, hidden ones too (the loader reads `cards/.x.yaml`)."""
    if path.is_file():
        return [path]
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.is_file())
    return []


def regions_digest(layout) -> str:
    """A hash of a laid-out layout's name and regions, field by field (pydantic's own JSON:
    some ten times faster than their repr, and a front's key and the rulebook's content key
    need it for every layout at every build)."""
    digest = hashlib.sha256(layout.name.encode())
    for name, region in layout.regions.items():
        digest.update(f"\0{name}\0".encode())
        digest.update(region.model_dump_json().encode())
    return digest.hexdigest()


def listing(folder: Path) -> tuple[list[str], list[str]]:
    """(every entry below the pack folder as 'path kind', the unusual ones).

    Why: the keys hash the contents of the files each output is made from; a file added,
    removed, renamed or turned into a folder or a link elsewhere in the pack changes what
    the pack is (and whether it checks) without changing those contents. The listing goes
    into every key. Symlinks, pipes, devices and unreadable files are unusual: a pack holding
    one is built (and so checked) again instead of trusted."""
    entries, unusual = [], []
    for top, dirs, names in os.walk(folder):
        for name in sorted(dirs) + sorted(names):
            path = Path(top) / name
            rel = path.relative_to(folder).as_posix()
            mode = path.lstat().st_mode
            kind = ("folder" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode)
                    else "link" if stat.S_ISLNK(mode) else "other")
            entries.append(f"{rel} {kind}")
            if kind in ("link", "other") or (kind == "file" and not os.access(path, os.R_OK)):
                unusual.append(rel)
        dirs.sort()
    return entries, unusual


def file_hash(path: Path) -> str:
    """SHA-256 of the file's bytes; not read again while its size, times and inode are the
    ones it had when it was hashed — in this process, or in an earlier build (the hashes of a
    folder's files are kept in cardgen's cache, `keep_hashes`): a build with nothing changed
    reads no picture of a 640-photo deck."""
    info = path.stat()
    folder = _known(path.parent)
    seen = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    entry = folder.get(path.name)
    if entry is not None and entry[0] == seen:
        return entry[1]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    # a file changed less than RACY seconds before it was hashed may change again without a
    # new time on a coarse clock (2 s on FAT): hashed again next time, never trusted
    if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) > RACY * 1_000_000_000:
        folder[path.name] = (seen, digest)
        _CHANGED.add(path.parent)
    return digest


RACY = 3
_KNOWN: dict[Path, dict[str, tuple]] = {}  # folder → {file name: (stat, hash)}
_CHANGED: set[Path] = set()


def _known(folder: Path) -> dict[str, tuple]:
    if folder not in _KNOWN:
        from . import cache
        known = {}
        blob = cache.read("hashes", _entry(folder))
        if blob:
            try:
                known = json.loads(blob)
                known = {name: (tuple(seen), digest) for name, (seen, digest) in known.items()}
            except (ValueError, TypeError):
                known = {}
        _KNOWN[folder] = known
    return _KNOWN[folder]


def _entry(folder: Path) -> str:
    from . import cache
    return cache.key("hashes", 1, str(folder.resolve()))


def keep_hashes() -> None:
    """Write the hashes learnt since the last call to the cache (cheap when there are none)."""
    from . import cache
    for folder in sorted(_CHANGED):
        cache.write("hashes", _entry(folder), json.dumps(_KNOWN[folder]).encode())
    _CHANGED.clear()


def output_keys(folder: Path, settings: object, entries: list[str] | None = None
                ) -> dict[str, str]:
    """{output kind: key}; equal keys mean equal inputs, so the old output can stay.
    entries: the pack's listing()[0] when the caller has it already."""
    shared = hashlib.sha256()
    shared.update(VERSION.encode())
    shared.update(repr(settings).encode())
    for path in _files(TEMPLATES) + [p for p in _files(FONTS) if p.suffix == ".ttf"]:
        shared.update(f"{path.name}:{file_hash(path)}\n".encode())
    for entry in listing(folder)[0] if entries is None else entries:
        shared.update(f"{entry}\n".encode())
    parts: dict[str, str] = {}  # an input (cards/, images/ ...) hashed once for every kind

    def part(name: str) -> str:
        if name not in parts:
            digest = hashlib.sha256()
            for path in _files(folder / name):
                digest.update(f"{path.relative_to(folder)}:{file_hash(path)}\n".encode())
            parts[name] = digest.hexdigest()
        return parts[name]
    keys = {}
    for kind, names in DEPENDS.items():
        digest = shared.copy()
        for name in names:
            digest.update(f"{name}:{part(name)}\n".encode())
        keys[kind] = digest.hexdigest()
    keep_hashes()
    return keys


FORMAT = 1  # of manifest.json: a manifest of another format is not read (it names its own)
MAX_MANIFEST_BYTES = 32_000_000  # a 3000-card pack's manifest is below 2 MB


class ManifestError(Exception):
    """A manifest that cannot serve: its message names the file and says why."""


def read_manifest(folder: Path) -> dict:
    """The previous build's manifest, or {} when there is none, or when it is unreadable or not
    in the shape cardgen writes (edited by hand, cut short, from a stranger): what it says
    decides which files are reused and which are removed, so it is trusted only whole. Such a
    manifest is named: {"distrusted": why}, and nothing of it is used."""
    path = folder / "manifest.json"
    if not path.exists() and not path.is_symlink():
        return {}
    try:
        body = read_json(path)
        why = well_formed(body)
    except ManifestError as exc:
        why = str(exc).removeprefix(f"{path}: ")
    return {"distrusted": f"{path} is not a manifest this cardgen wrote ({why})"} if why \
        else body


def read_json(path: Path):
    """A JSON file that cardgen wrote, read as untrusted: a regular file, at most
    MAX_MANIFEST_BYTES, UTF-8, nested no deeper than Python's stack allows (RecursionError
    becomes a ManifestError, as does every other problem)."""
    import stat as stat_
    try:
        info = path.stat()
        if not stat_.S_ISREG(info.st_mode):
            kind = "a folder" if stat_.S_ISDIR(info.st_mode) else "no regular file"
            raise ManifestError(f"{path}: cannot read it as a manifest.json: it is {kind}")
        if info.st_size > MAX_MANIFEST_BYTES:
            raise ManifestError(f"{path}: {info.st_size} bytes, more than a manifest.json "
                                f"may hold ({MAX_MANIFEST_BYTES})")
        with open(path, "rb") as stream:
            raw = stream.read(MAX_MANIFEST_BYTES + 1)
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read it as a manifest.json "
                            f"({exc.strerror or exc})") from None
    if len(raw) > MAX_MANIFEST_BYTES:
        raise ManifestError(f"{path}: more than {MAX_MANIFEST_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ManifestError(f"{path}: cannot read it as a manifest.json (not UTF-8)") from None
    except json.JSONDecodeError as exc:
        raise ManifestError(f"{path}:{exc.lineno}:{exc.colno}: cannot read it as a "
                            f"manifest.json ({exc.msg})") from None
    except (ValueError, RecursionError):  # numbers of 5000 digits; nesting 1000 deep
        raise ManifestError(f"{path}: cannot read it as a manifest.json (nested too deep, or "
                            "a number too long)") from None


def well_formed(body) -> str | None:
    """What is wrong with a manifest's shape (None: nothing): every entry is checked, as a
    build that trusted a wrong one would remove files it did not write, or fail on it."""
    def names(values) -> bool:
        return all(isinstance(n, str) and n and not n.startswith(("/", "\\")) and
                   ".." not in Path(n).parts for n in values)

    def mapping(value, of=str) -> bool:
        return isinstance(value, dict) and names(value) and all(isinstance(v, of)
                                                                for v in value.values())
    if not isinstance(body, dict):
        return "its top level is no mapping"
    if body.get("format", FORMAT) != FORMAT:
        return (f"it is of manifest format {str(body.get('format'))[:20]}; this cardgen reads "
                f"format {FORMAT}")
    if not isinstance(body.get("pack", ""), str):
        return "'pack' is no name"
    built = body.get("built", {})
    if not (isinstance(built, dict) and all(
            isinstance(entry, dict) and isinstance(entry.get("files", []), list) and
            names(entry.get("files", [])) and all(isinstance(entry.get(k, ""), str)
                                                  for k in ("key", "content"))
            for entry in built.values())):
        return "'built' is not as cardgen writes it"
    for key in ("outputs", "png", "pages"):
        if not mapping(body.get(key, {})):
            return f"'{key}' is not a mapping of file names to hashes"
    faces = body.get("faces", {})
    if not (isinstance(faces, dict) and all(
            isinstance(k, str) and isinstance(v, dict) and
            all(isinstance(v.get(side), str) for side in ("front", "back"))
            for k, v in faces.items())):
        return "'faces' is not a mapping of card ids to their front and back"
    if not isinstance(body.get("inputs", {}), dict) or not isinstance(body.get("cards", {}),
                                                                        (dict, list, int)):
        return "'inputs' is not as cardgen writes it"
    return None


def still_valid(out_folder: Path, previous: dict, name: str) -> bool:
    """The output file exists and is byte-for-byte what the previous build wrote."""
    expected = (previous.get("outputs") or {}).get(name)
    path = out_folder / name
    if not expected or path.is_symlink() or not path.is_file():
        return False
    return file_hash(path) == expected
