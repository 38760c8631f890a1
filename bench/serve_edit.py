"""The edit loop where designers run it (issue 27): a save, and the card changed in the browser
(`cardgen serve`) or cards.pdf rewritten (`cardgen watch`), against a cold build of the same
pack in the same run; and the cold `--only cards` build against its floor, `cardgen --help`.

Per target (the flagship, copied; the picture deck, bench/deck.py, at each --sizes), in one run:

- cold: `cardgen build PACK` in a fresh process, new output folder, empty cache (best of N);
- serve, one stat: `cardgen serve PACK --port 0` with headless Chromium (Debian's, through
  Selenium) on its page; the first stat of the first card is changed and saved; the time from
  the save until that card's new picture is loaded in the page (the page polled every few ms).
  --edits saves, each a new value; the median and the best;
- serve, one rule block: the same for a card's text block (the picture deck: a text card's
  paragraph; the flagship: an event card's rule text), a word changed;
- watch, one stat: `cardgen watch PACK`; the time from the save until it says cards.pdf is
  written (the issue's measure: "cards.pdf was rewritten 1.7 s after the save"; watch writes
  it first), until it says the contact sheet is (written second), and until it prints "done:"
  (printshop.pdf, the rulebook, ... written too);
- picture deck at each --sizes, JPEG and PNG photos: `cardgen build --only cards` cold against
  the floor (bench/floor.py: start-up with reportlab and PIL, plus its timed region), best of N;
  and each target's cold build against the floor's 104-card (JPEG) time;
- `cardgen --help`, best of 10.

    python bench/serve_edit.py [--sizes 1 10] [--repeat 3] [--edits 9] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CARDGEN, DATA, PYTHON, machine, machine_line, measure  # noqa: E402

BENCH = Path(__file__).resolve().parent
STARTUP = [PYTHON, "-c", "import reportlab.pdfgen.canvas, PIL.Image, PIL.ImageOps"]
DEADLINE = 120

SHOWN = """const card = document.querySelector('[data-card="' + arguments[0] + '"]');
if (!card) return null;
const img = card.querySelector('img.front');
return [img.dataset.key || '', img.complete && img.naturalWidth > 0];"""


class Process:
    """A cardgen command left running, its stdout read line by line with the time each came."""

    def __init__(self, args: list[str], cache: Path, cwd: Path):
        env = {**os.environ, "CARDGEN_CACHE": str(cache), "NO_COLOR": "1"}
        self.process = subprocess.Popen(CARDGEN + args, cwd=cwd, env=env, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        stdin=subprocess.DEVNULL)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))

    def until(self, prefix: str) -> tuple[float, str]:
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            try:
                at, line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            if line.startswith(prefix):
                return at, line
        raise RuntimeError(f"no '{prefix}' within {DEADLINE} s")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


SETTLING = "return document.getElementById('status').textContent.startsWith('laying out');"
LOADED = """return [...document.querySelectorAll('img')].every((img) => {
  const box = img.getBoundingClientRect();
  return box.bottom < 0 || box.top > innerHeight || (img.complete && img.naturalWidth > 0);
});"""


def poll(check, deadline: float = DEADLINE):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.002)
    raise RuntimeError("the page did not change in time")


def edited(text: str, pattern: str, n: int) -> str:
    """The text with the first match of `pattern` (one group: a number or a word) changed for
    the n-th edit: a number becomes another number, a word gets n exclamation marks."""
    match = re.search(pattern, text)
    value = match.group(1)
    new = str(int(value) + n if int(value) < 50 else int(value) - n) if value.isdigit() \
        else value + "!" * n
    return text[:match.start(1)] + new + text[match.end(1):]


def serve_edits(data: Path, pack: str, cache: Path, edits: list[tuple], count: int) -> dict:
    """{name: [seconds from save to the card's new picture loaded]} for each (name, file,
    pattern, card id) of `edits`."""
    server = Process(["serve", pack, "--data", str(data), "--port", "0"], cache, data)
    driver = None
    try:
        _, line = server.until("serving ")
        driver = browser()
        driver.get(line.split(" at ")[1].split()[0])
        out = {}
        for name, path, pattern, card in edits:
            driver.execute_script("const c = document.querySelector('[data-card=\"' + "
                                  "arguments[0] + '\"]'); if (c) c.scrollIntoView();", card)
            key, _ = poll(lambda: (shown := driver.execute_script(SHOWN, card)) and shown[1]
                          and shown)
            # the page settled, as a designer finds it: its documents laid out, the pictures
            # on screen drawn
            poll(lambda: not driver.execute_script(SETTLING) and driver.execute_script(LOADED))
            original = path.read_text(encoding="utf-8")
            times = []
            try:
                for n in range(1, count + 1):
                    text = edited(original, pattern, n)
                    started = time.perf_counter()
                    path.write_text(text, encoding="utf-8")
                    shown = poll(lambda: (now := driver.execute_script(SHOWN, card)) and
                                 now[0] != key and now[1] and now)
                    times.append(time.perf_counter() - started)
                    key = shown[0]
                    poll(lambda: not driver.execute_script(SETTLING))  # as a designer's next
                    # save comes: after the rulebook pages of this one are shown
            finally:
                path.write_text(original, encoding="utf-8")
            out[name] = times
            poll(lambda: not driver.execute_script(SETTLING))
        return out
    finally:
        if driver is not None:
            driver.quit()
        server.stop()


def watch_edits(data: Path, pack: str, cache: Path, out: Path, path: Path, pattern: str,
                count: int) -> dict[str, list[float]]:
    """Seconds from a save until `cardgen watch` has written cards.pdf ("PACK: cards.pdf"),
    the contact sheet ("PACK: contact") and the whole rebuild ("done:")."""
    watcher = Process(["watch", pack, "--data", str(data), "--out", str(out)], cache, data)
    original = path.read_text(encoding="utf-8")
    try:
        watcher.until("done:")
        times: dict[str, list[float]] = {"cards": [], "contact": [], "done": []}
        for n in range(1, count + 1):
            started = time.perf_counter()
            path.write_text(edited(original, pattern, n), encoding="utf-8")
            at, _ = watcher.until(f"{pack}: cards.pdf")
            times["cards"].append(at - started)
            at, _ = watcher.until(f"{pack}: contact")
            times["contact"].append(at - started)
            at, _ = watcher.until("done:")
            times["done"].append(at - started)
        return times
    finally:
        path.write_text(original, encoding="utf-8")
        watcher.stop()


def cold(data: Path, pack: str, tmp: Path, repeat: int, *extra: str):
    runs = []
    for n in range(repeat):
        cache, out = tmp / f"cold-cache-{pack}-{n}", tmp / f"cold-out-{pack}-{n}"
        runs.append(measure(CARDGEN + ["build", pack, "--data", str(data), "--out", str(out),
                                       *extra], env={"CARDGEN_CACHE": str(cache)}))
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    return min(r.wall for r in runs), min(r.cpu for r in runs)


def floor(data: Path, repeat: int) -> float:
    best = None
    for _ in range(repeat):
        timed = json.loads(measure([PYTHON, str(BENCH / "floor.py"), "--data", str(data),
                                    "--pack", "photo-deck"]).out)
        total = measure(STARTUP).wall + timed["total_s"]
        best = total if best is None else min(best, total)
    return best


def target(name: str, data: Path, pack: str, tmp: Path, args, stat, text) -> dict:
    """Every number of one target: stat = (file, pattern, card), text likewise."""
    print(f"{name}: cold builds", file=sys.stderr, flush=True)
    cold_s, cold_cpu = cold(data, pack, tmp, args.repeat)
    cache = tmp / f"cache-{name}"  # serve and watch start from the cache a build leaves
    measure(CARDGEN + ["build", pack, "--data", str(data), "--out", str(tmp / f"warm-{name}")],
            env={"CARDGEN_CACHE": str(cache)})
    print(f"{name}: serve", file=sys.stderr, flush=True)
    served = serve_edits(data, pack, cache, [("stat", *stat), ("text", *text)], args.edits)
    print(f"{name}: watch", file=sys.stderr, flush=True)
    watched = watch_edits(data, pack, cache, tmp / f"watch-{name}", stat[0], stat[1],
                          args.edits)
    return {"cold_s": cold_s, "cold_cpu_s": cold_cpu, "serve_stat": served["stat"],
            "serve_text": served["text"], "watch_stat": watched["cards"],
            "watch_contact": watched["contact"], "watch_done": watched["done"]}


def run(args) -> dict:
    import deck
    results: dict = {"machine": machine(), "targets": {}, "floor": {}}
    with tempfile.TemporaryDirectory(prefix="cardgen-serve-") as tmp_name:
        tmp = Path(tmp_name)
        flagship = tmp / "flagship"
        shutil.copytree(DATA / "crazy-hospital", flagship / "crazy-hospital")
        cards = flagship / "crazy-hospital" / "cards"
        results["targets"]["crazy-hospital (104 cards)"] = target(
            "flagship", flagship, "crazy-hospital", tmp, args,
            (cards / "character.yaml", r"\biq: ([0-9]+)", "A1"),
            (cards / "ereignisse.yaml", r"Alle (Mitspieler)", "ER1"))
        for size in args.sizes:
            data = tmp / f"deck{size}"
            deck.write(data, size)
            cards = data / "photo-deck" / "cards"
            n = (deck.PICTURE_CARDS + deck.TEXT_CARDS) * size
            results["targets"][f"picture deck ({n} cards)"] = target(
                f"deck{size}", data, "photo-deck", tmp, args,
                (cards / "bild.yaml", r"\bkraft: ([0-9]+)", "B1"),
                (cards / "text.yaml", r'paragraph: "([A-Za-zäöü]+)', "T1"))
        for size in args.sizes:  # the deck's JPEG photos and the same photos as PNG
            for photos in ("jpg", "png"):
                n = (deck.PICTURE_CARDS + deck.TEXT_CARDS) * size
                print(f"floor: {n} cards, {photos}", file=sys.stderr, flush=True)
                data = tmp / f"floor-{photos}-{size}"
                deck.write(data, size, photos=photos)
                cards_s, cards_cpu = cold(data, "photo-deck", tmp, args.repeat, "--only",
                                          "cards")
                results["floor"][f"{photos} {n}"] = {
                    "photos": photos, "cards": n, "floor_s": floor(data, args.repeat),
                    "cards_s": cards_s, "cards_cpu_s": cards_cpu}
                shutil.rmtree(data)
    results["help_s"] = min(measure(CARDGEN + ["--help"]).wall for _ in range(10))
    results["machine"]["loadavg_end"] = os.getloadavg()[0]
    return results


def report(r: dict) -> str:
    lines = [machine_line(r["machine"]), "",
             "| target | cold build s | serve: one stat, save → seen, s (median / best) | "
             "% of cold | serve: one rule block, s | % of cold | watch: one stat, save → "
             "cards.pdf written, s | % of cold | watch: the same, save → contact sheet "
             "written, s | % of cold | watch: the same, save → done (every file), s | % of "
             "cold |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, t in r["targets"].items():
        cells = [f"{t['cold_s']:.2f}"]
        for key in ("serve_stat", "serve_text", "watch_stat", "watch_contact", "watch_done"):
            median, low = statistics.median(t[key]), min(t[key])
            cells += [f"{median:.3f} / {low:.3f}", f"{100 * median / t['cold_s']:.0f} %"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "| picture deck | floor s | `build --only cards` cold s | × floor |",
              "|---|---:|---:|---:|"]
    for f in r["floor"].values():
        lines.append(f"| {f['cards']} cards, {f['photos'].upper()} photos | {f['floor_s']:.2f} "
                     f"| {f['cards_s']:.2f} | {f['cards_s'] / f['floor_s']:.2f}× |")
    floor_104 = r["floor"].get("jpg 104")
    if floor_104:  # issue 27: the flagship's cold build against the floor's 104-card time
        for name, t in r["targets"].items():
            if "(104 cards)" not in name:  # against a deck of its size only
                continue
            lines.append(f"| {name}: cold build, every output | {floor_104['floor_s']:.2f} "
                         f"(104 cards, JPEG) | {t['cold_s']:.2f} | "
                         f"{t['cold_s'] / floor_104['floor_s']:.2f}× |")
    lines += ["", f"`cardgen --help`: {r['help_s']:.3f} s (best of 10)"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edits", type=int, default=9)  # a median of five moved 10-20 %
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results = run(args)
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
