"""Builds that die leave nothing behind that blocks the next one, and the exit code says what
happened to the output (issue 31):

- a worker ends with its parent (a build killed with SIGKILL leaves no process running, so none
  holds a lock or writes on);
- a lock whose process is gone is taken over with a note; a lock a live build holds refuses;
- the lock is per pack: two packs are built into one output folder side by side;
- a staging folder of a dead build is removed by the next build into that folder;
- SIGTERM before the swaps: exit 130, output/ as it was; SIGTERM once the output has landed:
  exit 0, a note, the new output whole.

Every wait here is for an event (a line in a pipe, a process's pidfd), never for a time."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from PIL import Image

from conftest import MINI
from picture_pack import first_line, held_build

TIMEOUT = 120  # only a limit for a build that hangs: every wait ends with its event
CARDGEN = "import sys; from cardgen.cli.app import main; sys.argv[0] = 'cardgen'; main()"


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "CARDGEN_CACHE": str(tmp_path / "cache")}


def _run(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CARDGEN, *map(str, args)],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=TIMEOUT,
                          cwd=tmp_path)


def _mini(root: Path, name: str = "mini") -> Path:
    pack = root / "card_data" / name
    shutil.copytree(MINI, pack)
    if name != "mini":
        text = (pack / "pack.yaml").read_text(encoding="utf-8")
        (pack / "pack.yaml").write_text(text.replace("id: mini", f"id: {name}"), "utf-8")
    return pack


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every entry below root (hidden ones too): its bytes, None for a folder."""
    if not root.exists():
        return {}
    return {str(p.relative_to(root)): (None if p.is_dir() else p.read_bytes())
            for p in sorted(root.rglob("*"))}


def _gone(pid: int) -> bool:
    """Wait until the process `pid` ends (its pidfd becomes readable); False at TIMEOUT."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], TIMEOUT)[0])
    finally:
        os.close(fd)


def _ended() -> int:
    """The id of a process that has ended (and been waited for)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


# A process that holds a pack's lock as a build does (flock) and writes into it the process
# id it is given (with "folder", it also holds the output folder shared, as a live build
# does; without, it is a stray process left holding only the lock), then says "held" and
# waits until its stdin closes.
HOLDER = """
import fcntl, os, sys
if sys.argv[3] == "folder":
    folder = os.open(os.path.dirname(sys.argv[1]), os.O_RDONLY)
    fcntl.flock(folder, fcntl.LOCK_SH)
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.write(fd, (sys.argv[2] + " -\\n").encode())
print("held", flush=True)
sys.stdin.read()
"""


class _Holder:
    def __init__(self, lock: Path, pid: int, folder: bool = False):
        lock.parent.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), str(pid),
                                         "folder" if folder else "lock"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        assert self.process.stdout.readline() == "held\n"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.stdin.close()
        self.process.wait(timeout=TIMEOUT)
        self.process.stdout.close()


# --- workers end with their parent ------------------------------------------------------------

# A build of two picture packs side by side (one worker process per pack); each worker, once
# at its first picture, writes its process id into the pipe and waits, so that the main
# process can be killed while its workers are busy.
BUILD_HELD = held_build("--only", "cards")


def _picture_pack(root: Path, name: str) -> None:
    pack = _mini(root, name)
    (pack / "images").mkdir()
    Image.new("RGB", (300, 400), "#336699").save(pack / "images" / "a.png")
    cards = pack / "cards" / "heroes.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "    name: Ann\n", "    name: Ann\n    image: images/a.png\n", 1), encoding="utf-8")


def test_a_killed_build_leaves_no_worker_and_no_lock_behind(tmp_path):
    for name in ("one", "two"):
        _picture_pack(tmp_path, name)
    out = tmp_path / "out"
    told, tell = os.pipe()
    build = subprocess.Popen([sys.executable, "-c", BUILD_HELD, str(tell),
                              str(tmp_path / "card_data"), str(out)], env=_env(tmp_path),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             pass_fds=[tell], start_new_session=True)
    os.close(tell)
    try:
        # both packs' workers are busy
        workers = {int(first_line(told, TIMEOUT)) for _ in range(2)}
        assert build.pid not in workers
        build.send_signal(signal.SIGKILL)  # the main process only, as `kill -9 PID` does
        build.wait(timeout=TIMEOUT)
        assert all(_gone(pid) for pid in workers), "a worker outlived its build"
    finally:
        os.close(told)
        with contextlib.suppress(ProcessLookupError):  # ended already
            os.killpg(build.pid, signal.SIGKILL)
    again = _run(tmp_path, "build", "--data", tmp_path / "card_data", "--out", out,
                 "--only", "cards", "--jobs", "1")
    assert again.returncode == 0, again.stderr
    assert "another cardgen build" not in again.stderr
    assert (out / "one" / "cards.pdf").is_file() and (out / "two" / "cards.pdf").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["one", "two"]  # no lock, no staging


# --- locks ------------------------------------------------------------------------------------

def test_a_lock_of_a_dead_process_is_taken_over_with_a_note(tmp_path):
    _mini(tmp_path)
    out = tmp_path / "out"
    dead = _ended()
    # a stray process (a worker of an older cardgen) holds the lock of a build that is gone
    with _Holder(out / ".mini.cardgen-lock", dead):
        result = _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert f"cardgen: note: {out / 'mini'}: took over the lock of process {dead}, which " \
           "ended without releasing it" in result.stderr
    assert (out / "mini" / "cards.pdf").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["mini"]


def test_a_lock_of_a_live_build_refuses_in_one_line_and_changes_nothing(tmp_path):
    _mini(tmp_path)
    out = tmp_path / "out"
    assert _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1",
                "--only", "cards").returncode == 0
    before = _tree(out)
    with _Holder(out / ".mini.cardgen-lock", os.getpid(), folder=True) as holder:
        inside = _tree(out)
        result = _run(tmp_path, "build", "--data", "card_data", "--out", out, "--force",
                      "--jobs", "1")
        assert _tree(out) == inside  # nothing written, the lock left as it was
    assert holder.process.returncode == 0
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: another cardgen build is writing mini into {out} (process {os.getpid()}); "
        "wait for it to finish or choose another --out"]
    assert {k: v for k, v in _tree(out).items() if "cardgen-lock" not in k} == before


def test_two_packs_build_into_one_output_folder_at_once(tmp_path):
    _mini(tmp_path)
    out = tmp_path / "out"
    with _Holder(out / ".other.cardgen-lock", os.getpid(), folder=True):  # another pack's build
        result = _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1",
                      "--only", "cards")
        assert result.returncode == 0, result.stderr
        assert (out / "mini" / "cards.pdf").is_file()
        assert (out / ".other.cardgen-lock").is_file()  # that build's lock is left alone


def test_a_dead_builds_staging_folders_are_removed_by_the_next_build(tmp_path):
    _mini(tmp_path)
    out = tmp_path / "out"
    assert _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1",
                "--only", "cards").returncode == 0
    before = _tree(out / "mini")
    # what two builds killed while staging left: their half-made folders and a lock file
    for name in ("mini", "other"):
        (out / f".{name}.cardgen-new").mkdir()
        (out / f".{name}.cardgen-new" / "cards.pdf").write_bytes(b"half a PDF")
    (out / ".mini.cardgen-lock").write_text(f"{_ended()} -\n")
    result = _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1",
                  "--only", "cards")  # up to date: it writes nothing, and still clears
    assert result.returncode == 0, result.stderr
    assert "up to date" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == ["mini"]
    assert _tree(out / "mini") == before


# --- what the exit code says about the output --------------------------------------------------

# A build that sends itself SIGTERM at one moment of the write: "staging" (while the first new
# file is written, before any swap) or "landed" (right after the pack folder was swapped in).
BUILD_TERM = """
import os, signal, sys
from cardgen import output
when = sys.argv[1]
real_put, real_swap = output._put, output._swap
def put(*args):
    if when == "staging":
        os.kill(os.getpid(), signal.SIGTERM)
    return real_put(*args)
def swap(*args):
    real_swap(*args)
    if when == "landed":
        os.kill(os.getpid(), signal.SIGTERM)
output._put, output._swap = put, swap
sys.argv = ["cardgen", "build", "--data", sys.argv[2], "--out", sys.argv[3], "--jobs", "1",
            "--force"]
import cardgen.cli.app as app
app.main()
"""


def _build_with_sigterm(tmp_path: Path, when: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BUILD_TERM, when,
                           str(tmp_path / "card_data"), str(tmp_path / "out")],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=TIMEOUT)


def test_sigterm_before_the_output_landed_exits_130_and_changes_nothing(tmp_path):
    _mini(tmp_path)
    out = tmp_path / "out"
    assert _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1",
                "--only", "cards").returncode == 0
    before = _tree(out)
    result = _build_with_sigterm(tmp_path, "staging")
    assert result.returncode == 130
    assert result.stderr == "interrupted\n"
    assert _tree(out) == before


def test_sigterm_just_after_the_output_landed_exits_0_with_the_new_output(tmp_path):
    _mini(tmp_path)
    out = tmp_path / "out"
    assert _run(tmp_path, "build", "--data", "card_data", "--out", out, "--jobs", "1",
                "--only", "cards").returncode == 0
    result = _build_with_sigterm(tmp_path, "landed")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ("cardgen: note: interrupted after the output was written: it is "
                             "complete, as its manifests say (exit 0)\n")
    assert "done:" in result.stdout  # the build said what it wrote before it ended
    import json
    manifest = json.loads((out / "mini" / "manifest.json").read_text(encoding="utf-8"))
    assert {"cards.pdf", "printshop.pdf", "guide.pdf"} <= set(manifest["outputs"])
    assert all((out / "mini" / name).is_file() for name in manifest["outputs"])
    assert sorted(p.name for p in out.iterdir()) == ["mini"]
