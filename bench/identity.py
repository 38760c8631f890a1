"""Fingerprint every output of every shipped pack under many build options.

A refactoring must not change a byte: run this before and after and compare.

    python bench/identity.py --out /tmp/before.json
    python bench/identity.py --out /tmp/after.json --compare /tmp/before.json

Each configuration builds every pack (`--force`, an empty cache of its own) into a fresh folder;
the JSON maps "configuration/pack/file" to the file's SHA-256. manifest.json is compared with its
"inputs" and "faces" fingerprints kept (they hash the data, not the code), so a difference there
is a real one. Two normalisations, both sides alike: see sha().
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONLY = ["cards", "printshop", "boards", "rulebook", "png", "calibration", "contact", "tts"]

# name -> (packs or None for every pack, extra arguments)
CONFIGS: dict[str, tuple[list[str] | None, list[str]]] = {
    "a4": (None, []),
    "letter": (None, ["--paper", "letter"]),
    **{f"a4-only-{o}": (None, ["--only", o]) for o in ONLY},
    **{f"letter-only-{o}": (None, ["--paper", "letter", "--only", o]) for o in ONLY},
    "png150-nobleed": (None, ["--png", "--dpi", "150", "--no-bleed"]),
    "dense-short": (None, ["--sheet", "dense", "--duplex", "short"]),
    "fold-letter": (None, ["--duplex", "fold", "--paper", "letter"]),
    "ink-booklet": (None, ["--ink-saver", "--booklet"]),
    "dtc": (None, ["--card-size", "drivethrucards"]),
    "poker-offset": (None, ["--card-size", "poker", "--back-offset", "0.5,-0.3"]),
    "cmyk": (["quartett", "crazy-hospital"], ["--colour", "cmyk", "--only", "printshop"]),
    "house": (["crazy-hospital"], ["--preset", "balanced-32", "--seed", "7", "--special",
                                   "S2-S4", "--players", "4"]),
    "random": (["quartett"], ["--random", "16", "--seed", "3"]),
}


def sha(path: Path, out: Path) -> str:
    """The file's SHA-256; two files are normalised first (say so when comparing):
    - tts/*.json name their pictures by absolute path, which holds the temporary folder;
    - manifest.json: the output keys ("built".*."key") hash the list of what each output is
      made of (model.outputs), which a change of that list changes without changing a file;
      its hashes of tts/*.json hold the temporary folder too."""
    body = path.read_bytes()
    if path.suffix == ".json" and path.parent.name == "tts":
        body = body.replace(str(out.resolve()).encode(), b"<out>")
    if path.name == "manifest.json":
        manifest = json.loads(body)
        for entry in (manifest.get("built") or {}).values():
            entry.pop("key", None)
        for name in [n for n in manifest.get("outputs") or {} if n.startswith("tts/")]:
            manifest["outputs"].pop(name)  # the JSON's hash holds the folder (compared above)
        body = json.dumps(manifest, sort_keys=True).encode()
    return hashlib.sha256(body).hexdigest()


def run(name: str, packs: list[str] | None, extra: list[str], base: Path,
        tree: Path) -> dict[str, str]:
    out = base / name
    # the tree's own cardgen, whatever the environment has installed
    env = dict(os.environ, CARDGEN_CACHE=str(base / f"cache-{name}"),
               XDG_CONFIG_HOME=str(base / "config"), PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", "import sys; from cardgen.cli.app import main; "
           "sys.argv[0] = 'cardgen'; main()", "build", *(packs or []), "--data",
           str(tree / "card_data"), "--out", str(out), "--force", *extra]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    result = {f"{name}/exit": str(done.returncode)}
    for f in sorted(p for p in out.rglob("*") if p.is_file()):
        result[f"{name}/{f.relative_to(out)}"] = sha(f, out)
    if done.returncode:
        result[f"{name}/stderr"] = done.stderr.strip().splitlines()[-1] if done.stderr else ""
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--compare", type=Path)
    ap.add_argument("--tree", type=Path, default=ROOT, help="source tree to build with")
    ap.add_argument("--only-config", action="append", help="run just these configurations")
    args = ap.parse_args()
    result: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="cardgen-identity-") as tmp:
        base = Path(tmp)
        for name, (packs, extra) in CONFIGS.items():
            if args.only_config and name not in args.only_config:
                continue
            print(name, file=sys.stderr, flush=True)
            result.update(run(name, packs, extra, base, args.tree.resolve()))
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True))
    print(f"{len(result)} entries", file=sys.stderr)
    if args.compare:
        old = json.loads(args.compare.read_text())
        ran = {k.split("/")[0] for k in result}
        keys = sorted(k for k in set(old) | set(result) if k.split("/")[0] in ran)
        diff = [k for k in keys if old.get(k) != result.get(k)]
        for k in diff:
            print(f"DIFF {k}: {old.get(k, '-')[:12]} -> {result.get(k, '-')[:12]}")
        print(f"{len(keys) - len(diff)} identical, {len(diff)} different")
        sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
