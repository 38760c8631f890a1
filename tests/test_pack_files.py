"""Entries of a pack's folders named like data files that are no file: a link to nothing or in a
circle is an error naming the entry (the designer meant a file there), a folder a warning; the
files an editor keeps beside an open one (Excel's ~$, Emacs's .# lock) are not read."""

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


def test_a_folder_is_skipped_with_a_warning_and_editor_files_are_not_read(cli, copy_shipped,
                                                                          tmp_path):
    pack = copy_shipped(tmp_path, "quartett")
    (pack / "cards" / "old.yaml").mkdir()
    (pack / "cards" / "~$1-pik.xlsx").write_bytes(b"\x00owner")  # Excel, while a book is open
    os.symlink("designer@host.4242:1700000000", pack / "cards" / ".#1-pik.yaml")  # Emacs
    result = cli("build", "quartett", "--data", tmp_path / "card_data", "--out",
                 tmp_path / "out", "--only", "cards")
    assert result.exit_code == 0, result.output
    assert "cards/old.yaml: warning: a folder named like a data file is skipped" in result.output
    assert "~$" not in result.output and ".#" not in result.output
    assert "52 cards" in result.output
