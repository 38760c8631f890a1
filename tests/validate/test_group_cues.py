"""Colour is never the only cue: the built-in layouts that show a group show its symbol, a new
text pack's cards show it, and cardgen check warns where groups differ by colour only or look
alike to players with a colour-vision deficiency (CAM02-UCS distance below 10)."""

from __future__ import annotations

import pytest

from cardgen.diagnostics import Report
from cardgen.load.pack import load_pack
from cardgen.validate.groups import _COLOUR, _CUE, CVD_MIN, check_group_cues
from conftest import SHIPPED, make_pack, text_layer


def _cues(folder) -> list[str]:
    report = Report()
    data = load_pack(folder, report)
    assert data is not None, [d.format() for d in report.errors]
    check_group_cues(data, report)
    return [d.format() for d in report.items]


def test_every_built_in_layout_that_shows_a_group_shows_its_symbol():
    import yaml
    from cardgen.paths import TEMPLATES
    raw = yaml.safe_load((TEMPLATES / "layouts.yaml").read_text(encoding="utf-8"))["layouts"]

    def regions(name):  # the layout's regions with everything it extends
        layout = raw[name]
        merged = dict(regions(layout["extends"])) if layout.get("extends") else {}
        for key, region in (layout.get("regions") or {}).items():
            if region is None:
                merged.pop(key, None)
            else:
                merged[key] = {**merged.get(key, {}), **region}
        return merged
    shown = 0
    for name in raw:
        found = regions(name)
        colours = [k for k, r in found.items()
                   if _COLOUR.search(" ".join(str(r.get(f, "")) for f in ("fill", "colour")))]
        cues = [k for k, r in found.items() if r.get("type") in ("text", "icon") and
                _CUE.search(str(r.get("text", "")))]
        if colours:
            shown += 1
            assert cues, f"{name} shows a group's colour ({colours[0]}) and nothing else of it"
    assert shown >= 3  # card-frame, stat-card, text-card


def test_a_new_text_pack_shows_each_cards_group_symbol(cli, tmp_path):
    assert cli("new", "expedition", "--kind", "text", "--data", tmp_path).exit_code == 0
    out = tmp_path / "out"
    result = cli("build", "expedition", "--data", tmp_path, "--out", out, "--only",
                 "printshop")
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    from pdf_geometry import open_pdf
    shop = (out / "expedition" / "printshop.pdf").read_bytes()
    pages = len(open_pdf(shop).pages) // 2
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(shop)
    fronts = [document[i].get_textpage().get_text_range() for i in range(pages)]
    document.close()
    import yaml
    pack = yaml.safe_load((tmp_path / "expedition" / "pack.yaml").read_text(encoding="utf-8"))
    symbols = [group["symbol"] for group in pack["groups"]]
    assert len(symbols) >= 2
    assert all(any(symbol in page for symbol in symbols) for page in fronts)


def test_groups_with_one_symbol_differ_by_colour_only(tmp_path):
    folder = make_pack(tmp_path)
    pack = (folder / "pack.yaml").read_text(encoding="utf-8")
    (folder / "pack.yaml").write_text(pack.replace('symbol: "♦"', 'symbol: "♥"'),
                                      encoding="utf-8")
    said = _cues(folder)
    assert any("warning: blue symbol: '♥' is also red's symbol" in line and
               "differ by colour only" in line for line in said), said


def test_colours_that_look_alike_to_colour_blind_players(tmp_path):
    folder = make_pack(tmp_path)
    pack = (folder / "pack.yaml").read_text(encoding="utf-8")
    # the flagship's red and green before: 7.6 apart for deuteranopia
    pack = pack.replace('"#D9453B"', '"#D9453B"').replace('"#3A6FC4"', '"#3E9B54"')
    (folder / "pack.yaml").write_text(pack, encoding="utf-8")
    said = _cues(folder)
    line = next(line for line in said if "look alike" in line)
    assert "blue colour: #3E9B54 and red's #D9453B" in line
    assert "deuteranopia" in line and "7.6 in CAM02-UCS, below 10" in line
    assert "pack.yaml:9:" in line  # at the second group's colour
    assert CVD_MIN == 10


def test_a_layout_that_shows_the_group_by_colour_only(tmp_path):
    folder = make_pack(tmp_path)
    layouts = (folder / "layouts.yaml").read_text(encoding="utf-8")
    (folder / "layouts.yaml").write_text(layouts + (
        "  mini-hero:\n    extends: card-frame\n    regions:\n      group_symbol: null\n"
        "      name: {type: text, x: 5, y: 5, w: 49, h: 6, text: '{{ card.name }}'}\n"),
        encoding="utf-8")
    pack = (folder / "pack.yaml").read_text(encoding="utf-8")
    (folder / "pack.yaml").write_text(pack.replace("front: stat-card", "front: mini-hero", 1),
                                      encoding="utf-8")
    said = _cues(folder)
    assert any("mini-hero.bleed shows the card's group by its colour only" in line
               for line in said), said


@pytest.mark.parametrize("pack", ["crazy-hospital", "dokter-li", "quartett", "quatridou",
                                  "tischordnung"])
def test_the_shipped_packs_tell_their_groups_apart_without_colour(pack):
    assert _cues(SHIPPED / pack) == []
