"""A cache on disk for work that outlives one build: prepared pictures, parsed fonts, parsed
YAML files, file hashes, laid-out fronts (layout/kept.py), drawn faces (render/face_store.py),
the words hyphenated before (render/rulebook_style.py).

Why: a designer changes one stat and builds again; scaling 64 photos and laying out and drawing
104 cards a second time for that is most of the wait. Every entry is named by a key that hashes
everything it was made from (input bytes, settings, cardgen's version, the source of the code
that made it), or holds that hash and is checked against it, so an entry is either exactly right
or never used; there is nothing to invalidate. Entries are written atomically. The cache is only a
shortcut: when it cannot be read or written (read-only home, full disk, a torn entry) the build
does the work itself and produces the same bytes.

Location: $CARDGEN_CACHE, else $XDG_CACHE_HOME/cardgen, else ~/.cache/cardgen. Deleting it is
always safe. Entries not used for MAX_AGE_DAYS are removed now and then.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from contextlib import suppress
import time
from functools import lru_cache
from pathlib import Path

from .. import __version__

MAX_AGE_DAYS = 30
_PRUNED: set[Path] = set()


def folder(kind: str) -> Path:
    """The cache folder for one kind of entry (created on first write)."""
    base = os.environ.get("CARDGEN_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = str(Path(xdg) / "cardgen") if xdg else str(Path.home() / ".cache" / "cardgen")
    return Path(base) / kind


def key(*parts: object) -> str:
    """A hex key over cardgen's version and the given parts (bytes as is, others by repr)."""
    digest = hashlib.sha256(__version__.encode())
    for part in parts:
        data = part if isinstance(part, bytes) else repr(part).encode()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


@lru_cache(maxsize=None)
def code_key(*modules: str) -> str:
    """A hash of the source of cardgen's `modules` (paths inside the package, e.g.
    "render/card.py"): an entry made by code that has changed since is never asked for."""
    root = Path(__file__).resolve().parent.parent  # the cardgen package
    digest = hashlib.sha256()
    for name in modules:
        digest.update(name.encode())
        digest.update((root / name).read_bytes())
    return digest.hexdigest()


def read(kind: str, name: str) -> bytes | None:
    """The entry's bytes, or None when there is none (or it cannot be read)."""
    path = folder(kind) / name
    try:
        data = path.read_bytes()
    except OSError:
        return None
    with suppress(OSError):  # a read-only cache still serves its entries
        if time.time() - path.stat().st_mtime > 86400:  # keep used entries young, cheaply
            os.utime(path)
    return data


class _Restricted(pickle.Unpickler):
    """An unpickler that makes only the classes it is given (and plain data): a cache entry is
    read as untrusted input, so that one written by anything but cardgen runs no code."""

    def __init__(self, stream, allowed: set[tuple[str, str]]):
        super().__init__(stream)
        self.allowed = allowed

    def find_class(self, module: str, name: str):
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed here")
        return super().find_class(module, name)


def safe_loads(blob: bytes, allowed: set[tuple[str, str]]):
    """pickle.loads for an entry of the cache: only the `allowed` (module, class) pairs and
    plain data (str, numbers, lists, tuples, dicts). Raises on anything else."""
    import io
    return _Restricted(io.BytesIO(blob), allowed).load()


_DISTRUSTED: set[str] = set()


def distrust(kind: str, name: str, why: str) -> None:
    """Say once (on stderr) that an entry is not what cardgen writes, and remove it: the work
    is done again, and its entry written anew. The build's result is the same either way."""
    import sys
    path = folder(kind) / name
    with suppress(OSError):
        path.unlink()
    if str(path) not in _DISTRUSTED:
        _DISTRUSTED.add(str(path))
        sys.stderr.write(f"cardgen: note: {path}: a cache entry that {why}; it is not used "
                         "(made again)\n")


def has(kind: str, name: str) -> bool:
    """Whether the entry exists (without reading it)."""
    return (folder(kind) / name).is_file()


def write_pickled(kind: str, name: str, value) -> None:
    """Store `value` (a tree of plain objects: none reached twice, no cycle) pickled, written
    straight into the entry's file, and without pickle's memo of every object written: that
    memo and the bytes held whole, not the entry, were the peak of writing a 1040-card deck's
    entries (26 MB for a 3 MB entry)."""
    def dump(stream) -> None:
        pickler = pickle.Pickler(stream, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.fast = True  # no memo: an object reached twice would be written twice
        pickler.dump(value)
    _write(kind, name, dump)


READ_ONLY = False  # a process that only reads (a forked part of a build, see build.py)


def write(kind: str, name: str, data: bytes) -> bool:
    """Store an entry atomically (a temporary file renamed into place); errors are ignored.
    Whether it is stored."""
    return _write(kind, name, lambda stream: stream.write(data))


def _write(kind: str, name: str, fill) -> bool:
    if READ_ONLY:
        return False
    target = folder(kind)
    temporary = target / f".{name}.{os.getpid()}.tmp"
    try:
        target.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as stream:
            fill(stream)
        os.replace(temporary, target / name)
    except Exception:  # a full or read-only disk, a value that will not pickle: the build
        # goes on without this entry (a cache must never fail a build)
        with suppress(OSError):
            temporary.unlink()
        return False
    _prune(target)
    return True


def _prune(target: Path) -> None:
    """Remove entries untouched for MAX_AGE_DAYS, once per folder and process."""
    if target in _PRUNED:
        return
    _PRUNED.add(target)
    limit = time.time() - MAX_AGE_DAYS * 86400
    with suppress(OSError):  # another build may prune the same entry at the same time
        for path in target.iterdir():
            if path.stat().st_mtime < limit:
                path.unlink()
