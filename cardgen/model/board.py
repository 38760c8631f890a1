"""boards.yaml: boards, score sheets and cut-outs of a pack, as named regions in mm.

A board region is a card-layout region (rect, text, icon, line, image ...) plus a few board types:

- `ellipse`  a circle or ellipse inside x, y, w, h (fill, stroke, dash)
- `slot`     a place for a card: outlined at the pack's card size (+ bleed with `bleed: true`),
             dashed, `text` is its label; `rotate: 90` lays the card sideways
- `cut`      a cut line (`shape: line`) or cut-out outline (`shape: rect|ellipse`): dashed, with ✂
- `table`    a grid for score sheets: `columns` (header texts, widths), `rows` (count or labels)
- `repeat`   its `regions` placed once per entry of `items` (a list, or a Jinja expression such
             as `sets` or `groups`) or `count` times, shifted by dx/dy, wrapping after `wrap`;
             the copies see `index` (1-based), `index0`, `item`, and `parent` (outer copy)

Every text, colour and `when` may be a Jinja template over `pack`, `labels`, `icons`, `groups`,
`groups_by_id`, `kinds`, `kinds_by_id`, `cards`, `sets` (cards grouped by `set`, in file order:
id, kind, group, cards, size), `scoring`, `levels`, `board` (name, title, width, height, copies)
and `copy`.

A board has a `title`, a `size` (mm, or a4/a3/letter with `orientation`), `copies` (the same
board several times, e.g. six tables) and `fit`: a board larger than the paper is tiled at full
size (`tile`, for boards with card places) or shrunk onto one sheet (`shrink`, score sheets).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, model_validator

from .base import MAX_MM, Colour, Model, PositiveMm, Slug, within
from .layout import Region
from ..units import PAPER

FontName = Region.model_fields["font"].annotation
Dash = Annotated[list[Annotated[float, Field(gt=0, le=50)]], Field(min_length=2, max_length=6)]
MAX_COPIES = 400


class Column(Model):
    """One table column: its header text (Jinja) and width in mm (unset: shares the rest)."""

    text: str = ""
    w: Optional[PositiveMm] = None
    align: Literal["left", "center", "right"] = "center"
    fill: Optional[Colour] = None
    colour: Optional[Colour] = None


class Row(Model):
    """One table row: its label (Jinja, first column) and relative height."""

    text: str = ""
    h: Annotated[float, Field(gt=0, le=20)] = 1
    fill: Optional[Colour] = Field(None, description="fill of the label cell")
    colour: Optional[Colour] = Field(None, description="text colour of the label")
    stripe: Optional[Colour] = Field(None, description="fill of the row's writing cells")
    strong: bool = Field(False, description="bold label and a heavier line above the row")
    cells: list[str] = Field(default_factory=list,
                             description="texts (Jinja) printed in the following columns")


class BoardRegion(Region):
    """A region of a board: a card-layout region or one of the board types above."""

    type: Literal["rect", "text", "image", "portrait", "stats", "icon", "line", "ellipse", "slot",
                  "cut", "table", "repeat"] = "rect"
    x: Annotated[float, within(-MAX_MM, MAX_MM)] = 0
    y: Annotated[float, within(-MAX_MM, MAX_MM)] = 0
    w: Optional[Annotated[float, Field(ge=0, le=2000)]] = None
    h: Optional[Annotated[float, Field(ge=0, le=2000)]] = None
    dash: Optional[Dash] = Field(None, description="dash pattern in mm (on, off, ...)")
    # slot
    bleed: bool = Field(False, description="slot: outline at card size plus the pack's bleed")
    # cut
    shape: Literal["line", "rect", "ellipse"] = "line"
    scissors: bool = True
    # table
    columns: list[Union[str, Column]] = Field(default_factory=list)
    rows: Union[Annotated[int, Field(ge=0, le=200)], list[Union[str, Row]]] = 0
    header_h: Annotated[float, Field(ge=0, le=200)] = 10
    header_fill: Optional[Colour] = None
    header_colour: Colour = "#000000"
    header_font: FontName = "sans-bold"
    stripe: Optional[Colour] = Field(None, description="table: fill of every other row")
    player_columns: bool = Field(False, description="table: its columns after the first are "
                                 "one per player; the checker wants one for every player "
                                 "pack.yaml's play allows")
    # repeat
    count: Optional[Annotated[int, Field(ge=0, le=MAX_COPIES)]] = None
    items: Union[str, list[Any], None] = Field(None, description="a list, or a Jinja expression")
    dx: Annotated[float, within(-MAX_MM, MAX_MM)] = 0
    dy: Annotated[float, within(-MAX_MM, MAX_MM)] = 0
    wrap: Optional[Annotated[int, Field(ge=1, le=MAX_COPIES)]] = None
    regions: dict[str, "BoardRegion"] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _complete(self) -> "BoardRegion":
        kind = self.type
        if kind == "repeat":
            if (self.count is None) == (self.items is None):
                raise ValueError("a repeat needs exactly one of count or items")
            if not self.regions:
                raise ValueError("a repeat needs regions to place")
        elif kind != "slot" and (self.w is None or self.h is None):
            raise ValueError(f"a {kind} region needs w and h")
        for key in ("count", "items", "dx", "dy", "wrap", "regions"):
            if kind != "repeat" and key in self.model_fields_set:
                raise ValueError(f"{key} belongs to a repeat region, not a {kind}")
        for key in ("columns", "rows", "header_h", "header_fill", "header_colour",
                    "header_font", "stripe", "player_columns"):
            if kind != "table" and key in self.model_fields_set:
                raise ValueError(f"{key} belongs to a table region, not a {kind}")
        if kind == "table" and not self.columns:
            raise ValueError("a table needs columns")
        if kind == "table" and isinstance(self.rows, list):
            for index, row in enumerate(self.rows, start=1):
                if isinstance(row, Row) and len(row.cells) > len(self.columns) - 1:
                    raise ValueError(f"row {index} has {len(row.cells)} cells; the table has "
                                     f"{len(self.columns) - 1} columns after the label column")
        if kind != "cut" and ("shape" in self.model_fields_set or
                              "scissors" in self.model_fields_set):
            raise ValueError(f"shape and scissors belong to a cut region, not a {kind}")
        if kind != "slot" and "bleed" in self.model_fields_set:
            raise ValueError(f"bleed belongs to a slot region, not a {kind}")
        return self


class BoardSize(Model):
    width: PositiveMm
    height: PositiveMm


class Board(Model):
    """One board, score sheet or cut-out sheet."""

    title: str
    description: str = ""
    size: Union[Literal["a4", "a3", "letter"], BoardSize] = "a4"
    orientation: Optional[Literal["portrait", "landscape"]] = Field(
        None, description="with a paper name as size (default portrait)")
    fit: Literal["tile", "shrink"] = Field(
        "tile", description="larger than the paper: tile it at full size (boards with card "
        "places), or shrink it onto one sheet (score sheets, overviews)")
    copies: Annotated[int, Field(ge=1, le=100)] = Field(
        1, description="print the board this many times; templates see `copy` (1-based)")
    regions: dict[str, BoardRegion] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _orientation(self) -> "Board":
        if self.orientation is not None and not isinstance(self.size, str):
            raise ValueError("orientation goes with a paper name as size (a4, a3, letter); "
                             "with width and height give them in the order you want")
        return self

    def size_mm(self) -> tuple[float, float]:
        if isinstance(self.size, str):
            w, h = PAPER[self.size]
            return (h, w) if self.orientation == "landscape" else (w, h)
        return (self.size.width, self.size.height)


class BoardFile(Model):
    """A pack's boards.yaml."""

    boards: dict[Slug, Board] = Field(min_length=1)
BoardRegion.model_rebuild()
