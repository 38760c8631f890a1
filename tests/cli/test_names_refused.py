"""Names and paths the file system refuses (too long, reserved, a folder or a file where the
other belongs, a link) end in one line naming them, in every command that reads or writes:
new, export, balance --apply, build (issue 31); `balance --apply` never writes through a link.
An unreadable pack is "cannot read", not "no such pack"."""

from __future__ import annotations

import os
import shutil

import pytest
from typer.testing import CliRunner

from conftest import MINI, with_points
from cardgen.cli.app import app


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False,
                              env={"COLUMNS": "1000"})


def _one_error(result) -> str:
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines()
             if ": error: " in line or line.startswith("error: ") or "Error" in line]
    assert len(lines) == 1, result.stderr
    return lines[0]


# --- new ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, said", [
    ("a" * 300, "a pack's name has at most 64 characters (this one has 300)"),
    ("con", "Windows keeps this name for a device"),
    ("nul", "Windows keeps this name for a device"),
    ("com1", "Windows keeps this name for a device"),
])
def test_new_refuses_a_name_no_folder_can_have(tmp_path, name, said):
    result = run("new", name, "--data", tmp_path)
    assert result.exit_code == 2  # a usage error, as a name that is no slug
    assert said in result.stderr
    assert not any(tmp_path.iterdir())


def test_new_into_a_data_folder_that_is_a_file(tmp_path):
    (tmp_path / "games").write_text("notes")
    result = run("new", "game", "--data", tmp_path / "games")
    assert result.exit_code == 1
    assert _one_error(result) == (f"error: {tmp_path / 'games'} is a file, but cardgen writes "
                                  "a folder there; move it away or write elsewhere "
                                  "(cardgen does not remove what it did not write)")
    assert (tmp_path / "games").read_text() == "notes"


def test_new_does_not_write_through_a_link_where_the_pack_would_go(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "game").symlink_to(tmp_path / "nowhere")
    result = run("new", "game", "--data", tmp_path / "data")
    assert result.exit_code == 1
    assert _one_error(result) == (f"{tmp_path / 'data' / 'game'}: error: already exists (a "
                                  "link); choose another name or remove it")
    assert not (tmp_path / "nowhere").exists()


def test_new_where_the_paths_would_be_too_long(tmp_path):
    deep = tmp_path  # a folder whose path is 4070 bytes long: the pack's files go beyond 4096
    while len(str(deep)) < 3800:
        deep = deep / ("d" * 200)
    deep = deep / ("e" * (4069 - len(str(deep))))
    deep.mkdir(parents=True)
    result = run("new", "game", "--data", deep)
    assert result.exit_code == 1
    said = _one_error(result)
    assert said.startswith(f"error: cannot make the pack there: {deep / 'game'}/")
    assert said.endswith("the path is longer than 4096 bytes")
    assert not (deep / "game").exists()


# --- export --------------------------------------------------------------------------------------

@pytest.fixture
def data(tmp_path):
    shutil.copytree(MINI, tmp_path / "card_data" / "mini")
    return tmp_path / "card_data"


def test_export_into_a_file_names_it(data, tmp_path):
    (tmp_path / "sheets").write_text("notes")
    result = run("export", "mini", "--data", data, "--csv", tmp_path / "sheets")
    assert result.exit_code == 1
    assert _one_error(result).startswith(f"error: {tmp_path / 'sheets'} is a file, but cardgen "
                                         "writes a folder there")


def test_export_of_a_kind_whose_file_name_is_too_long_names_the_file(data, tmp_path):
    long = "k" * 260
    pack = data / "mini"
    text = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(text.replace("  - id: K\n", f"  - id: {long}\n").replace(
        "kinds: [hero, K]", f"kinds: [hero, {long}]").replace("kinds: [K]", f"kinds: [{long}]"),
        encoding="utf-8")
    cards = pack / "cards" / "consultants.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("kind: K", f"kind: {long}"),
                     encoding="utf-8")
    assert run("check", "mini", "--data", data).exit_code == 0
    result = run("export", "mini", "--data", data, "--csv", tmp_path / "sheets")
    assert result.exit_code == 1
    said = _one_error(result)
    assert said.startswith(f"error: cannot write {tmp_path / 'sheets'}/")
    assert said.endswith(f"is longer than 255 bytes")
    assert not (tmp_path / "sheets").exists()  # nothing of the export was written


# --- balance --apply -------------------------------------------------------------------------------

BALANCE = ("kinds: [hero]\nspecials: [K]\nduel_cap: 200\nsuggest:\n  - field: points\n"
           "    kinds: [hero]\n    by: strength\n    within: kind\n    range: [1, 5]\n")


def _balanced(data):
    return with_points(data / "mini", BALANCE)


def test_balance_apply_does_not_write_through_a_link_inside_the_pack(data, tmp_path):
    pack = _balanced(data)
    (pack / "data").mkdir()
    shutil.move(pack / "cards" / "heroes.yaml", pack / "data" / "heroes.yaml")
    (pack / "cards" / "heroes.yaml").symlink_to("../data/heroes.yaml")
    before = (pack / "data" / "heroes.yaml").read_bytes()
    result = run("balance", "mini", "--data", data, "--games", "3", "--out", tmp_path / "out",
                 "--apply")
    assert result.exit_code == 1
    assert _one_error(result).endswith(
        "mini/cards/heroes.yaml: error: --apply cannot write this file: it is a link (to "
        "'../data/heroes.yaml'); --apply does not write through links: edit the file it "
        "leads to, or put the file itself in its place")
    assert (pack / "data" / "heroes.yaml").read_bytes() == before
    assert (pack / "cards" / "heroes.yaml").is_symlink()
    assert not (tmp_path / "out").exists()


def test_balance_apply_on_a_card_file_linked_from_outside_the_pack(data, tmp_path):
    """It was a traceback (ValueError in relative_to); the link is refused when the pack is
    read, and nothing is written."""
    pack = _balanced(data)
    outside = tmp_path / "heroes.yaml"
    shutil.move(pack / "cards" / "heroes.yaml", outside)
    (pack / "cards" / "heroes.yaml").symlink_to(outside)
    before = outside.read_bytes()
    result = run("balance", "mini", "--data", data, "--games", "3", "--out", tmp_path / "out",
                 "--apply")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"is a link to '{outside}', outside the pack folder" in result.stderr
    assert outside.read_bytes() == before and not (tmp_path / "out").exists()


def test_balance_apply_when_a_card_file_changed_meanwhile(data, tmp_path, monkeypatch):
    """The value is no longer where the file was read: said at the file, nothing written (it
    was a ValueError traceback)."""
    pack = _balanced(data)
    import cardgen.analyse.suggest as suggest
    real = suggest._edited

    def edited_meanwhile(file, items):
        path = pack / "cards" / "heroes.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("points: 3", "points: 4"),
                        encoding="utf-8")
        return real(file, items)
    monkeypatch.setattr(suggest, "_edited", edited_meanwhile)
    result = run("balance", "mini", "--data", data, "--games", "3", "--out", tmp_path / "out",
                 "--apply")
    assert result.exit_code == 1
    assert "--apply cannot write this file: A1 points is no longer where the file was read" \
        in _one_error(result)
    assert not (tmp_path / "out").exists()


# --- build, and packs that cannot be read ----------------------------------------------------------

def test_build_into_an_output_folder_that_is_a_link_is_refused(data, tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "out").symlink_to(tmp_path / "real")
    result = run("build", "--data", data, "--out", tmp_path / "out", "--only", "cards")
    assert result.exit_code == 1
    assert _one_error(result) == (f"error: {tmp_path / 'out'} is a symlink; cardgen does not "
                                  "write through links: give a real folder (--out)")
    assert not any((tmp_path / "real").iterdir())


def test_an_unreadable_pack_is_cannot_read_not_no_such_pack(data, monkeypatch):
    """As root nothing is unreadable: the refusal is what os.listdir raises for a folder
    without permission."""
    real = os.listdir

    def denied(path="."):
        if os.fspath(path).endswith("mini"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)
    monkeypatch.setattr(os, "listdir", denied)
    import cardgen.paths as paths
    monkeypatch.setattr(paths, "find_packs", lambda folder: [])  # glob skips it silently
    import cardgen.incremental.plan as plan
    monkeypatch.setattr(plan, "find_packs", lambda folder: [])
    result = run("check", "mini", "--data", data)
    assert result.exit_code == 1
    assert _one_error(result) == (f"{data / 'mini'}: error: cannot read the pack folder: "
                                  "Permission denied")


@pytest.mark.parametrize("make, said", [
    (lambda p: p.mkdir(), "no pack: the folder holds no pack.yaml (`cardgen new` makes a pack)"),
    (lambda p: p.write_text("x"), "no pack: this is a file, not a folder (a pack is a folder "
     "with a pack.yaml)"),
    (lambda p: p.symlink_to(p.parent / "gone"), "cannot read the pack: it is a link to "),
])
def test_a_named_pack_that_is_no_pack_says_what_it_is(data, make, said):
    make(data / "other")
    result = run("check", "other", "--data", data)
    assert result.exit_code == 1
    assert _one_error(result).startswith(f"{data / 'other'}: error: {said}")
