"""Ctrl-C while a build prepares its pictures in forked processes: one line, exit 130, nothing
written and no process left behind (each worker used to print a traceback of its own)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from PIL import Image

from test_hazards_images import PACK

TIMEOUT = 60

# The build, with picture preparation slowed down so that the workers are surely busy when the
# interrupt comes; each worker says it has started by creating a file.
BUILD = """
import os, sys, time
import cardgen.pictures.store as images
real, signals = images.prepare, sys.argv[1]
def slow(*args, **kwargs):
    open(os.path.join(signals, f"busy-{os.getpid()}"), "w").close()
    time.sleep(0.5)
    return real(*args, **kwargs)
images.prepare = slow
sys.argv = ["cardgen", "build", "--data", sys.argv[2], "--out", sys.argv[3], "--jobs", "2"]
import cardgen.cli.app as app
app.main()
"""

def test_ctrl_c_while_pictures_are_prepared_ends_cleanly(tmp_path):
    pack = tmp_path / "card_data" / "pics"
    (pack / "cards").mkdir(parents=True)
    (pack / "images").mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    cards = ["kind: card", "cards:"]
    for n in range(1, 17):
        Image.effect_noise((300 + n, 400), 40).convert("RGB").save(pack / "images" / f"{n}.jpg")
        cards += [f"  - id: P{n}", f"    name: Person {n}", f"    image: images/{n}.jpg"]
    (pack / "cards" / "cards.yaml").write_text("\n".join(cards) + "\n", encoding="utf-8")
    signals, out = tmp_path / "signals", tmp_path / "out"
    signals.mkdir()
    env = {**os.environ, "CARDGEN_CACHE": str(tmp_path / "cache")}
    process = subprocess.Popen([sys.executable, "-c", BUILD, str(signals), str(pack.parent),
                                str(out)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + TIMEOUT
    while not list(signals.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(signals.iterdir()), "no worker started preparing a picture"
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    _, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 130
    assert err == "interrupted\n"
    assert not out.exists()
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-s", str(process.pid)], capture_output=True, text=True)
    assert left.stdout == ""  # the session's processes (the workers) are all gone
