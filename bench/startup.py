"""What a fresh `cardgen` process pays before it does any pack work, and the short builds where
that is most of the wait (issue #19).

Per source tree (default: this one; `--tree DIR` again for each tree to compare, e.g. a copy of
main before a change), every measurement a fresh process, the trees' runs of one repetition side
by side (a busy moment slows them alike), best of N:

- stages, timed inside one process: importing the CLI (typer, cardgen.cli), parsing the
  options of a `cardgen build` (Typer turning argv into values), importing the pipeline
  (cardgen.build: pydantic models, reportlab, PIL, jinja2), registering the five fonts the
  picture deck prints with;
- wall time of `python -c pass` (the interpreter alone), `cardgen --help`, `cardgen build --help`;
- the picture deck (bench/deck.py, 104 cards; a copy per tree): a cold `--only cards` build
  (new output folder, empty cache), then, into the output and cache of a full build, a full
  build after one stat was changed and one with nothing changed.

    python bench/startup.py [--repeat 5] [--tree DIR ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PYTHON, ROOT, machine, machine_line, measure  # noqa: E402
from photo import edit_one_stat  # noqa: E402

BENCH = Path(__file__).resolve().parent
FACES = ("sans", "sans-bold", "condensed", "condensed-bold", "serif")  # the picture deck's

# One process, four stages in their order in a build; prints their times as JSON.
STAGES = f"""
import json, sys, time
t0 = time.perf_counter()
from cardgen.cli.app import app
t1 = time.perf_counter()
from typer.main import get_command
build = get_command(app).commands["build"]
build.make_context("build", ["photo-deck", "--out", "out", "--only", "cards", "--jobs", "2",
                             "--bleed", "3", "--paper", "a4"])
t2 = time.perf_counter()
try:  # the pipeline (cardgen.build before the one-pipeline refactoring)
    import cardgen.pipeline.chain, cardgen.pipeline.draw
except ImportError:
    import cardgen.build
t3 = time.perf_counter()
from cardgen.text import fonts
for face in {FACES!r}:
    fonts.register(face)
t4 = time.perf_counter()
print(json.dumps({{"import CLI": t1 - t0, "parse build options": t2 - t1,
                  "import pipeline": t3 - t2, "register 5 fonts": t4 - t3}}))
"""
CLI = "import sys; from cardgen.cli.app import run; sys.argv[0] = 'cardgen'; run()"


def cardgen(tree: Path, cache: Path, *args: str):
    """`cardgen ARGS` from that tree. Run in the cache's parent: `python -c` puts the working
    folder first on sys.path, and a cardgen/ found there would be measured instead."""
    return measure([PYTHON, "-c", CLI, *args], cwd=cache.parent,
                   env={"PYTHONPATH": str(tree), "CARDGEN_CACHE": str(cache)})


def stages(tree: Path, cache: Path) -> dict:
    """The stage times of one process (STAGES) from that tree."""
    env = {"PYTHONPATH": str(tree), "CARDGEN_CACHE": str(cache)}
    return json.loads(measure([PYTHON, "-c", STAGES], cwd=cache.parent, env=env).out)


def once(tree: Path, tmp: Path, index: int) -> dict:
    """One repetition for one tree (its files in tmp): every number of the table, in s."""
    deck = tmp / "deck"
    cache, out = tmp / f"cache{index}", tmp / f"cards{index}"
    kept = stages(tree, tmp / "cache-stages")  # fonts from the cache (after the first run)
    empty = stages(tree, cache)  # fonts parsed
    fonts = "register 5 fonts"
    times = {name: t for name, t in kept.items() if name != fonts}
    times.update({f"{fonts} (cache)": kept[fonts], f"{fonts} (empty cache)": empty[fonts]})
    shutil.rmtree(cache, ignore_errors=True)
    walls = {
        "python -c pass": measure([PYTHON, "-c", "pass"], cwd=tmp).wall,
        "cardgen --help": cardgen(tree, cache, "--help").wall,
        "cardgen build --help": cardgen(tree, cache, "build", "--help").wall,
        "cold --only cards (104)": cardgen(tree, cache, "-q", "build", "--data", str(deck),
                                           "--out", str(out), "--only", "cards").wall,
    }
    full = ("-q", "build", "--data", str(deck), "--out", str(tmp / "full"))
    edit_one_stat(deck / "photo-deck" / "cards" / "bild.yaml", "kraft")
    walls["one stat changed, full build (104)"] = cardgen(tree, tmp / "cache-full", *full).wall
    walls["no change, full build (104)"] = cardgen(tree, tmp / "cache-full", *full).wall
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return {**times, **walls}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per number (best of N)")
    parser.add_argument("--tree", type=Path, action="append",
                        help="a cardgen source tree to measure (repeatable; default: this one)")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.tree or [ROOT]]
    for tree in trees:  # as an install would have it (see common.compile_cardgen)
        subprocess.run([PYTHON, "-m", "compileall", "-q", str(tree / "cardgen")], check=True,
                       stdout=subprocess.DEVNULL)
    info = machine()
    with tempfile.TemporaryDirectory(prefix="cardgen-startup-") as tmp_name:
        tmp = Path(tmp_name)
        work = {}
        for n, tree in enumerate(trees):  # the deck and the full build the rebuilds start from
            work[tree] = tmp / f"tree{n}"
            work[tree].mkdir()
            subprocess.run([PYTHON, str(BENCH / "deck.py"), str(work[tree] / "deck")],
                           check=True, stdout=subprocess.DEVNULL)
            cardgen(tree, work[tree] / "cache-full", "-q", "build", "--data",
                    str(work[tree] / "deck"), "--out", str(work[tree] / "full"))
        runs: dict[Path, list[dict]] = {tree: [] for tree in trees}
        for index in range(args.repeat):
            for tree in trees:
                runs[tree].append(once(tree, work[tree], index))
                print(f"run {index + 1}/{args.repeat}: {tree}", file=sys.stderr)
    info["loadavg_end"] = os.getloadavg()[0]
    results = {str(tree): {name: min(r[name] for r in rs) for name in rs[0]}
               for tree, rs in runs.items()}
    print(machine_line(info) + f"; best of {args.repeat}, s\n")
    print("| | " + " | ".join(f"`{t}`" for t in results) + " |")
    print("|---|" + "---:|" * len(results))
    for name in next(iter(results.values())):
        print(f"| {name} | " + " | ".join(f"{r[name]:.3f}" for r in results.values()) + " |")
    if args.json:
        args.json.write_text(json.dumps({"machine": info, "results": results}, indent=1))


if __name__ == "__main__":
    main()
