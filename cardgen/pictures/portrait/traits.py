"""Who a placeholder portrait shows: every trait drawn from the seed, and the palettes.

The same seed gives the same traits in every process: the random generator is seeded with the
SHA-256 of the seed string (Python's salted hash() is never used). head.py, hair.py and draw.py
draw these traits; the colour helpers (mix, luma) and palettes here are theirs too.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.colors import Color

from ...model.card import HAIR_STYLES

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


def to_colour(value) -> Color:
    if isinstance(value, Color):
        return value
    return colors.toColor(value)


def mix(a: Color, b: Color, t: float) -> Color:
    """Linear blend: t = 0 gives a, t = 1 gives b."""
    return Color(a.red + (b.red - a.red) * t,
                 a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)


def luma(c: Color) -> float:
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


def portrait_traits(seed: str, gender: str | None = None, style: str = "any",
                    age: int | None = None, hair: str | None = None) -> Traits:
    """Derive all visual traits of a portrait from its seed (deterministic).

    `age` and `hair` (words, see model/card.py HAIR_WORDS) come from the card: they are applied
    last, with a generator of their own, so a card without them looks as it always did."""
    t = _drawn_traits(seed, gender, style)
    _gender_cues(t, (gender or "")[:1])
    if age is not None:
        _age(t, _rng(f"{seed}|age"), age, gender)
    if hair:
        _hair_words(t, hair.split())
    return t


def _gender_cues(t: Traits, g: str) -> None:
    """In this cartoon style long hair reads as a woman and a hidden or cropped head as a man:
    a card that says who it shows gets hair that agrees (its own `hair` words still win)."""
    if g == "m" and (t.hair in ("long", "bob") or t.cap and t.hair == "afro"):
        t.hair = "sidepart" if not t.cap else "short"
    if g == "f":
        if t.hair in ("short", "sidepart"):
            t.hair = "pixie"
        if t.cap or t.hair not in ("long", "bob", "bun", "ponytail"):
            t.lashes = True
            t.earrings = t.earrings or "hoop"
            t.lips = t.lips or colors.HexColor(LIP_COLOURS[0])


_GREYS = ("grey", "white")
_YOUNG = ("darkbrown", "brown", "black", "chestnut", "blonde")


def _age(t: Traits, rng: random.Random, age: int, gender: str | None) -> None:
    """Grey hair and a receding line come with the years; young people have neither."""
    grey_p = 0.8 if age >= 58 else 0.4 if age >= 48 else 0.0
    if rng.random() < grey_p:
        t.hair_colour = t.beard_colour = colors.HexColor(HAIR_COLOURS[rng.choice(_GREYS)][0])
    if age >= 55 and (gender or "")[:1] == "m" and t.hair in ("short", "sidepart", "quiff") \
            and rng.random() < 0.4:
        t.hair = rng.choice(("receding", "bald"))
    if age < 42:
        c = t.hair_colour
        if max(c.red, c.green, c.blue) - min(c.red, c.green, c.blue) < 0.08 and luma(c) > 0.4:
            t.hair_colour = t.beard_colour = colors.HexColor(
                HAIR_COLOURS[rng.choice(_YOUNG)][0])
        if t.hair in ("bald", "receding"):
            t.hair = "short"


_BEARDS = {"beard": "full", "moustache": "moustache", "goatee": "goatee", "stubble": "stubble",
           "shaven": None}


def _hair_words(t: Traits, words: list[str]) -> None:
    """The card says how the person looks: a hair style, a colour, a beard (or none)."""
    for word in words:
        if word in HAIR_STYLES:
            t.hair = word
        elif word in HAIR_COLOURS:
            t.hair_colour = t.beard_colour = colors.HexColor(HAIR_COLOURS[word][0])
        elif word in _BEARDS:
            t.facial_hair = _BEARDS[word]


def _drawn_traits(seed: str, gender: str | None, style: str) -> Traits:
    """Every trait drawn from the seed alone. The helpers take their turns of one generator in
    this order: a draw added anywhere but at the end would change every later trait."""
    rng = _rng(seed)
    g = (gender or "").lower()[:1] or None
    if g not in ("f", "m"):
        g = None

    skin = colors.HexColor(rng.choice(SKIN_TONES))
    fields = {"skin": skin, **_drawn_face(rng)}
    fields.update(_drawn_hair(rng, g, skin))
    fields.update(_drawn_features(rng, g, skin))
    fields.update(_drawn_extras(rng, g, fields["hair"]))
    under, clothes = _drawn_clothes(rng, g, style)
    fields.update(clothes)
    attire = clothes["attire"]
    fields.update(_drawn_kit(rng, attire, under, clothes["garment"]))
    cap = fields["cap"]
    if cap and fields["hair"] in ("afro", "bun", "ponytail") and rng.random() < 0.5:
        fields["hair"] = "bob" if g == "f" else "short"
    fields["head_mirror"] = attire == "coat" and not cap and rng.random() < 0.14
    fields["badge"] = attire in ("coat", "scrubs") and rng.random() < 0.6
    fields["pens"] = rng.choice((0, 1, 2, 2, 3)) if attire == "coat" else 0
    fields["shoulders"] = rng.uniform(0.40, 0.46) if g != "f" else rng.uniform(0.37, 0.42)
    fields["background"] = _weighted(rng, {"halo": 3, "rays": 1, "stripes": 1, "split": 1})
    return Traits(**fields)


def _drawn_face(rng: random.Random) -> dict:
    """The face's shape, size and place."""
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
    return {"face": face, "a": a, "b": b, "k1": k1, "k2": k2, "cy": 0.555}


def _drawn_hair(rng: random.Random, g: str | None, skin: Color) -> dict:
    """The hair style and its colour (set off from the skin), the beard's colour, the parting."""
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
    if hair == "afro" and luma(hair_colour) > 0.55 and rng.random() < 0.7:
        hair_colour = colors.HexColor(HAIR_COLOURS["black"][0])
    if abs(luma(hair_colour) - luma(skin)) < 0.14:
        hair_colour = mix(hair_colour, BLACK, 0.3 if luma(hair_colour) > 0.5 else 0.55)
    beard_colour = hair_colour
    if hair_name in ("pink", "teal", "violet"):  # dyed hair, natural beard
        beard_colour = colors.HexColor(HAIR_COLOURS["darkbrown"][0])
    hair_volume = rng.uniform(0.018, 0.04)
    part_side = rng.choice((-1, 1))
    return {"hair": hair, "hair_colour": hair_colour, "beard_colour": beard_colour,
            "hair_volume": hair_volume, "part_side": part_side}


def _drawn_features(rng: random.Random, g: str | None, skin: Color) -> dict:
    """Eyes, brows, nose, mouth, lips, blush and freckles."""
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
    blush = rng.random() < (0.55 if luma(skin) > 0.5 else 0.2)
    freckles = luma(skin) > 0.72 and rng.random() < 0.25
    return {"eyes": eyes, "eye_colour": eye_colour, "eye_gap": eye_gap, "eye_size": eye_size,
            "lashes": lashes, "brows": brows, "brow_weight": brow_weight, "nose": nose,
            "mouth": mouth, "mouth_width": mouth_width, "lips": lips, "blush": blush,
            "freckles": freckles}


def _drawn_extras(rng: random.Random, g: str | None, hair: str) -> dict:
    """Glasses, a beard or moustache, earrings."""
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
    return {"glasses": glasses, "frame_colour": frame_colour, "facial_hair": facial_hair,
            "earrings": earrings, "earring_colour": earring_colour}


def _drawn_clothes(rng: random.Random, g: str | None, style: str) -> tuple[str, dict]:
    """(what is worn under a coat, or the attire itself; the attire, its garment's colour, the
    neckline and a tie's colour)."""
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
    return under, {"attire": attire, "garment": garment, "neckline": neckline,
                   "tie_colour": tie_colour}


def _drawn_kit(rng: random.Random, attire: str, under: str, garment: Color) -> dict:
    """The stethoscope and the surgical cap."""
    stethoscope = rng.random() < {"coat": 0.65, "scrubs": 0.45}.get(attire, 0.0)
    tube_colour = colors.HexColor(rng.choice(TUBE_COLOURS))
    cap = attire == "scrubs" and rng.random() < 0.5 or attire == "coat" and under == "scrubs" \
        and rng.random() < 0.15
    cap_colour = garment if rng.random() < 0.6 or under != "scrubs" else \
        colors.HexColor(rng.choice(SCRUB_COLOURS))
    cap_pattern = rng.random() < 0.45
    return {"stethoscope": stethoscope, "tube_colour": tube_colour, "cap": cap,
            "cap_colour": cap_colour, "cap_pattern": cap_pattern}
