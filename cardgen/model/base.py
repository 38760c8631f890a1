"""Shared pieces of every model: strictness, colours, small value types."""

from __future__ import annotations

import re
from typing import Annotated, Optional, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Strict, Tag

HEX_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


class Model(BaseModel):
    """Base of all pack models: unknown keys are errors, values are not coerced from text.

    defer_build: a model's validator is built when it first validates, not when cardgen is
    imported. A pack without rules, boards or a composition never builds those models' (the
    models' import costs 65 ms instead of 100 ms; the same schema either way)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=False,
                              str_strip_whitespace=False, populate_by_name=True,
                              defer_build=True)


def _colour(value: str) -> str:
    if not HEX_COLOUR.match(value) and "{{" not in value and value != "none":
        raise ValueError("is not a colour; write it as #RRGGBB")  # said after the value
    return value


Colour = Annotated[str, AfterValidator(_colour)]
"""#RRGGBB, 'none', or a Jinja expression that yields one (resolved per card)."""


def _ordered(pair: tuple) -> tuple:
    if pair[0] > pair[1]:
        raise ValueError(f"[{pair[0]}, {pair[1]}]: the smaller number comes first; write "
                         f"[{pair[1]}, {pair[0]}]")
    return pair


def Range(item):  # noqa: N802 (reads like a type)
    """[fewest, most] written as a YAML list: a Pair whose first value is not above the second
    (a reversed range would silently admit nothing)."""
    return Annotated[Pair(item), AfterValidator(_ordered)]


Slug = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$")]


def within(low: float, high: float):
    """A number's range, checked after its type: every number a pack gives has one, so that no
    stage meets a number too large for what it describes (a deck of 10^12 cards, a box 10^9 mm
    wide). A validator, not a Field bound: the JSON Schemas the packs name stay as they are
    (the bounds are generous; the models' Field bounds say what is sensible)."""
    def check(value):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if value > high:
                raise ValueError(f"is above the maximum {_plain(high)}")
            if value < low:
                raise ValueError(f"is below the minimum {_plain(low)}")
        return value
    return AfterValidator(check)


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


MAX_NUMBER_TEXT = "1 000 000 000 000 000"  # load.source.MAX_NUMBER, as said
HUGE = 10**12  # stat values, ranges and rule values (money in cents fits)
SCORE = 10**6  # points, penalties, scores
MANY = 10_000  # counts of cards: deck sizes, draws, hands, sets
MAX_MM = 2_000  # positions and sizes in mm (boards are below a metre)
Amount = Annotated[float, within(-HUGE, HUGE)]
Points = Annotated[int, within(-SCORE, SCORE)]
Mm = Annotated[float, Field(ge=-50, le=2000, allow_inf_nan=False)]
PositiveMm = Annotated[float, Field(gt=0, le=2000, allow_inf_nan=False)]


def Pair(item):  # noqa: N802 (reads like a type)
    """Two values written as a YAML list [a, b]: a tuple that accepts a list, items strict."""
    strict_item = Annotated[item, Strict()]
    return Annotated[tuple[strict_item, strict_item], Field(strict=False)]


def by_main_key(name: str, members: dict[str, type[BaseModel]], verb: str = "needs"):
    """A union of models told apart by which main key a mapping has ({p: ...} is a paragraph,
    {cards: [...]} a need for cards), so an error speaks of that one model only."""

    def which(value: object) -> Optional[str]:
        if isinstance(value, dict):
            return next((key for key in members if key in value), None)
        return next((key for key, cls in members.items() if isinstance(value, cls)), None)

    return Annotated[Union[tuple(Annotated[cls, Tag(key)] for key, cls in members.items())],
                     Discriminator(which, custom_error_type=f"{name}_kind",
                                   custom_error_message=f"a {name} {verb} one of the keys "
                                   + ", ".join(members), custom_error_context={})]
