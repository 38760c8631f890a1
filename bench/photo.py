"""The picture deck (bench/deck.py) against its floor, and the edit loop on it and the flagship.

Per deck size (×1 = 104 cards, ×10 = 1040), every measurement a fresh process, the runs of one
repetition side by side (a busy moment slows them alike):

- floor: bench/floor.py on the deck — interpreter start-up with reportlab and PIL imported
  (measured as its own process) plus the floor's timed region (fonts, pictures scaled once to
  300 dpi and embedded once as JPEG, drawing, save);
- `cardgen build --only cards` and `cardgen build` (cards + printshop), cold: a new output
  folder and an empty cardgen cache ($CARDGEN_CACHE);
- the same with the cache of an earlier build (prepared pictures, laid-out and drawn faces,
  parsed files kept): "warm";
- after the full build: one stat changed in one card, built again into the same output; then
  nothing changed, built again.

The flagship (card_data/crazy-hospital, copied): cold build of every output with an empty and
with a warm cache, the one-stat rebuild and the no-change rebuild.

    python bench/photo.py [--sizes 1 10] [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CARDGEN, DATA, PYTHON, Run, measure  # noqa: E402

BENCH = Path(__file__).resolve().parent
STARTUP = [PYTHON, "-c", "import reportlab.pdfgen.canvas, PIL.Image, PIL.ImageOps"]


def edit_one_stat(path: Path, key: str) -> None:
    """The first `key: N` in the file becomes N+1 (or N-1 at the top of its range)."""
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"\b{key}: ([0-9]+)", text)
    value = int(match.group(1))
    new = value + 1 if value < 98 else value - 1
    path.write_text(text[:match.start(1)] + str(new) + text[match.end(1):], encoding="utf-8")


def build(data: Path, out: Path, cache: Path, *extra: str) -> Run:
    return measure(CARDGEN + ["build", "--data", str(data), "--out", str(out), *extra],
                   env={"CARDGEN_CACHE": str(cache)})


def deck_once(data: Path, tmp: Path, index: int) -> dict:
    """One repetition on one deck size: every number of the table."""
    floor = json.loads(measure([PYTHON, str(BENCH / "floor.py"), "--data", str(data),
                                "--pack", "photo-deck"]).out)
    startup = measure(STARTUP)
    cold_cache, out = tmp / f"cache{index}", tmp / f"out{index}"
    cards = build(data, tmp / f"cards{index}", tmp / f"cards-cache{index}", "--only", "cards")
    warm_cards = build(data, tmp / f"cards-warm{index}", tmp / f"cards-cache{index}",
                       "--only", "cards")
    cards_jobs1 = build(data, tmp / f"cards-jobs1-{index}", tmp / f"cards-jobs1-cache{index}",
                        "--only", "cards", "--jobs", "1")
    full = build(data, out, cold_cache)
    jobs1 = build(data, tmp / f"jobs1-{index}", tmp / f"jobs1-cache{index}", "--jobs", "1")
    cards_file = data / "photo-deck" / "cards" / "bild.yaml"
    original = cards_file.read_text(encoding="utf-8")
    edit_one_stat(cards_file, "kraft")
    try:
        edited = build(data, out, cold_cache)
    finally:
        cards_file.write_text(original, encoding="utf-8")
    build(data, out, cold_cache)  # back to the original
    unchanged = build(data, out, cold_cache)
    loop = watch_edit(data, "photo-deck", tmp / f"watch{index}", cold_cache,
                      cards_file, "kraft")
    return {"floor_s": startup.wall + floor["total_s"], "floor_timed_s": floor["total_s"],
            "startup_s": startup.wall, "floor_cpu_s": startup.cpu + floor["cpu_s"],
            "cards_warm_cpu_s": warm_cards.cpu, "full_jobs1_cpu_s": jobs1.cpu,
            "cards_jobs1_s": cards_jobs1.wall, "cards_jobs1_cpu_s": cards_jobs1.cpu,
            "one_stat_cpu_s": edited.cpu, "unchanged_cpu_s": unchanged.cpu,
            "cards_s": cards.wall, "cards_cpu_s": cards.cpu, "peak_mb": cards.rss_mb,
            "cards_warm_s": warm_cards.wall, "full_s": full.wall, "full_cpu_s": full.cpu,
            "full_peak_mb": full.rss_mb, "full_jobs1_s": jobs1.wall,
            "one_stat_s": edited.wall, "unchanged_s": unchanged.wall,
            "floor_bytes": floor["bytes"], "watch_first_s": loop["first_s"],
            "watch_edit_s": loop["edit_s"],
            "cards_pdf_bytes": (tmp / f"cards{index}" / "photo-deck" / "cards.pdf").stat().st_size}


def watch_edit(data: Path, pack: str, out: Path, cache: Path, cards_file: Path,
               key: str) -> dict:
    """`cardgen watch`'s loop (bench/watch_edit.py): a build, one stat edit, the rebuild, in
    one process as watch runs them."""
    run = measure([PYTHON, str(BENCH / "watch_edit.py"), str(data), pack, str(out),
                   str(cards_file), key], env={"CARDGEN_CACHE": str(cache)})
    return json.loads(run.out.strip().splitlines()[-1])


def flagship_once(tmp: Path, index: int) -> dict:
    data = tmp / f"flagship{index}"
    shutil.copytree(DATA / "crazy-hospital", data / "crazy-hospital")
    cache, out = tmp / f"fcache{index}", tmp / f"fout{index}"
    cold = build(data, out, cache)  # an empty cache
    warm_run = build(data, tmp / f"fout-warm{index}", cache)  # the cache of the build before
    jobs1 = build(data, tmp / f"fout-jobs1-{index}", cache, "--jobs", "1")
    edit_one_stat(data / "crazy-hospital" / "cards" / "character.yaml", "iq")
    edited = build(data, out, cache)
    unchanged = build(data, out, cache)
    loop = watch_edit(data, "crazy-hospital", tmp / f"fwatch{index}", cache,
                      data / "crazy-hospital" / "cards" / "character.yaml", "iq")
    return {"watch_first_s": loop["first_s"], "watch_edit_s": loop["edit_s"],
            "cold_s": cold.wall, "cold_cpu_s": cold.cpu, "warm_s": warm_run.wall,
            "warm_cpu_s": warm_run.cpu, "jobs1_s": jobs1.wall, "jobs1_cpu_s": jobs1.cpu,
            "one_stat_s": edited.wall, "one_stat_cpu_s": edited.cpu,
            "unchanged_s": unchanged.wall, "unchanged_cpu_s": unchanged.cpu,
            "peak_mb": cold.rss_mb}


def best(rows: list[dict]) -> dict:
    """Best of N per number: the smallest time, the largest peak memory."""
    out = dict(rows[0])
    for key in out:
        pick = max if "peak" in key or "bytes" in key else min
        out[key] = pick(r[key] for r in rows)
    return out


def run(sizes=(1, 10), repeat: int = 3, log=print) -> dict:
    import deck
    results = {"decks": {}, "flagship": None}
    with tempfile.TemporaryDirectory(prefix="cardgen-photo-") as tmp:
        tmp = Path(tmp)
        for size in sizes:
            log(f"picture deck ×{size}: generating")
            data = tmp / f"deck{size}"
            deck.write(data, size)
            rows = []
            for index in range(repeat):
                log(f"picture deck ×{size}: run {index + 1}/{repeat}")
                rows.append(deck_once(data, tmp / f"runs{size}", index))
            results["decks"][size] = {"cards": (deck.PICTURE_CARDS + deck.TEXT_CARDS) * size,
                                      **best(rows)}
        log("flagship: cold, warm, one stat, unchanged")
        results["flagship"] = best([flagship_once(tmp, i) for i in range(repeat)])
    return results


def table(r: dict) -> str:
    """Wall and CPU seconds, each against the floor's. Wall time is what the user waits (the
    floor is one process; cardgen prepares pictures on every core); CPU time is the work done,
    which other work on the machine disturbs less."""
    decks = list(r["decks"].values())
    lines = ["| | " + " | ".join(f"{d['cards']} cards: wall s | CPU s | wall × floor | "
                                  "CPU × floor" for d in decks) + " |",
             "|---" + "|---:|---:|---:|---:" * len(decks) + "|"]

    def row(label, wall, cpu, base="floor", unit="×"):
        cells = []
        for d in decks:
            if unit == "×":
                shown = f"{d[wall] / d[base + '_s']:.2f}× | {d[cpu] / d[base + '_cpu_s']:.2f}×"
            else:
                shown = (f"{100 * d[wall] / d[base + '_s']:.0f} % of cold | "
                         f"{100 * d[cpu] / d[base + '_cpu_s']:.0f} % of cold")
            cells.append(f"{d[wall]:.2f} | {d[cpu]:.2f} | {shown}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    row("floor (start-up + timed region)", "floor_s", "floor_cpu_s")
    row("`cardgen build --only cards`, cold", "cards_s", "cards_cpu_s")
    row("the same, `--jobs 1`", "cards_jobs1_s", "cards_jobs1_cpu_s")
    row("the same, new output, the cache it left (pictures, faces, parsed files)",
        "cards_warm_s", "cards_warm_cpu_s")
    row("`cardgen build` (cards + printshop), cold", "full_s", "full_cpu_s")
    row("the same, `--jobs 1`", "full_jobs1_s", "full_jobs1_cpu_s")
    row("rebuild after one stat edit", "one_stat_s", "one_stat_cpu_s", "full", "%")
    row("rebuild with nothing changed", "unchanged_s", "unchanged_cpu_s")
    lines.append("| `cardgen watch`: first build / rebuild after one stat edit, s | " + " | ".join(
        f"{d['watch_first_s']:.2f} / {d['watch_edit_s']:.2f} "
        f"({100 * d['watch_edit_s'] / d['full_s']:.0f} % of a cold build) |||" for d in decks)
        + " |")
    lines.append("| peak memory MiB: `--only cards` / full build | " + " | ".join(
        f"{d['peak_mb']:.0f} / {d['full_peak_mb']:.0f} |||" for d in decks) + " |")
    lines.append("| cards.pdf / floor PDF, MB | " + " | ".join(
        f"{d['cards_pdf_bytes'] / 1e6:.2f} / {d['floor_bytes'] / 1e6:.2f} |||" for d in decks)
        + " |")
    f = r["flagship"]
    lines += ["", "| flagship (crazy-hospital, every output) | wall s | CPU s |", "|---|---:|---:|",
              f"| cold build, empty cache | {f['cold_s']:.2f} | {f['cold_cpu_s']:.2f} |",
              f"| new output folder, the cache of an earlier build (hyphenation, faces, parsed files) | {f['warm_s']:.2f} | "
              f"{f['warm_cpu_s']:.2f} |",
              f"| the same, `--jobs 1` | {f['jobs1_s']:.2f} | {f['jobs1_cpu_s']:.2f} |",
              f"| rebuild after one stat edit | {f['one_stat_s']:.2f} | {f['one_stat_cpu_s']:.2f} "
              f"({100 * f['one_stat_cpu_s'] / f['cold_cpu_s']:.0f} % of cold) |",
              f"| rebuild with nothing changed | {f['unchanged_s']:.2f} | "
              f"{f['unchanged_cpu_s']:.2f} |",
              f"| `cardgen watch` (+ contact sheet): first build / rebuild after one stat edit "
              f"| {f['watch_first_s']:.2f} / {f['watch_edit_s']:.2f} "
              f"({100 * f['watch_edit_s'] / f['cold_s']:.0f} % of a cold build) | |",
              f"| peak memory, MiB | {f['peak_mb']:.0f} | |"]
    return "\n".join(lines)


def targets(r: dict, suite_s: float | None = None) -> str:
    """The issue's targets next to this run's numbers: judged in wall time, what the user
    waits (CPU time in brackets; see table())."""
    rows = ["| target | measured | met? |", "|---|---|---|"]

    def add(target, measured, met):
        rows.append(f"| {target} | {measured} | {'yes' if met else 'no'} |")
    for d in r["decks"].values():
        n = d["cards"]
        add(f"`--only cards` ≤ 1.2× the floor, {n} cards",
            f"{d['cards_s'] / d['floor_s']:.2f}× wall ({d['cards_cpu_s'] / d['floor_cpu_s']:.2f}× "
            f"CPU)", d["cards_s"] <= 1.2 * d["floor_s"])
        add(f"full build ≤ 1.5× the floor, {n} cards",
            f"{d['full_s'] / d['floor_s']:.2f}× wall ({d['full_cpu_s'] / d['floor_cpu_s']:.2f}× "
            f"CPU)", d["full_s"] <= 1.5 * d["floor_s"])
        add(f"one-stat rebuild ≤ 25 % of cold, picture deck {n} cards",
            f"{100 * d['one_stat_s'] / d['full_s']:.0f} % wall "
            f"({100 * d['one_stat_cpu_s'] / d['full_cpu_s']:.0f} % CPU)",
            d["one_stat_s"] <= 0.25 * d["full_s"])
        add(f"the same in `cardgen watch` (one process, + contact sheet), {n} cards",
            f"{100 * d['watch_edit_s'] / d['full_s']:.0f} % wall ({d['watch_edit_s']:.2f} s)",
            d["watch_edit_s"] <= 0.25 * d["full_s"])
        add(f"no-change build < 0.3 s, {n} cards", f"{d['unchanged_s']:.2f} s wall, "
            f"{d['unchanged_cpu_s']:.2f} s CPU", d["unchanged_s"] < 0.3)
        add(f"default `--jobs` not slower than `--jobs 1`, {n} cards",
            f"{d['full_s']:.2f} vs {d['full_jobs1_s']:.2f} s wall",
            d["full_s"] <= d["full_jobs1_s"] * 1.05)
    largest = list(r["decks"].values())[-1]
    add(f"peak memory ≤ 150 MiB at {largest['cards']} picture cards",
        f"{largest['peak_mb']:.0f} MiB (`--only cards`), {largest['full_peak_mb']:.0f} MiB (full)",
        largest["full_peak_mb"] <= 150)
    f = r["flagship"]
    add("flagship cold build (every output) ≤ 1.5 s", f"{f['cold_s']:.2f} s wall, "
        f"{f['cold_cpu_s']:.2f} s CPU (warm cache {f['warm_s']:.2f} s)", f["cold_s"] <= 1.5)
    add("flagship one-stat rebuild ≤ 25 % of cold",
        f"{100 * f['one_stat_s'] / f['cold_s']:.0f} % wall "
        f"({100 * f['one_stat_cpu_s'] / f['cold_cpu_s']:.0f} % CPU)",
        f["one_stat_s"] <= 0.25 * f["cold_s"])
    add("the same in `cardgen watch` (one process, + contact sheet)",
        f"{100 * f['watch_edit_s'] / f['cold_s']:.0f} % wall ({f['watch_edit_s']:.2f} s)",
        f["watch_edit_s"] <= 0.25 * f["cold_s"])
    add("flagship no-change build < 0.3 s", f"{f['unchanged_s']:.2f} s", f["unchanged_s"] < 0.3)
    add("flagship default `--jobs` not slower than `--jobs 1`",
        f"{f['warm_s']:.2f} vs {f['jobs1_s']:.2f} s wall (warm cache)",
        f["warm_s"] <= f["jobs1_s"] * 1.05)
    if suite_s is not None:
        add("test suite ≤ 90 s", f"{suite_s:.0f} s (`python -m pytest -q -n auto`)",
            suite_s <= 90)
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = run(args.sizes, args.repeat, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(table(results))
    print()
    print(targets(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
