"""Deterministic vector placeholder portraits for cards without a picture.

A portrait is a friendly cartoon head-and-shoulders drawn with reportlab canvas calls only
(no raster images, no text). Every trait -- face shape, skin tone, hair, eyes, brows, nose,
mouth, glasses, facial hair, earrings, clothing and the hospital extras (white coat,
stethoscope, surgical cap, head mirror, badge) -- is drawn from a ``random.Random`` seeded with
the SHA-256 of the seed string, so the same seed always yields the same drawing operations in
every process (Python's salted ``hash()`` is never used).

Design space: the drawing is laid out in a unit square (x from -0.5 to 0.5 around the centre,
y from 0 at the bottom to 1 at the top), scaled to the box height and centred horizontally, so
proportions hold for any aspect ratio; everything is clipped to the box.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.colors import Color

__all__ = ["draw_portrait", "portrait_traits"]

_K = 0.5523  # cubic Bezier constant for quarter circles

# ---------------------------------------------------------------------------------------------
# palettes

SKIN_TONES = [
    "#FDE7D6", "#F8D9C0", "#F1C7A5", "#E8B68E", "#DDA57A", "#CF9468",
    "#BD7F55", "#A66B45", "#8D5738", "#74452B", "#5C3520",
]
HAIR_COLOURS = {  # name: (colour, weight)
    "black": ("#231B17", 20),
    "darkbrown": ("#3F2A1E", 22),
    "brown": ("#6A4429", 18),
    "chestnut": ("#8A4B26", 8),
    "auburn": ("#9C3F1F", 6),
    "ginger": ("#C8642A", 5),
    "blonde": ("#D9B168", 10),
    "platinum": ("#EDDDB4", 4),
    "grey": ("#9A9A9E", 7),
    "white": ("#E4E4E6", 4),
    "pink": ("#E27AA8", 1.2),
    "teal": ("#3FA3A0", 0.8),
    "violet": ("#7B5BB5", 0.8),
}
EYE_COLOURS = ["#4A2E1C", "#5C3A21", "#3B2619", "#3F6FA8", "#5D8A4A", "#7A6A3A", "#6B7A86"]
SCRUB_COLOURS = ["#3E8FA6", "#2F6DB5", "#4AA58C", "#6B5BA8", "#2E4E7E", "#3A9B9B", "#B34F6C",
                 "#6F8FA0", "#5A7F3E"]
SHIRT_COLOURS = ["#F3F6FA", "#D8E6F5", "#F2E3C9", "#E9D6E8", "#CFE3D0", "#9EC1E6", "#F6D1C1"]
TOP_COLOURS = ["#C2504A", "#3D5A80", "#E0A43A", "#5E8C61", "#8E5A9B", "#2F3E4E", "#D7724A",
               "#4C7DA8", "#A33E63", "#7B8B47"]
TIE_COLOURS = ["#A3262A", "#1F3F75", "#2D6B3F", "#6C2E6E", "#C48A1C", "#34495E"]
LIP_COLOURS = ["#B8485A", "#C0505C", "#9E3B4C", "#D0607A"]
FRAME_COLOURS = ["#222222", "#5A3A22", "#8A1C2C", "#1F4C8A", "#7A7F87", "#C9A227", "#2E6E5E"]
TUBE_COLOURS = ["#2B2F36", "#2B2F36", "#1F4C8A", "#A3262A", "#2E6E5E", "#6C2E6E"]

BODY_TOP = 0.29
WHITE = Color(1, 1, 1)
BLACK = Color(0, 0, 0)
# What people wear, by portrait style (a layout's `portrait_style`).
STYLES = {"any": {"coat", "scrubs", "shirt", "sweater", "blouse"},
          "medical": {"coat", "scrubs"},
          "casual": {"shirt", "sweater", "blouse"}}

COAT = colors.HexColor("#FAFBFC")
COAT_SHADE = colors.HexColor("#DDE3EA")
COAT_LINE = colors.HexColor("#B9C2CD")
INK = colors.HexColor("#2A211C")
MOUTH_DARK = colors.HexColor("#6E2A2E")
TONGUE = colors.HexColor("#E27B7B")
METAL = colors.HexColor("#C9CED6")
METAL_DARK = colors.HexColor("#7E8792")


def _c(value) -> Color:
    if isinstance(value, Color):
        return value
    return colors.toColor(value)


def _mix(a: Color, b: Color, t: float) -> Color:
    """Linear blend: t = 0 gives a, t = 1 gives b."""
    return Color(a.red + (b.red - a.red) * t,
                 a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)


def _luma(c: Color) -> float:
    return 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue


def _rng(seed: str) -> random.Random:
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _weighted(rng: random.Random, table: dict):
    """Pick a key of {key: weight}; iteration order of the literal keeps it deterministic."""
    keys = list(table)
    weights = [table[k] for k in keys]
    return rng.choices(keys, weights=weights, k=1)[0]


# ---------------------------------------------------------------------------------------------
# traits

@dataclass
class Traits:
    skin: Color
    face: str
    a: float            # face half-width
    b: float            # face half-height
    k1: float           # jaw fullness (vertical control)
    k2: float           # chin width (horizontal control)
    cy: float           # face centre y
    hair: str
    hair_colour: Color
    beard_colour: Color
    hair_volume: float
    part_side: int      # -1 / 1: side of parting, sweep and asymmetric items
    eyes: str
    eye_colour: Color
    eye_gap: float
    eye_size: float
    lashes: bool
    brows: str
    brow_weight: float
    nose: str
    mouth: str
    mouth_width: float
    lips: Color | None
    blush: bool
    freckles: bool
    glasses: str | None
    frame_colour: Color
    facial_hair: str | None
    earrings: str | None
    earring_colour: Color
    attire: str         # coat | scrubs | shirt | sweater | blouse
    garment: Color      # main (under-)garment colour
    neckline: str       # vneck | collar | tie | crew | turtle
    tie_colour: Color
    stethoscope: bool
    tube_colour: Color
    cap: bool
    cap_colour: Color
    cap_pattern: bool
    head_mirror: bool
    badge: bool
    pens: int
    shoulders: float
    background: str


def portrait_traits(seed: str, gender: str | None = None, style: str = "any") -> Traits:
    """Derive all visual traits of a portrait from its seed (deterministic)."""
    rng = _rng(seed)
    g = (gender or "").lower()[:1] or None
    if g not in ("f", "m"):
        g = None

    skin = colors.HexColor(rng.choice(SKIN_TONES))
    face = _weighted(rng, {"oval": 3, "round": 3, "square": 2, "long": 2, "heart": 2})
    a, b, k1, k2 = {
        "oval": (0.170, 0.215, 0.66, 0.56),
        "round": (0.182, 0.200, 0.62, 0.62),
        "square": (0.178, 0.208, 0.86, 0.72),
        "long": (0.160, 0.225, 0.68, 0.52),
        "heart": (0.178, 0.212, 0.52, 0.40),
    }[face]
    a *= rng.uniform(0.97, 1.03)
    b *= rng.uniform(0.98, 1.02)
    cy = 0.555

    if g == "f":
        hair_table = {"long": 5, "bob": 4, "bun": 3, "ponytail": 3, "curly": 2.5, "pixie": 2,
                      "afro": 1.5, "sidepart": 1, "short": 0.5}
    elif g == "m":
        hair_table = {"short": 4, "sidepart": 4, "quiff": 2.5, "buzz": 2, "bald": 2,
                      "receding": 2, "curly": 2, "afro": 1, "long": 0.6, "ponytail": 0.4}
    else:
        hair_table = {"short": 3, "sidepart": 3, "long": 3, "bob": 2.5, "bun": 2, "ponytail": 2,
                      "curly": 2, "quiff": 1.5, "pixie": 1.5, "buzz": 1.5, "bald": 1.2,
                      "receding": 1.2, "afro": 1.2}
    hair = _weighted(rng, hair_table)
    hair_name = _weighted(rng, {k: v[1] for k, v in HAIR_COLOURS.items()})
    hair_colour = colors.HexColor(HAIR_COLOURS[hair_name][0])
    if hair == "afro" and _luma(hair_colour) > 0.55 and rng.random() < 0.7:
        hair_colour = colors.HexColor(HAIR_COLOURS["black"][0])
    if abs(_luma(hair_colour) - _luma(skin)) < 0.14:
        hair_colour = _mix(hair_colour, BLACK, 0.3 if _luma(hair_colour) > 0.5 else 0.55)
    beard_colour = hair_colour
    if hair_name in ("pink", "teal", "violet"):  # dyed hair, natural beard
        beard_colour = colors.HexColor(HAIR_COLOURS["darkbrown"][0])
    hair_volume = rng.uniform(0.018, 0.04)
    part_side = rng.choice((-1, 1))

    eyes = _weighted(rng, {"dot": 4, "iris": 4, "happy": 1.2, "sleepy": 1})
    eye_colour = colors.HexColor(rng.choice(EYE_COLOURS))
    eye_gap = rng.uniform(0.40, 0.47)
    eye_size = rng.uniform(0.9, 1.12)
    lashes = g == "f" and rng.random() < 0.6 or g is None and rng.random() < 0.2
    brows = _weighted(rng, {"arch": 3, "straight": 2, "angled": 2, "raised": 1})
    brow_weight = rng.uniform(0.75, 1.3) if g != "f" else rng.uniform(0.65, 1.0)
    nose = _weighted(rng, {"button": 3, "curve": 3, "hook": 2, "round": 2})
    mouth = _weighted(rng, {"smile": 4, "grin": 3, "open": 2, "smirk": 1.5, "teeth": 1.5})
    mouth_width = rng.uniform(0.8, 1.15)
    lips = colors.HexColor(rng.choice(LIP_COLOURS)) if g == "f" and rng.random() < 0.35 else None
    blush = rng.random() < (0.55 if _luma(skin) > 0.5 else 0.2)
    freckles = _luma(skin) > 0.72 and rng.random() < 0.25

    glasses = None
    if rng.random() < 0.32:
        glasses = _weighted(rng, {"round": 3, "rect": 3, "cat": 1 if g != "m" else 0.1, "half": 1})
    frame_colour = colors.HexColor(rng.choice(FRAME_COLOURS))

    beard_p = {"m": 0.45, None: 0.18, "f": 0.0}[g]
    facial_hair = None
    bald_beard = hair == "bald" and g != "f" and rng.random() < 0.5
    if rng.random() < beard_p and hair != "afro" or bald_beard:
        facial_hair = _weighted(rng, {"full": 3, "moustache": 2, "goatee": 2, "stubble": 2,
                                      "chevron": 1})
    earring_p = {"f": 0.5, None: 0.15, "m": 0.05}[g]
    earrings = rng.choice(("stud", "hoop", "drop")) if rng.random() < earring_p else None
    earring_colour = colors.HexColor(rng.choice(("#E1B84C", "#D9DDE3", "#5BB7C9", "#E36C8C")))

    weights = {"coat": 5, "scrubs": 3, "shirt": 1, "sweater": 1, "blouse": 1 if g != "m" else 0.2}
    keep = STYLES.get(style, STYLES["any"])
    attire = _weighted(rng, {k: v for k, v in weights.items() if k in keep})
    if attire == "coat":
        under = _weighted(rng, {"scrubs": 2, "shirt": 2, "sweater": 1})
    else:
        under = attire
    if under == "scrubs":
        garment = colors.HexColor(rng.choice(SCRUB_COLOURS))
        neckline = "vneck"
    elif under == "shirt":
        garment = colors.HexColor(rng.choice(SHIRT_COLOURS))
        neckline = "tie" if rng.random() < (0.55 if g != "f" else 0.15) else "collar"
    elif under == "blouse":
        garment = colors.HexColor(rng.choice(TOP_COLOURS + SHIRT_COLOURS[3:]))
        neckline = rng.choice(("crew", "collar"))
    else:
        garment = colors.HexColor(rng.choice(TOP_COLOURS))
        neckline = rng.choice(("crew", "turtle", "vneck"))
    tie_colour = colors.HexColor(rng.choice(TIE_COLOURS))

    stethoscope = rng.random() < {"coat": 0.65, "scrubs": 0.45}.get(attire, 0.0)
    tube_colour = colors.HexColor(rng.choice(TUBE_COLOURS))
    cap = attire == "scrubs" and rng.random() < 0.5 or attire == "coat" and under == "scrubs" \
        and rng.random() < 0.15
    cap_colour = garment if rng.random() < 0.6 or under != "scrubs" else \
        colors.HexColor(rng.choice(SCRUB_COLOURS))
    cap_pattern = rng.random() < 0.45
    if cap and hair in ("afro", "bun", "ponytail") and rng.random() < 0.5:
        hair = "bob" if g == "f" else "short"
    head_mirror = attire == "coat" and not cap and rng.random() < 0.14
    badge = attire in ("coat", "scrubs") and rng.random() < 0.6
    pens = rng.choice((0, 1, 2, 2, 3)) if attire == "coat" else 0
    shoulders = rng.uniform(0.40, 0.46) if g != "f" else rng.uniform(0.37, 0.42)
    background = _weighted(rng, {"halo": 3, "rays": 1, "stripes": 1, "split": 1})

    return Traits(skin=skin, face=face, a=a, b=b, k1=k1, k2=k2, cy=cy, hair=hair,
                  hair_colour=hair_colour, beard_colour=beard_colour, hair_volume=hair_volume,
                  part_side=part_side,
                  eyes=eyes, eye_colour=eye_colour, eye_gap=eye_gap, eye_size=eye_size,
                  lashes=lashes, brows=brows, brow_weight=brow_weight, nose=nose, mouth=mouth,
                  mouth_width=mouth_width, lips=lips, blush=blush, freckles=freckles,
                  glasses=glasses, frame_colour=frame_colour, facial_hair=facial_hair,
                  earrings=earrings, earring_colour=earring_colour, attire=attire,
                  garment=garment, neckline=neckline, tie_colour=tie_colour,
                  stethoscope=stethoscope, tube_colour=tube_colour, cap=cap,
                  cap_colour=cap_colour, cap_pattern=cap_pattern, head_mirror=head_mirror,
                  badge=badge, pens=pens, shoulders=shoulders, background=background)


# ---------------------------------------------------------------------------------------------
# drawing helpers (all coordinates in the unit design space)

def _fill(c, p, colour: Color) -> None:
    c.setFillColor(colour)
    c.drawPath(p, stroke=0, fill=1)


def _ellipse(c, cx: float, cy: float, rx: float, ry: float, colour: Color) -> None:
    c.setFillColor(colour)
    c.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=0, fill=1)


def _stroke(c, p, colour: Color, width: float, cap: int = 1) -> None:
    c.setStrokeColor(colour)
    c.setLineWidth(width)
    c.setLineCap(cap)
    c.setLineJoin(1)
    c.drawPath(p, stroke=1, fill=0)


def _face_path(c, t: Traits, grow: float = 0.0):
    a, b, cy = t.a + grow, t.b + grow, t.cy
    p = c.beginPath()
    p.moveTo(0, cy + b)
    p.curveTo(_K * a, cy + b, a, cy + _K * b, a, cy)
    p.curveTo(a, cy - t.k1 * b, t.k2 * a, cy - b, 0, cy - b)
    p.curveTo(-t.k2 * a, cy - b, -a, cy - t.k1 * b, -a, cy)
    p.curveTo(-a, cy + _K * b, -_K * a, cy + b, 0, cy + b)
    p.close()
    return p


def _dome(p, rx: float, cy: float, top: float, y_side: float) -> None:
    """Append left side (-rx, y_side) -> up over the top -> right side (rx, y_side)."""
    p.lineTo(-rx, cy)
    p.curveTo(-rx, cy + _K * (top - cy), -_K * rx, top, 0, top)
    p.curveTo(_K * rx, top, rx, cy + _K * (top - cy), rx, cy)
    p.lineTo(rx, y_side)


# ---------------------------------------------------------------------------------------------
# parts

def _background(c, t: Traits, accent: Color, half_w: float) -> None:
    base = _mix(accent, WHITE, 0.80)
    c.setFillColor(base)
    c.rect(-half_w - 0.01, -0.01, 2 * half_w + 0.02, 1.02, stroke=0, fill=1)
    soft = _mix(accent, WHITE, {"halo": 0.64, "split": 0.64, "rays": 0.7}.get(t.background, 0.74))
    if t.background == "halo":
        _ellipse(c, 0, t.cy + 0.02, 0.36, 0.36, soft)
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


def _hair_back(c, t: Traits) -> None:
    """Hair behind the head: long, bob, bun, ponytail, afro, curly volume."""
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    top = cy + b + t.hair_volume + 0.012
    if t.hair == "long":
        rx = a + 0.045
        p = c.beginPath()
        p.moveTo(-rx - 0.02, 0.17)
        _dome(p, rx, cy, top, cy)
        p.curveTo(rx + 0.01, cy - 0.2, rx + 0.03, 0.22, rx + 0.02, 0.17)
        p.curveTo(0.08, 0.14, -0.08, 0.14, -rx - 0.02, 0.17)
        p.close()
        _fill(c, p, col)
    elif t.hair == "bob":
        rx = a + 0.045
        yb = cy - b * 0.62
        p = c.beginPath()
        p.moveTo(-rx - 0.005, yb)
        _dome(p, rx, cy, top, cy)
        p.curveTo(rx + 0.005, cy - 0.05, rx + 0.01, yb + 0.02, rx + 0.005, yb)
        p.curveTo(rx - 0.02, yb - 0.02, a * 0.6, yb - 0.01, 0, yb - 0.01)
        p.curveTo(-a * 0.6, yb - 0.01, -rx + 0.02, yb - 0.02, -rx - 0.005, yb)
        p.close()
        _fill(c, p, col)
    elif t.hair == "bun" and not t.cap:
        _ellipse(c, 0, cy + b + 0.045, 0.07, 0.062, col)
        _ellipse(c, 0, cy + b + 0.045, 0.045, 0.04, _mix(col, WHITE, 0.12))
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
        _fill(c, p, col)
        p = c.beginPath()
        p.moveTo(sd * (a + 0.03), cy + b * 0.45)
        p.curveTo(sd * (a + 0.06), cy + b * 0.1, sd * (a + 0.055), cy - 0.06,
                  sd * (a + 0.04), cy - 0.12)
        _stroke(c, p, _mix(col, WHITE, 0.16), 0.005)
        band = c.beginPath()
        band.moveTo(sd * (a - 0.004), cy + b * 0.8)
        band.lineTo(sd * (a + 0.05), cy + b * 0.72)
        _stroke(c, band, _mix(t.garment, BLACK, 0.1), 0.022)
    elif t.hair == "afro":
        r = a + 0.085
        ccy = cy + 0.05
        _ellipse(c, 0, ccy, r, r * 0.98, col)
        n = 14
        for i in range(n):
            ang = i * 2 * math.pi / n
            _ellipse(c, r * 0.95 * math.cos(ang), ccy + r * 0.93 * math.sin(ang), 0.045, 0.045, col)
    elif t.hair == "curly":
        rx = a + 0.03
        _ellipse(c, 0, cy + 0.03, rx + 0.015, b + 0.035, col)


def _ears(c, t: Traits) -> None:
    ey = t.cy - 0.012
    shade = _mix(t.skin, BLACK, 0.14)
    for s in (-1, 1):
        x = s * (t.a - 0.004)
        _ellipse(c, x, ey, 0.032, 0.045, t.skin)
        _ellipse(c, x + s * 0.006, ey, 0.015, 0.026, shade)


def _ears_visible(t: Traits) -> bool:
    return t.hair not in ("long", "bob", "afro")


def _earrings(c, t: Traits) -> None:
    if not t.earrings or not _ears_visible(t):
        return
    ey = t.cy - 0.012 - 0.042
    col = t.earring_colour
    for s in (-1, 1):
        x = s * (t.a + 0.004)
        if t.earrings == "stud":
            _ellipse(c, x, ey + 0.004, 0.009, 0.009, col)
        elif t.earrings == "hoop":
            c.setStrokeColor(col)
            c.setLineWidth(0.006)
            c.circle(x, ey - 0.014, 0.016, stroke=1, fill=0)
        else:
            _ellipse(c, x, ey + 0.002, 0.006, 0.006, col)
            p = c.beginPath()
            p.moveTo(x, ey - 0.004)
            p.curveTo(x + 0.014, ey - 0.02, x + 0.008, ey - 0.034, x, ey - 0.036)
            p.curveTo(x - 0.008, ey - 0.034, x - 0.014, ey - 0.02, x, ey - 0.004)
            p.close()
            _fill(c, p, col)


def _neck(c, t: Traits) -> None:
    nw = _neck_w(t)
    p = c.beginPath()
    p.moveTo(-nw, BODY_TOP - 0.06)
    p.lineTo(-nw, t.cy - t.b * 0.4)
    p.lineTo(nw, t.cy - t.b * 0.4)
    p.lineTo(nw, BODY_TOP - 0.06)
    p.close()
    _fill(c, p, t.skin)
    # shadow under the chin (the face covers its top)
    shade = _mix(t.skin, BLACK, 0.16)
    p = c.beginPath()
    yc = t.cy - t.b
    p.moveTo(-nw, yc + 0.03)
    p.lineTo(-nw, yc - 0.014)
    p.curveTo(-nw * 0.5, yc - 0.036, nw * 0.5, yc - 0.036, nw, yc - 0.014)
    p.lineTo(nw, yc + 0.03)
    p.close()
    _fill(c, p, shade)


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
    _fill(c, _body_path(c, t, half_w), COAT if coat else t.garment)
    if coat:
        # inner garment visible between the lapels
        p = c.beginPath()
        p.moveTo(-0.12, T)
        p.lineTo(0.12, T)
        p.lineTo(0.035, -0.02)
        p.lineTo(-0.035, -0.02)
        p.close()
        _fill(c, p, t.garment)
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
        _stroke(c, p, _mix(t.garment, BLACK, 0.2), 0.006)
    if t.badge:
        _badge(c, t)


def _neckline(c, t: Traits, nw: float) -> None:
    T = BODY_TOP
    skin, g = t.skin, t.garment
    dark = _mix(g, BLACK, 0.22)
    if t.neckline == "vneck":
        depth = T - (0.1 if t.attire != "coat" else 0.09)
        p = c.beginPath()
        p.moveTo(-nw - 0.014, T + 0.002)
        p.lineTo(0, depth)
        p.lineTo(nw + 0.014, T + 0.002)
        p.close()
        _fill(c, p, skin)
        p = c.beginPath()
        p.moveTo(-nw - 0.014, T)
        p.lineTo(0, depth)
        p.lineTo(nw + 0.014, T)
        _stroke(c, p, dark, 0.012)
    elif t.neckline == "crew":
        p = c.beginPath()
        p.moveTo(-nw - 0.012, T + 0.001)
        p.curveTo(-nw, T - 0.05, nw, T - 0.05, nw + 0.012, T + 0.001)
        p.close()
        _fill(c, p, skin)
        p = c.beginPath()
        p.moveTo(-nw - 0.012, T)
        p.curveTo(-nw, T - 0.052, nw, T - 0.052, nw + 0.012, T)
        _stroke(c, p, dark, 0.01)
    elif t.neckline == "turtle":
        p = c.beginPath()
        p.roundRect(-nw - 0.016, T - 0.035, 2 * nw + 0.032, 0.085, 0.022)
        _fill(c, p, _mix(g, BLACK, 0.08))
        for k in (T - 0.005, T + 0.022):
            p = c.beginPath()
            p.moveTo(-nw - 0.006, k)
            p.lineTo(nw + 0.006, k)
            _stroke(c, p, dark, 0.004)
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
            _fill(c, p, t.tie_colour)
            p = c.beginPath()  # knot
            p.moveTo(-0.02, T - 0.004)
            p.lineTo(0.02, T - 0.004)
            p.lineTo(0.013, T - 0.038)
            p.lineTo(-0.013, T - 0.038)
            p.close()
            _fill(c, p, _mix(t.tie_colour, BLACK, 0.12))
        else:
            p = c.beginPath()  # open collar: small skin V
            p.moveTo(-nw, T + 0.002)
            p.lineTo(0, T - 0.07)
            p.lineTo(nw, T + 0.002)
            p.close()
            _fill(c, p, skin)
        collar = _mix(g, WHITE, 0.4)
        line = _mix(g, BLACK, 0.3)
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
        _stroke(c, p, COAT_LINE, 0.005)
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
    stripe = _mix(t.tube_colour, WHITE, 0.15)
    if t.attire == "coat" or t.stethoscope:
        bx, by = s * (0.27 if t.attire == "coat" else 0.23), 0.14
        c.setFillColor(WHITE)
        c.setStrokeColor(COAT_LINE)
        c.setLineWidth(0.004)
        c.roundRect(bx - 0.055, by - 0.03, 0.11, 0.062, 0.008, stroke=1, fill=1)
        c.setFillColor(stripe)
        c.rect(bx - 0.053, by + 0.012, 0.106, 0.018, stroke=0, fill=1)
        _ellipse(c, bx - 0.03, by - 0.008, 0.012, 0.012, _mix(t.skin, BLACK, 0.05))
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
        _stroke(c, p, stripe, 0.009)
        c.setFillColor(WHITE)
        c.setStrokeColor(_mix(t.garment, BLACK, 0.3))
        c.setLineWidth(0.003)
        c.roundRect(bx - 0.042, by - 0.045, 0.084, 0.09, 0.008, stroke=1, fill=1)
        c.setFillColor(stripe)
        c.rect(bx - 0.04, by + 0.022, 0.08, 0.016, stroke=0, fill=1)
        _ellipse(c, bx, by - 0.004, 0.014, 0.014, _mix(t.skin, BLACK, 0.05))
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
    _stroke(c, p, col, w)
    ex, ey = s * 0.12, 0.15
    p = c.beginPath()
    p.moveTo(s * (nw + 0.002), T + 0.012)
    p.curveTo(s * (nw + 0.06), T + 0.0, s * 0.125, T - 0.07, ex, ey)
    _stroke(c, p, col, w)
    # chest piece
    _ellipse(c, cx, cyy, 0.031, 0.031, METAL_DARK)
    _ellipse(c, cx, cyy, 0.023, 0.023, METAL)
    _ellipse(c, cx - 0.007, cyy + 0.007, 0.006, 0.006, WHITE)
    # metal ear tubes ending in tips
    for dx in (-0.02, 0.02):
        p = c.beginPath()
        p.moveTo(ex, ey)
        p.curveTo(ex + dx * 0.2, ey - 0.02, ex + dx, ey - 0.03, ex + dx, ey - 0.06)
        _stroke(c, p, METAL_DARK, 0.0065)
        _ellipse(c, ex + dx, ey - 0.064, 0.008, 0.008, _mix(col, BLACK, 0.25))
    _ellipse(c, ex, ey, 0.009, 0.009, METAL_DARK)


def _face(c, t: Traits) -> None:
    _fill(c, _face_path(c, t), t.skin)


def _features(c, t: Traits) -> None:
    a, cy = t.a, t.cy
    ey = cy - 0.012
    ex = a * t.eye_gap
    ink = INK if _luma(t.skin) > 0.35 else colors.HexColor("#1A1310")
    es = t.eye_size
    # blush & freckles
    if t.blush:
        bl = _mix(t.skin, colors.HexColor("#F06A6A"), 0.28 if _luma(t.skin) > 0.5 else 0.16)
        for s in (-1, 1):
            _ellipse(c, s * (ex + 0.035), ey - 0.055, 0.03, 0.018, bl)
    if t.freckles and t.facial_hair != "full":
        fc = _mix(t.skin, colors.HexColor("#8A4B26"), 0.45)
        for s in (-1, 1):
            for dx, dy in ((0.0, 0.0), (0.018, 0.008), (0.03, -0.006), (0.012, -0.014)):
                _ellipse(c, s * (ex + 0.01 + dx), ey - 0.045 + dy, 0.0035, 0.0035, fc)
    # eyes
    for s in (-1, 1):
        x = s * ex
        if t.eyes == "dot":
            _ellipse(c, x, ey, 0.017 * es, 0.021 * es, ink)
            _ellipse(c, x + 0.006, ey + 0.008, 0.0055 * es, 0.0055 * es, WHITE)
        elif t.eyes in ("iris", "sleepy"):
            _ellipse(c, x, ey, 0.03 * es, 0.022 * es, WHITE)
            _ellipse(c, x, ey - 0.001, 0.016 * es, 0.016 * es, t.eye_colour)
            _ellipse(c, x, ey - 0.001, 0.008 * es, 0.008 * es, ink)
            _ellipse(c, x + 0.005, ey + 0.006, 0.0045 * es, 0.0045 * es, WHITE)
            if t.eyes == "sleepy":
                p = c.beginPath()  # heavy upper lid
                p.moveTo(x - 0.034 * es, ey + 0.001)
                p.curveTo(x - 0.02 * es, ey + 0.032 * es, x + 0.02 * es, ey + 0.032 * es,
                          x + 0.034 * es, ey + 0.001)
                p.close()
                _fill(c, p, _mix(t.skin, BLACK, 0.06))
                p = c.beginPath()
                p.moveTo(x - 0.032 * es, ey + 0.001)
                p.lineTo(x + 0.032 * es, ey + 0.001)
                _stroke(c, p, ink, 0.006)
            else:
                p = c.beginPath()  # upper lid line
                p.moveTo(x - 0.032 * es, ey + 0.002)
                p.curveTo(x - 0.02 * es, ey + 0.027 * es, x + 0.02 * es, ey + 0.027 * es,
                          x + 0.032 * es, ey + 0.002)
                _stroke(c, p, ink, 0.0065)
        else:  # happy: closed, upturned arcs
            p = c.beginPath()
            p.moveTo(x - 0.022 * es, ey - 0.004)
            p.curveTo(x - 0.012 * es, ey + 0.018 * es, x + 0.012 * es, ey + 0.018 * es,
                      x + 0.022 * es, ey - 0.004)
            _stroke(c, p, ink, 0.009)
        if t.lashes:
            p = c.beginPath()
            ox = x + s * 0.026 * es
            oy = ey + (0.012 if t.eyes in ("iris", "sleepy") else 0.01) * es
            p.moveTo(ox, oy)
            p.lineTo(ox + s * 0.012, oy + 0.008)
            p.moveTo(ox - s * 0.006, oy + 0.006)
            p.lineTo(ox + s * 0.002, oy + 0.016)
            _stroke(c, p, ink, 0.005)
    # brows
    brow_col = _mix(t.hair_colour, BLACK, 0.35)
    if t.hair == "bald" or _luma(t.hair_colour) > 0.75:
        brow_col = _mix(t.hair_colour, BLACK, 0.45)
    by = ey + 0.048 * es
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
        _stroke(c, p, brow_col, bw)
    # nose
    ny = ey - 0.052
    nose_col = _mix(t.skin, BLACK, 0.28)
    if t.nose == "button":
        _ellipse(c, 0, ny, 0.017, 0.012, _mix(t.skin, BLACK, 0.12))
        _ellipse(c, -0.005, ny + 0.004, 0.005, 0.004, _mix(t.skin, WHITE, 0.35))
    elif t.nose == "curve":
        p = c.beginPath()
        p.moveTo(-0.012, ny - 0.004)
        p.curveTo(-0.006, ny - 0.012, 0.006, ny - 0.012, 0.012, ny - 0.004)
        _stroke(c, p, nose_col, 0.007)
    elif t.nose == "hook":
        s = t.part_side
        p = c.beginPath()
        p.moveTo(s * 0.004, ny + 0.03)
        p.curveTo(s * 0.01, ny + 0.01, s * 0.018, ny - 0.004, s * 0.01, ny - 0.009)
        p.curveTo(s * 0.004, ny - 0.012, -s * 0.004, ny - 0.01, -s * 0.008, ny - 0.006)
        _stroke(c, p, nose_col, 0.006)
    else:  # round: soft wide U
        p = c.beginPath()
        p.moveTo(-0.02, ny)
        p.curveTo(-0.022, ny - 0.014, -0.01, ny - 0.016, 0, ny - 0.012)
        p.curveTo(0.01, ny - 0.016, 0.022, ny - 0.014, 0.02, ny)
        _stroke(c, p, nose_col, 0.0065)


def _mouth(c, t: Traits) -> None:
    my = t.cy - 0.112
    mw = 0.042 * t.mouth_width
    line = t.lips or MOUTH_DARK
    if t.mouth == "smile":
        p = c.beginPath()
        p.moveTo(-mw, my + 0.008)
        p.curveTo(-mw * 0.5, my - 0.018, mw * 0.5, my - 0.018, mw, my + 0.008)
        _stroke(c, p, line, 0.009)
        if t.lips:
            p = c.beginPath()
            p.moveTo(-mw * 0.6, my - 0.002)
            p.curveTo(-mw * 0.3, my - 0.028, mw * 0.3, my - 0.028, mw * 0.6, my - 0.002)
            _stroke(c, p, _mix(t.lips, WHITE, 0.15), 0.007)
    elif t.mouth == "smirk":
        s = t.part_side
        p = c.beginPath()
        p.moveTo(-s * mw * 0.9, my)
        p.curveTo(-s * mw * 0.3, my - 0.012, s * mw * 0.5, my - 0.01, s * mw, my + 0.012)
        _stroke(c, p, line, 0.009)
    else:
        wide = mw * (1.1 if t.mouth == "grin" else 0.8 if t.mouth == "open" else 1.0)
        deep = 0.04 if t.mouth == "grin" else 0.036 if t.mouth == "open" else 0.03
        p = c.beginPath()
        p.moveTo(-wide, my + 0.006)
        p.curveTo(-wide * 0.4, my + 0.0, wide * 0.4, my + 0.0, wide, my + 0.006)
        p.curveTo(wide * 0.85, my - deep * 0.95, -wide * 0.85, my - deep * 0.95, -wide, my + 0.006)
        p.close()
        _fill(c, p, MOUTH_DARK)
        c.saveState()
        c.clipPath(p, stroke=0, fill=0)
        if t.mouth in ("grin", "teeth"):
            c.setFillColor(WHITE)
            c.rect(-wide, my - (0.012 if t.mouth == "grin" else 0.016), 2 * wide, 0.03,
                   stroke=0, fill=1)
        _ellipse(c, 0, my - deep * 0.8, wide * 0.55, deep * 0.38, TONGUE)
        c.restoreState()
        if t.lips:
            p2 = c.beginPath()
            p2.moveTo(-wide, my + 0.006)
            p2.curveTo(-wide * 0.85, my - deep * 0.95, wide * 0.85, my - deep * 0.95,
                       wide, my + 0.006)
            _stroke(c, p2, t.lips, 0.007)


def _facial_hair(c, t: Traits) -> None:
    fh = t.facial_hair
    if not fh:
        return
    a, b, cy = t.a, t.b, t.cy
    col = t.beard_colour
    my = cy - 0.112
    ny = cy - 0.064
    if fh in ("full", "stubble"):
        colour = col if fh == "full" else _mix(t.skin, _mix(col, BLACK, 0.5), 0.3)
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
        _fill(c, p, colour)
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
                _fill(c, p, col)
        # moustache
        p = c.beginPath()
        w = 0.05 if fh != "chevron" else 0.044
        p.moveTo(0, ny - 0.012)
        p.curveTo(0.02, ny - 0.006, w, ny - 0.012, w + 0.006, my - 0.008)
        p.curveTo(w * 0.6, my + 0.004, 0.015, my + 0.006, 0, my + 0.01)
        p.curveTo(-0.015, my + 0.006, -w * 0.6, my + 0.004, -w - 0.006, my - 0.008)
        p.curveTo(-w, ny - 0.012, -0.02, ny - 0.006, 0, ny - 0.012)
        p.close()
        _fill(c, p, col)


def _hair_front(c, t: Traits) -> None:
    a, b, cy, col = t.a, t.b, t.cy, t.hair_colour
    v = t.hair_volume
    top = cy + b + v
    rx = a + 0.018
    s = t.part_side
    h = t.hair
    if h == "bald":
        for side in (-1, 1):
            p = c.beginPath()
            p.moveTo(side * (a + 0.012), cy - 0.02)
            p.curveTo(side * (a + 0.02), cy + 0.06, side * (a * 0.9), cy + b * 0.55,
                      side * (a * 0.7), cy + b * 0.7)
            p.curveTo(side * (a * 0.85), cy + b * 0.45, side * (a * 0.9), cy + 0.03,
                      side * (a * 0.92), cy - 0.02)
            p.close()
            _fill(c, p, col)
        _ellipse(c, -s * a * 0.35, cy + b * 0.8, 0.03, 0.014, _mix(t.skin, WHITE, 0.35))
        return
    if h == "afro":
        inner = cy + b * 0.52
        p = c.beginPath()
        p.moveTo(-a - 0.01, cy)
        _dome(p, a + 0.01, cy, cy + b + 0.02, cy)
        p.lineTo(a * 0.93, cy)
        p.curveTo(a * 0.9, inner + 0.02, a * 0.5, inner + 0.01, 0, inner + 0.02)
        p.curveTo(-a * 0.5, inner + 0.01, -a * 0.9, inner + 0.02, -a * 0.93, cy)
        p.close()
        _fill(c, p, col)
        return
    if h == "curly":
        # cap plus a ring of curls
        ys = cy + 0.0
        p = c.beginPath()
        p.moveTo(-rx, ys)
        _dome(p, rx, cy, top, ys)
        p.lineTo(a * 0.9, ys)
        p.curveTo(a * 0.85, cy + b * 0.55, a * 0.3, cy + b * 0.55, 0, cy + b * 0.62)
        p.curveTo(-a * 0.3, cy + b * 0.55, -a * 0.85, cy + b * 0.55, -a * 0.9, ys)
        p.close()
        _fill(c, p, col)
        n = 11
        for i in range(n):
            ang = math.pi * (i / (n - 1))
            x = (rx + 0.004) * math.cos(ang)
            y = cy + (top - cy + 0.004) * math.sin(ang)
            _ellipse(c, x, y, 0.032, 0.032, col)
        for i in range(5):
            x = -a * 0.6 + i * a * 0.3
            _ellipse(c, x, cy + b * 0.62 - 0.004 * ((i % 2) * 2 - 1), 0.03, 0.028, col)
        return
    if h == "buzz":
        colour = _mix(t.skin, col, 0.6)
        p = c.beginPath()
        p.moveTo(-a - 0.004, cy + 0.02)
        _dome(p, a + 0.004, cy, cy + b + 0.006, cy + 0.02)
        p.lineTo(a * 0.92, cy + 0.02)
        p.curveTo(a * 0.9, cy + b * 0.62, a * 0.4, cy + b * 0.66, 0, cy + b * 0.67)
        p.curveTo(-a * 0.4, cy + b * 0.66, -a * 0.9, cy + b * 0.62, -a * 0.92, cy + 0.02)
        p.close()
        _fill(c, p, colour)
        return
    if h == "receding":
        p = c.beginPath()
        p.moveTo(-rx, cy - 0.01)
        _dome(p, rx - 0.006, cy, top - 0.01, cy - 0.01)
        p.lineTo(a * 0.9, cy - 0.01)
        p.curveTo(a * 0.88, cy + b * 0.5, a * 0.7, cy + b * 0.9, a * 0.45, cy + b * 0.78)
        p.curveTo(a * 0.25, cy + b * 0.7, a * 0.1, cy + b * 0.66, 0, cy + b * 0.7)
        p.curveTo(-a * 0.1, cy + b * 0.66, -a * 0.25, cy + b * 0.7, -a * 0.45, cy + b * 0.78)
        p.curveTo(-a * 0.7, cy + b * 0.9, -a * 0.88, cy + b * 0.5, -a * 0.9, cy - 0.01)
        p.close()
        _fill(c, p, col)
        return
    p = c.beginPath()
    if h in ("long", "bob"):
        ys = cy - b * (0.35 if h == "long" else 0.3)
        p.moveTo(-rx - 0.012, ys)
        _dome(p, rx + 0.012, cy, top + 0.004, ys)
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
        _fill(c, p, col)
        return
    ys = cy - 0.01
    taper = 0.03
    hx = rx
    if h == "quiff":
        top += 0.03
    p.moveTo(-hx, ys)
    if h == "quiff":
        p.lineTo(-hx, cy)
        p.curveTo(-hx, cy + b * 0.9, -a * 0.6, top - 0.01, -s * a * 0.1, top)
        p.curveTo(s * a * 0.4, top + 0.01, s * a * 0.9, top - 0.015, s * a * 0.8, top - 0.05)
        p.curveTo(hx * 1.02, cy + b * 0.8, hx, cy + b * 0.4, hx, cy)
        p.lineTo(hx, ys)
    else:
        _dome(p, hx, cy, top, ys)
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
        p.lineTo(a * 0.9, ys + taper)
        p.curveTo(a * 0.88, cy + b * 0.55, a * 0.4, cy + b * 0.6, 0, cy + b * 0.62)
        p.curveTo(-a * 0.4, cy + b * 0.6, -a * 0.88, cy + b * 0.55, -a * 0.9, ys + taper)
    elif h in ("bun", "ponytail"):
        # smooth, pulled back
        p.lineTo(a * 0.9, ys + taper)
        p.curveTo(a * 0.9, cy + b * 0.5, a * 0.5, cy + b * 0.7, 0, cy + b * 0.7)
        p.curveTo(-a * 0.5, cy + b * 0.7, -a * 0.9, cy + b * 0.5, -a * 0.9, ys + taper)
    else:  # short: neat with a slight wave
        p.lineTo(a * 0.9, ys + taper)
        p.curveTo(a * 0.9, cy + b * 0.45, a * 0.7, cy + b * 0.55, a * 0.35, cy + b * 0.55)
        p.curveTo(a * 0.1, cy + b * 0.55, 0, cy + b * 0.62, -a * 0.15, cy + b * 0.6)
        p.curveTo(-a * 0.5, cy + b * 0.56, -a * 0.9, cy + b * 0.5, -a * 0.9, ys + taper)
    p.close()
    _fill(c, p, col)
    sheen = _mix(col, WHITE, 0.2)
    if h == "sidepart":
        px = s * a * 0.45
        p = c.beginPath()
        p.moveTo(px, cy + b * 0.78)
        p.curveTo(px, cy + b * 0.9, px * 0.9, top - 0.02, px * 0.8, top - 0.008)
        _stroke(c, p, _mix(col, BLACK, 0.3), 0.006)
        p = c.beginPath()
        p.moveTo(px * 0.6, top - 0.02)
        p.curveTo(-s * a * 0.1, top - 0.02, -s * a * 0.55, cy + b * 0.85,
                  -s * a * 0.75, cy + b * 0.55)
        _stroke(c, p, sheen, 0.006)
    elif h in ("bun", "ponytail") and not t.cap:
        # comb lines for texture
        p = c.beginPath()
        p.moveTo(-a * 0.5, cy + b * 0.95)
        p.curveTo(-a * 0.2, top - 0.003, a * 0.2, top - 0.003, a * 0.5, cy + b * 0.95)
        _stroke(c, p, sheen, 0.006)
    elif h in ("short", "quiff", "pixie"):
        p = c.beginPath()
        p.moveTo(-s * a * 0.55, top - 0.035)
        p.curveTo(-s * a * 0.25, top - 0.012, s * a * 0.1, top - 0.012, s * a * 0.3, top - 0.025)
        _stroke(c, p, sheen, 0.006)


def _cap(c, t: Traits) -> None:
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
    _fill(c, p, col)
    if t.cap_pattern:
        dot = _mix(col, WHITE, 0.5)
        for i in range(-3, 4):
            for j in range(3):
                x = i * 0.05 + (0.025 if j % 2 else 0)
                y = band_y + 0.05 + j * 0.04
                if abs(x) < a * (0.95 - 0.25 * j):
                    _ellipse(c, x, y, 0.009, 0.009, dot)
    # band
    p = c.beginPath()
    p.moveTo(-rx, band_y - 0.02)
    p.curveTo(-a * 0.5, band_y - 0.005, a * 0.5, band_y - 0.005, rx, band_y - 0.02)
    p.lineTo(rx, band_y + 0.012)
    p.curveTo(a * 0.5, band_y + 0.027, -a * 0.5, band_y + 0.027, -rx, band_y + 0.012)
    p.close()
    _fill(c, p, _mix(col, BLACK, 0.15))
    # tie ends on one side
    s = t.part_side
    for k in (0, 1):
        p = c.beginPath()
        p.moveTo(s * rx, band_y)
        p.curveTo(s * (rx + 0.03), band_y - 0.01 - k * 0.01, s * (rx + 0.04),
                  band_y - 0.04 - k * 0.015, s * (rx + 0.035 + k * 0.02), band_y - 0.06 - k * 0.01)
        _stroke(c, p, _mix(col, BLACK, 0.15), 0.012)


def _head_mirror(c, t: Traits) -> None:
    a, b, cy = t.a, t.b, t.cy
    by = cy + b * 0.62
    band = colors.HexColor("#3B3F46")
    p = c.beginPath()
    p.moveTo(-a - 0.008, by - 0.02)
    p.curveTo(-a * 0.5, by + 0.012, a * 0.5, by + 0.012, a + 0.008, by - 0.02)
    _stroke(c, p, band, 0.018, cap=0)
    s = t.part_side
    mx, my = s * a * 0.32, by + 0.03
    _ellipse(c, mx, my - 0.022, 0.012, 0.014, band)
    _ellipse(c, mx, my, 0.058, 0.058, METAL_DARK)
    _ellipse(c, mx, my, 0.05, 0.05, METAL)
    _ellipse(c, mx - 0.016, my + 0.018, 0.014, 0.009, WHITE)
    _ellipse(c, mx, my, 0.01, 0.01, band)


def _glasses(c, t: Traits) -> None:
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
            _stroke(c, p, col, 0.014, cap=1)
            p = c.beginPath()
            p.moveTo(x - 0.048, ey + 0.016)
            p.curveTo(x - 0.048, ey - 0.035, x + 0.048, ey - 0.035, x + 0.048, ey + 0.016)
            _stroke(c, p, _mix(col, WHITE, 0.35), 0.005)
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
    _stroke(c, p, col, lw)


# ---------------------------------------------------------------------------------------------
# public entry point

def draw_portrait(canvas, x: float, y: float, w: float, h: float, seed: str,
                  accent: str = "#3A6FC4", gender: str | None = None, radius: float = 0,
                  style: str = "any") -> None:
    """Draw a placeholder portrait filling the box (x, y) lower-left, w x h, in PDF points.

    The picture is scaled to the box height and centred horizontally, clipped to the box (a
    rounded rectangle when ``radius`` > 0). Same seed, same drawing; no text, no images.
    """
    if w <= 0 or h <= 0:
        return
    t = portrait_traits(seed, gender, style)
    accent_c = _c(accent)
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
    _hair_back(canvas, t)
    _neck(canvas, t)
    _body(canvas, t, half_w)
    if t.stethoscope:
        _stethoscope(canvas, t)
    if _ears_visible(t) or t.cap:
        _ears(canvas, t)
    _face(canvas, t)
    _features(canvas, t)
    _facial_hair(canvas, t)
    _mouth(canvas, t)
    if t.cap:
        if t.hair in ("long", "bob"):
            _hair_front(canvas, t)
        _cap(canvas, t)
    else:
        _hair_front(canvas, t)
    if t.head_mirror:
        _head_mirror(canvas, t)
    _glasses(canvas, t)
    _earrings(canvas, t)
    canvas.restoreState()
