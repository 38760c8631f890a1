"""cards/*.yaml: the cards of one kind."""

from __future__ import annotations

from typing import Annotated, Optional, Union

from pydantic import ConfigDict, Field

from .base import Model, Slug

StatValue = Union[int, float, list[int]]


class Card(Model):
    """One card. Extra text fields are allowed only where the card's kind declares them."""

    model_config = ConfigDict(extra="allow")

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$", max_length=24)]
    name: str = ""
    title: str = ""
    set: str = Field("", description="the set the card belongs to (quartet letter, rank, theme)")
    group: Optional[Slug] = None
    groups: list[Slug] = Field(default_factory=list, description="groups the card may count for")
    points: Optional[int] = None
    penalty: Optional[int] = None
    quote: str = ""
    image: Optional[str] = Field(None, description="picture file inside the pack folder")
    count: Annotated[int, Field(ge=1, le=100)] = 1
    stats: dict[str, StatValue] = Field(default_factory=dict)
    texts: dict[str, str] = Field(default_factory=dict)

    @property
    def extra_fields(self) -> dict[str, object]:
        return dict(self.model_extra or {})


class CardFile(Model):
    kind: str
    cards: list[Card] = Field(min_length=1)
