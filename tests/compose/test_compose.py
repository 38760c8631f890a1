"""The composition checker through `cardgen check PACK --preset/--cards/--option ...`.

Every constraint type of composition.yaml and every option rule of crazy-hospital is run with a
choice that passes and one that fails, and the diagnostic is asserted word for word: these texts
are what a player reads when a game setup is refused.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cardgen.compose import Choice, compose
from cardgen.diagnostics import Report
from cardgen.paths import ROOT
from cardgen.model.compose import Composition

SHIPPED = ROOT / "card_data"
CL = "command line (crazy-hospital): "
SLUGS = ["kreuz-und-quer", "buero", "teams", "verschwoerung", "verrat", "ablegen",
         "unentschieden", "unentschieden-wechsel", "fight-for-your-right", "feierabend",
         "letzte-drei", "challenge-1", "challenge-2", "mehrfachattacke",
         "survival-of-the-fittest", "schieben", "dreieck-des-boesen", "auf-die-harte-tour",
         "alternatives-anspiel-1", "alternatives-anspiel-2", "running-out-of-doctors",
         "aerztemangel"]


@pytest.fixture
def check(cli, shipped_checks_once):
    """`cardgen check PACK --data <shipped packs> ARGS` (crazy-hospital unless pack= is given);
    a shipped pack's own checks run once per session (conftest.shipped_checks_once)."""
    def run(*args, pack="crazy-hospital", data=SHIPPED):
        return cli("check", pack, "--data", data, *args)
    return run


def diags(result) -> list[str]:
    """The diagnostics of a run (stderr without the summary line)."""
    return [line for line in result.stderr.splitlines()
            if ": error: " in line or ": warning: " in line]


def row(result, label: str) -> str:
    """The value of one row of the --report table."""
    for line in result.stdout.splitlines():
        match = re.match(rf"^  {re.escape(label)}\s{{2,}}(.*)$", line)
        if match:
            return match.group(1)
    raise AssertionError(f"no row {label!r} in:\n{result.stdout}")


def passes(result) -> None:
    assert result.exit_code == 0, result.stderr
    assert diags(result) == []
    assert result.stdout.rstrip().endswith("ok")


def fails(result, *expected: str) -> None:
    """Exit 1 and exactly these diagnostics (in the printed order)."""
    assert result.exit_code == 1, result.stdout + result.stderr
    assert diags(result) == list(expected)
    assert "Traceback" not in result.stderr


def test_a_replayed_pack_check_says_what_a_real_one_says(cli, shipped_checks_once, monkeypatch):
    """The tests below check the shipped pack's own checks once and replay them: a replayed
    run prints exactly what a real one prints."""
    args = ("check", "crazy-hospital", "--data", SHIPPED, "--preset", "balanced-32", "--seed",
            "7", "--option", "buero", "--players", "3", "--report")
    replayed = [cli(*args), cli(*args)]  # the first may fill the cache, the second replays
    monkeypatch.undo()  # the real functions again
    real = cli(*args)
    assert "checks" in real.stdout and "buero" in real.stdout
    for result in replayed:
        assert (result.exit_code, result.stdout, result.stderr) == \
            (real.exit_code, real.stdout, real.stderr)


def test_a_check_replayed_in_another_folder_is_one_made_there(cli, shipped_checks_once,
                                                              tmp_path, monkeypatch):
    """A loaded pack holds its paths as shown from the working directory: the replay of a
    check made in another folder would find no card file of the pack, and no deck."""
    args = ("check", "crazy-hospital", "--data", SHIPPED, "--preset", "full-64", "--report")
    here = cli(*args)
    monkeypatch.chdir(tmp_path)
    there = cli(*args)
    assert "deck cards" in there.stdout and there.stdout == here.stdout


# --- the whole pack, presets, lists, random draws --------------------------------------------

def test_no_choice_is_the_whole_pack_and_passes(check):
    result = check("--report")
    passes(result)
    assert row(result, "deck") == "every card of the pack"
    assert row(result, "cards") == "104: 64 character, 8 K, 23 S, 9 ER"
    assert row(result, "deck cards") == "A1–A4, B1–B4, C1–C4, D1–D8, E1–E4, F1–F32, G1–G8"
    assert row(result, "sets") == "A: 4, B: 4, C: 4, D: 8, E: 4, F: 32, G: 8"
    assert row(result, "quartets") == "16 (D: 2, F: 8, G: 2, A/B/C/E: 1 each)"
    assert row(result, "groups") == ("innere 14, anaesthesie 14, orthopaedie 14, reha 14; "
                                     "shared: G1–G4 (innere or anaesthesie); G5–G8 "
                                     "(orthopaedie or reha)")
    assert row(result, "special cards") == "40: L1–L8, S1–S23, ER1–ER9"
    assert row(result, "variant") == "mix-it — Quartett Mix It (2–8 players) (default)"
    assert row(result, "options") == "none"


def test_every_pack_passes_without_a_choice(cli):
    result = cli("check", "--data", SHIPPED)
    assert result.exit_code == 0, result.stderr
    assert "command line" not in result.stderr


def test_preset_full_64(check):
    result = check("--preset", "full-64", "--report")
    passes(result)
    assert row(result, "deck") == "preset full-64 — alle 64 Charakterkarten"
    assert row(result, "cards") == "104: 64 character, 8 K, 23 S, 9 ER"


def test_preset_balanced_32_draws_12_f_and_4_g_cards_with_the_seed(check):
    first = check("--preset", "balanced-32", "--seed", "7", "--report")
    passes(first)
    assert row(first, "seed") == "7"
    assert row(first, "sets") == "A: 4, C: 4, D: 8, F: 12, G: 4"
    assert row(first, "quartets") == "8 (D: 2, F: 3, A/C/G: 1 each)"
    assert row(first, "deck cards").startswith("A1–A4, C1–C4, D1–D8, F")
    again = check("--preset", "balanced-32", "--seed", "7", "--report")
    assert again.stdout == first.stdout
    other = check("--preset", "balanced-32", "--seed", "8", "--report")
    assert row(other, "deck cards") != row(first, "deck cards")
    assert row(other, "sets") == "A: 4, C: 4, D: 8, F: 12, G: 4"


def test_preset_einstieg_32_is_fixed_and_without_special_cards(check):
    result = check("--preset", "einstieg-32", "--report")
    passes(result)
    assert row(result, "cards") == "32: 32 character, 0 K, 0 S, 0 ER"
    assert row(result, "deck cards") == ("A1–A4, C1–C4, D1–D8, F1–F3, F9–F11, F17–F19, "
                                         "F25–F27, G1, G2, G5, G6")
    assert row(result, "special cards") == "none"
    assert "seed" not in result.stdout


def test_unknown_preset_suggests_the_closest(check):
    fails(check("--preset", "balanced-23"),
          CL + "error: --preset balanced-23: no such preset (did you mean 'balanced-32'?); "
          "crazy-hospital has full-64, balanced-32, einstieg-32")


def test_custom_list_with_complete_quartets_passes(check):
    result = check("--cards", "A1-A4,C1–C4, D1-D8,F1-F12,G1-G4", "--special", "none",
                   "--report")
    passes(result)
    assert row(result, "cards") == "32: 32 character, 0 K, 0 S, 0 ER"
    assert row(result, "quartets") == "8 (D: 2, F: 3, A/C/G: 1 each)"
    assert row(result, "repeat with") == ("--cards 'A1-A4,C1–C4, D1-D8,F1-F12,G1-G4' "
                                          "--special none")


def test_crazy_hospital_plays_with_32_or_64_character_cards(check):
    fails(check("--cards", "A1-A4,C1-C4,D1-D8,F1-F16,G1-G8", "--special", "none"),
          CL + "error: 32 oder 64 Charakterkarten needs 32 or 64 character cards; the chosen "
          "deck has 40")


def test_custom_list_names_the_quartets_that_cannot_be_completed(check):
    fails(check("--cards", "A1-A3,C1-C4,F1-F14,G1"),
          CL + "error: quartet A cannot be completed: the deck holds 3 cards of A (A1–A3), "
          "1 short of a quartet; add A4 or leave the 3 out",
          CL + "error: quartet F cannot be completed: the deck holds 14 cards of F, 2 short of "
          "4 quartets; add 2 of F15–F32 or leave 2 out",
          CL + "error: quartet G cannot be completed: the deck holds 1 card of G (G1), 3 short "
          "of a quartet; add 3 of G2–G8 or leave it out",
          CL + "error: 32 oder 64 Charakterkarten needs 32 or 64 character cards; the chosen "
          "deck has 22")


def test_custom_list_rejects_unknown_and_special_cards(check):
    fails(check("--cards", "A1-A4,A9,S2", "--special", "none"),
          CL + "error: --cards S2: S2 is a special card (kind S); choose special cards with "
          "--special",
          CL + "error: --cards: no card 'A9'")
    fails(check("--cards", "F30-F35"),
          CL + "error: --cards: 'F30-F35': the pack has no card F33, F34, F35")


def test_patterns_and_kinds_name_cards(check):
    result = check("--cards", "F*", "--special", "K", "--report")
    passes(result)
    assert row(result, "deck cards") == "F1–F32"
    assert row(result, "special cards") == "8: L1–L8"


def test_deck_is_chosen_one_way_only(check):
    fails(check("--preset", "full-64", "--random", "32"),
          CL + "error: --preset and --random: choose the deck one way only (a preset, a list "
          "of cards or a random draw)")


def test_random_deck_is_reproducible_and_drawn_in_whole_quartets(check):
    first = check("--random", "32", "--seed", "11", "--report")
    passes(first)
    assert row(first, "cards") == "72: 32 character, 8 K, 23 S, 9 ER"
    sets = dict(part.split(": ") for part in row(first, "sets").split(", "))
    assert sum(map(int, sets.values())) == 32
    assert all(int(n) % 4 == 0 for n in sets.values())
    assert check("--random", "32", "--seed", "11", "--report").stdout == first.stdout
    assert row(check("--random", "32", "--seed", "12", "--report"), "deck cards") != \
        row(first, "deck cards")


def test_random_deck_without_seed_prints_the_seed_to_repeat_it(check):
    result = check("--random", "32", "--special", "random:2")
    passes(result)
    match = re.search(r"crazy-hospital note: drawn at random with seed (\d+); add --seed (\d+) "
                      r"to get this deck again", result.stdout)
    assert match and match.group(1) == match.group(2)
    seed = match.group(1)
    first = check("--random", "32", "--special", "random:2", "--seed", seed, "--report")
    again = check("--random", "32", "--special", "random:2", "--seed", seed, "--report")
    assert row(first, "deck cards") == row(again, "deck cards")
    assert row(first, "special cards") == row(again, "special cards")
    assert f"seed {seed}" in result.stdout


def test_random_deck_size_must_fit(check):
    fails(check("--random", "30", "--seed", "1"),
          CL + "error: --random 30: a random deck is drawn in whole quartets of 4 cards; give a "
          "multiple of 4, like 28 or 32")
    fails(check("--random", "68", "--seed", "1"),
          CL + "error: --random 68: the pack has only 64 character cards")


def test_seed_without_a_draw_is_a_note(check):
    result = check("--preset", "full-64", "--seed", "3")
    passes(result)
    assert "crazy-hospital note: --seed 3 changes nothing: nothing is drawn at random" in \
        result.stdout


# --- special cards --------------------------------------------------------------------------

def test_special_list_none_and_random(check, shipped_checks_once):
    result = check("--special", "S2-S4,L1", "--report")
    passes(result)
    assert row(result, "special cards") == "4: L1, S2–S4"
    assert row(check("--special", "none", "--report"), "special cards") == "none"
    drawn = check("--special", "S2-S4,random:3", "--seed", "5", "--report")
    passes(drawn)
    assert row(drawn, "special cards").startswith("6: ")
    assert check("--special", "S2-S4,random:3", "--seed", "5", "--report").stdout == drawn.stdout
    report = Report()
    data = shipped_checks_once("crazy-hospital")
    deck = compose(data, Choice(special="S2-S4,random:3", seed=5), report)
    ids = [lc.card.id for lc in deck.special_cards]
    assert len(ids) == 6 and {"S2", "S3", "S4"} <= set(ids)
    assert row(drawn, "special cards") == "6: " + deck.ids(deck.special_cards)


def test_special_list_rejects_deck_cards_and_bad_items(check):
    fails(check("--special", "S2,A1"),
          CL + "error: --special A1: A1 is not a special card (special cards are of kind K, S, "
          "ER); choose deck cards with --cards")
    fails(check("--special", "none,S2"),
          CL + "error: --special none,S2: 'none' cannot be combined with other items")
    fails(check("--special", "random:x"),
          CL + "error: --special random:x: write random:N with a number N ≥ 1")
    fails(check("--special", "random:41", "--seed", "1"),
          CL + "error: --special random:41: only 40 special cards are left to draw from")


# --- variants and players -------------------------------------------------------------------

def test_player_count_must_fit_the_variant(check):
    passes(check("--variant", "klassik", "--players", "3"))
    fails(check("--variant", "klassik", "--players", "2"),
          CL + "error: klassik is for 3–8 players; the game has 2")
    fails(check("--players", "9"), CL + "error: mix-it is for 2–8 players; the game has 9")
    result = check("--variant", "duell", "--players", "2", "--report")
    passes(result)
    assert row(result, "players") == "2 — 32 cards each"  # Duell: no special cards unless chosen


def test_players_show_the_hand_size(check):
    result = check("--preset", "einstieg-32", "--players", "5", "--report")
    assert row(result, "players") == "5 — 6–7 cards each"


def test_klassik_is_played_without_special_cards(check):
    result = check("--variant", "klassik", "--report")
    passes(result)
    assert row(result, "special cards") == "none"
    fails(check("--variant", "klassik", "--special", "S2"),
          CL + "error: klassik is played without special cards; --special S2 adds 1")


def test_unknown_variant_and_option_suggest_the_closest(check):
    fails(check("--variant", "mixit", "--option", "kreuz-und-qer"),
          CL + "error: --option kreuz-und-qer: no such option (did you mean 'kreuz-und-quer'?)",
          CL + "error: --variant mixit: no such variant (did you mean 'mix-it'?); crazy-hospital "
          "has klassik, duell, mix-it")


def test_options_belong_to_their_variants(check):
    fails(check("--variant", "klassik", "--option", "buero"),
          CL + "error: buero is an option of mix-it; the chosen variant is klassik",
          CL + "error: buero needs special cards; the chosen deck has none")
    passes(check("--variant", "duell", "--option", "challenge-1"))
    fails(check("--variant", "duell", "--option", "teams"),
          CL + "error: teams is an option of mix-it; the chosen variant is duell")
    fails(check("--variant", "klassik", "--option", "challenge-1"),
          CL + "error: challenge-1 is an option of duell and mix-it; the chosen variant is "
          "klassik")


def test_all_options_of_the_seed_are_declared(check, shipped_checks_once):
    """Every option is known to the composition checker (one `cardgen check` for the command
    line, the others through compose(): the pack is loaded once, not 22 times)."""
    result = check("--option", SLUGS[0], "--players", "4", "--teams", "2,2")
    assert "no such option" not in result.stderr
    data = shipped_checks_once("crazy-hospital")
    for slug in SLUGS:
        report = Report()
        compose(data, Choice(options=(slug,), players=4, teams="2,2"), report)
        assert not [d for d in report.items if "no such option" in d.format()], slug


# --- each option's rule: one choice that passes, one that fails --------------------------------

def test_kreuz_und_quer_needs_64_character_cards(check):
    result = check("--option", "kreuz-und-quer", "--report")
    passes(result)
    assert row(result, "octets") == (
        "innere 2 [80, 95 with ≥ 7 different sets (reachable)], anaesthesie 2 [80], "
        "orthopaedie 2 [75, 90 with ≥ 6 different sets (reachable)], reha 2 [65, 80 with ≥ 4 "
        "different sets (reachable)]; at most 8 at once")
    fails(check("--option", "kreuz-und-quer", "--preset", "balanced-32", "--seed", "1"),
          CL + "error: kreuz-und-quer needs 64 character cards; the chosen deck has 32")


def test_octets_must_be_reachable_with_the_option_that_declares_them(check):
    fails(check("--option", "kreuz-und-quer", "--cards", "A1-A4,B1-B4"),
          CL + "error: 32 oder 64 Charakterkarten needs 32 or 64 character cards; the chosen "
          "deck has 8",
          CL + "error: kreuz-und-quer cannot form an octet of anaesthesie: the deck holds 2 "
          "anaesthesie cards; an octet needs 8",
          CL + "error: kreuz-und-quer cannot form an octet of innere: the deck holds 2 innere "
          "cards; an octet needs 8",
          CL + "error: kreuz-und-quer cannot form an octet of orthopaedie: the deck holds 2 "
          "orthopaedie cards; an octet needs 8",
          CL + "error: kreuz-und-quer cannot form an octet of reha: the deck holds 2 reha cards; "
          "an octet needs 8",
          CL + "error: kreuz-und-quer needs 64 character cards; the chosen deck has 8")


def test_octet_counts_shared_cards_for_either_group(check):
    # innere 6 + anaesthesie 4 own cards, G1–G4 may count for either: each group alone reaches
    # an octet, but both at once would need 6 shared cards, and there are 4
    result = check("--cards", "A1,B1,C1,D1,E1,F1,A2,B2,C2,D3,G1-G4", "--special", "none",
                   "--report")
    assert row(result, "groups") == ("innere 6, anaesthesie 4, orthopaedie 0, reha 0; shared: "
                                     "G1–G4 (innere or anaesthesie)")
    assert row(result, "octets") == (
        "innere 1 [80, 95 with ≥ 7 different sets (reachable)], anaesthesie 1 [80], "
        "orthopaedie 0 [75, 90 with ≥ 6 different sets (not reachable: 0 different sets)], "
        "reha 0 [65, 80 with ≥ 4 different sets (not reachable: 0 different sets)]; at most 1 "
        "at once (only with kreuz-und-quer)")


def test_challenge_1_cannot_combine_with_mehrfachattacke(check):
    passes(check("--option", "challenge-1", "--players", "4"))
    passes(check("--option", "mehrfachattacke", "--players", "4"))
    fails(check("--option", "challenge-1", "--option", "mehrfachattacke", "--players", "4"),
          CL + "error: challenge-1 cannot be combined with mehrfachattacke")


def test_challenge_1_needs_a_card_from_a_to_c(check):
    fails(check("--option", "challenge-1", "--cards", "F1-F8"),
          CL + "error: 32 oder 64 Charakterkarten needs 32 or 64 character cards; the chosen "
          "deck has 8",
          CL + "error: challenge-1 needs cards of set A, B or C; the chosen deck has none")


def test_mehrfachattacke_is_meant_for_three_or_more_players(check):
    result = check("--option", "mehrfachattacke", "--players", "2")
    assert result.exit_code == 0
    assert diags(result) == [CL + "warning: mehrfachattacke is meant for 3–8 players; the game "
                             "has 2"]
    strict = check("--option", "mehrfachattacke", "--players", "2", "--strict")
    assert strict.exit_code == 1


def test_dreieck_des_boesen_needs_s2_to_s4(check):
    passes(check("--option", "dreieck-des-boesen", "--special", "S2-S4"))
    fails(check("--option", "dreieck-des-boesen", "--special", "S2,S5"),
          CL + "error: dreieck-des-boesen needs S2–S4 in play; S3, S4 are missing")


def test_survival_of_the_fittest_needs_s2(check):
    passes(check("--option", "survival-of-the-fittest", "--special", "S2"))
    fails(check("--option", "survival-of-the-fittest", "--special", "S3"),
          CL + "error: survival-of-the-fittest needs S2 in play; S2 is missing")


@pytest.mark.parametrize("slug", ["buero", "feierabend", "running-out-of-doctors"])
def test_options_that_need_special_cards(check, slug):
    passes(check("--option", slug, "--special", "S5,ER1"))
    fails(check("--option", slug, "--special", "none"),
          CL + f"error: {slug} needs special cards; the chosen deck has none")


def test_buero_without_the_patientenmanagerin_is_a_note(check):
    result = check("--option", "buero", "--special", "S2")
    passes(result)
    assert ("crazy-hospital note: buero: Ohne die Patientenmanagerin (S5) gibt es keine "
            "Ausnahme: Karten im Büro werden immer verdeckt abgelegt und verdeckt gezogen."
            ) in result.stdout
    assert "Patientenmanagerin" not in check("--option", "buero", "--special", "S5").stdout


def test_fight_for_your_right_needs_g_cards(check):
    passes(check("--option", "fight-for-your-right", "--cards", "A1-A4,C1-C4,D1-D8,F1-F12,G1-G4"))
    fails(check("--option", "fight-for-your-right", "--cards", "A1-A4,C1-C4,D1-D8,F1-F16"),
          CL + "error: fight-for-your-right needs cards of set G; the chosen deck has none")


def test_teams_are_two_to_four_players_each(check):
    result = check("--option", "teams", "--teams", "2,3", "--report")
    passes(result)
    assert row(result, "teams") == "2 + 3"
    assert row(result, "players").startswith("5 — ")
    passes(check("--option", "teams", "--players", "6"))
    fails(check("--option", "teams", "--teams", "2,5"),
          CL + "error: teams needs 2–4 players per team; team 2 has 5")
    fails(check("--option", "teams", "--teams", "4"),
          CL + "error: teams needs at least 2 teams; --teams 4 gives 1")
    fails(check("--option", "teams", "--teams", "2,2", "--players", "5"),
          CL + "error: --teams 2,2 adds up to 4 players, but --players is 5")
    fails(check("--option", "teams", "--players", "3"),
          CL + "error: teams needs at least 2 teams of 2–4 players; 3 players cannot be split so")
    fails(check("--teams", "2,2"),
          CL + "error: --teams 2,2: playing in teams is an option: add --option teams")
    fails(check("--option", "teams", "--teams", "2,x"),
          CL + "error: --teams 2,x: give the size of each team, like 2,2,3")


@pytest.mark.parametrize("slug", ["verschwoerung", "verrat", "auf-die-harte-tour",
                                  "alternatives-anspiel-1"])
def test_digital_only_options_cannot_be_printed(check, slug):
    fails(check("--option", slug),
          CL + f"error: {slug} exists only in the digital version (app); printed cards cannot "
          "play it")


def test_unentschieden_wechsel_is_the_alternative_to_unentschieden(check):
    passes(check("--option", "unentschieden-wechsel"))
    fails(check("--option", "unentschieden,unentschieden-wechsel"),
          CL + "error: unentschieden cannot be combined with unentschieden-wechsel")


@pytest.mark.parametrize("slug", ["ablegen", "letzte-drei", "challenge-2", "schieben",
                                  "alternatives-anspiel-2", "aerztemangel", "unentschieden"])
def test_options_without_a_card_rule_pass(check, slug):
    result = check("--option", slug, "--players", "4", "--report")
    passes(result)
    assert row(result, "options").startswith(f"{slug} (")


def test_many_problems_are_reported_at_once(check):
    fails(check("--preset", "balanced-32", "--seed", "2", "--special", "S3", "--players", "2",
                "--option", "kreuz-und-quer,dreieck-des-boesen,verrat,challenge-1",
                "--option", "mehrfachattacke"),
          CL + "error: challenge-1 cannot be combined with mehrfachattacke",
          CL + "error: dreieck-des-boesen needs S2–S4 in play; S2, S4 are missing",
          CL + "error: kreuz-und-quer needs 64 character cards; the chosen deck has 32",
          CL + "error: verrat exists only in the digital version (app); printed cards cannot "
          "play it",
          CL + "warning: mehrfachattacke is meant for 3–8 players; the game has 2")


def test_deck_options_need_exactly_one_pack(cli):
    result = cli("check", "--data", SHIPPED, "--option", "buero")
    assert result.exit_code == 2
    assert "name exactly one PACK" in result.stderr


# --- the other packs: deal rules and a set structure ---------------------------------------------

def test_quartett_deals_by_player_count(check):
    three = check("--players", "3", "--report", pack="quartett")
    passes(three)
    assert row(three, "players") == "3 — 7 cards each, 31 left over"
    assert row(three, "quartets") == "13"
    four = check("--players", "4", "--report", pack="quartett")
    assert row(four, "players") == "4 — 5 cards each, 32 left over"
    fails(check("--players", "11", pack="quartett"),
          "command line (quartett): error: --players 11: the deal rules cover 2–10 players")


def test_quatridou_structure_and_player_count(check):
    result = check("--report", pack="quatridou")
    passes(result)
    assert row(result, "structure") == ("4×4 + 3×3 + 12×2 = 49 cards; the deck has 19 sets, "
                                        "49 cards")
    fails(check("--players", "3", pack="quatridou"),
          "command line (quatridou): error: memo is for 2 players; the game has 3")
    fails(check("--cards", "Q1a-Q1c,T1*", pack="quatridou"),
          "command line (quatridou): error: set Wetter cannot be completed: the deck holds 3 of "
          "its 4 cards; Q1d is missing",
          "command line (quatridou): error: laid out 7 × 7 needs 49 motiv cards; the chosen deck "
          "has 6")


# --- composition.yaml itself: errors at its lines ------------------------------------------------

def broken_copy(tmp_path: Path, pack: str, replace: dict[str, str]) -> Path:
    """tmp_path/card_data/<pack> with text replaced in composition.yaml (each must occur)."""
    target = tmp_path / "card_data" / pack
    shutil.copytree(SHIPPED / pack, target)
    path = target / "composition.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return tmp_path / "card_data"


def line_of(folder: Path, pack: str, text: str) -> int:
    lines = (folder / pack / "composition.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_declaration_errors_point_at_composition_yaml(check, tmp_path, monkeypatch):
    data = broken_copy(tmp_path, "crazy-hospital", {
        "      - {cards: [S2-S4]}": "      - {cards: [S2-S40]}",
        "    excludes: [mehrfachattacke]": "    excludes: [mehrfachatacke]",
        "      - {draw: 4, from: [G1-G8]}": "      - {draw: 9, from: [G1-G8]}",
        "    variants: [duell, mix-it]\n    excludes: [unentschieden]":
            "    variants: [duel, mix-it]\n    excludes: [unentschieden]",
        "      - {set: G} ": "      - {set: H} ",
    })
    monkeypatch.chdir(tmp_path)
    f = "card_data/crazy-hospital/composition.yaml"
    result = check(data=data)
    fails(result,
          f"{f}:{line_of(data, 'crazy-hospital', 'draw: 9')}:16: error: balanced-32 draw: 9 "
          "cards cannot be drawn from 8",
          f"{f}:{line_of(data, 'crazy-hospital', '[duel, mix-it]')}:16: error: "
          "unentschieden-wechsel variants: unknown variant 'duel' (did you mean 'duell'?)",
          f"{f}:{line_of(data, 'crazy-hospital', '{set: H}')}:15: error: fight-for-your-right "
          "set: no card has the set 'H'",
          f"{f}:{line_of(data, 'crazy-hospital', 'mehrfachatacke]')}:16: error: challenge-1 "
          "excludes: unknown option 'mehrfachatacke' (did you mean 'mehrfachattacke'?)",
          f"{f}:{line_of(data, 'crazy-hospital', 'S2-S40')}:18: error: dreieck-des-boesen "
          "cards: 'S2-S40': the pack has no card S24 … S40")


def test_unknown_keys_in_composition_yaml(check, tmp_path, monkeypatch):
    data = broken_copy(tmp_path, "crazy-hospital", {"sets_of: 4": "sets_of: 4\nset_of: 4",
                                                    "{deck_size: 64}": "{deck_sise: 64}"})
    monkeypatch.chdir(tmp_path)
    f = "card_data/crazy-hospital/composition.yaml"
    result = check(data=data)
    assert result.exit_code == 1
    found = diags(result)
    assert f"{f}:{line_of(data, 'crazy-hospital', 'set_of: 4')}:1: error: unknown key 'set_of' " \
           "(did you mean 'sets_of'?)" in found
    assert any(line.startswith(f"{f}:{line_of(data, 'crazy-hospital', 'deck_sise')}:") and
               "a need has one of the keys deck_size, cards, without, of, special_cards, set, "
               "kind, players"
               in line for line in found), found


def test_structure_mismatch_points_at_the_set(check, tmp_path, monkeypatch):
    target = tmp_path / "card_data" / "quatridou"
    shutil.copytree(SHIPPED / "quatridou", target)
    cards = target / "cards" / "1-quadruples.yaml"
    text = cards.read_text(encoding="utf-8")
    assert "set: Wetter, satz: quadruple" in text
    cards.write_text(text.replace("set: Wetter, satz: quadruple", "set: Wetter, satz: triple"),
                     encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = check(pack="quatridou", data=tmp_path / "card_data")
    assert result.exit_code == 1
    lines = cards.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines, 1) if "set: Wetter" in line)
    struct = (target / "composition.yaml").read_text(encoding="utf-8").splitlines()
    quad = next(i for i, line in enumerate(struct, 1) if "label: quadruple" in line)
    tri = next(i for i, line in enumerate(struct, 1) if "label: triple" in line)
    column = lines[first - 1].index("Wetter") + 1
    assert diags(result) == [
        f"card_data/quatridou/cards/1-quadruples.yaml:{first}:{column}: error: Q1a set 'Wetter' "
        "has 4 cards, but triple sets have 3",
        f"card_data/quatridou/composition.yaml:{quad}:5: error: structure: 4 quadruple sets "
        "expected, the pack has 3 (Schach, Tiere, Kartenfarben)",
    ]
    assert tri > quad


def test_no_python_names_a_game():
    """Options, variants and presets live in composition.yaml; the engine names none of them."""
    words = [s for s in SLUGS if s != "teams"] + ["mix-it", "klassik", "duell", "balanced-32",
                                                   "full-64", "einstieg-32"]
    engine = [p for p in (ROOT / "cardgen").rglob("*.py") if p.parent.name != "cli"]
    for path in engine + [ROOT / "cardgen" / "cli" / "choice.py"]:  # (help examples may)
        text = path.read_text(encoding="utf-8")
        for word in words:
            assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), \
                f"{path} names {word}"
    mine = [*(ROOT / "cardgen" / "compose").glob("*.py"), ROOT / "cardgen/model/compose.py"]
    for path in mine:
        text = path.read_text(encoding="utf-8")
        for word in ("crazy-hospital", "quartett", "quatridou", "Patientenmanagerin", "S5"):
            assert word not in text, f"{path} names {word}"


def test_composition_schema_builds():
    schema = Composition.model_json_schema()
    assert {"deck_kinds", "presets", "variants", "options", "octets", "deal",
            "structure"} <= set(schema["properties"])


# --- the pack itself, and packs without composition.yaml ------------------------------------------

def test_whole_pack_with_an_incomplete_quartet_points_at_the_cards(check, tmp_path, monkeypatch):
    target = tmp_path / "card_data" / "crazy-hospital"
    shutil.copytree(SHIPPED / "crazy-hospital", target)
    path = target / "cards" / "character.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  - id: F32")
    at = text.index("    set: F", start)
    path.write_text(text[:at] + "    set: G" + text[at + len("    set: F"):], encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    f1 = lines.index("  - id: F1") + 1
    f1_set = next(i for i in range(f1, len(lines)) if lines[i - 1] == "    set: F")
    f32_set = next(i for i in range(lines.index("  - id: F32") + 1, len(lines))
                   if lines[i - 1] == "    set: G")
    monkeypatch.chdir(tmp_path)
    result = check(data=tmp_path / "card_data")
    assert result.exit_code == 1
    errors = [d for d in diags(result) if ": error: " in d]
    assert errors == [
        f"card_data/crazy-hospital/cards/character.yaml:{f1_set}:10: error: quartet F cannot be "
        "completed: the pack holds 31 cards of F (F1–F31), not a multiple of 4",
        f"card_data/crazy-hospital/cards/character.yaml:{f32_set}:10: error: quartet G cannot be "
        "completed: the pack holds 9 cards of G (F32, G1–G8), not a multiple of 4",
    ]


def test_an_option_missing_from_the_rulebook_is_a_warning(check, tmp_path, monkeypatch):
    data = broken_copy(tmp_path, "crazy-hospital", {
        "  aerztemangel:\n": "  nachtdienst:\n    label: Nachtdienst\n  aerztemangel:\n"})
    monkeypatch.chdir(tmp_path)
    result = check(data=data)
    assert result.exit_code == 0
    assert diags(result) == [
        f"card_data/crazy-hospital/composition.yaml:"
        f"{line_of(data, 'crazy-hospital', 'label: Nachtdienst')}:5: warning: nachtdienst is not "
        "described in the rulebook (no 'option: nachtdienst' block in rules/)"]


def test_a_pack_without_composition_yaml_is_one_deck_of_every_card(cli):
    mini = Path(__file__).parent.parent / "fixtures" / "valid" / "card_data"
    result = cli("check", "mini", "--data", mini, "--players", "2", "--report")
    assert result.exit_code == 0, result.stderr
    assert row(result, "deck") == "every card of the pack"
    assert row(result, "players") == "2 — 2 cards each"
    result = cli("check", "mini", "--data", mini, "--preset", "x", "--option", "y")
    assert result.exit_code == 1
    assert diags(result) == ["command line (mini): error: --preset, --option: the pack mini has "
                             "no composition.yaml, so it declares no presets, variants or options"]
