"""cards/*.yaml: the cards of one kind."""

from __future__ import annotations

import math
from typing import Annotated, Any, Optional, Union

from pydantic import ConfigDict, Field, PlainValidator, StrictInt, WithJsonSchema

from .base import Model, Slug


def _stat_value(value: Any) -> Union[int, float, list[int]]:
    """A number, or [level, detail] — never true/false or text that looks like a number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, list)):
        raise ValueError("must be a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("must be a finite number")
    if isinstance(value, list) and (len(value) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError("a level must be written [level, detail], two whole numbers")
    return value


StatValue = Annotated[Any, PlainValidator(_stat_value), WithJsonSchema({
    "anyOf": [{"type": "number"},
              {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}]})]


class Card(Model):
    """One card. Extra text fields are allowed only where the card's kind declares them."""

    model_config = ConfigDict(extra="allow")

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$", max_length=24)]
    name: str = ""
    title: str = ""
    set: str = Field("", description="the set the card belongs to (quartet letter, rank, theme)")
    group: Optional[Slug] = None
    groups: list[Slug] = Field(default_factory=list, description="groups the card may count for")
    points: Optional[StrictInt] = None
    penalty: Optional[StrictInt] = None
    quote: str = ""
    image: Optional[str] = Field(None, description="picture file inside the pack folder")
    count: Annotated[StrictInt, Field(ge=1, le=100)] = 1
    stats: dict[str, StatValue] = Field(default_factory=dict)
    texts: dict[str, str] = Field(default_factory=dict)

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
