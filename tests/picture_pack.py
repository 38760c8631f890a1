"""A pack of picture cards for the tests of pictures a designer drops in (pictures/) and of a
build interrupted while it prepares them (cli/): its pack.yaml, and the pack with cards."""

from __future__ import annotations

from pathlib import Path

PACK = """\
id: pics
title: Bilder
language: de
kinds:
  - id: card
    label: Karte
    id_pattern: "^P[0-9]+$"
    front: stat-card
    back: simple-back
"""


def picture_pack(root: Path, cards_yaml: str) -> Path:
    """root/card_data/pics: PACK, an empty images/ and cards/cards.yaml holding `cards_yaml`."""
    pack = root / "card_data" / "pics"
    (pack / "cards").mkdir(parents=True)
    (pack / "images").mkdir()
    (pack / "pack.yaml").write_text(PACK, encoding="utf-8")
    (pack / "cards" / "cards.yaml").write_text(cards_yaml, encoding="utf-8")
    return pack
