"""Where a picture goes in its box: `fit: cover` fills the box and cuts off what sticks out
(from the side away from the `focus`, a point of the picture given as shares of its width and
height from its top-left corner: [0.5, 0.5] keeps the middle, [0, 0.5] the left edge);
`fit: contain` shows all of it, as large as the box allows, the rest of the box left to the
region's fill (placed by the focus as well: [0.5, 0.5] centres it).
"""

from __future__ import annotations

CENTRE = (0.5, 0.5)
CUT_WARN = 0.3  # cover cutting off more than this share of a picture is worth a warning


def placement(box: tuple[float, float, float, float], picture: tuple[float, float],
              fit: str = "cover", focus: tuple[float, float] = CENTRE
              ) -> tuple[float, float, float, float]:
    """(x, y, w, h) of the whole picture for a box (x, y, w, h), y upwards as on a PDF page:
    larger than the box for cover (the box clips it), inside it for contain."""
    x, y, w, h = box
    pw, ph = picture
    if w <= 0 or h <= 0 or pw <= 0 or ph <= 0:
        return box
    scale = (max if fit == "cover" else min)(w / pw, h / ph)
    sw, sh = pw * scale, ph * scale
    fx, fy = focus
    if fit == "cover":
        # the focus point of the picture goes as near the box's matching point as it can
        left = x + w * fx - sw * fx
        top_down = h * fy - sh * fy          # measured from the box's top edge, downwards
        return (min(x, max(x + w - sw, left)), y + h - sh - min(0.0, max(h - sh, top_down)),
                sw, sh)
    return x + (w - sw) * fx, y + (h - sh) * (1 - fy), sw, sh


def cut_share(box: tuple[float, float], picture: tuple[float, float]) -> float:
    """The share of the picture's area a cover fit cuts off (0 when the shapes agree)."""
    (w, h), (pw, ph) = box, picture
    if min(w, h, pw, ph) <= 0:
        return 0.0
    ratio = (w / h) / (pw / ph)
    return 1 - min(ratio, 1 / ratio)
