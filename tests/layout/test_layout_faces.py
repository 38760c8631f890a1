"""cardgen.layout.faces: the layouts a pack uses, scaled to the printed card; faces of single
cards on demand (figures, thumbnails); a kept front made again exactly as it was laid out."""

from __future__ import annotations

import dataclasses

import pytest

from cardgen.diagnostics import Report
from cardgen.layout.card import CardLayouter
from cardgen.layout.faces import FaceBook, keep_front, kept_front, used_layouts
from cardgen.load.pack import load_pack


@pytest.fixture
def mini(make_pack, tmp_path):
    report = Report()
    data = load_pack(make_pack(tmp_path), report)
    assert not report.errors
    return data


def test_only_the_layouts_a_kind_uses_scaled_to_the_card(mini):
    layouter = CardLayouter(mini, Report())
    own = mini.pack.print
    layouts = used_layouts(mini, layouter, own.size(), own.bleed, own.safe)
    assert sorted(layouts) == ["mini-back", "mini-consultant", "stat-card"]
    assert set(mini.layouts) > set(layouts)  # the built-in layouts nobody uses are left out
    big = used_layouts(mini, layouter, (63.5, 88.9), own.bleed, own.safe)
    title, big_title = layouts["stat-card"].regions["name"], big["stat-card"].regions["name"]
    assert big_title.w > title.w


def test_a_face_book_lays_each_face_out_once(mini):
    book = FaceBook(mini)
    card = next(lc for lc in mini.cards if lc.card.id == "A1")
    front = book.front(card)
    assert front.card_id == "A1" and front is book.front(card)
    assert book.back("hero").card_id == "back:hero"
    assert book.back("hero") is book.back("hero") and book.back("K") is not book.back("hero")
    assert book.back("nobody") is None
    assert any(box.text is not None and "Ann" in repr(box.text) for box in front.boxes)


class Shelf:
    """What incremental.kept.KeptFronts offers a front: keep(), entry(), reuse()."""

    icons: dict = {}

    def __init__(self):
        self.kept, self.reused = {}, []

    def keep(self, key, face, boxes, fonts):
        self.kept[key] = (boxes, repr(face.boxes), fonts)

    def entry(self, key):
        return self.kept.get(key)

    def reuse(self, key, face, entry):
        self.reused.append(key)


def test_a_kept_front_is_the_front_that_was_laid_out(mini):
    book = FaceBook(mini)
    card = next(lc for lc in mini.cards if lc.card.id == "A1")
    front = book.front(card)
    layout = book.layouts["stat-card"]
    shelf = Shelf()
    keep_front(shelf, "k", front)
    assert shelf.kept["k"][2] and all(f.startswith("CG-") for f in shelf.kept["k"][2])
    again = kept_front(shelf, "k", card, layout)
    assert again is not front and repr(again.boxes) == repr(front.boxes)
    assert shelf.reused == ["k"]
    assert kept_front(shelf, "other", card, layout) is None


def test_a_kept_front_whose_layout_lost_a_region_is_laid_out_again(mini):
    book = FaceBook(mini)
    card = next(lc for lc in mini.cards if lc.card.id == "A1")
    shelf = Shelf()
    keep_front(shelf, "k", book.front(card))
    layout = book.layouts["stat-card"]
    fewer = dataclasses.replace(layout, regions={name: region for name, region
                                                 in layout.regions.items() if name != "name"})
    assert kept_front(shelf, "k", card, fewer) is None
