"""Deterministic vector placeholder portraits for cards without a picture.

A portrait is a friendly cartoon head-and-shoulders drawn with reportlab canvas calls only
(no raster images, no text). Its traits come from traits.py (seeded, so the same card always
shows the same person); the head is drawn by head.py, the hair by hair.py, the background, body
and clothes here, all with the primitives of shapes.py. The layout chooses the style of clothes
(`portrait_style`) and a gender hint.

Design space: the drawing is laid out in a unit square (x from -0.5 to 0.5 around the centre,
y from 0 at the bottom to 1 at the top), scaled to the box height and centred horizontally, so
proportions hold for any aspect ratio; everything is clipped to the box.
"""

from __future__ import annotations

import math

from reportlab.lib import colors
from reportlab.lib.colors import Color

from .hair import draw_cap, draw_facial_hair, draw_hair_back, draw_hair_front
from .head import (draw_earrings, draw_ears, draw_face, draw_features, draw_glasses,
                   draw_head_mirror, draw_mouth, ears_visible)
from .shapes import ellipse, fill, stroke
from .traits import (BLACK, BODY_TOP, COAT, COAT_LINE, COAT_SHADE, METAL, METAL_DARK, WHITE,
                     Traits, mix, portrait_traits, to_colour)

__all__ = ["draw_portrait", "portrait_traits"]


def _background(c, t: Traits, accent: Color, half_w: float) -> None:
    base = mix(accent, WHITE, 0.80)
    c.setFillColor(base)
    c.rect(-half_w - 0.01, -0.01, 2 * half_w + 0.02, 1.02, stroke=0, fill=1)
    soft = mix(accent, WHITE, {"halo": 0.64, "split": 0.64, "rays": 0.7}.get(t.background, 0.74))
    if t.background == "halo":
        ellipse(c, 0, t.cy + 0.02, 0.36, 0.36, soft)
    elif t.background == "rays":
        c.setFillColor(soft)
        ox, oy = 0.0, t.cy
        for i in range(8):
            a0 = i * 2 * math.pi / 8
            a1 = a0 + math.pi / 8
            p = c.beginPath()
            p.moveTo(ox, oy)
            p.lineTo(ox + 1.2 * math.cos(a0), oy + 1.2 * math.sin(a0))
            p.lineTo(ox + 1.2 * math.cos(a1), oy + 1.2 * math.sin(a1))
            p.close()
            c.drawPath(p, stroke=0, fill=1)
    elif t.background == "stripes":
        c.setFillColor(soft)
        step, band = 0.16, 0.06
        for i in range(int((-half_w - 1.04) / step) - 1, int(half_w / step) + 2):
            x0 = i * step
            p = c.beginPath()
            p.moveTo(x0, -0.01)
            p.lineTo(x0 + band, -0.01)
            p.lineTo(x0 + band + 1.02, 1.01)
            p.lineTo(x0 + 1.02, 1.01)
            p.close()
            c.drawPath(p, stroke=0, fill=1)
    else:  # split: a lower soft band
        c.setFillColor(soft)
        p = c.beginPath()
        p.moveTo(-half_w - 0.01, -0.01)
        p.lineTo(-half_w - 0.01, 0.42)
        p.curveTo(-0.2, 0.52, 0.2, 0.32, half_w + 0.01, 0.44)
        p.lineTo(half_w + 0.01, -0.01)
        p.close()
        c.drawPath(p, stroke=0, fill=1)


def _neck(c, t: Traits) -> None:
    nw = _neck_w(t)
    p = c.beginPath()
    p.moveTo(-nw, BODY_TOP - 0.06)
    p.lineTo(-nw, t.cy - t.b * 0.4)
    p.lineTo(nw, t.cy - t.b * 0.4)
    p.lineTo(nw, BODY_TOP - 0.06)
    p.close()
    fill(c, p, t.skin)
    # shadow under the chin (the face covers its top)
    shade = mix(t.skin, BLACK, 0.16)
    p = c.beginPath()
    yc = t.cy - t.b
    p.moveTo(-nw, yc + 0.03)
    p.lineTo(-nw, yc - 0.014)
    p.curveTo(-nw * 0.5, yc - 0.036, nw * 0.5, yc - 0.036, nw, yc - 0.014)
    p.lineTo(nw, yc + 0.03)
    p.close()
    fill(c, p, shade)


def _neck_w(t: Traits) -> float:
    return t.a * 0.47


def _body_path(c, t: Traits, half_w: float):
    W, T = t.shoulders, BODY_TOP
    p = c.beginPath()
    p.moveTo(-W - 0.04, -0.02)
    p.lineTo(-W, 0.1)
    p.curveTo(-W + 0.004, T - 0.06, -0.25, T, -0.12, T)
    p.lineTo(0.12, T)
    p.curveTo(0.25, T, W - 0.004, T - 0.06, W, 0.1)
    p.lineTo(W + 0.04, -0.02)
    p.close()
    return p


def _body(c, t: Traits, half_w: float) -> None:
    T = BODY_TOP
    nw = _neck_w(t)
    coat = t.attire == "coat"
    fill(c, _body_path(c, t, half_w), COAT if coat else t.garment)
    if coat:
        # inner garment visible between the lapels
        p = c.beginPath()
        p.moveTo(-0.12, T)
        p.lineTo(0.12, T)
        p.lineTo(0.035, -0.02)
        p.lineTo(-0.035, -0.02)
        p.close()
        fill(c, p, t.garment)
    _neckline(c, t, nw)
    if coat:
        _lapels(c, t, nw)
    elif t.attire == "scrubs":
        s = -t.part_side  # chest pocket on the other side from the badge
        p = c.beginPath()
        p.moveTo(s * 0.14, 0.14)
        p.lineTo(s * 0.24, 0.14)
        p.lineTo(s * 0.24, 0.05)
        p.lineTo(s * 0.14, 0.05)
        p.close()
        stroke(c, p, mix(t.garment, BLACK, 0.2), 0.006)
    if t.badge:
        _badge(c, t)


def _neckline(c, t: Traits, nw: float) -> None:
    T = BODY_TOP
    skin, g = t.skin, t.garment
    dark = mix(g, BLACK, 0.22)
    if t.neckline == "vneck":
        depth = T - (0.1 if t.attire != "coat" else 0.09)
        p = c.beginPath()
        p.moveTo(-nw - 0.014, T + 0.002)
        p.lineTo(0, depth)
        p.lineTo(nw + 0.014, T + 0.002)
        p.close()
        fill(c, p, skin)
        p = c.beginPath()
        p.moveTo(-nw - 0.014, T)
        p.lineTo(0, depth)
        p.lineTo(nw + 0.014, T)
        stroke(c, p, dark, 0.012)
    elif t.neckline == "crew":
        p = c.beginPath()
        p.moveTo(-nw - 0.012, T + 0.001)
        p.curveTo(-nw, T - 0.05, nw, T - 0.05, nw + 0.012, T + 0.001)
        p.close()
        fill(c, p, skin)
        p = c.beginPath()
        p.moveTo(-nw - 0.012, T)
        p.curveTo(-nw, T - 0.052, nw, T - 0.052, nw + 0.012, T)
        stroke(c, p, dark, 0.01)
    elif t.neckline == "turtle":
        p = c.beginPath()
        p.roundRect(-nw - 0.016, T - 0.035, 2 * nw + 0.032, 0.085, 0.022)
        fill(c, p, mix(g, BLACK, 0.08))
        for k in (T - 0.005, T + 0.022):
            p = c.beginPath()
            p.moveTo(-nw - 0.006, k)
            p.lineTo(nw + 0.006, k)
            stroke(c, p, dark, 0.004)
    else:  # collar / tie: a shirt collar
        tie = t.neckline == "tie"
        if tie:
            p = c.beginPath()  # blade
            p.moveTo(-0.011, T - 0.035)
            p.lineTo(0.011, T - 0.035)
            p.lineTo(0.027, 0.07)
            p.lineTo(0, 0.04)
            p.lineTo(-0.027, 0.07)
            p.close()
            fill(c, p, t.tie_colour)
            p = c.beginPath()  # knot
            p.moveTo(-0.02, T - 0.004)
            p.lineTo(0.02, T - 0.004)
            p.lineTo(0.013, T - 0.038)
            p.lineTo(-0.013, T - 0.038)
            p.close()
            fill(c, p, mix(t.tie_colour, BLACK, 0.12))
        else:
            p = c.beginPath()  # open collar: small skin V
            p.moveTo(-nw, T + 0.002)
            p.lineTo(0, T - 0.07)
            p.lineTo(nw, T + 0.002)
            p.close()
            fill(c, p, skin)
        collar = mix(g, WHITE, 0.4)
        line = mix(g, BLACK, 0.3)
        for s in (-1, 1):
            p = c.beginPath()
            p.moveTo(s * (nw - 0.004), T + 0.022)
            p.lineTo(s * (nw + 0.035), T - 0.055)
            p.lineTo(s * 0.012, T - (0.03 if tie else 0.07))
            p.lineTo(s * (nw - 0.012), T + 0.004)
            p.close()
            c.setFillColor(collar)
            c.setStrokeColor(line)
            c.setLineWidth(0.004)
            c.setLineJoin(1)
            c.drawPath(p, stroke=1, fill=1)


def _lapels(c, t: Traits, nw: float) -> None:
    T = BODY_TOP
    c.setLineWidth(0.004)
    c.setLineJoin(1)
    for s in (-1, 1):
        p = c.beginPath()
        p.moveTo(s * (nw + 0.002), T + 0.02)
        p.lineTo(s * 0.2, T - 0.012)
        p.lineTo(s * 0.178, T - 0.085)
        p.lineTo(s * 0.2, T - 0.105)
        p.lineTo(s * 0.05, 0.05)
        p.close()
        c.setFillColor(COAT_SHADE)
        c.setStrokeColor(COAT_LINE)
        c.drawPath(p, stroke=1, fill=1)
    for s in (-1, 1):  # coat front edges below the lapels
        p = c.beginPath()
        p.moveTo(s * 0.05, 0.05)
        p.lineTo(s * 0.035, -0.02)
        stroke(c, p, COAT_LINE, 0.005)
    # breast pocket with pens
    s = -t.part_side
    px, top = s * 0.27, 0.135
    pen_cols = [colors.HexColor(h) for h in ("#1F4C8A", "#A3262A", "#2B2F36", "#2E6E5E")]
    xs = [px - 0.024 + i * 0.022 for i in range(t.pens)]
    for i, x in enumerate(xs):
        c.setFillColor(pen_cols[(i + t.part_side + 1) % 4])
        c.roundRect(x - 0.008, top - 0.02, 0.016, 0.062, 0.007, stroke=0, fill=1)
    c.setFillColor(COAT)
    c.setStrokeColor(COAT_LINE)
    c.setLineWidth(0.005)
    c.rect(px - 0.06, -0.01, 0.12, top + 0.01, stroke=1, fill=1)
    for x in xs:
        c.setFillColor(METAL_DARK)
        c.roundRect(x - 0.0025, top - 0.035, 0.005, 0.05, 0.002, stroke=0, fill=1)


def _badge(c, t: Traits) -> None:
    s = t.part_side
    stripe = mix(t.tube_colour, WHITE, 0.15)
    if t.attire == "coat" or t.stethoscope:
        bx, by = s * (0.27 if t.attire == "coat" else 0.23), 0.14
        c.setFillColor(WHITE)
        c.setStrokeColor(COAT_LINE)
        c.setLineWidth(0.004)
        c.roundRect(bx - 0.055, by - 0.03, 0.11, 0.062, 0.008, stroke=1, fill=1)
        c.setFillColor(stripe)
        c.rect(bx - 0.053, by + 0.012, 0.106, 0.018, stroke=0, fill=1)
        ellipse(c, bx - 0.03, by - 0.008, 0.012, 0.012, mix(t.skin, BLACK, 0.05))
        c.setFillColor(COAT_LINE)
        c.rect(bx - 0.012, by - 0.006, 0.055, 0.006, stroke=0, fill=1)
        c.rect(bx - 0.012, by - 0.02, 0.04, 0.006, stroke=0, fill=1)
    else:
        # lanyard from the neck with a card
        nw = _neck_w(t)
        bx, by = s * 0.06, 0.07
        p = c.beginPath()
        p.moveTo(-nw - 0.01, BODY_TOP + 0.002)
        p.lineTo(bx - 0.012, by + 0.04)
        p.moveTo(nw + 0.01, BODY_TOP + 0.002)
        p.lineTo(bx + 0.012, by + 0.04)
        stroke(c, p, stripe, 0.009)
        c.setFillColor(WHITE)
        c.setStrokeColor(mix(t.garment, BLACK, 0.3))
        c.setLineWidth(0.003)
        c.roundRect(bx - 0.042, by - 0.045, 0.084, 0.09, 0.008, stroke=1, fill=1)
        c.setFillColor(stripe)
        c.rect(bx - 0.04, by + 0.022, 0.08, 0.016, stroke=0, fill=1)
        ellipse(c, bx, by - 0.004, 0.014, 0.014, mix(t.skin, BLACK, 0.05))
        c.setFillColor(COAT_LINE)
        c.rect(bx - 0.025, by - 0.034, 0.05, 0.006, stroke=0, fill=1)


def _stethoscope(c, t: Traits) -> None:
    nw = _neck_w(t)
    T = BODY_TOP
    col = t.tube_colour
    w = 0.013
    s = t.part_side
    # two strands hanging from behind the neck
    cx, cyy = -s * 0.105, 0.09
    p = c.beginPath()
    p.moveTo(-s * (nw + 0.002), T + 0.012)
    p.curveTo(-s * (nw + 0.06), T + 0.0, -s * 0.125, T - 0.09, cx, cyy + 0.028)
    stroke(c, p, col, w)
    ex, ey = s * 0.12, 0.15
    p = c.beginPath()
    p.moveTo(s * (nw + 0.002), T + 0.012)
    p.curveTo(s * (nw + 0.06), T + 0.0, s * 0.125, T - 0.07, ex, ey)
    stroke(c, p, col, w)
    # chest piece
    ellipse(c, cx, cyy, 0.031, 0.031, METAL_DARK)
    ellipse(c, cx, cyy, 0.023, 0.023, METAL)
    ellipse(c, cx - 0.007, cyy + 0.007, 0.006, 0.006, WHITE)
    # metal ear tubes ending in tips
    for dx in (-0.02, 0.02):
        p = c.beginPath()
        p.moveTo(ex, ey)
        p.curveTo(ex + dx * 0.2, ey - 0.02, ex + dx, ey - 0.03, ex + dx, ey - 0.06)
        stroke(c, p, METAL_DARK, 0.0065)
        ellipse(c, ex + dx, ey - 0.064, 0.008, 0.008, mix(col, BLACK, 0.25))
    ellipse(c, ex, ey, 0.009, 0.009, METAL_DARK)


THINNEST_STROKE = 0.003  # the finest stroke of a drawn portrait, as a share of its height


def draw_portrait(canvas, x: float, y: float, w: float, h: float, seed: str,
                  accent: str = "#3A6FC4", gender: str | None = None, radius: float = 0,
                  style: str = "any", age: int | None = None, hair: str | None = None) -> None:
    """Draw a placeholder portrait filling the box (x, y) lower-left, w x h, in PDF points.

    The picture is scaled to the box height and centred horizontally, clipped to the box (a
    rounded rectangle when ``radius`` > 0). Same seed, same drawing; no text, no images. `gender`,
    `age` and `hair` are the card's hints (see portrait_traits).
    """
    if w <= 0 or h <= 0:
        return
    t = portrait_traits(seed, gender, style, age, hair)
    accent_c = to_colour(accent)
    canvas.saveState()
    clip = canvas.beginPath()
    if radius and radius > 0:
        clip.roundRect(x, y, w, h, min(radius, w / 2, h / 2))
    else:
        clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(x + w / 2.0, y)
    canvas.scale(h, h)
    half_w = w / (2.0 * h)

    _background(canvas, t, accent_c, half_w)
    draw_hair_back(canvas, t)
    _neck(canvas, t)
    _body(canvas, t, half_w)
    if t.stethoscope:
        _stethoscope(canvas, t)
    if ears_visible(t) or t.cap:
        draw_ears(canvas, t)
    draw_face(canvas, t)
    draw_features(canvas, t)
    draw_facial_hair(canvas, t)
    draw_mouth(canvas, t)
    if t.cap:
        if t.hair in ("long", "bob"):
            draw_hair_front(canvas, t)
        draw_cap(canvas, t)
    else:
        draw_hair_front(canvas, t)
    if t.head_mirror:
        draw_head_mirror(canvas, t)
    draw_glasses(canvas, t)
    draw_earrings(canvas, t)
    canvas.restoreState()
