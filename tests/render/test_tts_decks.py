"""Tabletop Simulator: one deck per back (kinds that print the same back are one deck, as they
are shuffled together), and cards keep their proportions on the table."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from cardgen.diagnostics import Report
from cardgen.model.settings import BuildSettings
from cardgen.pipeline.draw import render_pack
from cardgen.render.tts import card_scale
from conftest import shipped_data


def _tts(pack: str, tmp_path, **settings):
    data = shipped_data(pack)
    result = render_pack(data, Report(), BuildSettings(only=("tts",), out=str(tmp_path),
                                                       **settings))
    return data, result, json.loads(result.files[f"tts/{pack}.json"])["ObjectStates"]


def test_the_flagships_four_kinds_share_one_back_and_one_deck(tmp_path):
    data, result, decks = _tts("crazy-hospital", tmp_path)
    assert len({lc.kind for lc in data.cards}) == 4
    assert len(decks) == 1
    assert len(decks[0]["ContainedObjects"]) == sum(lc.card.count for lc in data.cards)
    backs = [name for name in result.files if name.endswith("-back.png")]
    assert len(backs) == 1
    for word in ("Charakterkarten", "Ereignisse"):
        assert word in decks[0]["Nickname"]


def test_kinds_with_their_own_backs_keep_their_own_decks(tmp_path):
    data, result, decks = _tts("dokter-li", tmp_path)
    assert len(decks) == 2
    by_kind = {lc.kind: 0 for lc in data.cards}
    for lc in data.cards:
        by_kind[lc.kind] += lc.card.count
    assert sorted(len(d["ContainedObjects"]) for d in decks) == sorted(by_kind.values())
    backs = sorted(name for name in result.files if name.endswith("-back.png"))
    assert len(backs) == 2 and result.files[backs[0]] != result.files[backs[1]]


@pytest.mark.parametrize("size, depth", [((59, 91), (91 / 59) / 1.4), ((63.5, 88.9), 1.0),
                                         ((70, 120), (120 / 70) / 1.4)])
def test_cards_keep_their_proportions_on_the_table(tmp_path, size, depth):
    """TTS's card is 2.5 x 3.5; a 59 x 91 card is scaled along the table's depth, not drawn
    onto a poker card."""
    assert card_scale(size) == pytest.approx(depth, abs=1e-6)
    _, result, decks = _tts("quatridou", tmp_path, card_size=size)
    deck = decks[0]
    for transform in [deck["Transform"]] + [c["Transform"] for c in deck["ContainedObjects"]]:
        assert transform["scaleX"] == 1.0 and transform["scaleZ"] == pytest.approx(depth,
                                                                                   abs=1e-6)
    custom = next(iter(deck["CustomDeck"].values()))
    sheet = Image.open(io.BytesIO(result.files[custom["FaceURL"].split("/quatridou/", 1)[1]]))
    cell = (sheet.width / custom["NumWidth"], sheet.height / custom["NumHeight"])
    assert cell[1] / cell[0] == pytest.approx(size[1] / size[0], rel=0.01)
