"""Random damage to a valid pack: cardgen answers with exit 0 or 1 and diagnostics — never a
traceback, never a partial file in the output folder."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardgen.cli.app import app

MINI = Path(__file__).parent / "fixtures" / "valid" / "card_data" / "mini"
FILES = sorted(p.relative_to(MINI) for p in MINI.rglob("*.yaml"))

# What a designer's slip can put in place of a value.
VALUES = st.one_of(
    st.sampled_from(["yes", "no", "~", "''", "true", "-1", "0", "1e3", "1:30", "012", ".nan",
                     "[1, 2, 3]", "{a: 1}", "\"{{ card.nope }}\"", "\"{% for x in y %}\"",
                     "\"**bold\"", "\"<b>&amp;\"", "\"\u2603 \U0001F600\"", "99999999999",
                     "\"" + "lang " * 200 + "\"", "[]", "{}", "\"../../etc/passwd\"",
                     "null", "x: y", "- a"]),
    st.integers(min_value=-10**6, max_value=10**6).map(str),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12).map(
        lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)


def mutate(text: str, line_index: int, value: str, mode: int) -> str:
    lines = text.split("\n")
    index = line_index % len(lines)
    line = lines[index]
    if mode == 0 and ":" in line:  # replace a value
        key = line.split(":", 1)[0]
        lines[index] = f"{key}: {value}"
    elif mode == 1:  # drop a line
        del lines[index]
    elif mode == 2:  # duplicate a line
        lines.insert(index, line)
    else:  # break the indentation
        lines[index] = " " + line
    return "\n".join(lines)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(file_index=st.integers(0, 100), line=st.integers(0, 500), value=VALUES,
       mode=st.integers(0, 3), command=st.sampled_from(["check", "build"]))
def test_damaged_pack_never_crashes(tmp_path_factory, file_index, line, value, mode, command):
    root = tmp_path_factory.mktemp("damaged")
    pack = root / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    target = pack / FILES[file_index % len(FILES)]
    target.write_text(mutate(target.read_text(encoding="utf-8"), line, value, mode),
                      encoding="utf-8")
    out = root / "out"
    args = [command, "--data", str(root / "card_data")]
    if command == "build":
        args += ["--out", str(out), "--only", "cards", "--jobs", "1"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if command == "build":
        if result.exit_code == 1:
            assert not out.exists() or not any(out.rglob("*.pdf"))
        else:
            assert (out / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")
        leftovers = [p for p in out.rglob("*") if p.name.endswith(".tmp")] if out.exists() else []
        assert not leftovers


# --- pictures a layout, a board or a card uses ---------------------------------------------------

PICTURE_LAYOUTS = """\
layouts:
  mini-back:
    extends: simple-back
    regions:
      picture: {type: image, x: 5, y: 5, w: 49, h: 81, layer: 5, image: images/back.png}
  pix-front:
    extends: stat-card
    regions:
      frame: {type: image, x: 0, y: 0, w: 59, h: 91, layer: 9, image: images/frame.png}
      logo: {type: image, x: 45, y: 84, w: 6, h: 6, layer: 9, image: "images/{{ 'logo' }}.jpg"}
"""
PICTURE_BOARD = """\
boards:
  plan:
    title: Plan
    size: {width: 100, height: 100}
    regions:
      art: {type: image, x: 10, y: 10, w: 80, h: 80, image: images/board.png}
"""
PICTURES = {"back.png": "PNG", "frame.png": "PNG", "logo.jpg": "JPEG", "board.png": "PNG",
            "ann.jpg": "JPEG"}  # ann.jpg: the picture of card A1
NAMED_AT = {"back.png": "layouts.yaml:5:", "frame.png": "layouts.yaml:9:",
            "logo.jpg": "layouts.yaml:10:", "board.png": "boards.yaml:6:",
            "ann.jpg": "heroes.yaml:5:"}


def picture_pack(root: Path) -> Path:
    """The mini pack with a picture on its back, a frame and a logo on its fronts, a board
    picture and a picture of its own on card A1."""
    pack = root / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    (pack / "layouts.yaml").write_text(PICTURE_LAYOUTS, encoding="utf-8")
    (pack / "boards.yaml").write_text(PICTURE_BOARD, encoding="utf-8")
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    for front in ("front: stat-card", "front: mini-consultant"):  # both kinds' fronts
        text = text.replace(front, "front: pix-front")
    (pack / "pack.yaml").write_text(text, encoding="utf-8")
    cards = (pack / "cards" / "heroes.yaml").read_text(encoding="utf-8")
    (pack / "cards" / "heroes.yaml").write_text(
        cards.replace("    name: Ann\n", "    name: Ann\n    image: images/ann.jpg\n", 1),
        encoding="utf-8")
    (pack / "images").mkdir()
    for name, fmt in PICTURES.items():
        (pack / "images" / name).write_bytes(_picture(fmt))
    return pack


@functools.lru_cache(maxsize=None)
def _picture(fmt: str) -> bytes:
    """A 700 × 1100 px picture in PNG or JPEG (encoded once, not for every example)."""
    import io
    from PIL import Image
    buffer = io.BytesIO()
    Image.new("RGB", (700, 1100), "#446688").save(buffer, fmt)
    return buffer.getvalue()


def damage_picture(path: Path, how: int, where: int, data: bytes, outside: Path) -> None:
    """Truncate, overwrite bytes, replace, empty, remove, a folder, a link out of the pack."""
    content = path.read_bytes()
    if how == 0:
        path.write_bytes(content[:where % max(1, len(content))])
    elif how == 1:
        at = where % len(content)
        path.write_bytes(content[:at] + data + content[at + len(data):])
    elif how == 2:
        path.write_bytes(data)
    elif how == 3:
        path.unlink()
    elif how == 4:
        path.unlink()
        path.mkdir()
    else:
        outside.write_bytes(content)  # a harmless copy outside the pack, never written through
        path.unlink()
        path.symlink_to(outside)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(picture=st.sampled_from(sorted(PICTURES)), how=st.integers(0, 5),
       where=st.integers(0, 10**6), data=st.binary(min_size=1, max_size=64),
       command=st.sampled_from(["check", "build"]))
def test_damaged_pictures_are_diagnostics_at_their_yaml(tmp_path_factory, picture, how, where,
                                                       data, command):
    root = tmp_path_factory.mktemp("pictures")
    pack = picture_pack(root)
    damage_picture(pack / "images" / picture, how, where, data, root / "outside.bin")
    out = root / "out"
    args = [command, "--data", str(root / "card_data")]
    if command == "build":
        args += ["--out", str(out), "--only", "cards", "--only", "boards", "--jobs", "1"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 1:
        errors = [line for line in result.stderr.splitlines() if ": error: " in line]
        assert errors and all(NAMED_AT[picture] in line for line in errors), errors
        assert not out.exists()
    elif command == "build":  # the damage left a picture that still decodes: it is printed
        assert (out / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")
