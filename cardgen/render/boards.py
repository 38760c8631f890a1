"""boards.pdf: every board, score sheet and cut-out sheet of a pack, on the chosen paper.

A board that fits the paper is printed whole and centred (turned to landscape when it is wider
than high). A larger board is tiled: each sheet shows a window of the board; neighbouring windows
share OVERLAP mm. On each sheet the strip a neighbour will cover is hatched as the glue area,
with a dashed line where the neighbour's cut edge goes; registration targets sit on the glue flap
only (the overlap shows the same picture on both sheets, so the picture lines them up and no mark
crosses out the visible face); crop marks show each window's edges; the
margin names the sheet (A1, A2 … B1: row letter, column number) with a small map of all sheets.
"""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor

from ..diagnostics import Report
from ..layout.board import LaidBoard, PagePlan, Tile, plan_pages
from ..layout.card import CardFace
from ..layout.sheet import PAPER
from ..load.pack import PackData
from ..validate.boards import load_boards
from .card import CardPainter
from ..text.fonts import face_name
from ..pictures.store import ImageStore
from .pdf import new_canvas

MM = 72 / 25.4
MARK = 0.5  # pt


def boards_pdf(data: PackData, report: Report, paper: str = "a4") -> bytes | None:
    """The pack's boards.yaml as one PDF; None without boards.yaml, None + diagnostics on errors."""
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
                _tile_marks(canvas, plan, tile, board, words)
            elif plan.scale == 1.0:
                _crop_marks(canvas, plan, tile)
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


def _window(plan: PagePlan, tile: Tile) -> tuple[float, float, float, float]:
    """The tile's window on the page in points: left, bottom, width, height (as printed)."""
    w, h = tile.w * plan.scale, tile.h * plan.scale
    left = plan.origin[0]
    bottom = plan.page[1] - plan.origin[1] - h
    return left * MM, bottom * MM, w * MM, h * MM


def _draw_tile(canvas, painter: BoardPainter, face: CardFace, plan: PagePlan, tile: Tile) -> None:
    """The board's window for this sheet, clipped to it (and shrunk for a shrunk board)."""
    left, bottom, _, _ = _window(plan, tile)
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


def _corner_marks(canvas, left, bottom, right, top, length, offset) -> None:
    canvas.saveState()
    canvas.setLineWidth(MARK)
    canvas.setStrokeColor(HexColor("#000000"))
    for x, sx in ((left, -1), (right, 1)):
        for y, sy in ((bottom, -1), (top, 1)):
            if length[0] > 0:
                canvas.line(x + sx * offset, y, x + sx * (offset + length[0]), y)
            if length[1] > 0:
                canvas.line(x, y + sy * offset, x, y + sy * (offset + length[1]))
    canvas.restoreState()


def _crop_marks(canvas, plan: PagePlan, tile: Tile) -> None:
    """Marks at a whole board's corners where the paper leaves room for them."""
    left, bottom, w, h = _window(plan, tile)
    room_x, room_y = plan.origin[0], plan.origin[1]
    length = (min(5.0, room_x - 2.0) * MM if room_x >= 3.0 else 0.0,
              min(5.0, room_y - 2.0) * MM if room_y >= 3.0 else 0.0)
    if length[0] > 0 or length[1] > 0:
        _corner_marks(canvas, left, bottom, left + w, bottom + h, length, 1.0 * MM)


def _tile_marks(canvas, plan: PagePlan, tile: Tile, board: LaidBoard,
                words: dict[str, str]) -> None:
    left, bottom, w, h = _window(plan, tile)
    right, top = left + w, bottom + h
    ov = plan.overlap * MM
    font = face_name("sans")
    bold = face_name("sans-bold")
    _corner_marks(canvas, left, bottom, right, top, (5 * MM, 5 * MM), 1.5 * MM)
    # glue strips: what the right and lower neighbours will cover
    strips = []
    if tile.col < plan.cols - 1:
        strips.append(((right - ov, bottom, ov, h), "v", (right - ov, bottom, right - ov, top)))
    if tile.row < plan.rows - 1:
        strips.append(((left, bottom, w, ov), "h", (left, bottom + ov, right, bottom + ov)))
    for (sx, sy, sw, sh), direction, edge in strips:
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(sx, sy, sw, sh)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.setFillColor(HexColor("#FFFFFF"))
        canvas.setFillAlpha(0.55)
        canvas.rect(sx, sy, sw, sh, stroke=0, fill=1)
        canvas.setStrokeColor(HexColor("#8C8C8C"))
        canvas.setLineWidth(0.35)
        step = 2.5 * MM
        k = -sh
        while k < sw:
            canvas.line(sx + k, sy, sx + k + sh, sy + sh)
            k += step
        canvas.setFillAlpha(1)
        canvas.setFillColor(HexColor("#555555"))
        canvas.setFont(bold, 7)
        cx, cy = sx + sw / 2, sy + sh / 2
        canvas.translate(cx, cy)
        if direction == "v":
            canvas.rotate(90)
        label = words["board_glue"]
        length = sh if direction == "v" else sw
        pitch = 60 * MM
        n = max(1, int(length // pitch))
        for i in range(n):
            offset = (i - (n - 1) / 2) * pitch
            canvas.drawCentredString(offset, -2.5, label)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(HexColor("#000000"))
        canvas.setLineWidth(0.6)
        canvas.setDash([3, 2], 0)
        canvas.line(*edge)
        canvas.restoreState()
    # registration targets only on this sheet's own glue flaps: the neighbour covers them, so
    # they never cross out the visible face (the strip a sheet lays over its neighbour is face)
    shared = []
    if tile.col < plan.cols - 1:
        shared.append(("v", right - ov / 2))
    if tile.row < plan.rows - 1:
        shared.append(("h", bottom + ov / 2))
    for direction, pos in shared:
        for frac in (0.25, 0.75):
            if direction == "v":
                _target(canvas, pos, bottom + h * frac)
            else:
                _target(canvas, left + w * frac, pos)
    # the edges to cut: those that go on top of a neighbour's glue strip
    canvas.saveState()
    canvas.setFillColor(HexColor("#000000"))
    canvas.setFont(font, 6.5)
    if tile.col > 0:
        canvas.saveState()
        canvas.translate(left - 2.2 * MM, bottom + h / 2)
        canvas.rotate(90)
        canvas.drawCentredString(0, 0, f"✂ {words['board_cut']}")
        canvas.restoreState()
    if tile.row > 0:
        canvas.drawCentredString(left + w / 2, top + 1.8 * MM, f"✂ {words['board_cut']}")
    canvas.restoreState()
    # the sheet's name, and a map of all sheets with this one filled
    canvas.saveState()
    canvas.setFillColor(HexColor("#000000"))
    canvas.setFont(bold, 8)
    label_y = bottom - 6.2 * MM
    number = tile.row * plan.cols + tile.col + 1
    canvas.drawString(left + 2 * MM, label_y, tile.label)
    canvas.setFont(font, 7)
    canvas.drawString(left + 10 * MM, label_y, f"{board.title} · {words['board_sheet']} "
                      f"{number}/{len(plan.tiles)}")
    cell_w, cell_h = 3.2 * MM, 2.4 * MM
    map_x = right - 2 * MM - plan.cols * cell_w
    map_y = label_y - 0.6 * MM
    canvas.setLineWidth(0.4)
    for r in range(plan.rows):
        for c in range(plan.cols):
            x = map_x + c * cell_w
            y = map_y + (plan.rows - 1 - r) * cell_h
            filled = r == tile.row and c == tile.col
            canvas.setFillColor(HexColor("#333333"))
            canvas.rect(x, y, cell_w, cell_h, stroke=1, fill=int(filled))
    canvas.restoreState()


def _target(canvas, x: float, y: float) -> None:
    """A registration target: a circle with a cross."""
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#000000"))
    canvas.setLineWidth(0.4)
    canvas.circle(x, y, 1.6 * MM, stroke=1, fill=0)
    canvas.line(x - 3 * MM, y, x + 3 * MM, y)
    canvas.line(x, y - 3 * MM, x, y + 3 * MM)
    canvas.restoreState()
