"""`cardgen balance crazy-hospital` timed: the whole command cold, and each stage in-process.

The target (issue 12): 10 000 duel games + 2 000 Mix It games in at most 10 s on a 2-core machine.
While the declared octet values are uneven (issue 30), the Mix It games are played a second time
with the suggested values (their stage below says so): about a third more CPU until the values
are applied.
The machine may be shared, so besides wall time this reports the command's own CPU time (which
other processes do not inflate) and a run with the games scaled down, to show the time grows
with the games and not with something else.

    python bench/balance.py [--repeat 3] [--scale 0.25] [--pack crazy-hospital]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import CARDGEN, DATA, best, machine, machine_line, measure  # noqa: E402


def cold(pack: str, repeat: int, games: int | None) -> tuple[float, float]:
    """Best wall and CPU time of `cardgen balance PACK` in fresh processes."""
    runs = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            extra = ["--games", str(games)] if games else []
            runs.append(measure(CARDGEN + ["balance", pack, "--data", str(DATA), "--out", out]
                                + extra))
    run = best(runs)
    return run.wall, run.cpu


def stages(pack: str) -> list[tuple[str, float]]:
    """CPU seconds of each stage in this process, at the pack's declared numbers of games."""
    from cardgen.analyse.declaration import load_balance
    from cardgen.analyse.measures import measure as measures
    from cardgen.analyse.run import analyse
    from cardgen.analyse.table import build_table
    from cardgen.pipeline.chain import validated as check
    from cardgen.compose import load_composition
    from cardgen.diagnostics import Report
    from cardgen.documents.balance import balance_pdf

    out = []
    clock = time.process_time
    t = clock()
    report = Report()
    data = check(DATA / pack, report)
    composition = load_composition(data, report).composition
    declared = load_balance(data, composition, report).balance
    out.append(("load + validate", clock() - t))
    t = clock()
    table = build_table(data, declared, declared.kinds, declared.specials)
    measures(table, data, declared.redundant_above)
    out.append(("table + static measures", clock() - t))
    result = None
    for name, variant in declared.variants.items():
        t = clock()
        result = analyse(data, declared, composition, [name], None, 1)
        again = " + played again with the suggested octet values" \
            if name in result.octet_checked else ""
        out.append((f"{name}: {variant.games} games{again} (with table + measures)",
                    clock() - t))
    if result is not None:
        t = clock()
        balance_pdf(result)
        out.append(("balance.pdf", clock() - t))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="crazy-hospital")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scale", type=float, default=0.25,
                        help="also run with this share of the games (via --games)")
    args = parser.parse_args()
    print(machine_line(machine()))
    wall, cpu = cold(args.pack, args.repeat, None)
    print(f"cardgen balance {args.pack} (declared games): wall {wall:.2f} s, CPU {cpu:.2f} s "
          f"(best of {args.repeat})")
    games = max(1, round(2000 * args.scale))
    wall, cpu = cold(args.pack, args.repeat, games)
    print(f"cardgen balance {args.pack} --games {games}: wall {wall:.2f} s, CPU {cpu:.2f} s")
    for name, seconds in stages(args.pack):
        print(f"  {name}: {seconds:.2f} s CPU")


if __name__ == "__main__":
    main()
