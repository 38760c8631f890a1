"""Ctrl-C while a build prepares its pictures in forked processes: one line, exit 130, nothing
written and no process left behind (each worker used to print a traceback of its own).

Nothing here waits for a time to pass: the test waits for events. A worker says it has begun a
picture by writing its process id into a pipe (and then waits, busy, until it is stopped), and
the processes of the build are waited for through their pidfds. (The test failed 2 of 15 runs
when it slept: an interrupt that came while a pool was being made left its workers running
until they noticed their parent was gone, after the 0.2 s the test gave them; and one that
reached a worker before its pool's initializer ignored Ctrl-C printed a traceback. Every
process a build forks now ignores Ctrl-C from its first instruction, and dies with its parent:
pipeline.parallel.)"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys

from PIL import Image

from picture_pack import first_line, held_build, picture_pack

TIMEOUT = 120  # only a limit for a build that hangs: every wait below ends with its event

# The build, each picture's preparation held until the interrupt
BUILD = held_build()


def _pack(tmp_path):
    cards = ["kind: card", "cards:"]
    for n in range(1, 17):
        cards += [f"  - id: P{n}", f"    name: Person {n}", f"    image: images/{n}.jpg"]
    pack = picture_pack(tmp_path, "\n".join(cards) + "\n")
    for n in range(1, 17):
        Image.effect_noise((300 + n, 400), 40).convert("RGB").save(pack / "images" / f"{n}.jpg")
    return pack


def _session(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-s", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def _wait_until_gone(pids: list[int]) -> None:
    """Wait for each process to end (its pidfd becomes readable); fails at TIMEOUT."""
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            ready, _, _ = select.select([fd], [], [], TIMEOUT)
            assert ready, f"process {pid} of the build is still running"
        finally:
            os.close(fd)


def _ctrl_c_as_in_a_terminal() -> None:
    """In the build: Ctrl-C interrupts, also when the test run itself was started in the
    background (a shell starts background jobs with SIGINT ignored, their children inherit it,
    and Python then leaves it ignored: the build would never hear the Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_while_pictures_are_prepared_ends_cleanly(tmp_path):
    pack = _pack(tmp_path)
    out = tmp_path / "out"
    told, tell = os.pipe()
    env = {**os.environ, "CARDGEN_CACHE": str(tmp_path / "cache")}
    process = subprocess.Popen([sys.executable, "-c", BUILD, str(tell), str(pack.parent),
                                str(out)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               pass_fds=[tell], preexec_fn=_ctrl_c_as_in_a_terminal)
    os.close(tell)
    try:
        worker = int(first_line(told, TIMEOUT))
        assert worker != process.pid  # a forked worker, busy with a picture
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = process.communicate(timeout=TIMEOUT)
    finally:
        os.close(told)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert err == "interrupted\n"
    assert not out.exists()
    _wait_until_gone(_session(process.pid) + [worker])
    assert _session(process.pid) == []  # the session's processes (the workers) are all gone


def test_no_library_starts_a_thread_that_could_take_a_ctrl_c():
    """A native thread (OpenBLAS's, started when numpy is imported, as a library may) does
    not block SIGINT: the kernel could hand it the Ctrl-C meant for the build. cardgen keeps
    such libraries to the one thread (cardgen/__init__.py)."""
    code = ("import os, cardgen, cardgen.validate.groups, numpy, pypdfium2; "
            "print(len(os.listdir('/proc/self/task')))")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"
