"""cardgen.layout.print_check: print settings that cannot work together, found before layout —
one error each, at pack.yaml, naming the options; only for the outputs that would meet them."""

from __future__ import annotations

import re

import pytest

from cardgen.diagnostics import Report
from cardgen.layout.print_check import check_print, check_print_shop
from cardgen.load.pack import load_pack
from cardgen.model.settings import BuildSettings


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    from conftest import make_pack
    report = Report()
    data = load_pack(make_pack(tmp_path_factory.mktemp("mini")), report)
    assert data is not None and not report.errors
    return data


def said(data, settings: BuildSettings, wanted=("cards",)) -> list[str]:
    report = Report()
    check_print(data, settings, set(wanted), report)
    assert all(d.file.endswith("pack.yaml") for d in report.items)
    return [d.message for d in report.errors]


def test_the_packs_own_settings_print(mini):
    assert said(mini, BuildSettings(), ("cards", "calibration", "png", "printshop")) == []


def test_a_card_larger_than_the_sheet_only_where_sheets_are_made(mini):
    big = BuildSettings(card_size=(300, 400))
    found = said(mini, big, ("cards",))
    assert len(found) == 1 and found[0].startswith("print: a 300 x 400 mm card does not fit")
    assert "(a4; choose a larger --paper or a smaller --card-size)" in found[0]
    assert said(mini, big, ("printshop",)) == []  # one card a page: any size prints


def test_a_back_offset_that_pushes_the_backs_off_the_sheet(mini):
    assert said(mini, BuildSettings(back_offset=(2, -1.5))) == []
    assert said(mini, BuildSettings(back_offset=(300, 0))) == [
        "print: a back offset of 300, 0 mm (--back-offset, print.back_offset) pushes the "
        "backs off the a4 sheet; print --only calibration and measure it again"]


def test_a_safe_zone_that_leaves_no_room(mini):
    found = said(mini, BuildSettings(safe=15, card_size=(20, 20)), ("printshop",))
    assert found[0] == ("print: a 15 mm safe zone (--safe, print.safe) leaves no room for text "
                        "on a 20 x 20 mm card")


def test_pngs_too_large_to_hold_in_memory(mini):
    huge = BuildSettings(card_size=(400, 400), dpi=1200)
    assert said(mini, huge, ("printshop",)) == []
    found = said(mini, huge, ("png",))
    assert found == ["print: --dpi 1200 makes 19181 x 19181 px PNGs of a 400 x 400 mm card; at "
                     "most 64 million pixels: lower --dpi"]


def test_a_card_so_small_a_layout_holds_no_line_names_the_smallest_that_works(mini):
    def layouts_named(size) -> dict[str, tuple[int, int]]:
        found = {}
        for message in said(mini, BuildSettings(card_size=size, safe=1, bleed=0), ("printshop",)):
            name = re.search(r"shrinks the layout (\S+),", message).group(1)
            least = re.search(r"choose a card of at least (\d+) x (\d+) mm", message)
            found[name] = tuple(int(v) for v in least.groups())
        return found
    tiny = layouts_named((12, 18))  # one line each, not one per card
    assert sorted(tiny) == ["mini-back", "mini-consultant", "stat-card"]
    for name, least in tiny.items():
        assert name not in layouts_named(least)  # the size it names is enough for it
    assert layouts_named((43, 65)) == {}


def test_a_print_shop_of_other_proportions_is_a_warning(mini):
    report = Report()
    check_print_shop(mini, BuildSettings(), report)
    assert report.items == []
    from cardgen.model.pack import PRINT_SHOPS
    own = tuple(mini.pack.print.size())
    other = next(name for name, shop in PRINT_SHOPS.items()
                 if abs((shop.size[0] / shop.size[1]) / (own[0] / own[1]) - 1) > 0.02)
    check_print_shop(mini, BuildSettings(print_shop=other), report)
    assert [d.severity for d in report.items] == ["warning"]
    assert report.items[0].message.startswith(
        f"print.card_size: the cards are {own[0]:g} x {own[1]:g} mm, ")
