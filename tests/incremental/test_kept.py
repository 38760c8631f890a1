"""cardgen.incremental.kept: laid-out fronts kept between builds, under a key of everything a
front is made of — a changed card is laid out again, the others are taken as they were."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.incremental import cache
from cardgen.incremental.kept import KIND, KeptFronts
from cardgen.load.pack import load_pack
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.faces import layout_faces


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDGEN_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "READ_ONLY", False)


def lay_out(pack, settings=BuildSettings()):
    """layout_faces of the pack as a check runs it: (the KeptFronts it used, {card id: key},
    its printed faces)."""
    report = Report()
    data = load_pack(pack, report)
    made = []

    def fronts(*args):
        made.append(KeptFronts(*args))
        return made[-1]
    printed, _, layouter = layout_faces(data, report, settings, prepare=False, fronts=fronts)
    assert not report.errors, [d.format() for d in report.items]
    kept = made[0]
    layouts = {lc.card.id: lc for lc in data.cards}
    keys = {}
    for card_id, lc in layouts.items():
        layout = layouter_layout(layouter, data, lc)
        keys[card_id] = kept.key(lc, layout, layouter.uniform_key(layout))
    return kept, keys, printed


def layouter_layout(layouter, data, lc):
    from cardgen.layout.faces import used_layouts
    pack_print = data.pack.print
    layouts = used_layouts(data, layouter, pack_print.size(), pack_print.bleed, pack_print.safe)
    return layouts[data.kind(lc.kind).front]


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_first_build_keeps_every_front_and_the_next_one_finds_them(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    first, keys, printed = lay_out(pack)
    assert first.old == {} and set(first.new) == set(keys.values())
    assert len(set(keys.values())) == len(keys) == 4  # a key per card
    second, again, printed_again = lay_out(pack)
    assert again == keys
    assert set(second.old) == set(keys.values())  # read from the cache
    assert all(second.entry(key) is not None for key in keys.values())
    assert [repr(p.front.boxes) for p in printed_again] == [repr(p.front.boxes) for p in printed]
    # a kept front knows its description without describing the face again
    assert all(second.described(p.front) == repr(p.front.boxes) for p in printed_again)
    assert second.described(printed_again[0].back) is None  # backs are not kept


def test_a_changed_card_gets_a_new_key_and_the_others_keep_theirs(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    _, keys, _ = lay_out(pack)
    edit(pack / "cards" / "heroes.yaml", "name: Ann", "name: Anna")
    kept, changed, _ = lay_out(pack)
    assert {card for card in keys if keys[card] != changed[card]} == {"A1"}
    assert kept.entry(changed["A1"]) is None
    assert set(kept.new) == set(changed.values())  # the new front is kept for next time


def test_the_pack_and_the_card_size_are_part_of_every_key(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    kept, keys, _ = lay_out(pack)
    bigger, big_keys, _ = lay_out(pack, BuildSettings(card_size=(63.5, 88.9)))
    assert bigger.name != kept.name and bigger.old == {}
    assert not set(big_keys.values()) & set(keys.values())
    edit(pack / "pack.yaml", "label: Hero", "label: Heroine")  # a kind's label: every front
    _, relabelled, _ = lay_out(pack)
    assert all(relabelled[card] != keys[card] for card in keys)


def test_a_damaged_entry_is_no_entry(make_pack, tmp_path):
    pack = make_pack(tmp_path)
    kept, keys, _ = lay_out(pack)
    assert cache.write(KIND, kept.name, b"not a pickle")
    again, same, _ = lay_out(pack)
    assert same == keys and again.old == {}
    assert lay_out(pack)[0].old.keys() == set(keys.values())  # written whole again


def test_nothing_is_written_when_the_fronts_are_the_same(make_pack, tmp_path, monkeypatch):
    pack = make_pack(tmp_path)
    lay_out(pack)
    written = []
    monkeypatch.setattr(cache, "write_pickled",
                        lambda kind, *rest: written.append(kind) if kind == KIND else None)
    lay_out(pack)
    assert written == []
    edit(pack / "cards" / "heroes.yaml", "name: Ann", "name: Anna")
    lay_out(pack)
    assert written == [KIND]
