"""Pictures that fit: cover with a focal point, contain, the share a cover cuts off; and an SVG
picture drawn as vectors, read back from a built pack."""

from __future__ import annotations

import pikepdf
import pytest
from PIL import Image, ImageDraw

from cardgen.pictures.fit import cut_share, placement
from conftest import make_pack
from pdf_geometry import open_pdf

PT = 72 / 25.4


def test_cover_keeps_the_focus_and_fills_the_box():
    box = (10.0, 20.0, 60.0, 80.0)
    x, y, w, h = placement(box, (200, 100), "cover", (0.5, 0.5))  # a wide picture
    assert (w, h) == pytest.approx((160, 80)) and x == pytest.approx(10 - 50)
    x, _, _, _ = placement(box, (200, 100), "cover", (0.0, 0.5))   # keep the left edge
    assert x == pytest.approx(10)
    x, _, _, _ = placement(box, (200, 100), "cover", (1.0, 0.5))   # keep the right edge
    assert x + 160 == pytest.approx(70)
    _, y, _, h = placement(box, (100, 400), "cover", (0.5, 0.0))   # a tall one: its top
    assert y + h == pytest.approx(100)


def test_contain_shows_all_of_it_inside_the_box():
    x, y, w, h = placement((10.0, 20.0, 60.0, 80.0), (200, 100), "contain", (0.5, 0.5))
    assert (w, h) == pytest.approx((60, 30)) and x == 10 and y == pytest.approx(45)
    _, y, _, _ = placement((10.0, 20.0, 60.0, 80.0), (200, 100), "contain", (0.5, 0.0))
    assert y + 30 == pytest.approx(100)  # placed at the top


def test_the_share_a_cover_cuts_off():
    assert cut_share((22, 27), (1200, 600)) == pytest.approx(1 - (22 / 27) / 2)
    assert cut_share((50, 50), (300, 300)) == 0


def _pack(tmp_path, image_lines: dict[str, str], files: dict[str, object]):
    folder = make_pack(tmp_path)
    (folder / "images").mkdir(exist_ok=True)
    for name, made in files.items():
        if isinstance(made, str):
            (folder / "images" / name).write_text(made, encoding="utf-8")
        else:
            made.save(folder / "images" / name)
    cards = (folder / "cards" / "heroes.yaml").read_text(encoding="utf-8")
    for card, lines in image_lines.items():
        cards = cards.replace(f"  - id: {card}\n", f"  - id: {card}\n{lines}", 1)
    (folder / "cards" / "heroes.yaml").write_text(cards, encoding="utf-8")
    return folder


def _flag() -> Image.Image:
    image = Image.new("RGB", (1200, 600), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, 399, 599], fill="#0055A4")
    draw.rectangle([800, 0, 1199, 599], fill="#EF4135")
    return image


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
       '<circle cx="50" cy="50" r="40" fill="#2E7D32"/></svg>')


def _images(pdf: pikepdf.Pdf, index: int) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) in mm of every image XObject drawn on the page."""
    from pdf_geometry import _mul
    page = pdf.pages[index]
    xobjects = page.Resources.get("/XObject", {})
    ctm, stack, out = (1, 0, 0, 1, 0, 0), [], []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == "Do" and xobjects[str(operands[0])].get("/Subtype") == "/Image":
            out.append((ctm[4] / PT, ctm[5] / PT, ctm[0] / PT, ctm[3] / PT))
    return out


def test_cover_warns_contain_fits_focus_keeps(cli, tmp_path):
    folder = _pack(tmp_path, {
        "A1": "    image: images/flag.png\n",
        "A2": "    image: images/flag.png\n    image_fit: contain\n",
        "B1": "    image: images/flag.png\n    image_focus: [0, 0.5]\n"}, {"flag.png": _flag()})
    out = tmp_path / "out"
    result = cli("build", "--data", folder.parent, "--out", out, "--only", "printshop")
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if "cuts off" in line]
    assert any("A1 image" in line and "59%" in line and "fit: contain" in line
               for line in warned), result.output
    assert not any("A2" in line for line in warned)
    pdf = open_pdf((out / "mini" / "printshop.pdf").read_bytes())
    placed = sorted((round(w, 1), round(h, 1), x) for page in range(len(pdf.pages))
                    for x, _, w, h in _images(pdf, page))
    contained, centred, focused = placed[0], placed[1], placed[2]
    # contain: the whole flag, 2:1, as wide as the 22 mm box
    assert contained[:2] == pytest.approx((22, 11), abs=0.1)
    # cover about the middle: prepared cropped to the 22 x 27 mm box
    assert centred[:2] == pytest.approx((22, 27), abs=0.1)
    # cover keeping the left edge: the whole flag 27 mm high, its left edge at the box's
    assert focused[:2] == pytest.approx((54, 27), abs=0.1)
    assert focused[2] == pytest.approx(centred[2], abs=0.05)


def test_an_svg_picture_is_drawn_as_vectors(cli, tmp_path):
    folder = _pack(tmp_path, {"A1": "    image: images/icon.svg\n"}, {"icon.svg": SVG})
    out = tmp_path / "out"
    result = cli("build", "--data", folder.parent, "--out", out, "--only", "printshop")
    assert result.exit_code == 0, result.output
    pdf = open_pdf((out / "mini" / "printshop.pdf").read_bytes())
    green = (round(0x2E / 255, 3), round(0x7D / 255, 3), round(0x32 / 255, 3))
    found = []
    for index in range(len(pdf.pages)):
        assert not _images(pdf, index)  # no raster picture anywhere
        for operands, op in pikepdf.parse_content_stream(pdf.pages[index]):
            if str(op) == "rg" and tuple(round(float(v), 3) for v in operands) == green:
                found.append(index)
    assert found  # the circle, in its own colour


def test_an_svg_with_text_is_refused_with_advice(cli, tmp_path):
    text = SVG.replace("</svg>", '<text x="10" y="50">Hi</text></svg>')
    folder = _pack(tmp_path, {"A1": "    image: images/words.svg\n"}, {"words.svg": text})
    result = cli("check", "--data", folder.parent)
    assert result.exit_code == 1
    assert "words.svg' holds text" in result.output and "paths" in result.output


@pytest.mark.parametrize("svg, said", [
    # svglib would recover the broken file into a picture with parts missing
    (SVG.replace("</svg>", "<rect"), "is not a readable SVG (line 1"),
    # an entity can expand a few bytes into gigabytes, or name another file (XXE)
    ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
     + SVG.replace("</svg>", "<desc>&x;</desc></svg>"), "declares XML entities"),
    # a picture the pack's YAML does not name: no check or cache sees it change
    (SVG.replace("</svg>", '<image href="../../secret.png" width="9" height="9"/></svg>'),
     "refers to another file ('../../secret.png', line 1)"),
    (SVG.replace('width="100"', 'width="1e30"'), "is not a readable SVG (no size, or a width or height beyond 1 000 000 "
     "points)"),
    (SVG.replace('cx="50"', 'cx="1e30"'), "draws beyond 1 000 000 points"),
    (SVG.replace('<circle cx="50" cy="50" r="40" fill="#2E7D32"/>', ""), "draws nothing"),
])
def test_an_svg_that_would_print_wrong_or_reach_outside_is_refused(cli, tmp_path, svg, said):
    folder = _pack(tmp_path, {"A1": "    image: images/icon.svg\n"}, {"icon.svg": svg})
    result = cli("check", "--data", folder.parent)
    assert result.exit_code == 1, result.output
    assert f"icon.svg' {said}" in result.output
    assert "Traceback" not in result.output


def test_an_svg_with_a_public_doctype_and_its_own_references_is_read(cli, tmp_path):
    """Illustrator writes the SVG 1.1 DOCTYPE (no entities); <use href="#id"> is the file's own."""
    svg = ('<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
           '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
           + SVG.replace('<circle', '<defs><circle id="c" cx="50" cy="50" r="40"/></defs>'
                         '<use href="#c"/><circle'))
    folder = _pack(tmp_path, {"A1": "    image: images/icon.svg\n"}, {"icon.svg": svg})
    result = cli("check", "--data", folder.parent)
    assert result.exit_code == 0, result.output
