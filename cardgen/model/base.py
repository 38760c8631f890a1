"""Shared pieces of every model: strictness, colours, small value types."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict

_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")


class Model(BaseModel):
    """Base of all pack models: unknown keys are errors, values are not coerced from text."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=False,
                              str_strip_whitespace=False, populate_by_name=True)


def _colour(value: str) -> str:
    if not _HEX.match(value) and "{{" not in value and value != "none":
        raise ValueError(f"'{value}' is not a colour; write it as #RRGGBB")
    return value


Colour = Annotated[str, AfterValidator(_colour)]
"""#RRGGBB, 'none', or a Jinja expression that yields one (resolved per card)."""

Slug = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_\-]*$")]
Mm = Annotated[float, Field(ge=-50, le=2000, allow_inf_nan=False)]
PositiveMm = Annotated[float, Field(gt=0, le=2000, allow_inf_nan=False)]


def Pair(item):  # noqa: N802 (reads like a type)
    """Two values written as a YAML list [a, b]: a tuple that accepts a list, items strict."""
    strict_item = Annotated[item, Strict()]
    return Annotated[tuple[strict_item, strict_item], Field(strict=False)]
