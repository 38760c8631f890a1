"""Every built-in label fits every built-in layout in every language cardgen offers.

A pack in each language uses each built-in front layout with the engine's own words (no pack
labels) on cards that show every label a layout prints; `check` lays them all out.
"""

from __future__ import annotations

import typing

import pytest

from cardgen.text.words import DEFAULTS
from cardgen.paths import TEMPLATES
from cardgen.model.pack import Pack
from cardgen.load.source import load_yaml

LANGUAGES = typing.get_args(Pack.model_fields["language"].annotation)
LAYOUTS = sorted(load_yaml(TEMPLATES / "layouts.yaml")["layouts"])
FRONTS = [name for name in LAYOUTS if name != "simple-back"]


def pack_files(language: str) -> dict[str, str]:
    kinds = "".join(f"""
  - id: k{index}
    label: Karte
    id_pattern: "^K{index}-[0-9]$"
    front: {layout}
    back: simple-back
    texts: []
""" for index, layout in enumerate(FRONTS))
    cards = {f"cards/k{index}.yaml": f"""kind: k{index}
cards:
  - {{id: K{index}-1, name: Anna Muster, title: Titel, points: 12, quote: Kurz.,
     texts: {{active: Ein Text., passive: Noch einer.}}}}
  - {{id: K{index}-2, name: Bert Muster, title: Titel, penalty: 3,
     texts: {{active: Ein Text., passive: Noch einer.}}}}
""" for index, _ in enumerate(FRONTS)}
    return {"pack.yaml": f"id: words\ntitle: Words\nlanguage: {language}\nkinds:{kinds}",
            **cards}


def test_the_languages_and_layouts_are_the_shipped_ones():
    assert set(LANGUAGES) == set(DEFAULTS) and {"stat-card", "text-card"} <= set(FRONTS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_word(language):
    assert set(DEFAULTS[language]) == set(DEFAULTS["en"])  # no English word left over


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_built_in_layout_fits_the_engine_words(cli, tmp_path, language):
    folder = tmp_path / "card_data" / "words"
    for name, text in pack_files(language).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    result = cli("check", "--data", folder.parent)
    assert result.exit_code == 0, result.output
    assert ": error: " not in result.stderr
