"""Court figures of a French deck: King, Queen and Jack, half-length, drawn as vectors with the
portraits' heads (a layout's `portrait_style: court`, `portrait_role: king|queen|jack`).

What makes them court cards: robes in the deck's traditional colours (red, blue, gold, black
on white), a headgear per role (crown, a queen's crown and veil, the jack's feathered cap), the
attribute in hand (sceptre, flower, halberd), and the figure drawn twice, the lower one turned
a half turn (the region's `double_ended`), so the card reads the same from both ends.

Coordinates are the portraits' unit space (draw.py): x from about -0.5 to 0.5 around the
centre, y from 0 (the cut through the figure, at the card's middle) to 1, scaled to the height.
The suit colour (the region's `colour`) trims the robe, so the four kings are not identical.
"""

from __future__ import annotations

import math

from reportlab.lib import colors
from reportlab.lib.colors import Color

from .hair import draw_facial_hair, draw_hair_back, draw_hair_front
from .head import draw_earrings, draw_ears, draw_face, draw_features, draw_mouth
from .shapes import ellipse, fill, stroke
from .traits import BLACK, WHITE, Traits, mix, portrait_traits, to_colour

GOLD = colors.HexColor("#E3B23C")
GOLD_DARK = colors.HexColor("#A87B16")
RED = colors.HexColor("#C8102E")
BLUE = colors.HexColor("#1F4FA3")
INK = colors.HexColor("#1B1B1F")
ERMINE = colors.HexColor("#FBFBF7")

ROLES = ("king", "queen", "jack")
# what each role wears: robe, its lining, the trim (None: the suit colour), hair and beard
_DRESS = {
    "king": (RED, BLUE, None, "m", "curly", "full"),
    "queen": (BLUE, RED, None, "f", "long", None),
    "jack": (GOLD, RED, None, "m", "short", "moustache"),
}


def court_traits(seed: str, role: str) -> Traits:
    """The face under the crown: the portraits' traits, dressed for the role (no glasses,
    no cap, no stethoscope; the king bearded, the queen with long hair)."""
    _, _, _, gender, hair, beard = _DRESS[role]
    t = portrait_traits(f"court|{seed}", gender, "casual")
    t.hair, t.facial_hair = hair, beard
    t.glasses, t.cap, t.head_mirror, t.stethoscope, t.badge = None, False, False, False, False
    t.earrings = "drop" if role == "queen" else None
    t.earring_colour = GOLD
    t.mouth = "smile"
    t.cy = 0.6
    return t


def draw_court_half(c, role: str, seed: str, accent: Color, half_w: float) -> None:
    """One half of a court card in the unit space: robe, attribute, head, headgear."""
    role = role if role in ROLES else "king"
    robe, lining, _, _, _, _ = _DRESS[role]
    trim = accent
    t = court_traits(seed, role)
    t.garment = robe
    _attribute_back(c, role, trim)
    draw_hair_back(c, t)
    _robe(c, t, robe, lining, trim, role)
    draw_ears(c, t)
    draw_face(c, t)
    draw_features(c, t)
    draw_facial_hair(c, t)
    draw_mouth(c, t)
    draw_hair_front(c, t)
    draw_earrings(c, t)
    _headgear(c, t, role, trim)
    _hand_and_attribute(c, t, role, trim)


def _robe(c, t: Traits, robe: Color, lining: Color, trim: Color, role: str) -> None:
    """Shoulders and chest: a robe with a lining band, an ermine or lace collar, a chain."""
    top = 0.33
    w = 0.46 if role != "queen" else 0.42
    p = c.beginPath()
    p.moveTo(-w - 0.06, -0.02)
    p.lineTo(-w, 0.14)
    p.curveTo(-w + 0.01, top - 0.05, -0.24, top + 0.01, -0.1, top + 0.01)
    p.lineTo(0.1, top + 0.01)
    p.curveTo(0.24, top + 0.01, w - 0.01, top - 0.05, w, 0.14)
    p.lineTo(w + 0.06, -0.02)
    p.close()
    fill(c, p, robe)
    # the lining down the front, edged in the suit's colour
    p = c.beginPath()
    p.moveTo(-0.11, top)
    p.lineTo(0.11, top)
    p.lineTo(0.07, -0.02)
    p.lineTo(-0.07, -0.02)
    p.close()
    fill(c, p, lining)
    for side in (-1, 1):
        p = c.beginPath()
        p.moveTo(side * 0.11, top)
        p.lineTo(side * 0.07, -0.02)
        stroke(c, p, trim, 0.022)
        # folds of the sleeve
        p = c.beginPath()
        p.moveTo(side * (w - 0.08), 0.2)
        p.curveTo(side * (w - 0.1), 0.12, side * (w - 0.06), 0.06, side * (w - 0.04), -0.02)
        stroke(c, p, mix(robe, BLACK, 0.3), 0.008)
    # a pattern of small suit-coloured dots on the lining
    for row, y in enumerate((0.25, 0.17, 0.09, 0.02)):
        ellipse(c, 0.0, y, 0.014, 0.014, trim if row % 2 else GOLD)
    # neck
    nw = t.a * 0.45
    p = c.beginPath()
    p.moveTo(-nw, top + 0.02)
    p.lineTo(-nw, t.cy - t.b * 0.4)
    p.lineTo(nw, t.cy - t.b * 0.4)
    p.lineTo(nw, top + 0.02)
    p.close()
    fill(c, p, t.skin)
    if role == "queen":  # a lace collar
        for k in range(-3, 4):
            ellipse(c, k * 0.045, top + 0.005 - abs(k) * 0.008, 0.032, 0.026, WHITE)
            ellipse(c, k * 0.045, top + 0.005 - abs(k) * 0.008, 0.014, 0.011,
                    mix(lining, WHITE, 0.6))
        _necklace(c, top + 0.045, nw)
    else:  # an ermine collar with black tails
        p = c.beginPath()
        p.moveTo(-0.25, top - 0.02)
        p.curveTo(-0.18, top + 0.04, 0.18, top + 0.04, 0.25, top - 0.02)
        p.curveTo(0.16, top - 0.07, -0.16, top - 0.07, -0.25, top - 0.02)
        p.close()
        fill(c, p, ERMINE)
        for x in (-0.17, -0.085, 0.0, 0.085, 0.17):
            ellipse(c, x, top - 0.02 + (0.012 if x == 0 else 0.0), 0.008, 0.014, INK)
        if role == "king":  # a chain of office
            p = c.beginPath()
            p.moveTo(-0.16, top - 0.04)
            p.curveTo(-0.1, top - 0.14, 0.1, top - 0.14, 0.16, top - 0.04)
            stroke(c, p, GOLD, 0.014)
            ellipse(c, 0, top - 0.125, 0.026, 0.026, GOLD)
            ellipse(c, 0, top - 0.125, 0.013, 0.013, trim)


def _necklace(c, y: float, nw: float) -> None:
    p = c.beginPath()
    p.moveTo(-nw - 0.01, y + 0.01)
    p.curveTo(-nw * 0.5, y - 0.03, nw * 0.5, y - 0.03, nw + 0.01, y + 0.01)
    stroke(c, p, GOLD, 0.008)
    ellipse(c, 0, y - 0.022, 0.012, 0.014, GOLD)


def _headgear(c, t: Traits, role: str, trim: Color) -> None:
    top = t.cy + t.b + t.hair_volume
    if role == "jack":
        _cap(c, t, top, trim)
    else:
        _crown(c, t, top, trim, tall=role == "king")


def _crown(c, t: Traits, top: float, trim: Color, tall: bool) -> None:
    """A gold crown on the head: a band with jewels, points with pearls."""
    w = t.a + (0.03 if tall else 0.005)
    base = top - 0.035
    band = 0.045
    high = 0.11 if tall else 0.075
    points = 5 if tall else 3
    p = c.beginPath()
    p.moveTo(-w, base)
    p.lineTo(-w, base + band)
    for k in range(points):
        x0 = -w + 2 * w * k / points
        x1 = -w + 2 * w * (k + 1) / points
        p.lineTo((x0 + x1) / 2, base + band + high)
        p.lineTo(x1, base + band)
    p.lineTo(w, base)
    p.close()
    c.setFillColor(GOLD)
    c.setStrokeColor(GOLD_DARK)
    c.setLineWidth(0.006)
    c.setLineJoin(1)
    c.drawPath(p, stroke=1, fill=1)
    for k in range(points):
        x = -w + 2 * w * (k + 0.5) / points
        ellipse(c, x, base + band + high + 0.012, 0.016, 0.016, WHITE)
    for k, x in enumerate((-w * 0.6, 0.0, w * 0.6)):
        ellipse(c, x, base + band / 2, 0.02 if k == 1 else 0.014, 0.016,
                trim if k == 1 else mix(RED if trim != RED else BLUE, WHITE, 0.1))
    if not tall:  # the queen's veil falls behind the crown to the shoulders
        p = c.beginPath()
        p.moveTo(-w, base + 0.01)
        p.curveTo(-w - 0.08, base - 0.05, -w - 0.07, t.cy - 0.25, -w - 0.02, 0.36)
        p.lineTo(-w + 0.03, 0.36)
        p.curveTo(-w - 0.02, t.cy - 0.2, -w - 0.02, base - 0.04, -w + 0.02, base + 0.005)
        p.close()
        fill(c, p, mix(WHITE, BLUE, 0.08))


def _cap(c, t: Traits, top: float, trim: Color) -> None:
    """The jack's beret in the suit's colour, a gold band and a long feather."""
    w = t.a + 0.05
    base = top - 0.045
    p = c.beginPath()
    p.moveTo(-w, base)
    p.curveTo(-w - 0.02, base + 0.09, w * 0.4, base + 0.13, w + 0.04, base + 0.05)
    p.curveTo(w + 0.02, base + 0.01, w, base - 0.005, w - 0.02, base - 0.01)
    p.close()
    fill(c, p, trim)
    p = c.beginPath()
    p.moveTo(-w + 0.01, base + 0.005)
    p.lineTo(w - 0.02, base - 0.005)
    stroke(c, p, GOLD, 0.02)
    # the feather sweeps back over the cap
    p = c.beginPath()
    p.moveTo(w * 0.3, base + 0.08)
    p.curveTo(w * 0.1, base + 0.2, -w * 0.5, base + 0.22, -w - 0.06, base + 0.12)
    p.curveTo(-w * 0.4, base + 0.16, w * 0.05, base + 0.14, w * 0.3, base + 0.08)
    p.close()
    fill(c, p, mix(GOLD, WHITE, 0.45))
    p = c.beginPath()
    p.moveTo(w * 0.3, base + 0.08)
    p.curveTo(w * 0.0, base + 0.17, -w * 0.5, base + 0.18, -w - 0.05, base + 0.125)
    stroke(c, p, mix(trim, BLACK, 0.2), 0.005)


def _attribute_back(c, role: str, trim: Color) -> None:
    """The part of the attribute behind the figure: the jack's halberd, held at his right."""
    if role != "jack":
        return
    x = 0.33
    p = c.beginPath()
    p.moveTo(x, -0.02)
    p.lineTo(x, 0.93)
    stroke(c, p, colors.HexColor("#7A4E24"), 0.022, cap=0)
    steel = colors.HexColor("#C9CED6")
    p = c.beginPath()  # the axe blade
    p.moveTo(x, 0.86)
    p.curveTo(x + 0.1, 0.88, x + 0.14, 0.78, x + 0.12, 0.72)
    p.lineTo(x, 0.76)
    p.close()
    c.setFillColor(steel)
    c.setStrokeColor(INK)
    c.setLineWidth(0.005)
    c.drawPath(p, stroke=1, fill=1)
    p = c.beginPath()  # the spike
    p.moveTo(x - 0.015, 0.92)
    p.lineTo(x, 0.99)
    p.lineTo(x + 0.015, 0.92)
    p.close()
    fill(c, p, steel)
    ellipse(c, x, 0.7, 0.02, 0.012, trim)  # a tassel in the suit's colour


def _hand_and_attribute(c, t: Traits, role: str, trim: Color) -> None:
    """A hand at the chest holding the role's attribute: sceptre, flower or halberd."""
    skin = t.skin
    if role == "king":
        x = 0.27
        p = c.beginPath()
        p.moveTo(x, 0.02)
        p.lineTo(x + 0.05, 0.78)
        stroke(c, p, GOLD, 0.02, cap=0)
        ellipse(c, x + 0.052, 0.8, 0.036, 0.036, GOLD)
        ellipse(c, x + 0.052, 0.8, 0.016, 0.016, trim)
        p = c.beginPath()  # the cross on the orb
        p.moveTo(x + 0.052, 0.835)
        p.lineTo(x + 0.052, 0.88)
        p.moveTo(x + 0.03, 0.862)
        p.lineTo(x + 0.074, 0.862)
        stroke(c, p, GOLD, 0.01)
        ellipse(c, x + 0.012, 0.2, 0.045, 0.04, skin)
    elif role == "queen":
        x = 0.2
        p = c.beginPath()
        p.moveTo(x - 0.02, 0.16)
        p.curveTo(x + 0.02, 0.3, x + 0.08, 0.4, x + 0.09, 0.52)
        stroke(c, p, colors.HexColor("#2E7D32"), 0.012)
        ellipse(c, x + 0.04, 0.36, 0.03, 0.014, colors.HexColor("#43A047"))
        for k in range(6):  # petals
            a = k * math.pi / 3
            ellipse(c, x + 0.09 + 0.03 * math.cos(a), 0.54 + 0.03 * math.sin(a), 0.022, 0.022,
                    mix(RED, WHITE, 0.25))
        ellipse(c, x + 0.09, 0.54, 0.018, 0.018, GOLD)
        ellipse(c, x - 0.02, 0.16, 0.045, 0.04, skin)
    else:
        ellipse(c, 0.33, 0.2, 0.045, 0.04, skin)


def draw_court(canvas, x: float, y: float, w: float, h: float, seed: str, role: str,
               accent: str = "#C4122F", radius: float = 0, double: bool = True) -> None:
    """A court figure filling the box (x, y lower-left, w x h points): with `double`, the
    upper half holds the figure and the lower half the same figure turned a half turn, a rule
    in the suit's colour between them."""
    accent_c = to_colour(accent)
    canvas.saveState()
    clip = canvas.beginPath()
    if radius > 0:
        clip.roundRect(x, y, w, h, min(radius, w / 2, h / 2))
    else:
        clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    halves = ((0, False), (1, True)) if double else ((0, False),)
    half_h = h / 2 if double else h
    for _, turned in halves:
        canvas.saveState()
        if turned:  # the lower half: the same drawing turned about the box's centre
            canvas.translate(x + w / 2, y + h / 2)
            canvas.rotate(180)
            canvas.translate(-(x + w / 2), -(y + h / 2))
        box = canvas.beginPath()
        box.rect(x, y + h - half_h, w, half_h)
        canvas.clipPath(box, stroke=0, fill=0)
        canvas.translate(x + w / 2, y + h - half_h)
        canvas.scale(half_h, half_h)
        draw_court_half(canvas, role, seed, accent_c, w / (2.0 * half_h))
        canvas.restoreState()
    if double:
        canvas.setStrokeColor(accent_c)
        canvas.setLineWidth(max(0.6, h * 0.004))
        canvas.line(x, y + h / 2, x + w, y + h / 2)
    canvas.restoreState()
