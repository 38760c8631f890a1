"""The write stage: all files of a build land together or not at all.

Why: a failed build must leave output/ exactly as it was. Every file is first written to a
temporary name in its own folder; only when all of them are written are they renamed over the
old ones (a rename within one folder is atomic). A symlink planted in the output is replaced,
never followed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


class OutputError(Exception):
    """The output folder cannot be written (read-only, full disk ...)."""


def _safe_dir(root: Path, relative: Path, created: list[Path]) -> Path:
    """Create root/relative as real folders; a symlink on the way is removed, not followed.

    Folders this call creates are appended to `created`, so a failed build can remove them.
    """
    current = root
    if current.is_symlink():
        raise OutputError(f"{root} is a symlink; point --out at a real folder")
    for parent in reversed([root, *root.parents]):
        if not parent.exists():
            parent.mkdir()
            created.append(parent)
    for part in relative.parts:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            current.unlink()
        if not current.exists():
            current.mkdir()
            created.append(current)
    return current


def write_all(root: Path, files: dict[str, bytes]) -> list[Path]:
    """Write {relative path: bytes} below root atomically as a set. Returns the written paths."""
    staged: list[tuple[Path, Path]] = []
    created: list[Path] = []
    try:
        for relative, content in sorted(files.items()):
            rel = Path(relative)
            if rel.is_absolute() or ".." in rel.parts:
                raise OutputError(f"refusing to write {relative} outside the output folder")
            folder = _safe_dir(root, rel.parent, created)
            fd, temp = tempfile.mkstemp(prefix=f".{rel.name}.", suffix=".tmp", dir=folder)
            staged.append((Path(temp), folder / rel.name))
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, 0o644)
    except OSError as exc:
        _discard(staged, created)
        raise OutputError(f"cannot write to {root}: {exc.strerror or exc}") from None
    except OutputError:
        _discard(staged, created)
        raise
    written = []
    for temp, final in staged:
        if final.is_symlink() or final.is_dir():
            if final.is_dir() and not final.is_symlink():
                shutil.rmtree(final)
            else:
                final.unlink()
        os.replace(temp, final)
        written.append(final)
    return written


def _discard(staged: list[tuple[Path, Path]], created: list[Path]) -> None:
    """Remove the temporary files and the folders this build created (deepest first)."""
    for temp, _ in staged:
        try:
            temp.unlink()
        except OSError:
            pass
    for folder in sorted(created, key=lambda p: len(p.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:
            pass
