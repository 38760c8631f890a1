"""Manifests are files cardgen wrote, read as untrusted input (issue 31): the one handed to
`--changed-since` (anyone may give any file) and the last build's in the output folder. A
manifest of the wrong shape, depth, size or format is one line naming the file, never a
traceback; the last build's is then not used (everything is made again, nothing it lists is
removed), with a note."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from conftest import build_mini
from cardgen.incremental import fingerprint
from cardgen.incremental.manifest import ManifestError, faces_since


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The mini pack built once (cards only) and its manifest."""
    return build_mini(tmp_path_factory.mktemp("built"))


@pytest.fixture
def copy(built, tmp_path):
    shutil.copytree(built, tmp_path, dirs_exist_ok=True)
    return tmp_path


def _body(root):
    return json.loads((root / "out" / "mini" / "manifest.json").read_text(encoding="utf-8"))


def test_a_manifest_names_its_format(built):
    assert _body(built)["format"] == fingerprint.FORMAT == 1


def test_the_faces_of_a_good_manifest(built):
    faces = faces_since(built / "out" / "mini" / "manifest.json", "mini")
    assert sorted(faces) == ["A1", "A2", "B1", "L1"]


def _damaged(root, text: str):
    path = root / "printed.json"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("damage, said", [
    (lambda b: "[" * 100_000 + "]" * 100_000, "cannot read it as a manifest.json (nested too "
     "deep, or a number too long)"),
    (lambda b: '{"pack": "mini", "faces": {"A1": ' + "[" * 5000 + "]" * 5000 + "}}",
     "cannot read it as a manifest.json (nested too deep, or a number too long)"),
    (lambda b: json.dumps({**b, "faces": {"A1": "front"}}), "not a manifest.json as cardgen "
     "writes it ('faces' is not a mapping of card ids to their front and back)"),
    (lambda b: json.dumps({**b, "faces": {"A1": {"front": 1, "back": []}}}), "not a "
     "manifest.json as cardgen writes it ('faces' is not a mapping of card ids to their front "
     "and back)"),
    (lambda b: json.dumps({**b, "format": 2}), "not a manifest.json as cardgen writes it (it "
     "is of manifest format 2; this cardgen reads format 1)"),
    (lambda b: json.dumps({**b, "built": {"cards": {"files": ["../../x"]}}}), "not a "
     "manifest.json as cardgen writes it ('built' is not as cardgen writes it)"),
    (lambda b: json.dumps({**b, "outputs": {"cards.pdf": 7}}), "not a manifest.json as cardgen "
     "writes it ('outputs' is not a mapping of file names to hashes)"),
    (lambda b: json.dumps(b)[:-40], "cannot read it as a manifest.json"),
    (lambda b: '{"pack": "mini", "faces": {"x": 1' + "0" * 5000 + "}}",
     "cannot read it as a manifest.json (nested too deep, or a number too long)"),
])
def test_a_changed_since_manifest_of_the_wrong_shape_depth_or_format_is_named(
        built, tmp_path, damage, said):
    path = _damaged(tmp_path, damage(_body(built)))
    with pytest.raises(ManifestError) as info:
        faces_since(path, "mini")
    assert str(info.value).startswith(str(path))
    assert said in str(info.value)


def test_a_changed_since_manifest_too_large_is_refused_before_it_is_read(built, tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(fingerprint, "MAX_MANIFEST_BYTES", 100)
    path = _damaged(tmp_path, json.dumps(_body(built)))
    with pytest.raises(ManifestError) as info:
        faces_since(path, "mini")
    assert str(info.value) == (f"{path}: {path.stat().st_size} bytes, more than a "
                               "manifest.json may hold (100)")


@pytest.mark.parametrize("make, what", [(lambda p: p.mkdir(), "a folder"),
                                        (lambda p: os.mkfifo(p), "no regular file")])
def test_a_folder_or_a_pipe_as_the_manifest_is_named(tmp_path, make, what):
    path = tmp_path / "printed.json"
    make(path)
    with pytest.raises(ManifestError) as info:
        faces_since(path, "mini")
    assert str(info.value) == f"{path}: cannot read it as a manifest.json: it is {what}"


def test_the_cli_says_it_in_one_usage_error_naming_the_file(copy):
    from typer.testing import CliRunner
    from cardgen.cli.app import app
    path = _damaged(copy, "[" * 100_000 + "]" * 100_000)  # a traceback before issue 31
    result = CliRunner().invoke(app, ["build", "mini", "--data", str(copy / "card_data"),
                                      "--out", str(copy / "out"), "--only", "cards",
                                      "--changed-since", str(path)],
                                env={"COLUMNS": "1000"}, catch_exceptions=False)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "--changed-since" in result.stderr and "printed.json" in result.stderr
    assert "nested too deep" in result.stderr


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000,
                                  '{"format": 7, "built": {}}',
                                  '{"faces": {"A1": "x"}, "built": {}}'])
def test_a_damaged_last_manifest_is_not_used_and_said(cli, copy, text):
    out = copy / "out"
    (out / "mini" / "notes.txt").write_text("mine")
    (out / "mini" / "manifest.json").write_text(text, encoding="utf-8")
    result = cli("build", "--data", copy / "card_data", "--out", out, "--only", "cards",
                 "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert f"mini note: {out / 'mini' / 'manifest.json'} is not a manifest this cardgen " \
           "wrote (" in result.stdout
    assert "it is not used: every output is made again, and no file it lists is removed" in \
        result.stdout
    assert "up to date" not in result.stdout
    body = _body(copy)
    assert body["format"] == 1 and (out / "mini" / "notes.txt").read_text() == "mine"
    assert all((out / "mini" / name).is_file() for name in body["outputs"])
