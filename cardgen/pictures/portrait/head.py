"""Drawing a portrait's head: face shape, ears, eyes, brows, nose, mouth, glasses, earrings.

All coordinates are in the unit design space of draw.py (x from -0.5 to 0.5, y from 0 at the
bottom to 1 at the top).
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.colors import Color

from .shapes import KAPPA, ellipse, fill, stroke
from .traits import BLACK, INK, METAL, METAL_DARK, MOUTH_DARK, TONGUE, WHITE, Traits, luma, mix


def _face_path(c, t: Traits, grow: float = 0.0):
    a, b, cy = t.a + grow, t.b + grow, t.cy
    p = c.beginPath()
    p.moveTo(0, cy + b)
    p.curveTo(KAPPA * a, cy + b, a, cy + KAPPA * b, a, cy)
    p.curveTo(a, cy - t.k1 * b, t.k2 * a, cy - b, 0, cy - b)
    p.curveTo(-t.k2 * a, cy - b, -a, cy - t.k1 * b, -a, cy)
    p.curveTo(-a, cy + KAPPA * b, -KAPPA * a, cy + b, 0, cy + b)
    p.close()
    return p


def draw_ears(c, t: Traits) -> None:
    ey = t.cy - 0.012
    shade = mix(t.skin, BLACK, 0.14)
    for s in (-1, 1):
        x = s * (t.a - 0.004)
        ellipse(c, x, ey, 0.032, 0.045, t.skin)
        ellipse(c, x + s * 0.006, ey, 0.015, 0.026, shade)


def ears_visible(t: Traits) -> bool:
    return t.hair not in ("long", "bob", "afro")


def draw_earrings(c, t: Traits) -> None:
    if not t.earrings or not ears_visible(t):
        return
    ey = t.cy - 0.012 - 0.042
    col = t.earring_colour
    for s in (-1, 1):
        x = s * (t.a + 0.004)
        if t.earrings == "stud":
            ellipse(c, x, ey + 0.004, 0.009, 0.009, col)
        elif t.earrings == "hoop":
            c.setStrokeColor(col)
            c.setLineWidth(0.006)
            c.circle(x, ey - 0.014, 0.016, stroke=1, fill=0)
        else:
            ellipse(c, x, ey + 0.002, 0.006, 0.006, col)
            p = c.beginPath()
            p.moveTo(x, ey - 0.004)
            p.curveTo(x + 0.014, ey - 0.02, x + 0.008, ey - 0.034, x, ey - 0.036)
            p.curveTo(x - 0.008, ey - 0.034, x - 0.014, ey - 0.02, x, ey - 0.004)
            p.close()
            fill(c, p, col)


def draw_face(c, t: Traits) -> None:
    fill(c, _face_path(c, t), t.skin)


def draw_features(c, t: Traits) -> None:
    """Blush and freckles, the eyes, the brows, the nose."""
    ey = t.cy - 0.012
    ex = t.a * t.eye_gap
    ink = INK if luma(t.skin) > 0.35 else colors.HexColor("#1A1310")
    _cheeks(c, t, ex, ey)
    for s in (-1, 1):
        _eye(c, t, s * ex, ey, ink)
        if t.lashes:
            _lashes(c, t, s, s * ex, ey, ink)
    _brows(c, t, ex, ey)
    _nose(c, t, ey)


def _cheeks(c, t: Traits, ex: float, ey: float) -> None:
    """Blush and freckles below the eyes (eyes at ±ex, ey)."""
    if t.blush:
        bl = mix(t.skin, colors.HexColor("#F06A6A"), 0.28 if luma(t.skin) > 0.5 else 0.16)
        for s in (-1, 1):
            ellipse(c, s * (ex + 0.035), ey - 0.055, 0.03, 0.018, bl)
    if t.freckles and t.facial_hair != "full":
        fc = mix(t.skin, colors.HexColor("#8A4B26"), 0.45)
        for s in (-1, 1):
            for dx, dy in ((0.0, 0.0), (0.018, 0.008), (0.03, -0.006), (0.012, -0.014)):
                ellipse(c, s * (ex + 0.01 + dx), ey - 0.045 + dy, 0.0035, 0.0035, fc)


def _eye(c, t: Traits, x: float, ey: float, ink: Color) -> None:
    """One eye centred at (x, ey): a dot, an iris (sleepy: under a heavy lid) or a happy arc."""
    es = t.eye_size
    if t.eyes == "dot":
        ellipse(c, x, ey, 0.017 * es, 0.021 * es, ink)
        ellipse(c, x + 0.006, ey + 0.008, 0.0055 * es, 0.0055 * es, WHITE)
    elif t.eyes in ("iris", "sleepy"):
        ellipse(c, x, ey, 0.03 * es, 0.022 * es, WHITE)
        ellipse(c, x, ey - 0.001, 0.016 * es, 0.016 * es, t.eye_colour)
        ellipse(c, x, ey - 0.001, 0.008 * es, 0.008 * es, ink)
        ellipse(c, x + 0.005, ey + 0.006, 0.0045 * es, 0.0045 * es, WHITE)
        if t.eyes == "sleepy":
            p = c.beginPath()  # heavy upper lid
            p.moveTo(x - 0.034 * es, ey + 0.001)
            p.curveTo(x - 0.02 * es, ey + 0.032 * es, x + 0.02 * es, ey + 0.032 * es,
                      x + 0.034 * es, ey + 0.001)
            p.close()
            fill(c, p, mix(t.skin, BLACK, 0.06))
            p = c.beginPath()
            p.moveTo(x - 0.032 * es, ey + 0.001)
            p.lineTo(x + 0.032 * es, ey + 0.001)
            stroke(c, p, ink, 0.006)
        else:
            p = c.beginPath()  # upper lid line
            p.moveTo(x - 0.032 * es, ey + 0.002)
            p.curveTo(x - 0.02 * es, ey + 0.027 * es, x + 0.02 * es, ey + 0.027 * es,
                      x + 0.032 * es, ey + 0.002)
            stroke(c, p, ink, 0.0065)
    else:  # happy: closed, upturned arcs
        p = c.beginPath()
        p.moveTo(x - 0.022 * es, ey - 0.004)
        p.curveTo(x - 0.012 * es, ey + 0.018 * es, x + 0.012 * es, ey + 0.018 * es,
                  x + 0.022 * es, ey - 0.004)
        stroke(c, p, ink, 0.009)


def _lashes(c, t: Traits, s: int, x: float, ey: float, ink: Color) -> None:
    """Two lashes at the outer corner of the eye at (x, ey) on side s."""
    es = t.eye_size
    p = c.beginPath()
    ox = x + s * 0.026 * es
    oy = ey + (0.012 if t.eyes in ("iris", "sleepy") else 0.01) * es
    p.moveTo(ox, oy)
    p.lineTo(ox + s * 0.012, oy + 0.008)
    p.moveTo(ox - s * 0.006, oy + 0.006)
    p.lineTo(ox + s * 0.002, oy + 0.016)
    stroke(c, p, ink, 0.005)


def _brows(c, t: Traits, ex: float, ey: float) -> None:
    """The brows above the eyes (at ±ex, ey), darker than the hair."""
    brow_col = mix(t.hair_colour, BLACK, 0.35)
    if t.hair == "bald" or luma(t.hair_colour) > 0.75:
        brow_col = mix(t.hair_colour, BLACK, 0.45)
    by = ey + 0.048 * t.eye_size
    bw = 0.011 * t.brow_weight
    for s in (-1, 1):
        x = s * ex
        p = c.beginPath()
        if t.brows == "arch":
            p.moveTo(x - s * 0.027, by - 0.004)
            p.curveTo(x - s * 0.012, by + 0.014, x + s * 0.012, by + 0.014,
                      x + s * 0.03, by - 0.002)
        elif t.brows == "straight":
            p.moveTo(x - s * 0.027, by + 0.002)
            p.lineTo(x + s * 0.028, by + 0.004)
        elif t.brows == "angled":
            p.moveTo(x - s * 0.027, by)
            p.lineTo(x + s * 0.01, by + 0.01)
            p.lineTo(x + s * 0.03, by + 0.001)
        else:  # raised: one brow higher (quizzical)
            lift = 0.014 if s == t.part_side else 0.0
            p.moveTo(x - s * 0.027, by - 0.002 + lift)
            p.curveTo(x - s * 0.01, by + 0.012 + lift, x + s * 0.012, by + 0.012 + lift,
                      x + s * 0.03, by + lift)
        stroke(c, p, brow_col, bw)


def _nose(c, t: Traits, ey: float) -> None:
    """The nose, below the eyes (at height ey)."""
    ny = ey - 0.052
    nose_col = mix(t.skin, BLACK, 0.28)
    if t.nose == "button":
        ellipse(c, 0, ny, 0.017, 0.012, mix(t.skin, BLACK, 0.12))
        ellipse(c, -0.005, ny + 0.004, 0.005, 0.004, mix(t.skin, WHITE, 0.35))
    elif t.nose == "curve":
        p = c.beginPath()
        p.moveTo(-0.012, ny - 0.004)
        p.curveTo(-0.006, ny - 0.012, 0.006, ny - 0.012, 0.012, ny - 0.004)
        stroke(c, p, nose_col, 0.007)
    elif t.nose == "hook":
        s = t.part_side
        p = c.beginPath()
        p.moveTo(s * 0.004, ny + 0.03)
        p.curveTo(s * 0.01, ny + 0.01, s * 0.018, ny - 0.004, s * 0.01, ny - 0.009)
        p.curveTo(s * 0.004, ny - 0.012, -s * 0.004, ny - 0.01, -s * 0.008, ny - 0.006)
        stroke(c, p, nose_col, 0.006)
    else:  # round: soft wide U
        p = c.beginPath()
        p.moveTo(-0.02, ny)
        p.curveTo(-0.022, ny - 0.014, -0.01, ny - 0.016, 0, ny - 0.012)
        p.curveTo(0.01, ny - 0.016, 0.022, ny - 0.014, 0.02, ny)
        stroke(c, p, nose_col, 0.0065)


def draw_mouth(c, t: Traits) -> None:
    my = t.cy - 0.112
    mw = 0.042 * t.mouth_width
    line = t.lips or MOUTH_DARK
    if t.mouth == "smile":
        p = c.beginPath()
        p.moveTo(-mw, my + 0.008)
        p.curveTo(-mw * 0.5, my - 0.018, mw * 0.5, my - 0.018, mw, my + 0.008)
        stroke(c, p, line, 0.009)
        if t.lips:
            p = c.beginPath()
            p.moveTo(-mw * 0.6, my - 0.002)
            p.curveTo(-mw * 0.3, my - 0.028, mw * 0.3, my - 0.028, mw * 0.6, my - 0.002)
            stroke(c, p, mix(t.lips, WHITE, 0.15), 0.007)
    elif t.mouth == "smirk":
        s = t.part_side
        p = c.beginPath()
        p.moveTo(-s * mw * 0.9, my)
        p.curveTo(-s * mw * 0.3, my - 0.012, s * mw * 0.5, my - 0.01, s * mw, my + 0.012)
        stroke(c, p, line, 0.009)
    else:
        wide = mw * (1.1 if t.mouth == "grin" else 0.8 if t.mouth == "open" else 1.0)
        deep = 0.04 if t.mouth == "grin" else 0.036 if t.mouth == "open" else 0.03
        p = c.beginPath()
        p.moveTo(-wide, my + 0.006)
        p.curveTo(-wide * 0.4, my + 0.0, wide * 0.4, my + 0.0, wide, my + 0.006)
        p.curveTo(wide * 0.85, my - deep * 0.95, -wide * 0.85, my - deep * 0.95, -wide, my + 0.006)
        p.close()
        fill(c, p, MOUTH_DARK)
        c.saveState()
        c.clipPath(p, stroke=0, fill=0)
        if t.mouth in ("grin", "teeth"):
            c.setFillColor(WHITE)
            c.rect(-wide, my - (0.012 if t.mouth == "grin" else 0.016), 2 * wide, 0.03,
                   stroke=0, fill=1)
        ellipse(c, 0, my - deep * 0.8, wide * 0.55, deep * 0.38, TONGUE)
        c.restoreState()
        if t.lips:
            p2 = c.beginPath()
            p2.moveTo(-wide, my + 0.006)
            p2.curveTo(-wide * 0.85, my - deep * 0.95, wide * 0.85, my - deep * 0.95,
                       wide, my + 0.006)
            stroke(c, p2, t.lips, 0.007)


def draw_head_mirror(c, t: Traits) -> None:
    a, b, cy = t.a, t.b, t.cy
    by = cy + b * 0.62
    band = colors.HexColor("#3B3F46")
    p = c.beginPath()
    p.moveTo(-a - 0.008, by - 0.02)
    p.curveTo(-a * 0.5, by + 0.012, a * 0.5, by + 0.012, a + 0.008, by - 0.02)
    stroke(c, p, band, 0.018, cap=0)
    s = t.part_side
    mx, my = s * a * 0.32, by + 0.03
    ellipse(c, mx, my - 0.022, 0.012, 0.014, band)
    ellipse(c, mx, my, 0.058, 0.058, METAL_DARK)
    ellipse(c, mx, my, 0.05, 0.05, METAL)
    ellipse(c, mx - 0.016, my + 0.018, 0.014, 0.009, WHITE)
    ellipse(c, mx, my, 0.01, 0.01, band)


def draw_glasses(c, t: Traits) -> None:
    if not t.glasses:
        return
    a, cy = t.a, t.cy
    ey = cy - 0.012
    ex = a * t.eye_gap
    col = t.frame_colour
    lw = 0.0085 if t.glasses != "half" else 0.007
    c.setStrokeColor(col)
    c.setLineWidth(lw)
    c.setLineJoin(1)
    for s in (-1, 1):
        x = s * ex
        if t.glasses == "round":
            c.circle(x, ey, 0.041, stroke=1, fill=0)
        elif t.glasses == "rect":
            c.roundRect(x - 0.05, ey - 0.033, 0.1, 0.063, 0.016, stroke=1, fill=0)
        elif t.glasses == "cat":
            p = c.beginPath()
            p.moveTo(x - s * 0.045, ey + 0.02)
            p.curveTo(x - s * 0.01, ey + 0.03, x + s * 0.04, ey + 0.035, x + s * 0.058, ey + 0.04)
            p.curveTo(x + s * 0.052, ey - 0.01, x + s * 0.035, ey - 0.034, x, ey - 0.034)
            p.curveTo(x - s * 0.035, ey - 0.034, x - s * 0.048, ey - 0.01, x - s * 0.045, ey + 0.02)
            p.close()
            c.drawPath(p, stroke=1, fill=0)
        else:  # half rims: thick top bar, thin lower
            p = c.beginPath()
            p.moveTo(x - 0.048, ey + 0.016)
            p.lineTo(x + 0.048, ey + 0.016)
            stroke(c, p, col, 0.014, cap=1)
            p = c.beginPath()
            p.moveTo(x - 0.048, ey + 0.016)
            p.curveTo(x - 0.048, ey - 0.035, x + 0.048, ey - 0.035, x + 0.048, ey + 0.016)
            stroke(c, p, mix(col, WHITE, 0.35), 0.005)
            c.setStrokeColor(col)
            c.setLineWidth(lw)
    # bridge and arms
    p = c.beginPath()
    if t.glasses == "round":
        inner, outer, yb = ex - 0.041, ex + 0.041, ey + 0.006
    elif t.glasses == "rect":
        inner, outer, yb = ex - 0.05, ex + 0.05, ey + 0.008
    elif t.glasses == "cat":
        inner, outer, yb = ex - 0.045, ex + 0.056, ey + 0.018
    else:
        inner, outer, yb = ex - 0.048, ex + 0.048, ey + 0.016
    p.moveTo(-inner, yb)
    p.curveTo(-inner * 0.4, yb + 0.012, inner * 0.4, yb + 0.012, inner, yb)
    for s in (-1, 1):
        p.moveTo(s * outer, yb + 0.004)
        p.lineTo(s * (a - 0.002), yb + 0.008)
    stroke(c, p, col, lw)
