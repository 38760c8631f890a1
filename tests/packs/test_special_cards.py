"""Crazy Hospital's special cards play as printed (issue #14), read from the data.

Every S and ER text says where the card goes after use; no text plays the same card again; a
card that needs three players says so and the composition check refuses it in a game of two.
The portrait of a card follows its `gender`, `age` and `hair` fields, not a guess.
"""

from __future__ import annotations

import re

import pytest

from cardgen.pictures.portrait.traits import luma as _luma, portrait_traits
from conftest import shipped_data

# the three places a special card can go after use (rules/08-sonderkarten.yaml)
DESTINATION = re.compile(r"hinten ein|ins Büro|auf den frei gewordenen Platz|aus dem Spiel")


@pytest.fixture(scope="module")
def specials():
    data = shipped_data("crazy-hospital")
    cards = [lc.card for lc in data.cards if lc.kind in ("S", "ER")]
    assert len(cards) == 32
    return cards


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!:;])\s+", text) if s]


def test_every_text_says_where_its_card_goes(specials):
    missing = []
    for card in specials:
        for name in ("active", "passive"):
            text = card.texts[name]
            own = [s for s in _sentences(text) if re.search(rf"\b{card.id}\b", s)]
            if not any(DESTINATION.search(s) for s in own):
                missing.append(f"{card.id} {name}: {text}")
    assert not missing, "\n".join(missing)


def test_no_text_plays_its_own_card_again(specials):
    """'Play again' is only allowed once the card has left the front of the stack: every text
    that lets someone play on names the card's destination first."""
    again = re.compile(r"spielst Du (sofort )?erneut an|spielt (sofort )?erneut an")
    wrong = []
    for card in specials:
        for name, text in card.texts.items():
            if again.search(text):
                wrong.append(f"{card.id} {name}: {text}")
            play = re.search(r"spiel\w* (Du |er )?(mit \w+ nächsten \w+ )?an\b", text)
            where = [m.start() for m in re.finditer(rf"\b{card.id}\b", text)]
            if play and where and where[0] > play.start():
                wrong.append(f"{card.id} {name}: plays on before {card.id} leaves: {text}")
    assert not wrong, "\n".join(wrong)


def test_no_duration_until_ones_next_turn(specials):
    """'bis zu Deinem nächsten Zug' has no length in Mix It, where the lead follows the winner."""
    vague = [f"{c.id}: {t}" for c in specials for t in c.texts.values()
             if re.search(r"bis zu (Deinem|seinem) nächsten Zug", t)]
    assert not vague, vague


def test_only_the_patient_manager_sees_into_the_office(specials):
    """Cards in the office lie face down (option Büro); only S5 may look at them."""
    peeking = [f"{c.id}: {t}" for c in specials if c.id != "S5" for t in c.texts.values()
               if re.search(r"Büro\w*[^.]*(an\b|auf\b)", t) and re.search(r"sieh|schau|deck", t)]
    assert not peeking, peeking


def test_penalties_stay_in_proportion(specials):
    """A card that takes cards from others costs minus points; none is free."""
    takers = [c for c in specials if re.search(r"gibt Dir|geben Dir|geht an Dich|Nimm", c.texts["active"])]
    assert takers and all(c.penalty <= -2 for c in takers), \
        [(c.id, c.penalty) for c in takers if c.penalty > -2]


def test_a_card_for_three_players_is_refused_for_two(cli, shipped_checks_once):
    """S10 compares two opponents: refused when named for 2 players, left out by default."""
    named = cli("check", "crazy-hospital", "--players", "2", "--special", "S8-S12")
    assert named.exit_code == 1
    assert "error: S10 needs at least 3 players" in named.stderr
    default = cli("check", "crazy-hospital", "--players", "2", "--report")
    assert default.exit_code == 0, default.stderr
    assert "S10 left out: it needs at least 3 players, the game has 2" in default.stdout
    three = cli("check", "crazy-hospital", "--players", "3", "--special", "S8-S12")
    assert three.exit_code == 0, three.stderr


def test_portrait_follows_gender_age_and_hair():
    seeds = [f"S{i}:person" for i in range(60)]
    for seed in seeds:
        woman = portrait_traits(seed, "f")
        assert woman.facial_hair is None and woman.hair not in ("short", "sidepart")
        man = portrait_traits(seed, "m")
        assert man.hair not in ("long", "bob")
        young = portrait_traits(seed, "m", age=25)
        assert young.hair not in ("bald", "receding")
        c = young.hair_colour
        assert not (max(c.red, c.green, c.blue) - min(c.red, c.green, c.blue) < 0.08
                    and _luma(c) > 0.4), seed
    old = [portrait_traits(seed, "f", age=70) for seed in seeds]
    greys = sum(max(t.hair_colour.red, t.hair_colour.green, t.hair_colour.blue)
                - min(t.hair_colour.red, t.hair_colour.green, t.hair_colour.blue) < 0.08
                for t in old)
    assert greys >= len(seeds) // 2
    told = portrait_traits("S7:x", "m", hair="grey bald moustache")
    assert (told.hair, told.facial_hair) == ("bald", "moustache")
    assert portrait_traits("x", "m", hair="shaven").facial_hair is None


def test_every_person_card_says_who_it_shows():
    data = shipped_data("crazy-hospital")
    people = [lc.card for lc in data.cards if lc.kind in ("character", "K", "S")]
    assert people and all(c.gender in ("f", "m") for c in people), \
        [c.id for c in people if c.gender not in ("f", "m")]
