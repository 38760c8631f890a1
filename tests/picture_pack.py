"""A pack of picture cards for the tests of pictures a designer drops in (pictures/) and of a
build interrupted or killed while it prepares them (cli/): its pack.yaml, the pack with cards,
and a build held at its pictures."""

from __future__ import annotations

import os
import select
from pathlib import Path

PACK = """\
id: pics
title: Bilder
language: de
kinds:
  - id: card
    label: Karte
    id_pattern: "^P[0-9]+$"
    front: stat-card
    back: simple-back
"""


def picture_pack(root: Path, cards_yaml: str) -> Path:
    """root/card_data/pics: PACK, an empty images/ and cards/cards.yaml holding `cards_yaml`."""
    pack = root / "card_data" / "pics"
    (pack / "cards").mkdir(parents=True)
    (pack / "images").mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "cards" / "cards.yaml").write_text(cards_yaml, encoding="utf-8")
    return pack


def held_build(*options: str) -> str:
    """A script (python -c SCRIPT TELL DATA OUT) that builds DATA into OUT on two cores with
    `options`, each picture's preparation held: the process preparing it writes its process id
    into the pipe TELL, then waits on a pipe that never delivers, until it is stopped."""
    return f"""
import os, sys
import cardgen.pictures.store as images
real, told = images.prepare, int(sys.argv[1])
never, _ = os.pipe()
def held(*args, **kwargs):
    os.write(told, f"{{os.getpid()}}\\n".encode())
    os.read(never, 1)
    return real(*args, **kwargs)
images.prepare = held
sys.argv = ["cardgen", "build", "--data", sys.argv[2], "--out", sys.argv[3], "--jobs", "2",
            *{list(options)!r}]
import cardgen.cli.app as app
app.main()
"""


def first_line(fd: int, timeout: float) -> str:
    """The first line a held build's process writes into the pipe `fd` (its process id):
    waited for, failing after `timeout` seconds or when the pipe closes first."""
    data = b""
    while b"\n" not in data:
        ready, _, _ = select.select([fd], [], [], timeout)
        assert ready, "no process of the build began a picture"
        chunk = os.read(fd, 100)
        assert chunk, "the build ended before a process began a picture"
        data += chunk
    return data.split(b"\n", 1)[0].decode()
