"""What a pack is made of, read as the designer meant it or refused in one line.

Entries of a pack's folders named like data files that are no file: a link to nothing or in a
circle is an error naming the entry (the designer meant a file there), a folder a warning; the
files an editor keeps beside an open one (Excel's ~$, Emacs's .# lock) are not read. A kind or
group id pack.yaml gives twice is one error, not a hundred follow-ons; a range [most, fewest]
is an error at it."""

from __future__ import annotations

import os

import pytest


@pytest.mark.parametrize("folder", ["cards", "rules"])
def test_a_broken_link_is_named(cli, copy_shipped, tmp_path, folder):
    pack = copy_shipped(tmp_path, "quartett")
    os.symlink("nowhere.yaml", pack / folder / "gone.yaml")
    os.symlink("loop.yaml", pack / folder / "loop.yaml")
    out = tmp_path / "out"
    result = cli("build", "quartett", "--data", tmp_path / "card_data", "--out", out)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert (f"{folder}/gone.yaml: error: cannot read the file: it is a link to 'nowhere.yaml', "
            "which does not exist") in result.output
    assert f"{folder}/loop.yaml: error: cannot read the file: it is a link that leads back " \
           "to itself" in result.output
    assert not out.exists()


def test_editor_files_are_not_read(cli, copy_shipped, tmp_path):
    pack = copy_shipped(tmp_path, "quartett")
    (pack / "cards" / "~$1-pik.xlsx").write_bytes(b"\x00owner")  # Excel, while a book is open
    os.symlink("designer@host.4242:1700000000", pack / "cards" / ".#1-pik.yaml")  # Emacs
    result = cli("build", "quartett", "--data", tmp_path / "card_data", "--out",
                 tmp_path / "out", "--only", "cards")
    assert result.exit_code == 0, result.output
    assert "~$" not in result.output and ".#" not in result.output
    assert "52 cards" in result.output


def test_a_folder_named_like_a_data_file_is_an_error(cli, copy_shipped, tmp_path):
    """A card file replaced by a folder would lose its cards silently (issue 31)."""
    pack = copy_shipped(tmp_path, "quartett")
    (pack / "cards" / "old.yaml").mkdir()
    result = cli("build", "quartett", "--data", tmp_path / "card_data", "--out",
                 tmp_path / "out", "--only", "cards")
    assert result.exit_code == 1
    assert "cards/old.yaml: error: is a folder, where a file of this name belongs" in result.output
    assert not (tmp_path / "out").exists()


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_kind_given_twice_is_one_error_at_the_second(cli, copy_shipped, tmp_path):
    pack = copy_shipped(tmp_path)
    _edit(pack / "pack.yaml", "  - id: K ", "  - id: character ")
    lines = (pack / "pack.yaml").read_text(encoding="utf-8").splitlines()
    first = next(n for n, line in enumerate(lines, 1) if line == "  - id: character")
    second = next(n for n, line in enumerate(lines, 1) if line.startswith("  - id: character "))
    result = cli("check", "crazy-hospital", "--data", tmp_path / "card_data")
    assert result.exit_code == 1
    said = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(said) == 1, result.stderr
    assert said[0].endswith(f"pack.yaml:{second}:9: error: character id: duplicate kind id "
                            f"(also at line {first})")


def test_players_written_from_most_to_fewest_is_an_error_at_them(cli, copy_shipped, tmp_path):
    pack = copy_shipped(tmp_path, "quartett")
    _edit(pack / "pack.yaml", "players: [2, 10]", "players: [10, 2]")
    result = cli("check", "quartett", "--data", tmp_path / "card_data")
    assert result.exit_code == 1
    said = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(said) == 1 and said[0].endswith(
        "error: play.players: [10, 2]: the smaller number comes first; write [2, 10]"), said
