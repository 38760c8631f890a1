"""What a build will do, decided before any of the pipeline is imported: the settings, the
packs, and which of their outputs are out of date.

Why a module of its own: a build with nothing changed must return at once; it needs only file
hashes and the last manifest (cardgen.incremental.fingerprint), not the models, fonts, templates, reportlab
and Pillow that cardgen.build brings along.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..diagnostics import Report
from .fingerprint import listing, output_keys, read_manifest, still_valid
from ..paths import find_packs, output_name
from ..model.outputs import DEFAULT_KINDS
from ..model.settings import BuildSettings


def select_packs(data_dir: Path, names: list[str], report: Report) -> list[Path]:
    """Pack folders to work on: the named ones, or all of them."""
    if not data_dir.is_dir():
        what = "no such folder" if not data_dir.exists() else "is a file, not a folder"
        report.error(str(data_dir), 0, 0, "", f"{what} (give the folder that holds your "
                     "pack folders with --data)")
        return []
    try:
        os.listdir(data_dir)
    except OSError as exc:  # (the listing below would be silently empty)
        report.error(str(data_dir), 0, 0, "", f"cannot read the folder: {exc.strerror or exc}")
        return []
    available = find_packs(data_dir)
    if not available and (data_dir / "pack.yaml").is_file():  # --data named the pack itself
        report.error(str(data_dir), 0, 0, "", f"this is a pack folder; --data takes the folder "
                     f"that holds the packs: --data {data_dir.parent} {data_dir.name}")
        return []
    if not names:
        if not available:
            report.error(str(data_dir), 0, 0, "", "no packs found (a pack is a folder with a "
                         "pack.yaml)")
        return available
    by_name = {p.name: p for p in available}
    chosen = []
    for name in names:
        if name in by_name:
            chosen.append(by_name[name])
        elif _not_readable(data_dir, name):
            report.error(str(data_dir / name), 0, 0, "", _not_readable(data_dir, name))
        else:
            from ..diagnostics import did_you_mean
            report.error(str(data_dir), 0, 0, name, f"no such pack{did_you_mean(name, list(by_name))}"
                         f"; available: {', '.join(by_name) or 'none'}")
    return chosen


def _not_readable(data_dir: Path, name: str) -> str | None:
    """Why the folder `name` in data_dir, which exists, is not found as a pack; None when
    there is no such entry (then it is "no such pack")."""
    if "/" in name or name in ("", ".", ".."):
        return None
    folder = data_dir / name
    try:
        mode = os.lstat(folder).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode) and not folder.exists():
        return f"cannot read the pack: it is a link to '{os.readlink(folder)}', which does not " \
               "exist"
    if not folder.is_dir():
        return "no pack: this is a file, not a folder (a pack is a folder with a pack.yaml)"
    try:
        names = os.listdir(folder)
    except OSError as exc:
        return f"cannot read the pack folder: {exc.strerror or exc}"
    if "pack.yaml" not in names:
        return "no pack: the folder holds no pack.yaml (`cardgen new` makes a pack)"
    try:
        os.stat(folder / "pack.yaml")
    except OSError as exc:
        return f"cannot read the pack's pack.yaml: {exc.strerror or exc}"
    return None


def wanted_outputs(settings: BuildSettings) -> set[str]:
    wanted = set(settings.only or DEFAULT_KINDS)
    if settings.png:
        wanted.add("png")
    if settings.changed_since is not None:
        wanted.add("changed")
    if not settings.only:
        wanted.update(settings.also)
    return wanted


def stale_outputs(folder: Path, out_dir: Path, settings: BuildSettings):
    """(output kinds to build, their keys, the previous manifest) for one pack."""
    entries, unusual = listing(folder)
    keys = output_keys(folder, settings, entries)
    previous = read_manifest(out_dir / output_name(folder))
    distrust = bool(unusual)  # symlinks, pipes ...: validated by a build, not trusted
    built = previous.get("built") or {}
    stale, intact = set(), set()
    for kind in wanted_outputs(settings):
        entry = built.get(kind) or {}
        files = entry.get("files")
        whole = files is not None and all(still_valid(out_dir / output_name(folder), previous, name)
                                          for name in files)
        if whole:
            intact.add(kind)
        if entry.get("key") != keys[kind] or not whole or kind == "changed" or distrust:
            stale.add(kind)  # changed.pdf compares with a manifest the key does not know
    previous["intact"] = sorted(intact)  # outputs on disk exactly as the manifest says
    return stale, keys, previous
