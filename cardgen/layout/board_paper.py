"""Where a board goes on paper: whole and centred, shrunk onto one sheet, or tiled with
overlapping windows (the sheets a board larger than the paper is glued from).

Pure arithmetic in mm; render/boards.py draws each sheet of the plan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

OVERLAP = 10.0             # mm shared by neighbouring tiles of a board larger than the paper
TILE_MARGIN = 10.0         # mm of paper around a tile's window: marks, label, printer margin


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
