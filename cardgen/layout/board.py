"""Board layout: boards.yaml → positioned boxes per board, every copy of it.

Board types (slot, cut, table, repeat) are expanded here into the primitives a card face is made
of (rect, text, line, icon, image, plus ellipse and dashed outlines); the card layouter then
resolves every template, fits every text and checks every glyph, exactly as for cards. So a typo
in a board template or a text too long for its box is a diagnostic with file:line:col, never a
blank or overflowing box on paper.

The board types slot, cut and table are made of primitives in board_shapes.py; where a board
goes on paper (whole, shrunk or tiled) is board_paper.py's. Pure decisions, no drawing:
render/boards.py draws what these modules return.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import jinja2

from ..diagnostics import Report
from ..model.packdata import PackData, ResolvedLayout
from ..model.board import MAX_COPIES, Board, BoardFile, BoardRegion
from ..model.marks import Mark, MarkedDict
from .board_shapes import cut_pieces, slot_pieces, table_pieces
from .card import Box, CardFace, CardLayouter

EDGE = 0.05  # mm a region may pass the board's edge by (rounding of computed positions)
BLEEDING = {"rect", "line", "ellipse", "image"}  # region types that may run off the edge


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
                slot_pieces(placed, add, self.size, self.data.pack.print)
            elif region.type == "cut":
                cut_pieces(placed, add)
            elif region.type == "table":
                table_pieces(placed, raw_region, mark, add)
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
