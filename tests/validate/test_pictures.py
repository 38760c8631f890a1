"""Pictures on every face: a card's own, a layout's back picture, frame and logo, a board's.

Each damaged, missing or hostile picture is one diagnostic at the YAML line that names it, from
`check` as from `build` (before any output), never a traceback while drawing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image

from conftest import pictured_mini

LAYOUTS = """\
layouts:
  mini-back:
    extends: simple-back
    regions:
      picture:
        {type: image, x: 5, y: 5, w: 49, h: 81, layer: 5, image: images/back.png}
  pix-front:
    extends: stat-card
    regions:
      frame:
        type: image
        x: 0
        y: 0
        w: 59
        h: 91
        layer: 9
        image: images/frame.png
      logo:
        {type: image, x: 45, y: 84, w: 6, h: 6, layer: 9, image: "images/{{ 'logo' }}.png"}
      badge_art:
        {type: image, x: 4, y: 4, w: 5, h: 5, layer: 9, image: "images/{{ card.set or 'L' }}.png"}
"""



def picture(path: Path, size=(700, 1100), mode="RGB") -> None:
    Image.new(mode, size, "#884422" if mode == "RGB" else None).save(path)


@pytest.fixture
def pix(tmp_path) -> Path:
    """The mini pack with pictures on its back, its fronts (frame, logo, per-set art) and a
    board; every picture fine."""
    pack = pictured_mini(tmp_path, LAYOUTS)
    (pack / "images").mkdir()
    for name in ("back", "frame", "logo", "A", "B", "L", "board"):
        picture(pack / "images" / f"{name}.png", (1200, 1200))
    return pack


def damage(path: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (900, 900), "red").save(buffer, "PNG")
    path.write_bytes(buffer.getvalue()[:300])


def errors(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if ": error: " in line]


def test_the_picture_pack_builds(cli, pix, tmp_path):
    out = tmp_path / "out"
    result = cli("build", "--data", pix.parent, "--out", out, "--only", "cards")
    assert result.exit_code == 0, result.output
    assert (out / "mini" / "cards.pdf").is_file()


def test_a_damaged_back_picture_is_found_by_check_and_build(cli, pix, tmp_path):
    damage(pix / "images" / "back.png")
    check = cli("check", "--data", pix.parent)
    assert check.exit_code == 1
    assert errors(check) == [f"{pix / 'layouts.yaml'}:6:66: error: mini-back.picture image: "
                             "'images/back.png' is not a readable picture (image file is "
                             "truncated)"]
    out = tmp_path / "out"
    build = cli("build", "--data", pix.parent, "--out", out)
    assert build.exit_code == 1 and errors(build) == errors(check)
    assert not out.exists()


def test_a_missing_frame_is_reported_at_its_image_line(cli, pix):
    (pix / "images" / "frame.png").unlink()
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 1
    assert errors(result) == [f"{pix / 'layouts.yaml'}:17:16: error: pix-front.frame image: "
                              "picture 'images/frame.png' not found"]


def test_a_templated_logo_is_checked_after_layout(cli, pix, tmp_path):
    (pix / "images" / "logo.png").unlink()
    os.symlink(tmp_path / "elsewhere.png", pix / "images" / "logo.png")
    picture(tmp_path / "elsewhere.png")
    result = cli("build", "--data", pix.parent, "--out", tmp_path / "out")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert errors(result) == [f"{pix / 'layouts.yaml'}:19:66: error: pix-front.logo image "
                              "(card L1): 'images/logo.png' leads outside the pack folder "
                              "(a symlink?)"]


def test_a_picture_named_by_the_card_data_is_reported_at_the_card(cli, pix):
    (pix / "images" / "B.png").write_text("not a picture")
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 1
    # B1 and B2 both show it: the first card of set B is named, at its `set:` line
    assert errors(result) == [f"{pix / 'cards' / 'heroes.yaml'}:35:10: error: B1 set: "
                              "'images/B.png' is not a readable picture (cardgen prints PNG, "
                              "JPEG, WEBP, GIF, TIFF, BMP and SVG)"]


@pytest.mark.parametrize("content", [
    b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n",  # would run Ghostscript
    b"%PDF-1.4\n",
    b"",
])
def test_formats_that_are_not_pictures_are_refused(cli, pix, content):
    (pix / "images" / "back.png").write_bytes(content)
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 1
    assert errors(result) == [f"{pix / 'layouts.yaml'}:6:66: error: mini-back.picture image: "
                              "'images/back.png' is not a readable picture (cardgen prints PNG, "
                              "JPEG, WEBP, GIF, TIFF, BMP and SVG)"]


def test_a_picture_the_decoder_fails_on_is_a_diagnostic(cli, pix):
    """A 16-bit big-endian TIFF made open_checked raise ValueError (a traceback before)."""
    (pix / "images" / "frame.png").unlink()
    Image.new("I;16B", (600, 900)).save(pix / "images" / "frame.tif", "TIFF")
    text = (pix / "layouts.yaml").read_text(encoding="utf-8")
    (pix / "layouts.yaml").write_text(text.replace("frame.png", "frame.tif"), encoding="utf-8")
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 1
    assert errors(result) == [f"{pix / 'layouts.yaml'}:17:16: error: pix-front.frame image: "
                              "'images/frame.tif' cannot be decoded (point operation not "
                              "supported for this mode)"]


def test_a_damaged_board_picture_is_reported_at_its_image(cli, pix):
    damage(pix / "images" / "board.png")
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 1
    assert errors(result) == [f"{pix / 'boards.yaml'}:6:61: error: plan.art image: "
                              "'images/board.png' is not a readable picture (image file is "
                              "truncated)"]


def test_a_small_back_picture_is_a_warning_at_the_layout(cli, pix):
    picture(pix / "images" / "back.png", (100, 160))
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 0
    assert f"{pix / 'layouts.yaml'}:6:66: warning: mini-back.picture image: images/back.png " \
           "prints at 50 dpi in the 49 x 81 mm picture region; 300 dpi needs 579 x 957 px" \
           in result.stderr


def black_png(width: int, height: int) -> bytes:
    """A valid 1-bit PNG of black pixels, written row by row (PIL holding 30000 × 30000
    pixels to save them takes four times as long)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body)))
    row = bytes(1 + (width + 7) // 8)  # filter byte 0, then the row's bits
    packer = zlib.compressobj(9)
    pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)  # 1 bit, grey
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


def test_black_png_is_the_picture_pil_makes():
    small = io.BytesIO()
    Image.new("1", (70, 30)).save(small, "PNG")
    assert Image.open(io.BytesIO(black_png(70, 30))).tobytes() == \
        Image.open(small).tobytes()


def test_a_picture_far_too_large_is_refused_before_decoding(cli, pix):
    (pix / "images" / "back.png").write_bytes(black_png(30000, 30000))
    result = cli("check", "--data", pix.parent)
    assert result.exit_code == 1
    assert errors(result) == [f"{pix / 'layouts.yaml'}:6:66: error: mini-back.picture image: "
                              "'images/back.png' has far more than 40,000,000 pixels"]
