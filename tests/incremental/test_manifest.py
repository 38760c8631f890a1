"""cardgen.incremental.manifest: what a build leaves for the next one — manifest.json, the content
keys that keep a rulebook or boards as they are, the cards whose faces changed."""

from __future__ import annotations

import json
from types import SimpleNamespace

from cardgen.diagnostics import Report
from cardgen.incremental.manifest import (changed_cards, content_key, owned_files, unchanged,
                                          write)
from cardgen.incremental.plan import stale_outputs
from cardgen.load.pack import load_pack
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import build_pack


def test_changed_cards_name_the_sides_that_differ_in_print_order():
    before = {"A1": {"front": "f1", "back": "b"}, "A2": {"front": "f2", "back": "b"},
              "A3": {"front": "f3", "back": "b"}, "B1": {"front": "g", "back": "c"}}
    now = {"A3": {"front": "f3", "back": "b2"}, "A1": {"front": "f1", "back": "b"},
           "N1": {"front": "n", "back": "b"}, "A2": {"front": "F2", "back": "b"},
           "B1": {"front": "G", "back": "C"}}
    assert changed_cards(None, now, before) == [("A3", "back"), ("N1", "new"), ("A2", "front"),
                                                ("B1", "front and back")]
    assert changed_cards(None, before, before) == []


def test_owned_files_are_every_file_a_manifest_lists():
    body = {"outputs": {"cards.pdf": "1", "guide.pdf": "2"},
            "built": {"png": {"files": ["png/A1-front.png", 7]}, "boards": {"files": []},
                      "odd": "not an entry"}}
    assert owned_files(body) == {"cards.pdf", "guide.pdf", "png/A1-front.png"}
    assert owned_files({}) == set()


def test_an_output_stays_only_when_its_content_key_is_the_same_and_its_files_intact():
    previous = {"built": {"rulebook": {"content": "K", "files": ["rulebook.pdf"]}},
                "intact": ["rulebook"]}
    result = SimpleNamespace(built={})
    assert not unchanged(result, "rulebook", "other", previous) and result.built == {}
    assert not unchanged(result, "rulebook", "K", {**previous, "intact": []})
    assert not unchanged(result, "boards", "K", previous)
    assert not unchanged(result, "rulebook", "K", None)
    assert unchanged(result, "rulebook", "K", previous)
    assert result.built == {"rulebook": ["rulebook.pdf"]}


def _loaded(pack):
    report = Report()
    data = load_pack(pack, report)
    assert data is not None and not report.errors, [d.format() for d in report.items]
    return data


def test_a_stat_does_not_touch_the_rulebook_key_but_a_name_and_the_paper_do(make_pack,
                                                                             tmp_path):
    pack = make_pack(tmp_path)
    data = _loaded(pack)
    settings = BuildSettings()
    key = content_key(data, "rulebook", settings)
    assert key == content_key(_loaded(pack), "rulebook", settings)
    assert content_key(data, "boards", settings) != key
    assert content_key(data, "rulebook", BuildSettings(paper="letter")) != key
    heroes = pack / "cards" / "heroes.yaml"
    text = heroes.read_text(encoding="utf-8")
    heroes.write_text(text.replace("krank: 4", "krank: 5", 1), encoding="utf-8")
    assert content_key(_loaded(pack), "rulebook", settings) == key
    # a card the rulebook pictures shows its stats: then they count
    pictured = content_key(data, "rulebook", settings, lambda d: {"A1"})
    assert content_key(_loaded(pack), "rulebook", settings, lambda d: {"A1"}) != pictured
    heroes.write_text(text.replace("name: Ann", "name: Anna", 1), encoding="utf-8")
    assert content_key(_loaded(pack), "rulebook", settings) != key


def test_a_rule_file_changes_the_rulebook_key_and_not_the_boards_key(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    data = _loaded(pack)
    settings = BuildSettings()
    rulebook, boards = (content_key(data, kind, settings) for kind in ("rulebook", "boards"))
    (pack / "rules").mkdir()
    (pack / "rules" / "notes.yaml").write_text("title: Notizen\nblocks:\n  - p: Ein Satz.\n",
                                               encoding="utf-8")
    # a loaded pack is the files as they were: its keys are worked out once (the build asks
    # twice); the pack loaded again has the new file
    assert content_key(data, "rulebook", settings) == rulebook
    data = _loaded(pack)
    assert content_key(data, "rulebook", settings) != rulebook
    assert content_key(data, "boards", settings) == boards


def test_a_chosen_deck_of_the_same_pack_has_its_own_rulebook_key(make_pack, tmp_path):
    """The key is kept with the loaded pack, and a copy of it holding other cards (a chosen
    deck shares the pack's worked-out results) gets its own."""
    import dataclasses
    data = _loaded(make_pack(tmp_path))
    settings = BuildSettings()

    def pictured(pack):  # every card, as house rules picture the chosen ones
        return {lc.card.id for lc in pack.cards}
    whole = content_key(data, "rulebook", settings, pictured)
    fewer = dataclasses.replace(data, cards=data.cards[:1])
    assert fewer.derived is data.derived
    assert content_key(fewer, "rulebook", settings, pictured) != whole
    assert content_key(data, "rulebook", settings, pictured) == whole


def test_the_manifest_lists_what_was_written_and_a_later_build_removes_what_it_no_longer_lists(
        make_pack, tmp_path):
    pack = make_pack(tmp_path)
    settings = BuildSettings(only=("cards", "calibration"))

    def build(out, previous=None):
        stale, keys, last = stale_outputs(pack, out, settings)
        previous = last if previous is None else previous
        report, result = build_pack(pack, settings, stale, previous)
        assert result is not None, [d.format() for d in report.items]
        write(out, [(result, keys, previous)])
        return result, (out / "mini" / "manifest.json").read_bytes()

    first, written = build(tmp_path / "out")
    body = json.loads(written)
    assert body["pack"] == "mini" and body["cards"] == {"hero": 3, "K": 1}
    assert body["built"]["cards"]["files"] == ["cards.pdf", "guide.pdf"]
    assert set(body["outputs"]) == {"cards.pdf", "guide.pdf", "calibration.pdf"}
    assert sorted(body["faces"]) == sorted(lc.card.id for lc in first.data.cards)
    assert "card_data/mini/pack.yaml" in body["inputs"]  # relative: no machine's folders
    assert build(tmp_path / "elsewhere")[1] == written  # no timestamps: the same bytes
    # a file the last manifest owned and this one does not list is removed
    out = tmp_path / "out"
    (out / "mini" / "old.pdf").write_bytes(b"left from an earlier build")
    (out / "mini" / "mine.pdf").write_bytes(b"the user's own file")
    build(out, {**body, "outputs": {**body["outputs"], "old.pdf": "0"}})
    assert not (out / "mini" / "old.pdf").exists()
    assert (out / "mini" / "mine.pdf").exists() and (out / "mini" / "cards.pdf").exists()
