"""A card's text problem is reported at the card's text (naming the region); a problem of the
layout itself, met by many cards, is one diagnostic at the layout with the count and the
first cards."""

from __future__ import annotations

import pytest

from conftest import make_pack

LAYOUT = """\
layouts:
  mini-back:
    extends: simple-back
  mini-front:
    extends: stat-card
    regions:
      quote:
        text: "{{ card.quote }}"
"""


@pytest.fixture
def pack(tmp_path):
    folder = make_pack(tmp_path, {"layouts.yaml": LAYOUT})
    text = (folder / "pack.yaml").read_text(encoding="utf-8")
    for front in ("front: stat-card", "front: mini-consultant"):  # both kinds' fronts
        text = text.replace(front, "front: mini-front")
    (folder / "pack.yaml").write_text(text, encoding="utf-8")
    return folder


def set_line(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def errors(cli, pack) -> list[str]:
    result = cli("check", "--data", pack.parent)
    assert "Traceback" not in result.output
    return [line.split("/card_data/mini/")[-1] for line in result.stderr.splitlines()
            if ": error: " in line]


def test_an_unknown_icon_in_a_card_is_at_the_card(cli, pack):
    set_line(pack / "cards" / "heroes.yaml", "    name: Ann\n",
             "    name: Ann\n    quote: \"Mit :herz: dabei\"\n")
    assert errors(cli, pack) == ["cards/heroes.yaml:5:12: error: A1 quote: unknown icon "
                                 "':herz:' (region quote)"]


def test_an_unknown_icon_in_the_layout_is_at_the_layout_once(cli, pack):
    set_line(pack / "layouts.yaml", 'text: "{{ card.quote }}"', 'text: ":herz: {{ card.quote }}"')
    assert errors(cli, pack) == ["layouts.yaml:8:9: error: mini-front.quote unknown icon "
                                 "':herz:' (on all 4 cards: L1, A1, A2 ...)"]


def test_a_missing_glyph_in_a_card_name_is_at_the_name(cli, pack):
    set_line(pack / "cards" / "heroes.yaml", "    name: Ann\n", "    name: Ann \ue000\n")
    assert errors(cli, pack) == ["cards/heroes.yaml:4:11: error: A1 name: the font "
                                 "condensed-bold has no glyph for U+E000 '\ue000' (region name)"]


def test_a_missing_glyph_in_the_pack_words_is_at_the_layout_once(cli, pack):
    set_line(pack / "pack.yaml", "wins_low: lowest wins", "wins_low: lowest \ue000")
    found = errors(cli, pack)
    assert len(found) == 1 and found[0].startswith("templates/layouts.yaml:")
    assert found[0].endswith(": error: mini-front.footer the font condensed has no glyph for "
                             "U+E000 '\ue000' (on all 4 cards: L1, A1, A2 ...)")


def test_a_long_name_is_at_the_name_of_that_card(cli, pack):
    set_line(pack / "cards" / "heroes.yaml", "    name: Ann\n", "    name: " + "Ann " * 30 + "\n")
    found = errors(cli, pack)
    assert len(found) == 1 and found[0].startswith(
        "cards/heroes.yaml:4:11: error: A1 name: text does not fit 39.5 x 5 mm even at 6 pt; "
        "shorten it: 'Ann Ann")
    assert found[0].endswith("(region name)")


def test_a_card_size_the_layout_cannot_take_gives_one_line_per_problem(cli, pack, tmp_path):
    """The text regions hold their lines, the texts do not: one line a region, not a card."""
    result = cli("build", "--data", pack.parent, "--out", tmp_path / "out", "--card-size",
                 "44x67", "--only", "cards")
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert lines and all(line.endswith("(on 3 of 4 cards: A1, A2, B1)") for line in lines), lines
    assert any("mini-front.stats 6 stat lines do not fit" in line for line in lines), lines
    assert not (tmp_path / "out").exists()


def test_a_card_too_small_for_the_layout_is_one_line_a_layout(cli, pack, tmp_path):
    """So small that a text region no longer holds one line of its smallest type: every card
    would fail, so it is said once per layout with the card size that works (which builds)."""
    result = cli("build", "--data", pack.parent, "--out", tmp_path / "out", "--card-size",
                 "30x50", "--only", "cards")
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert lines == [
        f"{pack / 'pack.yaml'}:2:1: error: print: a 30 x 50 mm card (--card-size) shrinks the "
        "layout mini-front, drawn for 59 x 91 mm, until its title region is 1.8 mm high: too "
        "low for one line of 6 pt text; choose a card of at least 44 x 67 mm"]
    assert not (tmp_path / "out").exists()
    tiny = cli("build", "--data", pack.parent, "--out", tmp_path / "out", "--card-size", "10x10",
               "--only", "cards")
    assert sorted(line.split("; choose")[1] for line in tiny.stderr.splitlines()
                  if ": error: " in line) == [" a card of at least 17 x 25 mm",  # the back
                                              " a card of at least 44 x 67 mm"]
    fits = cli("build", "--data", pack.parent, "--out", tmp_path / "out", "--card-size", "44x67",
               "--only", "cards")
    assert "shrinks the layout" not in fits.stderr


def test_a_text_too_long_for_any_region_is_at_the_card(cli, pack):
    """It was 'template failed: template produced more than 5000 characters' at the layout."""
    set_line(pack / "cards" / "heroes.yaml", "    name: Ann\n", "    name: " + "Ann " * 2000 + "\n")
    assert errors(cli, pack) == ["cards/heroes.yaml:4:11: error: A1 name: 7999 characters; a "
                                 "card text may have at most 5000"]
