"""--no-backs: cards.pdf with the fronts alone (sleeves over real cards, one-sided printing)."""

from __future__ import annotations

import pikepdf
import pytest

from conftest import MINI, text_layer
from pdf_geometry import open_pdf, read_page


def _build(cli, tmp_path, *args):
    return cli("build", "mini", "--data", MINI.parent, "--out", tmp_path / "out", "--only",
               "cards", *args)


def test_no_backs_prints_every_front_and_no_back(cli, tmp_path):
    result = _build(cli, tmp_path, "--no-backs")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "mini"
    data = (folder / "cards.pdf").read_bytes()
    pdf = open_pdf(data)
    faces = [face for index in range(len(pdf.pages))
             for face in read_page(pdf, index, (59, 91), 3.0)[0]]
    assert faces and not [f for f in faces if f["shared"]]  # no back drawn anywhere
    assert len(faces) == 4  # the mini pack's four cards, each once
    assert "/ViewerPreferences" in pdf.Root and "/Duplex" not in pdf.Root.ViewerPreferences
    text = text_layer(data)
    assert "1/1" in text and "backs" not in text.lower().replace("no backs", "")
    guide = text_layer((folder / "guide.pdf").read_bytes()).replace("\n", " ")
    assert "single-sided" in guide and "fronts only" in guide


def test_with_backs_the_same_deck_has_a_backs_page(cli, tmp_path):
    result = _build(cli, tmp_path)
    assert result.exit_code == 0, result.output
    with pikepdf.open(tmp_path / "out" / "mini" / "cards.pdf") as pdf:
        assert len(pdf.pages) == 2


def test_no_backs_and_fold_contradict_each_other(cli, tmp_path):
    result = _build(cli, tmp_path, "--no-backs", "--duplex", "fold")
    assert result.exit_code == 2
    assert "--no-backs" in result.output and "fold" in result.output


@pytest.mark.parametrize("option, value", [("--duplex", "short"), ("--back-offset", "1,0")])
def test_options_that_place_backs_do_nothing_without_backs(cli, tmp_path, option, value):
    result = _build(cli, tmp_path, "--no-backs", option, value)
    assert result.exit_code == 0, result.output
    assert f"{option} has no effect with --no-backs" in result.output
