"""pack.yaml: what a game is made of — print settings, groups, card kinds, categories, rules."""

from __future__ import annotations

import difflib

from dataclasses import dataclass
from typing import Annotated, Literal, Union

from pydantic import Field, ValidationInfo, field_validator, model_validator

from .base import HUGE, Amount, Colour, Model, Mm, Pair, PositiveMm, Range, Slug, within

CARD_SIZES: dict[str, tuple[float, float]] = {
    "skat": (59, 91),
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (70, 120),
    "mini": (44, 68),
}


@dataclass(frozen=True)
class PrintShop:
    """What one print shop asks for, as its published spec says (docs/decisions.md #29 cites
    each). `order`: "sides" = every front, then every back, in one file; "back-front" = each
    card's back, then its front; "files" = the fronts in one file, the backs in another, page
    for page. `colour`: what its PDF must be ("cmyk": the build says so until --colour cmyk);
    `pdfx`: the PDF/X version --colour cmyk writes for it; `ink`: the highest total ink in %
    it accepts (0: none stated); `min_*`: the smallest type, reverse type (light on dark) and
    line weight in pt it prints reliably (0: none stated)."""

    label: str
    size: tuple[float, float]  # trim, mm
    bleed: float               # mm
    safe: float                # mm inside the trim that the shop may cut into
    dpi: int                   # resolution of the shop's image files
    order: Literal["sides", "back-front", "files"] = "sides"
    colour: Literal["rgb", "cmyk"] = "rgb"
    pdfx: str = "PDF/X-3:2002"
    ink: int = 0
    min_text: float = 0
    min_reverse: float = 0
    min_line: float = 0
    radius: float = 0          # mm: the corners the shop's die cuts (0: square or not stated)


# The print shops' card formats, one name each: `card_size: NAME` in pack.yaml and
# `--card-size NAME` set size, bleed, safe zone, PNG resolution, page order and colour rules
# together. Inch formats in exact mm (1 in = 25.4 mm); The Game Crafter's poker card is
# 825 x 1125 px at 300 dpi with bleed, i.e. 63.5 x 88.9 mm + 1/8 in.
PRINT_SHOPS: dict[str, PrintShop] = {
    # meinspiel.de/format-59x91-mm, /datencheck-und-upload, /blog/erstellen-der-druckdaten-
    # digitaldruck: CMYK, black text 100 % K, ink <= 300 %, type >= 6 pt, reverse >= 7 pt,
    # lines >= 0.5 pt, 5 mm corners, a fronts PDF and a backs PDF of equal page counts
    "meinspiel": PrintShop("MeinSpiel", (59, 91), 3, 4, 300, "files", "cmyk", ink=300,
                           min_text=6, min_reverse=7, min_line=0.5, radius=5),
    "thegamecrafter": PrintShop("The Game Crafter", (63.5, 88.9), 3.175, 3.175, 300),
    "makeplayingcards": PrintShop("MakePlayingCards", (63.5, 88.9), 3.048, 3.048, 300),
    # help.drivethrupartners.com "Printed Card Specifications": one PDF a deck, page 1 the
    # back of card 1, page 2 its front, ...; CMYK, ink <= 240 %, PDF/X-1a:2003, 1/8 in bleed
    # and safe zone, 300 dpi
    "drivethrucards": PrintShop("DriveThruCards", (63.5, 88.9), 3.175, 3.175, 300,
                                "back-front", "cmyk", "PDF/X-1a:2003", ink=240),
}


class CardSize(Model):
    width: PositiveMm
    height: PositiveMm


class PrintSettings(Model):
    """Paper geometry. Every size in mm; one place so that every output agrees."""

    card_size: Union[Literal[tuple(CARD_SIZES) + tuple(PRINT_SHOPS)], CardSize] = Field(
        "skat", description="a size name, a print shop's format (its bleed and safe zone "
        "come with it unless given) or {width, height} in mm")
    bleed: Annotated[float, Field(ge=0, le=10)] = 3
    safe: Annotated[float, Field(ge=0, le=15)] = 4
    min_font_size: Annotated[float, Field(ge=6, le=20)] = 6
    paper: Literal["a4", "letter", "a3"] = "a4"
    duplex: Literal["long", "short", "none", "fold"] = "long"
    back_offset: Pair(Mm) = (0.0, 0.0)
    corner_radius: Annotated[float, Field(ge=0, le=10)] = 3

    @model_validator(mode="after")
    def _shop_defaults(self):
        """A print shop's format brings its bleed and safe zone, unless pack.yaml gives them."""
        shop = self.shop()
        if shop is not None:
            for name in ("bleed", "safe"):
                if name not in self.model_fields_set:
                    object.__setattr__(self, name, getattr(shop, name))
        return self

    def shop(self) -> "PrintShop | None":
        return PRINT_SHOPS.get(self.card_size) if isinstance(self.card_size, str) else None

    def size(self) -> tuple[float, float]:
        if isinstance(self.card_size, str):
            shop = self.shop()
            return shop.size if shop else CARD_SIZES[self.card_size]
        return (self.card_size.width, self.card_size.height)


class Group(Model):
    """A colour group of cards: department, suit, category. Never only a colour: a symbol too."""

    id: Slug
    label: str
    short: str = ""
    colour: Colour
    text_colour: Colour = "#000000"
    symbol: str = Field(description="a glyph or an icon name shown next to the colour")
    colour_in_text: bool = Field(False, description="the symbol printed in running text of "
                                 "the player documents (rulebook) in the group's colour, as "
                                 "the cards print it (red ♥ ♦ of a French deck)")


class FieldSpec(Model):
    """An extra text field a card kind carries (e.g. 'specialty', 'role', 'motif')."""

    label: str = ""
    required: bool = False
    translated: bool = Field(False, description="a text players read (not a key, a colour or "
                             "a glyph): each edition translates it (editions/<language>/)")


class Kind(Model):
    """A kind of card in the pack (character cards, event cards ...)."""

    id: Slug
    label: str
    plural: str = ""
    short: str = Field("", description="the short word players use for one card of this kind "
                       "(e.g. 'L-Karte'), printed on the cards too; cards, boards and rule texts read it "
                       "as kind.short ({{ kinds.ID.short }})")
    short_plural: str = Field("", description="the short word for several cards of this kind")
    id_pattern: str = Field(description="regular expression every card ID of this kind matches")
    front: str = Field(description="layout name of the front")
    back: str = Field(description="layout name of the back")
    fields: dict[str, FieldSpec] = Field(default_factory=dict)
    texts: list[str] = Field(default_factory=list, description="names of texts each card needs")
    not_printed: dict[str, Annotated[str, Field(min_length=1)]] = Field(
        default_factory=dict, description="card fields the layouts do not print on purpose, "
        "each with the reason (field → reason): `penalty: counted from the rulebook's table`")


class SubValue(Model):
    """One playable value on a category line ('IQ' in 'IQ / BMI')."""

    key: Slug
    label: str
    type: Literal["integer", "decimal", "level", "money", "rank"]
    unit: str = ""
    min: Amount
    max: Amount
    decimals: Annotated[int, Field(ge=0, le=3)] = 0
    wins: Literal["high", "low"]
    note: str = ""


class Category(Model):
    """A category line on a card; its sub-values are separate playable categories."""

    key: Slug
    label: str
    meaning: str = ""
    values: list[SubValue] = Field(min_length=1)
    kinds: list[str] = Field(min_length=1)
    common: bool = Field(False, description="usable between different card kinds")
    tie_break: str = ""


class LevelBand(Model):
    level: Annotated[int, within(-1000, 1000)]
    min: Annotated[int, within(-HUGE, HUGE)]
    max: Annotated[int, within(-HUGE, HUGE)]
    label: str = ""


# --- stat rules: general checks a pack switches on -------------------------------------------

class _Rule(Model):
    kinds: list[str] = Field(default_factory=list, description="empty = every kind with the fields")
    severity: Literal["error", "warning"] = "error"
    message: str = ""


class SumEquals(_Rule):
    rule: Literal["sum_equals"]
    fields: list[str] = Field(min_length=2)
    equals: str
    tolerance: Amount = 0


class LessEqual(_Rule):
    rule: Literal["less_equal"]
    left: str
    right: str
    offset: Amount = 0


class Ratio(_Rule):
    rule: Literal["ratio"]
    numerator: str
    denominator: str
    value: Amount = Field(gt=0)
    tolerance: float = Field(0.1, ge=0, le=1)


class OrderedByGroup(_Rule):
    rule: Literal["ordered_by_group"]
    field: str
    group_by: Literal["set", "group"] = "set"
    order: list[str] = Field(min_length=2)
    statistic: Literal["median", "mean"] = "median"
    direction: Literal["descending", "ascending"] = "descending"
    margin: float = Field(0.1, ge=0, le=1)


class Equals(_Rule):
    rule: Literal["equals"]
    field: str
    value: Amount


class Distinct(_Rule):
    rule: Literal["distinct"]
    what: Literal["stats", "name"] = "stats"


StatRule = Annotated[Union[SumEquals, LessEqual, Ratio, OrderedByGroup, Equals, Distinct],
                     Field(discriminator="rule")]


class Term(Model):
    """One thing, one word: the word documents use, and the words they must not use for it."""

    use: str = Field(description="the word every document uses")
    not_: list[Annotated[str, Field(min_length=1)]] = Field(
        alias="not", min_length=1, description="other words for the same thing: a warning "
        "where a rule text, card, board or label writes one")


class Glossary(Model):
    """The pack's words, checked across its documents (validate/glossary.py)."""

    terms: list[Term] = Field(default_factory=list)
    players: list[str] = Field(default_factory=list, description="the names of the people "
                               "who play in the rulebook's examples")
    words: list[str] = Field(default_factory=list, description="further words an example may "
                             "use that the pack's other texts do not (a capitalised word of an "
                             "example that names nothing of the pack is a warning)")


class PlayFacts(Model):
    """What a box tells a buyer: who can play and for how long (cover, overview, checker)."""

    players: Range(Annotated[int, Field(ge=1, le=99)]) = Field(
        description="fewest and most players, [2, 6]")
    age: Annotated[int, Field(ge=3, le=99)] = Field(description="youngest age the game suits")
    minutes: Range(Annotated[int, Field(ge=1, le=600)]) = Field(
        description="playing time of one game in minutes, [20, 40]")


# The locale an edition prints numbers, units and quotation marks in when pack.yaml names none:
# the language's largest market (docs/decisions.md, "Numbers, units and quotation marks").
DEFAULT_LOCALES: dict[str, str] = {"de": "de-DE", "nl": "nl-NL", "en": "en-US", "fr": "fr-FR",
                                   "it": "it-IT"}


def known_locale(text: str, language: str | None) -> str:
    """`text` as a locale tag ('de_ch' → 'de-CH'), or ValueError: unknown (with the nearest
    known tag; the model layer cannot reach diagnostics.did_you_mean) or of another language."""
    from babel import Locale, UnknownLocaleError, localedata
    try:
        parsed = Locale.parse(text.replace("_", "-"), sep="-")
    except (UnknownLocaleError, ValueError, TypeError):
        tags = [t.replace("_", "-") for t in localedata.locale_identifiers()
                if not language or t.startswith(language + "_")]  # de-XX: a German one
        close = difflib.get_close_matches(text, tags, n=1, cutoff=0.6)
        raise ValueError("is not a known locale" + (f" (did you mean '{close[0]}'?)" if close
                                                     else "") + "; e.g. de-CH, de-DE, en-US, "
                         "nl-NL") from None
    if language and parsed.language != language:
        raise ValueError(f"is not of the pack's language '{language}'; choose "
                         f"{language}-<territory>, e.g. {DEFAULT_LOCALES[language]}")
    return "-".join(p for p in (parsed.language, parsed.script, parsed.territory) if p)


class Pack(Model):
    """The pack's pack.yaml."""

    id: Slug
    title: str
    subtitle: str = ""
    language: Literal["de", "nl", "en", "fr", "it"]
    locale: str = Field("", description="how numbers, units and quotation marks are printed: "
                        "de-CH (9’879’750, «…», ss), de-DE (9.879.750, „…“), en-US, nl-NL …; "
                        "its language is `language`. Default: de-DE, nl-NL, en-US, fr-FR, it-IT")
    author: str = ""
    version: str = "1.0"
    description: str = ""
    play: PlayFacts | None = None
    print: PrintSettings = Field(default_factory=PrintSettings)
    groups: list[Group] = Field(default_factory=list)
    icons: dict[str, str] = Field(default_factory=dict, description="name → glyph for :name:")
    kinds: list[Kind] = Field(min_length=1)
    levels: list[LevelBand] = Field(default_factory=list)
    categories: list[Category] = Field(default_factory=list)
    stat_rules: list[StatRule] = Field(default_factory=list)
    scoring: list[dict[str, str]] = Field(default_factory=list,
                                          description="rows of the scoring table")
    labels: dict[str, str] = Field(default_factory=dict,
                                   description="words printed by the engine, in the pack's language")
    glossary: Glossary = Field(default_factory=Glossary, description="one word for one "
                               "thing across cards, boards and rulebook, and the words the "
                               "rulebook's examples may use")
    # editions (issue 28): editions/<language>/ holds each translation; complete ones are
    # checked as such (a missing text is an error, not a warning)
    editions: dict[Literal["de", "nl", "en", "fr", "it"], Literal["complete", "draft"]] = Field(
        default_factory=dict, description="the translated editions (editions/<language>/): "
        "complete or draft")

    @field_validator("locale")
    @classmethod
    def _locale(cls, value: str, info: ValidationInfo) -> str:
        return known_locale(value, info.data.get("language")) if value else value

    @model_validator(mode="after")
    def _edition(self):
        """No `locale:`: the language's default."""
        if not self.locale:
            object.__setattr__(self, "locale", DEFAULT_LOCALES[self.language])
        return self
