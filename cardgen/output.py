"""The write stage: all files of a build land together or not at all.

Why: a failed or interrupted build must leave output/ exactly as it was, and a finished one
exactly as its manifests say. Each pack folder is first assembled complete in a staging folder
next to it (new files written and fsynced, unchanged ones and the user's own files hard-linked
over, files an earlier build wrote and this one does not left out), then swapped in with one
rename: an interrupt (Ctrl-C, SIGTERM, even SIGKILL) at any moment leaves the old folder or the
new one, never a mix. A lock per pack folder keeps two builds from writing one pack at once
(two packs may be built into one output folder side by side); a lock or a staging folder left
by a build that died is taken over and removed by the next build. A symlink planted in the
output is replaced, never followed; a file where a folder must go, or a folder where a file
must go, is an error, never removed.

What the exit code says (README): an interrupt (Ctrl-C, SIGTERM) before the swaps leaves every
pack folder as it was, and the build exits 130; the swaps themselves are not interrupted
(SIGINT and SIGTERM wait), and an interrupt that comes once the output has landed ends the
build with 0 and a note: its output is complete, as its manifests say.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path


class OutputError(Exception):
    """The output folder cannot be written (read-only, full disk, a path of the wrong kind)."""


class Busy(OutputError):
    """A pack folder of the output is locked by another build that is alive (a resident
    process, `cardgen watch`, may try again later; a build says so and ends)."""


def wrong_kind(path: Path, needed: str) -> str:
    found = "a folder" if path.is_dir() else "a file"
    # (not "--out": build, schema and balance write to --out, but new to --data, export to
    # --csv/--xlsx/--po and balance --apply into the pack)
    return (f"{path} is {found}, but cardgen writes a {needed} there; move it away or write "
            "elsewhere (cardgen does not remove what it did not write)")


def _safe_dir(root: Path, relative: Path, created: list[Path]) -> Path:
    """Create root/relative as real folders; a symlink on the way is removed, not followed.

    Folders this call creates are appended to `created`, so a failed build can remove them.
    """
    current = root
    if current.is_symlink():
        raise OutputError(f"{root} is a symlink; cardgen does not write through links: give "
                          "a real folder (--out)")
    if root.exists() and not root.is_dir():
        raise OutputError(wrong_kind(root, "folder"))
    for parent in reversed([root, *root.parents]):
        if parent.exists() and not parent.is_dir():
            raise OutputError(wrong_kind(parent, "folder"))
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
    current = root
    try:
        for relative, content in sorted(files.items()):
            rel = Path(relative)
            current = root / rel
            if rel.is_absolute() or ".." in rel.parts:
                raise OutputError(f"refusing to write {relative} outside the output folder")
            refused = refused_name(rel)
            if refused:
                raise OutputError(f"cannot write {current}: {refused}")
            folder = _safe_dir(root, rel.parent, created)
            fd, temp = tempfile.mkstemp(prefix=".cg-", suffix=".tmp", dir=folder)
            staged.append((Path(temp), folder / rel.name))
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, 0o644)
    except OSError as exc:
        _discard(staged, created)
        raise OutputError(f"cannot write {current}: {exc.strerror or exc}") from None
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


NAME_MAX = 255  # bytes of one name, on every file system cardgen writes to
PATH_MAX = 4096


def refused_name(relative: Path) -> str | None:
    """Why a file system would refuse the name (too long a name or path, a NUL, a name Windows
    reserves for a device): said before anything is written, naming the file."""
    text = relative.as_posix()
    if "\0" in text:
        return "the name holds a NUL character"
    for part in relative.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            return f"the name '{part[:40]}…' is longer than {NAME_MAX} bytes"
    if len(os.fsencode(os.path.abspath(text))) >= PATH_MAX:
        return f"the path is longer than {PATH_MAX} bytes"
    return None


WINDOWS_DEVICES = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)),
                   *(f"LPT{n}" for n in range(1, 10))}


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

    A failure or interrupt while staging leaves every pack folder as it was; the swaps are not
    interrupted (SIGINT and SIGTERM wait until the output has landed: see output_lock); a kill
    during the swaps leaves each folder old or new (recovered to one of them by the next
    build). The packs' locks are held: those of the output_lock around the call, else taken
    here."""
    created: list[Path] = []
    staged: list[tuple[PackWrite, Path]] = []
    active = _active(root)
    own = None if active is not None else output_lock(root)
    try:
        if own is not None:
            own.__enter__()
        for pack in packs:
            (active or own).lock_pack(pack.name)
        _safe_dir(root, Path(), created)
        for pack in packs:
            staged.append((pack, _stage(root, pack)))
    except OSError as exc:
        _drop([s for _, s in staged], created)
        if own is not None:
            own.__exit__(None, None, None)
        raise OutputError(f"cannot write to {root}: {exc.strerror or exc}") from None
    except BaseException:
        _drop([s for _, s in staged], created)
        if own is not None:
            own.__exit__(*sys.exc_info())
        raise
    written = []
    held = _hold_interrupts()
    try:
        for index, (pack, staging) in enumerate(staged):
            _swap(staging, root / pack.name)
            written.extend(root / pack.name / name for name in sorted(pack.files))
    except BaseException:  # a failure between swaps: each folder is old or new already
        for pack, staging in staged[index:]:
            recover(root, pack.name)
            _remove(staging)  # not swapped in (new), or swapped out (old): not needed
        _release_interrupts(held)
        if own is not None:
            own.__exit__(*sys.exc_info())
        raise
    if active is not None and held is not None:
        active.landed(held)  # the interrupts wait until the build has said what it wrote
    else:
        _release_interrupts(held)
    if own is not None:
        own.__exit__(None, None, None)
    return written


_INTERRUPTS = {signal.SIGINT, signal.SIGTERM}


# SIGINT and SIGTERM that came while they were held, in the order they came
_CAUGHT: list[int] = []


def _hold_interrupts():
    """SIGINT and SIGTERM wait: blocked, and caught by a handler that only notes them. The
    mask blocks them in this thread only; a thread a library started (pdfium's, for one) may
    still take a signal sent to the process, and Python then runs the handler in the main
    thread: the noting handler keeps that one waiting too. Returns what to go back to (the mask
    and handlers before), or None where signals cannot be held (not the main thread)."""
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "pthread_sigmask"):
        return None
    handlers = {sig: signal.signal(sig, _note_interrupt) for sig in _INTERRUPTS}
    return signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS), handlers


def _note_interrupt(signum, frame) -> None:
    _CAUGHT.append(signum)


def _taken_interrupts() -> set[int]:
    """The interrupts that came while held (pending or noted), taken: not delivered. (One seen
    pending may be taken by another thread meanwhile: it is counted, and the noting handler,
    which stays while the build ends, hears it.)"""
    taken = set()
    for sig in signal.sigpending() & _INTERRUPTS:
        signal.sigtimedwait([sig], 0)
        taken.add(sig)
    taken |= set(_CAUGHT)
    _CAUGHT.clear()
    return taken


def _release_interrupts(held) -> None:
    """The mask and handlers before _hold_interrupts: an interrupt that came meanwhile is
    delivered now."""
    if held is None:
        return
    mask, handlers = held
    for sig, handler in handlers.items():
        if signal.getsignal(sig) is _note_interrupt:  # (one set meanwhile, by an inner
            signal.signal(sig, handler)               # block going back to its own, stays)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending one is delivered here
    caught = list(dict.fromkeys(_CAUGHT))
    _CAUGHT.clear()
    for sig in caught:
        signal.raise_signal(sig)


def _stage(root: Path, pack: PackWrite) -> Path:
    """root/.<pack>.cardgen-new: the pack folder as it is to be."""
    recover(root, pack.name)
    folder = _real_folder(root / pack.name)
    staging = root / STAGING.format(pack.name)
    if staging.exists() or staging.is_symlink():
        _remove(staging)  # a staging folder left by a killed build: ours
    staging.mkdir()
    name = ""
    try:
        needed = {Path(n).parent for n in pack.files} | {p for n in pack.files
                                                         for p in Path(n).parents}
        if folder is not None:
            _carry_over(folder, staging, pack, needed)
        for name, content in sorted(pack.files.items()):
            refused = refused_name(Path(pack.name) / name)
            if refused:
                raise OutputError(f"cannot write {root / pack.name / name}: {refused}")
            _put(staging, name, content)
        _fsync_dir(staging)
    except OSError as exc:
        _remove(staging)
        raise OutputError(f"cannot write {root / pack.name / name}: "
                          f"{exc.strerror or exc}") from None
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


# --- one build at a time per pack -------------------------------------------------------------

LOCK = ".{}.cardgen-lock"  # next to the pack folder: held (flock) while a build plans and writes
WHOLE_WAIT = 2.0  # s a build waits for a folder locked whole before it refuses


class PackLock:
    """A build's hold on one pack folder of an output folder: an flock on root/.<pack>.cardgen-
    lock, which holds the holder's process id and start time.

    The kernel releases an flock when every descriptor of it is closed, even by SIGKILL. A
    process forked by the build (a worker) closes its copy at once (os.register_at_fork below),
    so no worker can keep a pack locked after its build has died. Should a lock still be held
    (by a process of an older cardgen) while the process it names is gone, the file is taken
    away from under it and a new one locked: taken over, with a note. The file is removed when
    the lock is released, so a finished or failed build leaves nothing in the output folder.
    """

    def __init__(self, root: Path, name: str):
        self.root, self.name = root, name
        self.path = root / LOCK.format(name)
        self.fd: int | None = None

    def acquire(self) -> list[str]:
        """Take the lock (OutputError when a live build holds it); notes of what a dead build
        left."""
        import fcntl
        notes: list[str] = []
        for _ in range(20):  # each round: the file was replaced under us, or taken over
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC |
                             getattr(os, "O_NOFOLLOW", 0), 0o644)
            except OSError as exc:
                if exc.errno == errno.ELOOP:  # a symlink planted there: never followed
                    self.path.unlink()
                    continue
                raise OutputError(f"cannot write to {self.root}: {exc.strerror or exc}") \
                    from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder(fd)
                os.close(fd)
                if holder is None or _alive(*holder):
                    who = f" (process {holder[0]})" if holder else ""
                    raise Busy(f"another cardgen build is writing {self.name} into "
                               f"{self.root}{who}; wait for it to finish or choose another "
                               "--out") from None
                if _same_file(self.path, fd_stat=None, held=holder):
                    with _suppressed():
                        self.path.unlink()
                notes.append(f"{self.root / self.name}: took over the lock of process "
                             f"{holder[0]}, which ended without releasing it")
                continue
            if not _same_file(self.path, fd):  # replaced since it was opened: again
                os.close(fd)
                continue
            earlier = _holder(fd)
            if earlier is not None and earlier[0] != os.getpid() and not _alive(*earlier):
                notes.append(f"{self.root / self.name}: the build of process {earlier[0]} "
                             "ended without finishing; what it left is cleared")
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {_started(os.getpid())}\n".encode(), 0)
            self.fd = fd
            _HELD.add(fd)
            return notes
        raise OutputError(f"cannot lock {self.name} in {self.root}: the lock file keeps "
                          "changing; is another program removing it?")

    def release(self) -> None:
        if self.fd is None:
            return
        with _suppressed():
            if _same_file(self.path, self.fd):
                self.path.unlink()  # while held: a waiting build then locks a new file
        _HELD.discard(self.fd)
        os.close(self.fd)
        self.fd = None


class _suppressed:
    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        return kind is not None and issubclass(kind, OSError)


def _same_file(path: Path, fd: int | None = None, fd_stat=None, held=None) -> bool:
    """Whether `path` still names the file open as `fd` (or, without fd, exists at all)."""
    try:
        now = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    if fd is None:
        return True
    mine = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)


def _holder(fd: int) -> tuple[int, str] | None:
    """(process id, start time) written in a lock file; None when it names none (yet)."""
    try:
        words = os.pread(fd, 100, 0).decode("ascii").split()
        return int(words[0]), words[1] if len(words) > 1 else "-"
    except (OSError, ValueError, IndexError):
        return None


def _started(pid: int) -> str:
    """When the process started (Linux: clock ticks since boot), to tell it from a later
    process given the same id; "-" where it cannot be known."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return "-"


def _alive(pid: int, started: str = "-") -> bool:
    """Whether the process that wrote a lock runs still (the same process, not a later one
    with its id)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    now = _started(pid)
    return started == "-" or now == "-" or now == started


_HELD: set[int] = set()  # descriptors of the locks this process holds
_LOCKS: list["output_lock"] = []  # the output_locks entered in this process, innermost last


def _forget_locks_in_child() -> None:
    """In a process forked by a build: close its copies of the locks' descriptors (else a
    worker outliving its build would keep the pack locked), and hold none."""
    for fd in list(_HELD):
        with _suppressed():
            os.close(fd)
    _HELD.clear()
    _LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks_in_child)


def lock_pack(root: Path, name: str) -> None:
    """Lock the pack folder `name` of `root` for the output_lock held on root in this process
    (OutputError when another build holds it); nothing when none is held (a library call)."""
    active = _active(root)
    if active is not None:
        active.lock_pack(name)


def _active(root: Path) -> "output_lock | None":
    key = os.path.abspath(root)
    return next((lock for lock in reversed(_LOCKS) if lock.key == key), None)


class output_lock:
    """Held while a build plans and writes into `root`. The packs are locked one by one as the
    build comes to them (lock_pack, called by the planning in pipeline.parallel), so a second
    build of the same pack refuses with a clear line instead of mixing its files with the first
    one's, while a build of another pack goes on beside it.

    The folder itself is flocked too: shared by every build that locks packs in it, exclusive
    by an output_lock that has locked no pack yet. So an output_lock held without packs (what a
    caller outside the planning holds, like the old lock did) keeps every build out of the
    folder, and a build that meets one waits WHOLE_WAIT for it to turn into a build of its own
    packs (a build starting that very moment) before it refuses.

    On entering, what dead builds left in `root` is cleared: the staging folders of packs that
    no live build holds (recovered first, if a kill came between two renames). A root created
    for the lock is removed again when the build wrote nothing into it. (Where flock does not
    exist, Windows, builds are not locked.)

    An interrupt that came while the output landed (write_packs) takes effect on leaving: the
    build is finished and said so, it ends with exit 0 and a note, not 130."""

    def __init__(self, root: Path):
        self.root = root
        self.key = os.path.abspath(root)
        self.created: list[Path] = []
        self.packs: dict[str, PackLock] = {}
        self.held = None  # the signal mask to go back to once the output has landed
        self.fd: int | None = None  # the folder's own flock
        self.whole = False  # held exclusive: no pack locked yet, no other build in the folder

    def __enter__(self) -> "output_lock":
        try:
            _safe_dir(self.root, Path(), self.created)
        except OSError as exc:
            raise OutputError(f"cannot write to {self.root}: {exc.strerror or exc}") from None
        _LOCKS.append(self)
        try:
            self._lock_folder()
            self._clear_dead_builds()
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def _lock_folder(self) -> None:
        """The folder's flock: exclusive when no other build is in it, else shared; a folder
        held exclusive by another output_lock for longer than WHOLE_WAIT refuses (Busy)."""
        try:
            import fcntl
        except ImportError:
            return
        import time
        self.fd = os.open(self.root, os.O_RDONLY | os.O_CLOEXEC)
        _HELD.add(self.fd)
        deadline = time.monotonic() + WHOLE_WAIT
        while True:
            for mode, whole in ((fcntl.LOCK_EX, True), (fcntl.LOCK_SH, False)):
                try:
                    fcntl.flock(self.fd, mode | fcntl.LOCK_NB)
                except OSError:
                    continue
                self.whole = whole
                return
            if time.monotonic() > deadline:
                raise Busy(f"another cardgen build is writing to {self.root}; wait for it to "
                           "finish or choose another --out")
            time.sleep(0.05)  # (a build that has just begun locks its packs in milliseconds)

    def lock_pack(self, name: str) -> None:
        """Lock one pack folder of the output (OutputError when another build holds it), and
        clear what a dead build left of it."""
        if name in self.packs:
            return
        try:
            import fcntl  # noqa: F401
        except ImportError:
            return
        if self.whole:  # a build of packs now: other builds may lock other packs
            import fcntl
            fcntl.flock(self.fd, fcntl.LOCK_SH)  # (waits while a whole-folder lock holds it)
            self.whole = False
        lock = PackLock(self.root, name)
        for note in lock.acquire():
            _note(note)
        self.packs[name] = lock
        self._clear(name)

    def _clear(self, name: str) -> None:
        """Finish (recover) or remove what a dead build of `name` left (its lock held)."""
        recover(self.root, name)
        staging = self.root / STAGING.format(name)
        if staging.exists() or staging.is_symlink():
            _remove(staging)

    def _clear_dead_builds(self) -> None:
        """The staging folders of packs no build holds: left by builds that died."""
        try:
            import fcntl  # noqa: F401
        except ImportError:
            return
        for entry in sorted(os.listdir(self.root)):
            for pattern in (STAGING, RETIRED):
                prefix, suffix = pattern.split("{}")
                name = entry[len(prefix):-len(suffix)]
                if not (entry.startswith(prefix) and entry.endswith(suffix) and name) or \
                        name in self.packs:
                    continue
                lock = PackLock(self.root, name)
                try:
                    notes = lock.acquire()
                except OutputError:
                    continue  # a live build's, at work
                try:
                    for note in notes:
                        _note(note)
                    self._clear(name)
                finally:
                    lock.release()

    def landed(self, held) -> None:
        """The output is in place; interrupts wait (blocked) until this lock is left."""
        if self.held is None:
            self.held = held

    def __exit__(self, kind=None, *exc) -> bool:
        interrupted = set()
        if self.held is not None:
            if kind is None:  # waiting interrupts are taken, not delivered: the build is done
                interrupted = _taken_interrupts()
            if interrupted:  # the run ends here with exit 0: only the mask goes back, so an
                signal.pthread_sigmask(signal.SIG_SETMASK, self.held[0])  # interrupt on its
            else:                                                         # way is only noted
                _release_interrupts(self.held)
            self.held = None
        for lock in self.packs.values():
            lock.release()
        self.packs.clear()
        if self.fd is not None:
            _HELD.discard(self.fd)
            os.close(self.fd)  # (releases the folder's flock)
            self.fd = None
        if self in _LOCKS:
            _LOCKS.remove(self)
        self._tidy()
        if interrupted:
            _note("interrupted after the output was written: it is complete, as its "
                  "manifests say (exit 0)")
            raise SystemExit(0)
        return False

    def _tidy(self) -> None:
        with contextlib.suppress(OSError):  # tidying only: a folder that cannot be read stays
            if self.created and not any(self.root.iterdir()):
                _discard([], self.created)


def _note(text: str) -> None:
    """A line about the output folder itself, on stderr (also with -q)."""
    sys.stderr.write(f"cardgen: note: {text}\n")
    sys.stderr.flush()
