"""How cardgen scales with the card count: the flagship with its character cards ×1, ×5, ×10.

Each size is a copy of card_data/crazy-hospital in a temporary folder whose character cards are
repeated with new IDs (A1 → A101, A201, ...; the character kind's id_pattern becomes
^[A-Z][0-9]+$ and the `distinct` stat rules, which copies break by design, are dropped; every
other rule still holds because the stats are the same). Each is built cold in a subprocess:

    cardgen build --data TMP --out TMP/out --only cards

    python bench/scale.py [--sizes 1 5 10] [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CARDGEN, DATA, best, measure  # noqa: E402

PACK = "crazy-hospital"


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data):  # the copies share their stats; cardgen refuses &anchors
        return True


def _dump(doc) -> str:
    return yaml.dump(doc, Dumper=_Dumper, allow_unicode=True, sort_keys=False)


def make_pack(folder: Path, factor: int) -> int:
    """Copy the flagship into folder/PACK with its character cards ×factor; return all cards."""
    target = folder / PACK
    shutil.copytree(DATA / PACK, target)
    pack = yaml.safe_load((target / "pack.yaml").read_text(encoding="utf-8"))
    for kind in pack["kinds"]:
        if kind["id"] == "character":
            kind["id_pattern"] = "^[A-Z][0-9]+$"
    pack["stat_rules"] = [r for r in pack.get("stat_rules", []) if r.get("rule") != "distinct"]
    (target / "pack.yaml").write_text(_dump(pack), encoding="utf-8")
    composition = target / "composition.yaml"  # 32 or 64 character cards: not ×factor
    if composition.is_file():
        rules = yaml.safe_load(composition.read_text(encoding="utf-8"))
        rules["needs"] = [n for n in rules.get("needs") or [] if "deck_size" not in n]
        composition.write_text(_dump(rules), encoding="utf-8")
    path = target / "cards" / "character.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    originals, copies = doc["cards"], []
    for k in range(factor):
        for card in originals:
            letter, number = re.fullmatch(r"([A-Z])([0-9]+)", card["id"]).groups()
            copies.append({**card, "id": f"{letter}{int(number) + 100 * k}"})
    doc["cards"] = copies
    path.write_text(_dump(doc), encoding="utf-8")
    total = 0
    for cards_file in (target / "cards").glob("*.yaml"):
        total += sum(c.get("count", 1) for c in
                     yaml.safe_load(cards_file.read_text(encoding="utf-8"))["cards"])
    return total


def run(sizes=(1, 5, 10), repeat: int = 3) -> list[dict]:
    rows = []
    for factor in sizes:
        with tempfile.TemporaryDirectory(prefix=f"cardgen-scale{factor}-") as tmp:
            tmp = Path(tmp)
            cards = make_pack(tmp / "data", factor)
            runs = []
            for index in range(repeat):  # a new output folder and an empty cache each time:
                out = tmp / f"out{index}"  # nothing is up to date, nothing kept
                runs.append(measure(CARDGEN + ["build", "--data", str(tmp / "data"),
                                               "--out", str(out), "--only", "cards"],
                                    env={"CARDGEN_CACHE": str(tmp / f"cache{index}")}))
            result = best(runs)
            size = (out / PACK / "cards.pdf").stat().st_size
        rows.append({"factor": factor, "cards": cards, "wall_s": result.wall, "cpu_s": result.cpu,
                     "ms_per_card": 1000 * result.wall / cards,
                     "cpu_ms_per_card": 1000 * result.cpu / cards, "peak_mb": result.rss_mb,
                     "cards_pdf_mb": size / 1e6})
    return rows


def growth(rows: list[dict]) -> dict:
    """Per-card time of the largest size over the smallest, and the marginal cost of a card."""
    small, large = rows[0], rows[-1]
    return {"per_card_ratio": large["ms_per_card"] / small["ms_per_card"],
            "cpu_per_card_ratio": large["cpu_ms_per_card"] / small["cpu_ms_per_card"],
            "marginal_ms_per_card": 1000 * (large["wall_s"] - small["wall_s"]) /
            (large["cards"] - small["cards"]),
            "sizes": f"x{large['factor']}/x{small['factor']}"}


def table(rows: list[dict]) -> str:
    lines = ["| size | cards | cold build s | CPU s | ms per card | CPU ms per card | peak RSS MB "
             "| cards.pdf MB |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| ×{r['factor']} | {r['cards']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | "
                     f"{r['ms_per_card']:.1f} | {r['cpu_ms_per_card']:.1f} | {r['peak_mb']:.0f} | "
                     f"{r['cards_pdf_mb']:.2f} |")
    if len(rows) > 1:
        g = growth(rows)
        lines.append(f"\nGrowth {g['sizes']} of the time per card: {g['per_card_ratio']:.2f} "
                     f"(CPU: {g['cpu_per_card_ratio']:.2f}; below 1: fixed start-up cost spread "
                     f"over more cards); marginal cost of one more card: "
                     f"{g['marginal_ms_per_card']:.1f} ms.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = run(args.sizes, args.repeat)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "growth": growth(rows)}, indent=2))


if __name__ == "__main__":
    main()
