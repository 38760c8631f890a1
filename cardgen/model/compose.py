"""composition.yaml: which cards form a game — presets, variants, options and their rules.

Every rule is a general constraint type (a deck size, cards that must be in play, options that
exclude each other ...); a pack switches them on in its composition.yaml and the checker in
cardgen/compose/ applies them. No game is named in Python.

Card lists (presets, needs) are written as items: an ID ("S2"), a range on the trailing number
("A1-A4", "F1–F32", "PIK-2-PIK-10"), a pattern with * and ? ("Q1*"), or a kind id ("K").
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, model_validator

from .base import MANY, Model, Points, Range, Slug, by_main_key, within

Severity = Literal["error", "warning", "note"]
PlayerRange = Range(Annotated[int, Field(ge=1, le=99)])


class _Need(Model):
    rule: str = Field("", description="the rule's name, shown at the start of its refusal "
                      "(default: the variant or option it belongs to)")
    severity: Severity = Field("error", description="error refuses the choice; warning lets it "
                               "pass (fails under --strict); note is only shown in the report "
                               "and on the deck sheet")
    message: str = Field("", description="added to the diagnostic (a note shows only this text)")
    when_players: Optional[PlayerRange] = Field(
        None, description="the rule holds only for a game of this many players (checked when "
        "--players is given)")


class NeedDeckSize(_Need):
    """Exactly this many cards of the deck kinds (e.g. all 64 character cards), or one of
    several sizes ([32, 64])."""

    deck_size: Union[Annotated[int, Field(ge=1), within(1, MANY)],
                     list[Annotated[int, Field(ge=1), within(1, MANY)]]]

    def sizes(self) -> list[int]:
        return [self.deck_size] if isinstance(self.deck_size, int) else list(self.deck_size)


class NeedCards(_Need):
    """Every one of these cards is in play."""

    cards: list[str] = Field(min_length=1)


class NeedNoCards(_Need):
    """None of these cards is in play (e.g. a card only the longer version uses)."""

    without: list[str] = Field(min_length=1)


class NeedCount(_Need):
    """Between at_least and at_most of these cards are in play (copies counted)."""

    of: list[str] = Field(min_length=1)
    at_least: Optional[Annotated[int, Field(ge=0), within(0, MANY)]] = None
    at_most: Optional[Annotated[int, Field(ge=0), within(0, MANY)]] = None

    @model_validator(mode="after")
    def _bounded(self):
        if self.at_least is None and self.at_most is None:
            raise ValueError("give at_least, at_most or both")
        if self.at_least is not None and self.at_most is not None and \
                self.at_least > self.at_most:
            raise ValueError("at_least is above at_most")
        return self


class NeedSpecialCards(_Need):
    """At least this many cards of the special kinds."""

    special_cards: Annotated[int, Field(ge=1), within(1, MANY)]


class NeedSet(_Need):
    """At least `at_least` cards whose set is this one (or one of these)."""

    set: Union[str, list[str]]
    at_least: Annotated[int, Field(ge=1), within(1, MANY)] = 1


class NeedKind(_Need):
    """At least `at_least` cards of this kind."""

    kind: str
    at_least: Annotated[int, Field(ge=1), within(1, MANY)] = 1


class NeedPlayers(_Need):
    """A number of players in this range."""

    players: PlayerRange


_NEEDS = {"deck_size": NeedDeckSize, "cards": NeedCards, "without": NeedNoCards,
          "of": NeedCount, "special_cards": NeedSpecialCards, "set": NeedSet, "kind": NeedKind,
          "players": NeedPlayers}


Need = by_main_key("need", _NEEDS, verb="has")


class Draw(Model):
    """`draw` cards picked at random (with the seed) from `from`."""

    draw: Annotated[int, Field(ge=1), within(1, MANY)]
    from_: list[str] = Field(alias="from", min_length=1)


class Preset(Model):
    label: str = ""
    cards: Union[Literal["all"], list[Union[str, Draw]]] = Field(
        description="'all' (every deck card) or items: IDs, ranges, patterns, kinds, "
        "{draw: N, from: [...]}")
    special: Optional[str] = Field(None, description="the special cards when --special is not "
                                   "given: none, all, or a list like on the command line")
    variant: Optional[str] = Field(None, description="the variant this preset is for (used "
                                   "when --variant is not given)")


class Variant(Model):
    label: str = ""
    players: PlayerRange
    special_cards: bool = Field(True, description="false: played without special cards (they "
                                "default to none, and choosing some is an error)")
    special: Optional[str] = Field(None, description="the special cards of this variant when "
                                   "neither --special nor a preset says: none, all or a list; "
                                   "the user may still choose others")
    needs: list[Need] = Field(default_factory=list, description="rules every deck of this "
                              "variant keeps")


class Option(Model):
    label: str = ""
    variants: Optional[list[str]] = Field(None, description="variants the option belongs to "
                                          "(default: option_variants)")
    needs: list[Need] = Field(default_factory=list)
    excludes: list[str] = Field(default_factory=list, description="options it cannot combine with")
    digital_only: bool = Field(False, description="exists only in the digital version (app)")
    team_size: Optional[PlayerRange] = Field(None, description="this option plays in teams of "
                                             "this many players (sizes from --teams)")
    octets: bool = Field(False, description="this option turns on the octets declared above")


class OctetScore(Model):
    """Score of an octet of one group: base, or bonus with at least `distinct` different sets."""

    base: Points
    bonus: Optional[Points] = None
    distinct: Optional[Annotated[int, Field(ge=2), within(2, MANY)]] = None

    @model_validator(mode="after")
    def _pair(self):
        if (self.bonus is None) != (self.distinct is None):
            raise ValueError("bonus and distinct go together: the bonus needs a number of "
                             "distinct sets")
        return self


class Octets(Model):
    """Sets across sets: `size` cards of one group; a card with `groups` counts for either."""

    label: str = "octet"
    size: Annotated[int, Field(ge=2, le=52)] = 8
    score: dict[str, OctetScore] = Field(default_factory=dict, description="group id → score")


class DealRule(Model):
    players: PlayerRange
    hand: Union[Annotated[int, Field(ge=0), within(0, MANY)], Literal["all"]] = Field(
        description="cards per player; 'all' deals the whole deck, 0 deals none (laid out)")
    draw: Annotated[int, Field(ge=0, le=20)] = Field(
        0, description="cards each player draws from the undealt rest (the pile) on a turn; "
        "the checker refuses a pile that runs dry in the first round")


class SetCounts(Model):
    """Every set holds exactly this many cards (copies counted) per value of a card field:
    {field: group, values: {herr: 2, frau: 2}}."""

    field: str
    values: dict[str, Annotated[int, Field(ge=0), within(0, MANY)]] = Field(min_length=1)


class StructurePart(Model):
    """`sets` sets of `size` cards each (optionally only the sets whose cards match `where`)."""

    sets: Annotated[int, Field(ge=1), within(1, MANY)]
    size: Annotated[int, Field(ge=1), within(1, MANY)]
    label: str = ""
    where: dict[str, str] = Field(default_factory=dict, description="card field → value")
    counts: Optional[SetCounts] = Field(None, description="what each of these sets holds")


class RoundCount(Model):
    players: Annotated[int, Field(ge=1, le=99)]
    rounds: Annotated[int, Field(ge=1, le=99)]


class Rounds(Model):
    """How many rounds a game has, by number of players."""

    by_players: list[RoundCount] = Field(min_length=1, description="{players: N, rounds: M} "
                                         "for every player count the pack allows")
    each_starts: bool = Field(False, description="every player is start player equally often: "
                              "the rounds are a multiple of the players")

    def of(self, players: int) -> Optional[int]:
        return next((r.rounds for r in self.by_players if r.players == players), None)


class Composition(Model):
    """A pack's composition.yaml."""

    deck_kinds: list[str] = Field(min_length=1, description="kinds forming the playable deck")
    special_kinds: list[str] = Field(default_factory=list, description="kinds of special cards")
    sets_of: Optional[Annotated[int, Field(ge=2, le=52)]] = Field(
        None, description="a set (quartet) is this many cards of one `set` value")
    default_variant: Optional[str] = None
    option_variants: Optional[list[str]] = Field(None, description="variants every option "
                                                 "belongs to unless it says otherwise")
    presets: dict[Slug, Preset] = Field(default_factory=dict)
    variants: dict[Slug, Variant] = Field(default_factory=dict)
    options: dict[Slug, Option] = Field(default_factory=dict)
    octets: Optional[Octets] = None
    deal: list[DealRule] = Field(default_factory=list, description="hand size by player count; "
                                 "none = all cards are dealt")
    deal_special: bool = Field(True, description="special cards are shuffled into the cards "
                               "that are dealt (false: they form a pile of their own)")
    structure: list[StructurePart] = Field(default_factory=list)
    needs: list[Need] = Field(default_factory=list, description="rules every deck of the pack "
                              "keeps, whatever the variant")
    rounds: Optional[Rounds] = None
    labels: dict[str, str] = Field(default_factory=dict, description="words of the deck sheet, "
                                   "in the pack's language")
