"""cardgen.incremental.plan: which packs a command works on, which outputs a build wants, and
which of them are out of date."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.incremental.manifest import write
from cardgen.incremental.plan import select_packs, stale_outputs, wanted_outputs
from cardgen.model.outputs import DEFAULT_KINDS
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import build_pack


def build(pack, out, settings: BuildSettings) -> set[str]:
    """What `cardgen build` does with one pack: its stale outputs built and written; those."""
    stale, keys, previous = stale_outputs(pack, out, settings)
    if stale:
        report, result = build_pack(pack, settings, stale, previous)
        assert result is not None, [d.format() for d in report.items]
        write(out, [(result, keys, previous)])
    return stale


def messages(report: Report) -> list[str]:
    return [d.message for d in report.items]


def test_every_pack_of_the_data_folder_by_name(make_pack, tmp_path):
    make_pack(tmp_path, pack="zeta")
    make_pack(tmp_path, pack="alpha")
    (tmp_path / "card_data" / "notes").mkdir()  # no pack.yaml: not a pack
    report = Report()
    assert [p.name for p in select_packs(tmp_path / "card_data", [], report)] == ["alpha", "zeta"]
    assert [p.name for p in select_packs(tmp_path / "card_data", ["zeta"], report)] == ["zeta"]
    assert not report.items


def test_an_unknown_pack_is_an_error_that_names_the_pack_meant(make_pack, tmp_path):
    make_pack(tmp_path, pack="mini")
    report = Report()
    assert select_packs(tmp_path / "card_data", ["minni", "mini"], report)[0].name == "mini"
    assert len(report.errors) == 1 and report.errors[0].subject == "minni"
    assert "no such pack" in messages(report)[0] and "mini" in messages(report)[0]


@pytest.mark.parametrize("where, says", [
    ("missing", "no such folder"),
    ("empty", "no packs found"),
    ("pack", "this is a pack folder; --data takes the folder that holds the packs"),
])
def test_a_data_folder_that_holds_no_packs_says_why(make_pack, tmp_path, where, says):
    pack = make_pack(tmp_path)
    (tmp_path / "empty").mkdir()
    folder = {"missing": tmp_path / "nowhere", "empty": tmp_path / "empty", "pack": pack}[where]
    report = Report()
    assert select_packs(folder, [], report) == []
    assert len(report.errors) == 1 and says in messages(report)[0]


def test_the_outputs_a_build_wants():
    assert wanted_outputs(BuildSettings()) == set(DEFAULT_KINDS)
    assert wanted_outputs(BuildSettings(only=("tts",))) == {"tts"}
    assert wanted_outputs(BuildSettings(png=True)) == set(DEFAULT_KINDS) | {"png"}
    assert wanted_outputs(BuildSettings(only=("cards",), changed_since={})) == {"cards",
                                                                              "changed"}
    assert wanted_outputs(BuildSettings(also=("contact",))) == set(DEFAULT_KINDS) | {"contact"}
    assert wanted_outputs(BuildSettings(only=("cards",), also=("contact",))) == {"cards"}


def test_without_a_manifest_everything_wanted_is_stale(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    settings = BuildSettings(only=("cards", "calibration"))
    stale, keys, previous = stale_outputs(pack, tmp_path / "out", settings)
    assert stale == {"cards", "calibration"}
    assert previous == {"intact": []}
    assert keys["cards"] != keys["calibration"]


def test_after_a_build_only_what_changed_is_stale(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    out = tmp_path / "out"
    settings = BuildSettings(only=("cards", "calibration"))
    assert build(pack, out, settings) == {"cards", "calibration"}
    stale, _, previous = stale_outputs(pack, out, settings)
    assert stale == set() and previous["intact"] == ["calibration", "cards"]
    heroes = pack / "cards" / "heroes.yaml"
    heroes.write_text(heroes.read_text(encoding="utf-8").replace("name: Ann", "name: Anna"),
                      encoding="utf-8")
    assert stale_outputs(pack, out, settings)[0] == {"cards"}
    (out / "mini" / "calibration.pdf").write_bytes(b"edited by hand")
    stale, _, previous = stale_outputs(pack, out, settings)
    assert stale == {"cards", "calibration"} and previous["intact"] == ["cards"]
    assert stale_outputs(pack, out, BuildSettings(only=("calibration",), paper="a3"))[0] == \
        {"calibration"}  # other settings, another key


def test_a_pack_holding_a_symlink_is_never_trusted(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    out = tmp_path / "out"
    settings = BuildSettings(only=("calibration",))
    assert build(pack, out, settings) == {"calibration"}
    assert stale_outputs(pack, out, settings)[0] == set()
    (pack / "notes.txt").symlink_to(pack / "pack.yaml")
    assert build(pack, out, settings) == {"calibration"}
    assert build(pack, out, settings) == {"calibration"}  # and again: never trusted
