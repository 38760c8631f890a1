"""cardgen.layout.ink: --ink-saver turns a face into what its regions declare — a light tint of
the background, lettering in the background's colour, outlines, or nothing."""

from __future__ import annotations

from types import SimpleNamespace

from cardgen.diagnostics import Report
from cardgen.layout.card import Box, CardFace
from cardgen.layout.faces import FaceBook
from cardgen.layout.ink import ink_colour, ink_saved, tint


def box(name, mode, fill=None, stroke=None, colour="#000000") -> Box:
    return Box(name, SimpleNamespace(ink_saver=mode), fill=fill, stroke=stroke, colour=colour)


def test_a_tint_keeps_fifteen_percent_of_the_colour():
    assert tint("#000000") == "#D9D9D9"
    assert tint("#FFFFFF") == "#FFFFFF"
    assert tint("#22577A") == "#DEE6EB"


def test_the_ink_is_the_fill_of_the_first_tinted_region_else_black():
    face = CardFace("back:x", [box("frame", "ink", stroke="#FFFFFF"),
                               box("none", "tint", fill="none"),
                               box("bleed", "tint", fill="#22577A"),
                               box("later", "tint", fill="#FF0000")])
    assert ink_colour(face) == "#22577A"
    assert ink_colour(CardFace("x", [box("a", "keep", fill="#123456")])) == "#000000"


def test_each_region_becomes_what_it_declares_and_the_face_given_is_kept():
    face = CardFace("back:x", [
        box("bleed", "tint", fill="#22577A", stroke="#000000"),
        box("frame", "ink", stroke="#FFFFFF", colour="#FFFFFF"),
        box("photo", "keep", fill="#884422"),
        box("panel", "outline", fill="#333333", stroke="#111111"),
        box("noise", "hide", fill="#000000"),
        box("clear", "tint", fill="none", colour="none"),
    ])
    saved = ink_saved(face)
    assert saved is not face and saved.card_id == "back:x"
    got = {b.name: (b.fill, b.stroke, b.colour) for b in saved.boxes}
    assert got == {"bleed": ("#DEE6EB", "#D9D9D9", "#D9D9D9"),
                   "frame": (None, "#22577A", "#22577A"),
                   "photo": ("#884422", None, "#000000"),
                   "panel": (None, "#22577A", "#000000"),
                   "clear": ("none", None, "none")}
    assert [b.name for b in face.boxes][4] == "noise" and face.boxes[0].fill == "#22577A"


def test_the_built_in_back_goes_light_and_keeps_its_lettering(make_pack, tmp_path):
    from cardgen.load.pack import load_pack
    data = load_pack(make_pack(tmp_path), Report())
    back = FaceBook(data).back("hero")
    saved = ink_saved(back)
    fills = {b.name: b.fill for b in saved.boxes}
    colours = {b.name: b.colour for b in saved.boxes}
    background = next(b.fill for b in back.boxes if b.name == "bleed")
    assert fills["bleed"] == tint(background)
    assert colours["title"] == background
