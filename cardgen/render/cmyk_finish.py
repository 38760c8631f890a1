"""What Ghostscript's CMYK conversion leaves for cardgen to do, done with pikepdf.

Before: neutral colours become DeviceGray, which Ghostscript prints with black ink alone
(its DeviceGrayToK, on by default): black text and thin black lines are 100 % K, never a
four-colour black that blurs when the plates are a hair apart; a near-black neutral (at most
NEAR_BLACK of the way to white, such as #1B1B1F) is black as the designer meant it.
After: the total ink of every colour and every image pixel is held to the shop's limit (the
cyan, magenta and yellow reduced in proportion, black kept: LittleCMS's ink-limiting device
link does the same) and measured; the fonts' ToUnicode maps, which Ghostscript 10's PDF
interpreter drops, are restored from the RGB file (copy and search keep every character).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pikepdf
from pikepdf import Name

NEUTRAL = 0.04     # an RGB colour whose channels differ by at most this much is a grey
NEAR_BLACK = 0.15  # a grey this dark (or darker) prints as 100 % K


@dataclass(frozen=True)
class Inked:
    """A CMYK file and what was measured in it: the highest total ink (%) of any colour or
    image pixel, and how many colours and pixels were over the limit before."""

    pdf: bytes
    ink: float
    limited: int


def _streams(pdf: pikepdf.Pdf):
    """Every content stream that draws: each page's, and each form XObject's once."""
    seen: set = set()

    def forms(resources):
        for _, xobject in (resources.get("/XObject") or {}).items():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                yield xobject
                yield from forms(xobject.get("/Resources") or {})
    for page in pdf.pages:
        yield page
        yield from forms(page.obj.get("/Resources") or {})


def _rewrite(pdf: pikepdf.Pdf, target, edit) -> None:
    """Parse a page's or form's content, let `edit` change its operators, write it back only
    when something changed."""
    ops = pikepdf.parse_content_stream(target)
    changed = edit(ops)
    if changed:
        data = pikepdf.unparse_content_stream(ops)
        if isinstance(target, pikepdf.Page):
            target.obj.Contents = pdf.make_stream(data)
        else:
            target.write(data)


def _grey(values) -> float | None:
    r, g, b = (float(v) for v in values)
    if max(r, g, b) - min(r, g, b) > NEUTRAL:
        return None
    level = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 0.0 if level <= NEAR_BLACK else round(level, 4)


def neutrals_to_grey(rgb_pdf: bytes) -> bytes:
    """The RGB file with every neutral rg/RG colour written as DeviceGray g/G."""
    pdf = pikepdf.open(io.BytesIO(rgb_pdf))

    def edit(ops) -> bool:
        changed = False
        for index, (operands, operator) in enumerate(ops):
            op = str(operator)
            if op in ("rg", "RG") and len(operands) == 3:
                level = _grey(operands)
                if level is not None:
                    ops[index] = pikepdf.ContentStreamInstruction(
                        [level], pikepdf.Operator("g" if op == "rg" else "G"))
                    changed = True
        return changed
    for target in _streams(pdf):
        _rewrite(pdf, target, edit)
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True)
    return out.getvalue()


def limit_ink(values: list[float], limit: float) -> tuple[list[float], bool]:
    """C, M, Y, K (0..1) with C + M + Y + K at most `limit` (1.0 = 100 %): C, M and Y shrink
    in proportion, K stays (as far as K alone fits)."""
    c, m, y, k = values
    if limit <= 0 or c + m + y + k <= limit + 1e-9:
        return values, False
    k = min(k, limit)
    colour = c + m + y
    scale = (limit - k) / colour if colour > 0 else 0.0
    return [c * scale, m * scale, y * scale, k], True


def finish(cmyk_pdf: bytes, rgb_pdf: bytes, limit_percent: float) -> Inked:
    """Ink limited and measured, ToUnicode restored (see the module's docstring)."""
    pdf = pikepdf.open(io.BytesIO(cmyk_pdf))
    limit = limit_percent / 100
    state = {"most": 0.0, "limited": 0}

    def edit(ops) -> bool:
        changed = False
        spaces = {"fill": "/DeviceGray", "stroke": "/DeviceGray"}
        for index, (operands, operator) in enumerate(ops):
            op = str(operator)
            if op in ("cs", "CS"):
                spaces["fill" if op == "cs" else "stroke"] = str(operands[0])
                continue
            cmyk = op in ("k", "K") or (op in ("sc", "scn", "SC", "SCN") and len(operands) == 4
                                        and spaces["fill" if op.islower() else "stroke"]
                                        == "/DeviceCMYK")
            if op in ("g", "G"):  # a grey is black ink alone: written as such
                black = round(1 - float(operands[0]), 4)
                ops[index] = pikepdf.ContentStreamInstruction(
                    [0, 0, 0, black], pikepdf.Operator("k" if op == "g" else "K"))
                state["most"] = max(state["most"], black)
                changed = True
                continue
            if not cmyk:
                continue
            values, over = limit_ink([float(v) for v in operands], limit)
            if over:
                state["limited"] += 1
                ops[index] = pikepdf.ContentStreamInstruction([round(v, 4) for v in values],
                                                              operator)
                changed = True
            state["most"] = max(state["most"], sum(round(v, 4) for v in values))
        return changed
    for target in _streams(pdf):
        _rewrite(pdf, target, edit)
    _limit_images(pdf, limit, state)
    restore_to_unicode(pdf, pikepdf.open(io.BytesIO(rgb_pdf)))
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
             compress_streams=True)
    return Inked(out.getvalue(), round(state["most"] * 100, 1), state["limited"])


def _limit_images(pdf: pikepdf.Pdf, limit: float, state: dict) -> None:
    """Every CMYK image held to the limit pixel by pixel, and measured."""
    import zlib

    from PIL import Image, ImageMath
    for obj in pdf.objects:
        if not (isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"):
            continue
        try:
            image = pikepdf.PdfImage(obj).as_pil_image()
        except Exception:  # an image pikepdf cannot decode: left as it is, not measured
            continue
        if image.mode != "CMYK":
            if image.mode in ("L", "1"):
                state["most"] = max(state["most"], 1.0)
            continue
        c, m, y, k = (channel.convert("F") for channel in image.split())
        full = 255 * limit if limit > 0 else 4 * 255
        total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                      c=c, m=m, y=y, k=k)
        if total.getextrema()[1] > full + 0.5:
            scale = ImageMath.lambda_eval(
                lambda a: a["min"](a["max"](a["full"] - a["k"], 0.0) /
                                   a["max"](a["c"] + a["m"] + a["y"], 0.001), 1.0),
                c=c, m=m, y=y, k=k, full=full)
            over = ImageMath.lambda_eval(lambda a: a["t"] > a["full"], t=total, full=full)
            state["limited"] += int(sum(over.convert("L").histogram()[1:]))
            c, m, y = (ImageMath.lambda_eval(lambda a: a["v"] * a["s"], v=v, s=scale)
                       for v in (c, m, y))
            image = Image.merge("CMYK", [v.convert("L") for v in (c, m, y, k.convert("L"))])
            obj.write(zlib.compress(image.tobytes()), filter=Name.FlateDecode)
            for key in ("/DecodeParms", "/Decode"):
                if key in obj:
                    del obj[key]
            obj.ColorSpace, obj.BitsPerComponent = Name.DeviceCMYK, 8
            c, m, y, k = (channel.convert("F") for channel in image.split())
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"],
                                          c=c, m=m, y=y, k=k)
        state["most"] = max(state["most"], total.getextrema()[1] / 255)


# --- ToUnicode ----------------------------------------------------------------------------

_BFCHAR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


def _unicode_map(font) -> dict[int, str]:
    stream = font.get("/ToUnicode")
    if stream is None:
        return {}
    out = {}
    for code, text in _BFCHAR.findall(stream.read_bytes()):
        try:
            out[int(code, 16)] = bytes.fromhex(text.decode()).decode("utf-16-be")
        except ValueError:
            continue
    return out


def _widths(font) -> dict[int, float]:
    first = int(font.get("/FirstChar", 0))
    return {first + i: float(w) for i, w in enumerate(font.get("/Widths") or [])}


def _face(font) -> str:
    return str(font.get("/BaseFont", "")).split("+", 1)[-1]


def _fonts_by_page(pdf: pikepdf.Pdf):
    """(page index, font dictionary) of every simple font a page or its forms use."""
    for index, page in enumerate(pdf.pages):
        stack = [page.obj.get("/Resources") or {}]
        seen = set()
        while stack:
            resources = stack.pop()
            for _, font in (resources.get("/Font") or {}).items():
                yield index, font
            for _, xobject in (resources.get("/XObject") or {}).items():
                if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                    seen.add(xobject.objgen)
                    stack.append(xobject.get("/Resources") or {})


def restore_to_unicode(converted: pikepdf.Pdf, original: pikepdf.Pdf) -> int:
    """Give every font of the converted file without a ToUnicode map the map of the original
    font it was made from: the same face, the same widths for the codes it holds (Ghostscript
    keeps the character codes), used on the same pages. Returns how many were restored."""
    sources: dict[tuple, dict] = {}
    for index, font in _fonts_by_page(original):
        entry = sources.setdefault(font.objgen, {"face": _face(font), "widths": _widths(font),
                                                 "map": _unicode_map(font), "pages": set()})
        entry["pages"].add(index)
    targets: dict[tuple, tuple] = {}
    for index, font in _fonts_by_page(converted):
        if "/ToUnicode" in font or str(font.get("/Subtype")) not in ("/TrueType", "/Type1"):
            continue
        targets.setdefault(font.objgen, (font, set()))[1].add(index)
    restored = 0
    for font, pages in targets.values():
        widths = _widths(font)
        fits = [s for s in sources.values() if s["face"] == _face(font) and s["map"] and
                all(code in s["widths"] and abs(s["widths"][code] - w) <= 1
                    for code, w in widths.items() if w)]
        if len(fits) > 1:
            fits = [s for s in fits if pages <= s["pages"]] or fits
        maps = {tuple(sorted((c, s["map"].get(c)) for c in widths)) for s in fits}
        if len(maps) != 1:
            continue  # none, or candidates that read the codes differently: leave it
        chosen = dict(maps.pop())
        font.ToUnicode = converted.make_stream(_cmap(font, chosen))
        restored += 1
    return restored


def _cmap(font, chars: dict[int, str | None]) -> bytes:
    """A ToUnicode CMap for one-byte codes (as reportlab writes them)."""
    name = _face(font) or "F"
    pairs = [(code, text) for code, text in sorted(chars.items()) if text]
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             f"/CIDSystemInfo << /Registry ({name}) /Ordering ({name}) /Supplement 0 >> def",
             f"/CMapName /{name} def", "/CMapType 2 def",
             "1 begincodespacerange", "<00> <FF>", "endcodespacerange"]
    for start in range(0, len(pairs), 100):  # at most 100 entries a block
        block = pairs[start:start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{code:02X}> <{text.encode('utf-16-be').hex().upper()}>"
                  for code, text in block]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines).encode()
