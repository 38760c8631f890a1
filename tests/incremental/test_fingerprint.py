"""cardgen.incremental.fingerprint: an output's key changes exactly when what it is drawn from
changes; a manifest is trusted only whole; an output file only while it is what was written."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from cardgen.incremental import fingerprint
from cardgen.incremental.fingerprint import (file_hash, listing, output_keys, read_manifest,
                                             still_valid)
from cardgen.model.outputs import OUTPUTS
from cardgen.model.settings import BuildSettings


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_listing_names_every_entry_with_its_kind_and_the_unusual_ones(tmp_path):
    pack = tmp_path / "p"
    (pack / "cards" / "sub").mkdir(parents=True)
    (pack / "pack.yaml").write_text("id: p\n")
    (pack / "cards" / ".hidden.yaml").write_text("x\n")
    (pack / "cards" / "sub" / "more.yaml").write_text("y\n")
    (pack / "link.yaml").symlink_to("pack.yaml")
    os.mkfifo(pack / "pipe")
    entries, unusual = listing(pack)
    assert entries == ["cards folder", "link.yaml link", "pack.yaml file", "pipe other",
                       "cards/sub folder", "cards/.hidden.yaml file", "cards/sub/more.yaml file"]
    assert unusual == ["link.yaml", "pipe"]


def test_a_file_hash_is_the_sha256_of_its_bytes_and_a_fresh_change_is_seen(tmp_path):
    path = tmp_path / "card.yaml"
    path.write_bytes(b"name: Ann\n")
    assert file_hash(path) == hashlib.sha256(b"name: Ann\n").hexdigest()
    before = path.stat()
    path.write_bytes(b"name: Bob\n")  # same size, and the old modification time put back
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert file_hash(path) == hashlib.sha256(b"name: Bob\n").hexdigest()


@pytest.fixture
def keys_of(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    return pack, lambda settings=BuildSettings(): output_keys(pack, settings)


def test_every_output_has_a_key_and_the_keys_are_stable(keys_of):
    pack, keys = keys_of
    first = keys()
    assert set(first) == set(OUTPUTS)
    assert keys() == first
    assert output_keys(pack, BuildSettings(), listing(pack)[0]) == first


def test_a_card_edit_changes_the_outputs_drawn_from_the_cards_only(keys_of):
    pack, keys = keys_of
    before = keys()
    edit(pack / "cards" / "heroes.yaml", "name: Ann", "name: Anna")
    after = keys()
    changed = {kind for kind in before if before[kind] != after[kind]}
    assert changed == {kind for kind, o in OUTPUTS.items() if "cards" in o.inputs}
    assert "calibration" not in changed  # drawn from pack.yaml alone


def test_a_rule_text_changes_the_rulebook_and_not_the_cards(keys_of):
    pack, keys = keys_of
    (pack / "rules").mkdir()
    before = keys()  # the folder is in the listing already: only the file's bytes differ
    (pack / "rules").rmdir()
    (pack / "rules").mkdir()
    assert keys() == before
    (pack / "rules" / "rules.yaml").write_text("chapters: []\n", encoding="utf-8")
    after = keys()
    assert after["cards"] != before["cards"]  # a new file: the pack's listing changed
    same_listing = keys()
    (pack / "rules" / "rules.yaml").write_text("chapters: [] \n", encoding="utf-8")
    edited = keys()
    assert {k for k in edited if edited[k] != same_listing[k]} == {"rulebook"}


def test_settings_change_every_key_but_changed_since_and_jobs_change_none(keys_of):
    _, keys = keys_of
    plain = keys()
    a3 = keys(BuildSettings(paper="a3"))
    assert all(a3[kind] != plain[kind] for kind in plain)
    assert keys(BuildSettings(changed_since={"A1": {}}, jobs=4, also=("contact",))) == plain


def test_a_manifest_is_read_only_when_it_is_whole(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    assert read_manifest(folder) == {}  # none: a first build
    good = {"pack": "mini", "built": {"cards": {"key": "k", "files": ["cards.pdf"]}},
            "outputs": {"cards.pdf": "ab"}, "png": {},
            "faces": {"A1": {"front": "x", "back": "y"}},
            "inputs": {}}
    (folder / "manifest.json").write_text(json.dumps(good), encoding="utf-8")
    assert read_manifest(folder) == good
    for broken in ("{not json", "[]", json.dumps({**good, "outputs": {"../x.pdf": "ab"}}),
                   json.dumps({**good, "built": {"cards": {"files": ["/etc/passwd"]}}}),
                   json.dumps({**good, "built": {"cards": {"key": 3, "files": []}}}),
                   json.dumps({**good, "faces": {"A1": "front"}})):
        (folder / "manifest.json").write_text(broken, encoding="utf-8")
        assert set(read_manifest(folder)) <= {"distrusted"}, broken  # nothing of it is used


def test_an_output_is_still_valid_only_while_it_is_what_was_written(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "cards.pdf").write_bytes(b"%PDF cards")
    previous = {"outputs": {"cards.pdf": hashlib.sha256(b"%PDF cards").hexdigest()}}
    assert still_valid(folder, previous, "cards.pdf")
    assert not still_valid(folder, previous, "guide.pdf")  # not in the manifest
    assert not still_valid(folder, {}, "cards.pdf")
    (folder / "cards.pdf").write_bytes(b"%PDF edited")
    assert not still_valid(folder, previous, "cards.pdf")
    (folder / "cards.pdf").unlink()
    (tmp_path / "elsewhere.pdf").write_bytes(b"%PDF cards")
    (folder / "cards.pdf").symlink_to(tmp_path / "elsewhere.pdf")  # right bytes, wrong kind
    assert not still_valid(folder, previous, "cards.pdf")


def test_learnt_hashes_are_kept_in_the_cache_for_the_next_build(tmp_path, monkeypatch):
    from cardgen.incremental import cache
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "READ_ONLY", False)
    monkeypatch.setattr(fingerprint, "RACY", -10**9)  # trust even a file written just now
    monkeypatch.setattr(fingerprint, "_KNOWN", {})
    monkeypatch.setattr(fingerprint, "_CHANGED", set())
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "a.yaml").write_bytes(b"a: 1\n")
    digest = file_hash(folder / "a.yaml")
    fingerprint.keep_hashes()
    stored = json.loads(cache.read("hashes", fingerprint._entry(folder)))
    assert stored["a.yaml"][1] == digest
    fingerprint._KNOWN.clear()  # a new process reads what the last one learnt
    assert fingerprint._known(folder)["a.yaml"][1] == digest
