"""PNG per card face, rasterised from the print-shop PDF itself, so PNG and PDF cannot drift.

Each PNG is drawn straight at the pixel size asked for (the card at `dpi`, rounded to whole
pixels), never drawn at another size and resampled: a resampled PNG is soft. It carries an
sRGB ICC profile, which print shops' file checks and image editors read as "these are sRGB
colours", and the resolution.
"""

from __future__ import annotations

import functools
import io
from ..units import MM


def png_name(face) -> str:
    """png/<card ID>.png for a front; png/back-<kind>.png for a kind's back."""
    return f"png/{face.card_id.replace(':', '-')}.png"


def card_pngs(printshop_pdf: bytes, printed, card_size, bleed: float, dpi: int,
              with_bleed: bool, only: set[str] | None = None,
              order: str = "sides") -> dict[str, bytes]:
    """{'png/<ID>.png': bytes} for every distinct front and back of the print-shop file.

    `order` is the file's page order (pdf.printshop_faces); `only` limits the work to these
    file names (the faces that changed since the last build)."""
    import pypdfium2 as pdfium

    from .pdf import printshop_faces
    document = pdfium.PdfDocument(printshop_pdf)
    out: dict[str, bytes] = {}
    try:
        for page_index, (index, back) in enumerate(printshop_faces(printed, order)):
            name = png_name(printed[index].back if back else printed[index].front)
            if name in out or (only is not None and name not in only):
                continue
            out[name] = _page_png(document[page_index], card_size, bleed, dpi, with_bleed)
    finally:
        document.close()
    return out


def _page_png(page, card_size, bleed: float, dpi: int, with_bleed: bool) -> bytes:
    """One page as a PNG of exactly the card's size in pixels at `dpi` (with or without its
    bleed), the resolution written into the file."""
    w, h = card_size
    extra = 2 * bleed if with_bleed else 0
    target = (round((w + extra) / 25.4 * dpi), round((h + extra) / 25.4 * dpi))
    image = page_image(page, bleed, with_bleed, target)
    return png_bytes(image, dpi)


def png_bytes(image, dpi: float) -> bytes:
    """The image as PNG with its resolution and the sRGB profile."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi), icc_profile=srgb_profile())
    return buffer.getvalue()


@functools.lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """LittleCMS's sRGB profile (Pillow's ImageCms), its creation date fixed at 2000-01-01:
    the same PNG bytes from every build."""
    from PIL import ImageCms
    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    data[24:36] = bytes((0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0))  # ICC header dateTime
    return bytes(data)


def page_image(page, bleed: float, with_bleed: bool, target: tuple[int, int]):
    """A print-shop page as a PIL image of exactly `target` pixels (closes the page).

    The page (trim + bleed), or its trim alone, is drawn onto a bitmap of `target` pixels by
    a matrix that maps that area exactly onto it (x and y scaled each to their whole number of
    pixels: at most half a pixel over the card, far below what a printer shows), not drawn at
    `dpi` and resampled."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    cut = 0.0 if with_bleed else bleed * MM  # pt cut off each edge
    width, height = page.get_width() - 2 * cut, page.get_height() - 2 * cut
    sx, sy = target[0] / width, target[1] / height
    bitmap = pdfium.PdfBitmap.new_native(target[0], target[1], raw.FPDFBitmap_BGR)
    bitmap.fill_rect((255, 255, 255, 255), 0, 0, target[0], target[1])
    # pdfium's page space here: points from the page's top-left corner, y down
    matrix = raw.FS_MATRIX(sx, 0, 0, sy, -cut * sx, -cut * sy)
    clip = raw.FS_RECTF(0, 0, target[0], target[1])
    raw.FPDF_RenderPageBitmapWithMatrix(bitmap, page, matrix, clip, raw.FPDF_ANNOT)
    image = bitmap.to_pil()
    page.close()
    return image
