"""The board types made of primitives: a card slot, a cut line and a score-sheet table, each
expanded into the rects, lines and texts a card face is made of.

Why a module of its own: these are pure geometry on one region; the board layouter
(board.py) hands each piece on, with its name and YAML mark, to the card layouter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..model.board import BoardRegion, Column, Row
from ..model.marks import Mark, MarkedDict
from ..model.pack import PrintSettings

SLOT_DASH = [3.0, 2.0]     # mm on, mm off
CUT_DASH = [2.5, 1.5]
SCISSORS = "✂"
INSET = 1.6                # mm between a table cell's edge and its text

Add = Callable[..., None]  # add(suffix, piece[, mark]): hands one primitive on


def slot_pieces(r: BoardRegion, add: Add, card: tuple[float, float],
                printing: PrintSettings) -> None:
    """A card place: dashed outline at card size (+ bleed), its label centred inside."""
    cw, ch = card
    if r.bleed:
        b = printing.bleed
        cw, ch = cw + 2 * b, ch + 2 * b
    sideways = r.rotate in (90, 270)
    w = r.w if r.w is not None else (ch if sideways else cw)
    h = r.h if r.h is not None else (cw if sideways else ch)
    given = r.model_fields_set
    radius = r.radius if "radius" in given else printing.corner_radius
    add(".outline", r.model_copy(update={
        "type": "rect", "w": w, "h": h, "radius": min(radius, w / 2, h / 2),
        "stroke": r.stroke if "stroke" in given else "#7A7A7A",
        "dash": r.dash if "dash" in given else SLOT_DASH, "text": None}))
    if r.text:
        inset = min(2.5, w / 4, h / 4)
        tw, th = w - 2 * inset, h - 2 * inset
        if sideways:  # text runs along the card's long side, rotated about the centre
            tw, th = th, tw
        cx, cy = r.x + w / 2, r.y + h / 2
        add(".label", _text(r, cx - tw / 2, cy - th / 2, tw, th, r.text,
                                 align=r.align if "align" in given else "center",
                                 valign=r.valign if "valign" in given else "middle",
                                 rotate=r.rotate))


def cut_pieces(r: BoardRegion, add: Add) -> None:
    """A cut line or cut-out outline, dashed, with a pair of scissors at its start."""
    given = r.model_fields_set
    style = {"stroke": r.stroke if "stroke" in given else "#333333",
             "dash": r.dash if "dash" in given else CUT_DASH, "fill": None, "text": None,
             "stroke_width": r.stroke_width if "stroke_width" in given else 0.5}
    kind = {"line": "line", "rect": "rect", "ellipse": "ellipse"}[r.shape]
    add(".line", r.model_copy(update={"type": kind, **style}))
    if not r.scissors:
        return
    s = 4.6  # mm box of the glyph
    colour = style["stroke"]
    if r.shape == "line":
        vertical = r.w < r.h
        if vertical:
            x, y, rotate = r.x - s / 2, r.y - s - 0.3, 270
        else:
            x, y, rotate = r.x - s - 0.3, r.y - s / 2, 0
    elif r.shape == "rect":
        x, y, rotate = r.x + 3, r.y - s - 0.2, 0
    else:  # on the outline's upper left, outside
        angle = math.radians(225)
        cx = r.x + r.w / 2 + (r.w / 2 + s * 0.45) * math.cos(angle)
        cy = r.y + r.h / 2 + (r.h / 2 + s * 0.45) * math.sin(angle)
        x, y, rotate = cx - s / 2, cy - s / 2, 0
    add(".scissors", _text(r, x, y, s, s, SCISSORS, font="sans", size=11, min_size=6,
                                align="center", valign="middle", rotate=rotate, colour=colour))


# --- the table (score sheet) -------------------------------------------------------------------

@dataclass
class _Grid:
    """Where a table's cells are: column edges and widths, row edges (mm), the header's height,
    the plain rectangle every cell fill is copied from, and the YAML marks of the items."""

    xs: list[float]
    widths: list[float]
    ys: list[float]
    header_h: float
    base: BoardRegion
    col_marks: list[Mark]
    row_marks: list[Mark]


Piece = tuple[str, BoardRegion, Mark]  # (name suffix, primitive, YAML mark)


def table_pieces(r: BoardRegion, raw_region: MarkedDict | None, mark: Mark, add: Add) -> None:
    """A score-sheet grid: header cells, row labels, writing cells, lines. Every fill is drawn
    first, then the lines over them, then the texts over both."""
    columns = [c if isinstance(c, Column) else Column(text=c) for c in r.columns]
    rows = ([Row() for _ in range(r.rows)] if isinstance(r.rows, int) else
            [w if isinstance(w, Row) else Row(text=w) for w in r.rows])
    grid = _grid(r, columns, rows, raw_region, mark)
    fills: list[Piece] = []
    if r.fill:
        fills.append((".bg", grid.base.model_copy(update={"fill": r.fill}), mark))
    head_fills, head_texts = _header_cells(r, columns, grid)
    row_fills, row_texts = _body_cells(r, columns, rows, grid)
    lines = _grid_lines(r, rows, grid, mark)
    for suffix, piece, piece_mark in (fills + head_fills + row_fills + lines + head_texts
                                      + row_texts):
        add(suffix, piece, piece_mark)


def _grid(r: BoardRegion, columns: list[Column], rows: list[Row],
          raw_region: MarkedDict | None, mark: Mark) -> _Grid:
    """Columns of fixed width, the rest sharing what is left; rows by their relative height
    below the header (which a table without column texts does without)."""
    fixed = sum(c.w for c in columns if c.w is not None)
    free = [c for c in columns if c.w is None]
    share = max(r.w - fixed, 0) / len(free) if free else 0
    widths = [c.w if c.w is not None else share for c in columns]
    xs = [r.x]
    for w in widths:
        xs.append(xs[-1] + w)
    header_h = r.header_h if any(c.text for c in columns) or "header_h" in \
        r.model_fields_set else 0
    body = max(r.h - header_h, 0)
    total = sum(w.h for w in rows) or 1
    ys = [r.y + header_h]
    for w in rows:
        ys.append(ys[-1] + body * w.h / total)
    base = r.model_copy(update={"type": "rect", "fill": None, "stroke": None, "dash": None,
                                "radius": 0, "text": None})
    return _Grid(xs, widths, ys, header_h, base, _item_marks(raw_region, "columns", mark),
                 _item_marks(raw_region, "rows", mark))


def _header_cells(r: BoardRegion, columns: list[Column],
                  grid: _Grid) -> tuple[list[Piece], list[Piece]]:
    """(fills, texts) of the header row: each column's fill and its heading."""
    fills: list[Piece] = []
    texts: list[Piece] = []
    xs, widths, header_h = grid.xs, grid.widths, grid.header_h
    for i, col in enumerate(columns):
        fill = col.fill or r.header_fill
        if header_h and fill:
            fills.append((f".head{i}.fill", grid.base.model_copy(update={
                "x": xs[i], "y": r.y, "w": widths[i], "h": header_h, "fill": fill}),
                grid.col_marks[i]))
        if col.text:
            texts.append((f".head{i}", _text(r, xs[i] + INSET, r.y + 0.6, widths[i] -
                                                  2 * INSET, header_h - 1.2, col.text,
                                                  font=r.header_font, align=col.align,
                                                  valign="middle",
                                                  colour=col.colour or r.header_colour,
                                                  ink_saver=_words_on(r, fill)),
                          grid.col_marks[i]))
    return fills, texts


def _body_cells(r: BoardRegion, columns: list[Column], rows: list[Row],
                grid: _Grid) -> tuple[list[Piece], list[Piece]]:
    """(fills, texts) of the body rows: stripes and label fills, row labels, written cells."""
    fills: list[Piece] = []
    texts: list[Piece] = []
    xs, ys, widths = grid.xs, grid.ys, grid.widths
    for j, row in enumerate(rows):
        top, height = ys[j], ys[j + 1] - ys[j]
        stripe = row.stripe or (r.stripe if j % 2 == 1 else None)
        if stripe and len(columns) > 1:
            fills.append((f".row{j}.stripe", grid.base.model_copy(update={
                "x": xs[1], "y": top, "w": xs[-1] - xs[1], "h": height, "fill": stripe}),
                grid.row_marks[j]))
        if row.fill:
            fills.append((f".row{j}.fill", grid.base.model_copy(update={
                "x": xs[0], "y": top, "w": widths[0], "h": height, "fill": row.fill}),
                grid.row_marks[j]))
        if row.text:
            texts.append((f".row{j}", _text(r, xs[0] + INSET, top + 0.5, widths[0] -
                                                 2 * INSET, height - 1.0, row.text,
                                                 font=_label_font(r.font, row),
                                                 align="left", valign="middle",
                                                 colour=row.colour or r.colour,
                                                 ink_saver=_words_on(r, row.fill)),
                          grid.row_marks[j]))
        for i, cell in enumerate(row.cells[:len(columns) - 1], start=1):
            if cell:
                texts.append((f".row{j}.cell{i}", _text(
                    r, xs[i] + INSET, top + 0.5, widths[i] - 2 * INSET, height - 1.0, cell,
                    font=r.font, align=columns[i].align, valign="middle",
                    colour=r.colour, ink_saver=_words_on(r, None)), grid.row_marks[j]))
    return fills, texts


def _words_on(r: BoardRegion, fill) -> str:
    """--ink-saver for a table's words: a table declared `tint` turns its fills light, so the
    words on a fill take the ink (the face's legible ink colour) and the rest stay as they
    are; any other declaration holds for every piece."""
    if r.ink_saver != "tint":
        return r.ink_saver
    return "ink" if fill else "keep"


def _label_font(font: str, row: Row) -> str:
    """The table's font for a row label, bold for a strong row."""
    if row.strong and "bold" not in font:
        font = font.replace("-italic", "-bold-italic") if "italic" in font \
            else f"{font}-bold"
    return font


def _grid_lines(r: BoardRegion, rows: list[Row], grid: _Grid, mark: Mark) -> list[Piece]:
    """The rules between rows (strong under the header and above strong rows), between columns
    (strong after the label column) and the frame."""
    stroke = r.stroke or "#333333"
    lines: list[Piece] = []
    keep = {"ink_saver": "keep"} if r.ink_saver == "tint" else {}  # rules stay as they are
    line = grid.base.model_copy(update={"type": "line", "stroke": stroke, **keep})
    for j, y in enumerate(grid.ys[:-1]):  # line above each body row (the header's lower edge too)
        strong = j < len(rows) and rows[j].strong
        if j == 0 and not grid.header_h:
            continue
        lines.append((f".hline{j}", line.model_copy(update={
            "x": r.x, "y": y, "w": r.w, "h": 0,
            "stroke_width": r.stroke_width * (2.4 if strong or j == 0 else 1)}), mark))
    for i, x in enumerate(grid.xs[1:-1], start=1):
        lines.append((f".vline{i}", line.model_copy(update={
            "x": x, "y": r.y, "w": 0, "h": r.h,
            "stroke_width": r.stroke_width * (1.8 if i == 1 else 1)}), mark))
    lines.append((".frame", grid.base.model_copy(update={
        "stroke": stroke, "stroke_width": r.stroke_width * 1.8, "radius": r.radius, **keep}),
        mark))
    return lines


# --- helpers -----------------------------------------------------------------------------------

def _text(r: BoardRegion, x, y, w, h, text, **style) -> BoardRegion:
    """A text primitive in a board region's style."""
    return r.model_copy(update={"type": "text", "x": x, "y": y, "w": max(w, 0.1),
                                "h": max(h, 0.1), "text": text, "fill": None, "stroke": None,
                                "dash": None, "radius": 0, **style})


def _item_marks(raw_region: MarkedDict | None, key: str, fallback: Mark) -> list[Mark]:
    items = raw_region.get(key) if raw_region is not None else None
    marks = list(getattr(items, "item_marks", []) or [])
    return _Marks(marks, fallback)


class _Marks(list):
    """Marks of a list's items; the region's mark for anything beyond (rows: count)."""

    def __init__(self, marks, fallback):
        super().__init__(marks)
        self.fallback = fallback

    def __getitem__(self, index):
        return super().__getitem__(index) if 0 <= index < len(self) else self.fallback
