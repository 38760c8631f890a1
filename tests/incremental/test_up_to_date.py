"""The up-to-date shortcut: it compares the set of the pack's files and their kinds as well as
their contents, and a pack holding something unusual (a symlink, a pipe) is built and checked
again instead of trusted."""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import MINI

BROKEN = "kind: hero\ncards:\n  - id: A4\n    name: Dan\n    krank: many\n"


@pytest.fixture
def built(cli, tmp_path):
    """(pack folder, run build) after one successful build."""
    pack = tmp_path / "card_data" / "mini"
    shutil.copytree(MINI, pack)

    def build(*args):
        return cli("build", "--data", pack.parent, "--out", tmp_path / "out", "--jobs", "1",
                   "--only", "cards", *args)

    first = build()
    assert first.exit_code == 0, first.output
    again = build()
    assert "mini: up to date" in again.stdout
    return pack, build


def test_a_hidden_card_file_is_read_so_it_counts(built):
    pack, build = built
    (pack / "cards" / ".more.yaml").write_text(BROKEN, encoding="utf-8")
    result = build()
    assert result.exit_code == 1 and "up to date" not in result.stdout
    assert ".more.yaml:" in result.stderr


def test_a_card_file_moved_into_a_sub_folder_is_noticed(built):
    pack, build = built
    (pack / "cards" / "old").mkdir()
    (pack / "cards" / "consultants.yaml").rename(pack / "cards" / "old" / "consultants.yaml")
    result = build()  # cards/old/ is not read: kind K has no cards now, which is an error
    assert result.exit_code == 1 and "up to date" not in result.stdout
    assert "no card file holds cards of this kind" in result.stderr, result.stderr


def test_a_file_turned_into_a_symlink_is_checked_again(built, tmp_path):
    pack, build = built
    elsewhere = tmp_path / "elsewhere.yaml"
    shutil.copy(pack / "cards" / "heroes.yaml", elsewhere)
    (pack / "cards" / "heroes.yaml").unlink()
    (pack / "cards" / "heroes.yaml").symlink_to(elsewhere)
    result = build()
    assert "up to date" not in result.stdout  # same content, but not trusted
    # and a link leading out of the pack is refused (issue 31)
    assert result.exit_code == 1 and "outside the pack folder" in result.stderr


def test_a_pipe_in_the_pack_is_not_trusted(built):
    pack, build = built
    os.mkfifo(pack / "cards" / "pipe.yaml")
    result = build()
    assert "up to date" not in result.stdout
    assert result.exit_code == 0, result.output


def test_an_unchanged_pack_stays_up_to_date(built):
    _, build = built
    assert "mini: up to date" in build().stdout


@pytest.mark.parametrize("body", ['{"built": [1, 2]}', '{"built": {"cards": "x"}}',
                                  '{"built": {"cards": {"files": "cards.pdf"}}}',
                                  '{"outputs": {"x": 5}}', '{"png": [3], "faces": "x"}',
                                  '{"built": {"cards": {"files": ["../../elsewhere.pdf"]}}}',
                                  '[]', '{"built": {"cards": {"files": [null]}}}'])
def test_a_damaged_manifest_is_no_manifest(built, tmp_path, body):
    """It was a traceback; now the pack is built again and nothing outside is touched."""
    pack, build = built
    (tmp_path / "elsewhere.pdf").write_bytes(b"not ours")
    (tmp_path / "out" / "mini" / "manifest.json").write_text(body, encoding="utf-8")
    result = build()
    assert result.exit_code == 0, result.output
    assert "up to date" not in result.stdout
    assert (tmp_path / "out" / "mini" / "cards.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "elsewhere.pdf").read_bytes() == b"not ours"


def test_only_the_contact_page_that_changed_is_drawn_again(cli, tmp_path, monkeypatch):
    """cardgen watch keeps contact.pdf and a PNG per page current: after one card's edit only
    its page's PNG is made again; a PNG the user deleted comes back."""
    import cardgen.documents.deck_sheet as deck_sheet
    from conftest import copy_shipped
    pack = copy_shipped(tmp_path, "quartett")
    drawn: list[set] = []
    real = deck_sheet.page_pngs

    def recording(pdf, stem, dpi=100, only=None):
        out = real(pdf, stem, dpi, only)
        drawn.append(set(out))
        return out
    monkeypatch.setattr(deck_sheet, "page_pngs", recording)
    out = tmp_path / "out"

    def build():
        result = cli("build", "--data", pack.parent, "--out", out, "--jobs", "1",
                     "--only", "contact")
        assert result.exit_code == 0, result.output
    build()
    pages = sorted(drawn[-1])
    assert len(pages) >= 2
    cards = pack / "cards" / "4-kreuz.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Kreuz Ass", "Kreuz As"),
                     encoding="utf-8")
    build()
    assert drawn[-1] == {pages[-1]}  # the last card is on the last page
    assert all((out / "quartett" / name).is_file() for name in pages)
    (out / "quartett" / pages[0]).unlink()
    build()
    assert pages[0] in drawn[-1] and (out / "quartett" / pages[0]).is_file()


def test_file_hashes_are_kept_between_builds_and_a_change_is_seen(tmp_path, monkeypatch):
    """fingerprint.file_hash keeps what it hashed (cardgen's cache): a later process reads a
    file again only when its size, times or inode changed."""
    from cardgen.incremental import fingerprint
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(fingerprint, "_KNOWN", {})
    monkeypatch.setattr(fingerprint, "_CHANGED", set())
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"one")
    first = fingerprint.file_hash(path)
    fingerprint.keep_hashes()
    assert not (tmp_path / "cache" / "hashes").exists()  # just written: never trusted

    monkeypatch.setattr(fingerprint, "RACY", -1)  # as if written long ago
    fingerprint.file_hash(path)
    fingerprint.keep_hashes()
    monkeypatch.setattr(fingerprint, "_KNOWN", {})  # a new process
    reads = []
    original = type(path).read_bytes
    monkeypatch.setattr(type(path), "read_bytes",
                        lambda self: (self == path and reads.append(self.name)) or original(self))
    assert fingerprint.file_hash(path) == first and reads == []
    path.write_bytes(b"two")  # the same size, new times
    assert fingerprint.file_hash(path) != first and reads == ["photo.jpg"]
