"""Units and paper sizes, defined once: every stage measures in mm and draws in PDF points."""

from __future__ import annotations

MM = 72 / 25.4  # PDF points per millimetre

# Paper (width, height) in mm, portrait
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0)}
