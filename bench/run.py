"""cardgen benchmarks: cold builds per pack and for all packs, stages, the floor, scaling, and a
designer's picture deck against its floor (bench/photo.py).

    python bench/run.py [--json FILE] [--repeat 3] [--accel DIR] [--profile] [--no-scale]
                        [--no-photo] [--photo-sizes 1 10] [--suite-s SECONDS]

Prints a Markdown report on stdout (progress on stderr). Every measurement is a fresh process.
The floor and the flagship are measured with and without reportlab's C accelerators: when
rl_accel is installed, a second time with it hidden; when not, with --accel DIR (a folder made
with `pip install --target DIR rl_accel`), if given.
See bench/README.md for what each number means.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (CARDGEN, DATA, PYTHON, ROOT, best, machine, machine_line,  # noqa: E402
                    measure)

FLAGSHIP = "crazy-hospital"
BENCH = Path(__file__).resolve().parent
# The functions that make one output file each: (module, function, file).
DOCUMENTS = (("cardgen.render.pdf", "card_sheets", "cards.pdf"),
             ("cardgen.render.pdf", "printshop", "printshop.pdf"),
             ("cardgen.documents.calibration", "calibration", "calibration.pdf"),
             ("cardgen.documents.rulebook.book", "rulebook_pdf", "rulebook.pdf"),
             ("cardgen.render.boards", "boards_pdf", "boards.pdf"),
             ("cardgen.render.raster", "card_pngs", "png/"),
             ("cardgen.documents.deck_sheet", "deck_sheet_pdf", "deck.pdf"))
STAGES = ("import", "up-to-date check", "load", "validate", "compose", "layout", "render",
          "write")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- worker: one in-process `cardgen build`, the functions of cardgen.build timed ------------

def stages_worker(packs: list[str], out: Path) -> None:
    import importlib
    start = time.perf_counter()
    from cardgen.cli.app import app
    try:  # the pipeline's chain (cardgen.build before the one-pipeline refactoring)
        import cardgen.pipeline.chain as build
    except ImportError:
        import cardgen.build as build
    modules = {}
    for module, _, _ in DOCUMENTS:
        try:
            modules[module] = importlib.import_module(module)
        except ImportError:  # not (yet) in this version of cardgen
            pass
    times = {"import": time.perf_counter() - start}

    def timed(module, name: str, stage: str) -> None:
        if not hasattr(module, name):
            return
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            t = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                times[stage] = times.get(stage, 0.0) + time.perf_counter() - t
        setattr(module, name, wrapper)

    try:  # the up-to-date check lives in cardgen.incremental.plan since the build imports it first
        import cardgen.incremental.plan as plan
        timed(plan, "stale_outputs", "up-to-date check")
    except ImportError:
        timed(build, "stale_outputs", "up-to-date check")
    timed(build, "load_pack", "load")  # check() = load_pack, then the check_* functions
    timed(build, "check_pack_refs", "validate")
    timed(build, "check_cards", "validate")
    if "cardgen.render.boards" in modules:
        timed(modules["cardgen.render.boards"], "check_boards", "validate")
    for name in dir(build):  # none yet: cardgen.compose is used by `check`, not by `build`
        if name.startswith("compose") and callable(getattr(build, name)):
            timed(build, name, "compose")
    if "cardgen.compose" in sys.modules:
        timed(sys.modules["cardgen.compose"], "compose", "compose")
    timed(build, "layout_faces", "layout")
    timed(build, "render_pack", "render")  # includes layout_faces: subtracted below
    for module, name, file in DOCUMENTS:
        if module in modules:  # render_pack imports them at call time: it gets the wrapper
            timed(modules[module], name, f"render {file}")
    timed(build, "write", "write")
    t = time.perf_counter()
    try:  # --jobs 1: every pack in this process, so every stage is seen here
        app(["build", *packs, "--data", str(DATA), "--out", str(out), "--jobs", "1", "--force"])
    except SystemExit as exc:
        if exc.code:
            raise
    times["total"] = time.perf_counter() - t
    times["render"] -= times.get("layout", 0.0)  # a stage never called stays n/a
    times["other"] = times["total"] - sum(v for k, v in times.items() if k in STAGES[1:])
    print(json.dumps(times))


def profile_worker(out: Path, top: int) -> None:
    """The flagship's `cardgen build` under cProfile: the top entries by cumulative time."""
    import cProfile
    import io
    import pstats
    from cardgen.cli.app import app
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        app(["build", FLAGSHIP, "--data", str(DATA), "--out", str(out)])
    except SystemExit:
        pass
    profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    # the typer/click frames above cardgen's build() are left out: they only pass the call on
    stats.sort_stats("cumulative").print_stats(r"^(?!.*(typer|click|\{built-in))", top)
    stats.sort_stats("tottime").print_stats(10)
    body = text.getvalue()
    for prefix in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["stdlib"], ROOT):
        body = body.replace(f"{prefix}/", "")
    print(body)


# --- measurements ------------------------------------------------------------------------------

def best_of(results: list[dict]) -> dict:
    """Best of N, key by key: the smallest time, the largest peak memory, the rest from run 1."""
    out = dict(results[0])
    for key, value in out.items():
        if isinstance(value, float):
            pick = max if key.startswith("peak") else min
            out[key] = pick(r.get(key, 0.0) for r in results)
    return out


def build_once(packs: list[str], env=None) -> dict:
    """A cold `cardgen build` (new output folder, empty cardgen cache), the same into another
    new folder with the cache the first one left (warm: pictures, fonts, laid-out and drawn
    faces, parsed files, hyphenation kept), then the first again: the rebuild."""
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        out = Path(tmp, "out")
        env = {**(env or {}), "CARDGEN_CACHE": str(Path(tmp, "cache"))}
        cmd = CARDGEN + ["build", *packs, "--data", str(DATA), "--out", str(out)]
        cold = measure(cmd, env=env)
        warm = measure(CARDGEN + ["build", *packs, "--data", str(DATA), "--out",
                                  str(Path(tmp, "warm"))], env=env)
        rebuild = measure(cmd, env=env)
        files = {str(p.relative_to(out)): p.stat().st_size
                 for p in sorted(out.rglob("*")) if p.is_file()}
        cards = sum(sum(json.loads(m.read_text())["cards"].values())
                    for m in out.glob("*/manifest.json"))
    return {"wall_s": cold.wall, "cpu_s": cold.cpu, "peak_mb": cold.rss_mb,
            "warm_s": warm.wall, "rebuild_s": rebuild.wall, "files": files, "cards": cards}


def stages_once(packs: list[str], env=None) -> dict:
    """The stages of a cold build: new output folder, empty cardgen cache."""
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
        cmd = [PYTHON, str(BENCH / "run.py"), "--stages-worker", ",".join(packs), f"{tmp}/out"]
        env = {**(env or {}), "CARDGEN_CACHE": f"{tmp}/cache"}
        return json.loads(measure(cmd, env=env).out.splitlines()[-1])


def floor_once(env=None) -> dict:
    return json.loads(measure([PYTHON, str(BENCH / "floor.py")], env=env).out)


def help_time(repeat: int = 5) -> float:
    return best([measure(CARDGEN + ["--help"]) for _ in range(repeat)]).wall


# --- report ------------------------------------------------------------------------------------

def size(n: int) -> str:
    return f"{n / 1e6:.2f} MB" if n >= 100_000 else f"{n / 1e3:.1f} kB"


def report(r: dict) -> str:
    out = [f"# cardgen benchmark, {r['date']}", "", f"Machine: {machine_line(r['machine'])}.", "",
           f"## Cold build (`cardgen build [PACK]`, fresh process, new output folder, empty "
           f"cardgen cache; best of {r['repeat']})", "",
           "Warm: into another new output folder with the cache the cold build left. Rebuild: "
           "the cold build's output again, nothing changed.", "",
           "| target | cards | wall s | CPU s | peak RSS MB | warm s | rebuild s | outputs |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for target, b in r["builds"].items():
        if target == "all":
            outputs = f"{len(b['files'])} files, {size(sum(b['files'].values()))}"
        else:
            outputs = ", ".join(f"{name.split('/', 1)[1]} {size(n)}"
                                for name, n in b["files"].items())
        out.append(f"| {target} | {b['cards']} | {b['wall_s']:.2f} | {b['cpu_s']:.2f} | "
                   f"{b['peak_mb']:.0f} | {b.get('warm_s', 0):.2f} | {b['rebuild_s']:.2f} | "
                   f"{outputs} |")
    for pack, lines in r["failed"].items():
        out.append(f"| {pack} | does not build, left out of \"all\": "
                   f"{' '.join(lines)[:160]} |||||")
    subs = sorted({k for s in r["stages"].values() for k, v in s.items()
                   if k.startswith("render ") and v > 0})
    out += ["", f"## Time per stage, s (the functions of cardgen.build, in one fresh process; best "
            f"of {r['repeat']} per stage)", "",
            "| target | " + " | ".join(STAGES) + " | " +
            " | ".join(f"↳ {s[7:]}" for s in subs) + " | other | import + total |",
            "|---" + "|---:" * (len(STAGES) + len(subs) + 2) + "|"]
    for target, s in r["stages"].items():
        cells = [f"{s[k]:.3f}" if k in s else "n/a" for k in (*STAGES, *subs)]
        out.append(f"| {target} | " + " | ".join(cells) +
                   f" | {s['other']:.3f} | {s['import'] + s['total']:.3f} |")
    flag = r["builds"][FLAGSHIP]
    out += ["", "## Flagship", "",
            f"- cards.pdf: {flag['files'][f'{FLAGSHIP}/cards.pdf'] / 1e6:.2f} MB",
            f"- rebuild with nothing touched (second build into the same output): "
            f"{flag['rebuild_s']:.2f} s, cold: {flag['wall_s']:.2f} s",
            f"- `cardgen --help`: {r['help_s']:.3f} s (best of 5)", "",
            "## Floor: the flagship's cards.pdf with bare reportlab (bench/floor.py)", "",
            "| reportlab C accelerators | cardgen card_sheets() s | floor draw+save s | "
            "cardgen/floor | floor fonts s | cardgen import→cards.pdf written / floor total | "
            "pages | floor PDF |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for mode, f in r["floor"].items():
        ours = r["modes"][mode]["stages"]
        floor_s = f["draw_s"] + f["save_s"]
        cards_only = sum(ours.get(k, 0) for k in ("import", "up-to-date check", "load",
                                                  "validate", "compose", "layout", "write")) + \
            ours["render cards.pdf"]
        out.append(f"| {mode} | {ours['render cards.pdf']:.3f} | {floor_s:.3f} | "
                   f"{ours['render cards.pdf'] / floor_s:.1f}× | {f['fonts_s']:.3f} | "
                   f"{cards_only / f['total_s']:.1f}× | {f['pages']} | {size(f['bytes'])} |")
    if len(r["modes"]) > 1:
        out += ["", "## The flagship with and without reportlab's C accelerators", "",
                "| reportlab C accelerators | cold build s | CPU s | layout s | render s | "
                "write s |", "|---|---:|---:|---:|---:|---:|"]
        for mode, m in r["modes"].items():
            b, s = m["build"], m["stages"]
            out.append(f"| {mode} | {b['wall_s']:.2f} | {b['cpu_s']:.2f} | {s['layout']:.3f} | "
                       f"{s['render']:.3f} | {s['write']:.3f} |")
    if r.get("scale"):
        from scale import table
        out += ["", f"## Scaling: the flagship's character cards ×1, ×5, ×10 (`cardgen build "
                f"--only cards`, best of {r['repeat']})", "", table(r["scale"])]
    if r.get("photo"):
        from photo import table as photo_table, targets
        out += ["", f"## A designer's picture deck (bench/deck.py, bench/photo.py; best of "
                f"{r['repeat']})", "", photo_table(r["photo"]), "",
                "## Against the targets of the speed issue, round two (this run)", "",
                targets(r["photo"], r.get("suite_s"))]
    if r.get("profile"):
        out += ["", "## Profile of the flagship build (cProfile: top 15 by cumulative time, typer "
                "and click frames left out; then top 10 by own time)", "",
                "```", r["profile"], "```"]
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="save the results here")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--accel", type=Path, help="folder with rl_accel, for a second run")
    parser.add_argument("--profile", action="store_true", help="add a cProfile of the flagship")
    parser.add_argument("--no-scale", action="store_true")
    parser.add_argument("--no-photo", action="store_true", help="leave out the picture deck")
    parser.add_argument("--photo-sizes", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--suite-s", type=float, help="the test suite's time, for the targets")
    parser.add_argument("--stages-worker", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--profile-worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stages_worker:
        return stages_worker(args.stages_worker[0].split(","), Path(args.stages_worker[1]))
    if args.profile_worker:
        return profile_worker(args.profile_worker, 15)

    from cardgen.paths import find_packs
    r = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine(), "repeat": args.repeat,
         "builds": {}, "stages": {}, "modes": {}, "floor": {}, "failed": {}}
    for pack in [p.name for p in find_packs(DATA)]:
        log(f"cold builds and stages: {pack}")
        try:
            r["builds"][pack] = best_of([build_once([pack]) for _ in range(args.repeat)])
        except RuntimeError as exc:  # a pack being worked on: reported, left out of "all"
            r["failed"][pack] = str(exc).splitlines()[1:3]
            continue
        r["stages"][pack] = best_of([stages_once([pack]) for _ in range(args.repeat)])
    log("cold builds and stages: all packs")
    packs = list(r["stages"])
    r["builds"]["all"] = best_of([build_once(packs) for _ in range(args.repeat)])
    r["stages"]["all"] = best_of([stages_once(packs) for _ in range(args.repeat)])
    log("cardgen --help")
    r["help_s"] = help_time()
    hidden = Path(tempfile.mkdtemp(prefix="cardgen-bench-"))
    (hidden / "_rl_accel.py").write_text("raise ImportError('hidden by bench/run.py')\n")
    if r["machine"]["rl_accel_c"]:  # the other mode: the C extension shadowed by a stub
        modes = {"on (as installed)": None, "off (rl_accel hidden)": {"PYTHONPATH": str(hidden)}}
    else:
        modes = {"off (as installed)": None}
        if args.accel:
            env = {"PYTHONPATH": str(args.accel.resolve())}
            if not machine(env)["rl_accel_c"]:
                raise SystemExit(f"no rl_accel in {args.accel}: pip install --target DIR "
                                 "rl_accel")
            modes["on (rl_accel from --accel)"] = env
    log(f"floor and the flagship, accelerators {' / '.join(modes)}")
    runs = {mode: [] for mode in modes}
    for _ in range(args.repeat):  # interleaved: a busy minute slows every mode alike
        for mode, env in modes.items():
            runs[mode].append((floor_once(env), build_once([FLAGSHIP], env),
                               stages_once([FLAGSHIP], env)))
    shutil.rmtree(hidden)
    for mode, triples in runs.items():
        floors, builds, stages = zip(*triples)
        r["floor"][mode] = best_of(list(floors))
        r["modes"][mode] = {"build": best_of(list(builds)), "stages": best_of(list(stages))}
    if not args.no_scale:
        log("scaling ×1 ×5 ×10")
        from scale import run as run_scale
        r["scale"] = run_scale((1, 5, 10), args.repeat)
    if not args.no_photo:
        from photo import run as run_photo
        r["photo"] = run_photo(tuple(args.photo_sizes), args.repeat, log=log)
    r["suite_s"] = args.suite_s
    if args.profile:
        log("profile")
        with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as tmp:
            text = measure([PYTHON, str(BENCH / "run.py"), "--profile-worker", f"{tmp}/out"]).out
            r["profile"] = text[text.index("\n") + 1:].strip()
    r["machine"]["loadavg_end"] = os.getloadavg()[0]
    print(report(r))
    if args.json:
        args.json.write_text(json.dumps(r, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
