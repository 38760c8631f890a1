"""Drawing a portrait's hair (behind and in front of the face), beards and surgical caps.

Coordinates in the unit design space of draw.py.
"""

from __future__ import annotations

import math

from reportlab.lib.colors import Color

from .shapes import dome, ellipse, fill, stroke
from .traits import BLACK, WHITE, Traits, mix


def draw_hair_back(c, t: Traits) -> None:
    """Hair behind the head: long, bob, bun, ponytail, afro, curly volume."""
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    top = cy + b + t.hair_volume + 0.012
    if t.hair == "long":
        rx = a + 0.045
        p = c.beginPath()
        p.moveTo(-rx - 0.02, 0.17)
        dome(p, rx, cy, top, cy)
        p.curveTo(rx + 0.01, cy - 0.2, rx + 0.03, 0.22, rx + 0.02, 0.17)
        p.curveTo(0.08, 0.14, -0.08, 0.14, -rx - 0.02, 0.17)
        p.close()
        fill(c, p, col)
    elif t.hair == "bob":
        rx = a + 0.045
        yb = cy - b * 0.62
        p = c.beginPath()
        p.moveTo(-rx - 0.005, yb)
        dome(p, rx, cy, top, cy)
        p.curveTo(rx + 0.005, cy - 0.05, rx + 0.01, yb + 0.02, rx + 0.005, yb)
        p.curveTo(rx - 0.02, yb - 0.02, a * 0.6, yb - 0.01, 0, yb - 0.01)
        p.curveTo(-a * 0.6, yb - 0.01, -rx + 0.02, yb - 0.02, -rx - 0.005, yb)
        p.close()
        fill(c, p, col)
    elif t.hair == "bun" and not t.cap:
        ellipse(c, 0, cy + b + 0.045, 0.07, 0.062, col)
        ellipse(c, 0, cy + b + 0.045, 0.045, 0.04, mix(col, WHITE, 0.12))
    elif t.hair == "ponytail" and not t.cap:
        sd = t.part_side
        p = c.beginPath()
        p.moveTo(sd * a * 0.5, cy + b * 0.9)
        p.curveTo(sd * (a + 0.07), cy + b * 1.0, sd * (a + 0.1), cy + b * 0.3,
                  sd * (a + 0.085), cy - 0.06)
        p.curveTo(sd * (a + 0.075), cy - 0.12, sd * (a + 0.06), cy - 0.16,
                  sd * (a + 0.03), cy - 0.19)
        p.curveTo(sd * (a + 0.035), cy - 0.12, sd * (a + 0.01), cy - 0.04, sd * a * 0.7, cy)
        p.close()
        fill(c, p, col)
        p = c.beginPath()
        p.moveTo(sd * (a + 0.03), cy + b * 0.45)
        p.curveTo(sd * (a + 0.06), cy + b * 0.1, sd * (a + 0.055), cy - 0.06,
                  sd * (a + 0.04), cy - 0.12)
        stroke(c, p, mix(col, WHITE, 0.16), 0.005)
        band = c.beginPath()
        band.moveTo(sd * (a - 0.004), cy + b * 0.8)
        band.lineTo(sd * (a + 0.05), cy + b * 0.72)
        stroke(c, band, mix(t.garment, BLACK, 0.1), 0.022)
    elif t.hair == "afro":
        r = a + 0.085
        ccy = cy + 0.05
        ellipse(c, 0, ccy, r, r * 0.98, col)
        n = 14
        for i in range(n):
            ang = i * 2 * math.pi / n
            ellipse(c, r * 0.95 * math.cos(ang), ccy + r * 0.93 * math.sin(ang), 0.045, 0.045, col)
    elif t.hair == "curly":
        rx = a + 0.03
        ellipse(c, 0, cy + 0.03, rx + 0.015, b + 0.035, col)


def draw_hair_front(c, t: Traits) -> None:
    """Hair over the top of the face, drawn after the face."""
    _FRONTS.get(t.hair, _cropped_front)(c, t)


def _bald_front(c, t: Traits) -> None:
    """A fringe of hair over each ear and a shine on the scalp."""
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    s = t.part_side
    for side in (-1, 1):
        p = c.beginPath()
        p.moveTo(side * (a + 0.012), cy - 0.02)
        p.curveTo(side * (a + 0.02), cy + 0.06, side * (a * 0.9), cy + b * 0.55,
                  side * (a * 0.7), cy + b * 0.7)
        p.curveTo(side * (a * 0.85), cy + b * 0.45, side * (a * 0.9), cy + 0.03,
                  side * (a * 0.92), cy - 0.02)
        p.close()
        fill(c, p, col)
    ellipse(c, -s * a * 0.35, cy + b * 0.8, 0.03, 0.014, mix(t.skin, WHITE, 0.35))


def _afro_front(c, t: Traits) -> None:
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    inner = cy + b * 0.52
    _hair_cap(c, col, cy, a + 0.01, cy + b + 0.02, cy,
              a * 0.93, (a * 0.9, inner + 0.02), (a * 0.5, inner + 0.01), inner + 0.02)


def _curly_front(c, t: Traits) -> None:
    """A cap of hair plus a ring of curls."""
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    top = cy + b + t.hair_volume
    rx = a + 0.018
    _hair_cap(c, col, cy, rx, top, cy + 0.0,
              a * 0.9, (a * 0.85, cy + b * 0.55), (a * 0.3, cy + b * 0.55), cy + b * 0.62)
    n = 11
    for i in range(n):
        ang = math.pi * (i / (n - 1))
        x = (rx + 0.004) * math.cos(ang)
        y = cy + (top - cy + 0.004) * math.sin(ang)
        ellipse(c, x, y, 0.032, 0.032, col)
    for i in range(5):
        x = -a * 0.6 + i * a * 0.3
        ellipse(c, x, cy + b * 0.62 - 0.004 * ((i % 2) * 2 - 1), 0.03, 0.028, col)


def _buzz_front(c, t: Traits) -> None:
    a, b, cy = t.a, t.b, t.cy
    colour = mix(t.skin, t.hair_colour, 0.6)
    _hair_cap(c, colour, cy, a + 0.004, cy + b + 0.006, cy + 0.02,
              a * 0.92, (a * 0.9, cy + b * 0.62), (a * 0.4, cy + b * 0.66), cy + b * 0.67)


def _receding_front(c, t: Traits) -> None:
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    top = cy + b + t.hair_volume
    rx = a + 0.018
    p = c.beginPath()
    p.moveTo(-rx, cy - 0.01)
    dome(p, rx - 0.006, cy, top - 0.01, cy - 0.01)
    p.lineTo(a * 0.9, cy - 0.01)
    p.curveTo(a * 0.88, cy + b * 0.5, a * 0.7, cy + b * 0.9, a * 0.45, cy + b * 0.78)
    p.curveTo(a * 0.25, cy + b * 0.7, a * 0.1, cy + b * 0.66, 0, cy + b * 0.7)
    p.curveTo(-a * 0.1, cy + b * 0.66, -a * 0.25, cy + b * 0.7, -a * 0.45, cy + b * 0.78)
    p.curveTo(-a * 0.7, cy + b * 0.9, -a * 0.88, cy + b * 0.5, -a * 0.9, cy - 0.01)
    p.close()
    fill(c, p, col)


def _long_front(c, t: Traits) -> None:
    """Long hair and bobs: curtains from a centre parting, or a straight or side-swept fringe."""
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    top = cy + b + t.hair_volume
    rx = a + 0.018
    s, h = t.part_side, t.hair
    p = c.beginPath()
    ys = cy - b * (0.35 if h == "long" else 0.3)
    p.moveTo(-rx - 0.012, ys)
    dome(p, rx + 0.012, cy, top + 0.004, ys)
    if h == "bob" and s > 0 or h == "long" and t.hair_volume > 0.03:
        # centre parting, curtains
        p.lineTo(a * 0.9, ys)
        p.curveTo(a * 0.85, cy + b * 0.3, a * 0.45, cy + b * 0.65, s * 0.01, cy + b * 0.9)
        p.curveTo(-a * 0.45, cy + b * 0.65, -a * 0.85, cy + b * 0.3, -a * 0.9, ys)
    elif h == "bob":
        # straight fringe
        fy = cy + b * 0.3
        p.lineTo(a * 0.92, ys)
        p.lineTo(a * 0.92, fy)
        p.curveTo(a * 0.4, fy - 0.01, -a * 0.4, fy - 0.01, -a * 0.92, fy)
        p.lineTo(-a * 0.92, ys)
    else:
        # side-swept fringe
        p.lineTo(s * a * 0.9, ys)
        p.curveTo(s * a * 0.88, cy + b * 0.4, s * a * 0.5, cy + b * 0.75, s * a * 0.25,
                  cy + b * 0.85)
        p.curveTo(-s * a * 0.1, cy + b * 0.6, -s * a * 0.6, cy + b * 0.35, -s * a * 0.92,
                  cy + b * 0.05)
        p.lineTo(-s * a * 0.9, ys)
    p.close()
    fill(c, p, col)


def _cropped_front(c, t: Traits) -> None:
    """Short hair, a side parting, a quiff, a pixie cut, hair pulled back into a bun or a
    ponytail: the crown down to a hairline of the style's shape, then its sheen."""
    top = t.cy + t.b + t.hair_volume
    if t.hair == "quiff":
        top += 0.03
    ys = t.cy - 0.01
    p = c.beginPath()
    _crown(p, t, top, ys)
    _hairline(p, t, ys)
    p.close()
    fill(c, p, t.hair_colour)
    _sheen(c, t, top)


def _crown(p, t: Traits, top: float, ys: float) -> None:
    """From the left side at height ys over the top of the head to the right side; a quiff
    rises towards the parting side."""
    a, b, cy = t.a, t.b, t.cy
    s = t.part_side
    hx = a + 0.018
    p.moveTo(-hx, ys)
    if t.hair == "quiff":
        p.lineTo(-hx, cy)
        p.curveTo(-hx, cy + b * 0.9, -a * 0.6, top - 0.01, -s * a * 0.1, top)
        p.curveTo(s * a * 0.4, top + 0.01, s * a * 0.9, top - 0.015, s * a * 0.8, top - 0.05)
        p.curveTo(hx * 1.02, cy + b * 0.8, hx, cy + b * 0.4, hx, cy)
        p.lineTo(hx, ys)
    else:
        dome(p, hx, cy, top, ys)


def _hairline(p, t: Traits, ys: float) -> None:
    """From the right side back to the left along the forehead, in the style's shape."""
    a, b, cy = t.a, t.b, t.cy
    s, h = t.part_side, t.hair
    taper = 0.03
    if h == "sidepart":
        # parting on side s; hair sweeps across to -s
        p.lineTo(a * 0.9, ys + taper)
        p.lineTo(a * 0.9, cy + b * 0.25)
        if s > 0:
            p.curveTo(a * 0.8, cy + b * 0.62, a * 0.55, cy + b * 0.72, a * 0.45, cy + b * 0.78)
            p.curveTo(a * 0.1, cy + b * 0.5, -a * 0.5, cy + b * 0.4, -a * 0.9, cy + b * 0.25)
        else:
            p.curveTo(a * 0.5, cy + b * 0.4, -a * 0.1, cy + b * 0.5, -a * 0.45, cy + b * 0.78)
            p.curveTo(-a * 0.55, cy + b * 0.72, -a * 0.8, cy + b * 0.62, -a * 0.9, cy + b * 0.25)
        p.lineTo(-a * 0.9, ys + taper)
    elif h == "pixie":
        p.lineTo(a * 0.9, ys + taper)
        p.curveTo(a * 0.9, cy + b * 0.3, s * a * 0.5, cy + b * 0.25, -s * a * 0.2, cy + b * 0.45)
        p.curveTo(-s * a * 0.5, cy + b * 0.55, -a * 0.85, cy + b * 0.3, -a * 0.9, ys + taper)
    elif h == "quiff":
        _across(p, a * 0.9, ys + taper, (a * 0.88, cy + b * 0.55), (a * 0.4, cy + b * 0.6),
                cy + b * 0.62)
    elif h in ("bun", "ponytail"):  # smooth, pulled back
        _across(p, a * 0.9, ys + taper, (a * 0.9, cy + b * 0.5), (a * 0.5, cy + b * 0.7),
                cy + b * 0.7)
    else:  # short: neat with a slight wave
        p.lineTo(a * 0.9, ys + taper)
        p.curveTo(a * 0.9, cy + b * 0.45, a * 0.7, cy + b * 0.55, a * 0.35, cy + b * 0.55)
        p.curveTo(a * 0.1, cy + b * 0.55, 0, cy + b * 0.62, -a * 0.15, cy + b * 0.6)
        p.curveTo(-a * 0.5, cy + b * 0.56, -a * 0.9, cy + b * 0.5, -a * 0.9, ys + taper)


def _sheen(c, t: Traits, top: float) -> None:
    """The parting line and a light stroke over the hair (comb lines on hair pulled back)."""
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    s, h = t.part_side, t.hair
    sheen = mix(col, WHITE, 0.2)
    if h == "sidepart":
        px = s * a * 0.45
        p = c.beginPath()
        p.moveTo(px, cy + b * 0.78)
        p.curveTo(px, cy + b * 0.9, px * 0.9, top - 0.02, px * 0.8, top - 0.008)
        stroke(c, p, mix(col, BLACK, 0.3), 0.006)
        p = c.beginPath()
        p.moveTo(px * 0.6, top - 0.02)
        p.curveTo(-s * a * 0.1, top - 0.02, -s * a * 0.55, cy + b * 0.85,
                  -s * a * 0.75, cy + b * 0.55)
        stroke(c, p, sheen, 0.006)
    elif h in ("bun", "ponytail") and not t.cap:
        # comb lines for texture
        p = c.beginPath()
        p.moveTo(-a * 0.5, cy + b * 0.95)
        p.curveTo(-a * 0.2, top - 0.003, a * 0.2, top - 0.003, a * 0.5, cy + b * 0.95)
        stroke(c, p, sheen, 0.006)
    elif h in ("short", "quiff", "pixie"):
        p = c.beginPath()
        p.moveTo(-s * a * 0.55, top - 0.035)
        p.curveTo(-s * a * 0.25, top - 0.012, s * a * 0.1, top - 0.012, s * a * 0.3, top - 0.025)
        stroke(c, p, sheen, 0.006)


def _hair_cap(c, colour: Color, cy: float, rx: float, top: float, ys: float, x: float,
              c1: tuple[float, float], c2: tuple[float, float], mid: float) -> None:
    """Hair over the crown, filled: from the left side (-rx, ys) over the top to the right side,
    then back along a symmetric hairline (see _across)."""
    p = c.beginPath()
    p.moveTo(-rx, ys)
    dome(p, rx, cy, top, ys)
    _across(p, x, ys, c1, c2, mid)
    p.close()
    fill(c, p, colour)


def _across(p, x: float, y: float, c1: tuple[float, float], c2: tuple[float, float],
            mid: float) -> None:
    """A hairline symmetric about the middle: from (x, y) to (x, y)'s mirror image (-x, y),
    through (0, mid), the right half a curve with the control points c1 and c2."""
    (x1, y1), (x2, y2) = c1, c2
    p.lineTo(x, y)
    p.curveTo(x1, y1, x2, y2, 0, mid)
    p.curveTo(-x2, y2, -x1, y1, -x, y)


# hair over the face by style; any other style is cropped
_FRONTS = {"bald": _bald_front, "afro": _afro_front, "curly": _curly_front, "buzz": _buzz_front,
           "receding": _receding_front, "long": _long_front, "bob": _long_front}


def draw_facial_hair(c, t: Traits) -> None:
    fh = t.facial_hair
    if not fh:
        return
    a, b, cy = t.a, t.b, t.cy
    col = t.beard_colour
    my = cy - 0.112
    ny = cy - 0.064
    if fh in ("full", "stubble"):
        colour = col if fh == "full" else mix(t.skin, mix(col, BLACK, 0.5), 0.3)
        g = 0.008 if fh == "full" else 0.0
        p = c.beginPath()
        y0 = cy + (0.028 if fh == "full" else -0.005)  # a full beard joins the sideburns
        p.moveTo(-a - g * 0.5, y0)
        p.curveTo(-a - g, cy - t.k1 * (b + g), -t.k2 * (a + g), cy - b - g * 2.5,
                  0, cy - b - g * 2.5)
        p.curveTo(t.k2 * (a + g), cy - b - g * 2.5, a + g, cy - t.k1 * (b + g), a + g * 0.5, y0)
        p.lineTo(a * 0.86, y0)
        p.curveTo(a * 0.8, ny - 0.03, a * 0.55, ny - 0.012, a * 0.3, ny - 0.012)
        p.curveTo(a * 0.12, ny - 0.002, -a * 0.12, ny - 0.002, -a * 0.3, ny - 0.012)
        p.curveTo(-a * 0.55, ny - 0.012, -a * 0.8, ny - 0.03, -a * 0.86, y0)
        p.close()
        fill(c, p, colour)
    else:
        if fh in ("goatee", "chevron"):
            if fh == "goatee":
                p = c.beginPath()
                yb = cy - b - 0.006
                yt = my - 0.026
                p.moveTo(-0.04, yt + 0.004)
                p.curveTo(-0.046, yb + 0.03, -0.03, yb, 0, yb)
                p.curveTo(0.03, yb, 0.046, yb + 0.03, 0.04, yt + 0.004)
                p.curveTo(0.02, yt - 0.006, -0.02, yt - 0.006, -0.04, yt + 0.004)
                p.close()
                fill(c, p, col)
        # moustache
        p = c.beginPath()
        w = 0.05 if fh != "chevron" else 0.044
        p.moveTo(0, ny - 0.012)
        p.curveTo(0.02, ny - 0.006, w, ny - 0.012, w + 0.006, my - 0.008)
        p.curveTo(w * 0.6, my + 0.004, 0.015, my + 0.006, 0, my + 0.01)
        p.curveTo(-0.015, my + 0.006, -w * 0.6, my + 0.004, -w - 0.006, my - 0.008)
        p.curveTo(-w, ny - 0.012, -0.02, ny - 0.006, 0, ny - 0.012)
        p.close()
        fill(c, p, col)


def draw_cap(c, t: Traits) -> None:
    """Surgical cap covering the top of the head."""
    a, b, cy = t.a, t.b, t.cy
    col = t.cap_colour
    rx = a + 0.02
    top = cy + b + 0.05
    band_y = cy + b * 0.45
    p = c.beginPath()
    p.moveTo(-rx, band_y - 0.02)
    p.lineTo(-rx, cy + b * 0.5)
    p.curveTo(-rx - 0.01, top - 0.01, -a * 0.4, top + 0.012, 0, top)
    p.curveTo(a * 0.4, top + 0.012, rx + 0.01, top - 0.01, rx, cy + b * 0.5)
    p.lineTo(rx, band_y - 0.02)
    p.curveTo(a * 0.5, band_y - 0.005, -a * 0.5, band_y - 0.005, -rx, band_y - 0.02)
    p.close()
    fill(c, p, col)
    if t.cap_pattern:
        dot = mix(col, WHITE, 0.5)
        for i in range(-3, 4):
            for j in range(3):
                x = i * 0.05 + (0.025 if j % 2 else 0)
                y = band_y + 0.05 + j * 0.04
                if abs(x) < a * (0.95 - 0.25 * j):
                    ellipse(c, x, y, 0.009, 0.009, dot)
    # band
    p = c.beginPath()
    p.moveTo(-rx, band_y - 0.02)
    p.curveTo(-a * 0.5, band_y - 0.005, a * 0.5, band_y - 0.005, rx, band_y - 0.02)
    p.lineTo(rx, band_y + 0.012)
    p.curveTo(a * 0.5, band_y + 0.027, -a * 0.5, band_y + 0.027, -rx, band_y + 0.012)
    p.close()
    fill(c, p, mix(col, BLACK, 0.15))
    # tie ends on one side
    s = t.part_side
    for k in (0, 1):
        p = c.beginPath()
        p.moveTo(s * rx, band_y)
        p.curveTo(s * (rx + 0.03), band_y - 0.01 - k * 0.01, s * (rx + 0.04),
                  band_y - 0.04 - k * 0.015, s * (rx + 0.035 + k * 0.02), band_y - 0.06 - k * 0.01)
        stroke(c, p, mix(col, BLACK, 0.15), 0.012)
