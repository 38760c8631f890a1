"""Colours as players with a colour-vision deficiency see them, and how far apart two colours
look: the two measures the look-alike check of group colours (groups.py) needs, in plain
Python.

Where the numbers come from:
- the simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
  Simulation of Color Vision Deficiency", IEEE TVCG 15(6), doi:10.1109/TVCG.2009.113; their
  published matrices for severity 1.0 (protanopia, deuteranopia, tritanopia), applied to
  linear sRGB (sRGB -> linear, matrix, -> sRGB, then clipped to 0..1);
- sRGB: IEC 61966-2-1:1999, its transfer curve and its XYZ -> linear sRGB matrix (the other
  direction is that matrix's inverse), D65 white X=95.047 Y=100 Z=108.883;
- how far apart: CIECAM02 (CIE 159:2004; Moroney et al. 2002, "The CIECAM02 color appearance
  model") under sRGB's viewing conditions (D65 white, background Y_b=20, adapting luminance
  L_A = 64 lx / pi / 5, average surround), and the Euclidean distance in CAM02-UCS (Luo, Cui &
  Li 2006, "Uniform colour spaces based on CIECAM02 colour appearance model": J' = 1.7 J /
  (1 + 0.007 J), M' = ln(1 + 0.0228 M) / 0.0228, a' = M' cos h, b' = M' sin h), where about 1
  is the smallest difference an eye sees side by side.

These are the conventions and constants of colorspacious (cspace_convert with "sRGB1+CVD" at
severity 100, deltaE with input_space="sRGB1"), and the results agree with it to 1e-9
(tests/validate/test_cvd.py compares the two). cardgen has its own because colorspacious
imports numpy: about 0.15 s of every cold `cardgen build` or `check` for a few dozen colours.
"""

from __future__ import annotations

import math

Vector = tuple[float, float, float]
Matrix = tuple[Vector, Vector, Vector]

# Machado et al. 2009, severity 1.0, for linear RGB; keyed by colorspacious's names (its
# "...anomaly" at severity 100 is the "...anopia" of the paper)
MACHADO_2009: dict[str, Matrix] = {
    "protanomaly": ((0.152286, 1.052583, -0.204868),
                    (0.114503, 0.786281, 0.099216),
                    (-0.003882, -0.048116, 1.051998)),
    "deuteranomaly": ((0.367322, 0.860646, -0.227968),
                      (0.280085, 0.672501, 0.047413),
                      (-0.011820, 0.042940, 0.968881)),
    "tritanomaly": ((1.255528, -0.076749, -0.178779),
                    (-0.078411, 0.930809, 0.147602),
                    (0.004733, 0.691367, 0.303900)),
}


def _apply(m: Matrix, v: Vector) -> Vector:
    return (m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
            m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2])


def _product(a: Matrix, b: Matrix) -> Matrix:
    columns = [_apply(a, (b[0][j], b[1][j], b[2][j])) for j in range(3)]
    return tuple(tuple(columns[j][i] for j in range(3)) for i in range(3))  # type: ignore


def _inverse(m: Matrix) -> Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    cofactors = ((e * i - f * h, c * h - b * i, b * f - c * e),
                 (f * g - d * i, a * i - c * g, c * d - a * f),
                 (d * h - e * g, b * g - a * h, a * e - b * d))
    det = a * cofactors[0][0] + b * cofactors[1][0] + c * cofactors[2][0]
    return tuple(tuple(x / det for x in row) for row in cofactors)  # type: ignore


# ---- sRGB (IEC 61966-2-1:1999) ------------------------------------------------------------

XYZ1_TO_LINEAR: Matrix = ((3.2406, -1.5372, -0.4986),
                            (-0.9689, 1.8758, 0.0415),
                            (0.0557, -0.2040, 1.0570))
LINEAR_TO_XYZ1: Matrix = _inverse(XYZ1_TO_LINEAR)
D65: Vector = (95.047, 100.0, 108.883)


def _to_linear(c: float) -> float:
    return c / 12.92 if c < 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_encoded(c: float) -> float:
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def srgb1(hex_colour: str) -> Vector:
    """'#RRGGBB' as sRGB on the 0..1 scale."""
    return tuple(int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore


def simulated(hex_colour: str, cvd_type: str) -> Vector:
    """The colour as a player with the full deficiency sees it (cvd_type: "protanomaly",
    "deuteranomaly" or "tritanomaly", at full strength), sRGB clipped to 0..1."""
    linear = _apply(MACHADO_2009[cvd_type], tuple(map(_to_linear, srgb1(hex_colour))))
    return tuple(min(max(_to_encoded(c), 0.0), 1.0) for c in linear)  # type: ignore


# ---- CIECAM02 under sRGB's viewing conditions ---------------------------------------------

M_CAT02: Matrix = ((0.7328, 0.4296, -0.1624),
                   (-0.7036, 1.6975, 0.0061),
                   (0.0030, 0.0136, 0.9834))
M_HPE: Matrix = ((0.38971, 0.68898, -0.07868),
                 (-0.22981, 1.18340, 0.04641),
                 (0.00000, 0.00000, 1.00000))
_HPE_FROM_CAT02 = _product(M_HPE, _inverse(M_CAT02))

Y_B = 20.0                   # background: 20 % grey
L_A = (64 / math.pi) / 5     # 64 lx, a grey world: cd/m² = lx / pi, adapting field a fifth
F, C, N_C = 1.0, 0.69, 1.0   # average surround

_RGB_W = _apply(M_CAT02, D65)
_D = min(max(F * (1 - (1 / 3.6) * math.exp((-L_A - 42) / 92)), 0.0), 1.0)
_D_RGB = tuple(_D * D65[1] / c + 1 - _D for c in _RGB_W)
_K = 1 / (5 * L_A + 1)
F_L = 0.2 * _K ** 4 * (5 * L_A) + 0.1 * (1 - _K ** 4) ** 2 * (5 * L_A) ** (1 / 3)
_N = Y_B / D65[1]
_Z = 1.48 + math.sqrt(_N)
N_BB = N_CB = 0.725 * (1 / _N) ** 0.2


def _compressed(c: float) -> float:
    """The post-adaptation response to one cone signal (step 4)."""
    sign = (c > 0) - (c < 0)
    t = (F_L * sign * c / 100) ** 0.42
    return sign * 400 * (t / (t + 27.13)) + 0.1


def _achromatic(r: float, g: float, b: float) -> float:
    return (2 * r + g + b / 20 - 0.305) * N_BB


_A_W = _achromatic(*(_compressed(c) for c in
                     _apply(_HPE_FROM_CAT02, tuple(d * c for d, c in zip(_D_RGB, _RGB_W)))))


def ciecam02_jmh(xyz100: Vector) -> Vector:
    """CIECAM02 lightness J, colourfulness M and hue angle h (degrees) of a colour given as
    XYZ on the 0..100 scale."""
    cat = _apply(M_CAT02, xyz100)
    r, g, b = (_compressed(c) for c in
               _apply(_HPE_FROM_CAT02, tuple(d * c for d, c in zip(_D_RGB, cat))))
    a_ = r - 12 * g / 11 + b / 11
    b_ = (r + g - 2 * b) / 9
    h_rad = math.atan2(b_, a_)
    achromatic = _achromatic(r, g, b)
    if achromatic < 0:
        raise ValueError(f"{xyz100}: negative achromatic signal, no CIECAM02 lightness")
    j = 100 * (achromatic / _A_W) ** (C * _Z)
    e = (12500 / 13) * N_C * N_CB * (math.cos(h_rad + 2) + 3.8)
    t = e * math.hypot(a_, b_) / (r + g + 21 * b / 20)
    chroma = t ** 0.9 * (j / 100) ** 0.5 * (1.64 - 0.29 ** _N) ** 0.73
    return j, chroma * F_L ** 0.25, math.degrees(h_rad) % 360


# ---- CAM02-UCS (Luo, Cui & Li 2006) -------------------------------------------------------

def cam02_ucs(rgb: Vector) -> Vector:
    """J'a'b' in CAM02-UCS of an sRGB colour on the 0..1 scale."""
    xyz100 = tuple(100 * c for c in _apply(LINEAR_TO_XYZ1, tuple(map(_to_linear, rgb))))
    j, m, h = ciecam02_jmh(xyz100)  # type: ignore[arg-type]
    j_ = 1.7 * j / (1 + 0.007 * j)
    m_ = math.log(1 + 0.0228 * m) / 0.0228
    h_rad = math.radians(h)
    return j_, m_ * math.cos(h_rad), m_ * math.sin(h_rad)


def distance(rgb_a: Vector, rgb_b: Vector) -> float:
    """How far apart two sRGB colours (0..1) look: ΔE in CAM02-UCS."""
    return math.dist(cam02_ucs(rgb_a), cam02_ucs(rgb_b))
