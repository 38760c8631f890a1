"""Playtest reading as a test (issue 30): every special card of every pack is read as a player
reads it at the table — where the card goes afterwards, who gains and who loses by it, and
that it does something in every variant that allows it.

The expectations are written here by hand, as a playtester writes them down; the test holds
them against the printed texts (the cards' YAML), the rulebook and composition.yaml, so a text
reworded into something else, or a variant opened to cards that do nothing there, fails.
"""

from __future__ import annotations

import re

import pytest

from cardgen.compose import Choice, compose
from cardgen.compose.declaration import load_composition
from cardgen.diagnostics import Report
from conftest import shipped_data

PACKS = ("crazy-hospital", "quartett", "quatridou", "dokter-li", "tischordnung")

# --- Crazy Hospital: S and ER cards ----------------------------------------------------------
# (text, where the card goes, who gains, who loses, what the text does)
# where: "back" (hinten einreihen), "office" (ins Büro), "out" (aus dem Spiel), "opponent" (the
# card changes hands); gains / loses: a regex of the text that says it; does: what a variant
# must offer for the text to act (duel, transfer, lead, order, lay)
DE = {
    "back": r"hinten ein", "office": r"ins Büro|auf den frei gewordenen Platz",
    "out": r"aus dem Spiel", "opponent": r"bekommt dafür|an den linken Nachbarn|an den rechten "
    r"Nachbarn|nimmt S20 zu sich|bekommt S15",
}
HOSPITAL = {
    "S1 active": ("back", r"spielst mit Deiner nächsten Karte an",
                  r"Jeder Mitspieler reiht seine Vorderhand hinten ein", {"order", "lead"}),
    "S1 passive": ("back", r"gibt Dir eine Karte", r"Der Anspieler .* gibt Dir", {"transfer"}),
    "S2 active": ("back", r"geben Dir je ihre vorderste Arztkarte", r"Zwei Mitspieler",
                  {"transfer"}),
    "S2 passive": ("office", r"die Karte des Anspielers geht an Dich", r"des Anspielers",
                   {"transfer"}),
    "S3 active": ("back", r"gibt Dir eine Charakterkarte", r"Jeder Mitspieler mit mehr",
                  {"transfer"}),
    "S3 passive": ("back", r"Das Anspiel wechselt zu Dir", r"Der Anspieler legt seine Karte "
                   r"ins Büro", {"transfer", "lead"}),
    "S4 active": ("back", r"nimm dafür eine andere Karte", r"er bekommt Deine", {"transfer"}),
    "S4 passive": ("back", r"der Verlierer gibt seine Karte dem Gewinner", r"der Verlierer",
                   {"duel"}),
    "S5 active": ("office", r"nimm eine davon", None, {"transfer"}),
    "S5 passive": ("back", r"Das Anspiel wechselt zu Dir", r"der Anspieler reiht seine Karte "
                   r"hinten ein", {"lead"}),
    "S6 active": ("back", r"forderst ihn mit Deiner nächsten Karte heraus",
                  r"Ein Mitspieler Deiner Wahl reiht seine Vorderhand hinten ein",
                  {"order", "duel"}),
    "S6 passive": ("back", r"Das Duell fällt aus", r"Der Anspieler reiht seine Karte",
                   {"order"}),
    "S7 active": ("office", r"Ziehe eine Karte aus dem Büro", None, {"transfer"}),
    "S7 passive": ("back", r"Das Anspiel wechselt zu Dir", r"der Anspieler reiht",
                   {"lead"}),
    "S8 active": ("back", r"forderst ihn .* heraus", r"mischt seine Handkarten",
                  {"order", "duel"}),
    "S8 passive": ("back", r"Deine nächste Arztkarte", r"Eine Challenge entfällt", {"duel"}),
    "S9 active": ("opponent", r"spielst Du mit Deiner nächsten Karte an",
                  r"Alle geben ihre Vorderhand", {"transfer", "lead"}),
    "S9 passive": ("opponent", r"gibt Dir eine Karte seiner Wahl", r"Der Anspieler gibt Dir",
                   {"transfer"}),
    "S10 active": ("back", r"gibt Dir die Karte", r"Wer weniger verdient", {"transfer"}),
    "S10 passive": ("back", r"Das Anspiel wechselt zu Dir",
                    r"Der Anspieler legt seine Karte ins Büro", {"lead", "transfer"}),
    "S11 active": ("back", r"Du darfst jetzt Quartette und Oktette ablegen", None, {"lay"}),
    "S11 passive": ("back", r"Das Anspiel wechselt zu Dir", r"darf in seinem nächsten Zug als "
                    r"Anspieler nichts ablegen", {"lead"}),
    "S12 active": ("back", r"Nimm eine Charakterkarte daraus", r"Ein Mitspieler Deiner Wahl "
                   r"fächert", {"transfer"}),
    "S12 passive": ("back", r"Das Anspiel geht an den linken Nachbarn",
                    r"Der Anspieler reiht seine Karte", {"lead"}),
    "S13 active": ("back", r"forderst ihn mit Deiner nächsten Karte heraus",
                   r"legt seine Vorderhand ins Büro", {"transfer", "duel"}),
    "S13 passive": ("back", r"fordert er Dich .* heraus", r"Der Anspieler reiht seine Karte",
                    {"duel"}),
    "S14 active": ("back", r"ziehe eine Karte aus dem Büro", None, {"transfer"}),
    "S14 passive": ("back", r"der Verlierer gibt seine Karte dem Gewinner", r"der Verlierer",
                    {"duel"}),
    "S15 active": ("back", r"gibt er sie Dir", r"Hat er sie", {"transfer"}),
    "S15 passive": ("opponent", r"Das Duell fällt aus", r"bekommt S15", {"order"}),
    "S16 active": ("back", r"spielst mit Deiner nächsten Karte an",
                   r"Jeder Mitspieler mit einer Sonderkarte vorne", {"order"}),
    "S16 passive": ("back", r"Das Anspiel geht an den linken Nachbarn",
                    r"Der Anspieler reiht seine Karte", {"lead"}),
    "S17 active": ("back", r"gibt Dir eine Karte seiner Wahl", r"Wer S2, S3 oder S4 hält",
                   {"transfer"}),
    "S17 passive": ("back", r"der Verlierer gibt seine Karte dem Gewinner", r"der Verlierer",
                    {"duel"}),
    "S18 active": ("back", r"forderst mit Deiner nächsten Karte den Mitspieler heraus",
                   r"Alle Mitspieler zeigen ihre Vorderhand", {"duel"}),
    "S18 passive": ("back", r"Das Anspiel wechselt zu Dir", r"Der Anspieler reiht",
                    {"lead"}),
    "S19 active": ("back", r"spielst an", r"darf in seinem nächsten Zug .* nichts ablegen",
                   {"lay", "lead"}),
    "S19 passive": ("back", r"die Du statt des Anspielers wählst", r"statt des Anspielers",
                    {"duel"}),
    "S20 active": ("back", r"nur dieses Ergebnis zählt", None, {"duel"}),
    "S20 passive": ("opponent", r"Das Anspiel wechselt zu Dir", r"nimmt S20 zu sich",
                    {"lead"}),
    "S21 active": ("back", r"zeigt Dir seine Vorderhand", r"Eine Sonderkarte legt er ins Büro",
                   {"order"}),
    "S21 passive": ("back", r"das Anspiel wechselt zu Dir", r"fordert mit derselben Karte "
                    r"einen anderen Mitspieler heraus", {"duel", "lead"}),
    "S22 active": ("back", r"legst sie in einer Reihenfolge Deiner Wahl zurück", None,
                   {"order"}),
    "S22 passive": ("back", r"der Verlierer gibt seine Karte dem Gewinner", r"der Verlierer",
                    {"duel"}),
    "S23 active": ("back", r"tauschst ohne Duell", r"eines Mitspielers Deiner Wahl",
                   {"transfer"}),
    "S23 passive": ("back", r"Du ziehst dafür eine andere von dort",
                    r"Der Anspieler legt seine Karte ins Büro", {"transfer"}),
    "ER1 active": ("office", r"gibt Dir diese Karte", r"Wer die meisten Krankheitstage hat",
                   {"transfer"}),
    "ER1 passive": ("back", r"Das Anspiel wechselt zu Dir", r"der Anspieler seine Karte "
                    r"ebenfalls", {"lead"}),
    "ER2 active": ("office", r"Du spielst mit Deiner nächsten Karte an",
                   r"Jeder Mitspieler mischt seine Handkarten", {"order"}),
    "ER2 passive": ("back", r"Das Anspiel wechselt zu Dir", r"Der Anspieler reiht",
                    {"lead"}),
    "ER3 active": ("opponent", r"ziehst Du eine Karte aus dem Büro",
                   r"Alle geben ihre Vorderhand", {"transfer"}),
    "ER3 passive": ("back", r"Das Anspiel wechselt zu Dir", r"Der Anspieler legt seine Karte "
                    r"ins Büro", {"transfer", "lead"}),
    "ER4 active": ("out", r"gibt er Dir eine Arztkarte", r"Ein Mitspieler Deiner Wahl",
                   {"transfer"}),
    "ER4 passive": ("back", r"Das Anspiel wechselt zu Dir", r"Der Anspieler legt seine Karte "
                    r"ins Büro", {"transfer", "lead"}),
    "ER5 active": ("out", r"behalte eine", r"die hinterste Karte eines Mitspielers",
                   {"transfer"}),
    "ER5 passive": ("back", r"zieht jeder von Euch eine zufällige Karte",
                    r"aus der Hand des anderen", {"transfer"}),
    "ER6 active": ("out", r"darf jeder jetzt Quartette und Oktette ablegen", None, {"lay"}),
    "ER6 passive": ("back", r"Das Anspiel wechselt zu Dir", r"mischt seine Handkarten",
                    {"order", "lead"}),
    "ER7 active": ("office", r"Ziehe eine davon", None, {"transfer"}),
    "ER7 passive": ("back", r"Das Anspiel bleibt beim Anspieler",
                    r"keine Challenge und keine Mehrfachattacke", {"order"}),
    "ER8 active": ("back", r"spielst mit Deiner nächsten Karte an",
                   r"wer ein Duell verliert, reiht seine Karte hinten ein", {"duel"}),
    "ER8 passive": ("back", r"aber nicht gegen Dich", r"Der Anspieler reiht",
                    {"lead", "order"}),
    "ER9 active": ("office", r"geht an Dich", r"Die Karte mit dem tiefsten Jahresgehalt",
                   {"transfer"}),
    "ER9 passive": ("back", r"der Verlierer gibt seine Karte dem Gewinner", r"der Verlierer",
                    {"duel"}),
}
# what a variant offers to a card's text
VARIANT_OFFERS = {
    "mix-it": {"duel", "transfer", "lead", "order", "lay"},
    "duell": {"duel", "transfer", "lead", "order"},      # no quartets are laid
    "klassik": {"transfer", "lay"},                        # no duels, no stack order
}


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!:;])\s+", text) if s]


def _variants_with_special_cards(data) -> list[str]:
    declared = load_composition(data, Report())
    return [slug for slug, variant in declared.composition.variants.items()
            if variant.special_cards is not False]


@pytest.fixture(scope="module")
def hospital():
    data = shipped_data("crazy-hospital")
    return data, {lc.card.id: lc.card for lc in data.cards if lc.kind in ("S", "ER")}


def test_every_s_and_er_text_is_read(hospital):
    _, cards = hospital
    assert sorted(HOSPITAL) == sorted(f"{card_id} {side}" for card_id in cards
                                      for side in ("active", "passive"))


@pytest.mark.parametrize("key", sorted(HOSPITAL))
def test_where_the_card_goes_and_who_gains_and_loses(hospital, key):
    _, cards = hospital
    card_id, side = key.split()
    text = cards[card_id].texts[side]
    where, gains, loses, _ = HOSPITAL[key]
    own = [s for s in _sentences(text) if re.search(rf"\b{card_id}\b", s)]
    assert own, f"{key}: the text never names its own card: {text}"
    assert any(re.search(DE[where], s) for s in own), f"{key} goes '{where}': {text}"
    assert re.search(gains, text), f"{key}: who gains ({gains}) is not in: {text}"
    if loses is not None:
        assert re.search(loses, text), f"{key}: who loses ({loses}) is not in: {text}"


@pytest.mark.parametrize("key", sorted(HOSPITAL))
def test_the_text_acts_in_every_variant_that_deals_it(hospital, key):
    data, _ = hospital
    does = HOSPITAL[key][3]
    for variant in _variants_with_special_cards(data):
        assert does & VARIANT_OFFERS[variant], \
            f"{key} does nothing in {variant} ({sorted(does)} needs one of " \
            f"{sorted(VARIANT_OFFERS[variant])})"


def test_cards_that_only_lay_quartets_are_kept_out_of_werte_stechen(hospital):
    """S11 and ER6 do nothing where no quartet is laid: the checker keeps every special card
    out of Werte stechen, as the rulebook says."""
    data, _ = hospital
    assert "duell" not in _variants_with_special_cards(data)
    lay_only = [key for key, (_, _, _, does) in HOSPITAL.items() if does == {"lay"}]
    assert sorted(lay_only) == ["ER6 active", "S11 active"]
    report = Report()
    compose(data, Choice(variant="duell", special="S11"), report)
    assert [d.message for d in report.errors] == [
        "is played without special cards; --special S11 adds 1"]


def test_l_cards_duel_in_the_common_categories_and_cost_minus_points(hospital):
    """L cards carry no text: they act in the duel (common categories), go to the winner's
    stack like any card, or to the office by 'Use it or lose it' — all of it Mix It's."""
    data, _ = hospital
    common = {value.key for category in data.pack.categories if category.common
              and "K" in category.kinds for value in category.values}
    rules = " ".join(block.p for _, chapter in data.chapters for block in chapter.blocks
                     if hasattr(block, "p"))
    assert "Use it or lose it" in " ".join(getattr(b, "h2", "") for _, ch in data.chapters
                                           for b in ch.blocks)
    assert "Büro" in rules and "Rückschlag" in " ".join(
        getattr(b, "h2", "") for _, ch in data.chapters for b in ch.blocks)
    for lc in data.cards_of("K"):
        assert common <= set(lc.card.stats), lc.card.id
        assert lc.card.penalty < 0, lc.card.id
    assert _variants_with_special_cards(data) == ["mix-it"]


# --- Dokter LI: the action cards -------------------------------------------------------------
# name → (where it goes, who gains, who loses, the cards it needs to do anything)
DOKTER = {
    "Een nieuwe golf": ("now", None, r"Alle spelers\*\* leveren meteen", ()),
    "Hamsteren": ("now", None, r"Alle spelers\*\* met \*\*meer dan 5 kaarten", ()),
    "Een oppeppertje": ("now", r"trek meteen", None, ()),
    "Verzwarende omstandigheden": ("now", None, r"Alleen voor jou: lever meteen", ()),
    "Wel da’s spijtig": ("hand", r"die geeft jou", r"een speler naar keuze", ()),
    "Troef!": ("hand", r"af te weren|op te heffen", r"beletten een categorie af te leggen",
               ("Verzwarende omstandigheden", "Wel da’s spijtig")),
    "Een platte curve": ("hand", r"af te weren", None, ("Een nieuwe golf",)),
    "Licht puntje": ("hand", r"neem \*\*1 kaart naar keuze\*\*", None, ()),
    "Ik dacht het niet": ("hand", r"van tafel te vegen", r"bij een andere speler", ()),
}


@pytest.fixture(scope="module")
def dokter():
    return shipped_data("dokter-li")


def test_every_action_card_is_read(dokter):
    assert {lc.card.name for lc in dokter.cards_of("actie")} == set(DOKTER)


@pytest.mark.parametrize("name", sorted(DOKTER))
def test_where_an_action_card_goes_and_who_gains_and_loses(dokter, name):
    where, gains, loses, _ = DOKTER[name]
    rules = " ".join(getattr(block, "note", "") for _, chapter in dokter.chapters
                     for block in chapter.blocks)
    for lc in dokter.cards_of("actie"):
        if lc.card.name != name:
            continue
        text = lc.card.texts["effect"]
        if where == "hand":
            assert lc.card.extra_fields["timing"] == "hand" and "in je hand" in text, text
        else:  # it acts at once and goes to the action discard pile (chapter Voorbereiding)
            assert lc.card.extra_fields["timing"] in ("iedereen", "actief"), lc.card.id
            assert "Ook uitgespeelde actiekaarten komen op de actie-aflegstapel" in rules
        if gains is not None:
            assert re.search(gains, text), f"{lc.card.id}: {text}"
        if loses is not None:
            assert re.search(loses, text), f"{lc.card.id}: {text}"
        # the colour tells helpful from harmful cards
        helps = lc.card.extra_fields["soort"] == "hulp"
        assert helps == (gains is not None), lc.card.id


@pytest.mark.parametrize("choice", [
    Choice(preset="basis-2", players=2), Choice(preset="basis", players=3),
    Choice(preset="basis", players=4), Choice(preset="dynamisch", players=2),
    Choice(preset="dynamisch", players=4)], ids=lambda c: f"{c.preset}-{c.players}")
def test_every_action_card_does_something_in_every_version(dokter, choice):
    """A card that answers another (Een platte curve a new wave, Troef! a setback) finds it
    in every deck a version deals, at every player count."""
    report = Report()
    deck = compose(dokter, choice, report)
    assert deck is not None and not report.errors, [d.message for d in report.errors]
    names = {lc.card.name for lc in deck.cards if lc.kind == "actie"}
    for name in names:
        needs = DOKTER[name][3]
        assert not needs or names & set(needs), f"{name} has nothing to answer in {choice}"


# --- the other packs have no special cards ---------------------------------------------------

@pytest.mark.parametrize("pack", PACKS)
def test_every_pack_is_covered(pack):
    declared = load_composition(shipped_data(pack), Report())
    special = list(declared.composition.special_kinds) if declared else []
    expected = {"crazy-hospital": ["K", "S", "ER"], "dokter-li": ["actie"]}.get(pack, [])
    assert special == expected
