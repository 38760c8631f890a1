"""Where a pack's cards, layouts and rules come from (issue 31): a link that leads out of the
pack is refused for card files, the cards folder, layouts and rules (pictures were already);
card sources that vanish — a kind left with no cards, a card file replaced by a folder — are
errors, where they were a warning or a build of the remaining cards; a pack beyond the bound of
cards is refused at the card that crosses it. check and build say the same."""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import MINI
from cardgen.load import pack as loader


def _pack(tmp_path):
    pack = tmp_path / "card_data" / "mini"
    shutil.copytree(MINI, pack)
    return pack


def _both(cli, tmp_path):
    """(check's stderr lines, build's stderr lines, build's exit code); the output folder is
    asserted empty after a failed build."""
    checked = cli("check", "--data", tmp_path / "card_data")
    out = tmp_path / "out"
    built = cli("build", "--data", tmp_path / "card_data", "--out", out, "--jobs", "1")
    assert built.exit_code == checked.exit_code
    assert built.stderr.splitlines() == checked.stderr.splitlines()
    assert "Traceback" not in checked.output + built.output
    if built.exit_code:
        assert not out.exists()
    return checked.stderr.splitlines(), built.exit_code


# --- links that leave the pack ---------------------------------------------------------------

def _move_out(pack, relative, tmp_path):
    """Move pack/relative outside the pack and leave a link in its place."""
    outside = tmp_path / "elsewhere" / relative.replace("/", "-")
    outside.parent.mkdir(exist_ok=True)
    shutil.move(pack / relative, outside)
    (pack / relative).symlink_to(outside)
    return outside


@pytest.mark.parametrize("relative", ["cards/heroes.yaml", "layouts.yaml"])
def test_a_file_that_is_a_link_out_of_the_pack_is_refused(cli, tmp_path, relative):
    pack = _pack(tmp_path)
    outside = _move_out(pack, relative, tmp_path)
    said, code = _both(cli, tmp_path)
    assert code == 1
    assert said[0].endswith(f"card_data/mini/{relative}: error: cannot read the file: it is a "
                            f"link to '{outside}', outside the pack folder; cardgen reads only "
                            "the pack's own files: copy it into the pack")


def test_the_cards_folder_as_a_link_out_of_the_pack_is_refused(cli, tmp_path):
    pack = _pack(tmp_path)
    outside = _move_out(pack, "cards", tmp_path)
    said, code = _both(cli, tmp_path)
    assert code == 1
    errors = [line for line in said if ": error: " in line]
    assert len(errors) == 1, said  # not also "no cards" for every kind
    assert errors[0].endswith(f"card_data/mini/cards: error: is a link to '{outside}', outside "
                              "the pack folder; cardgen reads only the pack's own files: copy "
                              "it into the pack")


@pytest.mark.parametrize("folder", ["layouts", "rules"])
def test_a_layout_or_rules_file_linked_from_outside_is_refused(cli, tmp_path, folder):
    pack = _pack(tmp_path)
    (pack / folder).mkdir()
    outside = tmp_path / "shared.yaml"
    outside.write_text("layouts: {}\n" if folder == "layouts" else "title: x\nblocks: []\n")
    (pack / folder / "shared.yaml").symlink_to(outside)
    said, code = _both(cli, tmp_path)
    assert code == 1
    assert any(line.endswith(f"mini/{folder}/shared.yaml: error: cannot read the file: it is a "
                             f"link to '{outside}', outside the pack folder; cardgen reads only "
                             "the pack's own files: copy it into the pack") for line in said)


def test_a_link_inside_the_pack_is_read(cli, tmp_path):
    pack = _pack(tmp_path)
    (pack / "data").mkdir()
    shutil.move(pack / "cards" / "heroes.yaml", pack / "data" / "heroes.yaml")
    (pack / "cards" / "heroes.yaml").symlink_to("../data/heroes.yaml")
    result = cli("check", "--data", tmp_path / "card_data", "--strict")
    assert result.exit_code == 0, result.output


# --- card sources that vanish ------------------------------------------------------------------

def test_a_kind_left_with_no_cards_is_an_error_at_the_kind(cli, tmp_path):
    pack = _pack(tmp_path)
    (pack / "cards" / "consultants.yaml").unlink()
    said, code = _both(cli, tmp_path)
    assert code == 1
    assert said == ["card_data/mini/pack.yaml:16:9: error: K kind: no card file holds cards of "
                    "this kind (cards/K.yaml, or a file with 'kind: K'); add its cards, or "
                    "remove the kind", "1 error, 0 warnings in 1 file"] or \
        [line.split("card_data/", 1)[-1] for line in said] == [
            "mini/pack.yaml:16:9: error: K kind: no card file holds cards of this kind "
            "(cards/K.yaml, or a file with 'kind: K'); add its cards, or remove the kind",
            "1 error, 0 warnings in 1 file"]


def test_a_card_file_replaced_by_a_folder_is_an_error(cli, tmp_path):
    pack = _pack(tmp_path)
    (pack / "cards" / "heroes.yaml").unlink()
    (pack / "cards" / "heroes.yaml").mkdir()
    said, code = _both(cli, tmp_path)
    assert code == 1
    errors = [line for line in said if ": error: " in line]
    assert len(errors) == 1 and errors[0].endswith(
        "mini/cards/heroes.yaml: error: is a folder, where a file of this name belongs: its "
        "cards (or layouts, or rules) would be lost; move the file back, or rename the folder")


def test_a_card_file_that_cannot_be_read_names_no_kind_empty(cli, tmp_path):
    """Which kind a broken file holds is not known: no kind is said to be without cards."""
    pack = _pack(tmp_path)
    (pack / "cards" / "consultants.yaml").write_text("kind: K\ncards: [\n", encoding="utf-8")
    said, code = _both(cli, tmp_path)
    assert code == 1
    assert not any("no card file holds" in line for line in said)


# --- the number of cards -----------------------------------------------------------------------

def test_a_pack_beyond_the_bound_of_cards_is_refused_at_the_card_that_crosses_it(
        cli, tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_CARDS", 2)
    _pack(tmp_path)
    result = cli("check", "--data", tmp_path / "card_data")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 1 and errors[0].endswith(
        "mini/cards/heroes.yaml:18:5: error: A2 the pack holds more than 2 cards; cardgen "
        "reads no further (split the game into several packs)")  # (L1 is read first)


def test_printed_copies_count_towards_their_bound(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_PRINTED", 50)
    pack = _pack(tmp_path)
    cards = pack / "cards" / "heroes.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "    name: Bob\n", "    name: Bob\n    count: 60\n"), encoding="utf-8")
    result = cli("check", "--data", tmp_path / "card_data")
    assert result.exit_code == 1
    assert "error: A2 the pack prints more than 50 cards (each card `count` times)" in \
        result.stderr


def test_an_unreadable_folder_of_the_pack_is_said(cli, tmp_path, monkeypatch):
    pack = _pack(tmp_path)
    real = type(pack).iterdir

    def denied(self):
        if self.name == "cards":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)
    monkeypatch.setattr(type(pack), "iterdir", denied)
    errors = [line for line in cli("check", "--data", tmp_path / "card_data").stderr
              .splitlines() if ": error: " in line]
    assert len(errors) == 1 and errors[0].endswith(
        "mini/cards: error: cannot read the folder: Permission denied"), errors
    assert os.access(pack / "cards", os.R_OK)
