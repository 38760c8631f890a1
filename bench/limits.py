"""What hostile inputs cost before cardgen refuses them (issue 31: no input may make cardgen use
more than 1 GiB or run longer than 30 s before it says so).

Each case writes the mini test pack (tests/fixtures/valid) with one file made to cost as much as
it can, then runs `cardgen check` (or the command named) on it in a fresh process: its exit code,
its first diagnostic, wall time and peak memory (ru_maxrss of that process and its children,
os.wait4). Nothing is downloaded; every file is made here, in a temporary folder.

    python bench/limits.py [--only NAME ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CARDGEN, ROOT, machine, machine_line  # noqa: E402

MINI = ROOT / "tests" / "fixtures" / "valid" / "card_data" / "mini"
HEADER = ["id", "name", "set", "group", "stats.alter", "stats.alter_pos", "stats.erf_ges",
          "stats.erf_pos", "stats.fachwissen", "stats.gehalt", "stats.stundenlohn",
          "stats.krank", "stats.sport_a", "stats.sport_cov"]
ROW = ["A{n}", "Ann {n}", "A", "red", "60", "50", "30", "10", "[2, 60]", "660000", "300.0", "4", "5",
       "3"]


def _csv(path: Path, rows: int, cell: str | None = None) -> None:
    """A hero sheet of `rows` cards (the mini pack's columns)."""
    with open(path, "w", encoding="utf-8", newline="") as stream:
        out = csv.writer(stream, lineterminator="\n")
        out.writerow(HEADER)
        for n in range(1, rows + 1):
            row = [v.format(n=n) for v in ROW]
            if cell is not None and n == 2:
                row[9] = cell
            out.writerow(row)


def _xlsx(path: Path, sheet_tail: bytes = b"", dimension: bytes | None = None,
          shared_padding: int = 0) -> None:
    """A small workbook of two cards, its sheet XML changed: `sheet_tail` (rows after the
    cards), a `dimension` ref, or a comment of `shared_padding` bytes in a part (it deflates to
    almost nothing and unpacks to that size)."""
    from cardgen.load.spreadsheet import workbook
    rows = [HEADER] + [[int(v) if v.isdigit() else v for v in (x.format(n=n) for x in ROW)]
                       for n in (1, 2)]
    data = workbook(rows)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            xml = src.read(info)
            if info.filename.startswith("xl/worksheets/"):
                xml = xml.replace(b"</sheetData>", sheet_tail + b"</sheetData>")
                if dimension is not None:
                    xml = xml.replace(b"<sheetData>", b'<dimension ref="' + dimension +
                                      b'"/><sheetData>', 1)
            if info.filename == "xl/styles.xml" and shared_padding:
                head, _, rest = xml.partition(b"?>")
                with dst.open(info.filename, "w") as stream:  # streamed: never held whole
                    stream.write(head + b"?><!--")
                    block = b"x" * (1 << 20)
                    for _ in range(shared_padding >> 20):
                        stream.write(block)
                    stream.write(b"-->" + rest)
                continue
            dst.writestr(info.filename, xml)
    path.write_bytes(out.getvalue())


def _deep_yaml(path: Path) -> None:
    path.write_text("kind: hero\ncards:\n  - id: A1\n    stats: " + "[" * 200_000 +
                    "]" * 200_000 + "\n", encoding="utf-8")


def _flat_yaml(path: Path) -> None:
    path.write_text("kind: hero\ncards: [" + "1," * 999_000 + "1]\n", encoding="utf-8")


def _long_lines_yaml(path: Path) -> None:
    path.write_text("kind: hero\ncards:\n" + "- x\n" * 499_000, encoding="utf-8")


def _huge_file(path: Path, size: int) -> None:
    with open(path, "wb") as stream:
        stream.write(b"kind: hero\ncards:\n")
        block = b"# " + b"x" * 1021 + b"\n"
        for _ in range(size // len(block)):
            stream.write(block)


def _max_cards(path: Path, cards: int, count: int = 1) -> None:
    _csv(path, cards)
    if count > 1:
        text = path.read_text(encoding="utf-8").splitlines()
        path.write_text("\n".join([text[0] + ",count"] + [line + f",{count}" for line in
                                                            text[1:]]) + "\n", encoding="utf-8")


# (name, what it is, how it is made into the pack folder `p` and the run folder `r`,
#  the command's arguments after `cardgen`)
CASES = [
    ("csv-1M-rows", "a CSV of 1 000 000 cards (67 MB)",
     lambda p, r: _csv(p / "cards" / "hero.csv", 1_000_000), ["check"]),
    ("csv-2MB-many-cards", "a CSV just under 2 MB: 4 999 cards, beyond the pack's 2 000",
     lambda p, r: _csv(p / "cards" / "hero.csv", 4_999), ["check"]),
    ("csv-5000-digit-cell", "a CSV cell of 5 000 digits",
     lambda p, r: _csv(p / "cards" / "hero.csv", 3, "9" * 5000), ["check"]),
    ("xlsx-far-cell", "a 6 kB workbook with a cell at XFD1048576",
     lambda p, r: _xlsx(p / "cards" / "hero.xlsx", b'<row r="1048576"><c r="XFD1048576" '
                        b't="n"><v>1</v></c></row>'), ["check"]),
    ("xlsx-wide-dimension", "a workbook whose dimension claims A1:XFD1048576",
     lambda p, r: _xlsx(p / "cards" / "hero.xlsx", dimension=b"A1:XFD1048576"), ["check"]),
    ("xlsx-unpacks-1GB", "a 1 MB workbook that unpacks to 1 GB",
     lambda p, r: _xlsx(p / "cards" / "hero.xlsx", shared_padding=1 << 30), ["check"]),
    ("yaml-2MB-flat", "a 2 MB YAML file of 1 000 000 values",
     lambda p, r: _flat_yaml(p / "cards" / "heroes.yaml"), ["check"]),
    ("yaml-2MB-block", "a 2 MB YAML file of 499 000 list items",
     lambda p, r: _long_lines_yaml(p / "cards" / "heroes.yaml"), ["check"]),
    ("yaml-deep", "YAML nested 200 000 deep",
     lambda p, r: _deep_yaml(p / "cards" / "heroes.yaml"), ["check"]),
    ("yaml-100MB", "a 100 MB YAML file",
     lambda p, r: _huge_file(p / "cards" / "heroes.yaml", 100_000_000), ["check"]),
    ("cards-2000", "2 000 cards (the bound: 1 999 in a sheet and one in YAML): checked",
     lambda p, r: _max_cards(p / "cards" / "hero.csv", 1999), ["check"]),
    ("cards-2000-build", "the same 2 000 cards: `build --only cards`",
     lambda p, r: _max_cards(p / "cards" / "hero.csv", 1999), ["build", "--only", "cards"]),
    ("printed-5000-build", "1 000 cards printed 5 times each (+1): `build --only cards`",
     lambda p, r: _max_cards(p / "cards" / "hero.csv", 999, count=5),
     ["build", "--only", "cards"]),
    ("cards-2001", "2 001 cards: beyond the bound",
     lambda p, r: _max_cards(p / "cards" / "hero.csv", 2000), ["check"]),
    ("manifest-deep", "a --changed-since manifest nested 1 000 000 deep",
     lambda p, r: (r / "printed.json").write_text("[" * 1_000_000 + "]" * 1_000_000),
     ["build", "mini", "--only", "cards", "--changed-since", "printed.json"]),
    ("manifest-100MB", "a --changed-since manifest of 100 MB",
     lambda p, r: _huge_file(r / "printed.json", 100_000_000),
     ["build", "mini", "--only", "cards", "--changed-since", "printed.json"]),
    ("settings-fifo", "a FIFO as the settings file",
     lambda p, r: os.mkfifo(r / "settings.yaml"), ["build", "--only", "calibration"]),
    ("settings-100MB", "a 100 MB settings file",
     lambda p, r: _huge_file(r / "settings.yaml", 100_000_000),
     ["build", "--only", "calibration"]),
]


def run_case(name: str, make, args: list[str], work: Path) -> dict:
    run = work / name
    pack = run / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    text = (pack / "pack.yaml").read_text(encoding="utf-8")  # without its stat rules: the
    text = text.split("stat_rules:")[0].replace("^[AB][1-4]$", "^A[0-9]+$")  # the cards
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    make(pack, run)  # of a sheet are alike (each would be an error), numbered A1 … A4999
    if (pack / "cards" / "hero.csv").exists() or (pack / "cards" / "hero.xlsx").exists():
        (pack / "cards" / "heroes.yaml").unlink(missing_ok=True)
    env = {**os.environ, "CARDGEN_CACHE": str(run / "cache"), "COLUMNS": "400",
           "CARDGEN_SETTINGS": str(run / "settings.yaml") if
           os.path.lexists(run / "settings.yaml") else os.devnull}
    cmd = CARDGEN + args + ["--data", "card_data"] + (
        ["--out", "out"] if args[0] == "build" else [])
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=run, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    said = next((line.strip(" │") for line in stderr.splitlines() if ": error: " in line
                 or line.startswith("error: ") or "Invalid value" in line), stderr[:200])
    shutil.rmtree(run, ignore_errors=True)
    return {"case": name, "exit": os.waitstatus_to_exitcode(status), "wall_s": round(wall, 2),
            "rss_mib": round(usage.ru_maxrss / 1024), "said": said.strip(),
            "traceback": "Traceback" in stderr}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case names")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    m = machine()
    rows = []
    with tempfile.TemporaryDirectory(prefix="cardgen-limits-") as folder:
        for name, what, make, command in CASES:
            if args.only and name not in args.only:
                continue
            print(f"{name} ...", file=sys.stderr, flush=True)
            row = run_case(name, make, command, Path(folder))
            row["what"] = what
            rows.append(row)
    print(f"Machine: {machine_line(m)}\n")
    print("| case | input | exit | wall s | peak MiB | first line |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        said = r["said"] if len(r["said"]) < 160 else r["said"][:157] + "..."
        flag = " **traceback**" if r["traceback"] else ""
        print(f"| {r['case']} | {r['what']} | {r['exit']}{flag} | {r['wall_s']:.2f} | "
              f"{r['rss_mib']} | `{said}` |")
    worst = max(rows, key=lambda r: r["wall_s"]), max(rows, key=lambda r: r["rss_mib"])
    print(f"\nslowest: {worst[0]['case']} {worst[0]['wall_s']:.2f} s; largest: "
          f"{worst[1]['case']} {worst[1]['rss_mib']} MiB (bounds: 30 s, 1024 MiB)")
    if args.json:
        args.json.write_text(json.dumps({"machine": m, "cases": rows}, indent=1))


if __name__ == "__main__":
    main()
