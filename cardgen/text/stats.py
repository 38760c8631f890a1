"""How one stat row is put together: label on the left, values with their win mark on the right.

Shared by layout (to choose a size that fits) and render (to draw exactly that).
"""

from __future__ import annotations

from .fonts import face_name, width
from .numbers import UNIT_GAP
from ..units import MM

GAP_MM = 1.2
SMALL = 0.8  # the win marks and separators print at this share of the values' size
STRIPE_INSET_MM = 0.8  # striped rows: the text keeps this distance from the stripe's ends


def inset(region) -> float:
    """Points the label and the values keep from the region's sides: striped rows show their
    ends, so the text does not touch them."""
    return STRIPE_INSET_MM * MM if getattr(region, "stripe", None) not in (None, "none") \
        else 0.0


def small_size(size: float, minimum: float = 0.0) -> float:
    """Size of the win marks (▲▼) and separators: smaller than the values, never below the
    pack's minimum type size."""
    return max(size * SMALL, minimum)


def label_text(row, icons: dict[str, str]) -> str:
    marker = icons.get("common", "●") + " " if row.common else ""
    return marker + row.label


def value_pieces(row, icons: dict[str, str]) -> list[tuple[str, bool]]:
    """(text, bold) pieces of the value side: '61▲ / 48▼'; a unit after a value ('61 J.') at
    the size of the marks, not bold: the number is what players compare."""
    pieces: list[tuple[str, bool]] = []
    for index, (value, wins) in enumerate(row.values):
        if index:
            pieces.append((" / ", False))
        number, gap, unit = value.partition(UNIT_GAP)
        pieces.append((number, True))
        if gap:
            pieces.append((gap + unit, False))
        pieces.append((icons.get("up", "▲") if wins == "high" else icons.get("down", "▼"), False))
    return pieces


def row_width(row, family: str, size: float, icons: dict[str, str],
              minimum: float = 0.0) -> float:
    regular, bold = face_name(family), face_name(family, bold=True)
    label_w = width(label_text(row, icons), regular, size)
    values_w = sum(width(t, bold if b else regular, size if b else small_size(size, minimum))
                   for t, b in value_pieces(row, icons))
    return label_w + GAP_MM * MM + values_w
