"""A card that leaves a region empty which the other cards of its layout fill is named at the
card: a missing or empty name is an error, an empty title or quote a warning; a region most
cards leave empty shows an optional field and is fine. The same on a rebuild whose fronts are
kept (layout/kept.py)."""

from __future__ import annotations

import re
from pathlib import Path

CHARACTERS = "cards/character.yaml"


def _edit(pack: Path, relative: str, old: str, new: str) -> None:
    path = pack / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(pack: Path, relative: str, needle: str) -> int:
    lines = (pack / relative).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_a_missing_name_and_an_empty_quote_are_named_at_the_card(cli, copy_shipped, tmp_path):
    pack = copy_shipped(tmp_path)
    _edit(pack, CHARACTERS, '    name: "Prof. Dr. Hertha Rhythmus"\n', "")
    _edit(pack, CHARACTERS, 'quote: "Entspannen Sie sich. Das kostet extra."', 'quote: "  "')
    args = ("build", "crazy-hospital", "--data", tmp_path / "card_data",
            "--out", tmp_path / "out", "--only", "cards")
    for _ in range(2):  # the same on the second run
        result = cli(*args)
        assert result.exit_code == 1
        assert "Traceback" not in result.output
        said = [line for line in result.output.splitlines() if ": error: " in line or
                ": warning: " in line]
        assert len(said) == 2, result.output
        a1 = _line_of(pack, CHARACTERS, "- id: A1")
        quote = _line_of(pack, CHARACTERS, 'quote: "  "')
        assert re.search(rf"character\.yaml:{a1}:5: error: A1 name: missing, so region name "
                         r"of character-front prints nothing", result.output)
        assert re.search(rf"character\.yaml:{quote}:12: warning: A2 quote: empty, so region "
                         r"quote of character-front prints nothing", result.output)
    assert not (tmp_path / "out").exists()


def test_an_optional_field_is_fine_until_most_cards_have_it(cli, make_pack, tmp_path):
    """The mini pack's heroes have no quote (the stock layout's quote region stays empty):
    nothing to say. Once two of the three have one, the third one's gap is a warning, also
    when its front is the one kept from the build before."""
    pack = make_pack(tmp_path)
    args = ("build", "mini", "--data", tmp_path / "card_data", "--out", tmp_path / "out",
            "--only", "cards")
    first = cli(*args)
    assert first.exit_code == 0 and "warning" not in first.output
    _edit(pack, "cards/heroes.yaml", "    name: Ann\n", '    name: Ann\n    quote: "Hallo."\n')
    _edit(pack, "cards/heroes.yaml", "    name: Bob\n", '    name: Bob\n    quote: "Tschüss."\n')
    result = cli(*args)
    assert result.exit_code == 0
    cid = _line_of(pack, "cards/heroes.yaml", "- id: B1")
    assert re.search(rf"heroes\.yaml:{cid}:5: warning: B1 quote: missing, so region quote of "
                     r"stat-card prints nothing on this card \(it does on most others\)",
                     result.output), result.output
    assert "A1" not in result.output and "A2" not in result.output
    strict = cli(*args, "--strict", "--force")
    assert strict.exit_code == 1 and "B1 quote: missing" in strict.output


def test_a_region_drawn_on_some_cards_counts_only_those(cli, make_pack, tmp_path):
    """A region that `when` draws on the A cards only: one of the two A cards leaves it empty,
    which is half of the cards it is drawn on (not most of them do print there), so nothing
    is said, although it is fewer than half of the layout's three cards."""
    layouts = ("layouts:\n"
               "  hero-front:\n"
               "    extends: stat-card\n"
               "    regions:\n"
               "      quote: null\n"  # the badge prints the quote where the stats begin
               "      badge:\n"
               "        {type: text, x: 27, y: 40, w: 28, h: 3, layer: 8, font: condensed,\n"
               "         size: 6, when: \"card.set == 'A'\", text: \"{{ card.quote }}\"}\n")
    pack = make_pack(tmp_path)
    text = (pack / "layouts.yaml").read_text(encoding="utf-8")
    (pack / "layouts.yaml").write_text(text.replace("layouts:\n", layouts, 1), encoding="utf-8")
    _edit(pack, "pack.yaml", "    front: stat-card\n", "    front: hero-front\n")
    _edit(pack, "cards/heroes.yaml", "    name: Bob\n", '    name: Bob\n    quote: "Hi."\n')
    result = cli("check", "mini", "--data", tmp_path / "card_data")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output and "prints nothing" not in result.output
