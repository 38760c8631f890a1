"""balance.yaml: what `cardgen balance` compares, plays and suggests for one pack.

Why a file of its own: pack.yaml already says which categories exist, which value wins (`wins`)
and that a level's detail value breaks a tie (`tie_break`); composition.yaml says which variants
exist and how octets score. balance.yaml declares only what neither says: which categories compare
only within one set (rank), how a variant is played by the simulation, what a quartet scores, and
the rule by which card points or penalties are suggested.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from .base import Model, Pair, Points, Slug

TieBreak = Literal["detail", "other", "next"]


class PlayedVariant(Model):
    """How the simulation plays one variant of composition.yaml."""

    play: Literal["duel", "sets"] = Field(
        description="duel: win every card (Werte stechen); sets: duels, and the leader lays "
        "complete sets (quartets, octets) that score points (Mix It)")
    games: Annotated[int, Field(ge=1, le=1_000_000)] = Field(
        1000, description="games simulated when --games is not given")
    set_score: Points = Field(0, description="sets: a complete set scores this plus its cards' points")
    octets: bool = Field(False, description="sets: octets are laid too, scored as "
                         "composition.yaml's octets declare")
    specials: list[str] = Field(default_factory=list, description="sets: special kinds shuffled "
                                "in; they duel in their common categories and cannot be laid")


class SuggestRule(Model):
    """Where suggested values come from: the card's strength, or how rarely it is laid."""

    field: Literal["points", "penalty"]
    kinds: list[str] = Field(min_length=1, description="the kinds whose cards get the values")
    by: Literal["strength", "rarity"] = Field(
        description="strength: stronger cards get the larger amount; rarity: cards that end "
        "in a laid set less often get the larger amount (needs a sets variant)")
    within: Literal["set", "kind"] = Field(
        "set", description="set: ranked inside each set, between that set's present lowest and "
        "highest value; kind: ranked across the whole kind")
    range: Optional[Pair(Points)] = Field(None, description="[weakest card's value, strongest "
                                       "card's value] (default: the present smallest and "
                                       "largest amount); penalties are negative")
    ranges: dict[str, Pair(Points)] = Field(default_factory=dict, description="set → [weakest, "
                                         "strongest] for that set (within: set)")


class Balance(Model):
    """A pack's balance.yaml."""

    kinds: list[str] = Field(default_factory=list, description="kinds that duel each other "
                             "(default: composition.yaml's deck_kinds)")
    specials: list[str] = Field(default_factory=list, description="special kinds with stats, "
                                "measured against the deck in their common categories")
    same_set_only: list[Slug] = Field(default_factory=list, description="category values "
                                      "compared only between cards of the same set (rank)")
    tie_breaks: list[TieBreak] = Field(
        default_factory=lambda: ["detail", "other", "next"], min_length=1,
        description="ways to settle a tie, in order: detail value, another category of the "
        "same cards (named by the leader), the next card in the same category")
    duel_cap: Annotated[int, Field(ge=10, le=100_000)] = Field(
        2000, description="a game ends after this many duels (the agreed playing time); "
        "the player with most cards wins")
    redundant_above: Annotated[float, Field(gt=0, le=1)] = Field(
        0.9, description="two categories whose rank correlation is above this are redundant")
    variants: dict[Slug, PlayedVariant] = Field(default_factory=dict)
    suggest: list[SuggestRule] = Field(default_factory=list)
