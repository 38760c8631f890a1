"""Board layout: boards.yaml → positioned boxes per board, and where each board goes on paper.

Board types (slot, cut, table, repeat) are expanded here into the primitives a card face is made
of (rect, text, line, icon, image, plus ellipse and dashed outlines); the card layouter then
resolves every template, fits every text and checks every glyph, exactly as for cards. So a typo
in a board template or a text too long for its box is a diagnostic with file:line:col, never a
blank or overflowing box on paper.

Pure decisions, no drawing: render/boards.py draws what this module returns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import jinja2

from ..diagnostics import Report
from ..load.pack import PackData, ResolvedLayout
from ..model.board import MAX_COPIES, Board, BoardFile, BoardRegion, Column, Row
from ..load.source import Mark, MarkedDict
from .card import Box, CardFace, CardLayouter

SLOT_DASH = [3.0, 2.0]     # mm on, mm off
CUT_DASH = [2.5, 1.5]
SCISSORS = "✂"
EDGE = 0.05  # mm a region may pass the board's edge by (rounding of computed positions)
BLEEDING = {"rect", "line", "ellipse", "image"}  # region types that may run off the edge
OVERLAP = 10.0             # mm shared by neighbouring tiles of a board larger than the paper
TILE_MARGIN = 10.0         # mm of paper around a tile's window: marks, label, printer margin


# --- the boards of a pack, laid out ------------------------------------------------------------

@dataclass
class LaidBoard:
    """One printed copy of one board: its boxes in drawing order."""

    name: str
    title: str
    size: tuple[float, float]  # mm (width, height)
    copy: int
    face: CardFace
    fit: str = "tile"


@dataclass
class _Piece:
    name: str          # unique in the board and stable across copies (the template cache key)
    region: BoardRegion
    mark: Mark
    scope: dict[str, Any]
    written: str = ""  # the type of the YAML region it comes from (a slot is rects and text)


class BoardLayouter(CardLayouter):
    """The card layouter with a board's context: pack data instead of a card, plus the copy."""

    def __init__(self, data: PackData, report: Report):
        super().__init__(data, report)
        self.base = board_context(data)
        self.scope: dict[str, Any] = {}
        self.repeated: dict[tuple, list] = {}

    def context(self, lc=None) -> dict[str, Any]:
        ctx = super().context(None)
        ctx.update(self.base)
        ctx.update(self.scope)
        return ctx

    # --- one board ------------------------------------------------------------------------------
    def lay_out(self, name: str, board: Board, raw: MarkedDict, file: str) -> list[LaidBoard]:
        width, height = board.size_mm()
        out = []
        for copy in range(1, board.copies + 1):
            top = {"board": {"name": name, "title": board.title, "width": width,
                             "height": height, "copies": board.copies}, "copy": copy}
            title = self._title(name, board, raw, top)
            top["board"]["title"] = title
            pieces: list[_Piece] = []
            regions_raw = raw.get("regions") if isinstance(raw.get("regions"), MarkedDict) else None
            self._expand(name, board.regions, regions_raw, raw.mark, "", 0.0, 0.0, top, pieces)
            if copy == 1:  # every copy has the same regions
                self._off_board(name, width, height, pieces)
            out.append(LaidBoard(name, title, (width, height), copy,
                                 self._faces(name, file, pieces), board.fit))
        return out

    def _off_board(self, name: str, width: float, height: float, pieces: list[_Piece]) -> None:
        """A region reaching past the board's edge is cut off there (text, a field to write in,
        a card slot): an error at the region, once per region of the YAML (a repeat's items
        share one). A plain rectangle, line, ellipse or picture may run off on purpose: a
        background printed to the edge."""
        said = set()
        for piece in pieces:
            if piece.written in BLEEDING:
                continue
            r = piece.region
            right, bottom = r.x + (r.w or 0), r.y + (r.h or 0)
            where = []
            if r.x < -EDGE or right > width + EDGE:
                where.append(f"x {r.x:g}–{right:g} mm on a board {width:g} mm wide")
            if r.y < -EDGE or bottom > height + EDGE:
                where.append(f"y {r.y:g}–{bottom:g} mm on a board {height:g} mm high")
            key = (piece.mark.line, piece.mark.col)
            if where and key not in said:
                said.add(key)
                self.report.error(piece.mark.file, piece.mark.line, piece.mark.col,
                                  f"{name}.{piece.name}", f"reaches past the board's edge "
                                  f"({'; '.join(where)}); move or shrink it")

    def _title(self, name: str, board: Board, raw: MarkedDict, scope: dict) -> str:
        if "{{" not in board.title and "{%" not in board.title:
            return board.title
        mark = raw.value_marks.get("title", raw.mark)
        value = self._evaluate(name, "title", mark, scope, board.title, template=True)
        return board.title if value is _FAILED else str(value)

    def _faces(self, name: str, file: str, pieces: list[_Piece]) -> CardFace:
        """Resolve every piece (templates, text fit, glyphs) and order the boxes by layer."""
        ordered: list[tuple[int, int, Box]] = []
        seq = {id(p): i for i, p in enumerate(pieces)}
        start = 0
        while start < len(pieces):
            end = start
            scope = pieces[start].scope
            while end < len(pieces) and pieces[end].scope is scope:
                end += 1
            batch = pieces[start:end]
            layout = ResolvedLayout(name, {p.name: p.region for p in batch}, file,
                                    {p.name: p.mark for p in batch})
            by_name = {p.name: p for p in batch}
            self.scope = scope
            before = len(self.report.items)
            face = self.face(None, layout, name)
            self._reword(before, name, scope)
            for box in face.boxes:
                ordered.append((box.region.layer, seq[id(by_name[box.name])], box))
            start = end
        self.scope = {}
        ordered.sort(key=lambda item: (item[0], item[1]))
        return CardFace(name, [box for _, _, box in ordered])

    def _reword(self, before: int, name: str, scope: dict) -> None:
        """The card layouter names the card in its messages; on a board, name the board and
        the copy, and report a problem repeated in every copy of a region once."""
        where = f"board {name}" + (f", copy {scope['copy']}" if scope.get("board", {}).get(
            "copies", 1) > 1 else "") + (f", item {scope['index']}" if "index" in scope else "")
        items = self.report.items
        for i in range(before, len(items)):
            d = items[i]
            if f"(card {name})" not in d.message:
                continue
            base = d.message.replace(f"(card {name})", "").rstrip()
            key = (d.file, d.line, d.col, d.subject, base)
            if key in self.repeated:
                self.repeated[key][2] += 1
                items[i] = replace(d, message=_DROP)  # removed by finish()
            else:
                self.repeated[key] = [d, where, 0]
                items[i] = replace(d, message=f"{base} ({where})")

    def finish(self) -> None:
        """Say how often a repeated problem occurred, and drop its repetitions."""
        counts = {(d.file, d.line, d.col, d.subject, f"{base} ({where})"): more
                  for (_, _, _, _, base), (d, where, more) in self.repeated.items() if more}
        out = []
        for d in self.report.items:
            if d.message == _DROP:
                continue
            more = counts.get((d.file, d.line, d.col, d.subject, d.message))
            if more:
                d = replace(d, message=d.message[:-1] + f", and {more} more)")
            out.append(d)
        self.report.items[:] = out
        self.repeated.clear()

    # --- expressions outside the card layouter (repeat items, when of a repeat) -----------------
    def _evaluate(self, board: str, what: str, mark: Mark, scope: dict, source: str,
                  template: bool = False) -> Any:
        key = (f"board:{board}", what, "template" if template else "expression")
        try:
            if key not in self.compiled:
                self.compiled[key] = (self.env.from_string(source) if template else
                                      self.env.compile_expression(source,
                                                                  undefined_to_none=False))
            compiled = self.compiled[key]
            if compiled is None:
                return _FAILED
            saved, self.scope = self.scope, scope
            try:
                ctx = self.context(None)
            finally:
                self.scope = saved
            value = compiled.render(**ctx) if template else compiled(**ctx)
            if isinstance(value, jinja2.Undefined):
                str(value)  # raises the UndefinedError with its message
            return value
        except jinja2.TemplateSyntaxError as exc:
            self.compiled[key] = None
            self._error(mark, board, what, f"template error: {exc.message}")
        except jinja2.UndefinedError as exc:
            self._error(mark, board, what, f"{exc.message}")
        except jinja2.exceptions.SecurityError as exc:
            self._error(mark, board, what, f"not allowed in a template: {exc}")
        except Exception as exc:  # any other template failure is the template's problem
            self._error(mark, board, what, f"template failed: {exc}")
        return _FAILED

    def _error(self, mark: Mark, board: str, what: str, message: str) -> None:
        region, _, attr = what.rpartition(":")
        subject = f"{board}.{region}" if region else board
        self.report.error(mark.file, mark.line, mark.col, subject, f"{attr}: {message}")

    # --- expansion of board types into primitives ----------------------------------------------
    def _expand(self, board: str, regions: dict[str, BoardRegion], raw: MarkedDict | None,
                parent_mark: Mark, prefix: str, ox: float, oy: float, scope: dict,
                out: list[_Piece]) -> None:
        for rname, region in regions.items():
            mark = raw.value_marks.get(rname, parent_mark) if raw is not None else parent_mark
            raw_region = raw.get(rname) if raw is not None else None
            raw_region = raw_region if isinstance(raw_region, MarkedDict) else None
            full = prefix + rname
            if region.type == "repeat":
                self._repeat(board, full, region, raw_region, mark, ox, oy, scope, out)
                continue
            placed = region.model_copy(update={"x": region.x + ox, "y": region.y + oy})

            def add(suffix: str, piece: BoardRegion, piece_mark: Mark = mark,
                    written: str = region.type) -> None:
                out.append(_Piece(full + suffix, piece, piece_mark, scope, written))

            if region.type == "slot":
                self._slot(placed, add)
            elif region.type == "cut":
                self._cut(placed, add)
            elif region.type == "table":
                self._table(placed, raw_region, mark, add)
            else:
                add("", placed)

    def _repeat(self, board, full, region: BoardRegion, raw_region, mark, ox, oy, scope, out):
        if region.when is not None:
            shown = self._evaluate(board, f"{full}:when", mark, scope, region.when)
            if shown is _FAILED or not shown:
                return
        if region.items is None:
            items: list[Any] = list(range(1, (region.count or 0) + 1))
        elif isinstance(region.items, str):
            at = raw_region.value_marks.get("items", mark) if raw_region is not None else mark
            value = self._evaluate(board, f"{full}:items", at, scope, region.items)
            if value is _FAILED:
                return
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                self._error(at, board, f"{full}:items", f"'{region.items}' gives "
                            f"{type(value).__name__}, not a list")
                return
            items = list(value.values() if isinstance(value, dict) else value)[:MAX_COPIES + 1]
            if len(items) > MAX_COPIES:
                self._error(at, board, f"{full}:items", f"more than {MAX_COPIES} items")
                return
        else:
            items = [_plain(item) for item in region.items]
        children = raw_region.get("regions") if raw_region is not None else None
        children = children if isinstance(children, MarkedDict) else None
        parent = {k: scope[k] for k in ("index", "index0", "item", "parent") if k in scope}
        for i, item in enumerate(items):
            col, row = (i % region.wrap, i // region.wrap) if region.wrap else (i, i)
            dx, dy = col * region.dx, row * region.dy
            inner = {**scope, "index": i + 1, "index0": i, "item": item,
                     "first": i == 0, "last": i == len(items) - 1, "length": len(items),
                     "parent": parent or None}
            self._expand(board, region.regions, children, mark, full + "/", ox + region.x + dx,
                         oy + region.y + dy, inner, out)

    def _slot(self, r: BoardRegion, add) -> None:
        """A card place: dashed outline at card size (+ bleed), its label centred inside."""
        cw, ch = self.size
        if r.bleed:
            b = self.data.pack.print.bleed
            cw, ch = cw + 2 * b, ch + 2 * b
        sideways = r.rotate in (90, 270)
        w = r.w if r.w is not None else (ch if sideways else cw)
        h = r.h if r.h is not None else (cw if sideways else ch)
        given = r.model_fields_set
        radius = r.radius if "radius" in given else self.data.pack.print.corner_radius
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

    def _cut(self, r: BoardRegion, add) -> None:
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

    def _table(self, r: BoardRegion, raw_region: MarkedDict | None, mark: Mark, add) -> None:
        """A score-sheet grid: header cells, row labels, writing cells, lines."""
        columns = [c if isinstance(c, Column) else Column(text=c) for c in r.columns]
        rows = ([Row() for _ in range(r.rows)] if isinstance(r.rows, int) else
                [w if isinstance(w, Row) else Row(text=w) for w in r.rows])
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
        col_marks = _item_marks(raw_region, "columns", mark)
        row_marks = _item_marks(raw_region, "rows", mark)
        stroke = r.stroke or "#333333"
        text_colour = r.colour
        base = r.model_copy(update={"type": "rect", "fill": None, "stroke": None, "dash": None,
                                    "radius": 0, "text": None})
        inset = 1.6
        fills, lines, texts = [], [], []
        if r.fill:
            fills.append((".bg", base.model_copy(update={"fill": r.fill}), mark))
        for i, col in enumerate(columns):
            fill = col.fill or r.header_fill
            if header_h and fill:
                fills.append((f".head{i}.fill", base.model_copy(update={
                    "x": xs[i], "y": r.y, "w": widths[i], "h": header_h, "fill": fill}),
                    col_marks[i]))
            if col.text:
                texts.append((f".head{i}", _text(r, xs[i] + inset, r.y + 0.6, widths[i] -
                                                 2 * inset, header_h - 1.2, col.text,
                                                 font=r.header_font, align=col.align,
                                                 valign="middle",
                                                 colour=col.colour or r.header_colour),
                              col_marks[i]))
        for j, row in enumerate(rows):
            top, height = ys[j], ys[j + 1] - ys[j]
            stripe = row.stripe or (r.stripe if j % 2 == 1 else None)
            if stripe and len(columns) > 1:
                fills.append((f".row{j}.stripe", base.model_copy(update={
                    "x": xs[1], "y": top, "w": xs[-1] - xs[1], "h": height, "fill": stripe}),
                    row_marks[j]))
            if row.fill:
                fills.append((f".row{j}.fill", base.model_copy(update={
                    "x": xs[0], "y": top, "w": widths[0], "h": height, "fill": row.fill}),
                    row_marks[j]))
            if row.text:
                font = r.font
                if row.strong and "bold" not in font:
                    font = font.replace("-italic", "-bold-italic") if "italic" in font \
                        else f"{font}-bold"
                texts.append((f".row{j}", _text(r, xs[0] + inset, top + 0.5, widths[0] -
                                                2 * inset, height - 1.0, row.text, font=font,
                                                align="left", valign="middle",
                                                colour=row.colour or text_colour), row_marks[j]))
            for i, cell in enumerate(row.cells[:len(columns) - 1], start=1):
                if cell:
                    texts.append((f".row{j}.cell{i}", _text(
                        r, xs[i] + inset, top + 0.5, widths[i] - 2 * inset, height - 1.0, cell,
                        font=r.font, align=columns[i].align, valign="middle",
                        colour=text_colour), row_marks[j]))
        line = base.model_copy(update={"type": "line", "stroke": stroke})
        for j, y in enumerate(ys[:-1]):  # line above each body row (the header's lower edge too)
            strong = j < len(rows) and rows[j].strong
            if j == 0 and not header_h:
                continue
            lines.append((f".hline{j}", line.model_copy(update={
                "x": r.x, "y": y, "w": r.w, "h": 0,
                "stroke_width": r.stroke_width * (2.4 if strong or j == 0 else 1)}), mark))
        for i, x in enumerate(xs[1:-1], start=1):
            lines.append((f".vline{i}", line.model_copy(update={
                "x": x, "y": r.y, "w": 0, "h": r.h,
                "stroke_width": r.stroke_width * (1.8 if i == 1 else 1)}), mark))
        lines.append((".frame", base.model_copy(update={
            "stroke": stroke, "stroke_width": r.stroke_width * 1.8, "radius": r.radius}), mark))
        for suffix, piece, piece_mark in fills + lines + texts:
            add(suffix, piece, piece_mark)


_FAILED = object()
_DROP = "\0"  # message of a repeated diagnostic until finish() removes it


def _plain(value: Any) -> Any:
    """YAML data as plain dicts, lists and strings (so messages name 'dict', not our classes)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


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


def board_context(data: PackData) -> dict[str, Any]:
    """What board templates see besides pack, labels and icons: the pack's data as plain dicts."""
    pack = data.pack
    groups = [g.model_dump() for g in pack.groups]
    by_id = {g["id"]: g for g in groups}
    cards = []
    for lc in data.cards:
        card = {**lc.card.model_dump(), **lc.card.extra_fields, "kind": lc.kind}
        card["group_info"] = by_id.get(lc.card.group) if lc.card.group else None
        cards.append(card)
    sets: dict[tuple[str, str], dict[str, Any]] = {}
    for card in cards:
        if not card.get("set"):
            continue
        key = (card["kind"], card["set"])
        if key not in sets:
            sets[key] = {"id": card["set"], "kind": card["kind"], "group": card["group_info"],
                         "cards": []}
        sets[key]["cards"].append(card)
    for entry in sets.values():
        entry["size"] = sum(c.get("count", 1) for c in entry["cards"])
    kinds = [{**k.model_dump(include={"id", "label", "plural", "short_plural"}),
              "short": k.short or k.label,
              "count": sum(1 for lc in data.cards if lc.kind == k.id)} for k in pack.kinds]
    return {"groups": groups, "groups_by_id": by_id, "cards": cards, "kinds": kinds,
            "kinds_by_id": {k["id"]: k for k in kinds},
            "sets": list(sets.values()), "scoring": [dict(row) for row in pack.scoring],
            "levels": [lv.model_dump() for lv in pack.levels]}


def lay_out_boards(data: PackData, report: Report, boards: BoardFile, raw: MarkedDict,
                   file: str) -> list[LaidBoard]:
    """Every copy of every board, in the file's order."""
    layouter = BoardLayouter(data, report)
    raw_boards = raw.get("boards") if isinstance(raw.get("boards"), MarkedDict) else MarkedDict()
    out: list[LaidBoard] = []
    for name, board in boards.boards.items():
        board_raw = raw_boards.get(name)
        if not isinstance(board_raw, MarkedDict):
            board_raw = MarkedDict()
            board_raw.mark, board_raw.key_marks, board_raw.value_marks = raw.mark, {}, {}
        out.extend(layouter.lay_out(name, board, board_raw, file))
    layouter.finish()
    return out


# --- boards on paper ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Tile:
    """One sheet of a board: the window of the board (mm, y down from the board's top) it shows."""

    row: int
    col: int
    label: str    # "A1": row letter, column number
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class PagePlan:
    """How one board goes on paper: whole and centred, shrunk onto one sheet, or tiled."""

    page: tuple[float, float]     # mm, as the sheet is oriented
    rows: int
    cols: int
    overlap: float
    tiles: tuple[Tile, ...]
    origin: tuple[float, float]   # mm from the page's top-left corner to each window's top-left
    tiled: bool = False
    scale: float = 1.0            # < 1 only for a shrunk board


def plan_pages(board: tuple[float, float], paper: tuple[float, float],
               overlap: float = OVERLAP, margin: float = TILE_MARGIN,
               shrink: bool = False) -> PagePlan:
    """Whole and centred when the board fits the paper (turned as needed); else shrunk onto one
    sheet (`shrink`), or tiles.

    Tiles: the fewest sheets (either orientation) whose windows, inside `margin` of paper, cover
    the board with exactly `overlap` mm shared between neighbours; all windows the same size.
    """
    bw, bh = board
    short, long_ = sorted(paper)
    portrait, landscape = (short, long_), (long_, short)
    preferred = (landscape, portrait) if bw > bh else (portrait, landscape)
    fitting = [p for p in preferred if bw <= p[0] + 1e-9 and bh <= p[1] + 1e-9]
    whole = Tile(0, 0, "A1", 0.0, 0.0, bw, bh)
    if fitting:
        page = fitting[0]
        return PagePlan(page, 1, 1, 0.0, (whole,), ((page[0] - bw) / 2, (page[1] - bh) / 2))
    if shrink:
        scale, page = max(((min(p[0] / bw, p[1] / bh), p) for p in preferred),
                          key=lambda item: item[0])
        return PagePlan(page, 1, 1, 0.0, (whole,), ((page[0] - bw * scale) / 2,
                                                    (page[1] - bh * scale) / 2), False, scale)
    best = None
    for page in preferred:
        aw, ah = page[0] - 2 * margin, page[1] - 2 * margin
        if aw <= overlap or ah <= overlap:
            continue
        cols, rows = _count(bw, aw, overlap), _count(bh, ah, overlap)
        if best is None or cols * rows < best[0] * best[1]:
            best = (cols, rows, page)
    if best is None:
        raise ValueError(f"paper {paper[0]:g} x {paper[1]:g} mm is too small for tiles")
    cols, rows, page = best
    ww = (bw + (cols - 1) * overlap) / cols
    wh = (bh + (rows - 1) * overlap) / rows
    tiles = tuple(Tile(r, c, f"{_letters(r)}{c + 1}", c * (ww - overlap), r * (wh - overlap),
                       ww, wh) for r in range(rows) for c in range(cols))
    return PagePlan(page, rows, cols, overlap, tiles, ((page[0] - ww) / 2, (page[1] - wh) / 2),
                    True)


def _count(size: float, avail: float, overlap: float) -> int:
    if size <= avail + 1e-9:
        return 1
    return max(2, math.ceil((size - overlap) / (avail - overlap) - 1e-9))


def _letters(index: int) -> str:
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out
