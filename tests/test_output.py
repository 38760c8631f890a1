"""The write stage: all files land together or none does; symlinks are replaced, never followed.

Tests run as root, where chmod does not stop writes: a read-only folder is simulated by making
tempfile.mkstemp raise PermissionError, a full disk by making os.fsync / os.fdopen raise ENOSPC.
"""

from __future__ import annotations

import errno
import os
import tempfile

import pytest

from cardgen import output
from cardgen.output import OutputError, write_all


def temp_files(root):
    return sorted(p.name for p in root.rglob("*.tmp"))


@pytest.fixture
def out(tmp_path):
    root = tmp_path / "out"
    write_all(root, {"pack/cards.pdf": b"old cards", "pack/manifest.json": b"{}\n",
                     "other/keep.txt": b"keep me"})
    return root


def test_writes_files_and_folders(tmp_path):
    root = tmp_path / "out"
    written = write_all(root, {"a.txt": b"A", "p/q/b.bin": b"\x00\x01"})
    assert (root / "a.txt").read_bytes() == b"A"
    assert (root / "p" / "q" / "b.bin").read_bytes() == b"\x00\x01"
    assert sorted(written) == sorted([root / "a.txt", root / "p" / "q" / "b.bin"])
    assert temp_files(root) == []


def test_files_are_world_readable(tmp_path):
    root = tmp_path / "out"
    write_all(root, {"a.txt": b"A"})
    assert (root / "a.txt").stat().st_mode & 0o777 == 0o644


def test_second_write_replaces_and_keeps_other_files(out, tree):
    before = tree(out)
    write_all(out, {"pack/cards.pdf": b"new cards"})
    after = tree(out)
    assert after["pack/cards.pdf"] == b"new cards"
    assert {k: v for k, v in after.items() if k != "pack/cards.pdf"} == \
        {k: v for k, v in before.items() if k != "pack/cards.pdf"}
    assert temp_files(out) == []


def test_symlink_at_a_file_name_is_replaced_not_followed(out, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_bytes(b"do not touch")
    (out / "pack" / "cards.pdf").unlink()
    (out / "pack" / "cards.pdf").symlink_to(outside)
    write_all(out, {"pack/cards.pdf": b"new cards"})
    target = out / "pack" / "cards.pdf"
    assert not target.is_symlink() and target.read_bytes() == b"new cards"
    assert outside.read_bytes() == b"do not touch"


def test_dangling_symlink_at_a_file_name_is_replaced(out, tmp_path):
    (out / "pack" / "x.pdf").symlink_to(tmp_path / "nowhere" / "x.pdf")
    write_all(out, {"pack/x.pdf": b"x"})
    assert not (out / "pack" / "x.pdf").is_symlink()
    assert not (tmp_path / "nowhere").exists()


def test_symlinked_sub_folder_is_replaced_by_a_real_folder(out, tmp_path, tree):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "cards.pdf").write_bytes(b"theirs")
    before = tree(elsewhere)
    (out / "linked").symlink_to(elsewhere, target_is_directory=True)
    write_all(out, {"linked/cards.pdf": b"ours", "linked/png/A1.png": b"png"})
    assert (out / "linked").is_dir() and not (out / "linked").is_symlink()
    assert (out / "linked" / "cards.pdf").read_bytes() == b"ours"
    assert (out / "linked" / "png" / "A1.png").read_bytes() == b"png"
    assert tree(elsewhere) == before


def test_output_root_that_is_a_symlink_is_refused(tmp_path, tree):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "out").symlink_to(real, target_is_directory=True)
    with pytest.raises(OutputError, match="symlink"):
        write_all(tmp_path / "out", {"a.txt": b"A"})
    assert tree(real) == {}


def test_a_folder_at_a_file_name_is_an_error_and_kept(out, tree):
    (out / "pack" / "rulebook.pdf").mkdir()
    (out / "pack" / "rulebook.pdf" / "junk").write_bytes(b"j")
    before = tree(out)
    with pytest.raises(OutputError, match="rulebook.pdf is a folder, but cardgen writes a "
                       "file there"):
        write_all(out, {"pack/cards.pdf": b"new", "pack/rulebook.pdf": b"%PDF"})
    assert tree(out) == before and temp_files(out) == []


def test_a_file_at_a_folder_name_is_an_error_and_kept(out, tree):
    (out / "pack" / "png").write_bytes(b"mine")
    before = tree(out)
    with pytest.raises(OutputError, match="png is a file, but cardgen writes a folder there"):
        write_all(out, {"pack/png/A1.png": b"png"})
    assert tree(out) == before


def _fail_on_second(monkeypatch, name):
    real = getattr(os, name)
    calls = {"n": 0}

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(output.os, name, failing)
    return calls


@pytest.mark.parametrize("failing", ["fsync", "fdopen"])
def test_failure_midway_leaves_the_folder_as_it_was(out, tree, monkeypatch, failing):
    before = tree(out)
    calls = _fail_on_second(monkeypatch, failing)
    with pytest.raises(OutputError, match="No space left on device"):
        write_all(out, {"pack/cards.pdf": b"new cards", "pack/manifest.json": b"new",
                        "pack/printshop.pdf": b"new shop"})
    assert calls["n"] == 2
    assert temp_files(out) == []
    assert tree(out) == before


def test_failure_midway_creates_no_new_folders(out, tree, monkeypatch):
    before = tree(out)
    _fail_on_second(monkeypatch, "fsync")
    with pytest.raises(OutputError):
        write_all(out, {"a-first.txt": b"1", "newpack/cards.pdf": b"2"})
    assert tree(out) == before


def test_failure_on_the_last_file_writes_none(tmp_path, tree, monkeypatch):
    root = tmp_path / "out"
    write_all(root, {"a": b"1", "b": b"2", "c": b"3"})
    before = tree(root)
    real = os.fsync
    calls = {"n": 0}

    def failing(fd):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.EIO, "Input/output error")
        return real(fd)

    monkeypatch.setattr(output.os, "fsync", failing)
    with pytest.raises(OutputError, match="Input/output error"):
        write_all(root, {"a": b"x", "b": b"y", "c": b"z"})
    assert tree(root) == before


def test_read_only_folder_is_an_output_error(out, tree, monkeypatch):
    before = tree(out)

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(output.tempfile, "mkstemp", refuse)
    (out / "pack").chmod(0o555)  # what a user does; only the patch above makes it bite as root
    try:
        with pytest.raises(OutputError) as info:
            write_all(out, {"pack/cards.pdf": b"new"})
    finally:
        (out / "pack").chmod(0o755)
    assert "Permission denied" in str(info.value) and str(out) in str(info.value)
    assert tree(out) == before


def test_read_only_on_the_second_file_discards_the_first(out, tree, monkeypatch):
    before = tree(out)
    real = tempfile.mkstemp
    calls = {"n": 0}

    def refuse_second(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real(*args, **kwargs)

    monkeypatch.setattr(output.tempfile, "mkstemp", refuse_second)
    with pytest.raises(OutputError):
        write_all(out, {"pack/cards.pdf": b"new", "pack/manifest.json": b"new"})
    assert temp_files(out) == [] and tree(out) == before


def test_output_root_that_is_a_file(tmp_path):
    (tmp_path / "out").write_bytes(b"a file")
    with pytest.raises(OutputError):
        write_all(tmp_path / "out", {"a.txt": b"A"})
    assert (tmp_path / "out").read_bytes() == b"a file"


@pytest.mark.parametrize("name", ["../escape.txt", "pack/../../escape.txt", "pack/../x/../../e",
                                  "/tmp/absolute.txt"])
def test_paths_outside_the_folder_are_refused(tmp_path, tree, name):
    root = tmp_path / "out"
    root.mkdir()
    with pytest.raises(OutputError, match="outside"):
        write_all(root, {"a-first.txt": b"1", name: b"evil", "z-last.txt": b"2"})
    assert tree(root) == {}
    assert not (tmp_path / "escape.txt").exists() and not (tmp_path / "e").exists()
