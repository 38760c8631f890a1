"""Work on several cores: packs side by side in worker processes, and one pack's rulebook (or
print-shop outputs) in a process forked once the pack is checked. Parallel work gives the same
bytes: every task draws whole files.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Report
from ..incremental import cache
from ..incremental.plan import stale_outputs, wanted_outputs
from ..model.settings import BuildSettings
from ..paths import output_name

if TYPE_CHECKING:  # the models load with the first pack that is built, not for a no-op build
    from ..model.packdata import PackData
    from .draw import PackResult


@contextmanager
def cycles_kept():
    """No cyclic garbage collection while a pack is built. A build's objects (the loaded pack,
    laid-out faces, the documents' pages) live until it ends, so the collector's passes over
    them free nothing, and they cost 10-20 % of a build (flagship 2.5 → 2.25 s CPU, 1040
    picture cards 4.5 → 3.6 s; peak memory unchanged). Collection resumes after the build."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


SHOP_KINDS = {"printshop", "png", "tts"}  # drawn from one print-shop file (_shop_outputs)


def forked_part(data: PackData, settings: BuildSettings, wanted: set[str],
                previous: dict | None = None) -> set[str]:
    """The outputs a second process renders while this one renders the rest: the rulebook
    (its own layout, no card faces) when it is laid out again (`previous`, the last manifest,
    may say that what it is made of is the same: then it is kept as it is); else, when the
    cards are drawn too and an earlier build kept the faces (so that both processes replay
    them; with nothing kept, both would draw every face: no faster on two cores, twice the
    work), the print-shop outputs. (Not `cardgen watch`'s contact sheet, although it is the
    larger piece of an edit: a process forked from a resident one pays for every page of it
    that it touches, and the edit took 0.266 s instead of 0.240.)"""
    book = "rulebook" in wanted and bool(data.chapters) and not _book_kept(data, settings,
                                                                            previous)
    if book and len(wanted) > 1:
        return {"rulebook"}
    part = wanted & SHOP_KINDS
    if not part or "cards" not in wanted or "changed" in wanted or book:
        return set()
    from ..layout.card import pack_icons
    from ..incremental.faces import KIND, entry_name
    card_size = settings.card_size or data.pack.print.size()
    return part if cache.has(KIND, entry_name(data.folder, card_size, pack_icons(data))) \
        else set()


def _book_kept(data: PackData, settings: BuildSettings, previous: dict | None) -> bool:
    """The rulebook of the last build stays: made of the same content (pipeline.draw's
    _rulebook decides alike)."""
    if not previous:
        return False
    from ..documents.rulebook.pictured import pictured_cards
    from ..incremental.manifest import content_key, same_content
    return same_content("rulebook", content_key(data, "rulebook", settings, pictured_cards),
                        previous)


def render_split(data: PackData, report: Report, settings: BuildSettings, part: set[str],
                 previous, deck, here, faces=None) -> "PackResult | None":
    """The outputs of `part` drawn in a child forked from this checked process (nothing is
    read twice) while `here()` checks the card faces and draws everything else in this one;
    the same files as one render_pack call. The child's diagnostics are merged even when
    `here` fails, so a build reports what `cardgen check` reports. `faces(report)`: the card
    faces the check phase laid out, for a part drawn from them (SHOP_KINDS)."""
    import multiprocessing
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this system: one after the other
        context = None
    if context is None:
        result = here()
        part_report = Report()
        made = _part(data, settings, part, previous, deck, part_report, faces)
        report.extend(part_report)
        return _merged(result, made)
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(target=_part_child,
                            args=(writer, data, settings, part, previous, deck, faces))
    child.start()
    writer.close()
    try:
        result = here()
        try:
            part_report, made = reader.recv()
        except EOFError:  # the child died: do its part here
            part_report = Report()
            made = _part(data, settings, part, previous, deck, part_report, faces)
    except BaseException:  # Ctrl-C (the child ignores it) or a failure here: the child stops
        child.terminate()
        raise
    finally:
        child.join()
    report.extend(part_report)
    return _merged(result, made)


def _merged(result, made):
    """The files of both processes in one result; None when either failed."""
    if result is None or made is None:
        return None
    files, built, content, png_keys, page_keys = made
    result.files.update(files)
    result.built.update(built)
    result.content.update(content)
    result.png_keys.update(png_keys)
    result.page_keys.update(page_keys)
    return result


def _part_child(writer, data: PackData, settings: BuildSettings, part: set[str], previous,
                deck, faces=None) -> None:
    import signal
    # Ctrl-C and SIGTERM are the parent's to handle: it stops this process (SIGTERM, ending it
    # at once and silently), so no second traceback comes from here
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if part & SHOP_KINDS:  # the cache entries of the faces are this process's parent's to
        cache.READ_ONLY = True  # write (the same ones: written once is enough)
    report = Report()
    writer.send((report, _part(data, settings, part, previous, deck, report, faces)))
    writer.close()


def _part(data, settings, part: set[str], previous, deck, report: Report, faces=None):
    """(files, built, content keys, png keys, page keys) of the outputs of `part` alone; None
    on an error."""
    from .draw import render_pack
    laid = faces(report) if faces is not None and part & SHOP_KINDS else None
    result = render_pack(data, report, settings, part, previous, deck, faces=laid)
    return None if result is None else (result.files, result.built, result.content,
                                        result.png_keys, result.page_keys)


def build_one(folder: Path, settings, kinds: set[str], previous: dict, split: bool = False):
    """One pack (runs in a worker process when several packs share the cores). `split`: the
    rulebook is drawn on a second core, forked once the pack is loaded."""
    from .chain import build_pack
    report, result = build_pack(folder, settings, kinds, previous, split=split)
    return folder, report, result


def plan_tasks(folders: list[Path], out: Path, settings, force: bool):
    """The work: per pack, its stale outputs. Each pack's output folder is locked first (when
    the caller holds the output_lock of `out`): from its planning to its writing, no other
    build writes that pack; other packs may be built into `out` meanwhile."""
    from ..output import lock_pack
    tasks, plans = [], {}
    for folder in folders:
        lock_pack(out, output_name(folder))
        stale, keys, previous = stale_outputs(folder, out, settings)
        if force:
            stale = wanted_outputs(settings)
        plans[folder] = (stale, keys, previous)
        if stale:
            # --force: nothing of the last build is reused (PNGs, rulebook and boards included)
            tasks.append((folder, stale, {} if force else previous))
    return tasks, plans


def default_jobs() -> int:
    """The cores this process may use. Not fewer when the machine is busy: the parallel parts
    (the rulebook in a forked process, pictures, several packs) do no work twice, so on a busy
    machine they are as fast as one process, and faster as soon as a core is free."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_packs(folders: list[Path], out: Path, settings, force: bool, jobs: int):
    """Every pack: [(folder, report, (result, keys, previous) | None, state)].

    Several packs: one process per pack. One pack and cores to spare: its rulebook on a second
    core, forked after loading. Parallel work gives the same bytes: every task renders whole files.
    """
    tasks, plans = plan_tasks(folders, out, settings, force)
    with _progress(len(tasks)) as advance:
        if jobs <= 1 or len(tasks) <= 1:
            done = []
            settings = dataclasses.replace(settings, jobs=jobs)  # its pictures on every core
            for folder, kinds, previous in tasks:
                done.append(build_one(folder, settings, kinds, previous, split=jobs > 1))
                advance(output_name(folder))
        else:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)),
                                     initializer=_quiet_worker) as pool:
                futures = [pool.submit(build_one, folder, settings, kinds, previous)
                           for folder, kinds, previous in tasks]
                done = []
                for (folder, _, _), future in zip(tasks, futures):
                    done.append(future.result())
                    advance(output_name(folder))
    return [_merge(folder, plans[folder], [d for d in done if d[0] == folder])
            for folder in folders]


# --- processes forked by a build ------------------------------------------------------------
#
# Every process a build forks (the packs' workers, the rulebook's process, the pictures' pool)
# is set up in the moment it is made, before it runs a line of its own:
# - Ctrl-C and SIGTERM are its parent's to handle: SIGINT is ignored and SIGTERM ends it at once
#   and silently (the parent stops it with SIGTERM). Set by a pool's initializer, this came too
#   late for an interrupt that reached a worker while it started (a traceback of its own: the
#   race tests/cli/test_interrupt.py met); the signals are blocked around the fork itself.
# - it ends with its parent: Linux sends it SIGKILL the moment its parent dies
#   (PR_SET_PDEATHSIG), elsewhere a thread looks for the parent twice a second. A worker of a
#   build that was killed can no longer run on, nor hold anything the next build needs.

_FORK: dict[str, object] = {}


def _before_fork() -> None:
    _FORK["parent"] = os.getpid()
    _FORK["mask"] = _block_interrupts()


def _after_fork_in_parent() -> None:
    _unblock_interrupts(_FORK.pop("mask", None))


def _after_fork_in_child() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(_FORK.get("parent"))
    _unblock_interrupts(_FORK.pop("mask", None))


def _block_interrupts():
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread() or \
            not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def _unblock_interrupts(mask) -> None:
    import signal
    if mask is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def die_with_parent(parent: int | None) -> None:
    """End this (forked) process when its parent ends: at once on Linux, within half a second
    elsewhere; at once when the parent is gone already."""
    import signal
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
            armed = True
        except (OSError, AttributeError):
            armed = False
    else:
        armed = False
    if parent is not None and os.getppid() != parent:  # died before the line above
        os._exit(1)
    if not armed and parent is not None:
        import threading
        import time

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)
        threading.Thread(target=watch, name="cardgen-parent", daemon=True).start()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                        after_in_child=_after_fork_in_child)


def _quiet_worker() -> None:
    """A worker stopped by Ctrl-C or SIGTERM ends at once and silently: the main process
    reports the interrupt once, and no worker prints a traceback of its own."""
    import signal
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: os._exit(130))


def _merge(folder: Path, plan, parts):
    """One pack's outcome from its tasks (each rendered a different set of outputs)."""
    stale, keys, previous = plan
    if not stale:
        return folder, Report(), None, "fresh"
    report = Report()
    results = []
    for _, part_report, result in parts:
        report.extend(part_report)
        results.append(result)
    if any(r is None for r in results):
        return folder, report, None, "failed"
    merged = results[0]
    if previous.get("distrusted"):  # (incremental.fingerprint.read_manifest)
        merged.notes.append(f"{previous['distrusted']}; it is not used: every output is made "
                            "again, and no file it lists is removed")
    for other in results[1:]:
        merged.files.update(other.files)
        merged.built.update(other.built)
        merged.png_keys.update(other.png_keys)
        merged.content.update(other.content)
        merged.changed.extend(other.changed)
        merged.faces.update(other.faces)
    return folder, report, (merged, keys, previous), "built"


class _progress:
    """A rich progress bar on a terminal; nothing when output goes to a file or a test."""

    def __init__(self, total: int):
        self.total = total
        self.bar = None

    def __enter__(self):
        if sys.stderr.isatty() and self.total > 1:
            from rich.progress import Progress
            self.bar = Progress(transient=True)
            self.bar.start()
            self.task = self.bar.add_task("building", total=self.total)
        return self.advance

    def advance(self, name: str) -> None:
        if self.bar:
            self.bar.update(self.task, advance=1, description=name)

    def __exit__(self, *exc):
        if self.bar:
            self.bar.stop()
        return False
