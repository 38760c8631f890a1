"""cardgen.incremental.cache: entries named by what they were made from, written atomically,
read back exactly, never a failed build when the disk says no."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from cardgen.incremental import cache
from cardgen.incremental.faces import _DRAWING
from cardgen.incremental.kept import _LAYING_OUT


@pytest.fixture
def own(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test's own."""
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "READ_ONLY", False)
    monkeypatch.setattr(cache, "_PRUNED", set())
    return tmp_path / "cache"


def test_the_folder_is_cardgen_cache_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "own"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.folder("fonts") == tmp_path / "own" / "fonts"
    monkeypatch.delenv("CARDGEN_CACHE")
    assert cache.folder("fonts") == tmp_path / "xdg" / "cardgen" / "fonts"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder("fonts") == tmp_path / "home" / ".cache" / "cardgen" / "fonts"


def test_a_key_tells_its_parts_apart():
    assert cache.key("a", 1) == cache.key("a", 1)
    assert len(cache.key("a")) == 64 and int(cache.key("a"), 16) >= 0
    # each part is length-prefixed: moving a boundary between parts changes the key
    assert cache.key(b"ab", b"c") != cache.key(b"a", b"bc")
    # bytes are taken as they are, anything else by its repr
    assert cache.key(b"x") != cache.key("x")
    assert cache.key((1, 2)) != cache.key([1, 2])


def test_the_code_key_follows_the_named_modules():
    assert cache.code_key("units.py") == cache.code_key("units.py")
    assert cache.code_key("units.py") != cache.code_key("paths.py")
    assert cache.code_key("units.py", "paths.py") != cache.code_key("paths.py", "units.py")


@pytest.mark.parametrize("modules", [_LAYING_OUT, _DRAWING], ids=["fronts", "faces"])
def test_every_module_a_kept_entry_depends_on_exists(modules):
    """A module renamed or moved must be renamed here too, or code_key fails every build."""
    package = Path(cache.__file__).resolve().parent.parent
    assert [name for name in modules if not (package / name).is_file()] == []
    assert len(set(modules)) == len(modules)
    assert cache.code_key(*modules)


def test_an_entry_reads_back_as_written_and_leaves_no_temporary_file(own):
    assert cache.read("demo", "one") is None and not cache.has("demo", "one")
    assert cache.write("demo", "one", b"\x00bytes\xff")
    assert cache.has("demo", "one")
    assert cache.read("demo", "one") == b"\x00bytes\xff"
    assert sorted(p.name for p in (own / "demo").iterdir()) == ["one"]
    assert cache.write("demo", "one", b"again")
    assert cache.read("demo", "one") == b"again"


def test_a_pickled_entry_reads_back_and_one_that_will_not_pickle_is_no_entry(own):
    import pickle
    cache.write_pickled("demo", "tree", {"a": [1, 2.5, "x"], "b": (None, b"y")})
    assert pickle.loads(cache.read("demo", "tree")) == {"a": [1, 2.5, "x"], "b": (None, b"y")}
    cache.write_pickled("demo", "bad", {"f": lambda: 1})  # no error: the build goes on
    assert not cache.has("demo", "bad")
    assert [p.name for p in (own / "demo").iterdir()] == ["tree"]


def test_a_read_only_process_writes_nothing(own, monkeypatch):
    monkeypatch.setattr(cache, "READ_ONLY", True)
    assert cache.write("demo", "one", b"x") is False
    cache.write_pickled("demo", "two", [1])
    assert not own.exists()


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("CARDGEN_CACHE", str(blocker))
    assert cache.write("demo", "one", b"x") is False
    assert cache.read("demo", "one") is None


def test_old_entries_are_pruned_and_used_ones_kept_young(own):
    assert cache.write("demo", "old", b"1") and cache.write("demo", "used", b"2")
    folder = own / "demo"
    long_ago = time.time() - (cache.MAX_AGE_DAYS + 1) * 86400
    two_days_ago = time.time() - 2 * 86400
    os.utime(folder / "old", (long_ago, long_ago))
    os.utime(folder / "used", (two_days_ago, two_days_ago))
    assert cache.read("demo", "used") == b"2"  # reading it makes it young again
    assert (folder / "used").stat().st_mtime > time.time() - 86400
    cache._PRUNED.clear()  # a new process: its first write prunes the folder
    assert cache.write("demo", "new", b"3")
    assert sorted(p.name for p in folder.iterdir()) == ["new", "used"]
