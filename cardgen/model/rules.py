"""rules/*.yaml: the rulebook, one chapter per file, as blocks of text and generated tables."""

from __future__ import annotations

from typing import List, Literal, Optional

from pydantic import Field

from .base import Model, by_main_key


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


Block = by_main_key("block", _BLOCKS)


class Chapter(Model):
    title: str
    blocks: list[Block] = Field(min_length=1)
