"""Two (or more) source trees side by side on the shipped packs: a cold build, a build with
nothing changed, and a build after one stat of the flagship changed (issue 26: a refactoring
must not slow any of them). Each tree's runs of one repetition are made back to back, so a busy
moment slows the trees alike; best of N, wall and CPU (user + system, children included).

    python bench/trees.py --tree /tmp/main-before --tree . [--repeat 3] [--pack crazy-hospital]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import PYTHON, best, machine, machine_line, measure  # noqa: E402
from photo import edit_one_stat  # noqa: E402

RUN = "import sys; from cardgen.cli.app import run; sys.argv[0] = 'cardgen'; run()"


def one_tree(tree: Path, tmp: Path, packs: list[str], index: int) -> dict:
    """The three builds of one repetition with one tree, in a copy of its card_data."""
    data = tmp / f"data{index}"
    shutil.copytree(tree / "card_data", data)
    env = {"PYTHONPATH": str(tree), "CARDGEN_CACHE": str(tmp / f"cache{index}"),
           "XDG_CONFIG_HOME": str(tmp / "config")}
    cmd = [PYTHON, "-c", RUN, "build", *packs, "--data", str(data), "--out", str(tmp / f"out{index}")]
    cold = measure(cmd, cwd=tree, env=env)
    nothing = measure(cmd, cwd=tree, env=env)
    edit_one_stat(data / "crazy-hospital" / "cards" / "character.yaml", "iq")
    stat = measure(cmd, cwd=tree, env=env)
    return {"cold": cold, "no change": nothing, "one stat": stat}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, action="append", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pack", action="append", help="packs to build (default: all)")
    args = parser.parse_args()
    runs: dict[Path, dict[str, list]] = {t: {} for t in args.tree}
    with tempfile.TemporaryDirectory(prefix="cardgen-trees-") as tmp:
        n = 0
        for _ in range(args.repeat):
            for tree in args.tree:
                n += 1
                for name, run in one_tree(tree.resolve(), Path(tmp), args.pack or [],
                                          n).items():
                    runs[tree].setdefault(name, []).append(run)
    print(machine_line(machine()))
    print(f"\nbest of {args.repeat}; load average at the end {os.getloadavg()[0]:.2f}\n")
    print("| build | " + " | ".join(f"{t} wall s | CPU s" for t in args.tree) + " |")
    print("|---|" + "---|---|" * len(args.tree))
    for name in ("cold", "no change", "one stat"):
        cells = []
        for tree in args.tree:
            b = best(runs[tree][name])
            cells += [f"{b.wall:.2f}", f"{b.cpu:.2f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
