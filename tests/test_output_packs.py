"""Pack folders as a whole: exactly what the latest manifest lists, swapped in at once, one build
at a time, paths of the wrong kind refused.

The interrupt tests kill a writer process (SIGKILL, the signal nothing can catch) at every
file-system step of the write and then find the pack folder either as it was or as it is after,
never in between; the next write recovers whatever the kill left.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, tree
from cardgen.output import OutputError, PackWrite, output_lock, recover, write_packs

DATA = FIXTURES / "valid" / "card_data"
ROOT = Path(__file__).parent.parent

OLD = {"cards.pdf": b"old cards", "png/A1.png": b"a1", "png/A2.png": b"a2",
       "manifest.json": b"old"}
NEW = {"cards.pdf": b"new cards", "png/A1.png": b"a1 new", "manifest.json": b"new"}


def run(cli, out, *args):
    return cli("build", "--data", DATA, "--out", out, "--jobs", "1", *args)


def test_files_of_an_earlier_build_are_removed_and_named(cli, tmp_path):
    out = tmp_path / "out"
    assert run(cli, out, "--png").exit_code == 0
    (out / "mini" / "notes.txt").write_text("the designer's own")
    before = {p.name for p in (out / "mini" / "png").iterdir()}
    chosen = run(cli, out, "mini", "--cards", "A1,A2", "--png")
    assert chosen.exit_code == 0, chosen.output
    after = {p.name for p in (out / "mini" / "png").iterdir()}
    assert {"A1.png", "A2.png"} <= after and not {"B1.png", "L1.png"} & after
    assert f"mini: removed {len(before - after)} PNGs of an earlier build" in chosen.stdout
    assert (out / "mini" / "deck.pdf").is_file()
    full = run(cli, out, "--png")
    assert full.exit_code == 0, full.output
    assert "mini: removed deck.pdf of an earlier build" in full.stdout
    listed = json.loads((out / "mini" / "manifest.json").read_text())
    on_disk = {p.relative_to(out / "mini").as_posix() for p in (out / "mini").rglob("*")
               if p.is_file()}
    assert on_disk == set(listed["outputs"]) | {"manifest.json", "notes.txt"}
    assert (out / "mini" / "notes.txt").read_text() == "the designer's own"


def test_only_what_cardgen_wrote_is_removed(tmp_path):
    root = tmp_path / "out"
    write_packs(root, [PackWrite("p", OLD)])
    (root / "p" / "png" / "mine.png").write_bytes(b"the user's")
    pack = PackWrite("p", NEW, stale={"png/A2.png", "png/mine-not-there.png"})
    write_packs(root, [pack])
    assert pack.removed == ["png/A2.png"]
    assert tree(root / "p") == {"cards.pdf": b"new cards", "manifest.json": b"new",
                                "png": "folder", "png/A1.png": b"a1 new",
                                "png/mine.png": b"the user's"}
    assert sorted(os.listdir(root)) == ["p"]


@pytest.mark.parametrize("make, message", [
    (lambda p: (p / "cards.pdf").unlink() or (p / "cards.pdf").mkdir(),
     "cards.pdf is a folder, but cardgen writes a file there"),
    (lambda p: __import__("shutil").rmtree(p / "png") or (p / "png").write_bytes(b"x"),
     "png is a file, but cardgen writes a folder there"),
])
def test_a_path_of_the_wrong_kind_is_an_error_and_kept(tmp_path, make, message):
    root = tmp_path / "out"
    write_packs(root, [PackWrite("p", OLD)])
    make(root / "p")
    before = tree(root)
    with pytest.raises(OutputError, match=message):
        write_packs(root, [PackWrite("p", NEW)])
    assert tree(root) == before


def test_a_file_where_the_pack_folder_goes_is_an_error(cli, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mini").write_text("my notes")
    result = run(cli, out)
    assert result.exit_code == 1
    assert f"error: {out / 'mini'} is a file, but cardgen writes a folder there" in result.stderr
    assert (out / "mini").read_text() == "my notes"


def test_an_output_folder_that_is_a_file_is_an_error(cli, tmp_path):
    (tmp_path / "out").write_text("a file")
    result = run(cli, tmp_path / "out")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "is a file, but cardgen writes a folder there" in result.stderr


def test_a_second_build_into_the_same_output_refuses(cli, tmp_path):
    out = tmp_path / "out"
    with output_lock(out):
        result = run(cli, out)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"error: another cardgen build is writing to {out}; "
                                          "wait for it to finish or choose another --out"]
    assert not out.exists()  # the lock made the folder and removed it: nothing was written
    assert run(cli, out).exit_code == 0  # released: the next build goes ahead


WRITER = """
import os, signal, sys
from pathlib import Path
from cardgen import output
calls = {"n": 0}
stop_at, how = int(sys.argv[2]), sys.argv[3]

def step(real):
    def wrapped(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == stop_at:
            if how.startswith("kill"):
                os.kill(os.getpid(), signal.SIGKILL)
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    return wrapped

for name in ("fsync", "rename", "link"):
    setattr(output.os, name, step(getattr(os, name)))
# "-plain": a system without an atomic exchange (two renames; the next write recovers)
output._exchange = step((lambda a, b: False) if how.endswith("-plain") else output._exchange)
new = {"cards.pdf": b"new cards", "png/A1.png": b"a1 new", "manifest.json": b"new"}
output.write_packs(Path(sys.argv[1]), [output.PackWrite("p", new, stale={"png/A2.png"})])
print("done", calls["n"])
"""


def _write_in_process(root: Path, stop_at: int, how: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", WRITER, str(root), str(stop_at), how],
                          capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("how", ["kill", "interrupt", "kill-plain", "interrupt-plain"])
def test_an_interrupted_write_leaves_the_old_or_the_new_folder(tmp_path, how):
    root = tmp_path / "out"
    write_packs(root, [PackWrite("p", OLD)])
    old = tree(root / "p")
    seen = set()
    for stop_at in range(1, 30):
        for path in list(root.iterdir()):
            if path.name != "p":
                __import__("shutil").rmtree(path)
        write_packs(root, [PackWrite("p", OLD)])  # back to the old state (recovering first)
        result = _write_in_process(root, stop_at, how)
        finished = result.stdout.startswith("done")
        if how.startswith("kill") and not finished:
            assert result.returncode == -signal.SIGKILL, result.stderr
        state = tree(root / "p")
        if how == "kill-plain" and not (root / "p").exists():
            # without an atomic exchange a kill can fall between the two renames; the next
            # build (recover) puts a whole folder back before it reads anything
            recover(root, "p")
            state = tree(root / "p")
        assert state in (old, {k: v for k, v in tree_of(NEW).items()}), (stop_at, state)
        seen.add("new" if state != old else "old")
        if how.startswith("interrupt") and not finished:
            assert sorted(os.listdir(root)) == ["p"]  # nothing left behind
        write_packs(root, [PackWrite("p", {"manifest.json": b"next"})])  # recovers, goes on
        assert (root / "p" / "manifest.json").read_bytes() == b"next"
        if finished:
            break
    assert finished and seen == {"old", "new"}


def tree_of(files: dict[str, bytes]) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = dict(files)
    for name in files:
        for parent in Path(name).parents:
            if str(parent) != ".":
                out[str(parent)] = "folder"
    return dict(sorted(out.items()))
