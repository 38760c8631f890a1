"""cardgen watch: rebuild on every save, print the diagnostics, keep output/ current.

Besides what `cardgen build` makes, watch keeps the contact sheet (contact.pdf, a PNG per page)
current, so a viewer left open on it shows every card as it is now.

Why polling: it needs no extra package, works the same on every system and on network drives,
and a pack is a few dozen files, so looking at their times twice a second costs nothing.
Debounced: an editor that saves in steps (a temporary file, a rename) causes one rebuild, made
once the files have stood still for one interval. Incremental: the build's manifest keys decide
what is made again, exactly as for `cardgen build`. Ctrl-C ends with exit 0; a write under way
is finished first, so output/ never holds half of a build.
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import DataOption, PacksArgument, data_dir, finish, info, print_report


def watch(
    packs: PacksArgument = None,
    out: Annotated[Path, typer.Option(metavar="DIR", help="Output folder.")] = Path("output"),
    only: Annotated[Optional[list[str]], typer.Option(
        metavar="KIND", help="Build only these (repeatable), as for cardgen build.",
        show_default=False)] = None,
    interval: Annotated[float, typer.Option(
        min=0.05, max=10, metavar="SECONDS", help="How often to look for changes.")] = 0.5,
    data: DataOption = None,
) -> None:
    """Rebuild packs on every save: edit a card, the PDFs in output/ follow. Ctrl-C stops.

    Also keeps contact.pdf (every card on a few pages) current: leave it open in a viewer.

    Examples:

      cardgen watch my-game                 # keep output/my-game/ current

      cardgen watch my-game --only cards    # only the card sheets, faster
    """
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
    seen = snapshot(folders)
    info(f"watching {', '.join(f.name for f in folders)} (Ctrl-C to stop)")
    try:
        rebuild(folders, out, settings)
        while True:
            time.sleep(interval)
            now = snapshot(folders)
            if now == seen:
                continue
            now = settle(folders, now, interval)
            info(f"changed: {', '.join(changes(seen, now))}")
            seen = now
            rebuild(folders, out, settings)
    except KeyboardInterrupt:
        info("stopped watching")


def snapshot(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """{path: (modification time, size)} of every file of the packs; editors' temporary and
    backup files (.name, name~) left out."""
    out = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.name.startswith(".") or path.name.endswith("~") or not path.is_file():
                continue
            try:
                stat = path.stat()
            except OSError:  # removed between listing and looking
                continue
            out[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return out


def settle(folders: list[Path], now: dict, interval: float) -> dict:
    """Wait until the files stand still for one interval (the debounce)."""
    while True:
        time.sleep(interval)
        later = snapshot(folders)
        if later == now:
            return now
        now = later


def changes(before: dict, after: dict) -> list[str]:
    """The changed, new and removed files, as the user sees their paths."""
    from ..diagnostics import display_path
    names = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    return [display_path(p) for p in names]


def rebuild(folders: list[Path], out: Path, settings) -> None:
    """One incremental build of the packs; problems printed, nothing written when one fails."""
    from ..diagnostics import Report
    from ..incremental.manifest import write
    from ..output import OutputError, output_lock
    from ..pipeline.parallel import default_jobs, run_packs
    from .build import report_outcomes
    started = time.perf_counter()
    try:
        with output_lock(out):  # no other build writes to out/ meanwhile
            # as `cardgen build` does: a rulebook (or, with the faces kept, the print-shop
            # file) on a second core, packs side by side
            outcomes = run_packs(folders, out, settings, False, default_jobs())
            report = Report()
            for _, pack_report, _, _ in outcomes:
                report.extend(pack_report)
            print_report(report)
            if report.errors:
                info("not written: fix the errors above (still watching)")
                return
            with interrupt_after():
                written = write(out, [r for _, _, r, _ in outcomes if r is not None])
    except OutputError as exc:
        typer.echo(f"error: {exc} (still watching)", err=True)
        return
    report_outcomes(outcomes, out, started, {p.name: p for p in written})


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
