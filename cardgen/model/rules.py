"""rules/*.yaml: the rulebook, one chapter per file, as blocks of text and generated tables."""

from __future__ import annotations

from typing import Dict, List, Literal, Optional

from pydantic import Field

from .base import Model, by_main_key


def _empty() -> List[str]:
    """A new empty list (a block's field `list` hides the builtin in its class body)."""
    return []


_CARDS = ("cards the block is about (IDs, ranges like S2-S4, a kind's id): house rules of a "
          "game without any of them leave it out")


class H2(Model):
    h2: str
    variant: Optional[str] = Field(None, description="the section (this heading up to the "
                                   "next) is about one variant: house rules of another leave "
                                   "it out")
    cards: List[str] = Field(default_factory=_empty, description="the section is about these "
                             "cards; " + _CARDS)


class Paragraph(Model):
    p: str
    cards: List[str] = Field(default_factory=_empty, description=_CARDS)


class BulletList(Model):
    list: List[str] = Field(min_length=1)
    cards: List[str] = Field(default_factory=_empty, description=_CARDS)


class Steps(Model):
    steps: list[str] = Field(min_length=1)
    cards: List[str] = Field(default_factory=_empty, description=_CARDS)


class Note(Model):
    note: str
    cards: List[str] = Field(default_factory=_empty, description=_CARDS)
    label: Optional[str] = Field(None, description="the box's label instead of the engine's "
                                 "word (Hinweis, Note): a box of commentary says what it holds")


class Example(Model):
    example: str
    cards: List[str] = Field(default_factory=_empty, description=_CARDS)
    label: Optional[str] = Field(None, description="the box's label instead of the engine's "
                                 "word (Beispiel, Example)")


class OptionBlock(Model):
    option: str
    title: str
    text: str
    list: List[str] = Field(default_factory=list, description="the option's cases or "
                            "outcomes, as a list inside its box (what follows a box reads as a "
                            "general rule)")
    needs: str = ""


class Table(Model):
    table: Literal["categories", "levels", "cards", "card-grid", "scoring", "special-cards"]
    kind: Optional[str] = None
    caption: str = Field("", description="a line under the table that says what it shows")


class Components(Model):
    """A figure of what is in the box: real cards of each kind as thumbnails, and the boards."""

    components: str = Field(description="the caption under the figure")
    kinds: Optional[List[str]] = Field(None, description="kinds to show (default: every kind)")
    cards: List[str] = Field(default_factory=_empty, description="card IDs to show; kinds "
                             "without one here show `show` cards spread over the kind")
    show: int = Field(5, ge=1, le=12, description="cards shown per kind")
    boards: Optional[List[str]] = Field(None, description="boards of boards.yaml to show "
                                        "(default: all; [] for none)")


class Anatomy(Model):
    """One real card, enlarged, with callouts that name its parts."""

    anatomy: str = Field(description="the caption under the figure")
    card: str = Field(description="the ID of the card to show")
    callouts: Dict[str, str] = Field(min_length=1, description="region of the card's front "
                                     "layout → the name of that part, as players call it")


class Grid(Model):
    rows: int = Field(ge=1, le=20)
    cols: int = Field(ge=1, le=20)
    kind: str
    face: Literal["front", "back"] = "back"


class Setup(Model):
    """The table at the start of a game: boards, a grid of cards, the draw pile."""

    setup: str = Field(description="the caption under the figure")
    boards: List[str] = Field(default_factory=list, description="boards of boards.yaml, "
                              "every copy, in this order")
    grid: Optional[Grid] = None
    pile: Optional[str] = Field(None, description="a kind whose backs make the draw pile")


class Turn(Model):
    """A turn in short: a box with the steps of one variant (left out of house rules of
    another variant)."""

    turn: str = Field(description="the box's title")
    steps: List[str] = Field(min_length=1)
    variant: Optional[str] = None


# the main key tells a block apart; a turn box has steps too and an option a list, so they are
# asked first
_BLOCKS = {"turn": Turn, "option": OptionBlock, "components": Components, "anatomy": Anatomy,
           "setup": Setup, "h2": H2, "p": Paragraph, "list": BulletList, "steps": Steps,
           "note": Note, "example": Example, "table": Table}


Block = by_main_key("block", _BLOCKS)


class Chapter(Model):
    title: str
    blocks: list[Block] = Field(min_length=1)
