"""Print-then-cut files: cut.pdf (fronts with the registration marks, each followed by its
backs page for duplex) and, per sheet, the cut paths as SVG and DXF in the page's own frame,
so that the cutter's lines fall on the printed cards' trims.

SVG: millimetres, y downwards from the page's top-left corner, one rounded <rect> per card.
DXF: AutoCAD R12 text, millimetres, y upwards from the lower-left corner, LINEs and ARCs on
layer CUT (Silhouette Studio's Basic Edition opens DXF, not SVG).
"""

from __future__ import annotations

from reportlab.lib.colors import black

from ..layout.cut_sheet import CutSheet
from ..layout.sheet import back_slots
from ..units import MM
from .pdf import Sink, new_canvas, place


def cut_pdf(cards, painter, sheet: CutSheet, duplex: str, meta: dict[str, str]) -> bytes:
    """Fronts pages with the marks, each followed by its backs page (as cards.pdf places
    them for `duplex`, long or short); no crop marks: the machine cuts."""
    plan = sheet.plan
    buffer = Sink()
    canvas = new_canvas(buffer, (plan.page_w * MM, plan.page_h * MM), meta)
    painter.begin(canvas)
    canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge" if duplex == "short"
                               else "DuplexFlipLongEdge")
    backs = back_slots(plan, "short" if duplex == "short" else "long")
    per = len(plan.slots)
    for start in range(0, max(len(cards), 1), per):
        group = cards[start:start + per]
        for slot, item in zip(plan.slots, group):
            place(canvas, painter, item.front, plan, slot)
        canvas.saveState()
        canvas.setFillColor(black)
        for x, y, w, h in sheet.marks:
            canvas.rect(x * MM, y * MM, w * MM, h * MM, stroke=0, fill=1)
        canvas.restoreState()
        canvas.showPage()
        for slot, item in zip(backs, group):
            place(canvas, painter, item.back, plan, slot, shared=True)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def cut_svg(sheet: CutSheet, count: int) -> bytes:
    """The cut paths of the first `count` cards of a sheet."""
    pw, ph = sheet.plan.page_w, sheet.plan.page_h
    r = sheet.radius
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(pw)}mm" height="{_n(ph)}mm" '
             f'viewBox="0 0 {_n(pw)} {_n(ph)}">',
             '<g id="cut" fill="none" stroke="#FF0000" stroke-width="0.1">']
    for x, y, w, h in sheet.cuts[:count]:
        corner = f' rx="{_n(r)}" ry="{_n(r)}"' if r else ""
        lines.append(f'<rect x="{_n(x)}" y="{_n(ph - y - h)}" width="{_n(w)}" '
                     f'height="{_n(h)}"{corner}/>')
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def cut_dxf(sheet: CutSheet, count: int) -> bytes:
    """The same paths as DXF R12: straight edges as LINEs, rounded corners as ARCs."""
    out = ["0", "SECTION", "2", "HEADER", "9", "$ACADVER", "1", "AC1009", "9", "$INSUNITS",
           "70", "4", "0", "ENDSEC", "0", "SECTION", "2", "ENTITIES"]

    def line(x1, y1, x2, y2):
        out.extend(["0", "LINE", "8", "CUT", "10", _n(x1), "20", _n(y1), "30", "0",
                    "11", _n(x2), "21", _n(y2), "31", "0"])

    def arc(cx, cy, start):
        out.extend(["0", "ARC", "8", "CUT", "10", _n(cx), "20", _n(cy), "30", "0",
                    "40", _n(r), "50", str(start), "51", str(start + 90)])
    r = sheet.radius
    for x, y, w, h in sheet.cuts[:count]:
        line(x + r, y, x + w - r, y)
        line(x + w, y + r, x + w, y + h - r)
        line(x + w - r, y + h, x + r, y + h)
        line(x, y + h - r, x, y + r)
        if r:
            arc(x + w - r, y + r, 270)
            arc(x + w - r, y + h - r, 0)
            arc(x + r, y + h - r, 90)
            arc(x + r, y + r, 180)
    out += ["0", "ENDSEC", "0", "EOF", ""]
    return "\n".join(out).encode("ascii")


def cut_files(cards, painter, sheet: CutSheet, duplex: str,
              meta: dict[str, str]) -> dict[str, bytes]:
    """{'cut.pdf', 'cut/sheet-N.svg', 'cut/sheet-N.dxf'}: the cards in sheets of as many as
    the sheet holds."""
    per = len(sheet.plan.slots)
    files = {"cut.pdf": cut_pdf(cards, painter, sheet, duplex, meta)}
    for number, start in enumerate(range(0, max(len(cards), 1), per), start=1):
        count = len(cards[start:start + per])
        files[f"cut/sheet-{number}.svg"] = cut_svg(sheet, count)
        files[f"cut/sheet-{number}.dxf"] = cut_dxf(sheet, count)
    return files
