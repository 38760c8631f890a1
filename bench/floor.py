"""The floor: a pack's cards.pdf drawn with bare reportlab calls, as fast as we can.

Same sheets as cardgen's cards.pdf — same texts at the same positions, the same portraits
(cardgen.pictures.portrait.draw.draw_portrait, the pack has no photos), crop marks, footers, duplex
backs, the same number of pages. Everything cardgen decides (text fitting, wrapping, positions,
colours) is computed OUTSIDE the timed region by running cardgen's layout once; the timed region
is only: register the fonts, create the canvas, replay precomputed canvas calls, save.

    python bench/floor.py [--pack crazy-hospital] [--out floor.pdf] [--check]

Prints one JSON line: fonts_s, draw_s, save_s, total_s (timed; cpu_s: its CPU time), pages,
bytes, rl_accel_c. --data DIR: the packs of another folder (bench/deck.py's picture deck).
--check also builds cardgen's cards.pdf in this process and compares both page by page (pixels).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path

from reportlab import rl_config
from reportlab.lib import rl_accel
from reportlab.lib.colors import HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen.pictures.portrait.draw import draw_portrait

MM = 72 / 25.4
DATA = Path(__file__).resolve().parent.parent / "card_data"


# --- untimed: turn cardgen's layout into a flat list of canvas calls per page -------------------

class Page:
    """Canvas calls of one page; colour, width and font setters only when they change."""

    def __init__(self):
        self.ops: list[tuple[str, tuple]] = []
        self.reset()

    def reset(self):  # after restoreState the tracked state is unknown again
        self.fill = self.stroke = self.width = self.font = None

    def add(self, name: str, *args) -> None:
        self.ops.append((name, args))

    def fill_colour(self, hex_colour: str) -> None:
        rgb = HexColor(hex_colour).rgb()
        if rgb != self.fill:
            self.add("setFillColorRGB", *rgb)
            self.fill = rgb

    def stroke_colour(self, hex_colour: str, width: float) -> None:
        rgb = HexColor(hex_colour).rgb()
        if rgb != self.stroke:
            self.add("setStrokeColorRGB", *rgb)
            self.stroke = rgb
        if width != self.width:
            self.add("setLineWidth", width)
            self.width = width

    def text(self, font: str, size: float, x: float, y: float, text: str) -> None:
        if (font, size) != self.font:
            self.add("setFont", "FL" + font[2:], size)  # our own registration of the same TTF
            self.font = (font, size)
        self.add("drawString", x, y, text)

    def runs(self, runs, size: float, x: float, y: float) -> None:
        """Styled runs of one line; same-font neighbours merged (reportlab does not kern)."""
        merged: list[list] = []
        for font, piece in runs:
            if merged and merged[-1][0] == font:
                merged[-1][1] += piece
            else:
                merged.append([font, piece])
        for font, piece in merged:
            if piece.strip():
                self.text(font, size, x, y, piece)
            x += pdfmetrics.stringWidth(piece, font, size)


def face_ops(page: Page, face, ox: float, oy: float, card_w: float, card_h: float,
             bleed: float, icons: dict) -> None:
    """What cardgen.render.card.CardPainter.draw does, as precomputed calls."""
    from cardgen.text.stats import label_text, value_pieces
    from cardgen.text.fonts import face_name
    b = bleed * MM
    page.add("saveState")
    page.add("clip", ox - b, oy - b, card_w * MM + 2 * b, card_h * MM + 2 * b)
    for box in face.boxes:
        r = box.region
        x, y, w, h = ox + r.x * MM, oy + (card_h - r.y - r.h) * MM, r.w * MM, r.h * MM
        local = r.opacity < 1 or bool(r.rotate)
        if local:
            page.add("saveState")
            if r.opacity < 1:
                page.add("setFillAlpha", r.opacity)
                page.add("setStrokeAlpha", r.opacity)
        if r.type == "line":
            if box.stroke and box.stroke != "none":
                page.stroke_colour(box.stroke, r.stroke_width)
                page.add("line", x, y + h, x + w, y)
        else:
            fill, stroke = box.fill not in (None, "none"), box.stroke not in (None, "none")
            if fill:
                page.fill_colour(box.fill)
            if stroke:
                page.stroke_colour(box.stroke, r.stroke_width)
            if (fill or stroke) and r.radius:
                page.add("roundRect", x, y, w, h, r.radius * MM, int(stroke), int(fill))
            elif fill or stroke:
                page.add("rect", x, y, w, h, int(stroke), int(fill))
            if box.image:  # a picture file: scaled once to 300 dpi in the timed region
                page.add("picture", box.image, x, y, w, h, r.radius * MM)
                page.reset()
            elif r.type == "portrait":
                page.add("portrait", x, y, w, h, box.portrait_seed,
                         box.fill if fill else "#88AACC", r.radius * MM, r.portrait_style,
                         box.portrait_gender)
                page.reset()
            elif r.type in ("text", "icon") and box.text is not None:
                fitted = box.text
                page.fill_colour(box.colour)
                total = fitted.size + fitted.leading * (len(fitted.lines) - 1)
                top = {"top": y + h, "middle": y + h - (h - total) / 2}.get(r.valign, y + total)
                baseline = top - fitted.size * 0.8
                if r.rotate:
                    page.add("translate", x + w / 2, y + h / 2)
                    page.add("rotate", r.rotate)
                    page.add("translate", -(x + w / 2), -(y + h / 2))
                for line in fitted.lines:
                    cx = {"center": x + (w - line.width) / 2,
                          "right": x + w - line.width}.get(r.align, x)
                    page.runs(line.runs, fitted.size, cx, baseline)
                    baseline -= fitted.leading
            elif r.type == "stats" and box.stats and box.stats_size > 0:
                size, row_h = box.stats_size, h / len(box.stats)
                regular, bold = face_name(r.font), face_name(r.font, bold=True)
                for index, row in enumerate(box.stats):
                    top = y + h - index * row_h
                    baseline = top - row_h / 2 - size * 0.35
                    page.fill_colour(box.colour)
                    page.text(regular, size, x, baseline, label_text(row, icons))
                    pieces = [(t, bold if is_bold else regular, size if is_bold else size * 0.8)
                              for t, is_bold in value_pieces(row, icons)]
                    cx = x + w - sum(pdfmetrics.stringWidth(*p) for p in pieces)
                    for piece, font, piece_size in pieces:
                        page.text(font, piece_size, cx, baseline, piece)
                        cx += pdfmetrics.stringWidth(piece, font, piece_size)
                    if index < len(box.stats) - 1:
                        page.stroke_colour(box.stroke or "#BBBBBB", 0.3)
                        page.add("line", x, top - row_h, x + w, top - row_h)
        if local:
            page.add("restoreState")
            page.reset()
    page.add("restoreState")
    page.reset()


def footer_ops(page: Page, plan, text: str) -> None:
    """cardgen.render.pdf._footer: a line of text and the 50 mm scale bar."""
    from cardgen.text.fonts import face_name
    font, y = face_name("sans"), plan.footer_y * MM
    page.fill_colour("#000000")
    page.text(font, 7, 10 * MM, y, text)
    bar_x = plan.page_w * MM - 60 * MM
    page.stroke_colour("#000000", 0.5)
    page.add("line", bar_x, y + 1, bar_x + 50 * MM, y + 1)
    for tick in range(0, 51, 10):
        page.add("line", bar_x + tick * MM, y + 1, bar_x + tick * MM,
                 y + 1 + (4 if tick % 50 == 0 else 2.5))
    page.text(font, 6, bar_x - 2 - pdfmetrics.stringWidth("50 mm:", font, 6), y, "50 mm:")


def prepare(pack: str, data_dir: Path = DATA):
    """Run cardgen's load, validate and layout once; return (page size, fonts, pages, folder)."""
    from cardgen.model.settings import BuildSettings
    from cardgen.pipeline.chain import validated as check
    from cardgen.pipeline.faces import layout_faces
    from cardgen.diagnostics import Report
    from cardgen.layout.sheet import PAPER, back_slots, plan_sheet
    from cardgen.text.fonts import FACES, FONTS
    report = Report()
    data = check(data_dir / pack, report)
    if data is not None and not report.errors:
        printed, _, layouter = layout_faces(data, report, BuildSettings())
    if data is None or report.errors:
        raise SystemExit(f"{pack} does not build: {[d.format() for d in report.errors][:5]}")
    settings = data.pack.print
    if settings.duplex not in ("long", "short"):
        raise SystemExit("the floor draws duplex sheets (long or short) only")
    card_w, card_h = settings.size()
    plan = plan_sheet(PAPER[settings.paper], (card_w, card_h), settings.bleed)
    backs = back_slots(plan, settings.duplex, settings.back_offset)
    footer = f"{data.pack.title} {data.pack.version}"
    from cardgen.text.words import labels_for
    words = labels_for(data.pack.language, data.pack.labels)
    per_sheet = len(plan.slots)
    sheets = [printed[i:i + per_sheet] for i in range(0, len(printed), per_sheet)]
    pages = []
    for number, sheet in enumerate(sheets):
        for side, slots in (("fronts", plan.slots), ("backs", backs)):
            page = Page()
            for slot, item in zip(slots, sheet):
                face = item.front if side == "fronts" else item.back
                face_ops(page, face, slot.x * MM, slot.y * MM, card_w, card_h, plan.bleed,
                         layouter.icons)
            if side == "fronts":
                page.stroke_colour("#000000", 0.5)
                for x1, y1, x2, y2 in plan.marks:
                    page.add("line", x1 * MM, y1 * MM, x2 * MM, y2 * MM)
            footer_ops(page, plan,
                       f"{footer} · {words[side]} — {len(pages) + 1}/{2 * len(sheets)}")
            pages.append(page.ops)
    used = {args[0] for ops in pages for name, args in ops if name == "setFont"}
    fonts = [(name, str(FONTS / FACES[name[3:]])) for name in sorted(used)]
    return (plan.page_w * MM, plan.page_h * MM), fonts, pages, data_dir / pack


# --- timed: bare reportlab -------------------------------------------------------------------

def picture_drawer(canvas, folder: Path, tmp: Path):
    """Draw a pack picture: scaled once per (file, size) to what 300 dpi needs, saved as a JPEG
    file and embedded from that file (reportlab copies a JPEG file's bytes, decoding nothing)."""
    from PIL import Image, ImageOps
    done: dict[tuple, str] = {}

    def picture(relative, x, y, w, h, radius):
        px = (max(1, round(w / 72 * 300)), max(1, round(h / 72 * 300)))
        key = (relative, *px)
        if key not in done:
            with Image.open(folder / relative) as image:
                image.draft("RGB", px)
                image = ImageOps.fit(image.convert("RGB"), px, method=Image.LANCZOS)
            done[key] = str(tmp / f"{len(done)}.jpg")
            image.save(done[key], "JPEG", quality=88)
        canvas.saveState()
        if radius:
            path = canvas.beginPath()
            path.roundRect(x, y, w, h, radius)
            canvas.clipPath(path, stroke=0, fill=0)
        canvas.drawImage(done[key], x, y, w, h)
        canvas.restoreState()
    return picture


def draw(page_size, fonts, pages, folder: Path = DATA) -> tuple[bytes, dict[str, float]]:
    import tempfile
    tmp = tempfile.TemporaryDirectory(prefix="floor-")
    c0 = time.process_time()
    t0 = time.perf_counter()
    for name, path in fonts:
        pdfmetrics.registerFont(TTFont(name, path))
    t1 = time.perf_counter()
    buffer = io.BytesIO()
    rl_config.useA85 = 0  # compressed streams stay binary: no ASCII85 pass, 1/5 smaller
    canvas = Canvas(buffer, pagesize=page_size, invariant=1, pageCompression=1)

    def clip(x, y, w, h):
        path = canvas.beginPath()
        path.rect(x, y, w, h)
        canvas.clipPath(path, stroke=0, fill=0)

    def portrait(x, y, w, h, seed, accent, radius, style, gender):
        draw_portrait(canvas, x, y, w, h, seed, accent=accent, radius=radius, style=style,
                      gender=gender)

    call = {name: getattr(canvas, name) for name in {n for ops in pages for n, _ in ops}
            if hasattr(canvas, name)}
    call.update(clip=clip, portrait=portrait, picture=picture_drawer(canvas, folder,
                                                                     Path(tmp.name)))
    for ops in pages:
        for name, args in ops:
            call[name](*args)
        canvas.showPage()
    t2 = time.perf_counter()
    canvas.save()
    pdf = buffer.getvalue()
    t3 = time.perf_counter()
    c3 = time.process_time()
    tmp.cleanup()
    return pdf, {"fonts_s": t1 - t0, "draw_s": t2 - t1, "save_s": t3 - t2, "total_s": t3 - t0,
                 "cpu_s": c3 - c0}


def compare(pack: str, floor_pdf: bytes, data_dir: Path = DATA) -> dict:
    """cardgen's cards.pdf of the same pack next to the floor's: pages and pixel difference."""
    import pypdfium2 as pdfium
    from PIL import ImageChops, ImageStat
    from cardgen.model.settings import BuildSettings
    from cardgen.pipeline.chain import validated as check
    from cardgen.pipeline.draw import render_pack
    from cardgen.diagnostics import Report
    report = Report()
    result = render_pack(check(data_dir / pack, report), report, BuildSettings(only=("cards",)))
    ours, floor = (pdfium.PdfDocument(d) for d in (result.files["cards.pdf"], floor_pdf))
    worst = 0.0
    for index in range(min(len(ours), len(floor))):
        a, b = (doc[index].render(scale=100 / 72).to_pil().convert("L") for doc in (ours, floor))
        worst = max(worst, ImageStat.Stat(ImageChops.difference(a, b)).mean[0])
    return {"cardgen_pages": len(ours), "floor_pages": len(floor),
            "worst_page_mean_diff": worst,  # mean |grey difference| (0-255) at 100 dpi
            "cardgen_bytes": len(result.files["cards.pdf"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pack", default="crazy-hospital")
    parser.add_argument("--data", type=Path, default=DATA, help="the folder of pack folders")
    parser.add_argument("--out", type=Path, help="also write the floor's PDF here")
    parser.add_argument("--check", action="store_true", help="compare with cardgen's cards.pdf")
    args = parser.parse_args()
    page_size, fonts, pages, folder = prepare(args.pack, args.data)
    pdf, times = draw(page_size, fonts, pages, folder)
    if args.out:
        args.out.write_bytes(pdf)
    result = {**times, "pages": len(pages), "bytes": len(pdf),
              "rl_accel_c": bool(rl_accel._c_funcs)}
    if not rl_accel._c_funcs:
        print("note: reportlab's C accelerators are off (reportlab >= 4 no longer bundles them; "
              "pip install rl_accel)", file=sys.stderr)
    if args.check:
        result.update(compare(args.pack, pdf, args.data))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
