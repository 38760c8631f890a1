"""boards.pdf: every board, score sheet and cut-out sheet of a pack, on the chosen paper.

A board that fits the paper is printed whole and centred (turned to landscape when it is wider
than high). A larger board is tiled: each sheet shows a window of the board; neighbouring windows
share OVERLAP mm. On each sheet the strip a neighbour will cover is hatched as the glue area,
with a dashed line where the neighbour's cut edge goes; registration targets sit on the glue flap
only (the overlap shows the same picture on both sheets, so the picture lines them up and no mark
crosses out the visible face); crop marks show each window's edges; the
margin names the sheet (A1, A2 … B1: row letter, column number) with a small map of all sheets.
Those marks are drawn by boards_marks.py; where each window goes, by layout/board_paper.py.
"""

from __future__ import annotations

import dataclasses
import io

from reportlab.lib.colors import HexColor

from ..diagnostics import Report
from ..layout.board import LaidBoard
from ..layout.board_paper import PagePlan, Tile, plan_pages
from ..layout.card import CardFace
from ..layout.sheet import PAPER
from ..model.packdata import PackData
from ..layout.boards_preflight import load_boards
from .card import CardPainter
from ..pictures.store import ImageStore
from ..units import MM
from .boards_marks import crop_marks, tile_marks, window
from .pdf import new_canvas


def boards_pdf(data: PackData, report: Report, paper: str = "a4",
               ink_saver: bool = False) -> bytes | None:
    """The pack's boards.yaml as one PDF; None without boards.yaml, None + diagnostics on errors.
    `ink_saver`: each region as its `ink_saver` declares (layout.ink), as on the cards."""
    if paper not in PAPER:
        raise ValueError(f"paper must be one of {', '.join(PAPER)}, got {paper!r}")
    loaded = load_boards(data, report)
    if loaded is None:
        return None
    laid, images, words = loaded
    icons = dict(data.pack.icons)
    for group in data.pack.groups:
        icons.setdefault(group.id, group.symbol)
    meta = {"title": f"{data.pack.title} – " + ", ".join(dict.fromkeys(b.title for b in laid)),
            "author": data.pack.author, "subject": data.pack.subtitle,
            "keywords": f"cardgen, {data.pack.id}, boards, print and play"}
    if ink_saver:
        from ..layout.ink import ink_saved
        laid = [dataclasses.replace(board, face=ink_saved(board.face)) for board in laid]
    return render_boards(laid, PAPER[paper], icons, images, meta, words)


def board_painters(data: PackData) -> list[tuple[LaidBoard, "BoardPainter"]]:
    """Every laid-out board copy with a painter for it (for figures; problems are reported by
    boards.pdf of the same build, so they go to a private report here)."""
    loaded = load_boards(data, Report())
    if loaded is None:
        return []
    laid, images, _ = loaded
    icons = dict(data.pack.icons)
    for group in data.pack.groups:
        icons.setdefault(group.id, group.symbol)
    return [(board, BoardPainter(board.size, icons, images)) for board in laid]


def render_boards(laid: list[LaidBoard], paper: tuple[float, float], icons, images: ImageStore,
                  meta: dict[str, str], words: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    first = plan_pages(laid[0].size, paper, shrink=laid[0].fit == "shrink").page if laid \
        else paper
    canvas = new_canvas(buffer, (first[0] * MM, first[1] * MM), meta)
    for number, board in enumerate(laid):
        plan = plan_pages(board.size, paper, shrink=board.fit == "shrink")
        painter = BoardPainter(board.size, icons, images)
        for tile in plan.tiles:
            canvas.setPageSize((plan.page[0] * MM, plan.page[1] * MM))
            if tile.row == 0 and tile.col == 0:
                key = f"board-{number}"
                canvas.bookmarkPage(key)
                canvas.addOutlineEntry(board.title, key, level=0)
            _draw_tile(canvas, painter, board.face, plan, tile)
            if plan.tiled:
                tile_marks(canvas, plan, tile, board, words)
            elif plan.scale == 1.0:
                crop_marks(canvas, plan, tile)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


class BoardPainter(CardPainter):
    """The card painter, plus dashed outlines and ellipses."""

    def __init__(self, size: tuple[float, float], icons, images: ImageStore):
        super().__init__(size, 0.0, icons, images)

    def _box(self, canvas, box, ox: float, oy: float) -> None:
        r = box.region
        dash = getattr(r, "dash", None)
        canvas.saveState()
        if dash:
            canvas.setDash([d * MM for d in dash], 0)
        if r.type == "ellipse":
            self._ellipse(canvas, box, ox, oy)
        else:
            super()._box(canvas, box, ox, oy)
        canvas.restoreState()

    def _ellipse(self, canvas, box, ox: float, oy: float) -> None:
        r = box.region
        x, y, w, h = self._rect(box, ox, oy)
        fill = box.fill not in (None, "none")
        stroke = box.stroke not in (None, "none")
        if r.opacity < 1:
            canvas.setFillAlpha(r.opacity)
            canvas.setStrokeAlpha(r.opacity)
        if fill:
            canvas.setFillColor(HexColor(box.fill))
        if stroke:
            canvas.setStrokeColor(HexColor(box.stroke))
            canvas.setLineWidth(r.stroke_width)
        if fill or stroke:
            canvas.ellipse(x, y, x + w, y + h, stroke=int(stroke), fill=int(fill))


def _draw_tile(canvas, painter: BoardPainter, face: CardFace, plan: PagePlan, tile: Tile) -> None:
    """The board's window for this sheet, clipped to it (and shrunk for a shrunk board)."""
    left, bottom, _, _ = window(plan, tile)
    w, h = tile.w * MM, tile.h * MM
    canvas.saveState()
    canvas.translate(left, bottom)
    if plan.scale != 1.0:
        canvas.scale(plan.scale, plan.scale)
    path = canvas.beginPath()
    path.rect(0, 0, w, h)
    canvas.clipPath(path, stroke=0, fill=0)
    painter.draw(canvas, face, -tile.x * MM, h - (painter.h - tile.y) * MM, 0.0)
    canvas.restoreState()
