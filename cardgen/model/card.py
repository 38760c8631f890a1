"""cards/*.yaml: the cards of one kind."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import ConfigDict, Field, PlainValidator, StrictInt, WithJsonSchema

from .base import MAX_NUMBER_TEXT, Model, Pair, Points, Slug


def _stat_value(value: Any) -> Union[int, float, list[int]]:
    """A number, or [level, detail] — never true/false or text that looks like a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, list)):
        raise ValueError("must be a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("must be a finite number")
    # (the shape of a level first: [text, 28] has no size to compare)
    if isinstance(value, list) and (len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError("a level must be written [level, detail], two whole numbers")
    if any(abs(v) > 10**15 for v in (value if isinstance(value, list) else [value])):
        raise ValueError(f"is too large a number (the largest cardgen reads is "
                         f"{MAX_NUMBER_TEXT})")
    return value


StatValue = Annotated[Any, PlainValidator(_stat_value), WithJsonSchema({
    "anyOf": [{"type": "number"},
              {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}]})]


# Words a card's `hair` may use (portrait_traits.py draws them): a style, a colour, a beard.
HAIR_STYLES = ("short", "sidepart", "quiff", "buzz", "bald", "receding", "curly", "afro", "long",
               "bob", "bun", "ponytail", "pixie")
HAIR_COLOUR_WORDS = ("black", "darkbrown", "brown", "chestnut", "auburn", "ginger", "blonde",
                     "platinum", "grey", "white", "pink", "teal", "violet")
BEARD_WORDS = ("beard", "moustache", "goatee", "stubble", "shaven")
HAIR_WORDS = HAIR_STYLES + HAIR_COLOUR_WORDS + BEARD_WORDS


def hair_hint(value: Any) -> str:
    """Space-separated words, each from HAIR_WORDS, at most one style, colour and beard."""
    if not isinstance(value, str):
        raise ValueError("must be text")
    words = value.split()
    unknown = [w for w in words if w not in HAIR_WORDS]
    if unknown or not words:
        raise ValueError(f"unknown hair word '{(unknown or [''])[0]}'; use " + ", ".join(HAIR_WORDS))
    for group, name in ((HAIR_STYLES, "style"), (HAIR_COLOUR_WORDS, "colour"),
                        (BEARD_WORDS, "beard")):
        if sum(w in group for w in words) > 1:
            raise ValueError(f"more than one hair {name}")
    return value


HairHint = Annotated[str, PlainValidator(hair_hint), WithJsonSchema({"type": "string"})]


class Card(Model):
    """One card. Extra text fields are allowed only where the card's kind declares them."""

    model_config = ConfigDict(extra="allow")

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$", max_length=24)]
    name: str = ""
    title: str = ""
    set: str = Field("", description="the set the card belongs to (quartet letter, rank, theme)")
    group: Optional[Slug] = None
    groups: list[Slug] = Field(default_factory=list, description="groups the card may count for")
    points: Optional[Points] = None
    penalty: Optional[Points] = None
    quote: str = ""
    image: Optional[str] = Field(None, description="picture file inside the pack folder (PNG, "
                                 "JPEG, WEBP, GIF, TIFF, BMP, or SVG drawn as vectors)")
    image_fit: Optional[Literal["cover", "contain"]] = Field(
        None, description="how this card's picture fills its box (default: the layout's)")
    image_focus: Optional[Pair(Annotated[float, Field(ge=0, le=1)])] = Field(
        None, description="the point of this card's picture to keep when it is cut to its "
        "box: [x, y] as shares of its width and height from its top-left corner")
    count: Annotated[StrictInt, Field(ge=1, le=100)] = 1
    stats: dict[str, StatValue] = Field(default_factory=dict)
    texts: dict[str, str] = Field(default_factory=dict)
    # Who the card shows, for a drawn portrait (the layout passes them on: portrait_gender,
    # portrait_age, portrait_hair). Never printed as words.
    gender: Optional[Literal["f", "m"]] = Field(
        None, description="the person the card shows: f or m (drawn portraits follow it)")
    age: Optional[Annotated[StrictInt, Field(ge=1, le=120)]] = Field(
        None, description="the person's age in years, for a drawn portrait")
    hair: Optional[HairHint] = Field(
        None, description="hair for a drawn portrait: words from " + ", ".join(HAIR_WORDS))
    min_players: Optional[Annotated[StrictInt, Field(ge=2, le=100)]] = Field(
        None, description="the fewest players a game with this card needs; the composition "
        "check refuses the card in a smaller game")

    @property
    def extra_fields(self) -> dict[str, object]:
        return dict(self.model_extra or {})


class CardFile(Model):
    kind: str
    cards: list[Card] = Field(min_length=1)


class CardFileShape(Model):
    """The outline of a card file; each card is then validated on its own, so one bad card
    does not hide the problems of the others."""

    kind: str
    cards: list[dict[str, Any]] = Field(min_length=1)
