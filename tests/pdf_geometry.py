"""Reading printed geometry back from our PDFs (for the tests of sheets, backs and marks):
where each card face lies and how it is turned, which lines are drawn outside the faces (crop
marks, the scale bar), and where a text's characters are."""

from __future__ import annotations

import io
import math

import pikepdf

PT = 72 / 25.4


def _mul(m, n):
    """PDF matrix product: apply m, then n; matrices as (a, b, c, d, e, f)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def _apply(m, x, y):
    return ((m[0] * x + m[2] * y + m[4]) / PT, (m[1] * x + m[3] * y + m[5]) / PT)


def read_page(pdf: pikepdf.Pdf, index: int, card: tuple[float, float],
              bleed: float) -> tuple[list[dict], list[tuple]]:
    """(faces, lines) of one page.

    faces: every card face drawn on the page, as {"rect": (left, bottom, right, top) mm of its
    printed area, "centre": (x, y) mm, "turn": degrees counter-clockwise, "shared": a form (a
    deck's back) or drawn in place (a front)}. A face drawn in place begins with its clip
    rectangle (its trim, `card` mm, plus the bleed printed: `bleed`, or none where cards
    abut); a shared face is a form XObject whose BBox is that rectangle. In its own frame a
    face is upright: w x h as printed.
    lines: every straight line drawn outside the faces, (x1, y1, x2, y2) mm.
    """
    sizes = {(round(card[0] + 2 * b, 2), round(card[1] + 2 * b, 2)) for b in (bleed, 0)}
    page = pdf.pages[index]
    xobjects = page.Resources.get("/XObject", {})
    ops = pikepdf.parse_content_stream(page)
    ctm, stack, faces, lines = (1, 0, 0, 1, 0, 0), [], [], []
    inside = None  # the stack depth at which the face being drawn began
    start = None

    def add(x, y, w, h, shared):
        if (round(w / PT, 2), round(h / PT, 2)) not in sizes:
            return False
        a, b, c, d = ctm[:4]
        assert math.isclose(a, d, abs_tol=1e-3) and math.isclose(b, -c, abs_tol=1e-3), ctm
        corners = [_apply(ctm, px, py) for px, py in ((x, y), (x + w, y), (x, y + h),
                                                       (x + w, y + h))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        faces.append({"rect": (min(xs), min(ys), max(xs), max(ys)),
                      "centre": _apply(ctm, x + w / 2, y + h / 2),
                      "turn": round(math.degrees(math.atan2(b, a))) % 360, "shared": shared})
        return True

    for position, (operands, operator) in enumerate(ops):
        op = str(operator)
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
            if inside is not None and len(stack) < inside:
                inside = None
        elif op == "cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif inside is not None:
            continue
        elif op == "re" and position + 1 < len(ops) and str(ops[position + 1][1]) in ("W", "W*"):
            if add(*(float(v) for v in operands), shared=False):
                inside = len(stack)
        elif op == "Do":
            form = xobjects[str(operands[0])]
            x0, y0, x1, y1 = (float(v) for v in form.BBox)
            add(x0, y0, x1 - x0, y1 - y0, shared=True)
        elif op == "m":
            start = _apply(ctm, *(float(v) for v in operands))
        elif op == "l" and start is not None:
            end = _apply(ctm, *(float(v) for v in operands))
            lines.append((*start, *end))
            start = end
    return faces, lines


def open_pdf(data: bytes) -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(data))


def text_boxes(pdf: bytes, index: int, text: str) -> list[tuple[float, float, float, float]]:
    """(left, bottom, right, top) mm of each character of the LAST occurrence of `text` on
    the page, read by pdfium (a face's text comes before the page's own footer)."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(pdf)
    try:
        textpage = document[index].get_textpage()
        searcher = textpage.search(text, match_case=True)
        found, last = searcher.get_next(), None
        while found:
            last, found = found, searcher.get_next()
        assert last is not None, f"{text!r} is not on page {index + 1}"
        boxes = []
        for i in range(last[0], last[0] + last[1]):
            if textpage.get_text_range(i, 1).isspace():
                continue
            left, bottom, right, top = textpage.get_charbox(i)
            boxes.append((left / PT, bottom / PT, right / PT, top / PT))
        return boxes
    finally:
        document.close()


def meets(a, b) -> bool:
    """Two boxes (left, bottom, right, top) -- or a line (x1, y1, x2, y2) and a box -- meet:
    they share a point (touching counts, within 0.001 mm (the PDF's own rounding))."""
    ax1, ax2 = sorted((a[0], a[2]))
    ay1, ay2 = sorted((a[1], a[3]))
    return ax1 <= b[2] + 1e-3 and ax2 >= b[0] - 1e-3 and ay1 <= b[3] + 1e-3 and \
        ay2 >= b[1] - 1e-3


def within(a, box) -> bool:
    """A box or line lies inside `box` (left, bottom, right, top), within 0.001 mm (the PDF's own rounding)."""
    ax1, ax2 = sorted((a[0], a[2]))
    ay1, ay2 = sorted((a[1], a[3]))
    return ax1 >= box[0] - 1e-3 and ax2 <= box[2] + 1e-3 and ay1 >= box[1] - 1e-3 and \
        ay2 <= box[3] + 1e-3
