"""The write stage: all files of a build land together or not at all.

Why: a failed or interrupted build must leave output/ exactly as it was, and a finished one
exactly as its manifests say. Each pack folder is first assembled complete in a staging folder
next to it (new files written and fsynced, unchanged ones and the user's own files hard-linked
over, files an earlier build wrote and this one does not left out), then swapped in with one
rename: an interrupt (Ctrl-C, SIGTERM, even SIGKILL) at any moment leaves the old folder or the
new one, never a mix. A lock in the output folder keeps two builds from writing there at once.
A symlink planted in the output is replaced, never followed; a file where a folder must go, or
a folder where a file must go, is an error, never removed.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


class OutputError(Exception):
    """The output folder cannot be written (read-only, full disk, a path of the wrong kind)."""


def wrong_kind(path: Path, needed: str) -> str:
    found = "a folder" if path.is_dir() else "a file"
    return (f"{path} is {found}, but cardgen writes a {needed} there; move it away or choose "
            "another --out (cardgen does not remove what it did not write)")


def _safe_dir(root: Path, relative: Path, created: list[Path]) -> Path:
    """Create root/relative as real folders; a symlink on the way is removed, not followed.

    Folders this call creates are appended to `created`, so a failed build can remove them.
    """
    current = root
    if current.is_symlink():
        raise OutputError(f"{root} is a symlink; point --out at a real folder")
    if root.exists() and not root.is_dir():
        raise OutputError(wrong_kind(root, "folder"))
    for parent in reversed([root, *root.parents]):
        if not parent.exists():
            parent.mkdir()
            created.append(parent)
    for part in relative.parts:
        current = current / part
        if current.is_symlink():
            current.unlink()
        elif current.exists() and not current.is_dir():
            raise OutputError(wrong_kind(current, "folder"))
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
    for temp, final in staged:
        if final.is_dir() and not final.is_symlink():
            _discard(staged, created)
            raise OutputError(wrong_kind(final, "file"))
    written = []
    for temp, final in staged:
        if final.is_symlink():
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


# --- whole pack folders, swapped in at once ------------------------------------------------------

STAGING = ".{}.cardgen-new"  # next to the pack folder, in the same file system
RETIRED = ".{}.cardgen-old"  # the old folder, between the two renames where no swap exists


@dataclass
class PackWrite:
    """One pack folder's next state: files to write, files of an earlier build to drop."""

    name: str
    files: dict[str, bytes]
    stale: set[str] = field(default_factory=set)  # cardgen's own files the new manifest omits
    removed: list[str] = field(default_factory=list)  # filled in: stale files that were there


def write_packs(root: Path, packs: list[PackWrite]) -> list[Path]:
    """Every pack folder staged complete, then each swapped in with one rename.

    A failure or interrupt while staging leaves every pack folder as it was; a kill during the
    swaps leaves each folder old or new (recovered to one of them by the next build)."""
    created: list[Path] = []
    staged: list[tuple[PackWrite, Path]] = []
    try:
        _safe_dir(root, Path(), created)
        for pack in packs:
            staged.append((pack, _stage(root, pack)))
    except OSError as exc:
        _drop([s for _, s in staged], created)
        raise OutputError(f"cannot write to {root}: {exc.strerror or exc}") from None
    except BaseException:
        _drop([s for _, s in staged], created)
        raise
    written = []
    try:
        for index, (pack, staging) in enumerate(staged):
            _swap(staging, root / pack.name)
            written.extend(root / pack.name / name for name in sorted(pack.files))
    except BaseException:  # an interrupt between swaps: each folder is old or new already
        for pack, staging in staged[index:]:
            recover(root, pack.name)
            _remove(staging)  # not swapped in (new), or swapped out (old): not needed
        raise
    return written


def _stage(root: Path, pack: PackWrite) -> Path:
    """root/.<pack>.cardgen-new: the pack folder as it is to be."""
    recover(root, pack.name)
    folder = _real_folder(root / pack.name)
    staging = root / STAGING.format(pack.name)
    if staging.exists() or staging.is_symlink():
        _remove(staging)  # a staging folder left by a killed build: ours
    staging.mkdir()
    try:
        needed = {Path(n).parent for n in pack.files} | {p for n in pack.files
                                                         for p in Path(n).parents}
        if folder is not None:
            _carry_over(folder, staging, pack, needed)
        for name, content in sorted(pack.files.items()):
            _put(staging, name, content)
        _fsync_dir(staging)
    except BaseException:
        _remove(staging)
        raise
    return staging


def _real_folder(folder: Path) -> Path | None:
    """The existing pack folder, None when there is none (a symlink there is not followed)."""
    if folder.is_symlink():
        return None
    if folder.exists() and not folder.is_dir():
        raise OutputError(wrong_kind(folder, "folder"))
    return folder if folder.exists() else None


def _carry_over(folder: Path, staging: Path, pack: PackWrite, needed: set[Path]) -> None:
    """Hard-link what stays (unchanged outputs, the user's own files) into the staging folder.

    Symlinked folders are not entered (os.walk without followlinks): the link is carried."""
    for top, dirs, names in os.walk(folder):
        for entry in sorted(dirs) + sorted(names):
            path = Path(top) / entry
            rel = path.relative_to(folder)
            name = rel.as_posix()
            if name in pack.files:
                if path.is_dir() and not path.is_symlink():
                    raise OutputError(wrong_kind(path, "file"))
                continue  # replaced by the new file (a symlink there is dropped, not followed)
            if rel in needed and (path.is_symlink() or not path.is_dir()):
                if not path.is_symlink():
                    raise OutputError(wrong_kind(path, "folder"))
                continue  # a symlinked folder is replaced by a real one
            if name in pack.stale:
                pack.removed.append(name)
            elif not _temporary(entry):  # half-written files of a killed older cardgen: gone
                _link(path, staging / rel)


def _temporary(name: str) -> bool:
    return name.startswith(".") and name.endswith(".tmp")


def _link(source: Path, target: Path) -> None:
    if source.is_symlink():
        target.symlink_to(os.readlink(source))
    elif source.is_dir():
        target.mkdir(exist_ok=True)
    else:
        try:
            os.link(source, target)
        except OSError:  # a file system without hard links: copy
            shutil.copy2(source, target)


def _put(staging: Path, name: str, content: bytes) -> None:
    rel = Path(name)
    if rel.is_absolute() or ".." in rel.parts:
        raise OutputError(f"refusing to write {name} outside the output folder")
    target = staging / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(target, 0o644)


def _fsync_dir(folder: Path) -> None:
    if hasattr(os, "O_DIRECTORY"):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _swap(staging: Path, folder: Path) -> None:
    """Put the staged folder in place of the old one in one step, then delete the old one."""
    if not folder.exists() and not folder.is_symlink():
        os.rename(staging, folder)
        return
    if folder.is_symlink():
        folder.unlink()
        os.rename(staging, folder)
        return
    if _exchange(staging, folder):
        _remove(staging)  # now the old folder
        return
    retired = folder.parent / RETIRED.format(folder.name)
    _remove(retired)
    os.rename(folder, retired)  # a kill from here to the next rename: recover() finishes it
    os.rename(staging, folder)
    _remove(retired)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders atomically (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, exchange = -100, 2
    done = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), exchange) == 0
    return done


def recover(root: Path, name: str) -> None:
    """Finish what a build killed between two renames left: the pack folder back in place."""
    folder, retired = root / name, root / RETIRED.format(name)
    staging = root / STAGING.format(name)
    if retired.is_dir() and not retired.is_symlink():
        if folder.exists() or folder.is_symlink():
            _remove(retired)  # the swap was done; only the old folder was left
        elif staging.is_dir():
            os.rename(staging, folder)  # killed after moving the old folder away: go forward
            _remove(retired)
        else:
            os.rename(retired, folder)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _drop(stagings: list[Path], created: list[Path]) -> None:
    for staging in stagings:
        _remove(staging)
    _discard([], created)


# --- one build at a time -------------------------------------------------------------------------

class output_lock:
    """Held while a build plans and writes into `root`: a second build into the same folder
    refuses with a clear line instead of mixing its files with the first one's.

    The lock is an flock on the output folder itself: nothing is written for it, and the kernel
    releases it when the process ends, even by SIGKILL, so a killed build leaves no stale lock.
    A root created for the lock is removed again when the build wrote nothing into it. (Where
    flock does not exist, Windows, builds are not locked.)"""

    def __init__(self, root: Path):
        self.root = root
        self.created: list[Path] = []
        self.fd: int | None = None

    def __enter__(self) -> "output_lock":
        try:
            _safe_dir(self.root, Path(), self.created)
            import fcntl
        except ImportError:
            return self
        except OSError as exc:
            raise OutputError(f"cannot write to {self.root}: {exc.strerror or exc}") from None
        self.fd = os.open(self.root, os.O_RDONLY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self.fd)
            self.fd = None
            self._tidy()
            raise OutputError(f"another cardgen build is writing to {self.root}; wait for it "
                              "to finish or choose another --out") from None
        return self

    def __exit__(self, *exc) -> bool:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
        self._tidy()
        return False

    def _tidy(self) -> None:
        if self.created and not any(self.root.iterdir()):
            _discard([], self.created)
