"""Option values that cannot work are diagnostics (exit 1 or 2), never a traceback (exit 3).

Each value here is accepted on its own; it is the combination with the paper, the duplex mode
or the card size that cannot be printed.
"""

from __future__ import annotations

import pytest

from conftest import FIXTURES

DATA = FIXTURES / "valid" / "card_data"


def run(cli, tmp_path, *args):
    return cli("build", "--data", DATA, "--out", tmp_path / "out", "--jobs", "1", *args)


@pytest.mark.parametrize("args, message", [
    (("--card-size", "300x400"), "print: a 300 x 400 mm card does not fit on the sheet: the "
     "usable area inside the margin and above the footer is only 200 x 284 mm (a4; choose a "
     "larger --paper or a smaller --card-size)"),
    (("--card-size", "300x400", "--paper", "a3", "--only", "calibration"),
     "print: a 300 x 400 mm card does not fit on the sheet"),
    (("--card-size", "200x290", "--duplex", "fold"), "print: fold-over layout: a 200 x 290 mm "
     "card does not fit on the sheet"),
    (("--card-size", "160x240", "--margin", "30"), "print: a 160 x 240 mm card does not fit on "
     "the sheet: the usable area inside the margin and above the footer is only 150 x 234 mm"),
    (("--back-offset", "300,0"), "print: a back offset of 300, 0 mm (--back-offset, "
     "print.back_offset) pushes the backs off the a4 sheet"),
    (("--only", "png", "--dpi", "1200", "--card-size", "400x400"), "print: --dpi 1200 makes "
     "19181 x 19181 px PNGs of a 400 x 400 mm card; at most 64 million pixels: lower --dpi"),
    (("--only", "printshop", "--safe", "15", "--card-size", "20x20"), "print: a 15 mm safe "
     "zone (--safe, print.safe) leaves no room for text on a 20 x 20 mm card"),
])
def test_settings_that_cannot_be_printed(cli, tmp_path, args, message):
    result = run(cli, tmp_path, *args)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    errors = [line for line in lines if ": error: " in line]
    assert len(errors) == 1, lines  # one line for the one problem, not one per card
    where, text = errors[0].split(": error: ")
    assert where.endswith("mini/pack.yaml:2:1") and text.startswith(message)
    assert not (tmp_path / "out").exists()


def test_a_big_card_prints_alone_where_only_the_printshop_file_is_made(cli, tmp_path):
    result = run(cli, tmp_path, "--only", "printshop", "--card-size", "300x400")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "mini" / "printshop.pdf").is_file()


@pytest.mark.parametrize("only", ["calibration", "rulebook", "boards"])
def test_outputs_without_card_faces_build(cli, tmp_path, only):
    """--only calibration (or rulebook, boards) lays out no card: it ended in a traceback."""
    result = run(cli, tmp_path, "--only", only)
    assert result.exit_code == 0, result.output


def test_a_small_back_offset_still_builds(cli, tmp_path):
    result = run(cli, tmp_path, "--only", "cards", "--back-offset", "2,-1.5")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("args", [("--card-size", "nanx3"), ("--back-offset", "inf,0"),
                                  ("--card-size", "-5x-5"), ("--bleed", "nan")])
def test_unusable_values_are_usage_errors(cli, tmp_path, args):
    result = run(cli, tmp_path, *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("inside", ["", "mini", "mini/images"])
def test_an_output_folder_inside_the_packs_is_refused(cli, make_pack, tmp_path, tree, inside):
    """--out card_data swapped the pack folder itself for a folder of PDFs."""
    pack = make_pack(tmp_path)
    before = tree(pack)
    result = cli("build", "--data", pack.parent, "--out", pack.parent / inside, "--jobs", "1")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "would write mini's files into the pack folder" in " ".join(result.stderr.split())
    assert tree(pack) == before


def test_a_pack_folder_given_as_data_says_what_to_give(cli, make_pack, tmp_path):
    pack = make_pack(tmp_path)
    result = cli("check", "--data", pack)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].endswith(
        f"error: this is a pack folder; --data takes the folder that holds the packs: --data "
        f"{pack.parent} mini")
