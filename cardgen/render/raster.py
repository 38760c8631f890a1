"""PNG per card face, rasterised from the print-shop PDF itself, so PNG and PDF cannot drift."""

from __future__ import annotations

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
    image = page_image(page, bleed, dpi, with_bleed, target)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def page_image(page, bleed: float, dpi: float, with_bleed: bool, target: tuple[int, int]):
    """A print-shop page as a PIL image of exactly `target` pixels (closes the page)."""
    crop = (0, 0, 0, 0) if with_bleed else (bleed * MM,) * 4
    image = page.render(scale=dpi / 72, crop=crop).to_pil()
    page.close()
    return image if image.size == target else image.resize(target)
