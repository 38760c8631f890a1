"""cardgen.validate.catalogue: card lists as people write them ("A1-A4, C1, F1–F12, Q1*, K")
read as card IDs, and IDs written back as such a list."""

from __future__ import annotations

import pytest

from cardgen.validate.catalogue import Catalogue, ItemError, and_list, compress, expand, split_items

CATALOGUE = Catalogue.of(
    [(f"A{n}", "hero") for n in range(1, 6)] + [("C1", "hero")]
    + [(f"F{n}", "friend") for n in range(1, 13)]
    + [("Q1a", "quiz"), ("Q1b", "quiz"), ("Q1c", "quiz"), ("Q2", "quiz")]
    + [(f"D{n:02d}", "dice") for n in range(1, 13)]
    + [("PIK-2", "suit"), ("PIK-3", "suit"), ("PIK-10", "suit"), ("A1", "duplicate")])


def test_the_catalogue_keeps_pack_order_and_the_first_of_a_duplicate():
    assert CATALOGUE.order[:3] == ["A1", "A2", "A3"]
    assert CATALOGUE.kind_of["A1"] == "hero" and CATALOGUE.order.count("A1") == 1
    assert CATALOGUE.kinds["quiz"] == ["Q1a", "Q1b", "Q1c", "Q2"]
    assert CATALOGUE.position()["C1"] == 5


def test_items_are_split_at_commas_and_spaces():
    assert split_items(" A1-A4, C1 ,F2  K ") == ["A1-A4", "C1", "F2", "K"]
    assert split_items("") == []


@pytest.mark.parametrize("item, ids", [
    ("C1", ["C1"]),
    ("A2-A4", ["A2", "A3", "A4"]),
    ("F10–F12", ["F10", "F11", "F12"]),          # an en dash
    ("D09..D11", ["D09", "D10", "D11"]),          # zero-padded, with ..
    ("Q1a-Q1c", ["Q1a", "Q1b", "Q1c"]),           # a letter after a number
    ("PIK-2-PIK-3", ["PIK-2", "PIK-3"]),          # a hyphen inside the IDs
    ("Q1*", ["Q1a", "Q1b", "Q1c"]),
    ("F?", [f"F{n}" for n in range(1, 10)]),
    ("quiz", ["Q1a", "Q1b", "Q1c", "Q2"]),        # a kind: all its cards
])
def test_an_item_names_its_cards_in_its_order(item, ids):
    assert expand(item, CATALOGUE) == ids


@pytest.mark.parametrize("item, says", [
    ("A4-A7", "'A4-A7': the pack has no card A6, A7"),
    ("F1-F40", "'F1-F40': the pack has no card F13 … F40"),
    ("Z*", "'Z*' matches no card"),
    ("A6", "no card 'A6'"),
    ("F13x", "no card 'F13x'"),
    ("  ", "an empty item"),
])
def test_an_item_that_names_no_card_says_why(item, says):
    with pytest.raises(ItemError) as caught:
        expand(item, CATALOGUE)
    assert str(caught.value).startswith(says)


def test_a_kind_counts_only_where_kinds_are_allowed():
    with pytest.raises(ItemError):
        expand("quiz", CATALOGUE, allow_kinds=False)


def test_runs_of_three_or_more_are_written_as_ranges():
    assert compress(["A1", "A2", "A3", "A4", "C1", "F1", "F2"]) == "A1–A4, C1, F1, F2"
    assert compress(["D01", "D02", "D03", "D9", "D10"]) == "D01–D03, D9, D10"
    assert compress(["A3", "A1", "A2", "A1"]) == "A3, A1, A2"  # given order, once each
    assert compress(["A3", "A1", "A2"], CATALOGUE) == "A1–A3"  # pack order when known


def test_a_range_written_back_reads_as_the_same_cards():
    ids = ["A2", "A3", "A4", "F5", "F6", "F7", "F8", "D10", "D11", "D12"]
    again = [card for item in split_items(compress(ids).replace("–", "-"))
             for card in expand(item, CATALOGUE)]
    assert again == ids


def test_words_joined_as_a_sentence():
    assert and_list(["a", "b", "c"]) == "a, b and c"
    assert and_list(["a", "", "b"], last="or") == "a or b"
    assert and_list(["a"]) == "a" and and_list([]) == ""
