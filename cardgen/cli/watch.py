"""cardgen watch: rebuild on every save, print the diagnostics, keep output/ current.

Besides what `cardgen build` makes, watch keeps the contact sheet (contact.pdf, a PNG per page)
current, so a viewer left open on it shows every card as it is now.

How it sees a save: the system's file events (watchfiles; serve.events explains the choice),
reported once the files stand still for a moment, so an editor that saves in steps (a
temporary file, a rename) causes one rebuild. `--poll` (network drives, some containers), or
no events to be had, looks at the files' times every `--interval` instead.

How it rebuilds: each pack stays loaded in this process (pipeline.resident): the files that did
not change are not parsed again, the cards that did not change are not laid out again, and the
build's manifest keys decide which outputs are made, exactly as for `cardgen build` (the same
bytes). cards.pdf is written as soon as it is drawn, then the contact sheet, while the rest is
drawn (a rulebook in a second process): what a designer has open comes first. A rebuild
refused because another build holds the output folder is tried again every second until it
gets through (or the next save starts a new one). Ctrl-C ends with exit 0; a write under way
is finished first, so output/ never holds half of a build.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import (DataOption, LanguageOption, PacksArgument, data_dir, finish, info,
                     print_report, use_edition)

RETRY_SECONDS = 1.0  # a rebuild refused by the output folder's lock is tried again after this


def watch(
    packs: PacksArgument = None,
    out: Annotated[Path, typer.Option(metavar="DIR", help="Output folder.")] = Path("output"),
    only: Annotated[Optional[list[str]], typer.Option(
        metavar="KIND", help="Build only these (repeatable), as for cardgen build.",
        show_default=False)] = None,
    interval: Annotated[float, typer.Option(
        min=0.05, max=10, metavar="SECONDS", help="How often to look for changes with "
        "--poll (or where the system gives no file events).")] = 0.5,
    poll: Annotated[bool, typer.Option("--poll", help="Look at the files every --interval "
                                       "instead of waiting for the system's file events "
                                       "(network drives, some containers).")] = False,
    data: DataOption = None,
    language: LanguageOption = None,
) -> None:
    """Rebuild packs on every save: edit a card, the PDFs in output/ follow. Ctrl-C stops.

    Also keeps contact.pdf (every card on a few pages) current: leave it open in a viewer.
    To see the cards in a browser as you type, use cardgen serve.

    Examples:

      cardgen watch my-game                 # keep output/my-game/ current

      cardgen watch my-game --only cards    # only the card sheets, faster

      cardgen watch quartett --language en  # the English edition → output/quartett-en/
    """
    use_edition(language)
    from ..model.settings import BuildSettings
    from ..incremental.plan import select_packs
    from ..diagnostics import Report
    from .build import check_only
    from ..load.settings import load_user_settings
    report = Report()
    folders = select_packs(data_dir(data), packs or [], report)
    user = load_user_settings(report)  # the printer's paper, duplex and offset, as for build
    if report.errors:
        finish(report, False)
    settings = BuildSettings(only=tuple(sorted(set(check_only(only)))), paper=user.paper,
                             duplex=user.duplex, back_offset=user.back_offset,
                             margin=user.margin, also=("contact",))
    from ..pipeline.resident import Resident
    residents = [Resident(folder, settings) for folder in folders]
    info(f"watching {', '.join(f.name for f in folders)} (Ctrl-C to stop)")
    try:
        _loop(residents, folders, out, settings, interval, poll)
    except KeyboardInterrupt:
        info("stopped watching")
    finally:
        for resident in residents:
            resident.close()


def _loop(residents, folders: list[Path], out: Path, settings, interval: float,
          poll: bool) -> None:
    """Build, then build again after every batch of changes; a refused build again every
    RETRY_SECONDS. The files are watched from before the first build on."""
    import queue

    from ..serve.events import watching
    batches: queue.Queue = queue.Queue()
    stop = threading.Event()
    watching(folders, stop, batches.put, interval, poll,
             on_fallback=lambda why: info(f"watch: {why}"))
    try:
        waiting = not rebuild(residents, out, settings)
        while True:
            try:
                changed = set(_next_batch(batches, RETRY_SECONDS if waiting else None))
            except queue.Empty:  # the output folder was locked: try again
                waiting = not rebuild(residents, out, settings, say_refused=False)
                continue
            while not batches.empty():  # saved again meanwhile: one build for all of it
                changed |= set(batches.get())
            info(f"changed: {', '.join(changes(changed))}")
            waiting = not rebuild(residents, out, settings)
    finally:
        stop.set()


WAKE_SECONDS = 0.25  # how often the waiting main thread wakes to take a Ctrl-C


def _next_batch(batches, timeout: float | None):
    """The next batch of changes (queue.Empty after `timeout`; None: no end). Waited for in
    short slices: a Ctrl-C that the file watcher's own thread receives is handled by Python in
    the main thread only when that thread runs, and a wait without end would never run it."""
    import queue
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        left = WAKE_SECONDS if end is None else min(WAKE_SECONDS, end - time.monotonic())
        try:
            return batches.get(timeout=max(left, 0))
        except queue.Empty:
            if end is not None and time.monotonic() >= end:
                raise


def changes(paths) -> list[str]:
    """The changed, new and removed files, as the user sees their paths."""
    from ..diagnostics import display_path
    return [display_path(p) for p in sorted(paths)]


def rebuild(residents, out: Path, settings, say_refused: bool = True) -> bool:
    """One incremental build of the packs; problems printed, nothing written when one fails.
    Each pack's cards.pdf and contact sheet are written as soon as each is drawn, the rest
    when all is drawn. False when the output folder could not be written (another build
    holds it): try again (`say_refused`: say so; a retry does not say it again)."""
    import json

    from ..diagnostics import Report
    from ..incremental.manifest import write
    from ..output import OutputError, output_lock
    from ..pipeline.parallel import default_jobs
    from ..pipeline.resident import build_packs
    from .build import report_done, report_packs
    started = time.perf_counter()
    early: dict = {}  # pack folder → (cards, files) written first (cards.pdf, contact sheet)

    def written_first(folder: Path, outcome) -> dict:
        with interrupt_after():
            written = write(out, [outcome])
        for pack, (cards, names) in report_packs([(folder, None, outcome, "built")], out,
                                                 {p.name: p for p in written}).items():
            early[pack] = (cards, early.get(pack, (0, set()))[1] | names)
        return json.loads(written[0].files["manifest.json"])

    try:
        with output_lock(out):  # no other build writes to out/ meanwhile
            # as `cardgen build` does: a rulebook on a second core
            outcomes = build_packs(residents, out, settings, default_jobs(), written_first)
            report = Report()
            for _, pack_report, _, _ in outcomes:
                report.extend(pack_report)
            print_report(report)
            if report.errors:
                info(("the files listed above are written, the rest is not" if early else
                      "not written") + ": fix the errors above (still watching)")
                return True
            with interrupt_after():
                written = write(out, [r for _, _, r, _ in outcomes if r is not None])
    except OutputError as exc:
        if say_refused:
            typer.echo(f"error: {exc} (still watching; trying again every "
                       f"{RETRY_SECONDS:g} s)", err=True)
        return False
    made = report_packs(outcomes, out, {p.name: p for p in written}, quiet=frozenset(early))
    for folder, (cards, names) in early.items():
        made[folder] = (cards, names | made.get(folder, (0, set()))[1])
    report_done(made, started)
    return True


@contextmanager
def interrupt_after():
    """Ctrl-C during the block takes effect after it: the files of a build land together."""
    caught = []
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: caught.append(True))
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
