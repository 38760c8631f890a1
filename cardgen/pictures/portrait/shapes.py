"""Drawing primitives of the portraits: filled paths and ellipses, round-capped strokes, domes.

Shared by the head, the hair and the body; coordinates in the unit design space of draw.py.
"""

from __future__ import annotations

from reportlab.lib.colors import Color

KAPPA = 0.5523  # cubic Bezier constant for quarter circles


def fill(c, p, colour: Color) -> None:
    c.setFillColor(colour)
    c.drawPath(p, stroke=0, fill=1)


def ellipse(c, cx: float, cy: float, rx: float, ry: float, colour: Color) -> None:
    c.setFillColor(colour)
    c.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=0, fill=1)


def stroke(c, p, colour: Color, width: float, cap: int = 1) -> None:
    c.setStrokeColor(colour)
    c.setLineWidth(width)
    c.setLineCap(cap)
    c.setLineJoin(1)
    c.drawPath(p, stroke=1, fill=0)


def dome(p, rx: float, cy: float, top: float, y_side: float) -> None:
    """Append left side (-rx, y_side) -> up over the top -> right side (rx, y_side)."""
    p.lineTo(-rx, cy)
    p.curveTo(-rx, cy + KAPPA * (top - cy), -KAPPA * rx, top, 0, top)
    p.curveTo(KAPPA * rx, top, rx, cy + KAPPA * (top - cy), rx, cy)
    p.lineTo(rx, y_side)
