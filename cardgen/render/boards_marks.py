"""What a sheet of boards.pdf prints around the board's window: crop marks on a whole board;
on a tile, corner marks, the hatched glue strips a neighbour covers, registration targets on
them, the edges to cut, and the sheet's name with a map of all sheets.

Drawing only: where each window lies is layout/board_paper.py's plan.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor

from ..layout.board import LaidBoard
from ..layout.board_paper import PagePlan, Tile
from ..text.fonts import face_name
from ..units import MM

MARK = 0.5  # pt


def window(plan: PagePlan, tile: Tile) -> tuple[float, float, float, float]:
    """The tile's window on the page in points: left, bottom, width, height (as printed)."""
    w, h = tile.w * plan.scale, tile.h * plan.scale
    left = plan.origin[0]
    bottom = plan.page[1] - plan.origin[1] - h
    return left * MM, bottom * MM, w * MM, h * MM


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


def crop_marks(canvas, plan: PagePlan, tile: Tile) -> None:
    """Marks at a whole board's corners where the paper leaves room for them."""
    left, bottom, w, h = window(plan, tile)
    room_x, room_y = plan.origin[0], plan.origin[1]
    length = (min(5.0, room_x - 2.0) * MM if room_x >= 3.0 else 0.0,
              min(5.0, room_y - 2.0) * MM if room_y >= 3.0 else 0.0)
    if length[0] > 0 or length[1] > 0:
        _corner_marks(canvas, left, bottom, left + w, bottom + h, length, 1.0 * MM)


def tile_marks(canvas, plan: PagePlan, tile: Tile, board: LaidBoard,
               words: dict[str, str]) -> None:
    """Everything around a tile's window, in this order: corner marks, glue strips, targets,
    cut labels, the sheet's name and map."""
    left, bottom, w, h = window(plan, tile)
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
    for strip, direction, edge in strips:
        _glue_strip(canvas, strip, direction, bold, words["board_glue"])
        _neighbour_edge(canvas, edge)
    _targets(canvas, plan, tile, (left, bottom, w, h), ov)
    _cut_labels(canvas, tile, (left, bottom, w, h), font, f"✂ {words['board_cut']}")
    _sheet_name(canvas, plan, tile, (left, bottom, w, h), font, bold,
                f"{board.title} · {words['board_sheet']}")


def _glue_strip(canvas, strip, direction: str, bold: str, label: str) -> None:
    """The strip a neighbour covers: lightened, hatched, and labelled along its length."""
    sx, sy, sw, sh = strip
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
    length = sh if direction == "v" else sw
    pitch = 60 * MM
    n = max(1, int(length // pitch))
    for i in range(n):
        offset = (i - (n - 1) / 2) * pitch
        canvas.drawCentredString(offset, -2.5, label)
    canvas.restoreState()


def _neighbour_edge(canvas, edge) -> None:
    """A dashed line where the neighbour's cut edge goes."""
    canvas.saveState()
    canvas.setStrokeColor(HexColor("#000000"))
    canvas.setLineWidth(0.6)
    canvas.setDash([3, 2], 0)
    canvas.line(*edge)
    canvas.restoreState()


def _targets(canvas, plan: PagePlan, tile: Tile, win, ov: float) -> None:
    """Registration targets only on this sheet's own glue flaps: the neighbour covers them, so
    they never cross out the visible face (the strip a sheet lays over its neighbour is face)."""
    left, bottom, w, h = win
    right = left + w
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


def _cut_labels(canvas, tile: Tile, win, font: str, label: str) -> None:
    """The edges to cut: those that go on top of a neighbour's glue strip (left and top)."""
    left, bottom, w, h = win
    top = bottom + h
    canvas.saveState()
    canvas.setFillColor(HexColor("#000000"))
    canvas.setFont(font, 6.5)
    if tile.col > 0:
        canvas.saveState()
        canvas.translate(left - 2.2 * MM, bottom + h / 2)
        canvas.rotate(90)
        canvas.drawCentredString(0, 0, label)
        canvas.restoreState()
    if tile.row > 0:
        canvas.drawCentredString(left + w / 2, top + 1.8 * MM, label)
    canvas.restoreState()


def _sheet_name(canvas, plan: PagePlan, tile: Tile, win, font: str, bold: str,
                title: str) -> None:
    """The sheet's name and number below the window, and a map of all sheets with this one
    filled."""
    left, bottom, w, _ = win
    right = left + w
    canvas.saveState()
    canvas.setFillColor(HexColor("#000000"))
    canvas.setFont(bold, 8)
    label_y = bottom - 6.2 * MM
    number = tile.row * plan.cols + tile.col + 1
    canvas.drawString(left + 2 * MM, label_y, tile.label)
    canvas.setFont(font, 7)
    canvas.drawString(left + 10 * MM, label_y, f"{title} {number}/{len(plan.tiles)}")
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
