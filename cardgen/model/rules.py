"""rules/*.yaml: the rulebook, one chapter per file, as blocks of text and generated tables."""

from __future__ import annotations

from typing import Annotated, List, Literal, Optional, Union

from pydantic import Discriminator, Field, Tag

from .base import Model


class H2(Model):
    h2: str


class Paragraph(Model):
    p: str


class BulletList(Model):
    list: List[str] = Field(min_length=1)


class Steps(Model):
    steps: list[str] = Field(min_length=1)


class Note(Model):
    note: str


class Example(Model):
    example: str


class OptionBlock(Model):
    option: str
    title: str
    text: str
    needs: str = ""


class Table(Model):
    table: Literal["categories", "levels", "cards", "card-grid", "scoring", "special-cards"]
    kind: Optional[str] = None


_BLOCKS = {"h2": H2, "p": Paragraph, "list": BulletList, "steps": Steps, "note": Note,
           "example": Example, "option": OptionBlock, "table": Table}


def _block_kind(value: object) -> Optional[str]:
    """Which block a mapping is, by its main key (so errors speak of that block only)."""
    if isinstance(value, dict):
        return next((key for key in _BLOCKS if key in value), None)
    return next((key for key, cls in _BLOCKS.items() if isinstance(value, cls)), None)


Block = Annotated[Union[tuple(Annotated[cls, Tag(key)] for key, cls in _BLOCKS.items())],
                  Discriminator(_block_kind, custom_error_type="block_kind",
                                custom_error_message="a block needs one of the keys "
                                + ", ".join(_BLOCKS),
                                custom_error_context={})]


class Chapter(Model):
    title: str
    blocks: list[Block] = Field(min_length=1)
