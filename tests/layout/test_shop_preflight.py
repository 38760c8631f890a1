"""A print shop's minimums (MeinSpiel: reverse text from 7 pt, lines from 0.5 pt) are warned
about at the layout region that misses them, naming the faces; --strict makes them errors."""

from __future__ import annotations

from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.chain import check_pack
from conftest import SHIPPED


def _warnings(settings: BuildSettings) -> list[str]:
    report = Report()
    check_pack(SHIPPED / "crazy-hospital", report, settings)
    assert not report.errors, [d.format() for d in report.errors]
    return [d.format() for d in report.items if "MeinSpiel" in d.message]


def test_the_flagship_for_meinspiel_names_reverse_text_and_thin_lines():
    said = _warnings(BuildSettings(print_shop="meinspiel", card_size=(59, 91)))
    reverse = [line for line in said if "reverse text" in line]
    assert any("character-front.points_word" in line and "at 6 pt" in line and
               "from 7 pt" in line for line in reverse), said
    assert any("character-front.name_beside_tab" in line and "6.75 pt" in line
               for line in reverse), said
    thin = [line for line in said if "prints lines from 0.5 pt" in line]
    assert any("stats" in line and "0.3 pt" in line and "rules between the rows" in line
               for line in thin), said
    assert any("portrait" in line and "drawn portrait" in line for line in thin), said
    assert all(": warning: " in line and "layouts.yaml:" in line for line in said)
    assert any("(on 64 faces: A1, A2, A3 ...)" in line for line in said)


def test_without_a_shop_nothing_is_said():
    assert _warnings(BuildSettings()) == []


def test_strict_turns_them_into_failure(cli, make_pack, tmp_path):
    folder = make_pack(tmp_path, {"pack.yaml": None})
    pack = (SHIPPED.parent / "tests" / "fixtures" / "valid" / "card_data" / "mini" /
            "pack.yaml").read_text(encoding="utf-8")
    (folder / "pack.yaml").write_text(pack.replace("id: mini\n", "id: mini\nprint:\n  "
                                                   "card_size: meinspiel\n", 1)
                                      if "print:" not in pack else
                                      pack.replace("print:\n", "print:\n  card_size: meinspiel\n",
                                                   1), encoding="utf-8")
    relaxed = cli("check", "--data", folder.parent)
    assert relaxed.exit_code == 0 and "MeinSpiel prints lines from 0.5 pt" in relaxed.output
    strict = cli("check", "--data", folder.parent, "--strict")
    assert strict.exit_code == 1
